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
from termhost.mux.model import Session

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["status_bar"]


def _formatted(template: str, values: dict[str, str]) -> str:
    try:
        return time.strftime(expand(template, values))
    except ValueError:  # a stray % that strftime refuses: the text as it is
        return expand(template, values)


def status_bar(server: Server, session: Session, width: int) -> StyleAndTextTuples:
    """The status line of a client attached to `session`, `width` columns wide."""
    values = variables(session, server=server)
    left = _formatted(server.options.get("status-left"), values)
    right = _formatted(server.options.get("status-right"), values)
    windows: StyleAndTextTuples = []
    for window in session.windows:
        style = "class:status.current" if window is session.active_window else "class:status"
        name = f"{window.index}:{window.name}{session.window_flags(window)}"
        if server.window_option(window, "synchronize-panes") == "on":
            name += " [sync]"
        if windows:
            windows.append(("class:status", " "))
        windows.append((style, name))
    used = len(left) + sum(len(fragment[1]) for fragment in windows) + len(right)
    gap = max(1, width - used)
    return [("class:status", left), *windows, ("class:status", " " * gap + right)]
