"""The mouse through key bindings, as tmux 3.3a has it: a tmux client and a termhost client
side by side in an outer tmux, the same mouse reports typed into both (SGR, as a terminal
sends them), and what each then shows or did compared. The default root and copy-mode
bindings are tmux's (`select-pane -t = \\; send-keys -M`, `copy-mode -M`, `resize-pane
-M`...), so these pin send-keys -M, copy-mode -M, resize-pane -M and `-t =` as much as
the keys themselves."""

from __future__ import annotations

import pytest

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer, agreed

WIDTH, HEIGHT = 80, 24
MOUSE_APP = "printf '\\033[?1000h\\033[?1006h'; stty -icanon -echo; echo ready; exec cat -v"
"""An application that asks for the mouse (1000, SGR) and shows what it gets; `ready`
once its terminal neither echoes nor waits for a line (a report typed before would be
echoed by the line discipline)."""
LINES = "seq 1 100; exec cat"


def _attach(both: BothServers, outer: Outer, *steps: list[str]) -> None:
    """Session s: the application on the left, numbered lines on the right (active),
    the mouse on; a client of each server drawn."""
    for name in both.NAMES:
        for step in [["new-session", "-d", "-s", "s", "-n", "w", "-x", str(WIDTH), "-y",
                      str(HEIGHT - 1), MOUSE_APP],
                     ["new-window", "-d", "-t", "s:", "-n", "v", "cat"],
                     ["split-window", "-h", "-t", "s:0", LINES],
                     ["set", "-g", "mouse", "on"], ["set", "-g", "status-right", "R"],
                     ["set", "-g", "assume-paste-time", "0"], *steps]:
            done = both.run(name, *step)
            assert done.returncode == 0, (name, step, done.stderr)
        outer.show(name, CLIENTS[name], WIDTH, HEIGHT)
        wait_until(lambda name=name: "[s]" in _screen(outer, name)[-1],  # type: ignore[misc]
                   PATIENCE, f"{name}'s client to draw")
        wait_until(lambda name=name: "ready" in _screen(outer, name)[0],  # type: ignore[misc]
                   PATIENCE, f"{name}'s application to start")


def _screen(outer: Outer, name: str) -> list[str]:
    return outer.run("capture-pane", "-p", "-t", name).rstrip("\n").split("\n")


def _mouse(outer: Outer, code: int, x: int, y: int, *, release: bool = False) -> None:
    """A report at client cell (x, y), 0-based, typed into both clients."""
    report = f"\x1b[<{code};{x + 1};{y + 1}{'m' if release else 'M'}"
    for name in CLIENTS:
        outer.run("send-keys", "-t", name, "-H", *(f"{byte:02x}" for byte in report.encode()))


def _same(both: BothServers, *args: str) -> str:
    """What both servers answer to `args`, once they agree (the mouse's commands run
    a moment after the report)."""
    return "\n".join(agreed(lambda name: both.run(name, *args).stdout.splitlines(),
                            " ".join(args)))


def test_a_click_selects_the_pane_and_reaches_the_application(both: BothServers,
                                                               outer: Outer) -> None:
    """MouseDown1Pane: `select-pane -t =` (the pane under the mouse) then `send-keys
    -M`, which gives the press to the application in the encoding it asked for; the
    release (MouseUp1Pane, bound to nothing) goes to it too."""
    _attach(both, outer)
    _mouse(outer, 0, 5, 3)
    _mouse(outer, 0, 5, 3, release=True)
    agreed(lambda name: both.run(name, "capture-pane", "-p", "-t", "s:0.0").stdout.split(),
           "the click in the application", lambda words: "^[[<0;6;4M^[[<0;6;4m" in words)
    assert _same(both, "display", "-p", "-t", "s", "#{pane_index}") == "0"


def test_the_wheel_enters_copy_mode_scrolls_and_leaves_at_the_bottom(
        both: BothServers, outer: Outer) -> None:
    """WheelUpPane: `copy-mode -e` over a pane that did not ask for the mouse; in copy
    mode the copy-mode table's WheelUpPane / WheelDownPane scroll five lines (`send -X
    -N 5`), and -e leaves copy mode back at the bottom."""
    _attach(both, outer)
    steps = [(64, "[0/"), (64, "[5/"), (64, "[10/"), (65, "[5/"), (65, "[0/"), (65, None)]
    for code, indicator in steps:
        _mouse(outer, code, 60, 10)
        agreed(lambda name: _screen(outer, name), f"the wheel ({code}): {indicator}",
               lambda lines, wanted=indicator: (wanted or "[") in lines[0] if wanted
               else "[" not in lines[0])


def test_a_wheel_binding_of_ones_own_gives_the_wheel_to_the_application(
        both: BothServers, outer: Outer) -> None:
    """`bind -n WheelUpPane if -F '#{mouse_any_flag}' 'send -M' 'copy-mode -e'`: over
    the application that asked for the mouse, send -M hands it the wheel."""
    _attach(both, outer, ["bind", "-n", "WheelUpPane", "if", "-F", "#{mouse_any_flag}",
                          "send -M", "copy-mode -e"])
    _mouse(outer, 64, 3, 4)
    agreed(lambda name: both.run(name, "capture-pane", "-p", "-t", "s:0.0").stdout.split(),
           "the wheel in the application", lambda words: "^[[<64;4;5M" in words)


def test_a_drag_selects_and_copies_and_a_border_drag_resizes(both: BothServers,
                                                            outer: Outer) -> None:
    """MouseDrag1Pane over a pane that did not ask for the mouse: `copy-mode -M`, the
    selection following the drag, copied on release (copy mode's MouseDragEnd1Pane:
    copy-pipe-and-cancel). MouseDrag1Border: `resize-pane -M`, the border following."""
    _attach(both, outer)
    _mouse(outer, 0, 41, 2)  # on the third row of the right pane
    _mouse(outer, 32, 42, 3)
    _mouse(outer, 32, 41, 5)
    _mouse(outer, 0, 41, 5, release=True)
    assert _same(both, "show-buffer") == "81\n82\n83"  # rows 2 to 5, the last cell out
    left = int(_same(both, "display", "-p", "-t", "s:0.0", "#{pane_width}"))
    _mouse(outer, 0, left, 8)  # the border
    _mouse(outer, 32, left + 3, 8)
    _mouse(outer, 32, left + 6, 9)
    _mouse(outer, 0, left + 6, 9, release=True)
    assert _same(both, "display", "-p", "-t", "s:0.0", "#{pane_width}") == str(left + 6)


def test_a_double_click_copies_the_word(both: BothServers, outer: Outer) -> None:
    """DoubleClick1Pane (a second press within tmux's 300 ms): copy-mode -H, the cursor
    to the mouse, select-word, and the word copied 0.3 seconds later."""
    _attach(both, outer, ["send-keys", "-t", "s:0.1", "-l", "alpha beta gamma"])
    wait_until(lambda: all("alpha beta gamma" in "\n".join(_screen(outer, name))
                           for name in CLIENTS), PATIENCE, "the words on both")
    row = next(y for y, line in enumerate(_screen(outer, "tmux")) if "alpha beta" in line)
    column = _screen(outer, "tmux")[row].index("beta") + 1
    for _ in range(2):
        _mouse(outer, 0, column, row)
        _mouse(outer, 0, column, row, release=True)
    copied = agreed(lambda name: both.run(name, "show-buffer").stdout.splitlines(),
                    "the word copied", lambda lines: lines != [])
    assert copied == ["beta"]


def test_the_status_line_selects_windows(both: BothServers, outer: Outer) -> None:
    """MouseDown1Status: `select-window -t =` (the window whose name was clicked);
    WheelUpStatus and WheelDownStatus, over a window's name: previous-window and
    next-window; elsewhere on the line (StatusDefault) nothing."""
    _attach(both, outer)
    status = _screen(outer, "tmux")[-1]
    _mouse(outer, 0, status.index("1:v"), HEIGHT - 1)
    assert _same(both, "display", "-p", "-t", "s", "#{window_index}") == "1"
    _mouse(outer, 64, 40, HEIGHT - 1)  # no window's name there: WheelUpStatusDefault
    _mouse(outer, 64, status.index("0:w"), HEIGHT - 1)
    assert _same(both, "display", "-p", "-t", "s", "#{window_index}") == "0"
    _mouse(outer, 65, status.index("0:w"), HEIGHT - 1)
    assert _same(both, "display", "-p", "-t", "s", "#{window_index}") == "1"


@pytest.mark.parametrize("args", [
    ["send-keys", "-M"], ["send-keys", "-M", "-t", "s", "x"], ["copy-mode", "-M"],
    ["resize-pane", "-M"], ["select-window", "-t", "="], ["select-pane", "-t", "{mouse}"],
    ["display-message", "-p", "-t", "=", "x"],
])
def test_without_a_mouse_event(both: BothServers, args: list[str]) -> None:
    """From the command line there is no mouse event: send-keys -M and a `=` target
    are `no mouse target`; copy-mode -M and resize-pane -M do nothing, successfully; a
    verb whose target may fail goes on without one."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s").returncode == 0
    answers = {name: both.answers(name, args) for name in both.NAMES}
    assert answers["termhost"] == answers["tmux"]
    assert both.run("termhost", "display", "-p", "-t", "s", "#{pane_in_mode}").stdout == "0\n"


def test_the_default_mouse_bindings_are_tmuxs(both: BothServers) -> None:
    """list-keys prints the root table's and copy mode's mouse keys as tmux 3.3a binds
    them."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s").returncode == 0
    for table in ("root", "copy-mode", "copy-mode-vi"):
        listed = {name: [line for line in both.run(name, "list-keys", "-T", table
                                                   ).stdout.splitlines()
                         if "Mouse" in line or "Wheel" in line or "Click" in line]
                  for name in both.NAMES}
        assert listed["termhost"] == listed["tmux"], table


MENU = ["One", "1", "set -g @chosen one", "Two", "2", "set -g @chosen two"]


def _menu_shown(outer: Outer) -> bool:
    return all(any("┌" in line for line in _screen(outer, name)) for name in CLIENTS)


def _chosen(both: BothServers) -> str:
    return _same(both, "show", "-gqv", "@chosen")


@pytest.mark.parametrize("stay_open", [False, True], ids=["", "-O"])
def test_a_menu_from_the_mouse_is_chosen_by_dragging_to_an_item(
        both: BothServers, outer: Outer, stay_open: bool) -> None:
    """tmux's menu_key_cb: a menu a mouse key opened (-x M -y M: its top border on the
    mouse's row) selects the item under the mouse as it drags, and the release there
    chooses it, with -O too."""
    _attach(both, outer, ["bind", "-n", "MouseDown3Pane", "display-menu",
                          *(["-O"] if stay_open else []), "-x", "M", "-y", "M", *MENU])
    _mouse(outer, 2, 10, 5)
    wait_until(lambda: _menu_shown(outer), PATIENCE, "both menus")
    _mouse(outer, 34, 10, 7)  # dragging the right button onto Two
    _mouse(outer, 2, 10, 7, release=True)
    assert _chosen(both) == "two"


@pytest.mark.parametrize("stay_open", [False, True], ids=["", "-O"])
def test_o_keeps_the_menu_open_when_the_button_is_released(
        both: BothServers, outer: Outer, stay_open: bool) -> None:
    """Without -O the button's release off the items (on the top border, where -y M
    puts the mouse) closes the menu, nothing chosen; with -O the menu stays, and a
    click chooses the item the pointer moved onto."""
    _attach(both, outer, ["bind", "-n", "MouseDown3Pane", "display-menu",
                          *(["-O"] if stay_open else []), "-x", "M", "-y", "M", *MENU])
    _mouse(outer, 2, 10, 5)
    wait_until(lambda: _menu_shown(outer), PATIENCE, "both menus")
    _mouse(outer, 2, 10, 5, release=True)
    shown = agreed(lambda name: _screen(outer, name), "the menu after the release")
    assert any("┌" in line for line in shown) == stay_open
    if stay_open:
        _mouse(outer, 35, 10, 6)  # the pointer onto One (the menu asks for every motion)
        _mouse(outer, 0, 10, 6)  # and a click there
        assert _chosen(both) == "one"
    else:
        assert _chosen(both) == ""


def test_a_menu_from_the_keyboard_is_closed_by_the_mouse(both: BothServers,
                                                         outer: Outer) -> None:
    """MENU_NOMOUSE: a menu no mouse key opened takes the left button's press for
    nothing and closes on its release, nothing chosen."""
    _attach(both, outer, ["bind", "-n", "F5", "display-menu", "-x", "5", "-y", "10", *MENU])
    for name in CLIENTS:
        outer.run("send-keys", "-t", name, "F5")
    wait_until(lambda: _menu_shown(outer), PATIENCE, "both menus")
    _mouse(outer, 0, 8, 7)  # the left button on One: nothing yet
    assert all(any("┌" in line for line in _screen(outer, name)) for name in CLIENTS)
    _mouse(outer, 0, 8, 7, release=True)
    shown = agreed(lambda name: _screen(outer, name), "the menu closed",
                   lambda lines: not any("┌" in line for line in lines))
    assert not any("┌" in line for line in shown)
    assert _chosen(both) == ""
