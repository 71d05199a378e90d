"""The prompts' histories: one per prompt type, kept by the server for all its clients.

tmux keeps a history for each type of prompt (command-prompt -T): the command prompt's
lines, copy mode's searches, targets, window targets. A line typed in one client can be
recalled in another; show-prompt-history lists them and clear-prompt-history empties
them; prompt-history-limit says how many each keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

__all__ = ["PROMPT_TYPES", "History", "PromptHistories"]

PROMPT_TYPES = ("command", "search", "target", "window-target")
"""tmux's prompt types, in its order (show-prompt-history's)."""


class History:
    """The lines accepted at prompts of one type, oldest first."""

    def __init__(self, limit: Callable[[], int] = lambda: 100) -> None:
        self._lines: list[str] = []
        self._limit = limit

    def add(self, line: str) -> None:
        """Keep `line`, unless it is blank or the one kept last (recalling the same line
        twice in a row would be a wasted Up); the oldest go beyond the limit."""
        if line.strip() and (not self._lines or self._lines[-1] != line):
            self._lines.append(line)
        del self._lines[:max(0, len(self._lines) - self._limit())]

    def recall(self, back: int) -> str:
        """The line `back` lines before now: 1 is the last one kept."""
        return self._lines[-back]

    def clear(self) -> None:
        self._lines.clear()

    def __len__(self) -> int:
        return len(self._lines)

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines)


class PromptHistories:
    """A History for each of tmux's prompt types."""

    def __init__(self, limit: Callable[[], int]) -> None:
        self._histories = {kind: History(limit) for kind in PROMPT_TYPES}

    def __getitem__(self, kind: str) -> History:
        return self._histories[kind]
