"""Pane content straight to a client's terminal: the changed cells of changed rows only.

prompt_toolkit redraws by rebuilding and diffing every cell of the frame in Python, about
8 ms for 120x40: far too slow for a keystroke echo. So prompt_toolkit draws only the
chrome (borders, status bar, overlays) and leaves the panes' areas blank in its own idea
of the screen, where they never change, so that its diffs never write there. This module
draws the panes the way tmux's tty layer does: for each row the emulator marked dirty, the
runs of cells that differ from what this client's terminal shows, with one cursor move
per run and an SGR only where the attributes change.

The terminal's state has one owner at a time. A paint starts from what prompt_toolkit
left (cursor hidden, attributes reset) and leaves the same: attributes reset, the cursor
on the active pane's cursor, and prompt_toolkit told where that is. Whenever prompt_toolkit
erased any part of the screen (a full redraw, a resize, a trimmed row), everything here is
forgotten and repainted.
"""

from __future__ import annotations

import functools
import itertools
import operator
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import repeat

from prompt_toolkit.data_structures import Point
from prompt_toolkit.output.vt100 import Vt100_Output

from termhost.mux.pane import Pane
from termhost.terminal.cell import BLANK, WIDE_STUB, Cell
from termhost.terminal.sgr import attribute_params
from termhost.ui.colours import TRUE_COLOUR, sgr_colour

__all__ = ["Painter", "Placement", "TrackingOutput", "cells_at"]

_GAP = 4
"""Unchanged cells between two changed runs of a row written over rather than skipped
with a cursor move (a CUP is 6 to 8 bytes)."""

Shown = tuple[str, str]
"""A cell as the terminal shows it: (SGR sequence, glyph); glyph "" for a wide right half."""


class TrackingOutput(Vt100_Output):
    """prompt_toolkit's output that notes when it erased part of the screen."""

    erased = False

    def erase_screen(self) -> None:
        self.erased = True
        super().erase_screen()

    def erase_down(self) -> None:
        self.erased = True
        super().erase_down()

    def erase_end_of_line(self) -> None:
        self.erased = True
        super().erase_end_of_line()


@dataclass(frozen=True)
class Placement:
    """Where a pane is on the client's screen (0-based cells)."""

    pane: Pane
    x: int
    y: int
    width: int
    height: int
    colours: tuple[str, str] = ("default", "default")
    """(fg, bg) the cells in the terminal's default colours are drawn in instead: the
    pane's window-style (pane_colours.py); a change repaints the pane whole."""
    left: int = 0
    top: int = 0
    """The pane's first column and row shown: more than 0 for a pane partly out of the
    view of a window larger than the client (window_view.py)."""


class Painter:
    """Paints panes for one client. `move_cursor_to` tells prompt_toolkit where the
    cursor was left (its renderer moves relative to where it believes the cursor is)."""

    def __init__(self, output: Vt100_Output, move_cursor_to: Callable[[Point], None],
                 depth: int = TRUE_COLOUR) -> None:
        self._output = output
        self.depth = depth
        """The outer terminal's colour depth (ui/colours.py): colours are brought down
        to it, as tmux does for a terminal without true colour."""
        self.cursor_shape = 0
        """The cursor shape last set on the terminal (DECSCUSR; 0 its default)."""
        self._move_cursor_to = move_cursor_to
        self._shown: dict[Pane, dict[int, list[Cell]]] = {}
        self._placed: dict[Pane, Placement] = {}
        self._damage: dict[Pane, set[int]] = {}

    def forget(self) -> None:
        """The terminal no longer shows what was painted: paint everything next time."""
        self._shown.clear()
        self._placed.clear()

    def paint(
        self, placements: Iterable[Placement], active: Pane | None, only: Pane | None = None,
        overlay: str = "", cursor_at: Point | None = None,
    ) -> None:
        """Bring every placed pane (or only the placed pane `only`) up to date on the
        terminal, write `overlay` over them (display-panes' numbers), then put the cursor
        on the active pane's, or at `cursor_at` (a prompt's). Panes left out keep their
        damage for the next paint."""
        out: list[str] = []
        placed = {placement.pane: placement for placement in placements}
        if only is None:
            for pane in [pane for pane in self._shown if pane not in placed]:
                del self._shown[pane]  # hidden now: repainted in full when shown again
            for pane in list(self._damage):
                if pane not in placed and pane.closed:
                    del self._damage[pane]
        for placement in placed.values():
            if only is None or placement.pane is only:
                self._paint_pane(placement, out)
        if overlay:
            out.append(overlay)
        output = self._output
        output.hide_cursor()
        if out:
            output.write_raw("".join(out) + "\x1b[0m")
        cursor = (cursor_at, True) if cursor_at is not None else self._cursor(
            placed.get(active) if active is not None else None)
        shape = active.terminal.screen.cursor_shape if active is not None else 0
        if cursor is None and out:
            # No pane's cursor to show (the active pane is under copy mode's frame): the
            # writes left the cursor somewhere prompt_toolkit must still be told of.
            cursor = Point(x=0, y=0), False
        if cursor is not None and cursor_at is None and shape != self.cursor_shape:
            output.write_raw(f"\x1b[{shape} q")  # DECSCUSR: the active pane's shape
            self.cursor_shape = shape
        if cursor is not None:
            point, visible = cursor
            output.write_raw(f"\x1b[{point.y + 1};{point.x + 1}H")
            self._move_cursor_to(point)
            if visible:
                output.show_cursor()
        output.flush()

    def _paint_pane(self, placement: Placement, out: list[str]) -> None:
        pane = placement.pane
        if pane not in self._damage:
            _subscribe(pane, self)
            self._damage[pane] = set()
        screen = pane.terminal.screen  # emulates whatever output is pending
        _collect_damage(pane)
        damage = self._damage[pane]
        left, top = placement.left, placement.top
        height = max(min(placement.height, int(screen.lines) - top), 0)
        width = max(min(placement.width, int(screen.columns) - left), 0)
        shown = self._shown.get(pane)
        if shown is None or self._placed.get(pane) != placement:
            shown = self._shown[pane] = {}
            self._placed[pane] = placement
            rows: Iterable[int] = range(height)
        else:
            rows = sorted(y - top for y in damage if top <= y < top + height)
        damage.clear()
        buffer = screen.buffer
        columns = range(left, left + width)
        blanks = itertools.repeat(BLANK)  # endless: every row's map() stops at width
        recolour = (None if placement.colours == ("default", "default")
                    else functools.partial(_recoloured, *placement.colours))
        for y in rows:
            row = buffer.get(y + top)
            # map() keeps the per-cell work in C: an echo repaints a whole row.
            new = list(map(row.get, columns, blanks)) if row else [BLANK] * width
            if recolour is not None:
                new = list(map(recolour, new))
            old = shown.get(y)
            shown[y] = new
            _row_changes(new, old, placement.x, placement.y + y, out, self.depth)

    def _cursor(self, placement: Placement | None) -> tuple[Point, bool] | None:
        if placement is None:
            return None
        screen = placement.pane.terminal.screen
        x = min(int(screen.cursor.x), int(screen.columns) - 1) - placement.left
        y = int(screen.cursor.y) - placement.top
        inside = 0 <= x < placement.width and 0 <= y < placement.height
        x, y = min(max(x, 0), placement.width - 1), min(max(y, 0), placement.height - 1)
        clipped = (placement.left or placement.top or placement.width < screen.columns
                   or placement.height < screen.lines)
        return (Point(x=placement.x + x, y=placement.y + y),
                bool(screen.cursor_visible) and (inside or not clipped))


def cells_at(cells: list[Cell], x: int, y: int, depth: int = TRUE_COLOUR) -> str:
    """What writes `cells` at column `x` of row `y`, whatever was there: a row of an
    overlay drawn over the panes (a popup's border, a menu), in the painter's SGRs."""
    out: list[str] = []
    _row_changes(cells, None, x, y, out, depth)
    return "".join(out)


def _row_changes(
    new: list[Cell], old: list[Cell] | None, x0: int, y: int, out: list[str],
    depth: int = TRUE_COLOUR,
) -> None:
    """The writes that turn row `old` (None: unknown) into `new` at column x0, row y.
    Cells are compared as the emulator holds them; only the ones written are turned
    into SGR and glyph (`_shown`), since hashing a cell for the cache costs more than
    comparing two."""
    width = len(new)
    if old is None:
        changed = [True] * width
    else:
        if new == old:
            return
        # Which cells differ, compared in C; old may be shorter (the pane was narrower).
        changed = list(map(operator.ne, new, old)) + [True] * (width - len(old))
        if True not in changed:
            return  # the same, and what follows (the pane was wider) is not ours
    x = changed.index(True)
    stop = width - changed[::-1].index(True)
    sgr = None
    while x < stop:
        if not changed[x]:
            x += 1
            continue
        start = x - 1 if new[x].data == WIDE_STUB and x > 0 else x
        # Extend the run over changed cells and short stretches of unchanged ones.
        end, same = x + 1, 0
        while end < width and same < _GAP:
            if changed[end]:
                same = 0
            else:
                same += 1
            end += 1
        end -= same
        out.append(f"\x1b[{y + 1};{x0 + start + 1}H")
        for cell_sgr, glyph in map(_shown, new[start:end], repeat(depth)):
            if glyph == WIDE_STUB:
                continue  # the wide character before it covered this cell
            if cell_sgr != sgr:
                out.append(cell_sgr)
                sgr = cell_sgr
            out.append(glyph)
        x = end


@functools.lru_cache(maxsize=16384)
def _recoloured(fg: str, bg: str, cell: Cell) -> Cell:
    """`cell` with its default colours made `fg` and `bg` (window-style)."""
    if cell.fg != "default" and cell.bg != "default":
        return cell
    return cell._replace(fg=fg if cell.fg == "default" else cell.fg,
                         bg=bg if cell.bg == "default" else cell.bg)


@functools.lru_cache(maxsize=16384)
def _shown(cell: Cell, depth: int = TRUE_COLOUR) -> Shown:
    return _sgr(cell._replace(data=" "), depth), cell.data


@functools.lru_cache(maxsize=4096)
def _sgr(attrs: Cell, depth: int) -> str:
    """The SGR sequence that sets exactly these attributes (from a reset), colours
    brought down to the outer terminal's `depth`."""
    params = ["0", *attribute_params(attrs)]
    params += sgr_colour(attrs.fg, 30, depth)
    params += sgr_colour(attrs.bg, 40, depth)
    return "\x1b[" + ";".join(params) + "m"



_SUBSCRIBERS: weakref.WeakKeyDictionary[Pane, weakref.WeakSet[Painter]] = (
    weakref.WeakKeyDictionary()
)
"""The painters showing each pane: the emulator keeps one set of dirty rows per pane,
and every client needs to learn of every change, whichever of them looks first."""


def _subscribe(pane: Pane, painter: Painter) -> None:
    painters = _SUBSCRIBERS.get(pane)
    if painters is None:
        painters = _SUBSCRIBERS[pane] = weakref.WeakSet()
    painters.add(painter)


def _collect_damage(pane: Pane) -> None:
    """Move the pane's dirty rows into each of its painters' own damage."""
    terminal = pane.terminal
    dirty = terminal.dirty
    if not dirty:
        return
    terminal.clear_dirty()
    for painter in _SUBSCRIBERS.get(pane, ()):
        painter._damage.setdefault(pane, set()).update(dirty)
