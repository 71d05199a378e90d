"""The server's message log: what show-messages prints, as tmux's message_log.

tmux logs each command line a client sends (`CLIENT command: LINE`) and each message a
client's status line shows (`CLIENT message: TEXT`), numbered and timed, keeping the last
message-limit of them; show-messages lists them newest first.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

__all__ = ["LoggedMessage", "MessageLog"]


@dataclass(frozen=True)
class LoggedMessage:
    number: int
    """Counted from 1 over the server's life (#{message_number})."""
    time: float
    """When it was logged (#{message_time})."""
    text: str


class MessageLog:
    """The last `limit` messages, oldest first."""

    def __init__(self) -> None:
        self._messages: deque[LoggedMessage] = deque()
        self._count = 0

    def add(self, text: str, limit: int) -> None:
        """Log `text`, then drop the oldest beyond `limit` (message-limit: 0 keeps none)."""
        self._count += 1
        self._messages.append(LoggedMessage(self._count, time.time(), text))
        while len(self._messages) > limit:
            self._messages.popleft()

    def newest_first(self) -> list[LoggedMessage]:
        return list(reversed(self._messages))
