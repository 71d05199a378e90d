"""Format variables libtmux asks for in every list call: pane_current_path,
pane_start_command, pane_tty, session_path and window_layout (tmux's layout string and
its checksum), compared with a live tmux 3.3a after the same commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SETUP = [
    ["new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 1000"],
    ["new-window", "-d", "-t", "s:", "sleep", "999"],
    ["new-window", "-d", "-t", "s:", "echo 'a b'; sleep 100"],
    ["split-window", "-d", "-t", "s:0", "sleep 1000"],
    ["split-window", "-h", "-d", "-t", "s:0.0", "sleep 1000"],
    ["split-window", "-d", "-t", "s:0.2", "-l", "3", "sleep 1000"],
]
FORMAT = ("#{window_index}.#{pane_index} [#{pane_start_command}] #{pane_current_path} "
          "#{session_path} #{window_layout}")


def test_the_variables_read_as_tmux_has_them(tmp_path: Path) -> None:
    work = tmp_path / "work dir"
    work.mkdir()
    env = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path)}
    for variable in ("TERMHOST", "TMUX"):
        env.pop(variable, None)
    socket = f"termhost-variables-{os.getpid()}"
    programs = {"tmux": ["tmux", "-L", socket, "-f", "/dev/null"],
                "termhost": [sys.executable, "-m", "termhost", "-f", "/dev/null"]}
    listed: dict[str, str] = {}
    for name, program in programs.items():
        def run(*args: str, program: list[str] = program) -> str:
            return subprocess.run([*program, *args], env=env, cwd=work, capture_output=True,
                                  text=True, timeout=30, check=True).stdout

        try:
            for step in SETUP:
                run(*step)
            listed[name] = run("list-panes", "-s", "-t", "s", "-F", FORMAT)
            if name == "termhost":
                for line in run("list-panes", "-s", "-t", "s", "-F",
                                "#{pane_pid} #{pane_tty}").splitlines():
                    pid, tty = line.split()
                    assert os.readlink(f"/proc/{pid}/fd/0") == tty  # the pane's terminal
        finally:
            subprocess.run([*program, "kill-server"], env=env, capture_output=True,
                           timeout=30, check=False)
    assert listed["termhost"] == listed["tmux"]
    assert f" {work} {work} " in listed["termhost"]
