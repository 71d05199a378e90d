"""Reflow: rows that wrapped at the old width are joined and wrapped again at the new one.

As tmux does on a width change: the scrollback and the main screen are one sequence of
logical lines (rows joined by their wrapped flag); each is cut again at the new width,
a wide character never split across two rows, and the cursor keeps its place in its
line. Lines of one row that still fit stay as they are (in the scrollback, without even
being decoded), so a resize costs in proportion to what really moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from termhost.terminal.cell import BLANK, WIDE_STUB, Cell

__all__ = ["Row", "reflow"]


@dataclass
class Row:
    """One row: its cells (trailing blanks dropped unless it wrapped) and wrapped flag.

    `encoded` is the scrollback's string for the row when it came from there unchanged,
    so it can go back without being encoded again.
    """

    cells: list[Cell]
    wrapped: bool
    encoded: str | None = None


def reflow(
    rows: Sequence[Row], cursor_row: int, cursor_col: int, width: int
) -> tuple[list[Row], int, int]:
    """`rows` cut at `width`; returns them with the cursor's new row and column."""
    out: list[Row] = []
    new_cursor = (0, 0)
    line: list[Cell] = []
    start = 0  # index in `rows` of the first row of the current line
    cursor_offset: int | None = None
    for index, row in enumerate(rows):
        if index == cursor_row:
            cursor_offset = len(line) + cursor_col
        line.extend(row.cells)
        if row.wrapped and index + 1 < len(rows):
            continue
        if index == start and len(row.cells) <= width and cursor_offset is None:
            out.append(Row(row.cells, False, row.encoded))  # one row that still fits
        else:
            placed = _split(line, width, cursor_offset)
            if cursor_offset is not None:
                new_cursor = (len(out) + placed.cursor_row, placed.cursor_col)
            out.extend(placed.rows)
        cursor_offset = None
        line = []
        start = index + 1
    return out, new_cursor[0], new_cursor[1]


@dataclass
class _Placed:
    rows: list[Row]
    cursor_row: int = 0
    cursor_col: int = 0


def _split(cells: list[Cell], width: int, cursor: int | None) -> _Placed:
    rows: list[list[Cell]] = [[]]
    placed = _Placed([])
    x = index = 0
    while index < len(cells):
        size = 2 if index + 1 < len(cells) and cells[index + 1].data == WIDE_STUB else 1
        if x + size > width:
            rows.append([])
            x = 0
        if cursor is not None and index <= cursor < index + size:
            placed.cursor_row, placed.cursor_col = len(rows) - 1, x
        rows[-1].extend(cells[index : index + size])
        x += size
        index += size
    if cursor is not None and cursor >= len(cells):
        # Past the end of the text (after spaces that were never written): count on.
        column = x + cursor - len(cells)
        row = len(rows) - 1
        while column > width:
            rows.append([])
            column -= width
            row += 1
        placed.cursor_row, placed.cursor_col = row, column
    last = len(rows) - 1
    placed.rows = [Row(_trim(row) if i == last else row, i < last) for i, row in enumerate(rows)]
    return placed


def _trim(cells: list[Cell]) -> list[Cell]:
    end = len(cells)
    while end and cells[end - 1] == BLANK:
        end -= 1
    return cells[:end]
