"""link-window and unlink-window: one window at several places (in two sessions, twice in
one), run in a live tmux 3.3a and in termhost and compared after every step: each place
with its window, flags and #{window_linked*} variables, each error and exit status; and
which place a target naming only the window (`@ID`, `%ID`) means, as tmux's
cmd_find_best_session_with_window and cmd_find_best_winlink_with_window choose it (the
rule libtmux's own tests pin)."""

from __future__ import annotations

from tests.conftest import BothServers

PLACES = ["list-windows", "-a", "-F",
          "#{session_name}:#{window_index} #{window_id} #{window_name} [#{window_flags}] "
          "linked=#{window_linked} #{window_linked_sessions}:#{window_linked_sessions_list} "
          "active=#{window_active_sessions}:#{window_active_sessions_list} "
          "#{session_windows} #{window_panes}"]

STEPS = [
    ["new-window", "-d", "-t", "a", "-n", "three", "sleep 1000"],
    ["link-window", "-s", "a:0", "-t", "b:0"],  # index in use: 0
    ["link-window", "-s", "a:0", "-t", "b:5"],
    ["link-window", "-s", "a:0", "-t", "b:5"],  # same index: 5
    ["link-window", "-d", "-s", "a:0", "-t", "a:3"],
    ["link-window", "-a", "-s", "a:1", "-t", "b:0"],
    ["link-window", "-b", "-s", "a:1", "-t", "b:1"],  # same index: 1
    ["select-window", "-t", "a:3"],
    ["unlink-window", "-t", "b:0"],  # window only linked to one session
    ["unlink-window", "-t", "a:3"],
    ["swap-window", "-s", "a:1", "-t", "b:0"],
    ["split-window", "-d", "-t", "b:5", "sleep 1000"],
    ["link-window", "-k", "-s", "b:0", "-t", "a:1"],
    ["new-window", "-k", "-d", "-t", "a:1", "-n", "four", "sleep 1000"],
    ["kill-session", "-t", "a"],  # the windows linked to b too live on there
    ["unlink-window", "-t", "b:5"],  # window only linked to one session
    ["move-window", "-s", "b:0", "-t", "b:0"],  # same index: 0
    ["unlink-window", "-k", "-t", "b:5"],
]


def _start(both: BothServers) -> None:
    for name in both.NAMES:
        for session, window in (("a", "one"), ("b", "two")):
            started = both.run(name, "new-session", "-d", "-s", session, "-n", window,
                               "sleep 1000")
            assert started.returncode == 0, started.stderr


def test_places_of_linked_windows_are_tmuxs_after_each_step(both: BothServers) -> None:
    _start(both)
    both.after_each(STEPS, PLACES)


def test_unlinking_the_last_place_of_a_session_ends_it_as_tmux(both: BothServers) -> None:
    _start(both)
    both.after_each([["link-window", "-d", "-s", "b:0", "-t", "a:4"],
                     ["unlink-window", "-t", "b:0"],  # b's only window: b ends
                     ["has-session", "-t", "b"],
                     ["kill-window", "-t", "a:0"]],  # one, in a alone: gone from a
                    PLACES)


def test_a_target_naming_only_the_window_means_the_place_tmux_chooses(
        both: BothServers) -> None:
    # As libtmux's test_resolution: zzz-old made first, aaa-recent active last; @0 twice
    # in dup, with the current window at each of its places and elsewhere.
    steps = [["new-session", "-d", "-s", "zzz-old", "sleep 1000"],
             ["new-session", "-d", "-s", "aaa-recent", "sleep 1000"],
             ["link-window", "-s", "@0", "-t", "aaa-recent"],
             ["new-session", "-d", "-s", "dup", "-n", "twice", "sleep 1000"],
             ["new-window", "-d", "-t", "dup", "-n", "other", "sleep 1000"],
             ["link-window", "-d", "-s", "@2", "-t", "dup:5"],
             ["select-window", "-t", "dup:5"],
             ["select-window", "-t", "dup:1"],
             ["select-window", "-t", "zzz-old"],
             ["select-window", "-t", "dup:0"]]
    observe = ["display-message", "-p", "-t", "@0",
               "#{session_name}:#{window_index} #{window_active}"]
    both.after_each(steps, observe)
    for target in ("@2", "%2", "%0", "dup:twice"):
        both.after_each([["select-window", "-t", "dup:5"], ["select-window", "-t", "dup:1"]],
                        ["display-message", "-p", "-t", target,
                         "#{session_name}:#{window_index}.#{pane_index}"])
