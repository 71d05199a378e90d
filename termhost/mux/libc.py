"""What tmux's formats inherit from the C library, done as the C library does it.

tmux hands patterns, numbers and times to C functions (fnmatch, regcomp/regexec, strtod,
strftime, printf's "%.*f", basename, dirname, double arithmetic) and what users write in
formats relies on their behaviour: `[[:digit:]]` and `\\*` in fnmatch patterns,
leftmost-longest regular expression matches, `0x10` and `1e2` as numbers, "-nan" for 0/0,
`//` kept by dirname. Python's `fnmatch`, `re`, `float` and `os.path` differ on each. So the
matchers and strtod are the libc's own, called through ctypes as termhost's process layer
calls prctl (text crosses as UTF-8, the locale tmux requires, and stops at a NUL as a C
string does); the rest is written out to C's rules, each citing which.
"""

from __future__ import annotations

import ctypes
import math
import time
from functools import lru_cache

__all__ = ["basename", "dirname", "divide", "fixed", "fmod", "fnmatch", "long_long",
           "regex_search", "regsub", "strftime_into", "strtod", "strtonum"]

_LLONG_MIN = -(2**63)

_libc = ctypes.CDLL(None)

_fnmatch = _libc.fnmatch
_fnmatch.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]
_fnmatch.restype = ctypes.c_int
_FNM_CASEFOLD = 1 << 4  # glibc, musl and the BSDs agree

_regcomp = _libc.regcomp
_regcomp.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
_regcomp.restype = ctypes.c_int
_regexec = _libc.regexec
_regexec.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p,
                     ctypes.c_int]
_regexec.restype = ctypes.c_int
_regfree = _libc.regfree
_regfree.argtypes = [ctypes.c_void_p]
_regfree.restype = None
_REG_EXTENDED, _REG_ICASE = 1, 2  # the same on every libc; the other flags are not
_REGEX_T_SIZE = 1024
"""Room for a regex_t: 64 bytes on glibc, less elsewhere; its layout is never read."""
_GROUPS = 10
"""Match slots asked of regexec, as tmux's regsub: the whole match and \\1 to \\9."""

_strtod = _libc.strtod
_strtod.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
_strtod.restype = ctypes.c_double


def _c_string(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape").split(b"\0", 1)[0]


def fnmatch(pattern: str, text: str, *, ignore_case: bool = False) -> bool:
    """Whether `text` matches the fnmatch(3) `pattern` (no FNM_PATHNAME: `*` spans `/`)."""
    flags = _FNM_CASEFOLD if ignore_case else 0
    result: int = _fnmatch(_c_string(pattern), _c_string(text), flags)
    return result == 0


class _Regex:
    """A compiled extended regular expression, freed with the object."""

    def __init__(self, pattern: bytes, ignore_case: bool) -> None:
        self._buffer = ctypes.create_string_buffer(_REGEX_T_SIZE)
        self._free = _regfree  # kept: at interpreter exit the module's name may be gone
        flags = _REG_EXTENDED | (_REG_ICASE if ignore_case else 0)
        self.valid = _regcomp(self._buffer, pattern, flags) == 0

    def __del__(self) -> None:
        if self.valid:
            self._free(self._buffer)

    def search(self, text: bytes) -> list[tuple[int, int]] | None:
        """The byte spans of the match and its groups ((-1, -1) for a group that did not
        take part), or None when `text` does not match."""
        width = _offset_width()
        slots = (ctypes.c_int64 if width == 8 else ctypes.c_int32) * (2 * _GROUPS)
        matches = slots()
        if _regexec(self._buffer, text, _GROUPS, matches, 0) != 0:
            return None
        return [(matches[2 * i], matches[2 * i + 1]) for i in range(_GROUPS)]


@lru_cache(maxsize=1)
def _offset_width() -> int:
    """sizeof(regoff_t): an int on glibc, a long or off_t on musl and the BSDs. Learned
    from a match of `b` in `ab` at (1, 2): read as 32-bit pairs, a 64-bit layout shows
    the zero high half of 1 where the 2 would be."""
    regex = _Regex(b"b", False)
    matches = (ctypes.c_int32 * (4 * _GROUPS))()
    _regexec(regex._buffer, b"ab", 1, matches, 0)
    return 4 if matches[1] == 2 else 8


@lru_cache(maxsize=256)
def _compiled(pattern: bytes, ignore_case: bool) -> _Regex:
    return _Regex(pattern, ignore_case)


def regex_search(pattern: str, text: str, *, ignore_case: bool = False) -> bool | None:
    """Whether the extended regular expression matches somewhere in `text`; None when
    regcomp refuses the pattern."""
    regex = _compiled(_c_string(pattern), ignore_case)
    if not regex.valid:
        return None
    return regex.search(_c_string(text)) is not None


def regsub(pattern: str, replacement: str, text: str, *, ignore_case: bool = False
           ) -> str | None:
    """Every match of `pattern` in `text` replaced, as tmux's regsub.c: `\\N` in the
    replacement is group N (when it matched something), any other `\\x` is `x`; an empty
    match after a match is skipped; a pattern starting `^` replaces once. None when
    regcomp refuses the pattern."""
    source = _c_string(text)
    if not source:
        return ""
    regex = _compiled(_c_string(pattern), ignore_case)
    if not regex.valid:
        return None
    with_ = _c_string(replacement)
    out = bytearray()
    start = last = 0
    end = len(source)
    empty = False
    while start <= end:
        spans = regex.search(source[start:])
        if spans is None:
            out += source[last:end]
            break
        so, eo = spans[0]
        out += source[last:start + so]
        if empty or start + so != last or so != eo:
            _expand(out, with_, source[start:], spans)
            last = start + eo
            start += eo
            empty = False
        else:
            last = start + eo
            start += eo + 1
            empty = True
        if pattern.startswith("^"):  # anchored: once, then the text from `start` on,
            out += source[start:end]  # which after an empty match skips a character
            break
    return out.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")


def _expand(out: bytearray, replacement: bytes, text: bytes,
            spans: list[tuple[int, int]]) -> None:
    index = 0
    while index < len(replacement):
        char = replacement[index]
        if char == 0x5C and index + 1 < len(replacement):  # backslash
            index += 1
            char = replacement[index]
            group = char - 0x30
            if 0 <= group <= 9 and spans[group][0] != spans[group][1]:
                out += text[spans[group][0]:spans[group][1]]
                index += 1
                continue
        elif char == 0x5C:  # a trailing backslash: tmux copies the string's NUL, which
            out.append(0)  # ends the result there
            return
        out.append(char)
        index += 1


def strtod(text: str) -> float | None:
    """`text` as strtod(3) reads a number (leading blanks, hex, exponents, inf, nan; the
    empty string is 0), or None when anything follows the number."""
    source = _c_string(text)
    buffer = ctypes.create_string_buffer(source)
    end = ctypes.c_void_p()
    value: float = _strtod(ctypes.addressof(buffer), ctypes.byref(end))
    return value if (end.value or 0) - ctypes.addressof(buffer) == len(source) else None



def strtonum(text: str, low: int, high: int) -> tuple[int, str | None]:
    """OpenBSD's strtonum(3), which tmux uses for every number it reads and glibc lacks:
    a base-10 integer (blanks and a sign before it allowed) within [low, high], and None;
    or 0 and its error, "invalid", "too small" or "too large" (tmux logs these)."""
    stripped = text.lstrip(" \t\n\v\f\r")
    digits = stripped[1:] if stripped[:1] in ("+", "-") else stripped
    if not digits or not (digits.isascii() and digits.isdigit()):
        return 0, "invalid"
    value = int(stripped)
    if value < low:
        return 0, "too small"
    if value > high:
        return 0, "too large"
    return value, None


_INVALID = math.inf * 0.0
"""The NaN the processor makes of an invalid operation, as C's 0.0 / 0.0 (negative on
x86-64, printed "-nan"): Python raises instead of dividing by zero."""


def divide(left: float, right: float) -> float:
    """IEEE division, as C's: x/0 is an infinity, 0/0 the invalid NaN."""
    if right == 0:
        if left == 0 or math.isnan(left):
            return left if math.isnan(left) else _INVALID
        return math.copysign(math.inf, left) * math.copysign(1.0, right)
    return left / right


def fmod(left: float, right: float) -> float:
    """C's fmod: the invalid NaN where Python's raises (x % 0, an infinite x)."""
    try:
        return math.fmod(left, right)
    except ValueError:
        return _INVALID


def long_long(value: float) -> int:
    """A double cast to long long as x86-64 does it: truncated, and the "integer
    indefinite" LLONG_MIN for a NaN or a value out of range (C leaves that undefined)."""
    if math.isnan(value) or not -(2.0**63) <= value < 2.0**63:
        return _LLONG_MIN
    return int(value)


def fixed(precision: int, value: float) -> str:
    """printf("%.*f"): a negative precision is the default 6; NaN and infinities as glibc
    prints them."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{precision if precision >= 0 else 6}f}"


def strftime_into(template: str, stamp: time.struct_time, size: int) -> str:
    """strftime(3) into a buffer of `size` bytes: "" when the result does not fit (or is
    empty, which C cannot tell apart)."""
    try:
        result = time.strftime(template, stamp)
    except (ValueError, UnicodeError):
        return ""
    return result if len(result.encode("utf-8", "surrogateescape")) < size else ""


def basename(path: str) -> str:
    """POSIX basename(3), as glibc's libgen: trailing slashes ignored, "." for ""."""
    if not path:
        return "."
    if "/" not in path:
        return path
    stripped = path.rstrip("/")
    return stripped.rsplit("/", 1)[-1] if stripped else "/"


def dirname(path: str) -> str:
    """POSIX dirname(3), as glibc's: "." without a slash, and `//` kept as glibc keeps
    exactly two leading slashes."""
    slash = path.rfind("/")
    if slash > 0 and slash == len(path) - 1:
        run = slash
        while run > 0 and path[run - 1] == "/":
            run -= 1
        if run > 0:
            slash = path.rfind("/", 0, run)
    if slash < 0:
        return "."
    run = slash
    while run > 0 and path[run - 1] == "/":
        run -= 1
    if run == 0:
        return path[:2] if slash == 1 else path[:1]
    return path[:run]
