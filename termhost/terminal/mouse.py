"""Mouse reports: decode what the outer terminal sends, encode what a pane's application asked for.

The server turns on SGR reporting in the user's terminal (MOUSE_ON), so reports arrive as
ESC [ < b ; x ; y M/m; the legacy forms are read too because a terminal may ignore 1006.
Each pane's application asks for its own tracking mode (9, 1000, 1002, 1003) and encoding
(X10 bytes, 1005, 1006, 1015), and gets the event re-encoded as xterm would have sent it.
Button codes are xterm's (ctlseqs, "Mouse Tracking"): 0-2 buttons, 3 release, +4 shift,
+8 meta, +16 ctrl, +32 motion, +64 wheel. Pure functions: the server does the I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

__all__ = [
    "MOUSE_ALL_OFF",
    "MOUSE_ALL_ON",
    "MOUSE_OFF",
    "MOUSE_ON",
    "MouseEvent",
    "MouseKind",
    "encode_report",
    "parse_report",
]

MOUSE_ON = "\x1b[?1000h\x1b[?1002h\x1b[?1006h"
"""DECSET 1000, 1002, 1006: presses, releases, wheel and drags, as SGR so nothing is clipped."""
MOUSE_OFF = "\x1b[?1006l\x1b[?1002l\x1b[?1000l"
"""DECRST 1006, 1002, 1000: hands the mouse back to the user's terminal (selection, scrolling)."""

MOUSE_ALL_ON = "\x1b[?1003h"
"""DECSET 1003: every motion reported, buttons held or not (a menu following the pointer)."""
MOUSE_ALL_OFF = "\x1b[?1003l"

MouseKind = Literal[
    "press", "release", "motion", "wheel-up", "wheel-down", "wheel-left", "wheel-right"
]

_WHEELS: tuple[MouseKind, ...] = ("wheel-up", "wheel-down", "wheel-left", "wheel-right")
_SHIFT, _META, _CTRL, _MOTION, _WHEEL = 4, 8, 16, 32, 64
_RELEASE = 3  # the low two bits of a release (or of a motion with no button) in the legacy forms

_TRACKING = (0, 9, 1000, 1002, 1003)
_ENCODINGS = (0, 1005, 1006, 1015)
_X10_MAX = 255 - 33  # ESC [ M Cb Cx Cy: a coordinate is one byte, 0-based cell + 33
_UTF8_MAX = 0x7FF - 33  # 1005: a coordinate is one UTF-8 character of at most two bytes

# Parameters are bounded so int() never meets a number longer than sys.int_max_str_digits.
_SGR = re.compile(r"\x1b\[<(\d{1,9});(\d{1,9});(\d{1,9})([Mm])")
_URXVT = re.compile(r"\x1b\[(\d{1,9});(\d{1,9});(\d{1,9})M")
_LEGACY_PREFIX = "\x1b[M"


@dataclass(frozen=True)
class MouseEvent:
    """One mouse report, independent of the encoding it came in or will go out in.

    Coordinates are 0-based cells. `button` is 0 (left), 1 (middle) or 2 (right); it is None
    for wheel events, for motion with no button held, and for a release whose button the
    encoding does not say (every legacy form: their release is button 3).
    """

    x: int
    y: int
    kind: MouseKind
    button: int | None = None
    shift: bool = False
    meta: bool = False
    ctrl: bool = False

    def __post_init__(self) -> None:
        if self.x < 0 or self.y < 0:
            raise ValueError(f"mouse coordinates must be 0 or more: {self.x}, {self.y}")
        if self.button not in (None, 0, 1, 2):
            raise ValueError(f"mouse button must be 0, 1, 2 or None: {self.button}")
        if self.kind == "press" and self.button is None:
            raise ValueError("a mouse press needs a button")
        if self.kind in _WHEELS and self.button is not None:
            raise ValueError("a wheel event has no button")

    @property
    def drag(self) -> bool:
        """Motion with a button held: mode 1002 reports these, plain motion needs 1003."""
        return self.kind == "motion" and self.button is not None

    def at(self, x: int, y: int) -> MouseEvent:
        """The same event at other cells: the server makes coordinates pane-relative."""
        return replace(self, x=x, y=y)


def parse_report(data: str) -> MouseEvent | None:
    """Decode one report as prompt_toolkit hands it over (Keys.Vt100MouseEvent data).

    SGR ESC [ < b ; x ; y M/m, urxvt ESC [ b+32 ; x ; y M, or X10 ESC [ M Cb Cx Cy (each
    byte value + 32, coordinates 1-based). Returns None for anything else, including
    buttons this model does not name (8-11), so the caller can drop what it cannot use.
    """
    if match := _SGR.fullmatch(data):
        code, x, y = (int(group) for group in match.group(1, 2, 3))
        return _decode(code, x - 1, y - 1, released=match.group(4) == "m")
    if match := _URXVT.fullmatch(data):
        code, x, y = (int(group) for group in match.group(1, 2, 3))
        return _decode(code - 32, x - 1, y - 1, released=False)
    if data.startswith(_LEGACY_PREFIX) and len(data) == len(_LEGACY_PREFIX) + 3:
        code, x, y = (_legacy_value(char) for char in data[len(_LEGACY_PREFIX) :])
        return _decode(code - 32, x - 33, y - 33, released=False)
    return None


def encode_report(event: MouseEvent, tracking: int, encoding: int) -> bytes:
    """The bytes xterm would send an application in mouse mode `tracking` with `encoding`.

    b"" when that mode does not report the event: 0 reports nothing; 9 (X10) only
    unmodified button presses; 1000 presses, releases and wheel; 1002 adds drags; 1003
    adds all motion. Also b"" for a coordinate the encoding cannot carry (beyond 222 in
    X10 bytes, 2014 in 1005); tmux clamps those instead, which would click the wrong cell.
    """
    if tracking not in _TRACKING:
        raise ValueError(f"unknown mouse tracking mode: {tracking}")
    if encoding not in _ENCODINGS:
        raise ValueError(f"unknown mouse encoding: {encoding}")
    if not _reported(event, tracking):
        return b""
    if encoding == 1006:
        final = "m" if event.kind == "release" else "M"
        return f"\x1b[<{_code(event, sgr=True)};{event.x + 1};{event.y + 1}{final}".encode()
    code = _code(event, sgr=False)
    if encoding == 1015:
        return f"\x1b[{code + 32};{event.x + 1};{event.y + 1}M".encode()
    if encoding == 1005:
        if max(event.x, event.y) > _UTF8_MAX:
            return b""
        return (_LEGACY_PREFIX + chr(code + 32) + chr(event.x + 33) + chr(event.y + 33)).encode()
    if max(event.x, event.y) > _X10_MAX:
        return b""
    return _LEGACY_PREFIX.encode() + bytes((code + 32, event.x + 33, event.y + 33))


def _reported(event: MouseEvent, tracking: int) -> bool:
    """Whether mode `tracking` reports `event` at all (xterm's SendMousePosition, EditorButton)."""
    if tracking == 9:
        modified = event.shift or event.meta or event.ctrl
        return event.kind == "press" and not modified
    if event.kind == "motion":
        return tracking == 1003 or (tracking == 1002 and event.drag)
    return tracking != 0


def _code(event: MouseEvent, *, sgr: bool) -> int:
    """xterm's button code; a release keeps its button only in SGR (ESC [ < b ; x ; y m)."""
    modifiers = _SHIFT * event.shift + _META * event.meta + _CTRL * event.ctrl
    if event.kind in _WHEELS:
        return _WHEEL + _WHEELS.index(event.kind) + modifiers
    button = _RELEASE if event.button is None else event.button
    if event.kind == "motion":
        return _MOTION + button + modifiers
    if event.kind == "release" and not sgr:
        return _RELEASE + modifiers
    return button + modifiers


def _decode(code: int, x: int, y: int, *, released: bool) -> MouseEvent | None:
    """The event for button `code` at 0-based cells; `released` is SGR's final m."""
    if not 0 <= code < 128 or x < 0 or y < 0:
        return None
    shift, meta, ctrl = bool(code & _SHIFT), bool(code & _META), bool(code & _CTRL)
    low = code & 3
    button = None if low == _RELEASE else low
    if code & _WHEEL:
        if released or code & _MOTION:
            return None
        return MouseEvent(x, y, _WHEELS[low], None, shift, meta, ctrl)
    if code & _MOTION:
        return None if released else MouseEvent(x, y, "motion", button, shift, meta, ctrl)
    if released or button is None:
        return MouseEvent(x, y, "release", button, shift, meta, ctrl)
    return MouseEvent(x, y, "press", button, shift, meta, ctrl)


def _legacy_value(char: str) -> int:
    """A byte of ESC [ M Cb Cx Cy as decoded text: prompt_toolkit reads stdin as UTF-8 with
    surrogateescape, so a byte above 0x7F that is not UTF-8 arrives as U+DC80..U+DCFF."""
    code = ord(char)
    return code - 0xDC00 if 0xDC80 <= code <= 0xDCFF else code
