"""Targets relative to the current session, compared with a live tmux 3.3a: its
cmd_find_target reads a bare `7` as window 7 of the current session before a session
named 7 (`select-window -t 1` with a session named 1), a bare pane index in the current
window, `:N`, `.N` and `W.P` in the current session, a window index new-window and
move-window may create, and `can't find window` / `can't find pane` when it is none."""

from __future__ import annotations

from tests.conftest import BothServers

SETUP = [
    ["new-session", "-d", "-s", "a", "-n", "first", "sleep 1000"],
    ["new-window", "-d", "-t", "a:7", "-n", "seven", "sleep 1000"],
    ["new-session", "-d", "-s", "1", "-n", "other", "sleep 1000"],
    ["new-session", "-d", "-s", "b", "-n", "bee", "sleep 1000"],
    ["split-window", "-d", "-t", "b", "sleep 1000"],
    ["new-window", "-d", "-t", "b:1", "-n", "one", "sleep 1000"],
]

WHERE = ["display", "-p", "#S:#I.#P"]


def test_relative_targets_read_as_tmux_reads_them(both: BothServers) -> None:
    for name in both.NAMES:
        for step in SETUP:
            assert both.run(name, *step).returncode == 0, (name, step)
    steps: list[list[str]] = []
    for target in ("1", "0", ".1", ":1", "1.0", "0.1", "bee", "one", "a", "b:", "7", "9"):
        steps += [["select-window", "-t", target], ["select-pane", "-t", target]]
    steps += [["new-window", "-d", "-t", "5", "sleep 1000"], ["move-window", "-s", "5", "-t", "6"],
              ["kill-window", "-t", "7"], ["kill-pane", "-t", "first"],
              ["swap-pane", "-d", "-s", "0", "-t", "1"]]
    both.after_each(steps, WHERE)
    both.after_each([["list-windows", "-a", "-F", "#S:#I #W"]], WHERE)


def test_windows_and_panes_named_by_where_they_are_as_tmux(both: BothServers) -> None:
    # cmd_find_get_window_with_session's `+ - ^ $ ! =N {start} {end} {last} {next}
    # {previous}` and cmd_find_get_pane_with_window's `+ - ! {last} {next} {top} ...
    # {left-of}`: panes never made active are equal (the first wins), as tmux's.
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "80", "-y", "24",
                        "sleep 1000").returncode == 0
        both.run(name, "split-window", "-d", "-h", "sleep 1000")
        both.run(name, "split-window", "-d", "-t", ":.1", "sleep 1000")
        for _ in range(3):
            both.run(name, "new-window", "-d", "sleep 1000")
    panes = [":.+", ":.-", ":.+2", ":.{next}", ":.{previous}", ":.{top}", ":.{bottom}",
             ":.{left}", ":.{right}", ":.{top-left}", ":.{top-right}", ":.{bottom-left}",
             ":.{bottom-right}", ":.{right-of}", ":.{down-of}", ":.{left-of}", ":.!", "+",
             "-", "{top}", "{bottom-right}"]
    windows = [":+", ":-", ":^", ":$", ":!", ":=2", ":{start}", ":{end}", ":{last}",
               ":{next}", ":{previous}", ":+2", "+", "-2", "^", "$", "{end}"]
    steps = [["select-pane", "-t", target] for target in panes]
    steps += [["select-window", "-t", target] for target in windows]
    steps += [["last-pane"], ["select-pane", "-t", ":.!"], ["last-window"],
              ["kill-pane", "-t", "{top-right}"], ["select-pane", "-t", ":.{right}"]]
    both.after_each(steps, WHERE)
