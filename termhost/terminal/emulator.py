"""One pane's terminal: bytes from the PTY in, screen state and scrollback out.

The layers, bottom up: an incremental UTF-8 decoder (a character split across two reads
survives), the escape-sequence `Parser`, and the `Screen` it drives, whose main-screen
rows scroll into a `Scrollback`.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from termhost.terminal.fastforward import fast_forward
from termhost.terminal.parser import Parser
from termhost.terminal.screen import Screen
from termhost.terminal.scrollback import DEFAULT_HISTORY_LIMIT, Scrollback

__all__ = ["Terminal"]


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
        self.history = Scrollback(history_limit)
        self.screen = Screen(cols, rows, history=self.history, reply=reply)
        self.parser = Parser(self.screen)
        # Invalid UTF-8 is dropped, as tmux does (xterm would show U+FFFD).
        self._decoder = codecs.getincrementaldecoder("utf-8")("ignore")
        self.fast_path = True
        """False feeds every byte through the parser (for tests that compare the two)."""

    @property
    def cols(self) -> int:
        return int(self.screen.columns)

    @property
    def rows(self) -> int:
        return int(self.screen.lines)

    def feed(self, data: bytes) -> None:
        """Emulate `data`, bytes as the application wrote them to the PTY.

        Runs of whole lines that a flood scrolls past take the fast path (see
        fastforward.py); everything else goes through the parser, a line at a time, so
        that the fast path gets its chance again after each line.
        """
        text = self._decoder.decode(data)
        if not self.fast_path:
            self.parser.feed(text)
            return
        parser, screen = self.parser, self.screen
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
