"""An attached client's terminal as tmux 3.3a describes it (tty-term.c, tty-features.c):
tmux's capabilities read from terminfo(5), terminal-features and terminal-overrides
applied over them, and the flags tmux derives.

termhost draws with its own sequences; the description is for what tmux decides by it:
whether set-buffer -w can put text on the terminal's clipboard (Ms, OSC 52), and what
show-messages -T prints. terminfo is read with infocmp(1), once per terminal type, as
the ncurses tmux links reads it; the terminal is not queried (tmux 3.3a adds features
from its answers to DA and XTVERSION too, so a terminal tmux recognised may show more).
"""

from __future__ import annotations

import base64
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from termhost.mux.shell import run_shell
from termhost.mux.terminal_overrides import fields, matching, parse

__all__ = ["CODES", "TerminalDescription", "describe_terminal"]

_CODE_NAMES = """
    acsc am AX bce bel Bidi blink bold civis clear Clmg Cmg cnorm colors Cr Cs csr cub cub1
    cud cud1 cuf cuf1 cup cuu cuu1 cvvis dch dch1 dim dl dl1 Dsbp Dseks Dsfcs Dsmg E3 ech ed
    el el1 enacs Enbp Eneks Enfcs Enmg fsl home hpa ich ich1 il il1 indn invis kcbt kcub1
    kcud1 kcuf1 kcuu1 kDC kDC3 kDC4 kDC5 kDC6 kDC7 kdch1 kDN kDN3 kDN4 kDN5 kDN6 kDN7 kend
    kEND kEND3 kEND4 kEND5 kEND6 kEND7 kf1 kf10 kf11 kf12 kf13 kf14 kf15 kf16 kf17 kf18 kf19
    kf2 kf20 kf21 kf22 kf23 kf24 kf25 kf26 kf27 kf28 kf29 kf3 kf30 kf31 kf32 kf33 kf34 kf35
    kf36 kf37 kf38 kf39 kf4 kf40 kf41 kf42 kf43 kf44 kf45 kf46 kf47 kf48 kf49 kf5 kf50 kf51
    kf52 kf53 kf54 kf55 kf56 kf57 kf58 kf59 kf6 kf60 kf61 kf62 kf63 kf7 kf8 kf9 kHOM kHOM3
    kHOM4 kHOM5 kHOM6 kHOM7 khome kIC kIC3 kIC4 kIC5 kIC6 kIC7 kich1 kind kLFT kLFT3 kLFT4
    kLFT5 kLFT6 kLFT7 kmous knp kNXT kNXT3 kNXT4 kNXT5 kNXT6 kNXT7 kpp kPRV kPRV3 kPRV4 kPRV5
    kPRV6 kPRV7 kri kRIT kRIT3 kRIT4 kRIT5 kRIT6 kRIT7 kUP kUP3 kUP4 kUP5 kUP6 kUP7 Ms ol op
    Rect rev RGB ri rin rmacs rmcup rmkx Se setab setaf setal setrgbb setrgbf Setulc sgr0 sitm
    smacs smcup smkx Smol smso smul Smulx smxx Ss Swd Sync Tc tsl U8 vpa XT
"""
CODES = tuple(_CODE_NAMES.split())
"""tmux 3.3a's capabilities (tty_term_codes), in its order: show-messages -T numbers them."""
_FLAGS = frozenset({"am", "AX", "bce", "RGB", "Tc", "XT"})
_NUMBERS = frozenset({"colors", "U8"})
"""The codes that are flags and numbers; the others are strings."""

Value = bytes | int | bool

TERM_256COLOURS, TERM_NOAM, TERM_DECSLRM, TERM_DECFRA, TERM_RGBCOLOURS, TERM_VT100LIKE = (
    0x1, 0x2, 0x4, 0x8, 0x10, 0x20)
"""tmux.h's terminal flags, as show-messages -T prints them."""

_SETAB = r"setab=\E[%?%p1%{8}%<%t4%p1%d%e%p1%{16}%<%t10%p1%{8}%-%d%e48;5;%p1%d%;m"
_SETAF = r"setaf=\E[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m"
_FEATURES: dict[str, tuple[tuple[str, ...], int]] = {
    "256": (("AX", _SETAB, _SETAF), TERM_256COLOURS),
    "bpaste": ((r"Enbp=\E[?2004h", r"Dsbp=\E[?2004l"), 0),
    "ccolour": ((r"Cs=\E]12;%p1%s\a", r"Cr=\E]112\a"), 0),
    "clipboard": ((r"Ms=\E]52;%p1%s;%p2%s\a",), 0),
    "cstyle": ((r"Ss=\E[%p1%d q", r"Se=\E[2 q"), 0),
    "extkeys": ((r"Eneks=\E[>4;1m", r"Dseks=\E[>4m"), 0),
    "focus": ((r"Enfcs=\E[?1004h", r"Dsfcs=\E[?1004l"), 0),
    "margins": ((r"Enmg=\E[?69h", r"Dsmg=\E[?69l", r"Clmg=\E[s", r"Cmg=\E[%i%p1%d;%p2%ds"),
                TERM_DECSLRM),
    "mouse": ((r"kmous=\E[M",), 0),
    "osc7": ((r"Swd=\E]7;", r"fsl=\a"), 0),
    "overline": ((r"Smol=\E[53m",), 0),
    "rectfill": (("Rect",), TERM_DECFRA),
    "RGB": (("AX", r"setrgbf=\E[38;2;%p1%d;%p2%d;%p3%dm",
             r"setrgbb=\E[48;2;%p1%d;%p2%d;%p3%dm", _SETAB, _SETAF),
            TERM_256COLOURS | TERM_RGBCOLOURS),
    "strikethrough": ((r"smxx=\E[9m",), 0),
    "sync": ((r"Sync=\EP=%p1%ds\E\\",), 0),
    "title": ((r"tsl=\E]0;", r"fsl=\a"), 0),
    "usstyle": ((r"Smulx=\E[4::%p1%dm",
                 r"Setulc=\E[58::2::%p1%{65536}%/%d::%p1%{256}%/%{255}%&%d::%p1%{255}%&%d%;m",
                 r"ol=\E[59m"), 0),
}
"""tmux 3.3a's terminal features (tty_features): the capabilities each sets, written as
terminal-overrides are, and the flags it gives, in the order tmux applies them."""


@dataclass
class TerminalDescription:
    """One client's terminal: its type, the capabilities tmux knows it by, tmux's flags."""

    name: str
    codes: dict[str, Value] = field(default_factory=dict)
    flags: int = 0

    def has(self, name: str) -> bool:
        return name in self.codes

    def describe(self) -> list[str]:
        """One line a capability, numbered in tmux's order, as tmux's tty_term_describe."""
        lines = []
        for number, name in enumerate(CODES):
            value = self.codes.get(name)
            if value is None:
                lines.append(f"{number:4}: {name}: [missing]")
            elif isinstance(value, bytes):
                lines.append(f"{number:4}: {name}: (string) {_vis(value)}")
            elif isinstance(value, bool):
                lines.append(f"{number:4}: {name}: (flag) {'true' if value else 'false'}")
            else:
                lines.append(f"{number:4}: {name}: (number) {value}")
        return lines

    def selection(self, data: bytes) -> str | None:
        """What sets the terminal's clipboard to `data`, as tmux's tty_set_selection:
        Ms with an empty selection and the data in base64; None without Ms."""
        template = self.codes.get("Ms")
        if not isinstance(template, bytes):
            return None
        arguments = {b"1": b"", b"2": base64.b64encode(data)}
        expanded = re.sub(rb"%%|%p([1-9])%s", lambda match: arguments.get(
            match.group(1), b"") if match.group(1) else b"%", template)
        return expanded.decode("utf-8", "replace")

    def _apply(self, capabilities: Iterable[tuple[str, bytes | None]]) -> None:
        """tmux's tty_term_apply: each known code set (a string's value, a number's when
        it is one, a flag true) or, given None, taken away."""
        for name, value in capabilities:
            if name not in CODES:
                continue
            if value is None:
                self.codes.pop(name, None)
            elif name in _FLAGS:
                self.codes[name] = True
            elif name in _NUMBERS:
                if value.isdigit() and int(value) <= 2**31 - 1:
                    self.codes[name] = int(value)
            else:
                self.codes[name] = value

    def _apply_overrides(self, overrides: list[str]) -> None:
        """tty_term_apply_overrides: the option's capabilities, then the flags that
        follow from what the terminal has."""
        for capabilities in matching(overrides, self.name):
            self._apply(parse(capabilities))
        for flag, present in ((TERM_RGBCOLOURS, self.has("setrgbf") and self.has("setrgbb")),
                              (TERM_DECSLRM, self.has("Cmg") and self.has("Clmg")),
                              (TERM_DECFRA, self.has("Rect")),
                              (TERM_NOAM, self.codes.get("am") is not True)):
            self.flags = self.flags | flag if present else self.flags & ~flag


def _add_features(features: list[str], names: Iterable[str]) -> None:
    """tty_add_features: the named features (any case), up to the first unknown one."""
    known = {name.lower(): name for name in _FEATURES}
    for name in names:
        feature = known.get(name.lower())
        if feature is None:
            return
        if feature not in features:
            features.append(feature)


async def describe_terminal(name: str, env: Mapping[str, str], features_option: list[str],
                            overrides: list[str]) -> TerminalDescription:
    """The terminal called `name` (its TERM) as tmux's tty_term_create makes it, with the
    terminfo `env` finds and the terminal-features and terminal-overrides elements."""
    term = TerminalDescription(name, dict(await _terminfo(name, env)))
    features: list[str] = []
    for names in matching(features_option, name):
        _add_features(features, names)
    term._apply_overrides(overrides)
    clear = term.codes.get("clear")
    if term.codes.get("XT") is True or (isinstance(clear, bytes) and clear.startswith(b"\x1b[")):
        term.flags |= TERM_VT100LIKE
        _add_features(features, ("bpaste", "focus", "title"))
    if (term.codes.get("Tc") is True or term.has("RGB")) and not (
            term.has("setrgbf") and term.has("setrgbb")):
        _add_features(features, ("RGB",))
    applied = [feature for feature in _FEATURES if feature in features]
    for feature in applied:
        capabilities, flags = _FEATURES[feature]
        term._apply(parse(part for capability in capabilities for part in fields(capability)))
        term.flags |= flags
    if applied:
        term._apply_overrides(overrides)
    return term


_TERMINFO: dict[tuple[str, str, str], dict[str, Value]] = {}
"""What infocmp read, by terminal type and the TERMINFO and TERMINFO_DIRS it was read with."""


async def _terminfo(name: str, env: Mapping[str, str]) -> dict[str, Value]:
    """The terminfo entry of `name`, tmux's codes in it, each only of the type tmux reads
    it as (tigetstr, tigetnum, tigetflag), padding (`$<5>`) taken out of strings as tmux
    does; nothing for a terminal infocmp does not know."""
    key = (name, env.get("TERMINFO", ""), env.get("TERMINFO_DIRS", ""))
    if key not in _TERMINFO:
        status, output = await run_shell(f"exec infocmp -1 -x -- {shlex.quote(name)} 2>&1",
                                         env, None)
        _TERMINFO[key] = _read_infocmp(output) if status.code == 0 else {}
    return _TERMINFO[key]


_ENTRY = re.compile(r"\t([^=#@,]+)(?:=(.*)|#(\w+)|(@))?,$")
_SOURCE_ESCAPE = re.compile(r"\\([0-7]{1,3}|.)|\^(.)")
_SOURCE_ESCAPES = {"E": "\x1b", "e": "\x1b", "n": "\n", "l": "\n", "r": "\r", "t": "\t",
                   "b": "\b", "f": "\f", "s": " ", "0": "\x80"}
_PADDING = re.compile(rb"\$<[^>]*>?")


def _read_infocmp(output: str) -> dict[str, Value]:
    """`infocmp -1 -x`'s entry: one capability a line, tab-indented, comma-ended."""
    codes: dict[str, Value] = {}
    for line in output.splitlines():
        match = _ENTRY.fullmatch(line)
        if match is None or match.group(1) not in CODES:
            continue
        name, string, number, cancelled = match.groups()
        if cancelled:
            continue
        if string is not None and name not in _FLAGS | _NUMBERS:
            codes[name] = _PADDING.sub(b"", _source_string(string))
        elif number is not None and name in _NUMBERS:
            codes[name] = int(number, 0)
        elif string is None and number is None and name in _FLAGS:
            codes[name] = True
    return codes


def _source_string(text: str) -> bytes:
    """A terminfo source string (`\\E[%p1%dm`, `^G`, `\\072`) as its bytes."""
    def byte(match: re.Match[str]) -> str:
        escaped, control = match.groups()
        if control is not None:
            return "\x7f" if control == "?" else chr(ord(control) & 0x1F)
        if escaped[0] in "01234567" and (len(escaped) > 1 or escaped != "0"):
            return chr(int(escaped, 8) & 0xFF)
        return _SOURCE_ESCAPES.get(escaped, escaped)
    return _SOURCE_ESCAPE.sub(byte, text).encode("latin-1", "replace")


_VIS = {0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f",
        0x0D: "\\r", 0x5C: "\\\\"}


def _vis(value: bytes, limit: int = 127) -> str:
    """`value` as tmux shows a capability (strnvis with VIS_OCTAL, VIS_CSTYLE, VIS_TAB
    and VIS_NL into 128 bytes): C escapes, other non-printables in octal, cut short at a
    whole character when it does not fit."""
    out: list[str] = []
    size = 0
    for index, byte in enumerate(value):
        if byte in _VIS:
            piece = _VIS[byte]
        elif byte == 0:
            following = value[index + 1:index + 2]
            piece = "\\000" if following.isdigit() else "\\0"
        elif 0x20 <= byte < 0x7F:
            piece = chr(byte)
        else:
            piece = f"\\{byte:03o}"
        if size + len(piece) > limit:
            break
        out.append(piece)
        size += len(piece)
    return "".join(out)
