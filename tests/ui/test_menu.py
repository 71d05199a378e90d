"""display-menu as a user opens it: a tmux 3.3a client and a termhost client side by side
in an outer tmux, the same menu opened on both, what each draws compared cell for cell;
the keys it takes, and the command chosen run once it closes."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from prompt_toolkit.key_binding import KeyPress

from termhost.mux.style import Style
from termhost.ui.menu import Menu, MenuItem
from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer, agreed

COLS, ROWS = 80, 24
MENU = ["-T", "#[align=centre]Menu", "New window", "n", "new-window", "Kill", "k",
        "kill-pane", "", "-Disabled", "d", "", "Quit", "q", "detach"]


def attach(both: BothServers, outer: Outer) -> None:
    """A COLS x ROWS client of session s on each server, its pane empty."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-n", "w",
                        "sleep 1000").returncode == 0
        outer.show(name, CLIENTS[name], COLS, ROWS)
        wait_until(lambda name=name: "[s]" in screen(outer, name, status=True)[-1],  # type: ignore[misc]
                   PATIENCE, f"{name}'s client to draw")


def screen(outer: Outer, name: str, *, status: bool = False, colours: bool = False
           ) -> list[str]:
    """What `name`'s client shows, its status line (with the clock) left out."""
    flags = ["-p", "-e"] if colours else ["-p"]
    lines = outer.run("capture-pane", *flags, "-t", name).rstrip("\n").split("\n")
    return [line.rstrip() for line in (lines if status else lines[:-1])]


@contextmanager
def opened(both: BothServers, name: str, *args: str) -> Iterator[subprocess.Popen[bytes]]:
    """`name`'s command line running (display-menu waits for its menu to close)."""
    running = subprocess.Popen([*both.programs[name], *args], env=both.env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        yield running
    finally:
        running.kill()
        running.wait()


def agree(outer: Outer, what: str, colours: bool = False) -> list[str]:
    """Both clients' screens, once termhost's is tmux's (the assertion shows both)."""
    return agreed(lambda name: screen(outer, name, colours=colours), what,
                  lambda lines: any("┌" in line for line in lines))


@pytest.mark.parametrize("place", [
    ["-x", "C", "-y", "C"], [], ["-x", "R", "-y", "P"], ["-x", "5", "-y", "3"],
    ["-x", "#{e|+:1,2}", "-y", "1"], ["-x", "300", "-y", "300"],
    ["-x", "#{popup_pane_top}", "-y", "#{popup_width}"],
])
def test_the_menu_is_drawn_where_and_as_tmux_draws_it(both: BothServers, outer: Outer,
                                                      place: list[str]) -> None:
    """screen_write_menu: a box the widest item and 4 wide, the title a format over its
    top line, each item's key in brackets at the right, a separator joined to the sides,
    a disabled item shown without its `-` or key; the first item selected. -x is the
    left column and -y the bottom row, numbers or position words (C centre, R the
    pane's right, P its left and bottom) or formats of the popup_* variables, the box
    kept on the terminal."""
    attach(both, outer)
    with opened(both, "tmux", "display-menu", *place, *MENU), \
            opened(both, "termhost", "display-menu", *place, *MENU):
        agree(outer, f"the menu at {place}")
        agree(outer, "the first item selected, in mode-style", colours=True)


def selected_row(outer: Outer, name: str) -> int:
    """The row drawn in mode-style (black on yellow)."""
    rows = [y for y, line in enumerate(screen(outer, name, colours=True)) if "43m" in line]
    return rows[0] if rows else -1


def test_up_and_down_skip_separators_and_disabled_items_round_the_ends(
        both: BothServers, outer: Outer) -> None:
    """Down and Up (and j, and k where no item has it) move to the next item that can
    be chosen, round the ends; q closes the menu and the command returns."""
    attach(both, outer)
    menus = {name: subprocess.Popen([*both.programs[name], "display-menu", *MENU],
                                    env=both.env) for name in both.NAMES}
    try:
        agree(outer, "both menus")
        for key in ["Down", "Down", "Down", "Up", "Up", "j"]:
            for name in both.NAMES:
                outer.run("send-keys", "-t", name, key)
            wait_until(lambda: selected_row(outer, "termhost") == selected_row(outer, "tmux"),
                       PATIENCE, f"the same item selected after {key}")
        for name in both.NAMES:
            outer.run("send-keys", "-t", name, "q")
            assert menus[name].wait(timeout=30) == 0
        wait_until(lambda: not any("┌" in line for line in screen(outer, "termhost")),
                   PATIENCE, "the menu gone")
    finally:
        for menu in menus.values():
            menu.kill()
            menu.wait()


def test_an_items_key_chooses_it_and_its_command_runs_for_the_target(
        both: BothServers, outer: Outer) -> None:
    """The item's key chooses it at once (before j and k move); its command (a format,
    expanded when the menu opens) runs after the menu closed, for -t's pane."""
    attach(both, outer)
    for name in both.NAMES:
        with opened(both, name, "display-menu", "-t", "s:w", "Rename", "k",
                    "rename-window 'was #{window_name}'") as menu:
            wait_until(lambda name=name: any("Rename (k)" in line  # type: ignore[misc]
                                             for line in screen(outer, name)),
                       PATIENCE, f"{name}'s menu")
            outer.run("send-keys", "-t", name, "k")
            assert menu.wait(timeout=30) == 0
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "s", "#W").stdout == "was w\n",
            PATIENCE, f"{name}'s window renamed")


def test_enter_chooses_the_selected_item(both: BothServers, outer: Outer) -> None:
    """Enter runs the selected item's command (here the second, after Down)."""
    attach(both, outer)
    for name in both.NAMES:
        with opened(both, name, "display-menu", "One", "1", "rename-window one",
                    "Two", "2", "rename-window two") as menu:
            wait_until(lambda name=name: any("Two (2)" in line  # type: ignore[misc]
                                             for line in screen(outer, name)),
                       PATIENCE, f"{name}'s menu")
            outer.run("send-keys", "-t", name, "Down", "Enter")
            assert menu.wait(timeout=30) == 0
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "s", "#W").stdout == "two\n",
            PATIENCE, f"{name}'s window renamed")


@pytest.mark.parametrize("args", [
    ["A", "a"], ["A"], ["-c", "/dev/nonexistent", "A", "a", ""], [""],
    ["#{?0,x,}", "a", ""],
])
def test_arguments_it_refuses_or_shows_nothing_for(both: BothServers, outer: Outer,
                                                   args: list[str]) -> None:
    """An item needs a name, a key and a command (`not enough arguments`); -c names a
    client; a menu with no items (only separators, or names that expand to nothing)
    is not shown and the command returns at once."""
    attach(both, outer)
    answers = {name: both.answers(name, ["display-menu", *args]) for name in both.NAMES}
    assert answers["termhost"] == answers["tmux"]


def test_with_no_client_attached_there_is_no_current_client(both: BothServers) -> None:
    """From a script with nobody attached: tmux's `no current client`."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s").returncode == 0
    answers = {name: both.answers(name, ["display-menu", "A", "a", ""]) for name in both.NAMES}
    assert answers["termhost"] == answers["tmux"] == (1, "", "no current client\n")


def press(menu: Menu, *names: str) -> None:
    for name in names:
        menu.press(KeyPress("x", ""), name)  # a menu goes by the key's name


def test_page_keys_move_five_and_stop_at_the_ends() -> None:
    """PageDown (G) and PageUp (g) move five items, stopping at the ends and going on
    past one that cannot be chosen, as tmux 3.3a's menu."""
    async def scenario() -> None:
        items = [MenuItem(f"I{n}", str(n)) for n in range(9)]
        items[5] = MenuItem("-off")
        menu = Menu(items, "", Style())
        press(menu, "PageDown")
        assert menu.choice == 6
        press(menu, "G")
        assert menu.choice == 8
        press(menu, "g", "PageUp")
        assert menu.choice == 0
        press(menu, "x", "End", "Home")  # no key of the menu's
        assert menu.choice == 0 and not menu.closed.done()
        press(menu, "C-g")
        assert await menu.closed is None

    asyncio.run(scenario())
