"""Scrollback: the lines that scrolled off the top of the main screen, stored compactly.

pyte's HistoryScreen keeps every scrolled line as a dict of Char tuples (12.6 KB a line).
Here a line is one `str`: its text, with a two-character marker (`\\0` and the attribute
id) wherever the attributes change, and a leading `\\1` if the line wrapped onto the next.
Attribute sets are interned in one table shared by all lines, so a 100-character
coloured line costs its text plus two characters per colour change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Protocol

from wcwidth import wcwidth

from termhost.terminal.cell import BLANK, WIDE_STUB, Cell

__all__ = [
    "DEFAULT_HISTORY_LIMIT",
    "WRAPPED",
    "Scrollback",
    "decode_line",
    "encode_row",
    "intern_attributes",
]

DEFAULT_HISTORY_LIMIT = 2000
"""Lines kept by default, as tmux's history-limit."""

_MARK = "\0"
_WRAPPED = "\1"
WRAPPED = _WRAPPED
"""The first character of a stored line that wrapped at the margin."""
_MARKERS = re.compile("\0.", re.DOTALL)


class _AttributeTable:
    """Cells without their glyph, interned: id <-> Cell(data="")."""

    def __init__(self) -> None:
        # Ids start at chr(1): chr(0) is the marker itself, and a line is split on it.
        default = BLANK._replace(data="")
        self.by_id: list[Cell] = [default, default]
        self.ids: dict[Cell, str] = {default: chr(1)}

    def id_of(self, attrs: Cell) -> str:
        found = self.ids.get(attrs)
        if found is None:
            found = chr(len(self.by_id))
            self.by_id.append(attrs)
            self.ids[attrs] = found
        return found


_TABLE = _AttributeTable()
_DEFAULT_ID = chr(1)


_ID_OF_CELL: dict[Cell, str] = {}
_CELL_OF: dict[tuple[str, str], Cell] = {}
_CACHE_LIMIT = 1 << 16


def intern_attributes(attrs: Cell) -> str:
    """The one-character id of a cell's attributes (its glyph ignored)."""
    found = _ID_OF_CELL.get(attrs)
    if found is None:
        plain = attrs._replace(data="")
        found = _DEFAULT_ID if plain == _TABLE.by_id[0] else _TABLE.id_of(plain)
        if len(_ID_OF_CELL) > _CACHE_LIMIT:
            _ID_OF_CELL.clear()
        _ID_OF_CELL[attrs] = found
    return found


def _cell(attr_id: str, data: str) -> Cell:
    """The cell with these attributes and glyph, shared rather than rebuilt."""
    key = (attr_id, data)
    found = _CELL_OF.get(key)
    if found is None:
        found = _TABLE.by_id[ord(attr_id)]._replace(data=data)
        if len(_CELL_OF) > _CACHE_LIMIT:
            _CELL_OF.clear()
        _CELL_OF[key] = found
    return found


class _AsciiCells(dict[str, Cell]):
    """The cells of one attribute id, by ASCII glyph: decoding a run of ASCII is then
    one C-level `map` over it."""

    def __init__(self, attr_id: str) -> None:
        super().__init__()
        self.attrs = _TABLE.by_id[ord(attr_id)]

    def __missing__(self, data: str) -> Cell:
        found = self[data] = self.attrs._replace(data=data)
        return found


_ASCII_CELLS: dict[str, _AsciiCells] = {}


def _ascii_cells(attr_id: str) -> _AsciiCells:
    found = _ASCII_CELLS.get(attr_id)
    if found is None:
        if len(_ASCII_CELLS) > _CACHE_LIMIT >> 6:
            _ASCII_CELLS.clear()
        found = _ASCII_CELLS[attr_id] = _AsciiCells(attr_id)
    return found


def encode_row(row: Mapping[int, Cell], columns: int, wrapped: bool) -> str:
    """One screen row (pyte's column -> cell mapping) as a stored line.

    Trailing blank cells with default attributes are dropped, as tmux does.
    """
    last = columns - 1
    while last >= 0 and row.get(last, BLANK) == BLANK:
        last -= 1
    parts = [_WRAPPED] if wrapped else []
    current = _DEFAULT_ID
    for x in range(last + 1):
        cell = row.get(x, BLANK)
        attr_id = intern_attributes(cell)
        if attr_id != current:
            parts.append(_MARK + attr_id)
            current = attr_id
        if cell.data != WIDE_STUB:
            parts.append(cell.data)
    return "".join(parts)


def decode_line(line: str) -> list[Cell]:
    """A stored line back into cells (wide characters followed by their stub)."""
    cells: list[Cell] = []
    start = 1 if line.startswith(_WRAPPED) else 0
    pieces = line[start:].split(_MARK)
    attr_id = _DEFAULT_ID
    for number, piece in enumerate(pieces):
        if number:
            attr_id, piece = piece[:1], piece[1:]
        if piece.isascii():
            cells.extend(map(_ascii_cells(attr_id).__getitem__, piece))
            continue
        index, length = 0, len(piece)
        while index < length:
            char = piece[index]
            index += 1
            while index < length and wcwidth(piece[index]) == 0:
                char += piece[index]  # combining marks belong to the cell before
                index += 1
            cells.append(_cell(attr_id, char))
            if wcwidth(char[0]) == 2:
                cells.append(_cell(attr_id, WIDE_STUB))
    return cells


class Deferred(Protocol):
    """A line stored before it was encoded (the flood path's); encoded when read."""

    def encode(self) -> str:
        """The line as `encode_row` would have stored it."""

    def written(self) -> bool:
        """Whether anything was written on the row, blanks too: tmux counts written
        cells as used (ED 2 scrolls rows down to the last used one into the
        scrollback), and a row of blanks encodes to nothing, as an untouched row does."""


class Scrollback:
    """Up to `limit` stored lines, oldest first; index 0 is the oldest kept."""

    def __init__(self, limit: int = DEFAULT_HISTORY_LIMIT) -> None:
        if limit < 0:
            raise ValueError(f"history limit {limit} is negative")
        self.limit = limit
        self._lines: list[str | Deferred] = []

    def __len__(self) -> int:
        return min(len(self._lines), self.limit)

    def _trim(self) -> None:
        # Amortised: drop the excess only once it is a good fraction of the limit.
        excess = len(self._lines) - self.limit
        if excess > 0 and excess >= max(64, self.limit // 4):
            del self._lines[:excess]

    def _kept(self, start: int = 0, end: int | None = None) -> list[str]:
        """The kept lines, those in start:end encoded now if they were deferred."""
        excess = len(self._lines) - self.limit
        if excess > 0:
            del self._lines[:excess]
        lines = self._lines
        for index in range(*slice(start, end).indices(len(lines))):
            line = lines[index]
            if not isinstance(line, str):
                lines[index] = line.encode()
        return lines  # type: ignore[return-value]  # start:end are all str now

    def push(self, row: Mapping[int, Cell], columns: int, wrapped: bool = False) -> None:
        """Store a row that just scrolled off the screen."""
        if self.limit:
            self._lines.append(encode_row(row, columns, wrapped))
            self._trim()

    def extend(self, lines: Iterable[str | Deferred]) -> None:
        """Store already-encoded lines (the fast path's output), oldest first."""
        if self.limit:
            self._lines.extend(lines)
            self._trim()

    def pop(self, count: int) -> list[tuple[list[Cell], bool]]:
        """Take the newest `count` lines back (a screen growing taller), oldest first."""
        kept = self._kept(-count if count > 0 else 0)
        taken = kept[len(kept) - count :] if count > 0 else []
        del kept[len(kept) - len(taken) :]
        return [(decode_line(line), line.startswith(_WRAPPED)) for line in taken]

    def replace(self, lines: Iterable[str]) -> None:
        """Store these encoded lines instead of the current ones (after a reflow)."""
        self._lines = list(lines)
        self._kept()

    def unwrap_newest(self) -> None:
        """The newest line no longer continues onto the screen (its row there was
        erased whole)."""
        if len(self) and self.wrapped(-1):
            self._lines[-1] = self._line(-1)[len(_WRAPPED) :]

    def clear(self) -> None:
        """ED 3: forget every stored line."""
        self._lines.clear()

    def _line(self, index: int) -> str:
        return self._kept(index, index + 1 or None)[index]

    def text(self, index: int) -> str:
        """The characters of line `index`, without attributes or trailing blanks."""
        return _MARKERS.sub("", self._line(index)).lstrip(_WRAPPED)

    def lines(self, start: int = 0, end: int | None = None) -> list[str]:
        """Text of lines start..end-1 (Python slice semantics), for capture and copy mode."""
        return [_MARKERS.sub("", line).lstrip(_WRAPPED) for line in self.raw(start, end)]

    def cells(self, index: int) -> list[Cell]:
        """Line `index` as cells, with its attributes."""
        return decode_line(self._line(index))

    def wrapped(self, index: int) -> bool:
        """Whether line `index` continues on the next line (it wrapped at the margin)."""
        return self._line(index).startswith(_WRAPPED)

    def raw(self, start: int = 0, end: int | None = None) -> list[str]:
        """Stored lines, encoded, for comparison and copying between scrollbacks."""
        return list(self._kept(start, end)[start:end])
