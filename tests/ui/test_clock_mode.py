"""clock-mode as a tmux user sees it: a tmux 3.3a client and a termhost client side by
side in an outer tmux, the same commands sent to both, and their screens (text and
colours, capture-pane -e) compared; and the clock's face alone, as data."""

from __future__ import annotations

import time

import pytest

from termhost.mux.clock_mode import clock_face, clock_time
from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer, agreed, screen

WIDTH, HEIGHT = 60, 14


def test_the_time_reads_as_tmuxs_strftime() -> None:
    """clock-mode-style 24 is `%H:%M`; 12 is `%l:%M ` and AM or PM."""
    morning = time.struct_time((2026, 1, 2, 9, 5, 0, 4, 2, 0))
    evening = time.struct_time((2026, 1, 2, 21, 5, 0, 4, 2, 0))
    midnight = time.struct_time((2026, 1, 2, 0, 30, 0, 4, 2, 0))
    assert clock_time(morning, "24") == "09:05"
    assert clock_time(evening, "12") == " 9:05 PM"
    assert clock_time(midnight, "12") == "12:30 AM"


def test_big_digits_in_the_middle_and_small_text_when_they_do_not_fit() -> None:
    """window_clock_draw_screen: 5x5 blocks a character, six columns apart, centred;
    the plain text in the middle row when the pane is too small; nothing when even that
    does not fit."""
    face = clock_face("10:4", 30, 8)
    assert face.big
    assert [row.rstrip() for row in face.rows] == [
        "",
        "       # #####       #   #",
        "       # #   #   #   #   #",
        "       # #   #       #####",
        "       # #   #   #       #",
        "       # #####           #",
        "", "",
    ]
    small = clock_face("21:05", 20, 5)
    assert not small.big and small.rows[2] == "        21:05       "
    assert clock_face("21:05", 4, 5).rows == ("    ",) * 5


def _attach(both: BothServers, outer: Outer, *steps: list[str]) -> None:
    """Session s (a pane running cat, which echoes what reaches it) on both servers,
    `steps` run, and a client of each in the outer terminal."""
    for name in both.NAMES:
        for step in [["new-session", "-d", "-s", "s", "-x", str(WIDTH), "-y", str(HEIGHT - 1),
                      "cat"], ["set", "-g", "status-right", "RIGHT"], *steps]:
            done = both.run(name, *step)
            assert done.returncode == 0, (name, step, done.stderr)
        outer.show(name, CLIENTS[name], WIDTH, HEIGHT)
        wait_until(lambda name=name: "[s]" in screen(outer, name)[-1],  # type: ignore[misc]
                   PATIENCE, f"{name}'s client to draw")


def _same_screens(both: BothServers, outer: Outer, what: str) -> list[str]:
    """Both clients' screens once they agree (a minute turning between the two reads
    makes them differ for a moment); the assertion shows both if they never do."""
    return agreed(lambda name: screen(outer, name), what)


def _mode(both: BothServers, name: str) -> str:
    return both.run(name, "display", "-p", "-t", "s", "#{pane_mode}").stdout.strip()


@pytest.mark.parametrize("options", [[], [["set", "-g", "clock-mode-colour", "red"],
                                          ["set", "-g", "clock-mode-style", "12"]],
                                     [["set", "-g", "clock-mode-colour", "colour208"]]],
                         ids=["defaults", "red 12-hour", "colour208"])
def test_c_b_t_shows_the_clock_as_tmux_draws_it(both: BothServers, outer: Outer,
                                                 options: list[list[str]]) -> None:
    """C-b t (clock-mode): the big clock in clock-mode-colour (blue), 24 or 12 hours
    (clock-mode-style), cell for cell as tmux's; #{pane_mode} reads clock-mode."""
    _attach(both, outer, *options)
    for name in both.NAMES:
        outer.run("send-keys", "-t", name, "C-b", "t")
        wait_until(lambda name=name: _mode(both, name) == "clock-mode",  # type: ignore[misc]
                   what=f"{name}'s pane in clock-mode")
    shown = _same_screens(both, outer, "termhost's clock to be tmux's")
    assert any("\x1b[" in row for row in shown[:-1]), "a clock is drawn"


def test_any_key_leaves_the_clock_and_is_not_typed(both: BothServers, outer: Outer) -> None:
    """window_clock_key: a key pressed in clock mode ends it and goes no further; the
    next reaches the pane. A key sent with send-keys ends it the same way, and
    send-keys -X finds no mode to run a command in."""
    _attach(both, outer)
    for name in both.NAMES:
        assert both.run(name, "clock-mode", "-t", "s").returncode == 0
        wait_until(lambda name=name: _mode(both, name) == "clock-mode",  # type: ignore[misc]
                   what=f"{name}'s pane in clock-mode")
    _same_screens(both, outer, "the clock shown on both")
    for name in both.NAMES:
        outer.run("send-keys", "-t", name, "C-b", "t")
        wait_until(lambda name=name: _mode(both, name) == "clock-mode",  # type: ignore[misc]
                   what=f"{name}'s clock again")
        outer.run("send-keys", "-t", name, "x")
        wait_until(lambda name=name: _mode(both, name) == "",  # type: ignore[misc]
                   what=f"{name}'s clock gone")
        outer.run("send-keys", "-t", name, "y")
        wait_until(lambda name=name: "y" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s").stdout, what=f"{name}'s pane to get y")
        assert "x" not in both.run(name, "capture-pane", "-p", "-t", "s").stdout
        both.run(name, "clock-mode", "-t", "s")
        assert _mode(both, name) == "clock-mode"
        both.run(name, "send-keys", "-t", "s", "z")
        assert _mode(both, name) == ""
        assert "z" not in both.run(name, "capture-pane", "-p", "-t", "s").stdout
        assert both.answers(name, ["send-keys", "-X", "-t", "s", "cancel"]) == (
            1, "", "not in a mode\n")
    _same_screens(both, outer, "the pane shown again on both")
