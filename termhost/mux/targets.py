"""Targets relative to the current session, as tmux's cmd_find_target reads them.

tmux reads a target by what the command takes. For a window, a bare `7` is window 7 of
the current session before it is a session named 7; for a pane, a bare `1` is pane 1 of
the current window, then a window, then a session; `:2`, `.1` and `2.1` are in the
current session. termhost's finders (commands.find_pane, find_session) read targets
that name their session; `anchored` writes a relative one that way first, so that
`select-window -t 1` from a pane of session `0` stays in `0` even with a session `1`.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Literal

from termhost.mux.model import DOWN, LEFT, RIGHT, UP, Session, Window, Winlink
from termhost.mux.pane import Pane

__all__ = ["TargetKind", "anchored", "is_pane_token", "pane_by_token", "window_named"]

TargetKind = Literal["session", "window", "pane", "index"]
"""What a -t or -s names; `index` is a window index that need not exist yet (new-window
-t, move-window -t: tmux's CMD_FIND_WINDOW_INDEX)."""


def anchored(spec: str, kind: TargetKind, current: Session, window: Window | None = None
             ) -> str:
    """`spec` with the current session and window (the session's active one unless the
    command came from a pane of another) written in where tmux would take them; a
    target that names its own session, or an id, as it is."""
    if kind == "session" or not spec:
        return spec
    here = f"${current.id}"
    window = window if window is not None and current.has(window) else current.active_window
    index = current.index_of(window)
    if kind == "pane" and is_pane_token(spec):  # `+`, `!`, `{top}`: in the current window
        return f"{here}:{index}.{spec}"
    if kind != "index" and spec != "$" and _WINDOW_TOKEN.fullmatch(spec):  # `+`, `^`...
        return f"{here}:{spec}"
    if spec[0] in "$@%=~" or spec.startswith("{"):
        return spec
    if spec.startswith(":"):
        return here + spec
    if ":" in spec:
        return spec
    if spec.startswith("."):
        return f"{here}:{index}{spec}"
    if "." in spec:
        return f"{here}:{spec}" if _window(current, spec.rsplit(".", 1)[0]) else spec
    if kind == "pane" and spec.isdigit() and int(spec) < len(window.panes):
        return f"{here}:{index}.{spec}"
    if _window(current, spec) or (kind == "index" and spec.isdigit()):
        return f"{here}:{spec}"
    return spec


_WINDOW_TOKEN = re.compile(r"[\^$!]|[+-]\d*|\{(start|end|last|next|previous)\}")
"""The windows tmux names by where they are: first, last index, last used, next and
previous (by N: `+2`), as cmd_find_get_window_with_session reads them."""

_PANE_TOKEN = re.compile(
    r"!|[+-]\d*|\{(last|next|previous|top|bottom|left|right|top-left|top-right|"
    r"bottom-left|bottom-right|up-of|down-of|left-of|right-of)\}")
"""The panes tmux names by where they are (cmd_find_get_pane_with_window)."""


def is_pane_token(spec: str) -> bool:
    return _PANE_TOKEN.fullmatch(spec) is not None


def window_named(session: Session, spec: str) -> Winlink | None:
    """The place `spec` names in `session`, as tmux's cmd_find_get_window_with_session
    looks: a token of where it is (`^ $ ! + -`, `{start}`...), an exact index or name
    after `=`, by index, else the one window of that exact name, else the one whose name
    starts with it, else the one its fnmatch pattern matches; None when there is none
    or more than one window."""
    if _WINDOW_TOKEN.fullmatch(spec):
        return _window_by_token(session, spec)
    if spec.startswith("="):
        exact = spec[1:]
        if exact.isdigit():
            return session.link_at(int(exact))
        found = [link for link in session.links if link.window.name == exact]
        return found[0] if found and all(f.window is found[0].window for f in found) else None
    if spec.isdigit():
        return session.link_at(int(spec))
    for matches in ((lambda name: name == spec), (lambda name: name.startswith(spec)),
                    (lambda name: fnmatch.fnmatchcase(name, spec))):
        found = [link for link in session.links if matches(link.window.name)]
        if found:  # one window at several places is one match: its first place
            return found[0] if all(each.window is found[0].window for each in found) else None
    return None


def _window_by_token(session: Session, spec: str) -> Winlink | None:
    links, current = session.links, session.current
    if not links or current is None:
        return None
    if spec in ("^", "{start}"):
        return links[0]
    if spec in ("$", "{end}"):
        return links[-1]
    if spec in ("!", "{last}"):
        return session.last
    step = 1 if spec[0] == "+" or spec == "{next}" else -1
    count = int(spec[1:]) if spec[1:].isdigit() else 1
    return links[(links.index(current) + step * count) % len(links)]


def pane_by_token(window: Window, spec: str) -> Pane | None:
    """The pane `spec` (`is_pane_token`) names in `window`, as tmux's
    cmd_find_get_pane_with_window: the last one, the next or previous in order (by N),
    the one at an edge or corner of the window, or beside the active one."""
    panes, active = window.panes, window.active
    if spec in ("!", "{last}"):
        return window.last if window.last in panes else None
    if spec[0] in "+-" or spec in ("{next}", "{previous}"):
        step = 1 if spec[0] == "+" or spec == "{next}" else -1
        count = int(spec[1:]) if spec[1:].isdigit() else 1
        return panes[(panes.index(active) + step * count) % len(panes)]
    beside = {"{up-of}": UP, "{down-of}": DOWN, "{left-of}": LEFT, "{right-of}": RIGHT}
    if spec in beside:
        found = window.neighbour(active, beside[spec])
        return None if found is active else found
    root = window.layout  # as window_find_string: a point on that edge, else the middle
    x, y = root.x + root.width // 2, root.y + root.height // 2
    name = spec[1:-1]
    if name.startswith("top"):
        y = root.y
    elif name.startswith("bottom"):
        y = root.y + root.height - 1
    if name.endswith("left"):
        x = root.x
    elif name.endswith("right"):
        x = root.x + root.width - 1
    for pane in panes:  # window_get_active_at: a cell and its right and bottom border
        cell = window.cell_of(pane)
        if cell.x <= x <= cell.x + cell.width and cell.y <= y <= cell.y + cell.height:
            return pane
    return None


def _window(session: Session, spec: str) -> bool:
    return window_named(session, spec) is not None
