"""The mouse on a real client (set -g mouse on): the outer terminal's SGR reports typed
into the client's PTY, as a terminal sends them, and what a person then sees."""

from __future__ import annotations

import asyncio

from tests.conftest import wait_until
from tests.ui.outer import Outer, client, termhost

MOUSE_APP = ("printf '\\033[?1000h\\033[?1006hready\\n'; stty -icanon -echo; exec cat -v")
"""An application that asks for the mouse (1000, SGR) and shows what it gets."""
LINES = "seq 1 100; exec sleep 1000"


def press(outer: Outer, x: int, y: int, button: int = 0) -> None:
    """The button down at cell (x, y), 0-based, as an SGR report (1-based)."""
    outer.type(f"\x1b[<{button};{x + 1};{y + 1}M".encode())


def drag(outer: Outer, x: int, y: int) -> None:
    outer.type(f"\x1b[<32;{x + 1};{y + 1}M".encode())


def release(outer: Outer, x: int, y: int) -> None:
    outer.type(f"\x1b[<0;{x + 1};{y + 1}m".encode())


def wheel(outer: Outer, x: int, y: int, *, up: bool) -> None:
    outer.type(f"\x1b[<{64 if up else 65};{x + 1};{y + 1}M".encode())


def test_clicks_go_to_the_pane_and_to_an_application_that_asked(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "m", "-x", "80", "-y", "23", MOUSE_APP)
    termhost(env, "split-window", "-h", "-t", "m", LINES)  # the right pane is active
    termhost(env, "set", "-g", "mouse", "on")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "m", cols=80, rows=24)
        await outer.see(lambda s: s[0].startswith("ready"), "the application")
        assert b"\x1b[?1000h\x1b[?1002h\x1b[?1006h" in outer.raw  # reporting turned on
        press(outer, 5, 3)
        release(outer, 5, 3)
        await outer.see(lambda s: s[1].startswith("^[[<0;6;4M^[[<0;6;4m"),
                        "the click, in the pane's own coordinates")
        assert termhost(env, "display", "-p", "-t", "m", "#{pane_index}") == "0\n"
        termhost(env, "set", "-g", "mouse", "off")
        await outer.see(lambda s: b"\x1b[?1000l" in outer.raw, "reporting turned off")
        await outer.detach()

    asyncio.run(scenario())


def test_the_wheel_scrolls_in_copy_mode_and_back_out(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "w", "-x", "80", "-y", "23", LINES)
    termhost(env, "set", "-g", "mouse", "on")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "w", cols=80, rows=24)
        await outer.see(lambda s: s[21] == "100", "the last line")
        wheel(outer, 10, 10, up=True)  # tmux's WheelUpPane: copy-mode -e, no scroll yet
        await outer.see(lambda s: s[0].endswith("[0/78]"), "copy mode")
        wheel(outer, 10, 10, up=True)  # copy mode's: send -X -N 5 scroll-up
        await outer.see(lambda s: s[0].endswith("[5/78]") and s[21] == "95",
                        "five lines up in copy mode")
        wheel(outer, 10, 10, up=False)
        await outer.see(lambda s: s[21] == "100" and not s[0].endswith("]"),
                        "copy mode left at the bottom")
        await outer.detach()

    asyncio.run(scenario())


def test_dragging_selects_and_copies_and_a_border_drag_resizes(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "d", "-x", "80", "-y", "23",
             "printf 'alpha beta gamma\\n'; exec sleep 1000")
    termhost(env, "split-window", "-h", "-t", "d", "exec sleep 1000")
    termhost(env, "new-window", "-d", "-t", "d", "exec sleep 1000")
    termhost(env, "set", "-g", "mouse", "on")

    def width() -> str:
        return termhost(env, "display", "-p", "-t", "d:0.0", "#{pane_width}").strip()

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "d", cols=80, rows=24)
        await outer.see(lambda s: s[0].startswith("alpha beta gamma"), "the text")
        press(outer, 6, 0)  # on "beta", in the left pane: it becomes active
        drag(outer, 10, 0)  # mode-keys emacs: the cell under the pointer is not selected
        release(outer, 10, 0)
        wait_until(lambda: termhost(env, "show-buffer") == "beta", what="beta copied")
        left = int(width())
        press(outer, left, 5)  # the border right of the left pane
        drag(outer, left + 3, 5)
        drag(outer, left + 6, 5)
        release(outer, left + 6, 5)
        wait_until(lambda: width() == str(left + 6), what="the border moved 6 right")
        status = (await outer.see(lambda s: " 1:" in s[-1], "window 1 in the status line"))[-1]
        # A press of the middle button first (MouseDown2Status, bound to nothing): the
        # left one just pressed on the border makes the next a double click otherwise.
        press(outer, status.index(" 1:") + 1, 23, button=1)
        press(outer, status.index(" 1:") + 1, 23)  # a click on window 1's name
        wait_until(lambda: termhost(env, "display", "-p", "-t", "d", "#{window_index}") == "1\n",
                   what="window 1 selected")
        await outer.detach()

    asyncio.run(scenario())
