"""refresh-client's flags for an attached client (-L -R -U -D -c, -l): a tmux 3.3a
client and a termhost client side by side in an outer tmux, the same commands given to
both, and what each then shows (or keeps) compared."""

from __future__ import annotations

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer, agreed

WIDTH, HEIGHT = 50, 12
"""The clients' terminals: smaller than the windows below (window-size manual)."""
LINES = ("for i in $(seq 1 30); do printf '%03d%s\\n' $i "
         "$(printf 'abcdefghij%.0s' 1 2 3 4 5 6 7 8 9 10); done; exec cat")
"""Numbered lines wider than any view, to tell one view from another."""


def _attach(both: BothServers, outer: Outer, *steps: list[str]) -> dict[str, str]:
    """Session s, a window of 100x30 (two panes, the right one active) larger than
    each client, and a second window; its client's tty by server. (The second window
    made later, a detached tmux 3.3a crashes.)"""
    ttys = {}
    for name in both.NAMES:
        for step in [["new-session", "-d", "-s", "s", "-n", "w", "-x", "100", "-y", "30",
                      LINES],
                     ["new-window", "-d", "-t", "s:", "-n", "v", "cat"],
                     ["split-window", "-h", "-t", "s:0", "-l", "30", "cat"],
                     ["set", "-g", "window-size", "manual"],
                     ["set", "-g", "status-right",
                      "#{?window_bigger,[#{window_offset_x}#,#{window_offset_y}] ,}R"],
                     *steps]:
            done = both.run(name, *step)
            assert done.returncode == 0, (name, step, done.stderr)
        outer.show(name, CLIENTS[name], WIDTH, HEIGHT)
        wait_until(lambda name=name: "[s]" in _shown(outer, name)[-1],  # type: ignore[misc]
                   PATIENCE, f"{name}'s client to draw")
        ttys[name] = outer.run("display", "-p", "-t", name, "#{pane_tty}").strip()
    return ttys


def _shown(outer: Outer, name: str) -> list[str]:
    return outer.run("capture-pane", "-p", "-t", name).rstrip("\n").split("\n")


def test_the_view_follows_the_cursor_and_pans_by_hand(both: BothServers,
                                                      outer: Outer) -> None:
    """tmux's tty_window_offset: a window larger than the client shows the part around
    the active pane's cursor (#{window_offset_x}, #{window_offset_y} in the status line);
    -L/-R/-U/-D move it by the adjustment (1 without one), no further than the window's
    edges; -c follows the cursor again. Each step's screen is tmux's."""
    ttys = _attach(both, outer)
    agreed(lambda name: _shown(outer, name), "the view around the cursor",
           lambda lines: "[50,0]" in lines[-1])
    for step in (["-L", "10"], ["-D", "3"], ["-U"], ["-R", "1000"], ["-D", "1000"],
                 ["-L", "7"], ["-c"]):
        for name in both.NAMES:
            assert both.run(name, "refresh-client", "-t", ttys[name], *step).returncode == 0
        agreed(lambda name: _shown(outer, name), f"the view after {step}",
               lambda lines: "R" in lines[-1])


def test_a_pan_is_the_clients_for_one_window(both: BothServers, outer: Outer) -> None:
    """`the visible position is a property of the client not of the window, changing
    the current window in the attached session will reset it` (tmux.1); a window that
    fits the client has no offset."""
    ttys = _attach(both, outer)
    for name in both.NAMES:
        for step in (["refresh-client", "-t", ttys[name], "-L", "20"],
                     ["select-window", "-t", "s:1"],
                     ["refresh-client", "-t", ttys[name], "-R", "3"],
                     ["select-window", "-t", "s:0"]):
            assert both.run(name, *step).returncode == 0, step
    agreed(lambda name: _shown(outer, name), "the first window around the cursor again",
           lambda lines: "[50,0]" in lines[-1])


def test_adjustments_it_refuses(both: BothServers, outer: Outer) -> None:
    """strtonum's words for an adjustment out of 1 to INT_MAX, or not a number, given
    with any of the flags, -c too."""
    ttys = _attach(both, outer)
    for args in (["-R", "0"], ["-L", "x"], ["-c", "-5"], ["-U", "2147483648"], ["-D", " 3"],
                 ["-c", "7"]):
        answers = {name: both.answers(name, ["refresh-client", "-t", ttys[name], *args])
                   for name in both.NAMES}
        assert answers["termhost"] == answers["tmux"], args


def test_l_asks_the_terminal_for_its_clipboard(both: BothServers, outer: Outer) -> None:
    """-l: the terminal asked for its clipboard (OSC 52 `?`; the outer tmux answers with
    its paste buffer); the answer is a new paste buffer, or with a pane, written to that
    pane in OSC 52's form, as tmux 3.3a's tty_keys_clipboard."""
    ttys = _attach(both, outer, ["set", "-as", "terminal-features", ",*:clipboard"])
    outer.run("set", "-s", "set-clipboard", "on", ";", "set-buffer", "from-the-terminal")
    for name in both.NAMES:
        assert both.run(name, "refresh-client", "-t", ttys[name], "-l").returncode == 0
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "show-buffer").stdout == "from-the-terminal",
            what=f"{name}'s buffer from the terminal")
        assert both.run(name, "refresh-client", "-t", ttys[name], "-l", "s:0.1"
                        ).returncode == 0
        wait_until(lambda name=name: "]52;;ZnJvbS10aGUtdGVybWluYWw=" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-J", "-t", "s:0.1").stdout.replace("\n", ""),
            what=f"the clipboard written to {name}'s pane")
        assert both.run(name, "list-buffers", "-F", "#{buffer_name}").stdout == "buffer0\n"
