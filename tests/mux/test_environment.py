"""The global and session environments (tmux.1's GLOBAL AND SESSION ENVIRONMENT):
set-environment and show-environment, update-environment, and what a new pane starts
with, step by step the same as a live tmux 3.3a."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import BothServers, wait_until


def test_set_and_show_environment_as_tmux(both: BothServers) -> None:
    both.env.update({"DISPLAY": ":7", "FROM_CLIENT": "yes"})
    both.env.pop("SSH_AUTH_SOCK", None)
    steps = [
        ["new-session", "-d", "-s", "s", "-e", "EXTRA=1", "sleep 1000"],
        ["show-environment", "-t", "s"],  # update-environment's, and -e's
        ["show-environment", "-g", "FROM_CLIENT"],
        ["show-environment", "-g", "NOPE"],
        ["set-environment", "-g", "Z", 'a"b$c`d\\e'],
        ["show-environment", "-g", "Z"],
        ["show-environment", "-gs", "Z"],
        ["set-environment", "-gr", "Z"],
        ["show-environment", "-g", "Z"],
        ["show-environment", "-gs", "Z"],
        ["set-environment", "-gu", "Z"],
        ["show-environment", "-g", "Z"],
        ["set-environment", "-gh", "H", "hidden"],
        ["show-environment", "-g", "H"],
        ["show-environment", "-gh"],
        ["set-environment", "-t", "s", "-F", "X", "#{session_name}:#{window_index}"],
        ["show-environment", "-t", "s", "X"],
        ["set-environment", "-t", "s", "-r", "DISPLAY"],
        ["show-environment", "-t", "s", "-s"],
        ["set-environment", "-g"],
        ["set-environment", "-g", "A=B", "c"],
        ["set-environment", "-g", "", "c"],
        ["set-environment", "-g", "V"],
        ["set-environment", "-gu", "V", "x"],
        ["set-environment", "-gr", "V", "x"],
        ["set-environment", "-gu", "NEVER_SET"],
        ["set-environment", "-t", "nosuch", "V", "x"],
        ["show-environment", "-t", "nosuch:0"],
    ]
    both.after_each(steps, ["show-environment", "-t", "s"])


def test_a_new_pane_starts_with_the_two_merged(both: BothServers, tmp_path: Path) -> None:
    both.env.update({"DISPLAY": ":7", "KEEP": "global"})
    for name in both.NAMES:
        out = tmp_path / f"{name}.env"
        both.run(name, "new-session", "-d", "-s", "s", "-e", "EXTRA=1", "sleep 1000")
        both.run(name, "set-environment", "-g", "GLOBAL_ONLY", "g")
        both.run(name, "set-environment", "-g", "BOTH", "global")
        both.run(name, "set-environment", "-t", "s", "BOTH", "session")
        both.run(name, "set-environment", "-gh", "SECRET", "x")
        both.run(name, "set-environment", "-gr", "KEEP")
        both.run(name, "set-environment", "-t", "s", "-r", "DISPLAY")
        both.run(name, "new-window", "-d", "-t", "s:", f"env > {out}.part; mv {out}.part {out}")
        wait_until(out.exists, what=f"{name}'s pane to write its environment")
        seen = dict(line.split("=", 1) for line in out.read_text().splitlines()
                    if "=" in line)
        picked = {key: seen.get(key) for key in
                  ("EXTRA", "GLOBAL_ONLY", "BOTH", "SECRET", "KEEP", "DISPLAY")}
        assert picked == {"EXTRA": "1", "GLOBAL_ONLY": "g", "BOTH": "session",
                          "SECRET": None, "KEEP": None, "DISPLAY": None}, name
