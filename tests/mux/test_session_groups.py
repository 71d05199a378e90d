"""Grouped sessions (new-session -t), run in a live tmux 3.3a and in termhost and compared
after every step: the sessions of a group share one set of windows at the same indices (a
window made, moved, swapped or closed in one is so in all), each keeps a current window of
its own, the group outlives the session it was named after, and #{session_group*} and
list-sessions' `(group NAME)` read as tmux's."""

from __future__ import annotations

from tests.conftest import BothServers

GROUPS = ["list-sessions", "-F",
          "#{session_name} #{session_grouped} #{session_group} #{session_group_size} "
          "#{session_group_list} #{session_group_attached} #{session_group_many_attached} "
          "#{session_windows}"]

PLACES = ["list-windows", "-a", "-F",
          "#{session_name}:#{window_index} #{window_name} [#{window_flags}] "
          "linked=#{window_linked} #{window_linked_sessions}"]

STEPS = [
    ["new-session", "-d", "-t", "origin"],  # named origin-ID
    ["new-session", "-d", "-t", "origin", "-s", "g2"],
    ["new-session", "-d", "-t", "g2", "-s", "g3", "sleep 1000"],  # refused: a command
    ["new-session", "-d", "-t", "origin", "-n", "x"],  # refused: a window name
    ["new-session", "-d", "-t", "fresh", "-s", "lone"],  # a new group of that name
    ["new-window", "-d", "-t", "g2", "-n", "made-in-g2", "sleep 1000"],
    ["select-window", "-t", "g2:1"],  # each its own current window
    ["move-window", "-s", "origin:3", "-t", "origin:7"],
    ["swap-window", "-s", "g2:0", "-t", "g2:1"],
    ["unlink-window", "-t", "g2:7"],  # window only linked to one session (the group)
    ["link-window", "-d", "-s", "lone:0", "-t", "g2:9"],
    ["kill-window", "-t", "origin:1"],
    ["kill-session", "-t", "origin"],  # the group keeps its name and windows
    ["new-session", "-d", "-t", "origin", "-s", "g4"],  # joins the group by its name
    ["unlink-window", "-k", "-t", "g4:0"],
]


def test_grouped_sessions_share_windows_as_tmuxs_do(both: BothServers) -> None:
    for name in both.NAMES:
        for args in (["-s", "origin", "-n", "first"], ["-t", "origin:3", "-n", "third"]):
            verb = "new-session" if args[0] == "-s" else "new-window"
            started = both.run(name, verb, "-d", *args, "sleep 1000")
            assert started.returncode == 0, started.stderr
    both.after_each(STEPS, GROUPS)
    both.kill()
    for name in both.NAMES:
        both.run(name, "new-session", "-d", "-s", "origin", "-n", "first", "sleep 1000")
        both.run(name, "new-window", "-d", "-t", "origin:3", "-n", "third", "sleep 1000")
    both.after_each(STEPS, PLACES)


def test_list_sessions_names_the_group_as_tmux(both: BothServers) -> None:
    for name in both.NAMES:
        both.run(name, "new-session", "-d", "-s", "origin", "sleep 1000")
        both.run(name, "new-session", "-d", "-t", "origin", "-s", "other")
    # (termhost's line may go on: how the session's environment snapshot stands)
    shown = {name: [line.split(" (created")[0] + line.split(")", 1)[1][:len(" (group origin)")]
                    for line in both.run(name, "list-sessions").stdout.splitlines()]
             for name in both.NAMES}
    assert shown["termhost"] == shown["tmux"] == [
        "origin: 1 windows (group origin)", "other: 1 windows (group origin)"]
