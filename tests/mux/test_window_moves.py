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


def test_break_pane_places_the_new_window_as_tmux(both: BothServers) -> None:
    # -a/-b just after/before -t's window, the windows from there moving up; the only pane
    # of a window moves with its window (renamed by -n), and -P prints nothing then.
    for name in both.NAMES:
        for index, window in enumerate(("a", "b", "c")):
            args = ["new-session", "-d", "-s", "s"] if index == 0 else [
                "new-window", "-d", "-t", f"s:{index}"]
            assert both.run(name, *args, "-n", window, "sleep 1000").returncode == 0
        for window in ("a", "b"):
            both.run(name, "split-window", "-d", "-t", f"s:{window}", "sleep 1000")
    both.after_each([
        ["break-pane", "-d", "-a", "-s", "s:a.1", "-t", "s:a", "-P", "-F", "#{window_index}"],
        ["break-pane", "-b", "-s", "s:b.1", "-t", "s:0", "-n", "broke"],
        ["break-pane", "-s", "s:c", "-t", "s:0"],  # index in use: 0
        ["break-pane", "-d", "-s", "s:c", "-t", "s:9", "-n", "moved", "-P"],
        ["break-pane", "-s", "s:moved"],
    ], ["list-windows", "-F", "#{window_index}:#{window_name}:#{window_panes}"
        "#{?window_active,*,}"])


def test_rotate_and_swap_keep_a_zoomed_window_zoomed_with_z(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        for _ in range(2):
            both.run(name, "split-window", "-d", "sleep 1000")
        both.run(name, "resize-pane", "-Z")
    both.after_each([["rotate-window", "-Z"], ["rotate-window"], ["resize-pane", "-Z"],
                     ["swap-pane", "-Z", "-D"], ["swap-pane", "-Z", "-d", "-U"],
                     ["swap-pane", "-D"]],
                    ["display-message", "-p", "#{window_zoomed_flag} #{pane_index} #{pane_id}"])


def test_join_pane_f_spans_the_whole_window_as_tmux(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "80", "-y", "24",
                        "sleep 1000").returncode == 0
        both.run(name, "split-window", "-d", "-h", "sleep 1000")
        for _ in range(3):
            both.run(name, "new-window", "-d", "sleep 1000")
    both.after_each([["join-pane", "-f", "-s", "s:1", "-t", "s:0.1"],
                     ["move-pane", "-f", "-h", "-b", "-s", "s:2", "-t", "s:0.0"],
                     ["join-pane", "-f", "-d", "-l", "5", "-s", "s:3", "-t", "s:0.2"]],
                    ["display-message", "-p", "-t", "s:0", "#{window_layout} #{pane_index}"])


def test_resize_window_a_with_no_client_takes_the_default_size(both: BothServers) -> None:
    # new-session -x/-y sets the session's own default-size; resize-window -a/-A with no
    # client goes back to it (or to the global one), as tmux 3.3a (libtmux's test_resize).
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "a", "-x", "100", "-y", "40",
                        "sleep 1000").returncode == 0
    both.after_each([["show", "-t", "a", "default-size"], ["set", "-g", "default-size", "90x30"],
                     ["new-session", "-d", "-s", "b", "sleep 1000"],
                     ["resize-window", "-t", "a", "-x", "50", "-y", "10"],
                     ["resize-window", "-t", "a", "-a"],
                     ["resize-window", "-t", "b", "-y", "5"], ["resize-window", "-t", "b", "-A"]],
                    ["list-windows", "-a", "-F",
                     "#{session_name} #{window_width}x#{window_height}"])
