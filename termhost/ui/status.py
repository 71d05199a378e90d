"""The status bar: status-left, the window list and status-right, as tmux draws them.

status-left and status-right are tmux formats (mux/formats.py) and then strftime
patterns, as in tmux, so `#S` and `%H:%M` both work. The window list marks the current
window `*`, the last `-`, a zoomed one `Z`, a window with a bell `!`, with activity `#`,
and a synchronized one `[sync]`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import StyleAndTextTuples

from termhost.mux.commands import variables
from termhost.mux.formats import expand
from termhost.mux.model import Session, Window

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["status_bar", "window_at"]


def _formatted(template: str, values: dict[str, str]) -> str:
    try:
        return time.strftime(expand(template, values))
    except ValueError:  # a stray % that strftime refuses: the text as it is
        return expand(template, values)


def _parts(server: Server, session: Session) -> tuple[str, list[tuple[Window, str]], str]:
    """status-left expanded, each window's entry in the list, status-right expanded."""
    values = variables(session, server=server)
    left = _formatted(server.options.get("status-left"), values)
    right = _formatted(server.options.get("status-right"), values)
    entries = []
    for window in session.windows:
        name = f"{window.index}:{server.window_name(window)}{session.window_flags(window)}"
        if server.window_option(window, "synchronize-panes") == "on":
            name += " [sync]"
        entries.append((window, name))
    return left, entries, right


def status_bar(server: Server, session: Session, width: int) -> StyleAndTextTuples:
    """The status line of a client attached to `session`, `width` columns wide."""
    left, entries, right = _parts(server, session)
    windows: StyleAndTextTuples = []
    for window, name in entries:
        style = "class:status.current" if window is session.active_window else "class:status"
        if windows:
            windows.append(("class:status", " "))
        windows.append((style, name))
    used = len(left) + sum(len(fragment[1]) for fragment in windows) + len(right)
    gap = max(1, width - used)
    return [("class:status", left), *windows, ("class:status", " " * gap + right)]


def window_at(server: Server, session: Session, x: int) -> Window | None:
    """The window whose entry in the status line covers column `x` (a click on it
    selects it, as tmux's MouseDown1Status)."""
    left, entries, _ = _parts(server, session)
    start = len(left)
    for window, name in entries:
        if start <= x < start + len(name):
            return window
        start += len(name) + 1
    return None
