"""refresh-client -l: the clipboard asked of the client's terminal (OSC 52 with `?`) and
its answer taken out of what the terminal sends, before the keys are read.

As tmux 3.3a's cmd_refresh_client_clipboard and tty_keys_clipboard: one query at a time;
the answer goes into a new paste buffer when -l was given no pane, and to each pane
named (in OSC 52's own form, as tmux's input_reply_clipboard) otherwise. An answer no
query asked for is dropped, never typed into a pane. A terminal that does not answer
within QUERY_TIMEOUT is asked no longer (tmux keeps waiting for the buffer's answer
then, so that no -l works again on that client; here the next -l asks afresh).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from termhost.mux.pane import Pane

__all__ = ["QUERY", "QUERY_TIMEOUT", "Answer", "ClipboardQuery"]

QUERY = "\x1b]52;;?\x07"
"""What tmux's Ms capability makes of ("", "?"): the terminal's clipboard, please."""
QUERY_TIMEOUT = 5.0
"""Seconds an answer is waited for (tmux's TTY_QUERY_TIMEOUT)."""

_START = "\x1b]52;"
_ANSWER = re.compile(r"\x1b\]52;[^;\x07\x1b]*;([^\x07\x1b]*)(?:\x07|\x1b\\)")
_LONGEST = 1 << 20
"""Characters of an unfinished answer held for the rest: past that, it is keys."""


@dataclass
class Answer:
    """A query's answer: the clipboard's bytes, and where they go."""

    data: bytes
    buffer: bool
    """Into a new paste buffer (-l with no pane)."""
    panes: list[Pane]


@dataclass
class ClipboardQuery:
    """One client's query under way, if any."""

    buffer: bool = False
    """The answer goes into a new paste buffer (tmux's CLIENT_CLIPBOARDBUFFER)."""
    panes: list[Pane] = field(default_factory=list)
    asked: bool = False
    """A query is out (tmux's TTY_OSC52QUERY): another is not sent."""
    _held: str = ""
    """The start of an answer whose end has not arrived yet."""

    def ask(self, pane: Pane | None) -> bool:
        """-l (for `pane`): whether the query is to be written to the terminal now."""
        if pane is None:
            if self.buffer:
                return False
            self.buffer = True
        elif pane not in self.panes:
            self.panes.append(pane)
        else:
            return False
        if self.asked:
            return False
        self.asked = True
        return True

    @property
    def holding(self) -> bool:
        """The start of an answer is held: the terminal's next input goes through
        `take`."""
        return bool(self._held)

    def give_up(self) -> None:
        """QUERY_TIMEOUT passed with no answer."""
        self.buffer, self.panes, self.asked = False, [], False

    def take(self, text: str) -> tuple[str, list[Answer]]:
        """`text` from the terminal without the answers in it, and the answers asked
        for; an unfinished one is held for the next `take`."""
        text, self._held = self._held + text, ""
        answers: list[Answer] = []
        while (start := text.find(_START)) >= 0:
            found = _ANSWER.match(text, start)
            if found is None:
                if re.search(r"\x07|\x1b\\", text[start:]) is None \
                        and len(text) - start < _LONGEST:
                    text, self._held = text[:start], text[start:]
                break
            text = text[:start] + text[found.end():]
            answer = self._answered(found.group(1))
            if answer is not None:
                answers.append(answer)
        return text, answers

    def _answered(self, encoded: str) -> Answer | None:
        if not self.asked:
            return None
        buffer, panes = self.buffer, self.panes
        self.give_up()
        try:
            data = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            return None
        return Answer(data, buffer, panes)
