"""Where pane borders meet: the junction glyphs tmux draws there (`┼ ├ ┤ ┬ ┴`).

prompt_toolkit draws the borders as the padding of its splits, a straight `│` or `─` run
each, so a cell where two borders meet shows whichever run was drawn last. The client
writes the right glyph over those cells, from the panes' rectangles alone: a border cell
is one no pane covers, and its glyph follows from which of its four neighbours are
border cells too. The same overlay draws the active pane's borders in their own colour.
Both depend on the layout alone, so a frame reuses the string the last one built.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

__all__ = ["Rect", "junctions", "overlay"]

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


def overlay(panes: Iterable[Rect], active: Rect | None, area: Rect, border: str,
            active_border: str, *, every: bool = False) -> str:
    """What the client writes over prompt_toolkit's borders in `area`: the junctions in
    the `border` style (SGR), and the borders around `active` in `active_border`;
    with `every`, the straight runs too (a window larger than the client, which
    prompt_toolkit does not lay out)."""
    return _overlay(tuple(sorted(panes)), active, area, border, active_border, every)


@functools.lru_cache(maxsize=32)
def _overlay(panes: tuple[Rect, ...], active: Rect | None, area: Rect, border: str,
             active_border: str, every: bool) -> str:
    left, top, width, height = area
    joints = _junctions(panes, area)
    cells = {cell: (border, glyph) for cell, glyph in joints.items()}
    if every:
        covered = {(x, y) for px, py, pw, ph in panes
                   for y in range(py, py + ph) for x in range(px, px + pw)}
        for y in range(top, top + height):
            for x in range(left, left + width):
                if (x, y) not in covered and (x, y) not in cells:
                    across = ((x - 1, y) not in covered and left < x) or (
                        (x + 1, y) not in covered and x + 1 < left + width)
                    cells[(x, y)] = (border, "─" if across else "│")
    if active is not None:
        x0, y0, w, h = active
        for x in (x0 - 1, x0 + w):
            if left <= x < left + width:
                for y in range(y0, min(y0 + h, top + height)):
                    cells[(x, y)] = (active_border, joints.get((x, y), "│"))
        for y in (y0 - 1, y0 + h):
            if top <= y < top + height:
                for x in range(x0, min(x0 + w, left + width)):
                    cells[(x, y)] = (active_border, joints.get((x, y), "─"))
    out: list[str] = []
    last = None
    for (x, y), (style, glyph) in sorted(cells.items(), key=lambda item: item[0][::-1]):
        if last != (x - 1, y, style):  # a run goes on without moving or restyling
            out.append(f"\x1b[{y + 1};{x + 1}H{style}")
        out.append(glyph)
        last = (x, y, style)
    return "".join(out) + "\x1b[0m" if out else ""
