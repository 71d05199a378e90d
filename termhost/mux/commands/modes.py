"""Verbs that put a pane (a client) into one of tmux's modes: clock-mode, choose-tree,
choose-buffer, choose-client, find-window and customize-mode.

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
from termhost.mux.model import Session
from termhost.mux.pane import Pane

if TYPE_CHECKING:
    from termhost.mux.attached import Client
    from termhost.mux.server import Server

__all__ = ["ChooseRequest", "find_window_filter"]


@dataclass(frozen=True)
class ChooseRequest:
    """What choose-tree, choose-buffer, choose-client, find-window or customize-mode
    asked the client to list, in the words of their flags (tmux's mode-tree
    arguments)."""

    kind: Literal["buffer", "client", "customize", "tree"]
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
    collapsed: Literal["", "sessions", "windows"] = ""
    """choose-tree's -s (sessions collapsed) or -w (windows collapsed); neither: every
    session expanded to its windows and every window to its panes."""


def _request(flags: dict[str, str], kind: Literal["buffer", "client", "customize", "tree"],
             target: str, template: str) -> ChooseRequest:
    collapsed: Literal["", "sessions", "windows"] = (
        "sessions" if "s" in flags else "windows" if "w" in flags else "")
    return ChooseRequest(kind, target, template, flags.get("F"), flags.get("f"),
                         flags.get("K"), flags.get("O"), "r" in flags, "N" not in flags,
                         collapsed if kind == "tree" else "")


@command("clock-mode")
async def clock_mode(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target pane shows a big clock until a key is pressed in it; a pane already
    showing it is left as it is, as tmux's window_pane_set_mode."""
    session, _, pane = find_pane(context.server, flags.get("t"))
    if not isinstance(pane.mode, ClockMode):
        mode = pane.mode = ClockMode()
        _tick(context.server, pane, mode)
        context.server.refresh(session)
    return Result()


def _tick(server: Server, pane: Pane, mode: ClockMode) -> None:
    """Redraw the clock when the minute turns, for as long as the pane shows it (tmux's
    window_clock_timer_callback redraws on a new minute), in the session the pane is
    in then (a moved window takes its clock along)."""

    def turn() -> None:
        if pane.mode is mode and not pane.closed:
            for session in server.sessions.values():
                if any(pane in window.panes for window in session.windows):
                    server.refresh(session)
            _tick(server, pane, mode)

    asyncio.get_running_loop().call_later(60.05 - time.time() % 60, turn)


@command("choose-tree")
async def choose_tree(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The tree of sessions, windows and panes to choose from, for the pane -t names
    (its row selected): shown by the client that asked, else by a client of that
    pane's session, else by the current client. With no client attached nothing shows
    it, and it succeeds, as tmux's pane goes into tree mode unseen. -G (every session
    of a session group) changes nothing: termhost has no session groups, so every
    session is listed anyway; -Z is how termhost always shows it."""
    target = find_pane(context.server, flags["t"]) if "t" in flags else None
    client = _showing(context, target[0] if target is not None else None)
    if client is None:
        return Result()
    pane = target[2] if target is not None else client.session.active_window.active
    client.choose(_request(flags, "tree", pane.name,
                           args[0] if args else "switch-client -t '%%'"))
    return Result()


def _showing(context: Context, session: Session | None) -> Client | None:
    """The client a mode's list shows on: the one that asked, else one of `session`'s
    (the target's), else the current client (the latest to attach or type); None with
    no client attached, when tmux's pane goes into the mode unseen and the verb
    succeeds."""
    clients = context.server.clients
    if context.client is not None:
        return context.client
    return next((c for c in clients if c.session is session), clients[0] if clients else None)


@command("choose-buffer")
async def choose_buffer(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The paste buffers to choose from, on the current client; Enter pastes the chosen
    one (the template, `paste-buffer -b '%%'` by default). No buffers, no list."""
    session, _, pane = find_pane(context.server, flags.get("t"))
    client = _showing(context, session)
    if client is not None and context.server.buffers.all():
        client.choose(_request(flags, "buffer", pane.name,
                               args[0] if args else "paste-buffer -b '%%'"))
    return Result()


@command("choose-client")
async def choose_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The attached clients to choose from, on the current client; Enter detaches the
    chosen one (the template, `detach-client -t '%%'` by default)."""
    session, _, pane = find_pane(context.server, flags.get("t"))
    client = _showing(context, session)
    if client is None:
        return Result()
    client.choose(_request(flags, "client", pane.name,
                           args[0] if args else "detach-client -t '%%'"))
    return Result()


@command("customize-mode")
async def customize_mode(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The server's options and key bindings as a tree to browse and change, on the
    current client, the values shown being those the pane -t names sees; with no
    client nothing shows it and it succeeds, as choose-tree. -Z is how termhost always
    shows it."""
    session, _, pane = find_pane(context.server, flags.get("t"))
    client = _showing(context, session)
    if client is not None:
        client.choose(_request(flags, "customize", pane.name, ""))
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
    session, _, pane = find_pane(context.server, flags.get("t"))
    client = _showing(context, session)
    if client is None:
        return Result()
    client.choose(ChooseRequest("tree", pane.name, "switch-client -t '%%'",
                                filter=find_window_filter(flags, args[0])))
    return Result()
