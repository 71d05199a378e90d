"""swap-window and move-window (with -d, -k and -r), as configuration files bind them
(`bind -r < swap-window -t -1`, `move-window -r` after closing windows), run in a live
tmux 3.3a and in termhost and compared after every step: the windows in order, their
names and flags, and each error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

STEPS = [
    ["new-window", "-d", "-n", "b", "sleep 1000"], ["new-window", "-d", "-n", "c", "sleep 1000"],
    ["swap-window", "-s", ":0", "-t", ":2"], ["swap-window", "-d", "-s", ":0", "-t", ":1"],
    ["swap-window", "-t", ":5"], ["move-window", "-s", ":1", "-t", ":7"],
    ["move-window", "-r"], ["move-window", "-s", ":0", "-t", ":1"],
    ["move-window", "-k", "-s", ":0", "-t", ":1"], ["move-window", "-t", ":9"],
    ["move-window", "-d", "-s", ":2", "-t", ":4"], ["move-window", "-s", ":4"],
]


def test_window_swaps_and_moves_land_where_tmux_lands(tmp_path: Path) -> None:
    env = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path)}
    for variable in ("TERMHOST", "TMUX"):
        env.pop(variable, None)
    socket = f"termhost-moves-{os.getpid()}"
    programs = {"tmux": ["tmux", "-L", socket, "-f", "/dev/null"],
                "termhost": [sys.executable, "-m", "termhost", "-f", "/dev/null"]}
    seen: dict[str, list[tuple[int, str, str]]] = {}
    for name, program in programs.items():
        def run(*args: str, program: list[str] = program) -> subprocess.CompletedProcess[str]:
            return subprocess.run([*program, *args], env=env, capture_output=True, text=True,
                                  timeout=30, check=False)

        try:
            assert run("new-session", "-d", "-s", "s", "-n", "a", "sleep 1000").returncode == 0
            seen[name] = []
            for step in STEPS:
                done = run(*step)
                windows = run("list-windows", "-F", "#{window_index}:#{window_name}"
                              "#{?window_active,*,}").stdout
                seen[name].append((done.returncode, done.stderr, windows))
        finally:
            run("kill-server")
    for step, ours, theirs in zip(STEPS, seen["termhost"], seen["tmux"], strict=True):
        assert ours == theirs, step
