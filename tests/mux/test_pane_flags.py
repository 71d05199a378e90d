"""select-pane's -l -m -M -d -e -Z, last-pane -d/-e, send-keys -F -H -R and
clear-history, compared with a live tmux 3.3a: the marked pane and its variables (the
`M` window flag, `{marked}` as a target), a pane whose input is off ignoring send-keys,
hexadecimal keys (bytes; others left out), -F expanding no keys (tmux 3.3a's), and the
scrollback emptied with the screen kept, and -R scrolling the screen into it."""

from __future__ import annotations

import pytest

from tests.conftest import BothServers, wait_until

MARKS = ["display", "-p", "-t", "s:0.1",
         "#{pane_marked} #{pane_marked_set} #{window_marked_flag} #{session_marked} "
         "#{window_flags} #{pane_input_off} #{pane_index} #{window_zoomed_flag}"]


def test_marks_last_and_zoom(both: BothServers) -> None:
    setup = [["new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 1000"],
             ["split-window", "-t", "s", "sleep 1000"],
             ["split-window", "-t", "s", "sleep 1000"],
             ["new-session", "-d", "-s", "t", "sleep 1000"]]
    steps = [
        ["select-pane", "-t", "s:0.1", "-m"],
        ["display", "-p", "-t", "{marked}", "#{pane_index}"],
        ["select-pane", "-t", "~"],  # tmux's other name of the marked pane
        ["display", "-p", "-t", "t", "#{session_marked} #{pane_marked_set}"],
        ["select-pane", "-t", "s:0.1", "-m"],  # marked already: unmarked
        ["select-pane", "-t", "{marked}"],
        ["select-pane", "-t", "s:0.2", "-m"],
        ["select-pane", "-M"],
        ["select-pane", "-t", "s:0.1", "-d"],
        ["select-pane", "-t", "s:0.1", "-e"],
        ["select-pane", "-t", "s:0.0"],
        ["select-pane", "-t", "s", "-l"],
        ["resize-pane", "-Z", "-t", "s:0.1"],
        ["select-pane", "-t", "s:0.0", "-Z"],
        ["select-pane", "-t", "s:0.1"],
        ["last-pane", "-t", "s", "-d"],
    ]
    for name in both.NAMES:
        for step in setup:
            assert both.run(name, *step).returncode == 0
    both.after_each(steps, MARKS)


def test_send_keys_hex_formats_input_off_and_reset(both: BothServers) -> None:
    wanted = ["AB", "AB", "#{session_name}-#{window_index}", "#{session_name}-#{window_index}",
              "back", "back"]
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "40", "-y", "10",
                        "cat").returncode == 0
        assert both.run(name, "send-keys", "-t", "s", "-H", "41", "zz", "100", "42",
                        "0d").returncode == 0
        assert both.run(name, "send-keys", "-t", "s", "-F", "#{session_name}-#{window_index}",
                        "Enter").returncode == 0
        assert both.run(name, "select-pane", "-t", "s", "-d").returncode == 0
        assert both.run(name, "send-keys", "-t", "s", "lost", "Enter").returncode == 0
        assert both.run(name, "select-pane", "-t", "s", "-e").returncode == 0
        assert both.run(name, "send-keys", "-t", "s", "back", "Enter").returncode == 0
        seen: list[str] = []

        def echoed(name: str = name, seen: list[str] = seen) -> bool:
            seen[:] = both.run(name, "capture-pane", "-p", "-t", "s").stdout.split("\n")[:6]
            return seen == wanted

        try:
            wait_until(echoed, what=f"{name}'s cat to echo")
        except pytest.fail.Exception:
            pass  # the assertion shows what the pane held
        assert seen == wanted, name


def test_clear_history_and_send_keys_r(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "40", "-y", "5",
                        "seq 20; printf '\\033[1mbold'; exec sleep 1000").returncode == 0
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "s", "#{history_size}").stdout == "16\n",
            what=f"{name}'s pane to scroll")
        assert both.run(name, "clear-history", "-t", "s").returncode == 0
    both.after_each([["display", "-p", "-t", "s", "#{history_size}"],
                     ["capture-pane", "-p", "-t", "s"],
                     ["send-keys", "-R", "-t", "s"],
                     ["capture-pane", "-p", "-e", "-t", "s"]],
                    ["display", "-p", "-t", "s", "#{history_size} #{cursor_x},#{cursor_y}"])


def test_resize_pane_takes_percentages(both: BothServers) -> None:
    """resize-pane -x / -y N%: of the window's width / height (tmux's args_percentage),
    with its words for what it refuses."""
    for name in both.NAMES:
        for step in (["new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 1000"],
                     ["split-window", "-t", "s", "sleep 1000"],
                     ["split-window", "-h", "-t", "s", "sleep 1000"]):
            assert both.run(name, *step).returncode == 0
    both.after_each([["resize-pane", "-t", "s:0.0", "-y", "25%"],
                     ["resize-pane", "-t", "s:0.2", "-x", "30%"],
                     ["resize-pane", "-t", "s:0.0", "-y", "150%"],
                     ["resize-pane", "-t", "s:0.0", "-y", "abc"],
                     ["resize-pane", "-t", "s:0.0", "-y", "0"]],
                    ["display", "-p", "-t", "s", "#{window_layout}"])
