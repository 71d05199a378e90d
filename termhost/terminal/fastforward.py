"""The flood path: whole lines of output scrolled past without cell-by-cell emulation.

When `cat` of a big log scrolls screen after screen past, nearly every line only passes
through the bottom row on its way into the scrollback. In the steady state of such a
flood (cursor at column 0 of the bottom row, that row blank, the whole screen scrolling,
autowrap on, no insert mode) each `text\\r\\n` line made of printable characters, SGR,
tabs and BEL has a result that can be computed directly: its rows (wrapped at the
margin) enter at the bottom and the screen scrolls by as many rows. This module computes
that result for a run of such lines at once: the rows that leave the screen go straight
to the scrollback, the rows left visible wait in `Screen.pending_rows` until someone
looks (the next run usually scrolls them away unseen), and lines whose rows would fall
off the end of the scrollback are not laid out at all. Rows bound for either place are
recorded, not laid out (`DeferredRow`), when they are ASCII and SGR in one row. The same
holds on the way there: lines that fit the blank rows below the cursor (the first screen
of a flood, a command's output below the prompt) fill them without scrolling.

Anything else (cursor motion, other controls, combining marks, a lone CR) ends the run
and is left to the parser. The result is exactly the one feeding every byte to the
screen gives: tests/terminal/test_fastforward.py holds the two equal on random input.
"""

from __future__ import annotations

import re

from pyte import modes as mo

from termhost.terminal.cell import BLANK, Cell
from termhost.terminal.parser import parse_params
from termhost.terminal.screen import Row, Screen, char_width
from termhost.terminal.scrollback import Deferred, intern_attributes
from termhost.terminal.sgr import apply_sgr

__all__ = ["fast_forward"]

# What ends a run of simple lines: a control other than HT, BEL, CR, LF; an escape that
# is not SGR; a CR or LF that is not part of CR LF. Each is searched for separately: one
# pattern with every alternative runs ten times slower than these C-level scans.
_CONTROL = re.compile(r"[\x00-\x06\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]")
_NOT_SGR = re.compile(r"\x1b(?!\[[0-9;:]*m)")
_LONE_CR_OR_LF = re.compile(r"\r(?!\n)|(?<!\r)\n")
_CONTROL_BYTES = bytes(
    1 if (byte < 0x20 and byte not in (0x07, 0x09, 0x0A, 0x0D, 0x1B)) or byte == 0x7F else 0
    for byte in range(256)
)
_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
_SGR_ONLY = re.compile(r"\x1b\[[0-9;:]*m")
_MARK, _WRAPPED = "\0", "\1"
_DEFAULT_ID = intern_attributes(BLANK)
_BLOCK_LINES = 64
"""Lines per deferred block: a block lives while any of its rows is stored unread."""

SgrCache = dict[tuple[Cell, str], tuple[Cell, str]]
_SGR_CACHES: dict[tuple[Cell, str], SgrCache] = {}
"""SGR results by (default cell, hyperlink): kept across fast forwards, since a flood
flushed in small batches would otherwise pay for every colour change anew each time."""
_SGR_CACHE_LIMIT = 4096

Run = tuple[str, str]
"""(attribute id, text) of a stretch of one row."""


class _NotSimple(Exception):
    """A line needs the full emulator after all (a tab at the pending-wrap column)."""


def in_steady_state(screen: Screen) -> bool:
    """Whether the screen is where a flood keeps it: the precondition of `fast_forward`."""
    cursor = screen.cursor
    return cursor.x == 0 and cursor.y == screen.lines - 1 and _blank_from_cursor(screen)


def _blank_from_cursor(screen: Screen) -> bool:
    """Whether the cursor's row and those below are blank, not wrapped, and the modes
    are those in which text and CR LF only fill rows and scroll the whole screen."""
    mode = screen.mode
    if (
        screen.margins is not None
        or screen.alternate_screen
        or mo.DECAWM not in mode
        or mo.IRM in mode
        or mo.LNM in mode
        or mo.DECSCNM in mode
    ):
        return False
    buffer, wrapped, pending = screen.buffer, screen.wrapped, screen.pending_rows
    for y in range(screen.cursor.y, screen.lines):
        if y in wrapped or y in pending:
            return False
        row = buffer.get(y)
        if row and any(cell != BLANK for cell in row.values()):
            return False
    return True


def fast_forward(screen: Screen, text: str, offset: int) -> int:
    """Apply the run of simple lines at text[offset:] to `screen`; the new offset.

    Returns `offset` unchanged when the screen is not in its steady state (or filling
    blank rows towards it) or no complete simple line starts there. Only the lines whose
    rows stay visible or in the scrollback are laid out; for the rest, only what they
    leave behind is computed (the SGR state, the bells).
    """
    cursor = screen.cursor
    if cursor.x == 0 and cursor.y < screen.lines - 1 and _blank_from_cursor(screen):
        offset = _fill(screen, text, offset)
    if not in_steady_state(screen):
        return offset
    end = _simple_run_end(text, offset)
    if end == offset:
        return offset
    renderer = _Renderer(screen)
    run = text[offset:end]
    found = run.split("\r\n")[:-1]
    lines = renderer.simple_prefix(run, found)
    if not lines:
        return offset
    if len(lines) < len(found):
        run = run[: sum(len(line) for line in lines) + 2 * len(lines)]
    renderer.apply(run, lines, bells=run.count("\x07"))
    return offset + len(run)


def _fill(screen: Screen, text: str, offset: int) -> int:
    """The lines at text[offset:] that fit the blank rows from the cursor down to the
    bottom one (a command's output below the prompt, the first screen of a flood),
    placed without scrolling; the new offset."""
    end = _simple_run_end(text, offset)
    if end == offset:
        return offset
    room = screen.lines - 1 - screen.cursor.y
    found = text[offset:end].split("\r\n", room)[:-1]
    run = text[offset : offset + sum(len(line) + 2 for line in found)]
    renderer = _Renderer(screen)
    row_counts: list[int] = []
    for line in renderer.simple_prefix(run, found):
        count = renderer._row_count(line)
        if sum(row_counts) + count > room:
            break
        row_counts.append(count)
    if not row_counts:
        return offset
    lines = found[: len(row_counts)]
    run = run[: sum(len(line) + 2 for line in lines)]
    renderer.fill(lines, row_counts, bells=run.count("\x07"))
    return offset + len(run)


def _simple_run_end(text: str, offset: int) -> int:
    """Where the run of complete `...\\r\\n` lines of text, SGR, HT and BEL at `offset`
    ends; `offset` itself when there is none."""
    stop = len(text)
    if text.isascii():  # then a byte-table translation finds a control five times faster
        control = text.encode("ascii").translate(_CONTROL_BYTES).find(1, offset)
        stop = stop if control < 0 else control
    else:
        found = _CONTROL.search(text, offset, stop)
        stop = stop if found is None else found.start()
    found = _NOT_SGR.search(text, offset, stop)
    if found is not None:
        stop = found.start()
    crs = text.count("\r", offset, stop)
    if crs != text.count("\n", offset, stop) or crs != text.count("\r\n", offset, stop):
        found = _LONE_CR_OR_LF.search(text, offset, stop)
        if found is not None:
            stop = found.start()
    end = text.rfind("\r\n", offset, stop)
    return offset if end < 0 else end + 2


class _Renderer:
    """Lays out lines as encoded rows, starting from the screen's state."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.default = screen.default_char  # fixed now: deferred rows are laid out later
        self.columns = screen.columns
        self.attrs: Cell = screen.cursor.attrs
        self.link = screen.link
        self._reset = self.default._replace(link=self.link)  # the state after SGR 0
        self._sgr_cache = _sgr_cache(self.default, self.link)

    def simple_prefix(self, run: str, lines: list[str]) -> list[str]:
        """The lines of `run` up to the first one the fast path cannot lay out exactly."""
        first_bad = len(run)
        if not run.isascii():
            for char in set(run):
                width = char_width(char)
                if (width <= 0 or width > self.columns) and char not in "\t\x07\r\n":
                    first_bad = min(first_bad, run.find(char))
        cut = run.count("\r\n", 0, first_bad) if first_bad < len(run) else len(lines)
        if "\t" in run:
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
        pieces = _SGR.split(line) if "\x1b" in line else [line]
        if line.isascii() and "\t" not in line and "\x07" not in line:
            return self._ascii_line(pieces)
        rows: list[list[Run]] = [[]]
        x = 0
        columns = self.columns
        attr_id = intern_attributes(self.attrs)
        for index, piece in enumerate(pieces):
            if index % 2:
                self._sgr(piece)
                attr_id = intern_attributes(self.attrs)
                continue
            if not piece:
                continue
            if piece.isascii() and "\t" not in piece and "\x07" not in piece:
                x = self._place(rows, x, attr_id, piece)
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

    def _rows(
        self, lines: list[str], row_counts: list[int], *, visible: int
    ) -> list[str | DeferredRow]:
        """The rows of these lines, in order. Rows that are one row of ASCII and SGR
        are only recorded (`DeferredRow`): most are scrolled away unread, and laying
        them out is most of the cost of a coloured flood. The last `visible` lines
        start blocks of their own, so that showing the screen lays out only them."""
        text = "\n".join(lines)
        if not text.isascii() or "\t" in text or "\x07" in text:
            return [row for line in lines for row in self.line(line)]
        if "\x1b" in text:
            return self._sgr_rows(lines, row_counts, visible)
        # Plain ASCII in one colour (a log): a row per line, unless it wraps.
        columns = self.columns
        attr_id = intern_attributes(self.attrs)
        if attr_id == _DEFAULT_ID:
            if len(row_counts) == sum(row_counts):
                return [line.rstrip(" ") for line in lines]
            return _wrapped_plain_rows(lines, columns)
        rows: list[str | DeferredRow] = []
        for line in lines:
            if len(line) > columns:
                rows.extend(self.line(line))
            elif attr_id == _DEFAULT_ID:
                rows.append(line.rstrip(" "))
            else:
                rows.append(_MARK + attr_id + line if line else "")
        return rows

    def _ascii_line(self, pieces: list[str]) -> list[str]:
        """`line` for printable ASCII and SGR only: the common case, kept lean."""
        columns = self.columns
        attrs = self.attrs
        attr_id = intern_attributes(attrs)
        cache = self._sgr_cache
        rows: list[list[Run]] = [[]]
        x = 0
        for index, piece in enumerate(pieces):
            if index & 1:
                hit = cache.get((attrs, piece))
                attrs, attr_id = hit if hit is not None else self._sgr_result(attrs, piece)
                continue
            if not piece:
                continue
            if x + len(piece) <= columns:
                rows[-1].append((attr_id, piece))
                x += len(piece)
            else:
                x = self._place(rows, x, attr_id, piece)
        self.attrs = attrs
        last = len(rows) - 1
        return [_encode(row, wrapped=i < last) for i, row in enumerate(rows)]

    def _sgr_rows(
        self, lines: list[str], row_counts: list[int], visible: int
    ) -> list[str | DeferredRow]:
        """`_rows` for ASCII with SGR: the lines that fit one row are deferred, in
        blocks that do not straddle the start of the last `visible` lines."""
        rows: list[str | DeferredRow] = []
        visible_from = len(lines) - visible
        index = 0
        while index < len(lines):
            if row_counts[index] == 1:
                start = index
                boundary = visible_from if index < visible_from else len(lines)
                stop = min(boundary, start + _BLOCK_LINES)
                while index < stop and row_counts[index] == 1:
                    index += 1
                block = _DeferredBlock(self, self.attrs, lines[start:index])
                rows.extend(DeferredRow(block, offset) for offset in range(index - start))
                self._advance("\r\n".join(block.lines))
            else:
                rows.extend(self.line(lines[index]))
                index += 1
        return rows

    def _advance(self, line: str) -> None:
        """The SGR state after `line`, from its last full reset on."""
        reset = max(line.rfind("\x1b[m"), line.rfind("\x1b[0m"), line.rfind("\x1b[0;"))
        if reset >= 0:
            self.attrs = self._reset
        for params in _SGR.findall(line, max(reset, 0)):
            self._sgr(params)

    def _place(self, rows: list[list[Run]], x: int, attr_id: str, piece: str) -> int:
        """Printable ASCII from column x, wrapping at the margin; the column after it."""
        columns = self.columns
        position = 0
        while position < len(piece):
            if x == columns:
                rows.append([])
                x = 0
            take = min(columns - x, len(piece) - position)
            rows[-1].append((attr_id, piece[position : position + take]))
            x += take
            position += take
        return x

    def _row_count(self, line: str) -> int:
        """How many rows a line takes, without laying it out when it is plain ASCII."""
        if line.isascii() and "\t" not in line:
            visible = _SGR.sub("", line) if "\x1b" in line else line
            width = len(visible) - (visible.count("\x07") if "\x07" in visible else 0)
            return max(1, -(-width // self.columns))
        saved = self.attrs
        count = len(self.line(line))
        self.attrs = saved
        return count

    def _sgr(self, params: str) -> None:
        hit = self._sgr_cache.get((self.attrs, params))
        self.attrs = (hit if hit is not None else self._sgr_result(self.attrs, params))[0]

    def _sgr_result(self, attrs: Cell, params: str) -> tuple[Cell, str]:
        """SGR as Screen.sgr applies it, with the id of the result; cached."""
        result = apply_sgr(attrs, parse_params(params), self.default)
        result = result._replace(link=self.link)
        entry = (result, intern_attributes(result))
        self._sgr_cache[(attrs, params)] = entry
        return entry

    def fill(self, lines: list[str], row_counts: list[int], *, bells: int) -> None:
        """Put the lines' rows on the blank rows from the cursor down, as text and one
        CR LF per line would; they stay encoded until someone looks."""
        screen = self.screen
        top = screen.cursor.y
        rows = _marked_blanks(self._rows(lines, row_counts, visible=len(lines)), 0, lines,
                              row_counts)
        for y, row in enumerate(rows, top):
            if isinstance(row, str) and row.startswith(_WRAPPED):
                screen.wrapped.add(y)
            screen.pending_rows[y] = row
        screen.cursor.y = top + len(rows)
        self._finish(bells)
        screen.dirty.update(range(top, screen.cursor.y + 1))

    def _finish(self, bells: int) -> None:
        """What every line leaves behind besides its rows."""
        screen = self.screen
        screen.cursor.attrs = self.attrs
        screen.bell_count += bells
        screen._last_char = ""  # each line ended in CR LF, and a control forgets it (REP)
        screen._joining = False

    def _tail(
        self, lines: list[str], needed: int, widths: list[int] | None
    ) -> tuple[int, list[int]]:
        """Where the lines whose rows fill the last `needed` rows start, and the row
        count of each from there; `widths` are the visible widths of the last `needed`
        lines, when known."""
        columns = self.columns
        tail_start, counted = len(lines), 0
        row_counts: list[int] = []  # last line first
        while tail_start > 0 and counted < needed:
            tail_start -= 1
            if widths is not None:
                width = widths[tail_start - len(lines)]
                row_counts.append(1 if width <= columns else -(-width // columns))
            else:
                row_counts.append(self._row_count(lines[tail_start]))
            counted += row_counts[-1]
        row_counts.reverse()
        return tail_start, row_counts

    def apply(self, run: str, lines: list[str], *, bells: int) -> None:
        """Scroll the lines' rows through the screen, as one LF per row would."""
        screen = self.screen
        height, columns = screen.lines, self.columns
        # Rows that matter: what the scrollback keeps plus the screen above the cursor.
        needed = screen.history.limit + height - 1
        plain = run.isascii() and "\x1b" not in run and "\t" not in run and "\x07" not in run
        last = lines[-needed:]
        widths = [len(line) for line in last] if plain else _visible_widths(last)
        if widths is not None and max(widths, default=0) <= columns:
            # The common flood of lines narrower than the screen: a row each.
            tail_start = max(0, len(lines) - needed)
            row_counts = [1] * (len(lines) - tail_start)
        else:
            tail_start, row_counts = self._tail(lines, needed, widths)
        if tail_start and not plain:
            # The SGR state after the skipped lines: from their last full reset on, if
            # any (an SGR whose first parameter is 0 sets every attribute).
            skipped = len(run) - sum(len(line) + 2 for line in lines[tail_start:])
            reset = max(run.rfind(r, 0, skipped) for r in ("\x1b[m", "\x1b[0m", "\x1b[0;"))
            if reset >= 0:
                self.attrs = self._reset
            for params in _SGR.findall(run, max(reset, 0), skipped):
                self._sgr(params)
        new = self._rows(lines[tail_start:], row_counts, visible=height - 1)

        buffer, wrapped, pending = screen.buffer, screen.wrapped, screen.pending_rows
        above = height - 1  # rows above the cursor, which pass the top first
        if tail_start:
            # At least `needed` new rows follow: every older row ends beyond the limit.
            screen.history.extend(new[: len(new) - above])
            kept: list[tuple[Row | None, bool, str | Deferred | None]] = []
        else:
            scrolled = len(new)
            leaving = min(above, scrolled)
            old = [screen.encode_leaving(y) for y in range(leaving)]
            screen.history.extend([*old, *new[: max(0, scrolled - above)]])
            kept = [(buffer.get(y), y in wrapped, pending.get(y)) for y in range(leaving, above)]
        buffer.clear()
        screen.wrapped = set()
        screen.pending_rows = {}
        for y, (row, was_wrapped, encoded) in enumerate(kept):
            if encoded is not None:
                screen.pending_rows[y] = encoded
            elif row is not None:
                buffer[y] = row
            if was_wrapped:
                screen.wrapped.add(y)
        # The new visible rows stay encoded until someone looks (Screen.lay_out_pending).
        first = len(new) - (above - len(kept))
        visible = _marked_blanks(new, first, lines[tail_start:], row_counts)
        for y, row_or_deferred in enumerate(visible[first:], len(kept)):
            if isinstance(row_or_deferred, str) and row_or_deferred.startswith(_WRAPPED):
                screen.wrapped.add(y)
            screen.pending_rows[y] = row_or_deferred
        self._finish(bells)
        screen.dirty.update(range(height))


class _DeferredBlock:
    """Consecutive one-row lines bound for the scrollback, not laid out yet: the lines
    and the SGR state the first starts in. Rows are laid out on demand, in order (each
    line starts in the state the one before left), and kept until all are taken."""

    __slots__ = ("attrs", "lines", "renderer", "rows")

    def __init__(self, renderer: _Renderer, attrs: Cell, lines: list[str]) -> None:
        self.renderer, self.attrs, self.lines = renderer, attrs, lines
        self.rows: list[str] = []

    def row(self, index: int) -> str:
        rows = self.rows
        if index >= len(rows):
            renderer = self.renderer
            saved, renderer.attrs = renderer.attrs, self.attrs
            try:
                for line in self.lines[len(rows) : index + 1]:
                    rows.append(renderer._ascii_line(_SGR.split(line))[0])
                self.attrs = renderer.attrs
            finally:
                renderer.attrs = saved
        return rows[index]


class DeferredRow:
    """A scrollback row not laid out yet: line `index` of a `_DeferredBlock`."""

    __slots__ = ("block", "index")

    def __init__(self, block: _DeferredBlock, index: int) -> None:
        self.block, self.index = block, index

    def encode(self) -> str:
        return self.block.row(self.index)

    def written(self) -> bool:
        return bool(_SGR_ONLY.sub("", self.block.lines[self.index]))


class _WrittenBlank:
    """A row of blanks in the default colours: stored as an empty line, but used."""

    __slots__ = ()

    def encode(self) -> str:
        return ""

    def written(self) -> bool:
        return True


_WRITTEN_BLANK = _WrittenBlank()


def _marked_blanks(rows: list[str | DeferredRow], first: int, lines: list[str],
                   row_counts: list[int]) -> list[str | DeferredRow | _WrittenBlank]:
    """`rows` (of `lines`, `row_counts` each) with those from `first` on that were
    written with blanks only marked (`_WRITTEN_BLANK`): they encode to nothing, as rows
    of empty lines do, but tmux counts them used. Rare, so looked for at C speed first."""
    if "" not in rows[first:]:
        return rows  # type: ignore[return-value]  # the list is only read
    marked: list[str | DeferredRow | _WrittenBlank] = list(rows)
    index = 0
    for line, count in zip(lines, row_counts, strict=True):
        last = index + count - 1  # only a line's last row can be empty
        if last >= first and rows[last] == "" and (count > 1 or _written(line)):
            marked[last] = _WRITTEN_BLANK
        index += count
    return marked


def _written(line: str) -> bool:
    """Whether a one-row line writes cells: anything but SGR, BEL and tabs."""
    return bool(_SGR_ONLY.sub("", line).replace("\x07", "").replace("\t", ""))


def _sgr_cache(default: Cell, link: str) -> SgrCache:
    """The shared SGR results for this default cell and hyperlink, bounded in size."""
    cache = _SGR_CACHES.get((default, link))
    if cache is None or len(cache) > _SGR_CACHE_LIMIT:
        if len(_SGR_CACHES) > _SGR_CACHE_LIMIT:
            _SGR_CACHES.clear()
        cache = _SGR_CACHES[(default, link)] = {}
    return cache


def _wrapped_plain_rows(lines: list[str], columns: int) -> list[str | DeferredRow]:
    """The rows of plain ASCII lines in the default colours, some wider than the screen
    (a log in a split pane): each cut every `columns`, all rows but its last wrapped."""
    rows: list[str | DeferredRow] = []
    append = rows.append
    twice = 2 * columns
    for line in lines:
        length = len(line)
        if length <= columns:
            append(line.rstrip(" "))
        elif length <= twice:  # the common case in a split pane: two rows, no loop
            append(_WRAPPED + line[:columns].rstrip(" "))
            append(line[columns:].rstrip(" "))
        else:
            last = (length - 1) // columns * columns
            for x in range(0, last, columns):
                append(_WRAPPED + line[x : x + columns].rstrip(" "))
            append(line[last:].rstrip(" "))
    return rows


def _visible_widths(lines: list[str]) -> list[int] | None:
    """The width of each line when all are ASCII, SGR and BEL (one pass over all of
    them, not one per line); None otherwise."""
    text = "\n".join(lines)
    if not text.isascii() or "\t" in text:
        return None
    if "\x1b" in text:  # joining the split is twice as fast as substituting
        text = "".join(_SGR_ONLY.split(text))
    if "\x07" in text:
        text = text.replace("\x07", "")
    return [len(line) for line in text.split("\n")]


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
