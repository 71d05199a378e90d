"""Layout strings read back (`select-layout d67e,80x24,0,0{...}`), as tmux's
layout-custom.c parses them: what #{window_layout} printed, so that scripts (tmuxp,
tmux-resurrect) put a window's panes back where they were.

The grammar is layout.describe's: a checksum of the rest, then `WxH,X,Y` per cell, a
leaf's pane number after it (ignored: panes go to the leaves in their order), a row's
children in `{}`, a column's in `[]`. A string tmux would refuse is refused with tmux's
words; one with more cells than the window has panes loses its bottom-right cells, as
tmux's layout_parse drops them.
"""

from __future__ import annotations

import re
from typing import TypeVar, cast

from termhost.mux.layout import Cell, Kind, LayoutError, checksum, close

__all__ = ["parse_layout"]

P = TypeVar("P")

_CELL = re.compile(r"(\d+)x(\d+),(\d+),(\d+)")
_ID = re.compile(r",\d+(?![\dx])")
"""A leaf's pane number: `,N` not followed by `x` (which would be the next cell's size)."""
_KINDS: dict[str, tuple[Kind, str]] = {"{": ("row", "}"), "[": ("column", "]")}


def parse_layout(text: str, panes: list[P]) -> Cell[P]:
    """The layout `text` describes, its leaves holding `panes` in order; LayoutError
    (`invalid layout: TEXT`) when tmux would refuse it: a bad checksum or syntax, sizes
    that do not add up, fewer cells than panes."""
    refused = LayoutError(f"invalid layout: {text}")
    if len(text) < 5 or text[4] != "," or not re.fullmatch(r"[0-9a-fA-F]{4}", text[:4]):
        raise refused
    body = text[5:]
    if int(text[:4], 16) != checksum(body):
        raise refused
    parsed: tuple[Cell[P] | None, int] = _construct(body, 0)
    root, end = parsed
    if root is None or end != len(body):
        raise refused
    leaves = list(root.leaves())
    if len(leaves) < len(panes):
        raise refused
    markers = [object() for _ in leaves]
    for leaf, marker in zip(leaves, markers, strict=True):
        leaf.pane = cast(P, marker)
    while len(markers) > len(panes):  # as layout_find_bottomright, then destroy it
        bottom_right = root
        while bottom_right.children:
            bottom_right = bottom_right.children[-1]
        assert bottom_right.pane is not None
        remaining = close(root, bottom_right.pane)
        assert remaining is not None
        markers.remove(cast(object, bottom_right.pane))
        root = remaining
    _fix_top(root)
    if not _fits(root):
        raise refused
    for leaf, pane in zip(root.leaves(), panes, strict=True):
        leaf.pane = pane
    root.place(0, 0)
    return root


def _construct(text: str, at: int, parent: Cell[P] | None = None
               ) -> tuple[Cell[P] | None, int]:
    """tmux's layout_construct: the cell starting at `at` and where it ends."""
    found = _CELL.match(text, at)
    if found is None:
        return None, at
    width, height, x, y = (int(group) for group in found.groups())
    at = found.end()
    number = _ID.match(text, at)
    if number is not None:
        at = number.end()
    cell = Cell[P]("pane", width, height, x, y, parent=parent)
    if at == len(text) or text[at] in ",}]":
        return cell, at
    if text[at] not in _KINDS:
        return None, at
    cell.kind, closing = _KINDS[text[at]]
    while True:
        child, at = _construct(text, at + 1, cell)
        if child is None:
            return None, at
        cell.children.append(child)
        if at >= len(text) or text[at] != ",":
            break
    if at >= len(text) or text[at] != closing:
        return None, at
    return cell, at + 1


def _fix_top(root: Cell[P]) -> None:
    """Older tmuxes wrote a top cell larger than its children: taken at their size, as
    tmux's layout_parse corrects it (the check that follows catches the rest)."""
    if root.kind == "pane":
        return
    along = sum((child.width if root.kind == "row" else child.height) + 1
                for child in root.children) - 1
    across = (root.children[-1].height if root.kind == "row" else root.children[-1].width)
    if root.kind == "row":
        root.width, root.height = along, across
    else:
        root.width, root.height = across, along


def _fits(cell: Cell[P]) -> bool:
    """tmux's layout_check: children span their parent across and, with a border between
    each two, along."""
    if cell.kind == "pane":
        return True
    row = cell.kind == "row"
    along = -1
    for child in cell.children:
        if (child.height if row else child.width) != (cell.height if row else cell.width):
            return False
        along += (child.width if row else child.height) + 1
        if not _fits(child):
            return False
    return along == (cell.width if row else cell.height)
