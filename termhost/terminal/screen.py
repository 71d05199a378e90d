"""termhost's screen: a pyte.Screen with the fixes and modes a multiplexer needs.

pyte keeps the parts it does well (cursor motion, erase, insert/delete, tab stops, the
buffer of rows). This class adds what pyte 0.8.2 lacks or gets wrong: the alternate
screen (47, 1047, 1049), SU/SD, REP, DECSCUSR, colon SGR forms and underline styles,
wide characters at the margin, combining marks and emoji sequences, the pending-wrap
state of the last column, private modes a multiplexer must honour (mouse, bracketed
paste, focus, DECCKM, keypad, synchronized output), OSC title/cwd/hyperlink/clipboard,
device query replies, scrollback of the main screen, and a wrapped flag per row.

Methods are named after the control function they implement, as in pyte.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import pyte
from pyte import modes as mo
from pyte.screens import Margins, StaticDefaultDict
from wcwidth import wcwidth

from termhost import __version__
from termhost.terminal import reflow
from termhost.terminal.cell import BLANK, WIDE_STUB, Cell
from termhost.terminal.parser import Params
from termhost.terminal.scrollback import (
    WRAPPED,
    Deferred,
    Scrollback,
    decode_line,
    encode_row,
)
from termhost.terminal.sgr import apply_sgr

__all__ = ["Clipboard", "Screen"]

Row = StaticDefaultDict[int, Cell]

_ZWJ = "\u200d"
_REGIONAL_A, _REGIONAL_Z = "\U0001f1e6", "\U0001f1ff"

# Private modes (pyte stores them shifted left by 5, next to its ANSI modes).
DECCKM = 1 << 5
ALT_47, ALT_1047, ALT_1049 = 47 << 5, 1047 << 5, 1049 << 5
MOUSE_X10, MOUSE_NORMAL, MOUSE_BUTTON, MOUSE_ANY = 9 << 5, 1000 << 5, 1002 << 5, 1003 << 5
MOUSE_UTF8, MOUSE_SGR, MOUSE_URXVT = 1005 << 5, 1006 << 5, 1015 << 5
FOCUS_EVENTS = 1004 << 5
BRACKETED_PASTE = 2004 << 5
SYNCHRONIZED_OUTPUT = 2026 << 5
_MOUSE_TRACKING = (MOUSE_X10, MOUSE_NORMAL, MOUSE_BUTTON, MOUSE_ANY)
_MOUSE_ENCODINGS = (MOUSE_UTF8, MOUSE_SGR, MOUSE_URXVT)
_WRITTEN_BLANK = decode_line(" ")[0]
"""The cell a blank written in the default colours leaves (what marks its row used)."""


@lru_cache(maxsize=4096)
def char_width(char: str) -> int:
    """Cells a character takes: 0 (combining), 1, or 2; -1 for non-printables."""
    return wcwidth(char)


@dataclass
class Clipboard:
    """An OSC 52 write, captured for the multiplexer to decide on (never executed)."""

    selection: str
    data: str
    """Base64 as the application sent it; "?" is a query."""


@dataclass
class _Saved:
    x: int
    y: int
    attrs: Cell
    origin: bool
    wrap: bool


@dataclass
class _Buffer:
    """One of the two screens (main, alternate): its rows and wrapped-row flags."""

    rows: defaultdict[int, Row]
    wrapped: set[int] = field(default_factory=set)


class Cursor(pyte.screens.Cursor):
    """pyte's cursor, carrying termhost's richer cell attributes."""

    attrs: Cell  # type: ignore[assignment]


class Screen(pyte.Screen):
    """A `columns` x `lines` screen whose main-screen rows scroll into `history`.

    `reply` gets the bytes the terminal sends back (device attributes, cursor position
    reports): the owner writes them to the PTY.
    """

    buffer: defaultdict[int, Row]  # type: ignore[assignment]
    cursor: Cursor

    def __init__(
        self,
        columns: int,
        lines: int,
        *,
        history: Scrollback | None = None,
        reply: Callable[[bytes], None] | None = None,
    ) -> None:
        self.history = history if history is not None else Scrollback()
        self.reply = reply
        self.scroll_on_clear: Callable[[], bool] = lambda: True
        """tmux's scroll-on-clear option, asked when the whole screen is cleared: the
        owner (the pane) knows where the option is set; on by default, as tmux's."""
        self.wrapped: set[int] = set()
        self._alternate: _Buffer | None = None
        super().__init__(columns, lines)

    # --- state a multiplexer reads ---------------------------------------------------

    @property
    def default_char(self) -> Cell:  # type: ignore[override]  # Cell has Char's fields
        return BLANK._replace(reverse=mo.DECSCNM in self.mode)

    def reset(self) -> None:
        """RIS: everything back to power-on state (the scrollback stays, as in xterm)."""
        super().reset()
        self.buffer = defaultdict(self._new_row)
        self.cursor = Cursor(0, 0, BLANK)  # type: ignore[arg-type]
        self.wrapped = set()
        self._alternate = None
        self._saved: _Saved | None = None
        self._alt_saved: _Saved | None = None
        self.cwd = ""
        self.link = ""
        self.clipboard: list[Clipboard] = []
        self.bell_count = 0
        self.cursor_shape = 0
        self.application_keypad = False
        self._last_char = ""
        self._joining = False
        self._laid_out: dict[int, tuple[Row, dict[int, Cell], int, str]] = {}
        self.pending_rows: dict[int, str | Deferred] = {}
        """Rows the flood path left encoded, not in `buffer` yet (see `lay_out_pending`)."""

    def _new_row(self) -> Row:
        return StaticDefaultDict(self.default_char)

    def lay_out_pending(self) -> None:
        """Put the rows the flood path left encoded into `buffer` as cells.

        A flood flushed in batches leaves a screenful of new rows after every batch,
        and the next batch usually scrolls them all away unseen: so `fast_forward`
        stores them in `pending_rows` and this lays them out only when someone looks
        (the owner calls it before the screen is read or the parser writes to it). Each
        row is noted with its encoding: if it scrolls off unchanged, that encoding is
        stored again rather than computed anew from its cells.
        """
        pending, self.pending_rows = self.pending_rows, {}
        buffer, columns = self.buffer, self.columns
        noted: dict[int, tuple[Row, dict[int, Cell], int, str]] = {}
        for y, row in pending.items():
            encoded = row if isinstance(row, str) else row.encode()
            cells = decode_line(encoded)
            if cells:
                buffer[y].update(enumerate(cells))
            elif not isinstance(row, str) and row.written():
                buffer[y][0] = _WRITTEN_BLANK  # used, as the parser's blanks leave it
            noted[id(buffer[y])] = (buffer[y], dict(buffer[y]), columns, encoded)
        live = {id(row) for row in buffer.values()}  # rows that left are forgotten
        self._laid_out = {key: note for key, note in self._laid_out.items() if key in live}
        self._laid_out.update(noted)

    def encode_leaving(self, y: int) -> str | Deferred:
        """Row y as the scrollback stores it: its pending encoding if it was not laid
        out, its noted encoding if it still holds exactly the cells it had then (a
        C-level comparison), else `encode_row`."""
        pending = self.pending_rows.get(y)
        if pending is not None:
            return pending
        row, wrapped = self.buffer[y], y in self.wrapped
        noted = self._laid_out.pop(id(row), None)
        if noted is not None:
            same_row, cells, columns, encoded = noted
            if (
                same_row is row
                and columns == self.columns
                and encoded.startswith(WRAPPED) == wrapped
                and row == cells
            ):
                return encoded
        return encode_row(row, self.columns, wrapped)

    @property
    def alternate_screen(self) -> bool:
        """Whether a full-screen application switched to the alternate screen."""
        return self._alternate is not None

    @property
    def application_cursor(self) -> bool:
        """DECCKM: arrow keys send `ESC O A` rather than `ESC [ A`."""
        return DECCKM in self.mode

    @property
    def bracketed_paste(self) -> bool:
        """Mode 2004: pastes are to be wrapped in `ESC [ 200~ ... ESC [ 201~`."""
        return BRACKETED_PASTE in self.mode

    @property
    def focus_events(self) -> bool:
        """Mode 1004: the application wants `ESC [ I` / `ESC [ O` on focus changes."""
        return FOCUS_EVENTS in self.mode

    @property
    def synchronized_output(self) -> bool:
        """Mode 2026: the application is mid-frame; a renderer should hold the frame."""
        return SYNCHRONIZED_OUTPUT in self.mode

    @property
    def autowrap(self) -> bool:
        """DECAWM (mode 7)."""
        return mo.DECAWM in self.mode

    @property
    def cursor_visible(self) -> bool:
        """DECTCEM (mode 25)."""
        return not self.cursor.hidden

    @property
    def mouse_tracking(self) -> int:
        """The mouse mode asked for: 0 (none), 9, 1000, 1002 or 1003."""
        for mode in reversed(_MOUSE_TRACKING):
            if mode in self.mode:
                return mode >> 5
        return 0

    @property
    def mouse_encoding(self) -> int:
        """The mouse report encoding asked for: 0 (X10 bytes), 1005, 1006 or 1015."""
        for mode in _MOUSE_ENCODINGS:
            if mode in self.mode:
                return mode >> 5
        return 0

    # --- the parser's entry points ---------------------------------------------------

    def execute(self, control: str) -> None:
        """C0 controls (ECMA-48 8.2)."""
        self._last_char = ""
        self._joining = False
        if control == "\n" or control == "\x0b" or control == "\x0c":
            self.linefeed()
        elif control == "\r":
            self.carriage_return()
        elif control == "\x08":
            self.backspace()
        elif control == "\t":
            self.tab()
        elif control == "\x07":
            self.bell()

    def esc_dispatch(self, intermediates: str, final: str) -> None:
        """`ESC [intermediates] final`."""
        self._last_char = ""
        if intermediates == "":
            handler = _ESC.get(final)
            if handler is not None:
                handler(self)
        elif intermediates == "#" and final == "8":
            self.alignment_display()
            self.margins = None  # DECALN also resets the region and homes the cursor
            self.cursor.x = self.cursor.y = 0
        # ESC ( B and the other charset designations: UTF-8 only, nothing to do.

    def csi_dispatch(self, private: str, params: Params, intermediates: str, final: str) -> None:
        """`CSI [private] params [intermediates] final`, routed by (private, inter, final)."""
        handler = _CSI.get((private, intermediates, final))
        if handler is not Screen.repeat:
            self._last_char = ""
        if handler is not None:
            handler(self, params)

    def osc_dispatch(self, data: str) -> None:
        """OSC 0/1/2 (titles), 7 (cwd), 8 (hyperlink), 52 (clipboard); others ignored."""
        code, _, rest = data.partition(";")
        if code in ("0", "2"):
            self.set_title(rest)
        if code in ("0", "1"):
            self.set_icon_name(rest)
        elif code == "7":
            self.cwd = rest
        elif code == "8":
            _params, _, uri = rest.partition(";")
            self.link = uri
            self.cursor.attrs = self.cursor.attrs._replace(link=uri)
        elif code == "52":
            selection, _, payload = rest.partition(";")
            if payload or selection:
                self.clipboard.append(Clipboard(selection or "s0", payload))
                del self.clipboard[:-16]  # keep the last few; the multiplexer drains it

    # --- drawing -------------------------------------------------------------------

    def draw(self, text: str) -> None:
        """Write printable characters at the cursor (with autowrap, wide and combining)."""
        cursor = self.cursor
        columns = self.columns
        attrs = cursor.attrs
        insert = mo.IRM in self.mode
        autowrap = mo.DECAWM in self.mode
        line = self.buffer[cursor.y]
        self.dirty.add(cursor.y)
        for char in text:
            width = char_width(char)
            if self._joining and width > 0:
                self._joining = False
                self._combine(char)  # the character after a ZWJ joins the same cell
                continue
            if _REGIONAL_A <= char <= _REGIONAL_Z and self._pairs_with_flag():
                self._combine(char)  # two regional indicators are one flag
                continue
            if width <= 0 or width > columns:
                if width == 0:
                    self._combine(char)
                    self._joining = char == _ZWJ and self._after_wide()
                continue  # non-printable, or a wide character on a 1-column screen
            if cursor.x + width > columns:  # pending wrap, or a wide char at the last column
                if autowrap:
                    self.wrapped.add(cursor.y)
                    cursor.x = 0
                    self.index()
                    line = self.buffer[cursor.y]
                    self.dirty.add(cursor.y)
                elif width == 2:
                    continue  # tmux drops a wide character that cannot fit
                else:
                    cursor.x = columns - 1
            x = cursor.x
            self._split_wide(line, x)
            if insert:
                self._insert_cells(line, x, width)
            if width == 2:
                self._split_wide(line, x + 1)
                line[x] = attrs._replace(data=char)
                line[x + 1] = attrs._replace(data=WIDE_STUB)
            else:
                line[x] = attrs._replace(data=char)
            cursor.x = x + width if autowrap else min(x + width, columns - 1)
            self._last_char = char if char.isascii() else ""  # REP repeats ASCII only

    def _after_wide(self) -> bool:
        """Whether the cursor follows a wide character (an emoji a ZWJ may extend)."""
        x = self.cursor.x - 1
        row = self.buffer[self.cursor.y]
        return x >= 1 and row[x].data == WIDE_STUB

    def _pairs_with_flag(self) -> bool:
        """Whether the cell before the cursor holds a lone regional indicator."""
        x = self.cursor.x - 1
        row = self.buffer[self.cursor.y]
        if x >= 0 and row[x].data == WIDE_STUB:
            x -= 1
        data = row[x].data if x >= 0 else ""
        return len(data) == 1 and _REGIONAL_A <= data <= _REGIONAL_Z

    def _combine(self, char: str) -> None:
        """Attach a zero-width character (combining mark, VS16, ZWJ) to the cell before."""
        x, y = self.cursor.x - 1, self.cursor.y
        line = self.buffer[y]
        if x >= 0 and line[x].data == WIDE_STUB:
            x -= 1
        if x < 0:
            return
        cell = line[x]
        if len(cell.data) < 32:  # bounded: a flood of combining marks cannot grow a cell
            line[x] = cell._replace(data=cell.data + char)

    def _split_wide(self, line: Row, x: int) -> None:
        """Overwriting half of a wide character blanks its other half (as xterm, tmux)."""
        if x >= self.columns:
            return
        cell = line[x]
        if cell.data == WIDE_STUB and x > 0:
            line[x - 1] = line[x - 1]._replace(data=" ")
            line[x] = cell._replace(data=" ")
        elif char_width(cell.data[:1]) == 2 and x + 1 < self.columns:
            line[x + 1] = line[x + 1]._replace(data=" ")

    def _insert_cells(self, line: Row, x: int, count: int) -> None:
        """IRM: cells from x move right by `count`; a wide character pushed half past
        the margin is blanked."""
        for column in range(self.columns - 1, x + count - 1, -1):
            if column - count in line:
                line[column] = line[column - count]
            else:
                line.pop(column, None)
        for column in range(x, min(x + count, self.columns)):
            line.pop(column, None)
        last = self.columns - 1
        if char_width(line[last].data[:1]) == 2:
            line[last] = line[last]._replace(data=" ")

    @property
    def display(self) -> list[str]:
        """The visible rows as text: a wide character once, combining marks kept."""
        return [self.row_text(y, self.columns) for y in range(self.lines)]

    def row_text(self, y: int, width: int | None = None) -> str:
        """Row y's text over `width` cells; by default up to its last written cell, so
        spaces the application wrote count and cells it never touched do not (tmux's
        capture-pane -N and -J)."""
        row = self.buffer.get(y)
        if width is None:
            width = max(row, default=-1) + 1 if row else 0
        if not row:
            return self.default_char.data * width
        parts = []
        wide = False
        for x in range(width):
            data = row[x].data
            if data == WIDE_STUB:
                if not wide:
                    parts.append(" ")  # an orphaned right half shows as a blank
                wide = False
                continue
            parts.append(data)
            wide = char_width(data[0]) == 2
        return "".join(parts)

    def repeat(self, params: Params) -> None:
        """REP (CSI n b): the last printed character n more times, to the end of the row
        at most (tmux); only an ASCII character printed just before counts."""
        count = min(_first(params, 1) or 1, self.columns - self.cursor.x)
        if self._last_char and count > 0:
            self.draw(self._last_char * count)

    def insert_characters(self, count: int | None = None) -> None:
        """ICH: `count` blanks at the cursor, the rest of the row shifted right and cut
        at the margin (pyte 0.8.2 shifts a cell to one column past the margin). A wide
        character the cursor splits (on its right half) is blanked, as one whose right
        half is pushed past the margin: half a character never stays."""
        self.dirty.add(self.cursor.y)
        x = self.cursor.x
        if x >= self.columns:
            return
        row = self.buffer[self.cursor.y]
        if row[x].data == WIDE_STUB:
            self._split_wide(row, x)
        self._insert_cells(row, x, min(count or 1, self.columns))

    # --- lines and scrolling ----------------------------------------------------------

    def _region(self) -> Margins:
        return self.margins or Margins(0, self.lines - 1)

    def _scroll_up(self, top: int, bottom: int, count: int) -> None:
        """Rows top..bottom move up `count`; rows leaving a full-screen region are kept."""
        buffer = self.buffer
        count = min(count, bottom - top + 1)
        full = top == 0 and bottom == self.lines - 1 and self._alternate is None
        if full and self.history.limit:
            self.history.extend([self.encode_leaving(y) for y in range(count)])
        for y in range(top, bottom + 1):
            source = y + count
            if source <= bottom and source in buffer:
                buffer[y] = buffer[source]
            else:
                buffer.pop(y, None)
        self._shift_wrapped(top, bottom, -count)
        self.dirty.update(range(top, bottom + 1))

    def _scroll_down(self, top: int, bottom: int, count: int) -> None:
        buffer = self.buffer
        count = min(count, bottom - top + 1)
        for y in range(bottom, top - 1, -1):
            source = y - count
            if source >= top and source in buffer:
                buffer[y] = buffer[source]
            else:
                buffer.pop(y, None)
        self._shift_wrapped(top, bottom, count)
        self.dirty.update(range(top, bottom + 1))

    def _shift_wrapped(self, top: int, bottom: int, delta: int) -> None:
        if not self.wrapped:
            return
        moved = {y + delta for y in self.wrapped if top <= y <= bottom}
        kept = {y for y in self.wrapped if not top <= y <= bottom}
        self.wrapped = kept | {y for y in moved if top <= y <= bottom}

    def index(self) -> None:
        """IND: down one row; at the bottom margin the region scrolls up."""
        top, bottom = self._region()
        if self.cursor.y == bottom:
            self._scroll_up(top, bottom, 1)
        elif self.cursor.y < self.lines - 1:
            self.cursor.y += 1

    def reverse_index(self) -> None:
        """RI: up one row; at the top margin the region scrolls down."""
        top, bottom = self._region()
        if self.cursor.y == top:
            self._scroll_down(top, bottom, 1)
        elif self.cursor.y > 0:
            self.cursor.y -= 1

    def linefeed(self) -> None:
        """LF, VT, FF: an index, plus a carriage return in LNM mode (a pending wrap stays)."""
        self.index()
        if mo.LNM in self.mode:
            self.carriage_return()

    def next_line(self) -> None:
        """NEL (ESC E): index, then carriage return."""
        self.index()
        self.carriage_return()

    def soft_reset(self) -> None:
        """DECSTR (CSI ! p): modes, margins and attributes to defaults; the text stays."""
        self.mode.difference_update({mo.IRM, mo.DECOM, DECCKM})
        self.mode.update({mo.DECAWM, mo.DECTCEM})
        self.cursor.hidden = False
        self.margins = None
        self.cursor.attrs = self.default_char
        self.application_keypad = False
        self._saved = None

    def set_margins(self, top: int | None = None, bottom: int | None = None) -> None:
        """DECSTBM (CSI top ; bottom r): the scroll region, then the cursor home.

        As tmux (screen_write_scrollregion): a missing or zero top is the first row, a
        missing bottom the last; a region of fewer than two rows is ignored; the cursor
        goes to the top left of the screen, in origin mode too. (pyte left the cursor
        where it was for CSI r, which resets the region.)
        """
        last = self.lines - 1
        upper = min(top or 1, self.lines) - 1
        lower = last if bottom is None else min(bottom or 1, self.lines) - 1
        if upper >= lower:
            return
        self.margins = None if (upper, lower) == (0, last) else Margins(upper, lower)
        self.cursor.x = self.cursor.y = 0

    def scroll_up(self, params: Params) -> None:
        """SU (CSI n S): the scroll region moves up n rows; the cursor stays."""
        top, bottom = self._region()
        self._scroll_up(top, bottom, _first(params, 1) or 1)

    def scroll_down(self, params: Params) -> None:
        """SD (CSI n T): the scroll region moves down n rows; the cursor stays."""
        if len(params) > 1:
            return  # CSI Ps;Ps;Ps;Ps;Ps T is xterm's mouse highlight tracking, not SD
        top, bottom = self._region()
        self._scroll_down(top, bottom, _first(params, 1) or 1)

    def _lines_region(self) -> int:
        """The bottom row IL/DL work down to: the region's, or the screen's when the
        cursor is outside the region (tmux)."""
        top, bottom = self._region()
        return bottom if top <= self.cursor.y <= bottom else self.lines - 1

    def insert_lines(self, count: int | None = None) -> None:
        """IL: blank rows at the cursor, down to the region's bottom; the column stays."""
        self._scroll_down(self.cursor.y, self._lines_region(), count or 1)

    def delete_lines(self, count: int | None = None) -> None:
        """DL: rows at the cursor removed, blank rows in at the bottom; never scrollback."""
        y, bottom = self.cursor.y, self._lines_region()
        buffer = self.buffer
        count = min(count or 1, bottom - y + 1)
        for row in range(y, bottom + 1):
            source = row + count
            if source <= bottom and source in buffer:
                buffer[row] = buffer[source]
            else:
                buffer.pop(row, None)
        self._shift_wrapped(y, bottom, -count)
        self.dirty.update(range(y, bottom + 1))

    def _erase_rows(self, rows: range, *, unwrap_above: bool = True) -> None:
        """Whole rows to the current background (pyte only rewrote the cells it had).

        Each starts afresh, and the line above no longer wraps onto them (tmux's
        grid_clear_lines): the scrollback's newest line when the top row is erased,
        unless `unwrap_above` is false (the line scrolled there from the screen whole).
        """
        if not rows:
            return
        self.wrapped.difference_update(rows)
        if rows.start:
            self.wrapped.discard(rows.start - 1)
        elif self._alternate is None and unwrap_above:
            self.history.unwrap_newest()
        attrs = self.cursor.attrs._replace(data=" ")
        for y in rows:
            if attrs == BLANK:
                self.buffer.pop(y, None)
            else:
                row = self.buffer[y]
                for x in range(self.columns):
                    row[x] = attrs
        self.dirty.update(rows)

    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        """EL 0 (to the end), 1 (from the start), 2 (the whole row).

        As in tmux, erasing the whole row starts it afresh (grid_clear_lines: nothing
        used, not wrapped), while erasing part of it keeps the width the row reached:
        a reflow cuts the row where tmux does.
        """
        x, y, columns = self.cursor.x, self.cursor.y, self.columns
        span = {0: range(x, columns), 1: range(min(x, columns - 1) + 1), 2: range(columns)}.get(how)
        if span is None:
            return
        if len(span) == columns:
            self._erase_rows(range(y, y + 1))
            return
        attrs = self.cursor.attrs._replace(data=" ")
        row = self.buffer[y]
        self.dirty.add(y)
        used = max(row, default=-1) + 1
        for column in span:
            if attrs != BLANK or column < used:
                row[column] = attrs

    def erase_in_display(self, how: int = 0, *args: object, **kwargs: object) -> None:
        """ED 0/1/2, and 3 (xterm: also clear the scrollback). Clearing the whole main
        screen (ED 2, or ED 0 from the top left) keeps its text in the scrollback
        while scroll-on-clear is on, as tmux's screen_write_clearscreen does."""
        if how == 3:
            self.history.clear()
            return
        y = self.cursor.y
        whole = how == 2 or (how == 0 and self.cursor.x == 0 and y == 0)
        if whole and self._alternate is None and self.history.limit and self.scroll_on_clear():
            self._clear_into_history()
        elif how == 0:
            self._erase_rows(range(y + 1, self.lines))
            self.erase_in_line(0)
        elif how == 1:
            self._erase_rows(range(y))
            self.erase_in_line(1)
        elif how == 2:
            self._erase_rows(range(self.lines))

    def _clear_into_history(self) -> None:
        """tmux's grid_view_clear_history: the rows down to the last one used scroll
        into the scrollback, and the screen is cleared; the newest line there keeps
        wrapping only when the whole screen scrolled (no row was cleared below it)."""
        buffer = self.buffer
        used = [y for y in range(self.lines) if buffer.get(y)]
        last = used[-1] + 1 if used else 0
        if last:
            self._scroll_up(0, self.lines - 1, last)
        self._erase_rows(range(self.lines), unwrap_above=last < self.lines)

    def resize(self, lines: int | None = None, columns: int | None = None) -> None:
        """Change the size keeping the text and the cursor's place (tmux's rules).

        As tmux's screen_resize: the rows first (fewer drop blank rows below the cursor,
        then push rows from the top into the scrollback; more bring lines back from it),
        then a new width on the main screen reflows it with the scrollback (reflow.py).
        (pyte instead drops rows and homes the cursor.) The alternate screen is only cut
        or padded: the application redraws it on SIGWINCH.
        """
        lines = lines or self.lines
        columns = columns or self.columns
        if lines < 1 or columns < 1:
            raise ValueError(f"screen size {columns}x{lines} is too small")
        if lines < self.lines:
            self._shrink_rows(self.lines - lines)
        elif lines > self.lines:
            self._grow_rows(lines - self.lines)
        self.lines = lines
        if columns != self.columns and self._alternate is None:
            self._reflow(columns)
            if columns == 1:  # a wide character fits no row of one column: a blank
                self._cut_rows(1, 2)
            self.cursor.x = min(self.cursor.x, columns)  # at most a wrap pending
        elif columns < self.columns:
            self._cut_rows(columns, self.columns)
            self.wrapped.clear()
            self.cursor.x = min(self.cursor.x, columns - 1)
        self._resized(lines, columns)

    def _cut_rows(self, columns: int, old: int) -> None:
        """Every row cut to `columns` cells (of `old`); a wide character whose right half
        went is a blank."""
        for row in self.buffer.values():
            for x in range(columns, old):
                row.pop(x, None)
            last = row.get(columns - 1)
            if last is not None and char_width(last.data[:1]) == 2:
                row[columns - 1] = last._replace(data=" ")  # its right half is gone

    def _resized(self, lines: int, columns: int) -> None:
        """As tmux's screen_resize: a change of width sets the tab stops back to every
        eighth column, a change of height resets the scrolling region; each keeps what
        the program set while its own dimension stays."""
        if columns != self.columns:
            self.tabstops = set(range(8, columns, 8))
        if lines != self.lines:
            self.margins = None
        self.lines, self.columns = lines, columns
        self.dirty.update(range(lines))

    def _reflow(self, columns: int) -> None:
        """Rewrap the scrollback and the screen at `columns` (tmux's grid_reflow).

        Then, as in tmux, the screen shows the last `lines` rows of the result (blank
        rows are added at the bottom when there are too few), and a cursor whose line
        went up into the scrollback goes home (screen_resize_cursor).
        """
        history = self.history
        rows = [
            reflow.Row(decode_line(line), line.startswith(WRAPPED), line) for line in history.raw()
        ]
        rows += [reflow.Row(self._row_cells(y), y in self.wrapped) for y in range(self.lines)]
        self._fill_wrapped(rows)
        new, cursor_row, cursor_col = reflow.reflow(
            rows, len(rows) - self.lines + self.cursor.y, self.cursor.x, columns
        )
        top = max(0, len(new) - self.lines)
        history.replace(
            row.encoded
            if row.encoded is not None
            else encode_row(dict(enumerate(row.cells)), columns, row.wrapped)
            for row in new[:top]
        )
        self.buffer.clear()
        self.wrapped = set()
        for y, row in enumerate(new[top:]):
            if row.cells:
                self.buffer[y].update(enumerate(row.cells))
            if row.wrapped:
                self.wrapped.add(y)
        if cursor_row >= top:
            self.cursor.x, self.cursor.y = cursor_col, cursor_row - top
        else:
            self.cursor.x = self.cursor.y = 0

    def _row_cells(self, y: int) -> list[Cell]:
        """Row y's used cells, as tmux counts them (cellused): up to the last one
        written, spaces included; the reflow then fills the rows that wrapped."""
        row: Mapping[int, Cell] = self.buffer.get(y, {})
        used = min(max(row, default=-1) + 1, self.columns)
        return [row.get(x, BLANK) for x in range(used)]

    def _fill_wrapped(self, rows: list[reflow.Row]) -> None:
        """A row that wrapped used every column, as far as tmux is concerned (it keeps
        the width a row reached when its end is erased), but for the last column left
        empty by a wide character that did not fit there and went to the next row. The
        scrollback stores a row without its trailing blanks: this puts them back."""
        columns = self.columns
        for index, row in enumerate(rows[:-1]):
            missing = columns - len(row.cells)
            if not row.wrapped or missing <= 0:
                continue
            following = rows[index + 1].cells
            if missing == 1 and len(following) > 1 and following[1].data == WIDE_STUB:
                continue
            row.cells.extend([BLANK] * missing)

    def trim_below_cursor(self) -> None:
        """resize-pane -T: the lines below the cursor dropped and as many lines of
        history brought back in at the top (no more than it holds), the cursor moving
        down with its line, as tmux's grid_remove_history there; the alternate screen,
        which has no history, is left alone."""
        count = min(self.lines - 1 - self.cursor.y, len(self.history))
        if self._alternate is not None or count <= 0:
            return
        for y in range(self.lines - count, self.lines):
            self.buffer.pop(y, None)
            self.wrapped.discard(y)
        self._grow_rows(count)
        self.dirty.update(range(self.lines))

    def _shrink_rows(self, count: int) -> None:
        buffer = self.buffer
        for y in range(self.lines - 1, self.cursor.y, -1):
            if not count or any(cell != BLANK for cell in buffer.get(y, {}).values()):
                break
            buffer.pop(y, None)
            self.wrapped.discard(y)
            count -= 1
        if count:
            if self._alternate is None:
                for y in range(count):
                    self.history.push(buffer[y], self.columns, y in self.wrapped)
            rows = [buffer.get(y) for y in range(count, self.lines)]
            buffer.clear()
            for y, row in enumerate(rows):
                if row is not None:
                    buffer[y] = row
            self.wrapped = {y - count for y in self.wrapped if y >= count}
            self.cursor.y = max(0, self.cursor.y - count)

    def _grow_rows(self, count: int) -> None:
        if self._alternate is not None:
            return
        pulled = self.history.pop(min(count, len(self.history)))
        if not pulled:
            return
        shift = len(pulled)
        rows = {y + shift: row for y, row in self.buffer.items()}
        self.buffer.clear()
        self.buffer.update(rows)
        self.wrapped = {y + shift for y in self.wrapped}
        for y, (cells, wrapped) in enumerate(pulled):
            row = self._new_row()
            row.update(enumerate(cells))
            self.buffer[y] = row
            if wrapped:
                self.wrapped.add(y)
        self.cursor.y += shift

    # --- the cursor ----------------------------------------------------------------

    def _leave_pending_wrap(self) -> None:
        """After the last column is written the cursor waits past it (pending wrap);
        any motion first puts it back on the last column, as in xterm and tmux."""
        if self.cursor.x >= self.columns:
            self.cursor.x = self.columns - 1

    def save_cursor(self) -> None:
        """DECSC (ESC 7): position, attributes, origin and wrap modes."""
        self._saved = self._snapshot()

    def restore_cursor(self) -> None:
        """DECRC (ESC 8); with nothing saved, home and default attributes."""
        self._restore(self._saved)

    def _snapshot(self) -> _Saved:
        return _Saved(
            min(self.cursor.x, self.columns - 1),
            self.cursor.y,
            self.cursor.attrs,
            mo.DECOM in self.mode,
            mo.DECAWM in self.mode,
        )

    def _restore(self, saved: _Saved | None) -> None:
        if saved is None:
            self.mode.discard(mo.DECOM)
            self.cursor.x = self.cursor.y = 0
            self.cursor.attrs = self.default_char
            return
        self.cursor.x = min(saved.x, self.columns - 1)
        self.cursor.y = min(saved.y, self.lines - 1)
        self.cursor.attrs = saved.attrs
        for mode, on in ((mo.DECOM, saved.origin), (mo.DECAWM, saved.wrap)):
            if on:
                self.mode.add(mode)
            else:
                self.mode.discard(mode)

    def tab(self) -> None:
        """HT: to the next tab stop, or the last column; nothing at a pending wrap."""
        if self.cursor.x < self.columns:
            super().tab()

    def backspace(self) -> None:
        """BS: one column left, stopping at the first (from a pending wrap: the last)."""
        self.cursor_back(1)

    def cursor_back(self, count: int | None = None) -> None:
        """CUB: left n columns; a pending wrap counts as the column past the last."""
        self.cursor.x = max(0, self.cursor.x - (count or 1))

    def cursor_position(self, line: int | None = None, column: int | None = None) -> None:
        """CUP/HVP; in origin mode relative to, and kept inside, the scroll region."""
        y, x = (line or 1) - 1, (column or 1) - 1
        if mo.DECOM in self.mode and self.margins is not None:
            y = min(y + self.margins.top, self.margins.bottom)
        self.cursor.x = min(x, self.columns - 1)
        self.cursor.y = min(y, self.lines - 1)

    def tab_backward(self, params: Params) -> None:
        """CBT (CSI n Z)."""
        self._leave_pending_wrap()
        for _ in range(min(_first(params, 1) or 1, self.columns)):
            stops = [stop for stop in self.tabstops if stop < self.cursor.x]
            self.cursor.x = max(stops) if stops else 0

    def set_cursor_style(self, params: Params) -> None:
        """DECSCUSR (CSI n SP q): 0/1 blinking block ... 6 steady bar."""
        shape = _first(params, 0) or 0
        if 0 <= shape <= 6:
            self.cursor_shape = shape

    # --- modes ---------------------------------------------------------------------

    def set_mode(self, *modes: int, **kwargs: object) -> None:
        """SM / DECSET, with the alternate screen and the modes pyte does not know."""
        private = bool(kwargs.get("private"))
        shifted = [mode << 5 if private else mode for mode in modes]
        for mode in shifted:
            if mode in (ALT_47, ALT_1047, ALT_1049):
                self._enter_alternate(save_cursor=mode == ALT_1049)
            elif mode == mo.DECCOLM:
                self._clear_for_deccolm()
            elif mode in _MOUSE_TRACKING:
                self.mode.difference_update(_MOUSE_TRACKING)
                self.mode.add(mode)
            elif mode in _MOUSE_ENCODINGS:
                self.mode.difference_update(_MOUSE_ENCODINGS)
                self.mode.add(mode)
            else:
                super().set_mode(mode)

    def reset_mode(self, *modes: int, **kwargs: object) -> None:
        """RM / DECRST."""
        private = bool(kwargs.get("private"))
        shifted = [mode << 5 if private else mode for mode in modes]
        for mode in shifted:
            if mode in (ALT_47, ALT_1047, ALT_1049):
                self._leave_alternate(restore_cursor=mode == ALT_1049)
            elif mode == mo.DECCOLM:
                self._clear_for_deccolm()
            else:
                super().reset_mode(mode)

    def _clear_for_deccolm(self) -> None:
        # tmux, like xterm without allowColumns, does not resize: it clears and homes.
        self.erase_in_display(2)
        self.cursor.x = self.cursor.y = 0

    @property
    def region(self) -> Margins:
        """The scrolling region (DECSTBM), the whole screen when none was set."""
        return self._region()

    @property
    def saved_alternate_cursor(self) -> tuple[int, int] | None:
        """Where the cursor was when the alternate screen was entered (mode 1049), to go
        back to; None outside it (#{alternate_saved_x})."""
        saved = self._alt_saved
        return None if saved is None else (saved.x, saved.y)

    @property
    def main_behind_alternate(self) -> _Buffer | None:
        """The main screen's rows while the alternate screen is shown (capture-pane -a,
        tmux's saved_grid); None while the main screen is the one shown."""
        return self._alternate

    def _enter_alternate(self, *, save_cursor: bool) -> None:
        if self._alternate is not None:
            return  # already there: tmux neither clears nor saves again
        if save_cursor:
            self._alt_saved = self._snapshot()
        self._alternate = _Buffer(self.buffer, self.wrapped)
        self.buffer = defaultdict(self._new_row)
        self.wrapped = set()
        self.dirty.update(range(self.lines))

    def _leave_alternate(self, *, restore_cursor: bool) -> None:
        if self._alternate is not None:
            self.buffer, self.wrapped = self._alternate.rows, self._alternate.wrapped
            self._alternate = None
            self.dirty.update(range(self.lines))
        if restore_cursor and self._alt_saved is not None:
            self._restore(self._alt_saved)
            self._alt_saved = None

    # --- replies -----------------------------------------------------------------------

    def _reply(self, text: str) -> None:
        if self.reply is not None:
            self.reply(text.encode())

    def report_device_attributes(self, mode: int = 0, **kwargs: object) -> None:
        """DA1 (CSI c): a VT220 with ANSI colour, as tmux answers."""
        if not mode:
            self._reply("\x1b[?62;22c")

    def report_secondary_attributes(self, params: Params) -> None:
        """DA2 (CSI > c): terminal type 84 ("T"), as tmux answers."""
        if not _first(params, 0):
            self._reply("\x1b[>84;0;0c")

    def report_version(self, params: Params) -> None:
        """XTVERSION (CSI > q): name and version in a DCS string."""
        if not _first(params, 0):
            self._reply(f"\x1bP>|termhost {__version__}\x1b\\")

    def report_device_status(self, mode: int = 0, **kwargs: object) -> None:
        """DSR 5 (status: OK) and 6 (CPR, origin-relative in DECOM)."""
        if mode == 5:
            self._reply("\x1b[0n")
        elif mode == 6:
            y = self.cursor.y + 1
            if mo.DECOM in self.mode and self.margins is not None:
                y -= self.margins.top
            self._reply(f"\x1b[{y};{min(self.cursor.x, self.columns - 1) + 1}R")

    def bell(self, *args: object) -> None:
        """BEL: counted, for the multiplexer's bell and activity flags."""
        self.bell_count += 1

    def select_graphic_rendition(self, *attrs: int) -> None:
        """SGR from plain integers (pyte's signature); the parser uses `sgr` instead."""
        self.sgr([[value] for value in attrs])

    def sgr(self, params: Params) -> None:
        """SGR (CSI ... m), sub-parameters included."""
        attrs = apply_sgr(self.cursor.attrs, params, self.default_char)
        self.cursor.attrs = attrs._replace(link=self.link)

    def set_title(self, param: str) -> None:
        """OSC 0/2."""
        self.title = param[:4096]

    def set_icon_name(self, param: str) -> None:
        """OSC 0/1."""
        self.icon_name = param[:4096]

    def write_process_input(self, data: str) -> None:
        """pyte's reply hook, routed to `reply`."""
        self._reply(data)


def _first(params: Params, default: int) -> int:
    """The first parameter (its main value), `default` when absent."""
    value = params[0][0] if params else None
    return default if value is None else value


def _args(params: Params) -> list[int]:
    """Main values of each parameter, 0 for empty ones (pyte's convention)."""
    return [field[0] or 0 for field in params]


def _plain(method: Callable[..., None], arity: int = 1) -> Callable[[Screen, Params], None]:
    """Adapt a pyte method taking `arity` integers to the (screen, params) form; extra
    parameters are ignored, as terminals do."""

    def call(screen: Screen, params: Params) -> None:
        method(screen, *_args(params)[:arity])

    return call


def _from_last_column(method: Callable[..., None]) -> Callable[[Screen, Params], None]:
    """As `_plain`, leaving a pending wrap first: tmux's CUU and CUD start from the
    last column, where LF, RI and IL keep the wrap pending."""

    def call(screen: Screen, params: Params) -> None:
        screen._leave_pending_wrap()
        method(screen, *_args(params)[:1])

    return call


def _modes(private: bool, setting: bool) -> Callable[[Screen, Params], None]:
    def call(screen: Screen, params: Params) -> None:
        values = [value for value in _args(params) if value]
        if setting:
            screen.set_mode(*values, private=private)
        else:
            screen.reset_mode(*values, private=private)

    return call


def _keypad(on: bool) -> Callable[[Screen], None]:
    def call(screen: Screen) -> None:
        screen.application_keypad = on

    return call


def _clamped(method: Callable[..., None]) -> Callable[[Screen], None]:
    def call(screen: Screen) -> None:
        screen._leave_pending_wrap()
        method(screen)

    return call


_S = pyte.Screen
_CSI: dict[tuple[str, str, str], Callable[[Screen, Params], None]] = {
    ("", "", "@"): _plain(Screen.insert_characters),
    ("", "", "A"): _from_last_column(_S.cursor_up),
    ("", "", "B"): _from_last_column(_S.cursor_down),
    ("", "", "e"): _from_last_column(_S.cursor_down),
    ("", "", "C"): _plain(_S.cursor_forward),
    ("", "", "a"): _plain(_S.cursor_forward),
    ("", "", "D"): _plain(Screen.cursor_back),
    ("", "", "E"): _plain(_S.cursor_down1),
    ("", "", "F"): _plain(_S.cursor_up1),
    ("", "", "G"): _plain(_S.cursor_to_column),
    ("", "", "`"): _plain(_S.cursor_to_column),
    ("", "", "H"): _plain(Screen.cursor_position, 2),
    ("", "", "f"): _plain(Screen.cursor_position, 2),
    ("", "", "d"): _plain(_S.cursor_to_line),
    ("", "", "J"): _plain(Screen.erase_in_display),
    ("?", "", "J"): _plain(Screen.erase_in_display),
    ("", "", "K"): _plain(Screen.erase_in_line),
    ("?", "", "K"): _plain(Screen.erase_in_line),
    ("", "", "L"): _plain(Screen.insert_lines),
    ("", "", "M"): _plain(Screen.delete_lines),
    ("", "", "P"): _plain(_S.delete_characters),
    ("", "", "X"): _plain(_S.erase_characters),
    ("", "", "S"): Screen.scroll_up,
    ("", "", "T"): Screen.scroll_down,
    ("", "", "b"): Screen.repeat,
    ("", "", "Z"): Screen.tab_backward,
    ("", "", "g"): _plain(_S.clear_tab_stop),
    ("", "", "m"): Screen.sgr,
    ("", "", "r"): lambda screen, params: screen.set_margins(*[field[0] for field in params[:2]]),
    ("", "", "s"): lambda screen, params: screen.save_cursor(),
    ("", "", "u"): lambda screen, params: screen.restore_cursor(),
    ("", "", "h"): _modes(private=False, setting=True),
    ("", "", "l"): _modes(private=False, setting=False),
    ("?", "", "h"): _modes(private=True, setting=True),
    ("?", "", "l"): _modes(private=True, setting=False),
    ("", "", "c"): lambda screen, params: screen.report_device_attributes(_first(params, 0)),
    (">", "", "c"): Screen.report_secondary_attributes,
    (">", "", "q"): Screen.report_version,
    ("", "", "n"): lambda screen, params: screen.report_device_status(_first(params, 0)),
    ("", " ", "q"): Screen.set_cursor_style,
    ("", "!", "p"): lambda screen, params: screen.soft_reset(),
}

_ESC: dict[str, Callable[[Screen], None]] = {
    "c": lambda screen: screen.reset(),
    "D": Screen.index,
    "E": Screen.next_line,
    "M": Screen.reverse_index,
    "H": _clamped(_S.set_tab_stop),
    "7": Screen.save_cursor,
    "8": Screen.restore_cursor,
    "=": _keypad(True),
    ">": _keypad(False),
}
