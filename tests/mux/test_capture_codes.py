"""capture-pane's -e, -C, -N and -J byte for byte as tmux 3.3a writes them
(grid_string_cells and grid_string_cells_code): SGR only where the look changes,
carried over from the line before, a removed attribute restarting from 0 with both
colours written again, 256 colours as 38;5;N, ESC and `\\` escaped by -C, trailing
spaces dropped after the last sequence too unless -N or -J."""

from __future__ import annotations

import pytest

from tests.conftest import BothServers, wait_until

PROGRAM = (
    "printf '\\033[31mred\\nstill\\033[0m plain \\033[1;4mbu\\033[22mu\\033[0m\\n"
    "\\033[38;5;208mor\\033[48;2;1;2;3mrgb\\033[0m\\n"
    "\\033[44m  x   \\033[0m  \\n"
    "\\\\\\\\back \\033[2;3;5;7;9mall\\033[0m \\033[93;101mbright\\033[0m 日本\\n"
    "\\033[4:3mcurly\\033[0m %s end\\n'; exec sleep 1000" % ("w" * 36)
)
"""Colours of each kind, attributes set and dropped, a blank run with a background,
trailing spaces the program wrote, a backslash, a wide character, an underline style and
a line that wraps (for -J)."""

FLAGS = [["-e"], ["-e", "-C"], ["-e", "-N"], ["-N"], ["-C"], ["-e", "-J"], ["-J"],
         ["-e", "-S", "2", "-E", "3"]]


@pytest.fixture
def painted(both: BothServers) -> BothServers:
    for name in both.NAMES:
        done = both.run(name, "new-session", "-d", "-s", "c", "-x", "40", "-y", "10", PROGRAM)
        assert done.returncode == 0, (name, done.stderr)
        wait_until(lambda name=name: " end" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "c").stdout, what=f"{name}'s pane output")
    return both


@pytest.mark.parametrize("flags", FLAGS, ids=[" ".join(flags) for flags in FLAGS])
def test_capture_pane_writes_what_tmux_writes(painted: BothServers, flags: list[str]) -> None:
    seen = {name: painted.answers(name, ["capture-pane", "-p", "-t", "c", *flags])
            for name in painted.NAMES}
    assert seen["termhost"] == seen["tmux"]


def test_a_captures_the_main_screen_behind_the_alternate_one(both: BothServers) -> None:
    # tmux's saved_grid: -a is the main screen while a program has the alternate one;
    # without one, "no alternate screen" (status 1), or nothing with -q
    program = ("printf 'main \\033[32mscreen\\033[0m\\n\\033[?1049h\\033[Halternate'; "
               "exec sleep 1000")
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "m", "-x", "30", "-y", "4",
                        "sleep 1000").returncode == 0
        assert both.run(name, "new-session", "-d", "-s", "a", "-x", "30", "-y", "4",
                        program).returncode == 0
        wait_until(lambda name=name: "alternate" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "a").stdout, what=f"{name}'s alternate screen")
    for args in (["-a", "-t", "a"], ["-a", "-e", "-t", "a"], ["-a", "-t", "m"],
                 ["-a", "-q", "-t", "m"]):
        seen = {name: both.answers(name, ["capture-pane", "-p", *args]) for name in both.NAMES}
        assert seen["termhost"] == seen["tmux"], args
    assert both.answers("tmux", ["capture-pane", "-p", "-a", "-t", "m"])[0] == 1
