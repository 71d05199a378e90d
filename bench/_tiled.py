"""Four panes in the tiled layout, the mouse on and the status bar on, for the benchmarks.

A user's busy session is rarely one pane: the `--tiled4` re-runs of the benchmarks (issue:
"4 panes in tiled layout, status bar and mouse on: the same targets hold") measure the
same pane as the plain runs, sharing its window with three others. The setting is made
through the CLI that termhost and tmux have in common, the same commands on both:

    split-window -d -t TARGET CMD      (three times: -d keeps the measured pane active)
    select-layout -t TARGET tiled
    set-option -g status on
    set-option -g mouse on

With mouse on, a multiplexer asks the outer terminal for mouse reports (DECSET 1000, 1002
or 1003) and must decode them; the status bar is one more row to draw. A multiplexer that
rejects `set -g mouse on` is measured without it, with a warning line in the report: the
option may not exist yet. One that accepts it but never asks its client's terminal for
mouse reports gets a warning too (`MOUSE_MARKERS`, `check_mouse`): its "mouse on" costs
nothing yet.

In a 120x40 window the panes are about 60x20, so the benchmarks' 100-character log lines
wrap: `wrap` gives the rows such a line takes, to check what a pane shows.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from _termhost import PtyClient

__all__ = ["HELP", "MOUSE_MARKERS", "check_mouse", "chrome_on", "describe", "tile", "wrap"]

HELP = (
    "4 panes in the tiled layout, `set -g mouse on` and the status bar on, the same on "
    "termhost and tmux; the measured pane is the active one"
)


class Server(Protocol):
    """What the setting needs of a server of either multiplexer (`_tmux.PrivateServer`)."""

    base: list[str]

    def run(self, *args: str, timeout: float = 30) -> str: ...


def name_of(server: Server) -> str:
    """`termhost` or `tmux`: the program at the start of the server's command lines."""
    return "tmux" if Path(server.base[0]).name.startswith("tmux") else "termhost"


MOUSE_MARKERS = (b"\x1b[?1000h", b"\x1b[?1002h", b"\x1b[?1003h")
"""DECSET of the mouse tracking modes: normal, button-event and any-event tracking."""


def check_mouse(name: str, client: PtyClient) -> None:
    """Warn unless the client (made with `markers=MOUSE_MARKERS`) turned mouse reports on."""
    if not any(client.seen[marker].is_set() for marker in MOUSE_MARKERS):
        print(
            f"warning: {name} accepted `set -g mouse on` but never asked its client's "
            "terminal for mouse reports (no DECSET 1000/1002/1003 drawn)",
        )


def chrome_on(server: Server) -> None:
    """The status bar and the mouse on, for every session of `server` (-g)."""
    server.run("set-option", "-g", "status", "on")
    try:
        server.run("set-option", "-g", "mouse", "on")
    except subprocess.CalledProcessError as error:
        reason = (error.stderr or "").strip().splitlines()
        print(
            f"warning: {name_of(server)} rejected `set -g mouse on` "
            f"({reason[0] if reason else f'status {error.returncode}'}): measured with the "
            "mouse off",
        )


def tile(server: Server, target: str, others: Sequence[str]) -> None:
    """Give the window of `target` (whose active pane is the measured one) a pane for each
    command of `others`, then the tiled layout; the measured pane stays active."""
    for command in others:
        server.run("split-window", "-d", "-t", target, command)
    server.run("select-layout", "-t", target, "tiled")


def describe(server: Server, target: str) -> str:
    """The panes of the window of `target` as `WxH` each, the active one starred."""
    listed = server.run(
        "list-panes", "-t", target, "-F", "#{pane_width}x#{pane_height} #{pane_active}"
    )
    panes = [line.split() for line in listed.splitlines() if line.strip()]
    return " ".join(size + ("*" if active == "1" else "") for size, active in panes)


def wrap(lines: Sequence[str], width: int) -> list[str]:
    """The rows `lines` take on a terminal `width` columns wide (auto-wrap on), each
    without trailing blanks, as capture-pane prints them."""
    rows: list[str] = []
    for line in lines:
        rows += [line[start : start + width].rstrip() for start in range(0, len(line), width)]
        if not line:
            rows.append("")
    return rows
