"""What the multiplexer asks of an attached client: the interface the verbs and the
server hold clients by, so that mux/ never names the TUI that implements it (ui/app.py's
AttachedClient, which the server makes when a connection attaches)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from termhost.mux.format_variables import FormatClient

if TYPE_CHECKING:
    from termhost.mux.commands.modes import ChooseRequest
    from termhost.mux.model import Session
    from termhost.mux.mouse import Mouse
    from termhost.mux.pane import Pane
    from termhost.mux.server import Server
    from termhost.mux.style import Style

__all__ = ["Client", "ClientFactory"]


class Client(FormatClient, Protocol):
    """An attached client: its terminal, its session, and what verbs do on it."""

    detach_reason: str
    detach_hangup: bool
    """Detached with SIGHUP to its parent (detach-client -P, attach -x): its shell goes."""
    detach_command: str | None
    """Detached to run this in its place (detach-client -E): the client execs it."""
    hand_over: Callable[[str | None], None]
    environ: Mapping[str, str]
    """The environment the client attached with (tmux's c->environ): what
    update-environment copies into the session it switches to."""

    @property
    def body_rows(self) -> int: ...

    @property
    def prompting(self) -> bool: ...

    async def run(self) -> None: ...

    def feed(self, data: bytes) -> None: ...

    def resize(self, cols: int, rows: int) -> None: ...

    def refresh(self, pane: Pane | None = None) -> None: ...

    def relayout(self) -> None: ...

    def refresh_status(self) -> None: ...

    def detach(self, reason: str | None = None) -> None: ...

    def leave_terminal(self, lock_command: str | None = None) -> None: ...

    def wake(self) -> None: ...

    def write_terminal(self, text: str) -> None: ...

    def show_message(self, message: str, milliseconds: int | None = None, *,
                     ignore_keys: bool = False) -> None: ...

    def active(self) -> Pane: ...

    def env(self) -> dict[str, str]: ...

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None: ...

    async def run_line(self, line: str, *, pane: Pane | None = None) -> None: ...

    async def ask(self, label: str, text: str = "", *, kind: str = "command",
                  one_key: str = "", numeric: bool = False, confirming: bool = False,
                  on_change: Callable[[str], None] | None = None) -> str | None: ...

    def switch_to(self, target: str) -> None: ...

    def step_session(self, step: int) -> None: ...

    def switch_key_table(self, table: str | None) -> None: ...

    def display_panes(self, duration: float = ..., *, select: bool = ...
                      ) -> asyncio.Future[None] | None: ...

    def choose(self, request: ChooseRequest) -> None: ...

    def open_menu(self, items: list[tuple[str, str, str]], title: str, selected: Style,
                  place: Callable[[int, int], tuple[int, int]], *, mouse: bool,
                  stay_open: bool) -> asyncio.Future[str | None] | None: ...

    def status_window_start(self, index: int) -> int | None:
        """The first column of window `index`'s name in the client's status line."""

    def open_popup(self, pane: Pane, box: tuple[int, int, int, int], lines: str | None,
                   border_style: Style, title: str, close_on_exit: int, style: Style
                   ) -> asyncio.Future[int] | None: ...

    def close_overlay(self) -> None: ...

    def pan(self, direction: str, adjustment: int) -> None:
        """refresh-client -L/-R/-U/-D (`direction`) by `adjustment` cells, -c ("c")."""

    def request_clipboard(self, pane: Pane | None) -> None:
        """refresh-client -l: the terminal's clipboard into a new buffer, or to `pane`."""

    def start_copy_drag(self, mouse: Mouse) -> None:
        """copy-mode -M, send -X begin-selection from a mouse key: the mouse's pane's
        copy mode selects from where the button went down as the mouse drags."""

    def start_border_drag(self, mouse: Mouse) -> None:
        """resize-pane -M: the border under the mouse follows its drag."""


class ClientFactory(Protocol):
    """Makes the client of a connection that attaches: `send` writes to its terminal,
    `cols` x `rows` is its size. The composition root (termhost/serve.py) gives the
    server the TUI's (ui/app.py); a headless one serves as well."""

    def __call__(self, server: Server, session: Session, send: Callable[[bytes], None],
                 cols: int, rows: int, *, env: Mapping[str, str], force_256: bool
                 ) -> Client: ...
