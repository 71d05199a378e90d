"""Details people notice: bells and activity in other windows, the clipboard over OSC 52,
the terminal's title, the cursor's shape, focus events."""

from __future__ import annotations

import asyncio
import base64

from tests.conftest import wait_until
from tests.ui.outer import client, termhost

CAT = "stty -icanon -echo; exec cat -v"


def test_bell_and_activity_flag_other_windows_and_the_bell_rings(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "a", "exec sleep 1000")
    termhost(env, "new-window", "-d", "-t", "a", CAT)
    termhost(env, "new-window", "-d", "-t", "a", CAT)
    termhost(env, "setw", "-g", "monitor-activity", "on")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "a", cols=80, rows=10)
        # tmux's window-status-format: a window without flags ends in a space
        await outer.see(lambda s: "0:sleep* 1:cat  2:cat" in s[-1], "three windows")
        termhost(env, "send-keys", "-t", "a:1", "-l", "x")  # activity: window 1
        await outer.see(lambda s: "1:cat# 2:cat" in s[-1], "the activity flag")
        termhost(env, "send-keys", "-t", "a:2", "C-g")  # cat -v writes ^G, no bell
        termhost(env, "send-keys", "-t", "a:2", "-l", "y")
        await outer.see(lambda s: "2:cat#" in s[-1], "window 2's activity")
        rung = outer.raw.count(b"\x07")
        termhost(env, "respawn-pane", "-k", "-t", "a:2", "printf 'ding\\a'; exec sleep 1000")
        await outer.see(lambda s: "2:sleep#!" in s[-1], "the bell flag")
        await outer.see(lambda s: outer.raw.count(b"\x07") > rung, "the bell rung")
        outer.type(b"\x022")  # selecting window 2 clears its flags
        await outer.see(lambda s: "2:sleep*" in s[-1] and "!" not in s[-1], "no bell flag")
        await outer.detach()

    asyncio.run(scenario())


def test_copies_reach_the_clipboard_over_osc_52(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "c", "printf 'copy me\\n'; exec sleep 1000")
    termhost(env, "new-window", "-d", "-t", "c", "exec sleep 1000")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "c", cols=80, rows=10)
        await outer.see(lambda s: s[0] == "copy me", "the text")
        outer.type(b"\x02[")  # copy mode: to the top line, select it, copy
        outer.type(b"\x1b<\x00\x05\x1bw")  # M-< C-Space C-e M-w
        wanted = b"\x1b]52;c;" + base64.b64encode(b"copy me") + b"\x07"
        await outer.see(lambda s: wanted in outer.raw, "OSC 52 with the copied text")
        termhost(env, "set", "-g", "set-clipboard", "on")  # apps may set it too
        osc = base64.b64encode(b"from app").decode()
        termhost(env, "respawn-pane", "-k", "-t", "c:1",
                 f"printf '\\033]52;c;{osc}\\007'; exec sleep 1000")
        wait_until(lambda: termhost(env, "show-buffer") == "from app", what="the app's copy")
        await outer.see(lambda s: f"\x1b]52;c;{osc}\x07".encode() in outer.raw,
                        "the app's copy passed on")
        await outer.detach()

    asyncio.run(scenario())


def test_title_cursor_shape_and_focus_events(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "t", "-x", "80", "-y", "9",
             "printf '\\033]2;my title\\007\\033[?1004h\\033[5 q'; stty -icanon -echo; exec cat -v")
    termhost(env, "split-window", "-t", "t", "exec sleep 1000")  # the new pane is active
    termhost(env, "set", "-g", "set-titles", "on")
    termhost(env, "set", "-g", "focus-events", "on")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "t", cols=80, rows=10)
        await outer.see(lambda s: s[-1].startswith("[t]"), "the status bar")
        outer.type(b"\x02o")  # the first pane: told it has the focus, its title shown
        await outer.see(lambda s: s[0] == "^[[I", "the focus-in report")
        await outer.see(lambda s: b"\x1b]2;t:0:cat - \"my title\"\x07" in outer.raw,
                        "the title")
        await outer.see(lambda s: b"\x1b[5 q" in outer.raw, "the pane's cursor shape")
        outer.type(b"\x02o")  # away again
        await outer.see(lambda s: s[0] == "^[[I^[[O", "the focus-out report")
        await outer.detach()
        assert b"\x1b[0 q" in outer.raw  # the terminal's own cursor shape given back

    asyncio.run(scenario())


def test_pane_border_labels_take_a_row_and_name_each_pane(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "b", "-x", "80", "-y", "9", "exec sleep 1000")
    termhost(env, "split-window", "-h", "-t", "b", "exec sleep 1000")
    termhost(env, "select-pane", "-t", "b:0.0", "-T", "left one")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "b", cols=80, rows=10)
        await outer.see(lambda s: s[-1].startswith("[b]"), "the status bar")
        termhost(env, "setw", "-g", "pane-border-status", "top")
        screen = await outer.see(lambda s: s[0].startswith("── 0 left one ─"),
                                 "the left pane's label on the top row")
        assert "─ 1 " in screen[0][40:]  # the right pane's, over it
        assert termhost(env, "display", "-p", "-t", "b:0.0", "#{pane_height}") == "8\n"
        termhost(env, "setw", "-g", "pane-border-status", "off")
        await outer.see(lambda s: "left one" not in s[0], "no labels")
        assert termhost(env, "display", "-p", "-t", "b:0.0", "#{pane_height}") == "9\n"
        await outer.detach()

    asyncio.run(scenario())
