"""list-commands, read off the one table of verbs, as tmux 3.3a prints it; and every verb
in that table is one of tmux's, by name and aliases, but termhost's own two."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

OWN = {"show-snapshot", "record-pane"}
"""termhost's verbs that tmux has not (snapshots, recording)."""


def test_list_commands_prints_as_tmux_and_names_only_tmux_verbs(tmp_path: Path) -> None:
    env = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path)}
    for variable in ("TERMHOST", "TMUX"):
        env.pop(variable, None)
    socket = f"termhost-lscm-{os.getpid()}"
    programs = {"tmux": ["tmux", "-L", socket, "-f", "/dev/null"],
                "termhost": [sys.executable, "-m", "termhost", "-f", "/dev/null"]}

    def run(name: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*programs[name], *args], env=env, capture_output=True,
                              text=True, timeout=30, check=False)

    # Verbs whose usage termhost's table gives as tmux does, and one that is none.
    for args in (["kill-server"], ["set-option"], ["show-options"], ["if-shell"],
                 ["nosuch"], ["-F", "#{command_list_name}|#{command_list_alias}", "lsk"]):
        ours, theirs = run("termhost", "list-commands", *args), run("tmux", "list-commands", *args)
        assert (ours.returncode, ours.stdout, ours.stderr) == (
            theirs.returncode, theirs.stdout, theirs.stderr), args

    def names(name: str) -> set[tuple[str, ...]]:
        listing = run(name, "lscm", "-F", "#{command_list_name} #{command_list_alias}")
        return {tuple(line.split()) for line in listing.stdout.splitlines()}

    assert names("termhost") - names("tmux") == {(name,) for name in OWN}
    assert run("termhost", "has-session").returncode == 1  # it left no server behind


def test_a_command_line_may_hold_several_commands_as_tmux_reads_them(tmp_path: Path) -> None:
    # tmux's client splits its arguments at `;` words and words ending in `;` (the shell
    # passes `\;` as `;`); `\\;` keeps a `;` for bind-key. The rest stops at an error.
    env = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path)}
    for variable in ("TERMHOST", "TMUX"):
        env.pop(variable, None)
    socket = f"termhost-sequence-{os.getpid()}"
    programs = {"tmux": ["tmux", "-L", socket, "-f", "/dev/null"],
                "termhost": [sys.executable, "-m", "termhost", "-f", "/dev/null"]}
    lines = [
        ["start;", "has", "-t", "nosuch"],
        ["new", "-d", "-s", "one", "sleep 1000;", "has", "-t", "one"],
        ["new-window", "-d", "-t", "one:", ";", "list-windows", "-t", "one", "-F", "#I"],
        ["display", "-p", "a", ";", "has", "-t", "nosuch", ";", "display", "-p", "b"],
        ["bind", "a", "new-window", "\\;", "split-window"],
        ["list-keys", "-T", "prefix", "a"],
        ["display", "-p", "semi\\;"],
    ]
    seen: dict[str, list[tuple[int, str]]] = {}
    for name, program in programs.items():
        seen[name] = []
        try:
            for line in lines:
                done = subprocess.run([*program, *line], env=env, capture_output=True,
                                      text=True, timeout=30, check=False)
                seen[name].append((done.returncode, done.stdout))
        finally:
            subprocess.run([*program, "kill-server"], env=env, capture_output=True,
                           timeout=30, check=False)
    for line, ours, theirs in zip(lines, seen["termhost"], seen["tmux"], strict=True):
        assert ours == theirs, line
