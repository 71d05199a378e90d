"""Key encoding: tmux key names (send-keys, key bindings) to the bytes a pane's application reads.

Names follow tmux 3.3a's key-string.c and sequences its input-keys.c. Where tmux and xterm
disagree, tmux wins: the scripts and configs run against termhost were written for tmux.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "PASTE_END",
    "PASTE_START",
    "Key",
    "KeyModes",
    "UnknownKey",
    "UnsendableKey",
    "encode_key",
    "encode_keys",
    "encode_paste",
    "parse_key",
]

PASTE_START = b"\x1b[200~"
"""Opens a bracketed paste (mode 2004): the application treats what follows as text, not keys."""
PASTE_END = b"\x1b[201~"
"""Closes a bracketed paste; never allowed inside the pasted text (see encode_paste)."""


@dataclass(frozen=True)
class KeyModes:
    """The pane's terminal modes that change what a key sends; the application sets them."""

    application_cursor: bool = False
    """DECCKM (CSI ? 1 h): unmodified arrows send SS3 (ESC O A) instead of CSI (ESC [ A)."""
    application_keypad: bool = False
    """DECKPAM (ESC =), DECKPNM (ESC >): keypad keys send ESC O p..y instead of digits."""
    bracketed_paste: bool = False
    """Mode 2004: pastes arrive between PASTE_START and PASTE_END."""


class UnknownKey(ValueError):
    """A name that is not a key; send-keys sends such an argument as text, as tmux does."""

    def __init__(self, name: str, message: str = "") -> None:
        super().__init__(message or f"unknown key: {name}")
        self.name = name


class UnsendableKey(UnknownKey):
    """A key tmux can name but has no bytes for (S-a, C-M-1); send-keys sends the name as text.

    A subclass of UnknownKey because tmux treats both alike: the argument goes out as text.
    """

    def __init__(self, name: str) -> None:
        super().__init__(name, f"key has no sequence to send: {name}")


@dataclass(frozen=True)
class Key:
    """One key as tmux names it: a base (a character, or a name such as 'Left') and modifiers.

    parse_key returns canonical keys, so names tmux reads as the same key code (C-a and ^A,
    C-[ and Escape, C-i and Tab, PgUp and PPage) give equal Keys and key tables can be dicts.
    """

    base: str
    ctrl: bool = False
    meta: bool = False
    shift: bool = False

    @property
    def name(self) -> str:
        """The tmux spelling, modifiers in tmux's order (C-M-S-); parse_key reads it back."""
        return "C-" * self.ctrl + "M-" * self.meta + "S-" * self.shift + self.base

    def __str__(self) -> str:
        return self.name


# Keys whose sequence takes xterm's modifier parameter (1 + shift + 2 meta + 4 ctrl) when
# modified: name -> (unmodified sequence, the CSI parameter before the modifier, final byte).
_MODIFIABLE: dict[str, tuple[bytes, str, str]] = {
    "F1": (b"\x1bOP", "1", "P"),
    "F2": (b"\x1bOQ", "1", "Q"),
    "F3": (b"\x1bOR", "1", "R"),
    "F4": (b"\x1bOS", "1", "S"),
    "F5": (b"\x1b[15~", "15", "~"),
    "F6": (b"\x1b[17~", "17", "~"),
    "F7": (b"\x1b[18~", "18", "~"),
    "F8": (b"\x1b[19~", "19", "~"),
    "F9": (b"\x1b[20~", "20", "~"),
    "F10": (b"\x1b[21~", "21", "~"),
    "F11": (b"\x1b[23~", "23", "~"),
    "F12": (b"\x1b[24~", "24", "~"),
    "IC": (b"\x1b[2~", "2", "~"),
    "DC": (b"\x1b[3~", "3", "~"),
    # tmux sends the VT220 forms ESC [1~ / ESC [4~ for Home/End, in DECCKM too; xterm sends
    # ESC [H / ESC [F (ESC OH / ESC OF under DECCKM). Modified, both send xterm's CSI 1;m H/F.
    "Home": (b"\x1b[1~", "1", "H"),
    "End": (b"\x1b[4~", "1", "F"),
    "PPage": (b"\x1b[5~", "5", "~"),
    "NPage": (b"\x1b[6~", "6", "~"),
    "Up": (b"\x1b[A", "1", "A"),
    "Down": (b"\x1b[B", "1", "B"),
    "Right": (b"\x1b[C", "1", "C"),
    "Left": (b"\x1b[D", "1", "D"),
}

# What unmodified arrows send under DECCKM; modified arrows ignore the mode (tmux, xterm).
_APPLICATION_CURSOR: dict[str, bytes] = {
    "Up": b"\x1bOA",
    "Down": b"\x1bOB",
    "Right": b"\x1bOC",
    "Left": b"\x1bOD",
}

# Keypad keys: name -> (numeric keypad mode, application keypad mode). tmux sends LF for
# KPEnter in numeric mode (xterm sends CR).
_KEYPAD: dict[str, tuple[bytes, bytes]] = {
    "KP/": (b"/", b"\x1bOo"),
    "KP*": (b"*", b"\x1bOj"),
    "KP-": (b"-", b"\x1bOm"),
    "KP7": (b"7", b"\x1bOw"),
    "KP8": (b"8", b"\x1bOx"),
    "KP9": (b"9", b"\x1bOy"),
    "KP+": (b"+", b"\x1bOk"),
    "KP4": (b"4", b"\x1bOt"),
    "KP5": (b"5", b"\x1bOu"),
    "KP6": (b"6", b"\x1bOv"),
    "KP1": (b"1", b"\x1bOq"),
    "KP2": (b"2", b"\x1bOr"),
    "KP3": (b"3", b"\x1bOs"),
    "KPEnter": (b"\n", b"\x1bOM"),
    "KP0": (b"0", b"\x1bOp"),
    "KP.": (b".", b"\x1bOn"),
}

# Keys with one fixed sequence and no modified form (tmux has no CSI 1;m Z).
_FIXED: dict[str, bytes] = {"BTab": b"\x1b[Z"}

# Named keys that are characters, encoded (and modified) like typed characters.
_NAMED_CHARS: dict[str, str] = {
    "Tab": "\t",
    "Space": " ",
    "BSpace": "\x7f",
    "Enter": "\r",
    "Escape": "\x1b",
}

# Key names as typed (any case) -> canonical name; canonical names are tmux's display names.
_NAMES: dict[str, str] = {
    **{name.lower(): name for name in [*_MODIFIABLE, *_KEYPAD, *_FIXED, *_NAMED_CHARS]},
    "insert": "IC",
    "delete": "DC",
    "pagedown": "NPage",
    "pgdn": "NPage",
    "pageup": "PPage",
    "pgup": "PPage",
}

# C- on these characters stays a modifier instead of making a control character (tmux's
# key-string.c list, plus Tab, Enter, Escape and BSpace); most then send nothing.
_CTRL_KEPT = frozenset("!#'()+,-./0123456789:;<=>`\t\r\x1b\x7f")

# The few kept C- characters that still send a control character (input-keys.c's fallback,
# what a VT220 keyboard sends for C-2, C-6, C-- and C-/).
_CTRL_FALLBACK: dict[str, bytes] = {"2": b"\x00", "6": b"\x1e", "-": b"\x1f", "/": b"\x1f"}

# Character codes tmux displays by name; 0 is C-Space.
_CODE_NAMES: dict[int, str] = {0x09: "Tab", 0x0D: "Enter", 0x1B: "Escape", 0x20: "Space"}

_HEX = re.compile(r"0x([0-9a-fA-F]+)")


def _apply_ctrl(char: str, ctrl: bool, name: str) -> tuple[int, bool]:
    """The code of `char` under C-, and whether C- is still a modifier afterwards.

    C- on a letter and on @ [ \\ ] ^ _ space ? makes the control character and is used up;
    on the _CTRL_KEPT characters it stays a modifier; tmux knows no other C- character keys.
    """
    code = ord(char)
    if not ctrl or char in _CTRL_KEPT:
        return code, ctrl
    if 0x61 <= code <= 0x7A:
        return code - 0x60, False
    if 0x40 <= code <= 0x5F:
        return code - 0x40, False
    if char == " ":
        return 0x00, False
    if char == "?":
        return 0x7F, False
    raise UnknownKey(name)


def _key_for_code(code: int, *, ctrl: bool, meta: bool, shift: bool) -> Key:
    """The canonical Key for character `code`, so spellings of one key code compare equal."""
    if code in _CODE_NAMES:
        return Key(_CODE_NAMES[code], ctrl, meta, shift)
    if code == 0x00:
        return Key("Space", True, meta, shift)
    if code < 0x20:
        return Key(chr(code + (0x60 if code <= 26 else 0x40)), True, meta, shift)
    if code == 0x7F:
        return Key("?", True, meta, shift)
    return Key(chr(code), ctrl, meta, shift)


def parse_key(name: str) -> Key:
    """The key tmux means by `name`: 'C-M-Left', 'M-x', '^c', 'Enter', 'é', '0x41'.

    Modifier prefixes (C- M- S-, either case) come in any order, and a leading ^ means C-.
    Key names ignore case; single characters do not (M-a and M-A differ), except under C-,
    which makes the control character (C-a and C-A are both 0x01).
    """
    hexadecimal = _HEX.fullmatch(name)
    if hexadecimal:
        code = int(hexadecimal[1], 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise UnknownKey(name)
        return _key_for_code(code, ctrl=False, meta=False, shift=False)

    rest, ctrl, meta, shift = name, False, False, False
    if rest.startswith("^") and len(rest) > 1:
        rest, ctrl = rest[1:], True
    while len(rest) > 1 and rest[1] == "-":
        if rest[0] in "Cc":
            ctrl = True
        elif rest[0] in "Mm":
            meta = True
        elif rest[0] in "Ss":
            shift = True
        else:
            raise UnknownKey(name)
        rest = rest[2:]

    if len(rest) == 1:
        if ord(rest) < 0x20:
            raise UnknownKey(name)
        if ord(rest) > 0x7F:
            return Key(rest, ctrl, meta, shift)
        char = rest
    else:
        base = _NAMES.get(rest.lower())
        if base is None:
            raise UnknownKey(name)
        if base not in _NAMED_CHARS or base == "BSpace":
            return Key(base, ctrl, meta, shift)
        char = _NAMED_CHARS[base]

    code, ctrl = _apply_ctrl(char, ctrl, name)
    key = _key_for_code(code, ctrl=ctrl, meta=meta, shift=shift)
    if key.base == "Tab" and key.shift:
        # tmux 3.3a has no sequence for S-Tab and sends the name as text; every terminal
        # sends back-tab for it, and that is what a user asking for S-Tab means.
        return Key("BTab", key.ctrl, key.meta)
    return key


def _ctrl_alone(key: Key, ctrl: bool, name: str, fallback: bytes = b"") -> bytes:
    """What tmux sends for a key it has no sequence for.

    With C- as the only modifier tmux still "sends" it, as `fallback` (often nothing);
    any other modifier makes it unsendable and send-keys sends the name as text.
    """
    if ctrl and not key.meta and not key.shift:
        return fallback
    raise UnsendableKey(name)


def _encode_char(key: Key, char: str, name: str) -> bytes:
    """A character key: itself, C- making a control character, M- prefixing ESC."""
    prefix = b"\x1b" if key.meta else b""
    if ord(char) > 0x7F:
        # tmux drops C- and S- on non-ASCII characters: they have no control form.
        return prefix + char.encode()
    code, ctrl = _apply_ctrl(char, key.ctrl, name)
    if ctrl or key.shift:
        return _ctrl_alone(key, ctrl, name, _CTRL_FALLBACK.get(char, b""))
    return prefix + bytes([code])


def encode_key(key: Key | str, modes: KeyModes = KeyModes()) -> bytes:
    """The bytes the application in a pane with `modes` reads when `key` is pressed.

    b"" for the keys tmux accepts but sends nothing for (C-1, C-Tab, C-Enter).
    Raises UnknownKey for a name that is no key, UnsendableKey for a key with no bytes.
    """
    if isinstance(key, str):
        name, key = key, parse_key(key)
    else:
        name = key.name
    base = key.base
    if base in _NAMED_CHARS:
        return _encode_char(key, _NAMED_CHARS[base], name)
    if len(base) == 1:
        return _encode_char(key, base, name)
    if base in _MODIFIABLE:
        plain, parameter, final = _MODIFIABLE[base]
        if key.ctrl or key.meta or key.shift:
            modifier = 1 + key.shift + 2 * key.meta + 4 * key.ctrl
            return f"\x1b[{parameter};{modifier}{final}".encode()
        if modes.application_cursor:
            return _APPLICATION_CURSOR.get(base, plain)
        return plain
    if base in _KEYPAD:
        numeric, application = _KEYPAD[base]
        sequence = application if modes.application_keypad else numeric
    elif base in _FIXED:
        sequence = _FIXED[base]
    else:
        raise UnknownKey(name)
    if key.ctrl or key.shift:
        return _ctrl_alone(key, key.ctrl, name)
    return (b"\x1b" if key.meta else b"") + sequence


def encode_paste(text: str, modes: KeyModes) -> bytes:
    """The bytes for pasting `text`: what paste-buffer sends, in brackets if the app asked.

    Line ends become CR, as typing Enter would send (tmux's paste-buffer without -r).
    CRLF becomes one CR, not tmux's two: a paste from a CRLF file must not double its lines.
    In a bracketed paste the text loses every PASTE_END, so pasted text cannot end the
    bracket early and have the rest run as typed commands (tmux does not strip it).
    """
    data = text.replace("\r\n", "\r").replace("\n", "\r").encode("utf-8", "surrogateescape")
    if not modes.bracketed_paste:
        return data
    while PASTE_END in data:  # removing one may join the pieces of another
        data = data.replace(PASTE_END, b"")
    return PASTE_START + data + PASTE_END


def encode_keys(
    names: Iterable[str],
    modes: KeyModes = KeyModes(),
    *,
    literal: bool = False,
) -> bytes:
    """The bytes `send-keys NAME...` sends: each name as a key, or as text if it is none.

    literal=True is send-keys -l: every argument is text, 'Enter' included.
    """
    data = bytearray()
    for name in names:
        if not literal:
            try:
                data += encode_key(name, modes)
                continue
            except UnknownKey:
                pass  # tmux sends an argument that is no key as the text it is
        data += name.encode("utf-8", "surrogateescape")
    return bytes(data)
