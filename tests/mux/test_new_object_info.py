"""-P and -F on new-session, new-window, split-window and break-pane: what libtmux and
scripts read back to learn the object they made (`new-window -P -F '#{window_index}'`),
compared with a live tmux 3.3a."""

from __future__ import annotations

from tests.conftest import BothServers

STEPS = [
    ["new-session", "-d", "-P", "-s", "s", "sleep 1000"],
    ["new-session", "-d", "-P", "-F", "#{session_name} #{session_windows}", "-s", "t",
     "sleep 1000"],
    ["new-window", "-d", "-P", "-t", "s:", "sleep 1000"],
    ["new-window", "-d", "-P", "-F", "#{window_index}:#{window_panes}", "-t", "s:",
     "sleep 1000"],
    ["new-window", "-d", "-t", "s:", "sleep 1000"],
    ["split-window", "-d", "-P", "-t", "s:0", "sleep 1000"],
    ["split-window", "-d", "-P", "-F", "#{pane_index} of #{window_panes}", "-t", "s:1",
     "sleep 1000"],
    ["break-pane", "-d", "-P", "-s", "s:0.1", "-t", "s:7"],
    ["break-pane", "-d", "-P", "-F", "#{window_index}/#{session_windows}", "-s", "s:1.1",
     "-t", "s:8"],
]


def test_p_prints_the_new_object_as_tmux_does(both: BothServers) -> None:
    printed = {name: [both.answers(name, step) for step in STEPS] for name in both.NAMES}
    for step, ours, theirs in zip(STEPS, printed["termhost"], printed["tmux"], strict=True):
        assert ours == theirs, step
