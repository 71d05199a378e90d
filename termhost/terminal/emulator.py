"""One pane's terminal: bytes from the PTY in, screen state and scrollback out.

The layers, bottom up: an incremental UTF-8 decoder (a character split across two reads
survives), the escape-sequence `Parser`, and the `Screen` it drives, whose main-screen
rows scroll into a `Scrollback`.

Feeding is lazy: output is kept until someone looks at the terminal (any property here,
or `flush()`), until PENDING_LIMIT bytes have piled up, or until a read ends in a device
query, whose answer the application is waiting for. Whoever reads the PTY calls `catch_up()` once it
has drained it, so that answers to queries in mid-stream go out too. A flood read in 4 KiB
PTY chunks thus costs one fast forward per look (a frame, a capture), not one per read.
The rows a fast forward leaves on the screen stay encoded until `screen` is read: a flood
flushed in batches scrolls most of them away unseen.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable

from termhost.terminal.fastforward import fast_forward
from termhost.terminal.parser import Parser
from termhost.terminal.screen import Screen
from termhost.terminal.scrollback import DEFAULT_HISTORY_LIMIT, Scrollback

__all__ = ["PENDING_LIMIT", "Terminal"]

PENDING_LIMIT = 64 << 10
"""Bytes of output kept unemulated at most. Measured in-process (64 KiB chunks of the
bench/throughput.py corpus): a flush of this much takes about 0.7 ms p99 for a plain log
and 4 ms for a coloured one, the longest 6 ms; at 128 KiB the flood rate is a little
higher and the calls twice as long."""

# DA, DSR/CPR, XTVERSION and friends: an application waits for the answer.
_QUERY = re.compile(rb"\x1b\[[>?=]?[0-9;]*[cnq]")
_QUERY_TEXT = re.compile(_QUERY.pattern.decode())
_HOLD_LIMIT = 4096
"""Characters of an incomplete last line `catch_up` holds back at most."""


class Terminal:
    """A terminal emulator of `cols` x `rows` with `history_limit` lines of scrollback.

    `reply` receives the bytes the terminal answers to device queries (DA, DSR...):
    the caller writes them to the PTY master.
    """

    def __init__(
        self,
        cols: int = 80,
        rows: int = 24,
        *,
        history_limit: int = DEFAULT_HISTORY_LIMIT,
        reply: Callable[[bytes], None] | None = None,
    ) -> None:
        if cols < 1 or rows < 1:
            raise ValueError(f"terminal size {cols}x{rows} is too small")
        self._history = Scrollback(history_limit)
        self._screen = Screen(cols, rows, history=self._history, reply=reply)
        self.parser = Parser(self._screen)
        self._pending: list[bytes] = []
        self._pending_size = 0
        self._held = ""
        # Invalid UTF-8 is dropped, as tmux does (xterm would show U+FFFD).
        self._decoder = codecs.getincrementaldecoder("utf-8")("ignore")
        self.fast_path = True
        """False feeds every byte through the parser (for tests that compare the two)."""

    @property
    def screen(self) -> Screen:
        """The screen, with all output so far applied and laid out as cells."""
        self.flush()
        if self._screen.pending_rows:
            self._screen.lay_out_pending()
        return self._screen

    @property
    def history(self) -> Scrollback:
        """The scrollback, with all output so far applied."""
        self.flush()
        return self._history

    @property
    def pending(self) -> str:
        """The start of a sequence the application has not finished writing (`ESC [ 3`),
        with all output so far applied: tmux's input_pending, for capture-pane -P."""
        self.flush()
        return self.parser.pending

    @property
    def cols(self) -> int:
        return int(self._screen.columns)

    @property
    def rows(self) -> int:
        return int(self._screen.lines)

    def feed(self, data: bytes) -> None:
        """Take `data`, bytes as the application wrote them to the PTY (see the lazy
        feeding above)."""
        self._pending.append(data)
        self._pending_size += len(data)
        # An application waiting for an answer sent its query last: look at the end only.
        tail = max(0, len(data) - 64)
        if data.find(b"\x1b[", tail) >= 0 and _QUERY.search(data, tail) is not None:
            self.flush()
        elif self._pending_size >= PENDING_LIMIT:
            self.catch_up()

    def flush(self) -> None:
        """Emulate all output taken so far."""
        if self._pending or self._held:
            self._emulate(self._take())

    def catch_up(self) -> None:
        """Emulate the output taken so far, except an incomplete last line that holds
        no device query: the next output usually completes it, and emulating it now
        would mean laying out the rows a flood left encoded (see `Screen.pending_rows`)
        only to scroll them away. Whoever reads the PTY calls this once it has drained
        it, so that answers to queries in mid-stream go out."""
        if not self._pending:
            return
        text = self._take()
        start = text.rfind("\n") + 1
        held = start > 0 and len(text) - start <= _HOLD_LIMIT
        if held and _QUERY_TEXT.search(text, start) is None:
            text, self._held = text[:start], text[start:]
        self._emulate(text)

    def _take(self) -> str:
        """The output taken and not emulated yet, decoded."""
        data = b"".join(self._pending)
        self._pending.clear()
        self._pending_size = 0
        text = self._held + self._decoder.decode(data)
        self._held = ""
        return text

    def _emulate(self, text: str) -> None:
        """Runs of whole lines that a flood scrolls past take the fast path (see
        fastforward.py); everything else goes through the parser, a line at a time, so
        that the fast path gets its chance again after each line."""
        parser, screen = self.parser, self._screen
        if not self.fast_path:
            if screen.pending_rows:
                screen.lay_out_pending()
            parser.feed(text)
            return
        offset, length = 0, len(text)
        while offset < length:
            if parser.in_ground:
                offset = fast_forward(screen, text, offset)
                if offset >= length:
                    break
            newline = text.find("\n", offset)
            end = length if newline < 0 else newline + 1
            if screen.pending_rows:  # the parser writes to cells
                screen.lay_out_pending()
            parser.feed(text[offset:end])
            offset = end

    def resize(self, cols: int, rows: int) -> None:
        """A new window size, taken as tmux takes it: the text reflows and the cursor
        keeps its place in its line (Screen.resize)."""
        self.screen.resize(rows, cols)

    @property
    def display(self) -> list[str]:
        """The visible screen, one string per row, each `cols` cells wide."""
        return list(self.screen.display)

    @property
    def cursor(self) -> tuple[int, int]:
        """The cursor as (x, y), 0-based. After the last column is written x is `cols`
        (the wrap is pending), as tmux's #{cursor_x} reports it."""
        return int(self.screen.cursor.x), int(self.screen.cursor.y)

    @property
    def dirty(self) -> set[int]:
        """Rows changed since the last `clear_dirty()`."""
        return set(self.screen.dirty)

    def clear_dirty(self) -> None:
        """Forget the changed rows (after a renderer drew them)."""
        self.screen.dirty.clear()
