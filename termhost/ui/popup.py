"""display-popup on a client: a program on a PTY of its own in a box over the panes, as
tmux 3.3a's popup.c.

The program runs in a `Pane` (its PTY, its emulator), started by the verb
(mux/commands/overlays.py) and never put in any window, so that the painter draws it as
it draws panes, damaged cells only. While the popup is open it is the only pane the
client paints and it takes every key, the prefix too, as in tmux; Escape and C-c close
it, unless it closes on its program's exit (-E) and the program still runs. `closed` is
the future the verb waits on (tmux's display-popup waits for the popup): the program's
exit status (128 + the signal that ended it: SIGHUP when the popup closed first), which
tmux makes the command's.
"""

from __future__ import annotations

import asyncio
import signal

from prompt_toolkit.key_binding import KeyPress

from termhost.mux.pane import Pane
from termhost.mux.style import Style
from termhost.terminal.mouse import MouseEvent
from termhost.ui.box import BoxLines, box
from termhost.ui.key_names import key_bytes
from termhost.ui.painter import Placement

__all__ = ["Popup"]

_CLOSE = frozenset({"Escape", "escape", "C-c"})


class Popup:
    """An open popup: the box's top left cell (`x`, `y`), its size with the border,
    the border's `lines` (None: no border, -B), and when its program's exit closes it
    (`close_on_exit`: 0 never, 1 always, -E; 2 on success only, -EE)."""

    def __init__(self, pane: Pane, x: int, y: int, width: int, height: int, *,
                 lines: BoxLines | None, border_style: Style, title: str = "",
                 close_on_exit: int = 0, style: Style | None = None) -> None:
        self.pane = pane
        self.x, self.y, self.width, self.height = x, y, width, height
        self.lines = lines
        self.border_style = border_style
        self.title = title
        self.close_on_exit = close_on_exit
        self.style = style or Style()
        """The program's default colours (popup-style, -s)."""
        self.closed: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        pane.on_close = self._ended

    @staticmethod
    def inside(width: int, height: int, bordered: bool) -> tuple[int, int]:
        """The size of the program's terminal in a box of `width` x `height`."""
        return (width - 2, height - 2) if bordered else (width, height)

    def placement(self) -> Placement:
        inset = 1 if self.lines is not None else 0
        cols, rows = self.inside(self.width, self.height, self.lines is not None)
        return Placement(self.pane, self.x + inset, self.y + inset, cols, rows,
                         (self.style.fg, self.style.bg))

    def draw(self, depth: int) -> str:
        if self.lines is None:
            return ""
        return box(self.x, self.y, self.width, self.height, self.lines, self.border_style,
                   self.title, depth)

    def press(self, press: KeyPress, name: str) -> None:
        running = not self.pane.closed
        if name in _CLOSE and (not self.close_on_exit or not running):
            self.close()
        elif running:
            self.pane.write(key_bytes(self.pane, press.key, press.data))

    def mouse(self, event: MouseEvent) -> None:
        """The mouse over a popup does nothing yet (tmux moves and resizes it by its
        border, and gives its program the events inside)."""

    def close(self) -> None:
        pane = self.pane
        status = pane.exit_status
        if not pane.killed:
            pane.on_close = None
            pane.kill()  # SIGHUP, if it still runs
        if not self.closed.done():
            if status is None:
                self.closed.set_result(128 + signal.SIGHUP)
            elif status.signal is not None:
                self.closed.set_result(128 + status.signal)
            else:
                self.closed.set_result(status.code or 0)

    def _ended(self, pane: Pane) -> None:
        """The program ended (and its output is all drawn): with -E the popup closes,
        with -EE only if it succeeded; otherwise its last screen stays."""
        status = pane.exit_status
        success = status is not None and status.signal is None and status.code == 0
        if self.close_on_exit == 1 or (self.close_on_exit == 2 and success):
            self.close()
