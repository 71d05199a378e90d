"""Reflow: rows that wrapped at the old width are joined and cut again at the new one.

tmux's grid_reflow: the scrollback and the main screen are one sequence of logical
lines (rows joined by their wrapped flag); each is cut again at the new width, a wide
character never split across two rows. A row's cells are the ones it used (tmux's
cellused: spaces the application wrote count, cells it never reached do not), so a line
is cut where tmux cuts it. The cursor keeps its place in its line as tmux's
grid_wrap_position and grid_unwrap_position keep it: on its cell when it was on a used
one, else at the end of the line. Lines of one row that still fit stay as they are (in
the scrollback, without even being decoded), so a resize costs in proportion to what
really moves.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from termhost.terminal.cell import WIDE_STUB, Cell

__all__ = ["Row", "reflow"]

_END = -1
"""A cursor past its row's used cells: it goes to the end of its line (tmux's UINT_MAX)."""


@dataclass
class Row:
    """One row: the cells it used and its wrapped flag.

    `encoded` is the scrollback's string for the row when it came from there unchanged,
    so it can go back without being encoded again.
    """

    cells: list[Cell]
    wrapped: bool
    encoded: str | None = None


def reflow(
    rows: Sequence[Row], cursor_row: int, cursor_col: int, width: int
) -> tuple[list[Row], int, int]:
    """`rows` cut at `width`; returns them with the cursor's new row and column.

    The column can be `width`, after a line that fills its last row (tmux's cursor then
    waits at the margin, as after writing the last column).
    """
    out: list[Row] = []
    new_cursor = (0, 0)
    for start, end, wrapped in _lines(rows):
        first = rows[start]
        has_cursor = start <= cursor_row < end
        if end == start + 1 and not wrapped and len(first.cells) <= width and not has_cursor:
            out.append(Row(first.cells, False, first.encoded))  # one row that still fits
            continue
        cursor = None
        if has_cursor:
            before = sum(len(row.cells) for row in rows[start:cursor_row])
            used = len(rows[cursor_row].cells)
            cursor = before + cursor_col if cursor_col < used else _END
        placed = _split([cell for row in rows[start:end] for cell in row.cells], width, cursor)
        if has_cursor:
            new_cursor = (len(out) + placed.cursor_row, placed.cursor_col)
        placed.rows[-1].wrapped = wrapped
        out.extend(placed.rows)
    return out, new_cursor[0], new_cursor[1]


def _lines(rows: Sequence[Row]) -> Iterator[tuple[int, int, bool]]:
    """The logical lines of `rows` as (first, past the last, still wrapped) indexes.

    A line does not take in an empty row it wrapped onto (one erased whole): that row
    stays a line of its own, and the line before it stays wrapped (grid_reflow_join).
    """
    start = 0
    for index, row in enumerate(rows):
        if index > start and not row.wrapped and not row.cells:
            yield start, index, True
            start = index
        if not row.wrapped or index + 1 == len(rows):
            yield start, index + 1, False
            start = index + 1


@dataclass
class _Placed:
    rows: list[Row]
    cursor_row: int = 0
    cursor_col: int = 0


def _split(cells: list[Cell], width: int, cursor: int | None) -> _Placed:
    """One line's cells cut into rows of `width`, and where its cursor goes."""
    rows: list[list[Cell]] = [[]]
    placed = _Placed([])
    x = index = 0
    while index < len(cells):
        size = 2 if index + 1 < len(cells) and cells[index + 1].data == WIDE_STUB else 1
        if x + size > width and x:
            rows.append([])
            x = 0
        if cursor is not None and index <= cursor < index + size:
            placed.cursor_row, placed.cursor_col = len(rows) - 1, x + cursor - index
        rows[-1].extend(cells[index : index + size])
        x += size
        index += size
    if cursor == _END:
        placed.cursor_row, placed.cursor_col = len(rows) - 1, len(rows[-1])
    last = len(rows) - 1
    placed.rows = [Row(row, i < last) for i, row in enumerate(rows)]
    return placed
