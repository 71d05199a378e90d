"""What rc files that log their runs say: how many captures ran, and how many at once.

Such an rc file appends `start PID CWD` as it begins and `end PID` as it finishes to one
log; appends land in order, so counting along the log gives the captures running at
every moment.
"""

from __future__ import annotations

from pathlib import Path

LOGGING_LINES = ('echo "start $$ $PWD" >> "$HOME/rc.log"', 'echo "end $$" >> "$HOME/rc.log"')
"""The first and last line of a logging rc file, in sh syntax."""


class RcLog:
    def __init__(self, home: Path) -> None:
        self.path = home / "rc.log"

    def runs(self) -> list[list[str]]:
        if not self.path.exists():
            return []
        return [line.split() for line in self.path.read_text().splitlines()]

    def started_in(self) -> list[str]:
        """The working directory of every capture that started, in order."""
        return [run[2] for run in self.runs() if run[0] == "start"]

    def most_at_once(self) -> int:
        running = most = 0
        for run in self.runs():
            running += 1 if run[0] == "start" else -1
            most = max(most, running)
        return most
