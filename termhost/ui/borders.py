"""Where pane borders meet: the junction glyphs tmux draws there (`┼ ├ ┤ ┬ ┴`).

prompt_toolkit draws the borders as the padding of its splits, a straight `│` or `─` run
each, so a cell where two borders meet shows whichever run was drawn last. The client
writes the right glyph over those cells, from the panes' rectangles alone: a border cell
is one no pane covers, and its glyph follows from which of its four neighbours are
border cells too.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

__all__ = ["Rect", "junctions"]

Rect = tuple[int, int, int, int]
"""x, y, width, height of a pane (or of the window's area), in cells."""

_GLYPHS = {
    # (up, down, left, right) border neighbours -> glyph, for the cells where runs meet
    (True, True, True, True): "┼",
    (True, True, False, True): "├",
    (True, True, True, False): "┤",
    (False, True, True, True): "┬",
    (True, False, True, True): "┴",
}


def junctions(panes: Iterable[Rect], area: Rect) -> dict[tuple[int, int], str]:
    """The junction glyph of every cell in `area` where borders between `panes` meet."""
    return _junctions(tuple(sorted(panes)), area)


@functools.lru_cache(maxsize=32)
def _junctions(panes: tuple[Rect, ...], area: Rect) -> dict[tuple[int, int], str]:
    # Layouts change rarely and frames are many: one computation per layout.
    left, top, width, height = area
    right, bottom = left + width, top + height
    covered = {(x, y) for px, py, pw, ph in panes
               for y in range(py, py + ph) for x in range(px, px + pw)}

    def border(x: int, y: int) -> bool:
        return left <= x < right and top <= y < bottom and (x, y) not in covered

    # A junction lies on a pane's edge, one cell beyond a corner of it.
    candidates = {(x, y) for px, py, pw, ph in panes
                  for x in (px - 1, px + pw) for y in (py - 1, py + ph)}
    found = {}
    for x, y in candidates:
        if border(x, y):
            glyph = _GLYPHS.get((border(x, y - 1), border(x, y + 1),
                                 border(x - 1, y), border(x + 1, y)))
            if glyph is not None:
                found[(x, y)] = glyph
    return found
