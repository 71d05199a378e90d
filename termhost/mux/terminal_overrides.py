"""terminal-overrides: what a user says of their terminal's capabilities, by TERM.

Each element of the array option is `PATTERN:CAP:CAP...`, the pattern an fnmatch(3)
pattern matched against the client's TERM, each capability `name=value`, `name` (a
flag) or `name@` (the terminal lacks it), `\\:` standing for a colon, as tmux's
tty_term_apply_overrides reads them. Later elements and later capabilities win.
termhost honours what changes how it draws: `am@`, a terminal without automatic
margins, has its bottom right cell left unwritten.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from termhost.mux.libc import fnmatch

__all__ = ["capabilities", "has_automatic_margins"]

_FIELDS = re.compile(r"(?<!\\):")


def capabilities(overrides: Iterable[str], term: str) -> dict[str, str | None]:
    """The capabilities the overrides give a terminal called `term`: name to value
    ("" for a flag set), None for one taken away with `name@`."""
    found: dict[str, str | None] = {}
    for element in overrides:
        pattern, *fields = _FIELDS.split(element)
        if not fields or not fnmatch(pattern, term):
            continue
        for field in fields:
            field = field.replace("\\:", ":")
            if not field:
                continue
            name, equals, value = field.partition("=")
            if equals:
                found[name] = value
            elif name.endswith("@"):
                found[name[:-1]] = None
            else:
                found[name] = ""
    return found


def has_automatic_margins(overrides: Iterable[str], term: str) -> bool:
    """Whether a terminal called `term` wraps at the right margin (terminfo `am`): every
    terminal termhost draws for does, unless the overrides say `am@`."""
    return capabilities(overrides, term).get("am", "") is not None
