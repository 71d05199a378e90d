"""Plain text: what a person reads on the screen, as `tmux capture-pane -p` gives it.

One line per row, so that line N of the file is row N of the screen even where rows are
empty; trailing blanks are trimmed because they are padding, not content.
"""

from __future__ import annotations

from termhost.render.snapshot import Snapshot

__all__ = ["render_text"]


def render_text(snapshot: Snapshot) -> str:
    """The screen's characters, wide ones once (their right half is no character)."""
    return "".join(
        "".join(run.text for run in line).rstrip(" ") + "\n" for line in snapshot.lines
    )
