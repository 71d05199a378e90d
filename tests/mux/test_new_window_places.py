"""Where new-window puts a window, as tmux 3.3a's cmd-new-window and spawn_window:
`-t SESSION:INDEX`, `-a`/`-b` beside the target with the windows after it moved up,
`-k` replacing, `-S` selecting an existing window of that name, `-e` for the pane's
environment, and tmux's messages; compared with a live tmux after each step."""

from __future__ import annotations

from tests.conftest import BothServers, wait_until

LIST = ["list-windows", "-t", "s", "-F", "#{window_index} #{window_name} #{window_active}"]

STEPS = [
    ["new-window", "-d", "-t", "s:3", "-n", "three", "sleep 1000"],
    ["new-window", "-d", "-t", "s:3", "sleep 1000"],  # index 3 in use
    ["new-window", "-d", "-t", "s:0", "-a", "-n", "after0", "sleep 1000"],
    ["new-window", "-d", "-t", "s:3", "-b", "-n", "before3", "sleep 1000"],
    ["new-window", "-d", "-t", "s:1", "-a", "-n", "after1", "sleep 1000"],
    ["new-window", "-S", "-n", "after0", "sleep 1000"],  # selects it, makes nothing
    ["new-window", "-d", "-k", "-t", "s:3", "-n", "replaced", "sleep 1000"],
    ["new-window", "-d", "-t", ":7", "-n", "seven", "sleep 1000"],
    ["new-window", "-d", "-t", "s:x", "sleep 1000"],  # can't find window: x
    ["new-window", "-k", "-t", "s:1", "-n", "current-replaced", "sleep 1000"],
]


def test_new_window_places_windows_as_tmux_does(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-n", "zero",
                        "sleep 1000").returncode == 0
    both.after_each(STEPS, LIST)


def test_new_window_e_sets_the_panes_environment(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        assert both.run(name, "new-window", "-d", "-t", "s:5", "-e", "ONE=1", "-e", "TWO=2",
                        "-e", "IGNORED", "echo \"[$ONE$TWO]\"; sleep 1000").returncode == 0
        wait_until(lambda name=name: "[12]" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s:5").stdout, what=f"{name}'s echo")
