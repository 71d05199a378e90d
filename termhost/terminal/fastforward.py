"""The flood path: whole lines of output scrolled past without cell-by-cell emulation.

When `cat` of a big log scrolls screen after screen past, nearly every line only passes
through the bottom row on its way into the scrollback. In the steady state of such a
flood (cursor at column 0 of the bottom row, that row blank, the whole screen scrolling,
autowrap on, no insert mode) each `text\\r\\n` line made of printable characters, SGR,
tabs and BEL has a result that can be computed directly: its rows (wrapped at the
margin) enter at the bottom and the screen scrolls by as many rows. This module computes
that result for a run of such lines at once: the rows that leave the screen go straight
to the scrollback, already encoded, only the rows left visible are built as cells, and
lines whose rows would fall off the end of the scrollback are not laid out at all.

Anything else (cursor motion, other controls, combining marks, a lone CR) ends the run
and is left to the parser. The result is exactly the one feeding every byte to the
screen gives: tests/terminal/test_fastforward.py holds the two equal on random input.
"""

from __future__ import annotations

import re

from termhost.terminal.cell import BLANK, Cell
from termhost.terminal.parser import parse_params
from termhost.terminal.screen import Row, Screen, char_width
from termhost.terminal.scrollback import decode_line, encode_row, intern_attributes
from termhost.terminal.sgr import apply_sgr

__all__ = ["fast_forward"]

# A run of complete lines of printable text, SGR, HT and BEL, each ended by CR LF.
_SIMPLE_LINES = re.compile(r"(?:(?:[^\x00-\x1f\x7f-\x9f\x1b]|\x1b\[[0-9;:]*m|[\t\x07])*\r\n)+")
_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
_MARK, _WRAPPED = "\0", "\1"
_DEFAULT_ID = intern_attributes(BLANK)

Run = tuple[str, str]
"""(attribute id, text) of a stretch of one row."""


class _NotSimple(Exception):
    """A line needs the full emulator after all (a tab at the pending-wrap column)."""


def in_steady_state(screen: Screen) -> bool:
    """Whether the screen is where a flood keeps it: the precondition of `fast_forward`."""
    cursor = screen.cursor
    bottom = screen.lines - 1
    mode = screen.mode
    return (
        cursor.x == 0
        and cursor.y == bottom
        and screen.margins is None
        and not screen.alternate_screen
        and 7 << 5 in mode  # DECAWM
        and 4 not in mode  # IRM
        and 20 not in mode  # LNM
        and 5 << 5 not in mode  # DECSCNM
        and bottom not in screen.wrapped
        and all(cell == BLANK for cell in screen.buffer.get(bottom, {}).values())
    )


def fast_forward(screen: Screen, text: str, offset: int) -> int:
    """Apply the run of simple lines at text[offset:] to `screen`; the new offset.

    Returns `offset` unchanged when the screen is not in its steady state or no complete
    simple line starts there. Only the lines whose rows stay visible or in the
    scrollback are laid out; for the rest, only what they leave behind is computed (the
    SGR state, bells, the last character for REP).
    """
    if not in_steady_state(screen):
        return offset
    match = _SIMPLE_LINES.match(text, offset)
    if match is None:
        return offset
    renderer = _Renderer(screen)
    lines = renderer.simple_prefix(match.group().split("\r\n")[:-1])
    if not lines:
        return offset
    renderer.apply(lines)
    return offset + sum(len(line) for line in lines) + 2 * len(lines)


class _Renderer:
    """Lays out lines as encoded rows, starting from the screen's state."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.columns = screen.columns
        self.attrs: Cell = screen.cursor.attrs
        self.link = screen.link
        self._sgr_cache: dict[tuple[Cell, str], Cell] = {}

    def simple_prefix(self, lines: list[str]) -> list[str]:
        """The lines up to the first one the fast path cannot lay out exactly."""
        text = "\n".join(lines)
        first_bad = len(text)
        if not text.isascii():
            for char in set(text):
                width = char_width(char)
                if (width <= 0 or width > self.columns) and char not in "\t\x07":
                    first_bad = min(first_bad, text.find(char))
        cut = text.count("\n", 0, first_bad) if first_bad < len(text) else len(lines)
        if "\t" in text:
            for index in range(cut):
                if "\t" in lines[index] and not self._tabs_are_simple(lines[index]):
                    cut = index
                    break
        return lines[:cut]

    def _tabs_are_simple(self, line: str) -> bool:
        saved = self.attrs
        try:
            self.line(line)
        except _NotSimple:
            return False
        finally:
            self.attrs = saved
        return True

    def line(self, line: str) -> list[str]:
        """The encoded rows of one line (several when it wraps); updates the SGR state."""
        rows: list[list[Run]] = [[]]
        x = 0
        columns = self.columns
        attr_id = intern_attributes(self.attrs)
        pieces = _SGR.split(line) if "\x1b" in line else [line]
        for index, piece in enumerate(pieces):
            if index % 2:
                self._sgr(piece)
                attr_id = intern_attributes(self.attrs)
                continue
            if not piece:
                continue
            if piece.isascii() and "\t" not in piece and "\x07" not in piece:
                position = 0
                while position < len(piece):
                    if x == columns:
                        rows.append([])
                        x = 0
                    take = min(columns - x, len(piece) - position)
                    rows[-1].append((attr_id, piece[position : position + take]))
                    x += take
                    position += take
                continue
            for char in piece:
                if char == "\t":
                    if x >= columns:
                        raise _NotSimple
                    stop = min((s for s in self.screen.tabstops if s > x), default=columns - 1)
                    if stop > x:
                        rows[-1].append((_DEFAULT_ID, " " * (stop - x)))
                        x = stop
                    continue
                if char == "\x07":
                    continue
                width = char_width(char)
                if width <= 0 or width > columns:
                    raise _NotSimple
                if x + width > columns:
                    rows.append([])
                    x = 0
                rows[-1].append((attr_id, char))
                x += width
        last = len(rows) - 1
        return [_encode(runs, wrapped=i < last) for i, runs in enumerate(rows)]

    def _row_count(self, line: str) -> int:
        """How many rows a line takes, without laying it out when it is plain ASCII."""
        if line.isascii() and "\t" not in line:
            visible = _SGR.sub("", line) if "\x1b" in line else line
            width = len(visible) - visible.count("\x07")
            return max(1, -(-width // self.columns))
        saved = self.attrs
        count = len(self.line(line))
        self.attrs = saved
        return count

    def _sgr(self, params: str) -> None:
        key = (self.attrs, params)
        attrs = self._sgr_cache.get(key)
        if attrs is None:
            attrs = apply_sgr(self.attrs, parse_params(params), self.screen.default_char)
            attrs = attrs._replace(link=self.link)
            self._sgr_cache[key] = attrs
        self.attrs = attrs

    def apply(self, lines: list[str]) -> None:
        """Scroll the lines' rows through the screen, as one LF per row would."""
        screen = self.screen
        height, columns = screen.lines, self.columns
        # Rows that matter: what the scrollback keeps plus the screen above the cursor.
        needed = screen.history.limit + height - 1
        tail_start, counted = len(lines), 0
        while tail_start > 0 and counted < needed:
            tail_start -= 1
            counted += self._row_count(lines[tail_start])
        skipped = lines[:tail_start]
        for params in _SGR.findall("\n".join(skipped)) if skipped else ():
            self._sgr(params)
        new = [row for line in lines[tail_start:] for row in self.line(line)]
        bells = sum(line.count("\x07") for line in lines)

        buffer, wrapped = screen.buffer, screen.wrapped
        above = height - 1  # rows above the cursor, which pass the top first
        if skipped:
            # At least `needed` new rows follow: every older row ends beyond the limit.
            screen.history.extend(new[: len(new) - above])
            old_rows: list[tuple[Row | None, bool]] = []
        else:
            scrolled = len(new)
            leaving = min(above, scrolled)
            screen.history.extend(
                [encode_row(buffer[y], columns, y in wrapped) for y in range(leaving)]
                + new[: max(0, scrolled - above)]
            )
            old_rows = [(buffer.get(y), y in wrapped) for y in range(leaving, above)]
        buffer.clear()
        screen.wrapped = set()
        for y, (row, was_wrapped) in enumerate(old_rows):
            if row is not None:
                buffer[y] = row
            if was_wrapped:
                screen.wrapped.add(y)
        visible_new = new[len(new) - (above - len(old_rows)) :]
        for y, encoded in enumerate(visible_new, start=len(old_rows)):
            if encoded.startswith(_WRAPPED):
                screen.wrapped.add(y)
            cells = decode_line(encoded)
            if cells:
                buffer[y].update(enumerate(cells))
        screen.cursor.attrs = self.attrs
        screen.bell_count += bells
        screen._last_char = ""  # each line ended in CR LF, and a control forgets it (REP)
        screen._joining = False
        screen.dirty.update(range(height))


def _encode(runs: list[Run], *, wrapped: bool) -> str:
    """A row as the scrollback stores it: the same string `encode_row` gives."""
    while runs and runs[-1][0] == _DEFAULT_ID:
        trimmed = runs[-1][1].rstrip(" ")
        if trimmed:
            runs[-1] = (_DEFAULT_ID, trimmed)
            break
        runs.pop()
    parts = [_WRAPPED] if wrapped else []
    current = _DEFAULT_ID
    for attr_id, text in runs:
        if attr_id != current:
            parts.append(_MARK + attr_id)
            current = attr_id
        parts.append(text)
    return "".join(parts)
