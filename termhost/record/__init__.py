"""Recording terminal sessions to files, scripting them, and reading them back.

`asciicast` is the file format layer (asciinema's v2 and v3) and `tape` the scripted-session
language; both are kept apart from the commands that record, play and cat, so that each can be
tested on its own (the format against other readers of it).
"""

from __future__ import annotations

__all__: list[str] = []
