"""swap-window and move-window (with -d, -k and -r), as configuration files bind them
(`bind -r < swap-window -t -1`, `move-window -r` after closing windows), run in a live
tmux 3.3a and in termhost and compared after every step: the windows in order, their
names and flags, and each error."""

from __future__ import annotations

from tests.conftest import BothServers

STEPS = [
    ["new-window", "-d", "-n", "b", "sleep 1000"], ["new-window", "-d", "-n", "c", "sleep 1000"],
    ["swap-window", "-s", ":0", "-t", ":2"], ["swap-window", "-d", "-s", ":0", "-t", ":1"],
    ["swap-window", "-t", ":5"], ["move-window", "-s", ":1", "-t", ":7"],
    ["move-window", "-r"], ["move-window", "-s", ":0", "-t", ":1"],
    ["move-window", "-k", "-s", ":0", "-t", ":1"], ["move-window", "-t", ":9"],
    ["move-window", "-d", "-s", ":2", "-t", ":4"], ["move-window", "-s", ":4"],
]


def test_window_swaps_and_moves_land_where_tmux_lands(both: BothServers) -> None:
    for name in both.NAMES:
        started = both.run(name, "new-session", "-d", "-s", "s", "-n", "a", "sleep 1000")
        assert started.returncode == 0
    both.after_each(STEPS, ["list-windows", "-F",
                            "#{window_index}:#{window_name}#{?window_active,*,}"])
