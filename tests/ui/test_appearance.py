"""How the client looks: themes, the outer terminal's colour depth, status formats."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from termhost.themes import load_theme
from termhost.ui.colours import ui_style
from tests.ui.outer import client, termhost

ORANGE = "printf '\\033[38;2;255;135;0mORANGE\\033[0m\\n'; exec sleep 1000"


def test_true_colour_is_brought_down_to_what_the_terminal_shows(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "c", ORANGE)
    cases = (
        ({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, (), b"38;2;255;135;0m"),
        ({"TERM": "xterm-256color", "COLORTERM": ""}, (), b"38;5;208m"),
        ({"TERM": "xterm", "COLORTERM": ""}, (), b"[0;33m"),
        ({"TERM": "xterm", "COLORTERM": ""}, ("-2",), b"38;5;208m"),
    )

    async def scenario() -> None:
        for terminal, flags, wanted in cases:
            outer = await client({**env, **terminal}, *flags, "attach", "-t", "c")
            await outer.see(lambda s: s[0] == "ORANGE", "the orange word")
            assert wanted in outer.raw, (terminal, flags)
            await outer.detach()

    asyncio.run(scenario())


def test_a_theme_colours_the_status_bar_and_the_palette_until_detach(
    env: dict[str, str],
) -> None:
    env = {**env, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    termhost(env, "new-session", "-d", "-s", "t", "exec sleep 1000")
    status = ui_style(load_theme("dracula")).get_attrs_for_style_str("class:status")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "t", cols=60, rows=10)
        await outer.see(lambda s: s[-1].startswith("[t] 0:"), "the status bar")
        termhost(env, "set", "-g", "theme", "dracula")
        last = outer.terminal.screen.buffer
        await outer.see(lambda s: last[9][0].bg == status.bgcolor, "dracula's status colour")
        assert last[9][0].fg == status.color
        assert b"\x1b]11;rgb:28/2a/36\x1b\\" in outer.raw  # the panes' background
        await outer.detach()
        assert b"\x1b]111\x1b\\" in outer.raw  # the terminal's own colours given back

    asyncio.run(scenario())
    bad = subprocess.run([sys.executable, "-m", "termhost", "set", "-g", "theme", "nosuch"],
                         env=env, capture_output=True, text=True, timeout=30, check=False)
    assert (bad.returncode, bad.stderr) == (
        1, "unknown theme: nosuch (termhost themes lists them)\n")


def test_status_left_and_right_are_formats_and_strftime(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "fmt", "exec sleep 1000")
    termhost(env, "set", "-g", "status-left", "<#{session_name}|#{window_panes}> ")
    termhost(env, "set", "-g", "status-right", "year %Y")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "fmt", cols=60, rows=10)
        screen = await outer.see(lambda s: s[-1].startswith("<fmt|1> 0:"),
                                 "the formatted status-left")
        assert screen[-1].endswith("year 20" + screen[-1][-2:])
        assert screen[-1][-4:].isdigit()
        termhost(env, "set", "-g", "status", "off")
        await outer.see(lambda s: "<fmt|1>" not in "\n".join(s), "no status bar")
        assert termhost(env, "display", "-p", "-t", "fmt", "#{pane_height}") == "10\n"
        await outer.detach()

    asyncio.run(scenario())
