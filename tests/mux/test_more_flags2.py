"""switch-client -E -r -Z -F, display-panes -b -N, copy-mode -e -H -s and resize-pane -T,
compared with a live tmux 3.3a; the clients each server draws on are real ones, in an
outer tmux (tests/ui/outer_tmux.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEADLINE, BothServers, wait_until
from tests.ui.outer_tmux import Outer, attach_both


@pytest.fixture
def outer(tmp_path: Path, both: BothServers) -> Iterator[Outer]:
    """The outer terminal; its clients have FOO=bar in their environment, for
    update-environment to copy."""
    terminal = Outer(tmp_path, {**both.env, "FOO": "bar"})
    yield terminal
    terminal.kill()


def steps_agree(both: BothServers, steps: list[tuple[list[str], list[str]]]) -> None:
    """Each step run in both, then its observation: the same status, output and error
    in both, tmux's being the reference."""
    for step, observe in steps:
        seen = {name: (both.answers(name, step), both.answers(name, observe))
                for name in both.NAMES}
        assert seen["termhost"] == seen["tmux"], (step, observe)


ZOOM = ["display", "-p", "-t", "t", "#{window_zoomed_flag} #{pane_index}"]
READ_ONLY = ["list-clients", "-F",
             "#{client_readonly} #{?#{m:*ignore-size*,#{client_flags}},ignore-size,}"]


def test_switch_client_flags_as_tmux(both: BothServers, outer: Outer) -> None:
    """tmux 3.3a's switch-client: the session switched to takes update-environment's
    variables from the client's environment, not with -E; -r toggles the client
    read-only and ignore-size together; -Z keeps a zoomed window zoomed when the pane
    switched to is another one (without it, the window unzooms); -F is taken and does
    nothing (it is in 3.3a's getopt string, "lc:EFnpt:rT:Z", though not in its usage)."""
    attach_both(both, outer)
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "t", "sleep 1000", ";",
                        "set", "-g", "update-environment", "FOO", ";",
                        "split-window", "-d", "-t", "t", "sleep 1000").returncode == 0
    steps_agree(both, [
        (["switch-client", "-E", "-t", "t"], ["show-environment", "-t", "t", "FOO"]),
        (["switch-client", "-t", "s"], ["show-environment", "-t", "t", "FOO"]),
        (["switch-client", "-t", "t"], ["show-environment", "-t", "t", "FOO"]),
        (["switch-client", "-r"], READ_ONLY),
        (["switch-client", "-r"], READ_ONLY),
        (["switch-client", "-F"], READ_ONLY),
        (["resize-pane", "-Z", "-t", "t:0.0"], ZOOM),
        (["switch-client", "-Z", "-t", "t:0.1"], ZOOM),
        (["switch-client", "-t", "t:0.0"], ZOOM),
        (["resize-pane", "-Z", "-t", "t:0.0"], ZOOM),
        (["switch-client", "-Z", "-t", "t:0.0"], ZOOM),
        (["switch-client", "-t", "t:0.1"], ZOOM),
    ])


def _split(outer: Outer, name: str) -> str:
    """What the client shows once the split's border is drawn."""
    def drawn() -> str:
        shown = outer.run("capture-pane", "-p", "-t", name)
        return shown if "─" in shown else ""

    return wait_until(drawn, what=f"{name}'s client to draw the split")


def _numbers_shown(outer: Outer, name: str, before: str) -> None:
    wait_until(lambda: outer.run("capture-pane", "-p", "-t", name) != before,
               what=f"{name}'s client to show the pane numbers")


def test_display_panes_waits_unless_b(both: BothServers, outer: Outer) -> None:
    """tmux 3.3a's display-panes waits until the numbers are hidden (here -d 0: until a
    key, and the digit selects that pane); -b returns at once, the numbers still shown
    and a digit still selecting."""
    attach_both(both, outer)
    for name in both.NAMES:
        assert both.run(name, "split-window", "-d", "-t", "s", "cat").returncode == 0
        before = _split(outer, name)
        waiting = subprocess.Popen([*both.programs[name], "display-panes", "-d", "0"],
                                   env=both.env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        try:
            _numbers_shown(outer, name, before)
            assert waiting.poll() is None, f"{name}'s display-panes did not wait"
            outer.run("send-keys", "-t", name, "1")
            assert waiting.communicate(timeout=DEADLINE) == ("", "")
        finally:
            if waiting.poll() is None:
                waiting.kill()
                waiting.wait()
        assert waiting.returncode == 0
        assert both.run(name, "display", "-p", "#{pane_index}").stdout == "1\n"
        before = outer.run("capture-pane", "-p", "-t", name)
        assert both.answers(name, ["display-panes", "-b", "-d", "0"]) == (0, "", "")
        _numbers_shown(outer, name, before)
        outer.run("send-keys", "-t", name, "0")
        wait_until(lambda name=name: both.run(name, "display", "-p", "#{pane_index}").stdout
                   == "0\n", what=f"{name}'s digit to select pane 0")  # type: ignore[misc]


def test_display_panes_N_lets_keys_through(both: BothServers, outer: Outer) -> None:
    """tmux 3.3a's display-panes -N: a digit typed while the numbers are shown selects
    nothing; it goes to the active pane as any key does."""
    attach_both(both, outer)
    for name in both.NAMES:
        assert both.run(name, "respawn-pane", "-k", "-t", "s", "cat", ";",
                        "split-window", "-d", "-t", "s", "cat").returncode == 0
        before = _split(outer, name)
        assert both.answers(name, ["display-panes", "-b", "-N", "-d", "100000"]) == \
            (0, "", "")
        _numbers_shown(outer, name, before)
        outer.run("send-keys", "-t", name, "1")
        wait_until(lambda name=name: "1" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s:w.0").stdout, what=f"{name}'s pane 0 to echo")
        assert both.run(name, "display", "-p", "#{pane_index}").stdout == "0\n"


COPY = ["display", "-p", "-t", "s:0.1",
        "#{pane_in_mode} #{scroll_position} #{copy_cursor_x},#{copy_cursor_y}"]
SCROLL = ["display", "-p", "-t", "s:0.0", "#{pane_in_mode} #{scroll_position}"]


def _panes_with_history(both: BothServers) -> None:
    """Session s: pane 0 with 41 lines of history (50 lines in 10 rows), pane 1 with 6
    lines, both of a width."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "40", "-y", "20",
                        "seq 1 50; cat", ";", "split-window", "-d", "-t", "s",
                        "seq 100 105; cat").returncode == 0
        for pane, last in (("s:0.0", "50"), ("s:0.1", "105")):
            wait_until(lambda name=name, pane=pane, last=last: last in both.run(  # type: ignore[misc]
                name, "capture-pane", "-p", "-t", pane).stdout, what=f"{name}'s {pane}")


def test_copy_mode_s_shows_another_panes_lines(both: BothServers) -> None:
    """tmux 3.3a's copy-mode -s: the target pane in copy mode over the source pane's
    history and screen, its blank lines at the bottom left out and the cursor on the
    last line left (window_copy_clone_screen), the view at the bottom; what it copies is
    the source's text."""
    _panes_with_history(both)
    both.after_each([
        ["copy-mode", "-s", "s:0.0", "-t", "s:0.1"],
        ["send", "-X", "-t", "s:0.1", "history-top"],
        ["send", "-X", "-t", "s:0.1", "select-line"],
        ["send", "-X", "-t", "s:0.1", "copy-selection-and-cancel"],
        ["copy-mode", "-s", "s:0.0", "-t", "s:0.1"],
        ["send", "-X", "-t", "s:0.1", "select-line"],
        ["send", "-X", "-t", "s:0.1", "copy-selection-and-cancel"],
    ], COPY)
    for name in both.NAMES:
        assert both.run(name, "list-buffers", "-F", "#{buffer_sample}").stdout == "50\n1\n"


def test_copy_mode_e_leaves_at_the_bottom(both: BothServers) -> None:
    """tmux 3.3a's copy-mode -e: scroll-down, page-down and halfpage-down that reach the
    bottom leave copy mode (one already there at once); cursor-down does not; copy-mode
    -e on a pane already in copy mode changes nothing, and copy-mode without it keeps
    the -e of the one that entered it."""
    _panes_with_history(both)
    scroll = ["send", "-X", "-t", "s:0.0"]
    both.after_each([
        ["copy-mode", "-e", "-t", "s:0.0"], [*scroll, "scroll-up"], [*scroll, "scroll-up"],
        [*scroll, "scroll-down"], [*scroll, "scroll-down"],
        ["copy-mode", "-e", "-t", "s:0.0"], [*scroll, "scroll-down"],
        ["copy-mode", "-e", "-t", "s:0.0"], [*scroll, "page-up"], [*scroll, "page-down"],
        ["copy-mode", "-e", "-t", "s:0.0"], [*scroll, "page-up"],
        [*scroll, "halfpage-down"], [*scroll, "halfpage-down"],
        ["copy-mode", "-e", "-t", "s:0.0"], [*scroll, "scroll-up"],
        [*scroll, "cursor-down"], [*scroll, "cursor-down"], [*scroll, "cancel"],
        ["copy-mode", "-t", "s:0.0"], [*scroll, "scroll-up"], ["copy-mode", "-e", "-t", "s:0.0"],
        [*scroll, "scroll-down"], [*scroll, "cancel"],
        ["copy-mode", "-e", "-t", "s:0.0"], [*scroll, "scroll-up"], ["copy-mode", "-t", "s:0.0"],
        [*scroll, "scroll-down"],
    ], SCROLL)


def test_copy_mode_H_hides_the_position(both: BothServers, outer: Outer) -> None:
    """tmux 3.3a's copy-mode -H: no `[0/0]` in the pane's top right corner, as there is
    without it; still hidden after the pane is resized (a split)."""
    attach_both(both, outer)

    def top(name: str) -> str:
        return outer.run("capture-pane", "-p", "-t", name).split("\n")[0].rstrip()

    for name in both.NAMES:
        assert both.run(name, "copy-mode", "-t", "s").returncode == 0
        wait_until(lambda name=name: top(name).endswith("[0/0]"),  # type: ignore[misc]
                   what=f"{name}'s position indicator")
        assert both.run(name, "send", "-X", "-t", "s", "cancel", ";", "copy-mode", "-H",
                        "-t", "s", ";", "split-window", "-d", "-t", "s").returncode == 0
        _split(outer, name)
        assert "[" not in top(name), name


def test_resize_pane_T_trims_below_the_cursor(both: BothServers) -> None:
    """tmux 3.3a's resize-pane -T: the lines below the cursor (written ones too) go, as
    many history lines come back in at the top, the cursor moving down with its line;
    the adjustment is not read; with no history left, or the cursor on the last line,
    nothing changes; a pane in a mode is left alone."""
    observe = ["display", "-p", "-t", "tall", "#{history_size} #{cursor_x},#{cursor_y}"]
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "tall", "-x", "40", "-y", "10",
                        r"seq 1 20; printf '\033[5;1H'; cat", ";", "new-session", "-d",
                        "-s", "low", "-x", "40", "-y", "10",
                        r"seq 1 3; printf '\033[2;1H'; cat").returncode == 0
        for session, last in (("tall", "20"), ("low", "3")):
            wait_until(lambda name=name, session=session, last=last: last in both.run(  # type: ignore[misc]
                name, "capture-pane", "-p", "-t", session).stdout, what=f"{name}'s {session}")
    both.after_each([["resize-pane", "-T", "-t", "tall", "foo"],
                     ["resize-pane", "-T", "-t", "tall"]], observe)
    both.after_each([["resize-pane", "-T", "-t", "low"]],
                    ["capture-pane", "-p", "-t", "low"])
    for name in both.NAMES:
        assert both.run(name, "send-keys", "-t", "tall", "-l", "x").returncode == 0
        wait_until(lambda name=name: "x6" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "tall").stdout, what=f"{name}'s echo")
        # the line ends: the terminal's echo, then cat's copy of it, before a trim
        assert both.run(name, "send-keys", "-t", "tall", "Enter").returncode == 0
        wait_until(lambda name=name: "x6\nx\n" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "tall").stdout, what=f"{name}'s line")
    both.after_each([["copy-mode", "-t", "tall"],
                     ["resize-pane", "-T", "-t", "tall"], ["send", "-X", "-t", "tall", "cancel"],
                     ["resize-pane", "-T", "-t", "tall"]],
                    ["capture-pane", "-p", "-t", "tall"])
