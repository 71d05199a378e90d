"""Verbs that put a pane (a client) into one of tmux's modes: clock-mode, choose-buffer,
choose-client and find-window (choose-tree is in clients.py).

clock-mode is the pane's, as copy mode is: every client showing the pane shows the
clock, redrawn when the minute turns. The choose modes are shown by the client that
asked, as termhost's choose-tree is: the verb says what to list (a `ChooseRequest`) and
the client (ui/choose_modes.py) lists it, so the server stays headless.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from termhost.mux.clock_mode import ClockMode
from termhost.mux.commands import Context, Result, command, find_pane
from termhost.mux.commands.clients import find_client
from termhost.mux.model import Session
from termhost.mux.pane import Pane

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["ChooseRequest", "find_window_filter"]


@dataclass(frozen=True)
class ChooseRequest:
    """What choose-buffer, choose-client or find-window asked the client to list, in
    the words of their flags (tmux's mode-tree arguments)."""

    kind: Literal["buffer", "client", "tree"]
    target: str
    """The pane the mode is for (`%N`): its variables are in the formats, and the
    template's command runs against it."""
    template: str = ""
    """The command Enter runs, `%%` the chosen item's name."""
    format: str | None = None
    """-F: each item's text (else the mode's default, #{buffer_mode_format}...)."""
    filter: str | None = None
    """-f: a format; the items it is false for are left out."""
    key_format: str | None = None
    """-K: each row's shortcut key, from #{line}."""
    sort: str | None = None
    """-O: the sort order's name, as tmux matches it (any case; unknown ones ignored)."""
    reverse: bool = False
    """-r: the sort order reversed."""
    preview: bool = True
    """Not -N: the preview under the list."""


def _request(flags: dict[str, str], kind: Literal["buffer", "client", "tree"],
             target: str, template: str) -> ChooseRequest:
    return ChooseRequest(kind, target, template, flags.get("F"), flags.get("f"),
                         flags.get("K"), flags.get("O"), "r" in flags, "N" not in flags)


@command("clock-mode")
async def clock_mode(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target pane shows a big clock until a key is pressed in it; a pane already
    showing it is left as it is, as tmux's window_pane_set_mode."""
    session, _, pane = find_pane(context.server, flags.get("t"))
    if not isinstance(pane.mode, ClockMode):
        mode = pane.mode = ClockMode()
        _tick(context.server, session, pane, mode)
        context.server.refresh(session)
    return Result()


def _tick(server: Server, session: Session, pane: Pane, mode: ClockMode) -> None:
    """Redraw the clock when the minute turns, for as long as the pane shows it (tmux's
    window_clock_timer_callback redraws on a new minute)."""

    def turn() -> None:
        if pane.mode is mode and not pane.closed:
            server.refresh(session)
            _tick(server, session, pane, mode)

    asyncio.get_running_loop().call_later(60.05 - time.time() % 60, turn)


@command("choose-buffer")
async def choose_buffer(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The paste buffers to choose from, on the current client; Enter pastes the chosen
    one (the template, `paste-buffer -b '%%'` by default). No buffers, no list."""
    _, _, pane = find_pane(context.server, flags.get("t"))
    client = find_client(context, None)
    if context.server.buffers.all():
        client.choose(_request(flags, "buffer", pane.name,
                               args[0] if args else "paste-buffer -b '%%'"))
    return Result()


@command("choose-client")
async def choose_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The attached clients to choose from, on the current client; Enter detaches the
    chosen one (the template, `detach-client -t '%%'` by default)."""
    _, _, pane = find_pane(context.server, flags.get("t"))
    client = find_client(context, None)
    client.choose(_request(flags, "client", pane.name,
                           args[0] if args else "detach-client -t '%%'"))
    return Result()


def find_window_filter(flags: dict[str, str], match: str) -> str:
    """The choose-tree filter find-window builds from its flags, as tmux's: the match
    string in the pane's content (-C), the window's name (-N) or the pane's title (-T),
    all three when none is given; -r a regular expression, -i ignoring case."""
    suffix = "/" + "".join(flag for flag in "ri" if flag in flags)
    suffix = "" if suffix == "/" else suffix
    tests = {"C": f"#{{C{suffix}:{match}}}",
             "N": f"#{{m{suffix}:*{match}*,#{{window_name}}}}",
             "T": f"#{{m{suffix}:*{match}*,#{{pane_title}}}}"}
    chosen = [test for flag, test in tests.items() if flag in flags] or list(tests.values())
    filter_ = chosen[-1]
    for test in reversed(chosen[:-1]):
        filter_ = f"#{{||:{test},{filter_}}}"
    return filter_


@command("find-window")
async def find_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """choose-tree, every pane shown, filtered to the windows whose name, panes' titles
    or panes' content hold the match string (find_window_filter)."""
    _, _, pane = find_pane(context.server, flags.get("t"))
    client = find_client(context, None)
    client.choose(ChooseRequest("tree", pane.name, filter=find_window_filter(flags, args[0])))
    return Result()
