"""split-window's -e, -Z and -f and respawn-pane's -e, compared with a live tmux 3.3a:
the new pane's environment, the zoom after the split, and a full-size split beside or
below the whole window (tmux's SPAWN_FULLSIZE: the layout's root split)."""

from __future__ import annotations

from tests.conftest import BothServers, wait_until

LAYOUT = ["display", "-p", "-t", "s:", "#{window_layout} #{window_zoomed_flag} #{pane_index}"]

PANE_SIZES = ["list-panes", "-t", "s:1", "-F", "#{pane_id} #{pane_width}x#{pane_height}"]


def test_full_size_splits_and_zoom(both: BothServers) -> None:
    steps = [
        ["new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 1000"],
        ["split-window", "-t", "s", "-h", "sleep 1000"],
        ["split-window", "-t", "s", "-v", "sleep 1000"],
        ["split-window", "-t", "s", "-f", "-v", "sleep 1000"],
        ["split-window", "-t", "s", "-f", "-h", "-b", "-l", "10", "sleep 1000"],
        ["split-window", "-t", "s:0.2", "-Z", "sleep 1000"],
        ["split-window", "-t", "s", "-d", "-Z", "sleep 1000"],
        ["new-window", "-t", "s:", "sleep 1000"],
        ["split-window", "-t", "s:1", "-d", "-Z", "sleep 1000"],  # the old pane zoomed
    ]
    both.after_each(steps, LAYOUT)
    # The new pane behind the zoom keeps the size it started with, the window's (libtmux's
    # test_split_window_zoom pins it).
    assert both.answers("termhost", PANE_SIZES) == both.answers("tmux", PANE_SIZES)


def test_e_sets_the_new_panes_environment(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        assert both.run(name, "split-window", "-t", "s", "-e", "ONE=1", "-e", "TWO=two words",
                        "printf '%s|%s' \"$ONE\" \"$TWO\"; exec sleep 1000").returncode == 0
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s:0.1").stdout.startswith("1|two words"),
            what=f"{name}'s split to see -e")
        assert both.run(name, "respawn-pane", "-k", "-t", "s:0.1", "-e", "THREE=3",
                        "printf '<%s>' \"$THREE\"; exec sleep 1000").returncode == 0
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s:0.1").stdout.startswith("<3>"),
            what=f"{name}'s respawned pane to see -e")


def test_select_layout_e_spreads_out_evenly(both: BothServers) -> None:
    """select-layout -E: the target pane and its siblings the same size, else its
    parent's children (tmux's layout_spread_out)."""
    steps = [
        ["new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 1000"],
        ["split-window", "-t", "s", "-h", "-l", "10", "sleep 1000"],
        ["split-window", "-t", "s", "-v", "-l", "3", "sleep 1000"],
        ["split-window", "-t", "s", "-v", "-l", "3", "sleep 1000"],
        ["select-layout", "-E", "-t", "s:0.2"],
        ["select-layout", "-E", "-t", "s:0.2"],
        ["select-layout", "-E", "-t", "s:0.0"],
    ]
    both.after_each(steps, LAYOUT)
