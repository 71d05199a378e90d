"""next-window, previous-window, last-window, select-window -l/-n/-p/-T and last-pane, as
configuration files bind them (`bind C-p previous-window`, `bind Tab last-window`), run
in a live tmux 3.3a and in termhost and compared after every step."""

from __future__ import annotations

from tests.conftest import BothServers

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


def test_window_and_pane_steps_land_where_tmux_lands(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    both.after_each(STEPS, ["display-message", "-p", "#{window_index}.#{pane_index}"])
