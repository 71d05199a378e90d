"""tmux as the outer terminal: the frame a person sees, read back from tmux's screen.

A private tmux server runs `termhost attach` in a session of COLS x ROWS; capture-pane
reads what tmux shows there (with -e its colours too, replayed by pyte), send-keys types
into it. tmux is a terminal nobody here wrote: what it shows is what termhost drew, not
what our own emulator (tests/ui/outer.py) makes of the bytes.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

import pyte
import pytest

from tests.conftest import DEADLINE, wait_until
from tests.ui.outer import termhost

COLS, ROWS = 100, 30
"""The outer terminal: tmux's pane, in which termhost's client runs."""
STATUS = ROWS - 1
"""termhost's status bar, the last row; the window gets the rows above it."""
BORDERS = frozenset("│─┼├┤┬┴")
"""What a border cell may show; where two borders meet, tmux draws a junction."""
BLACK_ON_YELLOW = ("black", "brown")
"""tmux's mode-style, as pyte names the colours (SGR 43 is "brown")."""

PATIENCE = 2 * DEADLINE
"""Seconds to wait for the screen: a key goes through tmux, the client's terminal and
termhost's server before the frame comes back the same way; a client starts Python."""

Screen = list[str]
"""tmux's pane as text: ROWS lines, each padded to COLS so that line[x] is cell x."""


class Geometry(NamedTuple):
    """A termhost pane's place in its window, as list-panes reports it."""

    left: int
    top: int
    width: int
    height: int

    def cells(self) -> set[tuple[int, int]]:
        return {(x, y) for y in range(self.top, self.top + self.height)
                for x in range(self.left, self.left + self.width)}

    def text(self, screen: Screen, row: int = 0) -> str:
        """Row `row` of this pane as the screen shows it."""
        return screen[self.top + row][self.left:self.left + self.width]


def geometry(env: dict[str, str], target: str = "work") -> list[Geometry]:
    listed = termhost(env, "list-panes", "-t", target, "-F",
                      "#{pane_left} #{pane_top} #{pane_width} #{pane_height}")
    return [Geometry(*map(int, line.split())) for line in listed.splitlines()]


def borders_match(screen: Screen, panes: list[Geometry]) -> bool:
    """Whether borders are drawn exactly where `panes` leave room for them: `│` left of
    a pane, `─` above one, some border glyph on every other cell no pane covers (a
    junction), and none inside a pane."""
    covered = set().union(*(pane.cells() for pane in panes))
    uncovered = {(x, y) for y in range(STATUS) for x in range(COLS)} - covered
    drawn = {(x, y) for y in range(STATUS) for x in range(COLS) if screen[y][x] in BORDERS}
    beside = all(screen[y][pane.left - 1] == "│" for pane in panes if pane.left
                 for y in range(pane.top, pane.top + pane.height))
    above = all(screen[pane.top - 1][x] == "─" for pane in panes if pane.top
                for x in range(pane.left, pane.left + pane.width))
    return drawn == uncovered and beside and above


class Tmux:
    """A private tmux server whose session `outer` runs a termhost client: its pane is the
    terminal a person looks at, capture-pane what they see, send-keys what they type."""

    def __init__(self, env: dict[str, str]) -> None:
        self._argv = ["tmux", "-L", f"termhost-outer-{uuid.uuid4().hex}", "-f", "/dev/null"]
        # Without TMUX: a test run inside tmux must not reach the user's server.
        self._env = {k: v for k, v in env.items() if not k.startswith("TMUX")}

    def run(self, *args: str) -> str:
        return subprocess.run([*self._argv, *args], env=self._env, capture_output=True,
                              text=True, timeout=DEADLINE, check=True).stdout

    def attach(self, session: str) -> None:
        """A client on termhost's `session` in a COLS x ROWS tmux pane."""
        client = shlex.join([sys.executable, "-m", "termhost", "attach", "-t", session])
        self.run("new-session", "-d", "-s", "outer", "-x", str(COLS), "-y", str(ROWS), client,
                 ";", "set", "-g", "remain-on-exit", "on")  # a client's last words stay

    def screen(self) -> Screen:
        lines = self.run("capture-pane", "-p", "-t", "outer").split("\n")[:ROWS]
        return [line.ljust(COLS) for line in lines]

    def cells(self) -> pyte.Screen:
        """The frame with its colours: capture-pane -e's text and SGR replayed by pyte."""
        shown = pyte.Screen(COLS, ROWS)
        captured = self.run("capture-pane", "-p", "-e", "-t", "outer")
        pyte.Stream(shown).feed(captured.removesuffix("\n").replace("\n", "\r\n"))
        return shown

    def colours(self, cells: Iterable[tuple[int, int]]) -> set[tuple[str, str]]:
        """The (foreground, background) pairs tmux shows on `cells`, in pyte's names."""
        buffer = self.cells().buffer
        return {(buffer[y][x].fg, buffer[y][x].bg) for x, y in cells}

    def see(self, condition: Callable[[Screen], bool], what: str) -> Screen:
        """The screen once `condition` holds of it; fails with the last one seen."""
        shown: Screen = []

        def seen() -> Screen | None:
            shown[:] = self.screen()
            return shown if condition(shown) else None

        try:
            return wait_until(seen, PATIENCE, what)
        except pytest.fail.Exception as timeout:
            last = "\n".join(line.rstrip() for line in shown)
            raise pytest.fail.Exception(f"{timeout.msg}; tmux showed:\n{last}") from None

    def keys(self, *keys: str) -> None:
        """Keys by tmux's names (C-b, M-w, Enter), typed into the client's terminal."""
        self.run("send-keys", "-t", "outer", *keys)

    def type(self, text: str) -> None:
        self.run("send-keys", "-t", "outer", "-l", text)

    def kill(self) -> None:
        subprocess.run([*self._argv, "kill-server"], env=self._env, capture_output=True,
                       timeout=DEADLINE, check=False)


@pytest.fixture
def tmux(env: dict[str, str]) -> Iterator[Tmux]:
    outer = Tmux({**env, "LANG": "C.UTF-8"})
    yield outer
    outer.kill()  # before env's teardown stops the termhost server


def new_session(env: dict[str, str], *command: str) -> None:
    """termhost's session `work`, detached, sized as the client will show it; no config
    file, so a user's settings change nothing."""
    termhost(env, "-f", "/dev/null", "new-session", "-d", "-s", "work",
             "-x", str(COLS), "-y", str(STATUS), *command)


def labelled(name: str) -> str:
    return f"printf 'pane-{name}\\n'; exec sleep 1000"


LABELS = "ABCD"


def tiled(env: dict[str, str], tmux: Tmux) -> list[Geometry]:
    """Four labelled panes in the tiled layout, attached; their geometry, in label order."""
    new_session(env, labelled("A"))
    for name in LABELS[1:]:
        termhost(env, "split-window", "-t", "work", labelled(name))
    termhost(env, "select-layout", "-t", "work", "tiled")
    tmux.attach("work")
    return geometry(env)


def labels_where(screen: Screen, panes: list[Geometry]) -> bool:
    return all(pane.text(screen).startswith(f"pane-{name}")
               for name, pane in zip(LABELS, panes, strict=True))


def test_tiled_panes_fill_the_quadrants_and_zoom_shows_the_active_one(
    env: dict[str, str], tmux: Tmux,
) -> None:
    panes = tiled(env, tmux)
    # A to D left to right, top to bottom: tmux 3.3a's tiled layout of a 100x29 window.
    assert panes == [(0, 0, 49, 14), (50, 0, 50, 14), (0, 15, 49, 14), (50, 15, 50, 14)]
    screen = tmux.see(lambda s: labels_where(s, panes) and s[STATUS].startswith("[work]"),
                      "each label at the top left of its quadrant, the status bar below")
    assert borders_match(screen, panes), "the borders are not where list-panes puts the panes"
    assert "*" in screen[STATUS] and "Z" not in screen[STATUS]
    wait_until(lambda: tmux.colours((x, STATUS) for x in range(COLS)) == {("black", "green")},
               PATIENCE, "the status bar in black on green, all the way across")

    tmux.keys("C-b", "z")  # the active pane, the last made: D
    screen = tmux.see(lambda s: s[0].startswith("pane-D") and "*Z" in s[STATUS],
                      "pane D alone, its window flagged Z")
    shown = "".join(screen[:STATUS])
    assert not {f"pane-{name}" for name in "ABC"} & set(re.findall(r"pane-\w", shown))
    assert not BORDERS & set(shown), "a border in a zoomed window"

    tmux.keys("C-b", "z")
    screen = tmux.see(lambda s: labels_where(s, panes) and "Z" not in s[STATUS],
                      "the four panes again")
    assert borders_match(screen, panes)
    assert geometry(env) == panes


def test_split_keys_and_meta_2_draw_panes_where_list_panes_puts_them(
    env: dict[str, str], tmux: Tmux,
) -> None:
    new_session(env)  # a shell: each new pane shows its prompt at its top left
    tmux.attach("work")
    tmux.see(lambda s: s[0].startswith("$") and s[STATUS].startswith("[work]"),
             "the prompt and the status bar")
    steps = (  # tmux 3.3a's figures for the same keys in a 100x29 window
        (("C-b", "%"), [(0, 0, 50, 29), (51, 0, 49, 29)], "side by side"),
        (("C-b", '"'), [(0, 0, 50, 29), (51, 0, 49, 14), (51, 15, 49, 14)],
         "the right pane split in two"),
        (("C-b", "M-2"), [(0, 0, 100, 9), (0, 10, 100, 9), (0, 20, 100, 9)],
         "even-vertical"),
    )
    for keys, figures, what in steps:
        tmux.keys(*keys)
        wait_until(lambda f=figures: geometry(env) == f, PATIENCE, f"termhost's panes {what}")
        panes = geometry(env)
        tmux.see(lambda s, p=panes: borders_match(s, p)
                 and all(pane.text(s).startswith("$") for pane in p),
                 f"borders and prompts {what}")


def numbered(env: dict[str, str], tmux: Tmux) -> Geometry:
    """line-001..line-200 in the left pane, the active one, beside another; attached."""
    new_session(env, "printf 'line-%03d\\n' $(seq 1 200); exec cat")
    termhost(env, "split-window", "-h", "-d", "-t", "work", "printf 'other\\n'; exec sleep 1000")
    termhost(env, "set", "-g", "mode-keys", "emacs")  # tmux's default, unless EDITOR has vi
    left, right = geometry(env)
    tmux.attach("work")
    tmux.see(lambda s: left.text(s, 0).rstrip() == "line-173"
             and left.text(s, 27).rstrip() == "line-200" and right.text(s).startswith("other"),
             "the last 28 lines on the left, the other pane on the right")
    return left


def test_copy_mode_searches_selects_and_copies_what_is_shown(
    env: dict[str, str], tmux: Tmux,
) -> None:
    pane = numbered(env, tmux)
    # 201 lines (the last one the cursor's) in 29 rows: 172 of history.
    tmux.keys("C-b", "[")
    screen = tmux.see(lambda s: pane.text(s).endswith("[0/172]"),
                      "the position indicator at the pane's top right")
    assert screen[0][pane.width] == "│" and screen[0][pane.width + 1:].startswith("other")
    indicator = [(x, 0) for x in range(pane.width - len("[0/172]"), pane.width)]
    wait_until(lambda: tmux.colours(indicator) == {BLACK_ON_YELLOW}, PATIENCE,
               "the indicator in black on yellow (mode-style)")

    tmux.keys("C-r")  # search-backward, in emacs mode-keys
    tmux.type("line-150")
    tmux.keys("Enter")
    screen = tmux.see(lambda s: re.search(r"\(1 results\) \[\d+/172\]$", pane.text(s))
                      is not None and any(pane.text(s, y).startswith("line-150")
                                          for y in range(pane.height)),
                      "line-150 scrolled into view, one result")
    y = next(y for y in range(pane.height) if pane.text(screen, y).startswith("line-150"))

    tmux.keys("C-Space", "C-n", "C-n", "C-e")  # from the match to the end of line-152

    def selected(row: int) -> bool:
        return tmux.colours((x, row) for x in range(len("line-150"))) == {BLACK_ON_YELLOW}

    wait_until(lambda: all(selected(y + line) for line in range(3)), PATIENCE,
               "line-150 to line-152 highlighted")
    assert not selected(y - 1) and not selected(y + 3)
    tmux.keys("M-w")  # copy-selection-and-cancel
    tmux.see(lambda s: pane.text(s).rstrip() == "line-173"
             and pane.text(s, 27).rstrip() == "line-200", "the live pane again")
    assert termhost(env, "show-buffer") == "line-150\nline-151\nline-152"

    tmux.keys("C-b", "[")
    tmux.keys("M-<")  # history-top
    tmux.see(lambda s: pane.text(s).startswith("line-001") and pane.text(s).endswith("[172/172]"),
             "the first line, at the top of the history")
    tmux.keys("q")
    tmux.see(lambda s: pane.text(s).rstrip() == "line-173"
             and pane.text(s, 27).rstrip() == "line-200", "the live pane once more")


def test_the_copy_mode_search_prompt_shows_what_is_typed(
    env: dict[str, str], tmux: Tmux,
) -> None:
    pane = numbered(env, tmux)
    tmux.keys("C-b", "[")
    tmux.see(lambda s: pane.text(s).endswith("[0/172]"), "copy mode")
    tmux.keys("C-r")
    tmux.type("line-15")
    screen = tmux.see(lambda s: "line-15" in s[STATUS], "the search typed, in the status line")
    assert borders_match(screen, geometry(env)), "something drawn over the border"
    assert screen[STATUS].rstrip() == "(search up) line-15"


def test_the_active_panes_borders_are_green(env: dict[str, str], tmux: Tmux) -> None:
    panes = tiled(env, tmux)
    tmux.see(lambda s: labels_where(s, panes), "the four panes")
    a, _, _, d = panes  # D, the last made, is active
    beside_d = {(d.left - 1, y) for y in range(d.top, d.top + d.height)}
    above_d = {(x, d.top - 1) for x in range(d.left, d.left + d.width)}
    beside_a = {(a.left + a.width, y) for y in range(a.top, a.top + a.height)}
    assert {fg for fg, _ in tmux.colours(beside_d | above_d)} == {"green"}
    assert "green" not in {fg for fg, _ in tmux.colours(beside_a)}


@pytest.mark.parametrize("labels", ["off", "top", "bottom"])
def test_borders_meet_in_the_junctions_tmux_draws(
    env: dict[str, str], tmux: Tmux, labels: str
) -> None:
    """The same six panes drawn by tmux itself (a tmux in a second outer session): the
    border cells, junctions included, are the same; with pane-border-status, its row is
    a border the others end in."""
    # A | (B / C / F), then A / (D | E): borders that cross and that end in one another.
    splits = [["-h"], ["-v"], ["-v"], ["select", "0"], ["-v"], ["-h"]]
    options = [["pane-border-status", labels], ["pane-border-format", ""]]
    new_session(env, labelled("A"))
    inner = ["tmux", "-L", f"termhost-inner-{uuid.uuid4().hex}", "-f", "/dev/null"]
    script = [*inner, "new-session", "sleep 1000"]
    for option in options:
        termhost(env, "set", "-g", *option)
        script += [";", "set", "-g", *option]
    for step in splits:
        if step[0] == "select":
            termhost(env, "select-pane", "-t", f"work:0.{step[1]}")
            script += [";", "select-pane", "-t", f":0.{step[1]}"]
        else:
            termhost(env, "split-window", *step, "-t", "work", "exec sleep 1000")
            script += [";", "split-window", *step, "sleep 1000"]
    panes = geometry(env)
    tmux.attach("work")
    tmux.run("new-session", "-d", "-s", "reference", "-x", str(COLS), "-y", str(ROWS),
             "env -u TMUX " + shlex.join(script))
    try:
        def borders(screen: Screen) -> list[str]:
            return ["".join(c if c in BORDERS else " " for c in line)
                    for line in screen[:STATUS]]

        ours = borders(tmux.see(lambda s: borders_match(s, panes) and any(
            c in "┼├┤┬┴" for line in s for c in line), "termhost's six panes"))

        def reference() -> list[str]:
            lines = tmux.run("capture-pane", "-p", "-t", "reference").split("\n")[:ROWS]
            return borders([line.ljust(COLS) for line in lines])

        try:
            theirs = wait_until(lambda: (shown := reference()) == ours and shown,
                                PATIENCE, "tmux's own borders to match ours")
        except pytest.fail.Exception:
            rows = [f"{y:2} ours   {a}\n   tmux's {b}"
                    for y, (a, b) in enumerate(zip(ours, reference(), strict=True)) if a != b]
            raise pytest.fail.Exception("the borders differ:\n" + "\n".join(rows)) from None
        assert {"├", "┬", "┼"} <= {c for line in theirs for c in line}
    finally:
        subprocess.run([*inner, "kill-server"], capture_output=True, timeout=DEADLINE,
                       check=False)
