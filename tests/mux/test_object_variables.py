"""Format variables libtmux asks for in every list call: pane_current_path,
pane_start_command, pane_tty, session_path and window_layout (tmux's layout string and
its checksum), compared with a live tmux 3.3a after the same commands."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import BothServers, wait_until

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


def test_the_variables_read_as_tmux_has_them(both: BothServers, tmp_path: Path) -> None:
    work = tmp_path / "work dir"
    work.mkdir()
    listed: dict[str, str] = {}
    for name in both.NAMES:
        for step in SETUP:
            assert both.run(name, *step, cwd=work).returncode == 0, step
        if name == "tmux":
            _wait_for_tmux_paths(both)
        listed[name] = both.run(name, "list-panes", "-s", "-t", "s", "-F", FORMAT).stdout
    for line in both.run("termhost", "list-panes", "-s", "-t", "s", "-F",
                         "#{pane_pid} #{pane_tty}").stdout.splitlines():
        pid, tty = line.split()
        assert os.readlink(f"/proc/{pid}/fd/0") == tty  # the pane's terminal
    assert listed["termhost"] == listed["tmux"]
    assert f" {work} {work} " in listed["termhost"]


def _wait_for_tmux_paths(both: BothServers) -> None:
    """tmux 3.3a reads #{pane_current_path} from the pane's terminal (tcgetpgrp, then
    tcgetsid): until its forked child has made a session and taken the terminal, there is
    neither, and the path is "" (2 in 200 right after new-session on this machine). termhost
    falls back to the pane's own process and is listed at once, without this wait."""
    def known() -> bool:
        paths = both.run("tmux", "list-panes", "-s", "-t", "s", "-F", "[#{pane_current_path}]")
        return "[]" not in paths.stdout.split()
    wait_until(known, what="tmux to know every pane's directory")
