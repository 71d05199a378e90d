"""next-window, previous-window, last-window, select-window -l/-n/-p/-T and last-pane, as
configuration files bind them (`bind C-p previous-window`, `bind Tab last-window`), run
in a live tmux 3.3a and in termhost and compared after every step."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

STEPS = [
    ["last-window"], ["next-window"], ["previous-window"], ["last-pane"],
    ["new-window", "-d", "sleep 1000"], ["new-window", "-d", "sleep 1000"],
    ["next-window"], ["next-window"], ["next-window"], ["previous-window"],
    ["last-window"], ["select-window", "-l"], ["select-window", "-n"],
    ["select-window", "-p"], ["select-window", "-T", "-t", ":2"],
    ["select-window", "-T", "-t", ":2"], ["next-window", "-a"], ["previous-window", "-a"],
    ["split-window", "-d", "sleep 1000"], ["last-pane"], ["select-pane", "-t", ":.1"],
    ["last-pane"], ["last-pane", "-t", ":0"], ["kill-window", "-t", ":1"], ["last-window"],
]
"""Each step, then where it left the session; an error where there is no such window."""


def test_window_and_pane_steps_land_where_tmux_lands(tmp_path: Path) -> None:
    env = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path)}
    for variable in ("TERMHOST", "TMUX"):
        env.pop(variable, None)
    socket = f"termhost-steps-{os.getpid()}"
    programs = {"tmux": ["tmux", "-L", socket, "-f", "/dev/null"],
                "termhost": [sys.executable, "-m", "termhost", "-f", "/dev/null"]}
    seen: dict[str, list[tuple[int, str, str]]] = {}
    for name, program in programs.items():
        def run(*args: str, program: list[str] = program) -> subprocess.CompletedProcess[str]:
            return subprocess.run([*program, *args], env=env, capture_output=True, text=True,
                                  timeout=30, check=False)

        try:
            assert run("new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
            seen[name] = []
            for step in STEPS:
                done = run(*step)
                where = run("display-message", "-p", "#{window_index}.#{pane_index}").stdout
                seen[name].append((done.returncode, done.stderr, where))
        finally:
            run("kill-server")
    for step, ours, theirs in zip(STEPS, seen["termhost"], seen["tmux"], strict=True):
        assert ours == theirs, step
