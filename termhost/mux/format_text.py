"""Text as tmux's format modifiers measure and cut it: `w:`, `=N:`, `=-N:` and `pN:`.

tmux counts display cells, not characters (a wide character takes two, a control
character none), lets `#[...]` styles through a trim at no width, and drops control
characters from what `=N:` keeps. These are its format_width, format_trim_left,
format_trim_right and utf8_cstrwidth, with a shortcut for printable ASCII, where a cell is
a character.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from termhost.terminal.screen import char_width

__all__ = ["format_skip", "format_width", "text_width", "trim_left", "trim_right"]

_STOPS: dict[str, re.Pattern[str]] = {}


def format_skip(text: str, start: int, ends: str) -> int | None:
    """format_skip: the index of the first character of `ends` from `start` that is not
    inside a `#{...}` nor escaped (`#,` `##` `#{` `#}` `#:`), or None."""
    stops = _STOPS.get(ends)
    if stops is None:
        stops = _STOPS[ends] = re.compile("[#}" + re.escape(ends) + "]")
    depth = 0
    index = start
    while True:
        found = stops.search(text, index)
        if found is None:
            return None
        index = found.start()
        char = text[index]
        if char == "#":
            following = text[index + 1:index + 2]
            if following == "{":
                depth += 1
            if following == "" or following in ",#{}:":
                index += 2
                continue
        elif char == "}":
            depth -= 1
        if char in ends and depth == 0:
            return index
        index += 1


def _cells(char: str) -> int | None:
    """A character's width as tmux's UTF-8 code counts it: printable ASCII 1, other ASCII
    (controls) none at all (None: dropped by the trimmers), wide characters 2, and None
    for the non-printable ones tmux's utf8 decoder refuses."""
    if char < "\x80":
        return 1 if " " <= char < "\x7f" else None
    width = char_width(char)
    return None if width < 0 else width


def _styles(text: str, index: int) -> int | None:
    """The index after a `#[...]` starting at `index`, or None when it is not closed."""
    end = format_skip(text, index + 2, "]")
    return None if end is None else end + 1


def _plain_ascii(text: str) -> bool:
    """Whether every character takes one cell and there are no styles or `##` runs: the
    trimmers' and measurers' usual text, where a cell is a character."""
    return text.isascii() and text.isprintable() and "#[" not in text and "##" not in text


_STYLE, _UNCLOSED, _HASHES = -1, -2, -3
"""What `_pieces` gives as the kind of a `#[...]` style, of an unclosed one and of a run
of `#`s."""


def _pieces(text: str) -> Iterator[tuple[str, int | None, int]]:
    """`text` as format.c's measuring and trimming loops walk it: (piece, cells, kind).
    A run of n `#`s is one piece (kind `_HASHES`) of the cells format_leading_hashes
    gives it (a `##` draws one `#`; an odd run before `[` leaves its last `#` to start
    a style); each `#[...]` style is whole (kind `_STYLE`, no cells); each other character
    has its `_cells` (kind 0); an unclosed style ends the walk (kind `_UNCLOSED`)."""
    index = 0
    while index < len(text):
        if text[index] == "#":
            run = len(text) - index - len(text[index:].lstrip("#"))
            after = text[index + run:index + run + 1]
            if after != "[" or run > 1:
                cells = run // 2 if after == "[" else (run + 1) // 2
                leaves = 1 if after == "[" and run % 2 else 0
                yield "#" * run, cells, _HASHES
                index += run - leaves
                if not leaves:
                    continue
            end = _styles(text, index)
            if end is None:
                yield "", None, _UNCLOSED
                return
            yield text[index:end], None, _STYLE
            index = end
            continue
        yield text[index], _cells(text[index]), 0
        index += 1


def format_width(text: str) -> int:
    """format_width: display cells, `#[...]` styles taking none; 0 for an unclosed one."""
    if _plain_ascii(text):
        return len(text)
    width = 0
    for _, cells, kind in _pieces(text):
        if kind == _UNCLOSED:
            return 0
        if cells is not None:
            width += cells
    return width


def _hashes(run: str, cells: int) -> str:
    """What `cells` cells of a run of `#`s are written as when trimmed: a lone `#` as
    itself, else two `#`s a cell (format_trim_left/right)."""
    return "#" if len(run) == 1 else "#" * (2 * cells)


def text_width(text: str) -> int:
    """utf8_cstrwidth, which padding measures by: styles count as text here."""
    if text.isascii() and text.isprintable():
        return len(text)
    return sum(_cells(char) or 0 for char in text)


def trim_left(text: str, limit: int) -> str:
    """format_trim_left (`=N:`): the first `limit` cells, styles kept, controls dropped."""
    if _plain_ascii(text):
        return text[:limit]
    out: list[str] = []
    width = 0
    for piece, cells, kind in _pieces(text):
        if width >= limit or kind == _UNCLOSED:
            break
        if kind == _STYLE:
            out.append(piece)
        elif kind == _HASHES and cells is not None:
            cells = min(cells, limit - width)
            out.append(_hashes(piece, cells) if cells else "")
            width += cells
        elif cells is not None:
            if width + cells <= limit:
                out.append(piece)
            width += cells
    return "".join(out)


def trim_right(text: str, limit: int) -> str:
    """format_trim_right (`=-N:`): the last `limit` cells; the text untouched when it
    already fits."""
    skip = format_width(text) - limit
    if skip <= 0:
        return text
    if _plain_ascii(text):
        return text[skip:]
    out: list[str] = []
    width = 0
    for piece, cells, kind in _pieces(text):
        if kind == _UNCLOSED:
            break
        if kind == _STYLE:
            out.append(piece)
        elif kind == _HASHES and cells is not None:
            copied = cells if width > skip else max(0, cells - (skip - width))
            out.append(_hashes(piece, copied) if copied else "")
            width += cells
        elif cells is not None:
            if width >= skip:
                out.append(piece)
            width += cells
    return "".join(out)
