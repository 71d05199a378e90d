"""Copy mode: a cursor over a frozen copy of a pane's lines, to search, select and copy,
as tmux's copy mode (`C-b [`) gives it.

The model only (no drawing, no key reading, no clipboard), so that every key's behaviour
is tested as data in and state out: the client draws `top`, `cursor`, `selection_spans`
and `match_spans`, and routes keys to `press`. As in tmux, a key names one of tmux's
copy-mode commands (`_COMMANDS`: `send -X NAME`), so a tmux user's habits carry over.

Search takes a regular expression, as tmux's does (Python's dialect rather than POSIX's
extended one; one that does not compile is searched for as plain text), with smart case:
no upper-case letter in it, and case is ignored. A departure from tmux 3.3, on purpose: in
vi, `$` and `l` stop on the last non-blank cell rather than one past it, so a vi copy never
ends in a newline.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal, NamedTuple

from wcwidth import wcwidth

from termhost.mux.bindings import copy_mode_commands
from termhost.terminal import Terminal

__all__ = ["Action", "CopyMode", "Match", "Position", "search_expression"]

Position = tuple[int, int]
"""(x, y) of a cell, y counted in lines from the oldest line of history."""


@dataclass(frozen=True)
class Action:
    """What the client must do after a key: leave copy mode, copy `text` and leave, or
    prompt for a string (`text` names the prompt: search-forward, search-backward or
    goto-line) and then call `CopyMode.search` or `CopyMode.goto_line`."""

    kind: Literal["exit", "copy", "prompt"]
    text: str = ""
    pipe: str | None = None
    """A copy's command to pipe the text to (copy-pipe*; "": the copy-command option's)."""
    stay: bool = False
    """A copy that stays in copy mode (copy-selection, copy-pipe, their -no-clear)."""


class Match(NamedTuple):
    """A search match, from `start` up to `end` (exclusive) in reading order. A match can
    run over a soft wrap, so `end` can be on a later line; its x can be the width."""

    start: Position
    end: Position

    def covers(self, x: int, y: int) -> bool:
        """Whether the cell (x, y) is part of this match: how the client tells the current
        match's span among `match_spans`."""
        return (self.start[1], self.start[0]) <= (y, x) < (self.end[1], self.end[0])


_ALIASES = {" ": "Space", "C-@": "C-Space", "PageUp": "PPage", "PageDown": "NPage",
            "escape": "Escape", "C-m": "Enter"}
"""Other names of the same keys: tmux's own, and prompt_toolkit's `escape`."""

_JUMPS = {"jump-forward": (1, False), "jump-backward": (-1, False),
          "jump-to-forward": (1, True), "jump-to-backward": (-1, True)}
"""Commands that take the next key as the character to jump to: (direction, whether to
stop one cell short of it)."""

_REVERSED = {"jump-forward": "jump-backward", "jump-backward": "jump-forward",
             "jump-to-forward": "jump-to-backward", "jump-to-backward": "jump-to-forward"}

_PROMPTED = ("search-forward", "search-backward", "goto-line")
"""Commands that ask for a string when a key runs them (send-keys -X gives it instead)."""

_COUNT_LIMIT = 99_999
"""A repeat count stops growing here: more than any history, and no huge integers."""


def _glyphs(text: str) -> list[str]:
    """A line of text as cells: a wide character takes two (itself, then ""), one of no
    width none."""
    cells: list[str] = []
    for char in text:
        if wcwidth(char) == 2:
            cells += [char, ""]
        elif wcwidth(char) == 1:
            cells.append(char)
    return cells


def _cells(text: str, width: int) -> list[str]:
    """A line of text as `width` cells: cut at the width, the rest blank."""
    cells = _glyphs(text)[:width]
    if cells and wcwidth(cells[-1]) == 2:
        cells[-1] = " "  # its right half was cut off
    return cells + [" "] * (width - len(cells))


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


def _content_length(row: Sequence[str]) -> int:
    """Cells up to the last non-blank one: what tmux calls a line's length."""
    length = len(row)
    while length and row[length - 1] == " ":
        length -= 1
    return length


def _word_class(glyph: str, spaces_only: bool) -> int:
    """vi's kinds of character, whose boundaries word motions stop at: 0 blank, 1 word
    (letters, digits, underscore), 2 other. W, B and E only tell blank from not."""
    if glyph in (" ", ""):
        return 0
    if spaces_only or glyph[0].isalnum() or glyph[0] == "_":
        return 1
    return 2


def _reading_order(match: Match) -> tuple[int, int]:
    return match.start[1], match.start[0]


def search_expression(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled, case ignored unless it has an upper-case letter (smart case);
    as plain text when it is no regular expression (an unbalanced `(`, a lone `*`)."""
    flags = 0 if any(c.isupper() for c in pattern) else re.IGNORECASE
    try:
        return re.compile(pattern, flags)
    except re.error:
        return re.compile(re.escape(pattern), flags)


class CopyMode:
    """A pane's lines frozen for copy mode, with a cursor, a view, a selection and a search.

    `rows` is every line, history first, each a sequence of `width` glyphs (" " blank, ""
    a wide character's right half); `wrapped[i]` says line i goes on in line i+1 (a soft
    wrap). The view shows `height` lines from `top`, starting at the bottom with the
    cursor on the pane's `cursor` (x, y on the screen: the last `height` lines).
    """

    def __init__(self, rows: Sequence[Sequence[str]], wrapped: Sequence[bool], height: int,
                 cursor: tuple[int, int], *, keys: str = "vi",
                 table: Mapping[str, str] | None = None, name: str = "copy-mode") -> None:
        if not rows or not rows[0]:
            raise ValueError("copy mode needs at least one line, at least one cell wide")
        if len(wrapped) != len(rows):
            raise ValueError(f"copy mode got {len(rows)} lines but {len(wrapped)} wrap flags")
        if keys not in ("vi", "emacs"):
            raise ValueError(f"unknown mode-keys {keys!r}: use vi or emacs")
        self._text: list[str] | None = None
        """View mode's lines as given, to cut again at another width."""
        self.name = name
        """#{pane_mode}: copy-mode over a pane's lines, view-mode over text the server
        shows in the pane (a configuration's errors, run-shell's output), as in tmux."""
        self._rows, self._wrapped = rows, wrapped
        self._lengths = [_content_length(row) for row in rows]
        self.width, self.height, self.keys = len(rows[0]), max(1, height), keys
        self._table = dict(table if table is not None else copy_mode_commands(keys))
        """Key name -> command name: the server's copy-mode or copy-mode-vi table."""
        self.top = self._history()
        """Index in the rows of the first line the view shows."""
        y = _clamp(self.top + cursor[1], 0, len(rows) - 1)
        self.cursor: Position = (self._off_padding(_clamp(cursor[0], 0, self.width - 1), y), y)
        self._goal_x, self._goal_end = self.cursor[0], False
        self._anchor: Position | None = None
        self._line_mode = self._rect = False
        self._count = 0
        self._awaiting: tuple[str, int] | None = None
        self._last_jump: tuple[str, str] | None = None
        self._pressed: Position | None = None
        self._word: tuple[Position, Position] | None = None
        """select-word's word (its first and last cells) while its selection lasts: a
        mouse move grows the selection by whole words, as tmux's SEL_WORD."""
        """Where the mouse button went down, where a drag's selection starts."""
        self._search: tuple[str, bool] | None = None
        self._matches: list[Match] = []
        self._matches_on: dict[int, list[Match]] = {}
        self.current_match: Match | None = None
        """The match the last search or n/N went to."""
        self.message: str | None = None
        """What to tell the user after the last key or search, as tmux's status line does."""
        self.scroll_exit = False
        """copy-mode -e: scrolling down to the bottom (scroll-down, page-down,
        halfpage-down) leaves the mode, as tmux's scroll_exit."""
        self.hide_position = False
        """copy-mode -H: no position indicator in the top right corner."""
        self._source: Terminal | None = None
        """copy-mode -s: the other pane whose lines these are (refit takes them again)."""

    @classmethod
    def of_terminal(cls, terminal: Terminal, *, keys: str,
                    table: Mapping[str, str] | None = None,
                    into: Terminal | None = None) -> CopyMode:
        """Copy mode over a pane: its scrollback and screen as rows of cell glyphs (a wide
        character then "" for its right half, as the emulator holds them), so columns in
        copy mode are the columns the user saw, with the cursor where the pane's is.

        `into`: shown in another pane (copy-mode -s), of that pane's size, as tmux's
        window_copy_clone_screen trims it: the blank lines at the bottom of the screen
        dropped, the cursor on the last line left if it was below; cut or padded to the
        other pane's width (tmux rewraps them)."""
        width = terminal.cols if into is None else into.cols
        history = terminal.history
        rows = [_cells(text, width) for text in history.lines()]
        wrapped = [history.wrapped(index) for index in range(len(history))]
        screen = terminal.screen
        for y in range(terminal.rows):
            line = screen.buffer.get(y)
            text = [line[x].data if line else " " for x in range(terminal.cols)]
            rows.append(_cells("".join(text), width) if into is not None else text)
            wrapped.append(y in screen.wrapped)
        cursor = (min(screen.cursor.x, width - 1), screen.cursor.y)
        if into is None:
            return cls(rows, wrapped, terminal.rows, cursor, keys=keys, table=table)
        kept = terminal.rows
        while kept > 0 and not "".join(rows[len(history) + kept - 1]).strip():
            kept -= 1
        del rows[len(history) + kept:], wrapped[len(history) + kept:]
        if cursor[1] > kept - 1:
            cursor = (0, max(0, kept - 1))
        padding = max(0, into.rows - len(rows))
        rows += [[" "] * width for _ in range(padding)]
        wrapped += [False] * padding
        top = len(rows) - into.rows  # the view at the bottom, as the cursor is measured
        cursor = (cursor[0], len(history) + cursor[1] - top)
        mode = cls(rows, wrapped, into.rows, cursor, keys=keys, table=table)
        mode._source = terminal
        return mode

    @classmethod
    def of_text(cls, lines: Sequence[str], width: int, height: int, *, keys: str,
                table: Mapping[str, str] | None = None) -> CopyMode:
        """View mode: `lines` shown in a pane `width` x `height`, a long one wrapped, from
        the first (the position `[N/N]`), as tmux's view mode shows what a command printed
        or a configuration's errors: window_copy_add keeps the view where it was, the top,
        as lines come."""
        rows: list[list[str]] = []
        wrapped: list[bool] = []
        for line in lines:
            cells = _glyphs(line.rstrip(" "))
            while True:
                if len(cells) <= width:
                    cut = len(cells)
                else:  # a wide character is never split over two rows
                    cut = width - 1 if cells[width] == "" else width
                rows.append(cells[:cut] + [" "] * (width - cut))
                cells = cells[cut:]
                wrapped.append(bool(cells))
                if not cells:
                    break
        used = len(rows)
        rows += [[" "] * width for _ in range(height - used)]
        wrapped += [False] * (len(rows) - len(wrapped))
        mode = cls(rows, wrapped, height, (0, 0), keys=keys, table=table, name="view-mode")
        mode.top = 0
        mode.cursor = (0, 0)
        mode._text = list(lines)
        return mode

    def refit(self, terminal: Terminal) -> CopyMode:
        """The mode again for a pane that changed size: view mode's text cut at the new
        width; copy mode over the pane's lines as they are now, from the bottom (its
        frozen rows no longer match the pane)."""
        if self._text is not None:
            return CopyMode.of_text(self._text, terminal.cols, terminal.rows, keys=self.keys,
                                    table=self._table)
        if self._source is not None:
            mode = CopyMode.of_terminal(self._source, keys=self.keys, table=self._table,
                                        into=terminal)
        else:
            mode = CopyMode.of_terminal(terminal, keys=self.keys, table=self._table)
        mode.scroll_exit, mode.hide_position = self.scroll_exit, self.hide_position
        return mode

    @property
    def text(self) -> list[str]:
        """The lines view mode shows (to add more to them); copy mode's as text."""
        if self._text is not None:
            return list(self._text)
        return ["".join(row).rstrip() for row in self._rows]

    # What the client reads.

    @property
    def rows(self) -> Sequence[Sequence[str]]:
        """The frozen lines it moves over (for whoever draws them)."""
        return self._rows

    def view_cursor(self) -> tuple[int, int]:
        return self.cursor[0], self.cursor[1] - self.top

    def position_indicator(self) -> str:
        """tmux's top right corner: `[lines up from the bottom/history length]`, after a
        search with `(N results) ` in front."""
        history = self._history()
        position = f"[{history - self.top}/{history}]"
        return position if self._search is None else f"({len(self._matches)} results) {position}"

    def variables(self) -> dict[str, str]:
        """The `#{...}` variables tmux gives a pane in copy mode: where the view and the
        cursor are, and whether a selection or a search is on."""
        x, y = self.view_cursor()
        selecting = "1" if self._anchor is not None else "0"
        return {
            "scroll_position": str(self._history() - self.top),
            "copy_cursor_x": str(x),
            "copy_cursor_y": str(y),
            "selection_present": selecting,
            "selection_active": selecting,
            "search_present": "1" if self._search is not None else "0",
        }

    def selection_spans(self, y: int) -> list[tuple[int, int]]:
        """Selected columns of line y, half-open. The copy is made from these, so what is
        highlighted is what is copied; a wide character is in whole or not at all."""
        if self._anchor is None:
            return []
        (start, first), (end, last) = self._ends()
        if not first <= y <= last:
            return []
        if self._line_mode:
            return [(0, self.width)]
        if self._rect:
            start, end = sorted((self._anchor[0], self.cursor[0]))
        elif y != first:
            start = 0
        stop = self._past_end(end) if self._rect or y == last else self.width
        start, stop = self._off_padding(start, y), self._past_padding(stop, y)
        return [(start, stop)] if start < stop else []

    def match_spans(self, y: int) -> list[tuple[int, int]]:
        """Columns of line y in search matches, half-open, in order."""
        return [self._match_span(match, y) for match in self._matches_on.get(y, ())]

    # What the client calls.

    def press(self, key: str) -> Action | None:
        """Take one key by its tmux name; an Action when the client has something to do."""
        self.message = None
        key = _ALIASES.get(key, key)
        if self._awaiting is not None:
            name, count = self._awaiting
            self._awaiting = None
            char = " " if key == "Space" else key
            return self.run(name, [char], count) if len(char) == 1 else None
        digit = self._count_digit(key)
        if digit is not None:
            self._count = min(self._count * 10 + digit, _COUNT_LIMIT)
            return None
        count, self._count = max(1, self._count), 0
        name = self._table.get(key, "")
        if name in _JUMPS:
            self._awaiting = (name, count)
            return None
        if name in _PROMPTED:
            return Action("prompt", name)
        return self.run(name, count=count)

    def run(self, name: str, arguments: Sequence[str] = (), count: int = 1) -> Action | None:
        """Do copy-mode command `name` `count` times, as `send-keys -X [-N count] name
        arguments` does: a search or goto-line takes its string from `arguments`, a jump
        its character. An unknown command does nothing, as in tmux."""
        self.message = None
        command = _COMMANDS.get(name)
        if command is None:
            return None
        argument = arguments[0] if arguments else ""
        if name in _JUMPS:
            if len(argument) == 1:
                self._last_jump = (name, argument)
                self._repeat(lambda: self._jump(name, argument), count)
            return None
        if name == "goto-line":
            if argument.isdigit():
                self.goto_line(int(argument))
            return None
        if name in _PROMPTED:
            for _ in range(count if argument else 0):
                self.search(argument, name != "search-backward")
            return None
        if name in _COPIES:
            return self._copy(name, argument)
        run = command.run
        assert run is not None
        if command.once:
            action = run(self)
            self._follow()
            return action
        self._repeat(lambda: run(self), count)
        if self.scroll_exit and name in _SCROLLS_DOWN and self.at_bottom:
            return Action("exit")
        return None

    def search(self, pattern: str, forward: bool) -> bool:
        """Go to the next match of `pattern` from the cursor, round the ends of the history
        if need be; False, and the cursor left alone, when there is none. Matches may run
        over soft wraps, as the text was one line before the pane wrapped it."""
        self.message = None
        if not pattern:
            return False
        self._search = (pattern, forward)
        self._find_all(pattern)
        found = self._search_next(forward)
        self._follow()
        return found

    def goto_line(self, lines_up: int) -> None:
        """Scroll the view to `lines_up` lines above the bottom (past the top or negative:
        the top), the cursor keeping its row on the view, as tmux's goto-line."""
        self.message = None
        history = self._history()
        row = self.cursor[1] - self.top
        self.top = history - (lines_up if 0 <= lines_up <= history else history)
        self._move_to_line(self.top + row)
        self._follow()

    # Keys and counts.

    def _count_digit(self, key: str) -> int | None:
        """The digit a key adds to the repeat count: vi 1-9, then 0 too; emacs M-1 to M-9,
        then digits too."""
        if self.keys == "emacs" and key[:2] == "M-":
            key = key[2:]
        elif self.keys == "emacs" and not self._count:
            return None
        if len(key) == 1 and key.isdigit() and key.isascii() and (key != "0" or self._count):
            return int(key)
        return None

    def _repeat(self, step: Callable[[], object], count: int) -> None:
        """Do `step` `count` times, the view following the cursor; stops early once a step
        changes nothing, so a count larger than the history costs nothing."""
        for _ in range(count):
            before = (self.cursor, self.top)
            step()
            self._follow()
            if (self.cursor, self.top) == before:
                break

    # The mouse: tmux's MouseDown1Pane, MouseDrag1Pane and MouseDragEnd1Pane in copy mode.

    def mouse_down(self, x: int, row: int) -> None:
        """A click on row `row` of the view: the cursor there, no selection; a drag from
        here selects."""
        self._anchor, self._line_mode, self._word = None, False, None
        self._place((_clamp(x, 0, self.width - 1), self._view_row(row)))
        self._pressed = self.cursor

    def mouse_move(self, x: int, row: int) -> None:
        """A command from a mouse key: the cursor to the mouse first, the selection as
        it is (tmux's window_copy_move_mouse); after select-word, by whole words."""
        at = (_clamp(x, 0, self.width - 1), self._view_row(row))
        if self._word is None:
            self._place(at)
            return
        first, last = self._word
        kind = self._kind(spaces_only=False)
        here = kind(at)
        if at[::-1] < first[::-1]:
            self._anchor = self._past(last)
            self._place(self._extend(at, -1, lambda slot: kind(slot) == here))
        elif at[::-1] > last[::-1]:
            self._anchor = first
            self._place(self._past(self._extend(at, 1, lambda slot: kind(slot) == here)))
        else:
            self._anchor = first
            self._place(self._past(last))

    def _past(self, last: Position) -> Position:
        """Where the cursor goes to select through cell `last`: on it in vi mode, the
        cell after it in emacs mode, whose selections end before the cursor."""
        if self.keys == "vi":
            return last
        return (last[0] + 1, last[1]) if last[0] + 1 < self.width else last

    def mouse_drag(self, x: int, row: int) -> None:
        """The mouse moved with the button held: the selection from where it was pressed
        to here; beyond the top or bottom of the view it scrolls, as in tmux."""
        if self._anchor is None:
            self._anchor = self._pressed or self.cursor
        if row < 0:
            self._scroll(row)
        elif row >= self.height:
            self._scroll(row - self.height + 1)
        self._place((_clamp(x, 0, self.width - 1), self._view_row(row)))

    def mouse_up(self) -> Action | None:
        """The button released: a drag's selection is copied and copy mode ends (tmux's
        copy-pipe-and-cancel); a plain click leaves things as they are."""
        self._pressed = None
        if self._anchor is None or self._ends()[0] == self._ends()[1]:
            return None
        return self._copy("copy-pipe-and-cancel", "")

    @property
    def at_bottom(self) -> bool:
        """The view shows the live screen's lines: the wheel scrolling down leaves copy
        mode there, when the wheel entered it."""
        return self.top >= self._history()

    def _view_row(self, row: int) -> int:
        return _clamp(self.top + _clamp(row, 0, self.height - 1), 0, len(self._rows) - 1)

    # Geometry of the lines.

    def _history(self) -> int:
        """Lines of history: also the largest `top`."""
        return max(0, len(self._rows) - self.height)

    def _continues(self, y: int) -> bool:
        return y + 1 < len(self._rows) and bool(self._wrapped[y])

    def _line_start(self, y: int) -> int:
        """The first line of the logical line (soft wraps undone) that line y is part of."""
        while y > 0 and self._continues(y - 1):
            y -= 1
        return y

    def _line_end(self, y: int) -> int:
        while self._continues(y):
            y += 1
        return y

    def _past_end(self, x: int) -> int:
        """Where a selection ending at column x stops: after x in vi, which includes the
        cursor's cell, at x in emacs, which does not; but the last column has no cell after
        it to put the cursor on, so a selection ending there includes it in emacs too."""
        return x + 1 if self.keys == "vi" or x == self.width - 1 else x

    def _off_padding(self, x: int, y: int) -> int:
        """x, or the cell of the wide character whose right half x is."""
        while x > 0 and self._rows[y][x] == "":
            x -= 1
        return x

    def _past_padding(self, x: int, y: int) -> int:
        while x < self.width and self._rows[y][x] == "":
            x += 1
        return x

    def _limit(self, y: int) -> int:
        """The rightmost cell the cursor goes to on line y: the last non-blank cell in vi
        (a vi selection includes the cursor's cell), one past it in emacs (an emacs one
        ends before it), and the last column while selecting a rectangle."""
        if self._rect and self._anchor is not None:
            x = self.width - 1
        elif self.keys == "emacs":
            x = min(self._lengths[y], self.width - 1)
        else:
            x = max(self._lengths[y] - 1, 0)
        return self._off_padding(x, y)

    def _last_slot(self, y: int) -> int:
        """The last x word motions visit on line y: the blank after the text stands for
        the line break (it can be x = width, past a full line); a wrapped line has none."""
        return self.width - 1 if self._continues(y) else min(self._lengths[y], self.width)

    def _glyph(self, at: Position) -> str:
        x, y = at
        return self._rows[y][x] if x < self.width else " "

    def _step(self, at: Position, direction: int) -> Position | None:
        """The next slot in reading order (previous if `direction` is -1), over the right
        halves of wide characters; None past either end of the lines."""
        x, y = at
        while True:
            x += direction
            if x > self._last_slot(y):
                if y + 1 == len(self._rows):
                    return None
                x, y = 0, y + 1
            elif x < 0:
                if y == 0:
                    return None
                y -= 1
                x = self._last_slot(y)
            if x >= self.width or self._rows[y][x] != "":
                return x, y

    def _skip(self, at: Position, direction: int, same: Callable[[Position], bool]) -> Position:
        """From `at`, step while `same` holds: the first slot where it does not, or the
        last slot of the lines."""
        while same(at):
            step = self._step(at, direction)
            if step is None:
                break
            at = step
        return at

    def _extend(self, at: Position, direction: int, same: Callable[[Position], bool]) -> Position:
        """From `at`, the farthest slot reached through slots where `same` holds."""
        while (step := self._step(at, direction)) is not None and same(step):
            at = step
        return at

    # The cursor and the view.

    def _place(self, at: Position, *, to_end: bool = False) -> None:
        """Put the cursor on `at`, within its line: a horizontal move, so it sets the column
        vertical moves aim for (`to_end`: the end of whichever line, as after `$`)."""
        x, y = at
        if x >= self.width:
            x, y = (0, y + 1) if y + 1 < len(self._rows) else (self.width - 1, y)
        self._set_cursor((self._off_padding(min(x, self._limit(y)), y), y), to_end=to_end)

    def _set_cursor(self, at: Position, *, to_end: bool = False) -> None:
        self.cursor = at
        self._goal_x, self._goal_end = at[0], to_end

    def _move_to_line(self, y: int) -> None:
        """A vertical move: the cursor to line y at the column it was last moved to
        sideways, or the end of a shorter line, as tmux's copy mode keeps it."""
        y = _clamp(y, 0, len(self._rows) - 1)
        limit = self._limit(y)
        x = limit if self._goal_end else min(self._goal_x, limit)
        self.cursor = (self._off_padding(x, y), y)

    def _follow(self) -> None:
        """Scroll the view just enough to show the cursor."""
        y = self.cursor[1]
        self.top = _clamp(self.top, y - self.height + 1, y)

    # Commands: each is one of tmux's copy-mode commands, named in _COMMANDS.

    def _cursor_left(self) -> None:
        x, y = self.cursor
        if x > 0:
            self._place((self._off_padding(x - 1, y), y))
        elif y > 0:
            self._place((self._limit(y - 1), y - 1))

    def _cursor_right(self) -> None:
        x, y = self.cursor
        if x < self._limit(y):
            self._place((self._past_padding(x + 1, y), y))
        elif y + 1 < len(self._rows):
            self._place((0, y + 1))

    def _kind(self, spaces_only: bool) -> Callable[[Position], int]:
        return lambda at: _word_class(self._glyph(at), spaces_only)

    def _next_word(self, spaces_only: bool) -> None:
        """w, W: past this word and the blanks after it (a line break counts as blank,
        a soft wrap does not)."""
        kind = self._kind(spaces_only)
        at, here = self.cursor, kind(self.cursor)
        if here:
            at = self._skip(at, 1, lambda slot: kind(slot) == here)
        self._place(self._skip(at, 1, lambda slot: kind(slot) == 0))

    def _next_word_end(self, spaces_only: bool) -> None:
        """vi e, E: the last character of the word from the next cell on. emacs M-f: the
        cell after that word, as Emacs's forward-word leaves point."""
        kind, vi = self._kind(spaces_only), self.keys == "vi"
        start = (self._step(self.cursor, 1) or self.cursor) if vi else self.cursor
        at = self._skip(start, 1, lambda slot: kind(slot) == 0)
        here = kind(at)
        self._place((self._extend if vi else self._skip)(at, 1, lambda slot: kind(slot) == here))

    def _previous_word(self, spaces_only: bool) -> None:
        """b, B, M-b: back to the start of this word, or of the one before."""
        kind = self._kind(spaces_only)
        at = self._step(self.cursor, -1)
        if at is not None:
            at = self._skip(at, -1, lambda slot: kind(slot) == 0)
            here = kind(at)
            self._place(self._extend(at, -1, lambda slot: kind(slot) == here))

    def _back_to_indentation(self) -> None:
        """^, M-m: the first non-blank cell of the logical line; stays on a blank line."""
        y = self.cursor[1]
        for line in range(self._line_start(y), self._line_end(y) + 1):
            for x, glyph in enumerate(self._rows[line]):
                if glyph not in (" ", ""):
                    self._place((x, line))
                    return

    def _end_of_line(self) -> None:
        y = self._line_end(self.cursor[1])
        self._place((self._limit(y), y), to_end=True)

    def _history_top(self) -> None:
        self._place((0, 0))
        self.top = 0

    def _history_bottom(self) -> None:
        y = len(self._rows) - 1
        self._place((self._limit(y), y), to_end=True)
        self.top = self._history()

    def _view_line(self, row: int) -> None:
        """H, M, L: a line of the view, at its start, as tmux's top-line and friends."""
        self._place((0, min(self.top + row, len(self._rows) - 1)))

    def _page_lines(self, half: bool) -> int:
        """tmux's page: the height less two lines of context, or half the height."""
        if self.height <= 2:
            return 1
        return self.height // 2 if half else self.height - 2

    def _page(self, lines: int) -> None:
        """Scroll the view `lines` (negative: up) and move the cursor as much, so it keeps
        its row on the view until the view stops at the top or bottom."""
        self.top = _clamp(self.top + lines, 0, self._history())
        self._move_to_line(self.cursor[1] + lines)

    def _scroll(self, lines: int) -> None:
        """C-y, C-e, the wheel: the view moves and the cursor stays on its line, unless
        that line leaves the view."""
        self.top = _clamp(self.top + lines, 0, self._history())
        y = _clamp(self.cursor[1], self.top, self.top + self.height - 1)
        if y != self.cursor[1]:
            self._move_to_line(y)

    def _scroll_middle(self) -> None:
        self.top = _clamp(self.cursor[1] - (self.height - 1) // 2, 0, self._history())

    def _previous_paragraph(self) -> None:
        """{: up over blank lines, then over text, to the blank line above it."""
        y = self.cursor[1]
        while y > 0 and self._lengths[y] == 0:
            y -= 1
        while y > 0 and self._lengths[y] > 0:
            y -= 1
        self._place((0, y))

    def _next_paragraph(self) -> None:
        y, last = self.cursor[1], len(self._rows) - 1
        while y < last and self._lengths[y] == 0:
            y += 1
        while y < last and self._lengths[y] > 0:
            y += 1
        self._place((self._limit(y), y))

    def _jump(self, name: str, char: str) -> None:
        """f, F, t, T: to `char` on the logical line (t and T stop a cell short, and skip
        the cell next to the cursor, so that `;` goes on to the next one)."""
        direction, short = _JUMPS[name]
        first, last = self._line_start(self.cursor[1]), self._line_end(self.cursor[1])
        cells = [(x, y) for y in range(first, last + 1) for x in range(self.width)
                 if self._rows[y][x] != ""]
        i = cells.index(self.cursor) + direction * (2 if short else 1)
        while 0 <= i < len(cells):
            if self._glyph(cells[i]) == char:
                self._place(cells[i - direction] if short else cells[i])
                return
            i += direction

    def _jump_again(self, reverse: bool) -> None:
        if self._last_jump is not None:
            name, char = self._last_jump
            self._jump(_REVERSED[name] if reverse else name, char)

    def _search_again(self, reverse: bool) -> None:
        if self._search is not None:
            self._search_next(self._search[1] != reverse)

    # Selection.

    def _ends(self) -> tuple[Position, Position]:
        """The selection's two ends, in reading order."""
        assert self._anchor is not None
        anchor, cursor = self._anchor, self.cursor
        return (anchor, cursor) if anchor[::-1] <= cursor[::-1] else (cursor, anchor)

    def _begin_selection(self) -> None:
        self._anchor, self._line_mode, self._word = self.cursor, False, None

    def _toggle_selection(self) -> None:
        if self._anchor is None:
            self._begin_selection()
        else:
            self._clear_selection()

    def _select_line(self) -> None:
        """V: whole lines from this one to the cursor's, the cursor at the line's end as in
        tmux."""
        y = self.cursor[1]
        self._anchor, self._line_mode, self._rect, self._word = (0, y), True, False, None
        self._place((self._limit(y), y), to_end=True)

    def _select_word(self) -> None:
        """select-word (a double click): the word under the cursor, or the run of
        blanks or of other characters it is in, selected, the cursor on its last cell."""
        kind = self._kind(spaces_only=False)
        here = kind(self.cursor)
        start = self._extend(self.cursor, -1, lambda slot: kind(slot) == here)
        end = self._extend(self.cursor, 1, lambda slot: kind(slot) == here)
        self._anchor, self._line_mode, self._rect = start, False, False
        self._place(self._past(end))
        self._word = (start, end)

    def _rectangle_toggle(self) -> None:
        """C-v, R: a block of columns instead of a flow of text. It can be switched on
        before a selection starts, as in tmux."""
        self._rect, self._line_mode = not self._rect, False
        self._place(self.cursor)

    def _clear_selection(self) -> None:
        """Escape, C-g; the cursor comes back within its line, as a rectangle let it past
        the line's end."""
        self._anchor, self._line_mode, self._word = None, False, None
        self._place(self.cursor)

    def _other_end(self) -> None:
        if self._anchor is not None:
            self._anchor, cursor = self.cursor, self._anchor
            self._set_cursor(cursor)

    def _copy(self, name: str, argument: str) -> Action | None:
        """copy-selection[-no-clear|-and-cancel], copy-pipe[-no-clear|-and-cancel]
        [COMMAND]: the selected text copied (and piped to COMMAND), copy mode left or
        stayed in, the selection cleared unless -no-clear. Nothing selected: nothing
        copied (and -and-cancel still leaves)."""
        stay = not name.endswith("-and-cancel")
        text = self._selected_text() if self._anchor is not None else ""
        if stay and not name.endswith("-no-clear"):
            self._clear_selection()
        if not text:
            return None if stay else Action("exit")
        return Action("copy", text, pipe=argument if name.startswith("copy-pipe") else None,
                      stay=stay)

    def _selected_text(self) -> str:
        """Each line's selected cells, trailing blanks dropped, lines joined by newlines,
        except a soft wrap, which joins without one as the text was never two lines. An
        emacs selection ending at the start of a line ends before its newline, as tmux's."""
        (_, first), (_, last) = self._ends()
        lines: list[str] = []
        joined = False
        for y in range(first, last + 1):
            for start, stop in self.selection_spans(y):
                text = "".join(self._rows[y][start:stop])
                if joined:
                    lines[-1] += text
                else:
                    lines.append(text)
                joined = self._continues(y) and not self._rect
        return "\n".join(line.rstrip(" ") for line in lines)

    # Search.

    def _logical_lines(self) -> Iterator[tuple[str, int, list[int]]]:
        """Each logical line (soft wraps undone): its text, its first line, and where in
        the text each of its lines starts."""
        first = 0
        while first < len(self._rows):
            last = self._line_end(first)
            parts = ["".join(self._rows[y]) for y in range(first, last + 1)]
            yield "".join(parts), first, list(accumulate(map(len, parts[:-1]), initial=0))
            first = last + 1

    def _cell_at(self, index: int, first: int, starts: list[int]) -> Position:
        """The cell holding character `index` of a logical line's text."""
        k = bisect_right(starts, index) - 1
        ends = list(accumulate(map(len, self._rows[first + k])))
        return bisect_right(ends, index - starts[k]), first + k

    def _find_all(self, pattern: str) -> None:
        """Every match (`search_expression`), one starting at each character at most, so that
        overlapping ones are found too, in reading order; empty matches are none."""
        expression = search_expression(pattern)
        matches: list[Match] = []
        for text, first, starts in self._logical_lines():
            found = expression.search(text)
            while found is not None:
                if found.end() > found.start():
                    x, y = self._cell_at(found.end() - 1, first, starts)
                    end = (self._past_padding(x + 1, y), y)
                    matches.append(Match(self._cell_at(found.start(), first, starts), end))
                found = (expression.search(text, found.start() + 1)
                         if found.start() < len(text) else None)
        self._matches = matches
        self._matches_on = {}
        for match in matches:
            for y in range(match.start[1], match.end[1] + 1):
                self._matches_on.setdefault(y, []).append(match)

    def _search_next(self, forward: bool) -> bool:
        assert self._search is not None
        if not self._matches:
            self.message = f"Pattern not found: {self._search[0]}"
            self.current_match = None
            return False
        here = self.cursor[::-1]
        emacs = self.keys == "emacs"
        if forward:  # emacs counts a match at the cursor (its cursor lands past them)
            after = bisect_left if emacs else bisect_right
            i = after(self._matches, here, key=_reading_order)
            wrapped = i == len(self._matches)
        else:
            i = bisect_left(self._matches, here, key=_reading_order) - 1
            wrapped = i < 0
        if wrapped:
            self.message = "Search wrapped"
        match = self.current_match = self._matches[0 if forward and wrapped else i]
        self._place(match.end if forward and emacs else match.start)
        self._scroll_to_cursor()
        return True

    def _scroll_to_cursor(self) -> None:
        """After a search, as tmux's window_copy_scroll_to: a cursor in view stays where
        it is on the view; else it goes a quarter of the view up from the bottom (or to
        the top or the bottom, near the ends of the history)."""
        y = self.cursor[1]
        if self.top <= y < self.top + self.height:
            return
        gap = self.height // 4
        history = self._history()
        if y < self.height:
            self.top = 0
        elif y > history + self.height - gap:
            self.top = history
        else:
            self.top = y + gap - self.height

    def _match_span(self, match: Match, y: int) -> tuple[int, int]:
        start = match.start[0] if y == match.start[1] else 0
        return start, match.end[0] if y == match.end[1] else self.width


class _Command(NamedTuple):
    """What one of tmux's copy-mode commands (`send -X NAME`) does; `run` is None when it
    needs a string first (the client prompts) or the next key (a jump). A repeat count
    does not repeat a command done `once`: a toggle, or one that leaves copy mode. The
    keys bound to each are the server's copy-mode tables (mux/bindings.py)."""

    run: Callable[[CopyMode], Action | None] | None
    once: bool = False


_COMMANDS: dict[str, _Command] = {
    "cursor-left": _Command(CopyMode._cursor_left),
    "cursor-right": _Command(CopyMode._cursor_right),
    "cursor-up": _Command(lambda m: m._move_to_line(m.cursor[1] - 1)),
    "cursor-down": _Command(lambda m: m._move_to_line(m.cursor[1] + 1)),
    "next-word": _Command(lambda m: m._next_word(spaces_only=False)),
    "next-space": _Command(lambda m: m._next_word(spaces_only=True)),
    "next-word-end": _Command(lambda m: m._next_word_end(spaces_only=False)),
    "next-space-end": _Command(lambda m: m._next_word_end(spaces_only=True)),
    "previous-word": _Command(lambda m: m._previous_word(spaces_only=False)),
    "previous-space": _Command(lambda m: m._previous_word(spaces_only=True)),
    "start-of-line": _Command(lambda m: m._place((0, m._line_start(m.cursor[1])))),
    "back-to-indentation": _Command(CopyMode._back_to_indentation),
    "end-of-line": _Command(CopyMode._end_of_line),
    "history-top": _Command(CopyMode._history_top),
    "history-bottom": _Command(CopyMode._history_bottom),
    "top-line": _Command(lambda m: m._view_line(0)),
    "middle-line": _Command(lambda m: m._view_line((m.height - 1) // 2)),
    "bottom-line": _Command(lambda m: m._view_line(m.height - 1)),
    "page-up": _Command(lambda m: m._page(-m._page_lines(False))),
    "page-down": _Command(lambda m: m._page(m._page_lines(False))),
    "halfpage-up": _Command(lambda m: m._page(-m._page_lines(True))),
    "halfpage-down": _Command(lambda m: m._page(m._page_lines(True))),
    "scroll-up": _Command(lambda m: m._scroll(-1)),
    "scroll-down": _Command(lambda m: m._scroll(1)),
    "scroll-middle": _Command(CopyMode._scroll_middle),
    "previous-paragraph": _Command(CopyMode._previous_paragraph),
    "next-paragraph": _Command(CopyMode._next_paragraph),
    "jump-forward": _Command(None),
    "jump-backward": _Command(None),
    "jump-to-forward": _Command(None),
    "jump-to-backward": _Command(None),
    "jump-again": _Command(lambda m: m._jump_again(reverse=False)),
    "jump-reverse": _Command(lambda m: m._jump_again(reverse=True)),
    "search-forward": _Command(None),
    "search-backward": _Command(None),
    "search-again": _Command(lambda m: m._search_again(reverse=False)),
    "search-reverse": _Command(lambda m: m._search_again(reverse=True)),
    "goto-line": _Command(None),
    "begin-selection": _Command(CopyMode._begin_selection, once=True),
    "toggle-selection": _Command(CopyMode._toggle_selection, once=True),
    "select-line": _Command(CopyMode._select_line, once=True),
    "select-word": _Command(CopyMode._select_word, once=True),
    "rectangle-toggle": _Command(CopyMode._rectangle_toggle, once=True),
    "other-end": _Command(CopyMode._other_end, once=True),
    "clear-selection": _Command(CopyMode._clear_selection, once=True),
    "copy-selection-and-cancel": _Command(None),
    **{name: _Command(None) for name in (
        "copy-selection", "copy-selection-no-clear", "copy-pipe", "copy-pipe-no-clear",
        "copy-pipe-and-cancel")},
    "cancel": _Command(lambda m: Action("exit"), once=True),
}
"""Every command termhost's copy mode has, by tmux's name."""

_SCROLLS_DOWN = frozenset({"scroll-down", "page-down", "halfpage-down"})
"""The commands that leave a copy mode entered with -e once they reach the bottom."""

_COPIES = frozenset({"copy-selection", "copy-selection-no-clear", "copy-selection-and-cancel",
                     "copy-pipe", "copy-pipe-no-clear", "copy-pipe-and-cancel"})
"""The commands that copy the selection (`_copy`), each with or without a command to
pipe it to."""
