"""termhost's own verbs, the ones tmux does not have: each runs in the client process, a
module per verb with a `main(argv, where) -> int` (asciinema's layout).

They need no server (themes, cat, play, record without -t, run) or ask it through the
tmux verbs (screenshot, record -t), so they work before any session exists and in CI
without a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["VERBS", "Where"]

VERBS = ("themes", "record", "play", "cat", "run", "screenshot")
"""The verbs with a module here (termhost/cmd/VERB.py)."""


@dataclass(frozen=True)
class Where:
    """The global options a verb may need to reach a server: -L, -S, -f, -2."""

    socket: Path
    config: str | None = None
    force_256: bool = False
