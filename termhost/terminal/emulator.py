"""One pane's terminal: bytes from the PTY in, screen state and scrollback out.

The layers, bottom up: an incremental UTF-8 decoder (a character split across two reads
survives), the escape-sequence `Parser`, and the `Screen` it drives, whose main-screen
rows scroll into a `Scrollback`.

Feeding is lazy: output is kept until someone looks at the terminal (any property here,
or `flush()`), until 128 KiB have piled up, or until a read ends in a device query, whose
answer the application is waiting for. Whoever reads the PTY calls `flush()` once it has
drained it, so that answers to queries in mid-stream go out too. A flood read in 4 KiB
PTY chunks thus costs one fast forward per look (a frame, a capture), not one per read.
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

PENDING_LIMIT = 128 << 10
"""Bytes of output kept unemulated at most. bench/throughput.py times every call: a flush
of this much takes about 2.5 ms p99 for a plain log and 7 ms for a coloured one (at 256 KiB:
3.4 and 11 ms), at a flood rate within the run-to-run noise of tmux's. Larger batches are
faster in a flood (more lines fall off the scrollback unlaid) and hold the event loop longer."""

# DA, DSR/CPR, XTVERSION and friends: an application waits for the answer.
_QUERY = re.compile(rb"\x1b\[[>?=]?[0-9;]*[cnq]")


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
        # Invalid UTF-8 is dropped, as tmux does (xterm would show U+FFFD).
        self._decoder = codecs.getincrementaldecoder("utf-8")("ignore")
        self.fast_path = True
        """False feeds every byte through the parser (for tests that compare the two)."""

    @property
    def screen(self) -> Screen:
        """The screen, with all output so far applied."""
        self.flush()
        return self._screen

    @property
    def history(self) -> Scrollback:
        """The scrollback, with all output so far applied."""
        self.flush()
        return self._history

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
        waiting = data.find(b"\x1b[", tail) >= 0 and _QUERY.search(data, tail) is not None
        if waiting or self._pending_size >= PENDING_LIMIT:
            self.flush()

    def flush(self) -> None:
        """Emulate all output taken so far."""
        if self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            self._pending_size = 0
            self._emulate(data)

    def _emulate(self, data: bytes) -> None:
        """Runs of whole lines that a flood scrolls past take the fast path (see
        fastforward.py); everything else goes through the parser, a line at a time, so
        that the fast path gets its chance again after each line."""
        text = self._decoder.decode(data)
        if not self.fast_path:
            self.parser.feed(text)
            return
        parser, screen = self.parser, self._screen
        offset, length = 0, len(text)
        while offset < length:
            if parser.in_ground:
                offset = fast_forward(screen, text, offset)
                if offset >= length:
                    break
            newline = text.find("\n", offset)
            end = length if newline < 0 else newline + 1
            parser.feed(text[offset:end])
            offset = end

    def resize(self, cols: int, rows: int) -> None:
        """A new window size: the text and the cursor's place are kept."""
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
