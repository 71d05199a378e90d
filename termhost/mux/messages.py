"""The server's message log: what show-messages prints, as tmux's message_log.

tmux logs each command line a client sends (`CLIENT command: LINE`) and each message a
client's status line shows (`CLIENT message: TEXT`), numbered and timed, keeping the last
message-limit of them; show-messages lists them newest first.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import NamedTuple

from termhost.mux.printing import command_line

__all__ = ["LoggedMessage", "MessageLog", "command_message"]


class LoggedMessage(NamedTuple):
    """A message as logged (a tuple: a control client's script logs thousands)."""

    number: int
    """Counted from 1 over the server's life (#{message_number})."""
    time: float
    """When it was logged (#{message_time})."""
    said: str | Callable[[], str]
    """The text, or what makes it when it is read: a command line is printed only if
    show-messages asks."""

    @property
    def text(self) -> str:
        return self.said if isinstance(self.said, str) else self.said()


class MessageLog:
    """The last `limit` messages, oldest first."""

    def __init__(self) -> None:
        self._messages: deque[LoggedMessage] = deque()
        self._count = 0

    def add(self, text: str | Callable[[], str], limit: int) -> None:
        """Log `text` (or what makes it), then drop the oldest beyond `limit`
        (message-limit: 0 keeps none)."""
        self._count += 1
        self._messages.append(LoggedMessage(self._count, time.time(), text))
        while len(self._messages) > limit:
            self._messages.popleft()

    def newest_first(self) -> list[LoggedMessage]:
        return list(reversed(self._messages))


def command_message(client: str, argv: Sequence[str]) -> Callable[[], str]:
    """A command's entry, as tmux's `CLIENT command: LINE`, printed when it is read."""
    words = list(argv)
    return lambda: f"{client} command: {command_line(words)}"
