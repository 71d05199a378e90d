"""move-window between sessions and with -a / -b, compared with a live tmux 3.3a: the
window leaves its session (which ends with its last window) for the index asked, at the
other session's size; -a and -b put it after or before -t's window, shuffling the
others up (tmux's winlink_shuffle_up)."""

from __future__ import annotations

from tests.conftest import BothServers

WHERE = ["list-windows", "-a", "-F", "#{session_name}:#{window_index} #{window_name} "
         "#{window_width}x#{window_height} #{window_active}"]


def test_move_window_across_sessions_and_beside(both: BothServers) -> None:
    setup = [["new-session", "-d", "-s", "a", "-n", "a0", "-x", "80", "-y", "24", "sleep 1000"],
             ["new-window", "-d", "-t", "a:1", "-n", "a1", "sleep 1000"],
             ["new-window", "-d", "-t", "a:2", "-n", "a2", "sleep 1000"],
             ["new-session", "-d", "-s", "b", "-n", "b0", "-x", "60", "-y", "20", "sleep 1000"],
             ["new-window", "-d", "-t", "b:1", "-n", "b1", "sleep 1000"],
             ["new-session", "-d", "-s", "c", "-n", "c0", "sleep 1000"]]
    for name in both.NAMES:
        for step in setup:
            assert both.run(name, *step).returncode == 0
    both.after_each([
        ["move-window", "-s", "a:1", "-t", "b:5"],
        ["move-window", "-d", "-s", "a:2", "-t", "b:"],
        ["move-window", "-s", "b:5", "-t", "b:0"],
        ["move-window", "-k", "-s", "b:5", "-t", "b:0"],
        ["move-window", "-a", "-s", "a:0", "-t", "b:0"],
        ["move-window", "-b", "-s", "b:1", "-t", "b:0"],
        ["move-window", "-s", "c:0", "-t", "b:9"],
    ], WHERE)
    for name in both.NAMES:
        assert both.run(name, "has-session", "-t", "c").returncode == 1, name
