"""An outer tmux, a terminal nobody here wrote, whose panes each run one client (of a
private tmux 3.3a server, or of termhost): what each client draws is read back from it
with capture-pane, so the two can be compared cell for cell."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from tests.conftest import DEADLINE

PATIENCE = 3 * DEADLINE
"""Seconds for both clients to start and draw (termhost's client starts Python)."""


class Outer:
    """A private tmux whose sessions each run one client: the terminal both are seen in."""

    def __init__(self, tmp_path: Path, env: dict[str, str]) -> None:
        self.argv = ["tmux", "-S", str(tmp_path / "outer"), "-f", "/dev/null"]
        self.env = {**env, "LANG": "C.UTF-8"}

    def run(self, *args: str) -> str:
        return subprocess.run([*self.argv, *args], env=self.env, capture_output=True,
                              text=True, timeout=DEADLINE, check=True).stdout

    def show(self, name: str, client: list[str], width: int, height: int) -> None:
        self.run("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height),
                 shlex.join(client), ";", "set", "-g", "remain-on-exit", "on")

    def last_line(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-e", "-t", name).rstrip("\n").split("\n")[-1]

    def kill(self) -> None:
        subprocess.run([*self.argv, "kill-server"], env=self.env, capture_output=True,
                       timeout=DEADLINE, check=False)


CLIENTS = {"tmux": ["tmux", "-L", "reference", "attach", "-t", "s"],
           "termhost": [sys.executable, "-m", "termhost", "attach", "-t", "s"]}
