"""display-popup as a user opens it: a tmux 3.3a client and a termhost client side by side
in an outer tmux, the same popup opened on both, the box and what its program shows
compared cell for cell; the keys it takes, how it closes, and what the command returns.
And one opened from a shell inside a session, on the client that shows it."""

from __future__ import annotations

import asyncio
import re
import sys

import pytest

from tests.conftest import DEADLINE, BothServers, wait_until
from tests.ui.outer import client
from tests.ui.outer_tmux import PATIENCE, Outer, agreed
from tests.ui.outer_tmux import screen as coloured
from tests.ui.test_menu import attach, opened, screen


@pytest.mark.parametrize("args", [
    [], ["-w", "80%", "-h", "80%"], ["-w", "10", "-h", "4", "-x", "0", "-y", "10"],
    ["-B", "-w", "50%", "-h", "80%", "-x", "0", "-y", "0"],
    ["-w", "20", "-h", "5", "-x", "R", "-y", "S", "-T", "#[align=centre]Title #S"],
    ["-w", "20", "-h", "4", "-T", "#[align=right]Right", "-b", "rounded"],
    ["-w", "10", "-h", "4", "-b", "double"], ["-b", "none", "-h", "4", "-w", "9"],
])
def test_the_popup_is_the_size_and_in_the_place_tmux_gives_it(both: BothServers, outer: Outer,
                                                               args: list[str]) -> None:
    """-w and -h (cells or a percentage of the terminal; half of it by default) are the
    box's, border included; -x/-y place it as display-menu's do; the program's terminal
    is the inside of the border (-B, or popup-border-lines none: all of it); -T is a
    title over the top line; -b the border's lines."""
    attach(both, outer)
    program = "printf 'S%s' \"$(stty size | tr ' ' x)\"; sleep 1000"  # S<rows>x<cols>
    with opened(both, "tmux", "display-popup", *args, program), \
            opened(both, "termhost", "display-popup", *args, program):
        def sized(name: str) -> bool:
            return any(re.search(r"S\d+x\d+", line) for line in screen(outer, name))

        wait_until(lambda: sized("tmux") and sized("termhost"), PATIENCE, "both popups")
        assert screen(outer, "termhost") == screen(outer, "tmux")


def test_with_e_it_closes_when_the_program_exits_and_returns_its_status(
        both: BothServers, outer: Outer) -> None:
    """-E: the popup closes when its program exits; -EE only when it succeeded, a
    failed program's popup staying until C-c. However it closed, the command exits with
    the program's status (129, SIGHUP's, for one still running when -C closed it), as
    tmux's."""
    attach(both, outer)
    for name in both.NAMES:
        assert both.run(name, "display-popup", "-E", "exit 3").returncode == 3
        assert both.run(name, "display-popup", "-EE", "exit 0").returncode == 0
        for program, status in [("echo failed; exit 1", 1), ("echo failed; sleep 1000", 129)]:
            with opened(both, name, "display-popup", "-EE", program) as popup:
                wait_until(lambda name=name: any("│failed" in line  # type: ignore[misc]
                                                 for line in screen(outer, name)),
                           PATIENCE, f"{name}'s failed program's popup")
                assert popup.poll() is None
                if status == 129:  # still running: C-c would be the program's
                    assert both.run(name, "display-popup", "-C").returncode == 0
                else:
                    outer.run("send-keys", "-t", name, "C-c")
                assert popup.wait(timeout=30) == status


def test_keys_go_to_the_program_the_prefix_too(both: BothServers, outer: Outer) -> None:
    """Every key goes to the popup's program, the prefix and Escape too while a -E
    popup's program runs: `C-b c` makes no window."""
    attach(both, outer)
    for name in both.NAMES:
        with opened(both, name, "display-popup", "-E", "cat -v") as popup:
            wait_until(lambda name=name: any("┌" in line  # type: ignore[misc]
                                             for line in screen(outer, name)),
                       PATIENCE, f"{name}'s popup")
            outer.run("send-keys", "-t", name, "C-b", "c", "Escape", "x", "Enter")
            wait_until(lambda name=name: any("│^Bc^[x" in line  # type: ignore[misc]
                                             for line in screen(outer, name)),
                       PATIENCE, f"the keys in {name}'s popup")
            outer.run("send-keys", "-t", name, "C-d")
            assert popup.wait(timeout=30) == 0
        assert both.run(name, "display", "-p", "-t", "s", "#{session_windows}").stdout == "1\n"


@pytest.mark.parametrize("key", ["Escape", "C-c"])
def test_without_e_escape_and_c_c_close_it(both: BothServers, outer: Outer, key: str) -> None:
    """A popup that does not close on its program's exit closes on Escape or C-c, its
    program still running (then hung up: the command's status is 129); the panes are
    shown again."""
    attach(both, outer)
    for name in both.NAMES:
        with opened(both, name, "display-popup", "echo up; sleep 1000") as popup:
            wait_until(lambda name=name: any("│up" in line  # type: ignore[misc]
                                             for line in screen(outer, name)),
                       PATIENCE, f"{name}'s popup")
            outer.run("send-keys", "-t", name, key)
            assert popup.wait(timeout=30) == 129  # the program, still running, hung up
        wait_until(lambda name=name: not any("┌" in line  # type: ignore[misc]
                                             for line in screen(outer, name)),
                   PATIENCE, f"{name}'s popup gone")


def test_c_closes_the_popup_and_a_second_popup_is_not_opened(both: BothServers,
                                                             outer: Outer) -> None:
    """A client shows one popup at a time: another display-popup returns at once; -C
    closes the one shown."""
    attach(both, outer)
    for name in both.NAMES:
        with opened(both, name, "display-popup", "echo first; sleep 1000") as popup:
            wait_until(lambda name=name: any("│first" in line  # type: ignore[misc]
                                             for line in screen(outer, name)),
                       PATIENCE, f"{name}'s popup")
            assert both.run(name, "display-popup", "-E", "sleep 1000").returncode == 0
            assert both.run(name, "display-popup", "-C").returncode == 0
            assert popup.wait(timeout=30) == 129


@pytest.mark.parametrize(("options", "args"), [
    ([], ["-s", "bg=red"]),
    ([], ["-s", "fg=yellow,bg=blue,bold", "-S", "fg=green"]),
    ([], ["-S", "bg=magenta,reverse", "-b", "rounded"]),
    ([], ["-s", "bogus=1", "-S", "fg=nosuch"]),
    ([["set", "-g", "popup-style", "bg=cyan"], ["set", "-g", "popup-border-style", "fg=red"]],
     ["-s", "fg=black"]),
    ([["set", "-g", "popup-style", "bg=cyan"]], ["-B", "-s", "fg=default"]),
    ([["set", "-g", "popup-style", "bg=cyan"]], ["-B", "-s", "fg=red,bg=default"]),
], ids=["s", "s and S", "S", "invalid", "options under", "no border", "default"])
def test_s_and_big_s_colour_the_popup_and_its_border(both: BothServers, outer: Outer,
                                                     options: list[list[str]],
                                                     args: list[str]) -> None:
    """tmux 3.3a's popup_display: the popup's default colours are popup-style's, or
    -s's in their place (read from the default colours, `default` meaning the
    option's), the border's popup-border-style's or -S's; colours only (no
    attributes), a style that does not parse ignored; the border is not drawn in the
    popup's colours."""
    attach(both, outer)
    for name in both.NAMES:
        for step in options:
            assert both.run(name, *step).returncode == 0
    program = "printf 'plain \\033[31mred\\033[0m end'; sleep 1000"
    with opened(both, "tmux", "display-popup", "-w", "30", "-h", "6", *args, program), \
            opened(both, "termhost", "display-popup", "-w", "30", "-h", "6", *args, program):
        agreed(lambda name: coloured(outer, name), "the popups in the same colours",
               lambda lines: any("plain" in line for line in lines))


@pytest.mark.parametrize("args", [
    ["-w", "0"], ["-h", "0"], ["-h", "25"], ["-h", "24"], ["-w", "80%x"], ["-w", "101%"],
    ["-w", "-5"], ["-w", "abc"], ["-b", "foo"], ["-c", "nope"], ["-t", "%99"],
    ["-d", "/nonexistent"],
])
def test_sizes_and_targets_it_refuses(both: BothServers, outer: Outer, args: list[str]) -> None:
    """-w/-h out of 1 to the terminal's size (or past 100%), not numbers, an unknown -b,
    a client or pane that is not there: tmux's words; a -d that is no directory still
    opens the popup."""
    attach(both, outer)
    answers = {name: both.answers(name, ["display-popup", "-E", *args, "exit 0"])
               for name in both.NAMES}
    assert answers["termhost"] == answers["tmux"]


def test_with_no_client_attached_there_is_no_current_client(both: BothServers) -> None:
    """From a script with nobody attached: tmux's `no current client`."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s").returncode == 0
    answers = {name: both.answers(name, ["display-popup", "-E", "true"]) for name in both.NAMES}
    assert answers["termhost"] == answers["tmux"] == (1, "", "no current client\n")


def test_from_a_shell_in_a_session_it_opens_on_the_client_showing_it(
        env: dict[str, str]) -> None:
    """`termhost display-popup -E CMD` typed in a pane: the popup opens on the client of
    that pane's session, starts in -d's directory, and the command returns once it
    closed."""
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "work")
        await outer.see(lambda s: s[0].startswith("$"), "the prompt")
        line = f"{sys.executable} -m termhost display-popup -d /usr -E 'pwd; read x'"
        outer.type(line.encode() + b"; echo rc=$?\r")
        popup = await outer.see(lambda s: any("│/usr" in line for line in s), "the popup")
        assert popup[5].startswith(" " * 19 + "┌" + "─" * 38 + "┐")
        outer.type(b"\r")
        await outer.see(lambda s: any(line == "rc=0" for line in s) and not any(
            "┌" in line for line in s), "the popup gone and the command back")
        await asyncio.wait_for(outer.detach(), DEADLINE)

    asyncio.run(scenario())
