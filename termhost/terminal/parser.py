"""The escape-sequence parser: decoded text in, calls on a `Handler` out.

A VT500-style state machine (the states of DEC's parser as xterm and tmux implement
them): ground, escape, escape intermediate, CSI entry/param/intermediate/ignore, and the
string states (OSC, and DCS/SOS/PM/APC, which are consumed and dropped). Two regular
expressions make the common cases fast: a run of printable text is one `draw` call, and a
complete CSI sequence with no control characters inside it is parsed in one step. Every
other case goes through the state machine one character at a time, so a sequence split
across two reads, or with a C0 control in the middle, behaves exactly as in xterm.

pyte's own Stream cannot read colon sub-parameters (`38:2::r:g:b`), intermediates
(`CSI Ps SP q`, `CSI > c`), or DCS, and keeps an unterminated OSC without bound: this
parser does all of that, with every string capped.
"""

from __future__ import annotations

import re
from typing import Protocol

__all__ = ["OSC_LIMIT", "PARAM_LIMIT", "Handler", "Params", "Parser"]

PARAM_LIMIT = 65535
"""Largest parameter value kept (xterm and tmux clamp too): `CSI 99999999 C` is 65535."""
OSC_LIMIT = 1 << 20
"""Longest OSC payload kept; an unterminated OSC beyond it is consumed and dropped."""
_PENDING_LIMIT = OSC_LIMIT + 256
"""Characters of a sequence partly read that `pending` keeps at most."""
_MAX_PARAMS = 32
_MAX_INTERMEDIATES = 2

Params = list[list[int | None]]
"""CSI parameters: one list per `;`-separated field, sub-parameters split on `:`.

An empty field is None: `CSI ;5H` is [[None], [5]], `38:2::1:2:3` is [[38, 2, None, 1, 2, 3]].
"""


class Handler(Protocol):
    """What the parser calls; the screen implements it."""

    def draw(self, text: str) -> None:
        """Printable characters, in order."""

    def execute(self, control: str) -> None:
        """A C0 control character (BEL, BS, HT, LF, VT, FF, CR, SO, SI...)."""

    def csi_dispatch(self, private: str, params: Params, intermediates: str, final: str) -> None:
        """`CSI private params intermediates final`."""

    def esc_dispatch(self, intermediates: str, final: str) -> None:
        """`ESC intermediates final`."""

    def osc_dispatch(self, data: str) -> None:
        """`OSC data ST`, data as sent (`0;title`)."""


_GROUND, _ESCAPE, _ESCAPE_INTER, _CSI, _CSI_INTER, _CSI_IGNORE, _OSC, _STRING = range(8)

# Printable: everything but C0, DEL and C1 (U+0080-U+009F, which UTF-8 terminals ignore).
_TEXT = re.compile(r"[^\x00-\x1f\x7f-\x9f]+")
_CSI_FAST = re.compile(r"\x1b\[([<=>?]?)([0-9:;]*)([\x20-\x2f]{0,2})([\x40-\x7e])")
_STRING_END = re.compile(r"[\x07\x18\x1a\x1b\x9c]")
_C0 = re.compile(r"[\x00-\x1f]")
_CAN, _SUB, _ESC, _BEL, _DEL = "\x18", "\x1a", "\x1b", "\x07", "\x7f"


def parse_params(text: str) -> Params:
    """`1;38:5:208;` -> [[1], [38, 5, 208], [None]], values clamped to PARAM_LIMIT."""
    fields: Params = []
    for field in text.split(";")[:_MAX_PARAMS]:
        fields.append([min(int(part), PARAM_LIMIT) if part else None for part in field.split(":")])
    return fields


class Parser:
    """Feeds decoded text to a Handler, keeping state between `feed` calls."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self._state = _GROUND
        self._private = ""
        self._params = ""
        self._intermediates = ""
        self._osc: list[str] = []
        self._osc_size = 0
        self._string_escape = False  # an ESC seen inside a string: ST if '\' follows
        self._since_ground = ""

    @property
    def in_ground(self) -> bool:
        """No sequence is partly read: the next character starts fresh."""
        return self._state == _GROUND

    @property
    def pending(self) -> str:
        """What arrived since the parser last left the ground state, while a sequence is
        partly read (`ESC [ 3 1`, an OSC with no end yet): tmux's input_pending, which
        capture-pane -P shows. "" in the ground state."""
        return self._since_ground

    def reset(self) -> None:
        """Back to the ground state, dropping any partial sequence."""
        self._state = _GROUND
        self._since_ground = ""
        self._clear()

    def feed(self, text: str) -> None:
        """Parse `text`, which may end in the middle of a sequence."""
        handler = self.handler
        text_match = _TEXT.match
        csi_match = _CSI_FAST.match
        length = len(text)
        offset = 0
        left_ground: int | None = None  # where the last sequence begun in `text` began
        while offset < length:
            if self._state == _GROUND:
                match = text_match(text, offset)
                if match is not None:
                    handler.draw(match.group())
                    offset = match.end()
                    continue
                char = text[offset]
                if char == _ESC:
                    match = csi_match(text, offset)
                    if match is not None:
                        private, params, intermediates, final = match.groups()
                        handler.csi_dispatch(private, parse_params(params), intermediates, final)
                        offset = match.end()
                        continue
                    self._state = _ESCAPE
                    self._clear()
                    left_ground = offset
                elif char < " ":
                    handler.execute(char)
                # DEL and C1 are ignored in the ground state
                offset += 1
                continue
            if self._state in (_OSC, _STRING):
                offset = self._string(text, offset)
                continue
            self._step(text[offset])
            offset += 1
        if self._state == _GROUND:
            self._since_ground = ""
        elif left_ground is not None:
            self._since_ground = text[left_ground:left_ground + _PENDING_LIMIT]
        elif len(self._since_ground) < _PENDING_LIMIT:  # the sequence goes on from before
            self._since_ground = (self._since_ground + text)[:_PENDING_LIMIT]

    def _clear(self) -> None:
        self._private = self._params = self._intermediates = ""

    def _step(self, char: str) -> None:
        """One character in a non-ground, non-string state."""
        state = self._state
        if char in (_CAN, _SUB):
            self._state = _GROUND  # abort the sequence (xterm draws nothing for either)
            return
        if char == _ESC:
            self._state = _ESCAPE
            self._clear()
            return
        if char < " ":
            self.handler.execute(char)  # C0 inside a sequence runs, the sequence goes on
            return
        if char == _DEL:
            return
        if state == _ESCAPE:
            if char == "[":
                self._state = _CSI
            elif char == "]":
                self._state = _OSC
                self._osc, self._osc_size, self._string_escape = [], 0, False
            elif char in "PX^_k":  # DCS, SOS, PM, APC, screen's title: consumed, dropped
                self._state = _STRING
                self._string_escape = False
            elif char <= "/":
                self._intermediates = char
                self._state = _ESCAPE_INTER
            else:
                self._state = _GROUND
                self.handler.esc_dispatch("", char)
        elif state == _ESCAPE_INTER:
            if char <= "/":
                self._intermediates = (self._intermediates + char)[:_MAX_INTERMEDIATES]
            else:
                self._state = _GROUND
                self.handler.esc_dispatch(self._intermediates, char)
        elif state == _CSI:
            if char in "<=>?":
                if self._params or self._private:
                    self._state = _CSI_IGNORE  # a private marker after parameters
                else:
                    self._private = char
            elif "0" <= char <= ";":
                self._params += char
                if len(self._params) > 256:
                    self._state = _CSI_IGNORE
            elif char <= "/":
                self._intermediates = char
                self._state = _CSI_INTER
            elif char <= "~" and char >= "@":
                self._state = _GROUND
                self.handler.csi_dispatch(self._private, parse_params(self._params), "", char)
            else:
                self._state = _CSI_IGNORE
        elif state == _CSI_INTER:
            if char <= "/":
                self._intermediates = (self._intermediates + char)[:_MAX_INTERMEDIATES]
            elif "@" <= char <= "~":
                self._state = _GROUND
                self.handler.csi_dispatch(
                    self._private, parse_params(self._params), self._intermediates, char
                )
            else:
                self._state = _CSI_IGNORE
        elif state == _CSI_IGNORE and "@" <= char <= "~":
            self._state = _GROUND

    def _string(self, text: str, offset: int) -> int:
        """Consume OSC/DCS/SOS/PM/APC payload up to ST (ESC \\), BEL, or a C1 ST."""
        osc = self._state == _OSC
        if self._string_escape:
            self._string_escape = False
            self._end_string(osc)
            if text[offset] == "\\":
                return offset + 1
            self._state = _ESCAPE  # ESC then something else: that starts a new sequence
            self._clear()
            return offset
        match = _STRING_END.search(text, offset)
        stop = len(text) if match is None else match.start()
        if osc and stop > offset and self._osc_size < OSC_LIMIT:
            chunk = _C0.sub("", text[offset:stop])[: OSC_LIMIT - self._osc_size]
            self._osc.append(chunk)
            self._osc_size += len(chunk)
        if match is None:
            return stop
        char = match.group()
        if char == _ESC:
            self._string_escape = True
        elif char in (_CAN, _SUB):
            self._state = _GROUND
        elif char == _BEL and not osc:
            pass  # BEL ends an OSC only
        else:
            self._end_string(osc)
        return stop + 1

    def _end_string(self, osc: bool) -> None:
        self._state = _GROUND
        if osc:
            data = "".join(self._osc)
            self._osc, self._osc_size = [], 0
            self.handler.osc_dispatch(data)
