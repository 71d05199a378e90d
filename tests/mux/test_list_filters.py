"""The list commands' `-f` filters and `list-windows -a`, as tmux 3.3a's (format_true
of the filter expanded for each item), compared with a live tmux: sessions listed by
name, windows of every session, panes of the server, buffers."""

from __future__ import annotations

import pytest

from tests.conftest import BothServers

SETUP = [
    ["new-session", "-d", "-s", "t", "-n", "tee", "-x", "80", "-y", "24", "sleep 1000"],
    ["new-session", "-d", "-s", "s", "-n", "ess", "-x", "80", "-y", "24", "sleep 1000"],
    ["split-window", "-d", "-t", "s", "sleep 1000"],
    ["new-window", "-d", "-t", "s:4", "-n", "four", "sleep 1000"],
    ["set-buffer", "-b", "one", "first"],
    ["set-buffer", "-b", "two", "second"],
]

CASES = [
    ["list-sessions", "-F", "#{session_name}", "-f", "#{==:#{session_name},t}"],
    ["list-sessions", "-F", "#{session_name}", "-f", "0"],
    ["list-sessions", "-F", "#{session_name} #{session_windows}", "-f", "#{session_windows}"],
    ["list-windows", "-a", "-F", "#{session_name}:#{window_index} #{window_name}"],
    ["list-windows", "-a", "-F", "#{window_index}", "-f", "#{m:f*,#{window_name}}"],
    ["list-windows", "-t", "s", "-F", "#{window_index}", "-f", "#{!=:#{window_index},0}"],
    ["list-panes", "-a", "-F", "#{session_name} #{pane_index}", "-f", "#{pane_active}"],
    ["list-panes", "-s", "-t", "s", "-F", "#{window_index}.#{pane_index}", "-f",
     "#{!:#{pane_active}}"],
    ["list-windows", "-t", "s"],  # the default lines: layout, id, (active)
    ["list-windows", "-a"],
    ["list-windows", "-a", "-f", "#{window_active}"],
    ["list-buffers", "-F", "#{buffer_name} #{buffer_sample}", "-f", "#{==:#{buffer_size},6}"],
]


@pytest.mark.parametrize("command", CASES, ids=[" ".join(case) for case in CASES])
def test_a_list_filter_keeps_what_tmux_keeps(both: BothServers, command: list[str]) -> None:
    for name in both.NAMES:
        for step in SETUP:
            assert both.run(name, *step).returncode == 0, (name, step)
    seen = {name: both.answers(name, command) for name in both.NAMES}
    assert seen["termhost"] == seen["tmux"]


def test_kill_a_kills_all_the_others(both: BothServers) -> None:
    # tmux's kill-pane -a, kill-window -a and kill-session -a keep only the target
    steps = [["split-window", "-d", "-t", "s:0", "sleep 1000"],
             ["split-window", "-d", "-t", "s:0", "sleep 1000"],
             ["kill-pane", "-a", "-t", "s:0.1"],
             ["kill-window", "-a", "-t", "s:4"],
             ["kill-session", "-C", "-t", "s"],
             ["kill-session", "-a", "-t", "s"]]
    for name in both.NAMES:
        for step in SETUP:
            assert both.run(name, *step).returncode == 0, (name, step)
    both.after_each(steps, ["list-panes", "-a", "-F", "#{session_name}:#{window_index} "
                            "#{window_name} #{window_panes}"])
