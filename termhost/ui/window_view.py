"""The part of a window a client shows when the window is larger than the client
(window-size largest or manual, resize-window): tmux's tty_window_offset.

By default the view follows the active pane's cursor, keeping it in the middle where the
window allows; refresh-client -L/-R/-U/-D pan it by hand (`Pan`) until refresh-client -c,
or until the client shows another window, as tmux keeps the pan per client for one
window. Pure functions over the layout's numbers, so the client (app.py) and the
variables it gives formats (#{window_offset_x}) read the same view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from termhost.mux.layout import Cell
    from termhost.mux.model import Window
    from termhost.mux.pane import Pane

__all__ = ["Pan", "View", "clipped", "pan", "view_of"]


class View(NamedTuple):
    """The window's cells the client shows: from (x, y), `width` x `height`; `bigger`
    when that is not the whole window (tmux's tty_window_offset returning 1)."""

    x: int
    y: int
    width: int
    height: int
    bigger: bool


@dataclass
class Pan:
    """refresh-client's panning: the view of `window` held at (x, y)."""

    window: Window
    x: int
    y: int


def view_of(window: Window, cols: int, rows: int, panned: Pan | None) -> View:
    """What a client of `cols` x `rows` (its status line left out) shows of `window`,
    as tmux's tty_window_offset1: all of it when it fits; else where the pan holds it
    (kept inside the window), else around the active pane's cursor when it is shown,
    else the top left."""
    root = window.layout
    width, height = root.width, root.height
    if cols >= width and rows >= height:
        return View(0, 0, width, height, False)
    if panned is not None and panned.window is window:
        x = 0 if cols >= width else min(panned.x, width - cols)
        y = 0 if rows >= height else min(panned.y, height - rows)
        return View(x, y, cols, rows, True)
    pane = window.active
    screen = pane.terminal.screen
    if not screen.cursor_visible:
        return View(0, 0, cols, rows, True)
    cell = window.cell_of(pane)
    return View(_around(cell.x + int(screen.cursor.x), cols, width),
                _around(cell.y + int(screen.cursor.y), rows, height), cols, rows, True)


def _around(at: int, size: int, whole: int) -> int:
    """The view's start putting `at` in its middle, as tmux's: 0 while `at` is in the
    first view, the last view once past the window's last but one."""
    if at < size:
        return 0
    if at > whole - size:
        return whole - size
    return at - size // 2


def pan(current: Pan | None, window: Window, view: View, direction: str,
        adjustment: int) -> Pan:
    """refresh-client -L/-R/-U/-D by `adjustment` cells from the view shown (a pan of
    another window starts from it), kept inside the window, as tmux's."""
    if current is None or current.window is not window:
        current = Pan(window, view.x, view.y)
    root = window.layout
    if direction == "L":
        current.x = max(current.x - adjustment, 0)
    elif direction == "R":
        current.x = _forward(current.x + adjustment, root.width - view.width)
    elif direction == "U":
        current.y = max(current.y - adjustment, 0)
    elif direction == "D":
        current.y = _forward(current.y + adjustment, root.height - view.height)
    return current


def _forward(to: int, last: int) -> int:
    """A pan right (down) to `to`, no further than the `last` start there is (none when
    the view is wider than the window: view_of shows it all then)."""
    return min(to, last) if last >= 0 else to


def clipped(cell: Cell[Pane], view: View) -> tuple[int, int, int, int, int, int] | None:
    """Where on the client the part of `cell` inside `view` goes, and which of the
    pane's cells it starts from: (x, y, width, height, left, top); None when none of it
    is in view."""
    left = max(view.x - cell.x, 0)
    top = max(view.y - cell.y, 0)
    width = min(cell.x + cell.width, view.x + view.width) - (cell.x + left)
    height = min(cell.y + cell.height, view.y + view.height) - (cell.y + top)
    if width <= 0 or height <= 0:
        return None
    return cell.x + left - view.x, cell.y + top - view.y, width, height, left, top
