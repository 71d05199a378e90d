"""terminal-overrides: what a user says of their terminal's capabilities, by TERM.

Each element of the array option is `PATTERN:CAP:CAP...`, the pattern an fnmatch(3)
pattern matched against the client's TERM, each capability `name=value` (the value read
by strunvis(3)), `name` (a flag) or `name@` (the terminal lacks it), `::` standing for a
colon, as tmux's tty_term_apply_overrides reads them; terminal-features elements are
split the same way. Later elements and later capabilities win. termhost honours what
changes how it draws: `am@`, a terminal without automatic margins, has its bottom right
cell left unwritten; the rest describes the terminal (tty_term.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from termhost.mux.libc import fnmatch

__all__ = ["capabilities", "fields", "has_automatic_margins", "matching", "parse", "unvis"]


def fields(text: str) -> list[str]:
    """`text` split at its colons, `::` standing for a colon (tty_term_override_next)."""
    return [field.replace("\0", ":") for field in text.replace("::", "\0").split(":")]


def matching(elements: Iterable[str], term: str) -> Iterator[list[str]]:
    """The fields after the pattern of each element whose pattern matches `term`."""
    for element in elements:
        pattern, *rest = fields(element)
        if fnmatch(pattern, term):
            yield rest


def parse(entries: Iterable[str]) -> Iterator[tuple[str, bytes | None]]:
    """Capabilities as tmux's tty_term_apply reads them: `name=value`, `name` (a flag
    set, or an empty string) or `name@` (taken away: None)."""
    for field in entries:
        name, equals, value = field.partition("=")
        if equals:
            yield name, unvis(value)
        elif name.endswith("@"):
            yield name[:-1], None
        elif name:
            yield name, b""


def capabilities(overrides: Iterable[str], term: str) -> dict[str, bytes | None]:
    """The capabilities the overrides give a terminal called `term`: name to value
    (b"" for a flag set), None for one taken away with `name@`."""
    found: dict[str, bytes | None] = {}
    for entries in matching(overrides, term):
        found.update(parse(entries))
    return found


_C_STYLE = {ord(key): value for key, value in (
    ("n", 10), ("r", 13), ("b", 8), ("a", 7), ("v", 11), ("t", 9), ("f", 12), ("s", 32),
    ("E", 27), ("\\", 92))}


def unvis(text: str) -> bytes:
    """`text` decoded as OpenBSD's strunvis(3) does (`\\E`, `\\n`, `\\s`, `\\033`,
    `\\^G`, `\\M-a`, `\\$`), up to a NUL, as a C string ends; `text` as it is when it
    is not strunvis's (`\\e`, a lone backslash), as tmux keeps it then."""
    raw = text.encode("utf-8", "surrogateescape")
    out = bytearray()
    at = 0
    while at < len(raw):
        byte = raw[at]
        at += 1
        if byte != 92:  # a backslash
            out.append(byte)
            continue
        char = raw[at] if at < len(raw) else None
        at += 1
        if char is None:
            return raw.split(b"\0", 1)[0]
        if char in _C_STYLE:
            out.append(_C_STYLE[char])
        elif 48 <= char <= 55:  # \NNN, up to three octal digits
            value, digits = char - 48, 1
            while digits < 3 and at < len(raw) and 48 <= raw[at] <= 55:
                value, digits, at = value * 8 + raw[at] - 48, digits + 1, at + 1
            out.append(value & 0xFF)
        elif char == 94 and at < len(raw):  # \^X, a control character
            out.append(127 if raw[at] == 63 else raw[at] & 0x1F)
            at += 1
        elif char == 77 and raw[at:at + 1] in (b"-", b"^") and at + 1 < len(raw):  # \M-
            meta, at = raw[at + 1], at + 2
            out.append((meta & 0x1F if raw[at - 2] == 94 else meta) | 0x80)
        elif char not in (36, 10):  # \$ and an escaped newline stand for nothing
            return raw.split(b"\0", 1)[0]
    return bytes(out).split(b"\0", 1)[0]


def has_automatic_margins(overrides: Iterable[str], term: str) -> bool:
    """Whether a terminal called `term` wraps at the right margin (terminfo `am`): every
    terminal termhost draws for does, unless the overrides say `am@`."""
    return capabilities(overrides, term).get("am", b"") is not None
