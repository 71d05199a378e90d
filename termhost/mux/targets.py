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
from typing import Literal

from termhost.mux.model import Session, Window

__all__ = ["TargetKind", "anchored", "window_named"]

TargetKind = Literal["session", "window", "pane", "index"]
"""What a -t or -s names; `index` is a window index that need not exist yet (new-window
-t, move-window -t: tmux's CMD_FIND_WINDOW_INDEX)."""


def anchored(spec: str, kind: TargetKind, current: Session, window: Window | None = None
             ) -> str:
    """`spec` with the current session and window (the session's active one unless the
    command came from a pane of another) written in where tmux would take them; a
    target that names its own session, or an id, as it is."""
    if kind == "session" or not spec or spec[0] in "$@%=~" or spec.startswith("{"):
        return spec
    here = f"${current.id}"
    window = window if window is not None and window in current.windows else (
        current.active_window)
    if spec.startswith(":"):
        return here + spec
    if ":" in spec:
        return spec
    if spec.startswith("."):
        return f"{here}:{window.index}{spec}"
    if "." in spec:
        return f"{here}:{spec}" if _window(current, spec.rsplit(".", 1)[0]) else spec
    if kind == "pane" and spec.isdigit() and int(spec) < len(window.panes):
        return f"{here}:{window.index}.{spec}"
    if _window(current, spec) or (kind == "index" and spec.isdigit()):
        return f"{here}:{spec}"
    return spec


def window_named(session: Session, spec: str) -> Window | None:
    """The window `spec` names in `session`, as tmux's cmd_find_get_window_with_session
    looks: by index, else the one window of that exact name, else the one whose name
    starts with it, else the one its fnmatch pattern matches; None when there is none
    or more than one."""
    if spec.isdigit():
        return next((w for w in session.windows if w.index == int(spec)), None)
    for matches in ((lambda name: name == spec), (lambda name: name.startswith(spec)),
                    (lambda name: fnmatch.fnmatchcase(name, spec))):
        found = [w for w in session.windows if matches(w.name)]
        if found:
            return found[0] if len(found) == 1 else None
    return None


def _window(session: Session, spec: str) -> bool:
    return window_named(session, spec) is not None
