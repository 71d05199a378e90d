"""The tape language: a script of keystrokes, waits and checks, parsed into typed commands.

The syntax is VHS's (charmbracelet/vhs) where that makes sense, so that its tapes run here
with at most warnings, plus termhost's own `Expect`, `Marker` and `Resize`. The parser does
all the checking a tape can have without running it (durations, keys, regexes, where each
`Set` may go), so a mistake is reported with its file, line and column before a shell starts
instead of half way through a recording. The runner gets commands whose values are final:
every speed, timeout and pattern default is filled in here.

Decisions, and where they follow or leave VHS:

- Several commands may share a line, as in VHS (`Sleep 1 Ctrl+U Sleep 1`): each command
  takes the words its grammar allows and the next word starts another command; a word that
  is no command there is an error (`unexpected "x" after Hide`). A command does not run on
  to the next line (VHS's may), but for a JSON theme, which runs on to its `}` as in VHS.
  `#` starting a token opens a comment to the end of the line.
- Strings are quoted with `"`, `'` or backticks and have no escapes (as in VHS): to type a
  quote, quote with another kind. A word without quotes is a string too (`Output demo.cast`).
  `Type "a" "b"` types `a b`, as in VHS.
- A `/regex/` ends at the first `/` not preceded by a backslash, and the text between goes to
  Python's `re` as written (`\\/` in a regex means `/`). VHS has no such escape. Regexes are
  compiled here, so a bad one is a syntax error with Python's message.
- Durations: `500ms`, `2s`, `1m`, or a bare number of seconds (`0.5`).
- Keys become tmux's names (Backspace is "BSpace", Ctrl+Alt+Delete "C-M-DC"), checked with
  termhost.terminal.keys so that a key no terminal can send is a syntax error. Modifiers
  come in any order; Shift on a letter gives the capital, as a terminal sends it. Combos
  take `@speed` and a count like other keys (VHS: neither).
- `Wait` and `Expect` search the cursor's line unless `+Screen`; Wait's regex defaults to
  WaitPattern, Expect's is required.
- `Set` of a setting that shapes the session (Shell, Width, Height, Theme) and `Env` must come
  before the first command: the session starts before it, so a later value could not apply.
  VHS ignores such a late `Set` with a warning; here it is an error. The pacing settings
  (TypingSpeed, as in VHS, and WaitTimeout and WaitPattern) may change anywhere and apply to
  the commands after them: they are folded into those commands' values.
- Width and Height are pixels, as in VHS: the terminal gets the cells VHS's terminal has
  in such a picture, from FontSize, FontFamily's metrics, LetterSpacing, LineHeight,
  Padding, Margin and WindowBar (termhost.render.geometry; VHS's defaults give 76x15). The
  first installed family of FontFamily draws the pictures too (termhost.render.typeface);
  with none installed, a warning, and VHS's JetBrains Mono's metrics. `Set Columns N` and
  `Set Rows N` give cells outright, and win over the pixels. VHS's other picture settings
  (Framerate, PlaybackSpeed, LoopOffset, CursorBlink, BorderRadius, MarginFill) are taken
  and kept, with no warning, and shape the pictures: `Output x.gif`, `x.webp`, `x.mp4`,
  `x.webm` (ffmpeg's), `frames/` (a PNG a frame) and `Screenshot x.png`
  (termhost.render.raster and .animation). Text is anti-aliased, but crisp in a GIF
  (half the bytes), unless termhost's `Set Antialias true|false` says. As in VHS, an
  Output's extension says what it is: `.ascii` and `.test` are golden text as `.txt` is,
  `.png` is a directory of frames, and any other is a GIF (with a warning here). An
  unknown setting is an error.
- `Copy "text"` puts text in the tape's clipboard (VHS: the system's), and `Paste` types it
  at once, as VHS does.
- `ScrollUp N` and `ScrollDown N` (VHS's, with `@speed` as keys have) move the view a row
  at a time into the scrollback and back: the pictures, golden screens, Wait and Expect
  see the view; the next key brings it back to the screen, as xterm.js does.
- `Set Theme` takes a theme's name (VHS's names, `"Catppuccin Latte"`, find termhost's
  `catppuccin-latte`) or a VHS theme as a JSON object on the line.
- `Source other.tape` is read relative to the tape that names it (VHS: the working
  directory), may nest (VHS: not) up to MAX_SOURCE_DEPTH, and is refused in a cycle. As in
  VHS, an `Output` in a sourced tape is ignored (with a warning): a shared setup tape must not
  redirect the recording. Commands keep the file and line they were written on.
- Errors: every error in the tape is collected, up to MAX_ERRORS; TapeError's message is the
  first, `FILE:LINE:COLUMN: message`, and `diagnostics` holds them all, one line each.
  Columns count characters from 1.
"""

from __future__ import annotations

import difflib
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from termhost.render.geometry import Look, PixelSizeError, grid
from termhost.render.typeface import find_face
from termhost.terminal.keys import UnknownKey, encode_key, parse_key
from termhost.themes import Theme, ThemeError, find_theme_file, unknown_theme, vhs_theme

__all__ = [
    "MAX_ERRORS",
    "MAX_SOURCE_DEPTH",
    "Command",
    "Copy",
    "Diagnostic",
    "Env",
    "Expect",
    "Hide",
    "Key",
    "Located",
    "Marker",
    "Output",
    "Paste",
    "Require",
    "Resize",
    "Scope",
    "Screenshot",
    "Scroll",
    "Set",
    "SettingValue",
    "Settings",
    "Show",
    "Sleep",
    "Tape",
    "TapeError",
    "Type",
    "Wait",
    "parse",
    "parse_file",
]

MAX_ERRORS = 20
"""Errors reported for one tape; past that, later ones are mostly echoes of the first."""
MAX_SOURCE_DEPTH = 16
"""How deep `Source` may nest: deeper is a runaway include, not a real tape."""

Scope = Literal["line", "screen"]
"""What a Wait or Expect searches: the cursor's line, or the whole screen."""
SettingValue = str | int | float | bool | re.Pattern[str] | Theme | None
"""The value of a Set: a name, a size, seconds, a flag, a compiled pattern, a theme read
from JSON, None (Shell)."""


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning, printed the way compilers do so that editors can jump to it."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


class TapeError(ValueError):
    """A tape that cannot run: the message is its first error, `diagnostics` all of them."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(str(diagnostics[0]))
        self.diagnostics = tuple(diagnostics)


# Commands


@dataclass(frozen=True, kw_only=True)
class Located:
    """Where a command was written, so that a failure at run time names the tape's line."""

    file: str
    line: int
    column: int


@dataclass(frozen=True)
class Output(Located):
    """A file to write, its path as written (not resolved), and what it is (`form`)."""

    path: str
    form: str = ""
    """cast, golden (.txt, and VHS's .ascii and .test), svg, html, gif, webp, mp4, webm,
    or frames (a directory of PNGs: a path ending in `/`, or VHS's `.png`)."""


@dataclass(frozen=True)
class Require(Located):
    """A program that must be on PATH, checked before the session starts."""

    program: str


@dataclass(frozen=True)
class Set(Located):
    """A setting as written (VHS's name, e.g. "TypingSpeed") with its parsed value."""

    setting: str
    value: SettingValue


@dataclass(frozen=True)
class Env(Located):
    """An environment variable for the session's shell."""

    key: str
    value: str


@dataclass(frozen=True)
class Type(Located):
    """Text typed one character every `speed` seconds."""

    text: str
    speed: float


@dataclass(frozen=True)
class Key(Located):
    """A key by its tmux name ("Enter", "BSpace", "C-c", "M-x", "S-Left"), pressed `count`
    times, `speed` seconds apart; termhost.terminal.keys.encode_key gives its bytes."""

    name: str
    count: int
    speed: float


@dataclass(frozen=True)
class Sleep(Located):
    """A pause: the recording keeps running."""

    seconds: float


@dataclass(frozen=True)
class Wait(Located):
    """Poll until `regex` matches the scope, failing after `timeout` seconds."""

    scope: Scope
    timeout: float
    regex: re.Pattern[str]


@dataclass(frozen=True)
class Expect(Located):
    """Fail the run unless `regex` matches the scope now: golden checks in CI."""

    scope: Scope
    regex: re.Pattern[str]


@dataclass(frozen=True)
class Hide(Located):
    """Stop recording frames; the commands still run."""


@dataclass(frozen=True)
class Show(Located):
    """Resume recording frames."""


@dataclass(frozen=True)
class Screenshot(Located):
    """Save the screen now: .svg, .html or .txt."""

    path: str


@dataclass(frozen=True)
class Marker(Located):
    """A named point in the recording (an asciicast `m` event)."""

    label: str


@dataclass(frozen=True)
class Resize(Located):
    """Change the terminal's size mid-session."""

    cols: int
    rows: int


@dataclass(frozen=True)
class Copy(Located):
    """Text into the tape's clipboard, for Paste (VHS: the system clipboard)."""

    text: str


@dataclass(frozen=True)
class Paste(Located):
    """The clipboard typed at once (nothing, when nothing was copied)."""


@dataclass(frozen=True)
class Scroll(Located):
    """VHS's ScrollUp and ScrollDown: the view moved `rows` (up when negative) into the
    scrollback and back, a row at a time, `speed` seconds apart; no key is sent."""

    rows: int
    speed: float


Command = (Type | Key | Sleep | Wait | Expect | Hide | Show | Screenshot | Marker | Resize
           | Copy | Paste | Scroll)
"""What the runner executes, in order."""


DEFAULT_LOOK = Look()
DEFAULT_GRID = grid(DEFAULT_LOOK)
"""The cells of VHS's default picture (1200x600 pixels, FontSize 22, Padding 60)."""


@dataclass(frozen=True)
class Settings:
    """The settings in force when the first command runs, defaults filled in."""

    shell: str | None = None
    """None: the user's default shell."""
    width: int = DEFAULT_GRID[0]
    """Cells: Set Columns, else what fits in the picture (`look`)."""
    height: int = DEFAULT_GRID[1]
    typing_speed: float = 0.05
    wait_timeout: float = 15.0
    wait_pattern: re.Pattern[str] = re.compile(">$")
    theme: str | Theme = "default"
    """A theme's name, not yet looked up: themes are on the user's disk, and the runner's
    load_theme reports a missing one with the names there are (and `declarations` has the
    line to point at); or a theme given as JSON, read here."""
    look: Look = DEFAULT_LOOK
    """The picture's pixel size and what shapes it (width and height are its cells)."""
    columns: int | None = None
    """Set Columns: cells, over what the picture's pixels give."""
    rows: int | None = None
    framerate: int = 50
    playback_speed: float = 1.0
    loop_offset: float = 0.0
    """Per cent of the frames the loop starts at (VHS: always a percentage)."""
    cursor_blink: bool = True
    border_radius: int = 0
    margin_fill: str = ""
    """A #rrggbb colour or an image's path; "" for the theme's background."""
    font_family: str = ""
    """"" for VHS's own list of fonts."""
    antialias: bool | None = None
    """termhost's Set Antialias: None draws text anti-aliased in all but a GIF."""


@dataclass(frozen=True)
class Tape:
    """A parsed tape, its Sources included."""

    settings: Settings
    env: dict[str, str]
    outputs: tuple[Output, ...]
    requires: tuple[Require, ...]
    commands: tuple[Command, ...]
    declarations: tuple[Set | Env, ...] = ()
    """Every Set and Env in order, so that the runner can point at the line of a setting it
    cannot honour (a theme that is not installed, a shell that is not found)."""
    warnings: tuple[Diagnostic, ...] = ()
    """What was ignored (VHS's video settings and outputs), for the runner to print."""


def parse(text: str, path: str) -> Tape:
    """The tape in `text`, read from `path` (for messages and for Sources relative to it)."""
    parser = _Parser()
    parser.parse_text(text, path)
    return parser.tape()


def parse_file(path: str) -> Tape:
    """The tape in the file at `path`. An unreadable file raises the OSError as it is."""
    with open(path, "rb") as file:
        data = file.read()
    return parse(_decode(data, path), path)


# Lexing: one line at a time, each command reading the tokens it expects


_BLANKS = " \t\r"
_QUOTES = "\"'`"


class _LineError(Exception):
    """A syntax error on the current line; the rest of the line is skipped."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column, self.message = column, message


class _TooManyErrors(Exception):
    """MAX_ERRORS reached: parsing stops, Sources included."""


@dataclass(frozen=True)
class _Token:
    text: str
    column: int


class _Cursor:
    """A position in one line of a tape."""

    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def skip_blanks(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _BLANKS:
            self.pos += 1

    def at_end(self) -> bool:
        """Nothing but blanks and a comment left."""
        self.skip_blanks()
        return self.pos >= len(self.text) or self.text[self.pos] == "#"

    @property
    def column(self) -> int:
        return self.pos + 1

    def word(self) -> _Token:
        """A run of anything but blanks (the caller checks at_end first)."""
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in _BLANKS:
            self.pos += 1
        return _Token(self.text[start : self.pos], start + 1)

    def value(self, what: str) -> _Token:
        """A quoted string, or a word; `what` names it when it is missing."""
        if self.at_end():
            raise _LineError(self.column, what)
        if self.text[self.pos] not in _QUOTES:
            return self.word()
        start = self.pos
        end = self.text.find(self.text[start], start + 1)
        if end < 0:
            raise _LineError(start + 1, "unterminated string")
        self.pos = end + 1
        return _Token(self.text[start + 1 : end], start + 1)

    def regex(self, what: str) -> re.Pattern[str]:
        """A /regex/, compiled: a bad one is a syntax error."""
        if self.at_end() or self.text[self.pos] != "/":
            raise _LineError(self.column, what)
        start, end = self.pos, self.pos + 1
        while end < len(self.text) and self.text[end] != "/":
            end += 2 if self.text[end] == "\\" else 1
        if end >= len(self.text):
            raise _LineError(start + 1, "unterminated regex")
        self.pos = end + 1
        return _compile(_Token(self.text[start + 1 : end], start + 1))

    def peek(self) -> str:
        """The next word, unquoted and not taken; "" at the end."""
        if self.at_end():
            return ""
        pos = self.pos
        try:
            return self.word().text
        finally:
            self.pos = pos

    def at_command(self) -> bool:
        """Whether the next word starts a command (a quoted one never does): where a
        command that takes any number of words ends."""
        word = self.peek()
        if not word or word[0] in _QUOTES:
            return not word
        name = re.match(r"[A-Za-z]*", word)
        return bool(name and name[0] in _COMMANDS and word[len(name[0]):][:1] in ("", "+", "@"))

    def json(self) -> _Token:
        """A `{...}` object, to its first `}` on the line (VHS's JSON token)."""
        start = self.pos
        end = self.text.find("}", start)
        if end < 0:
            raise _LineError(start + 1, "unterminated JSON object")
        self.pos = end + 1
        return _Token(self.text[start : end + 1], start + 1)


def _compile(token: _Token) -> re.Pattern[str]:
    try:
        return re.compile(token.text)
    except re.error as error:
        raise _LineError(token.column, f"bad regex {_quoted(token.text)}: {error}") from None
    except (OverflowError, RecursionError):
        raise _LineError(token.column, f"bad regex {_quoted(token.text)}: too complex") from None


def _decode(data: bytes, path: str) -> str:
    """A tape's text; bytes that are not UTF-8 are an error at their line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", "replace")) + 1
        line = before.count(b"\n") + 1
        raise TapeError([Diagnostic(path, line, column, "not UTF-8 text")]) from None


# Values


_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ms|s|m)?")
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}
_SIZE = re.compile(r"(\d+)x(\d+)")
_MAX_CELLS = 1000
_MAX_COUNT = 10000


def _duration(token: _Token) -> float:
    match = _DURATION.fullmatch(token.text)
    seconds = float(match[1]) * _UNITS[match[2]] if match else math.inf
    if not math.isfinite(seconds):
        raise _LineError(token.column, f"bad duration {_quoted(token.text)}")
    return seconds


_OPEN_JSON = re.compile(r"\bSet\s+Theme\s+\{[^}]*$")
"""A line whose `Set Theme {` has no `}` yet: VHS reads the object on over lines."""
_NUMBER = re.compile(r"\d+(?:\.\d*)?|\.\d+")


def _duration_words(cursor: _Cursor, missing: str) -> float:
    """A duration, its unit attached (`500ms`) or the next word (`500 ms`, as VHS lexes
    them: two tokens either way)."""
    if cursor.at_end():
        raise _LineError(cursor.column, missing)
    token = cursor.word()
    if _NUMBER.fullmatch(token.text) and cursor.peek() in _UNITS:
        token = _Token(token.text + cursor.word().text, token.column)
    return _duration(token)


def _cells(token: _Token, what: str) -> int:
    """A number of columns or rows."""
    if token.text.isdecimal() and token.text.isascii() and 1 <= int(token.text) <= _MAX_CELLS:
        return int(token.text)
    raise _LineError(token.column, f"bad {what} {_quoted(token.text)} (1 to {_MAX_CELLS} cells)")


def _count(token: _Token) -> int:
    if token.text.isdecimal() and token.text.isascii() and 1 <= int(token.text) <= _MAX_COUNT:
        return int(token.text)
    raise _LineError(token.column, f"bad count {_quoted(token.text)} (1 to {_MAX_COUNT})")


def _quoted(text: str) -> str:
    """Text from the tape in double quotes, control characters escaped: a message is one
    line, and an ESC from a tape must not drive the terminal the message is printed on."""
    shown = (c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
    return '"' + "".join(shown) + '"'


def _suggest(word: str, known: list[str]) -> str:
    """A ` (did you mean "X"?)` for a near miss, so a typo costs one glance."""
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f" (did you mean {_quoted(close[0])}?)" if close else ""


# Keys


_KEY_NAMES = {
    "Enter": "Enter",
    "Backspace": "BSpace",
    "Delete": "DC",
    "Insert": "IC",
    "Tab": "Tab",
    "Space": "Space",
    "Escape": "Escape",
    "Up": "Up",
    "Down": "Down",
    "Left": "Left",
    "Right": "Right",
    "PageUp": "PPage",
    "PageDown": "NPage",
    "Home": "Home",
    "End": "End",
}
"""The tape's key names and tmux's for them."""

_MODIFIERS = {"Ctrl": "C-", "Alt": "M-", "Shift": "S-"}


@dataclass(frozen=True)
class _Head:
    """A line's first word split up: `Wait+Screen@5s` is Wait, (+Screen,), @5s."""

    name: str
    column: int
    plus: tuple[_Token, ...]
    at: _Token | None


def _split_head(word: _Token, before: str = "") -> _Head:
    """The command name, its +parts and @part. After a +, a run of letters and digits or
    else one character, so that `Ctrl++` and `Ctrl+@` name the keys + and @. `before`:
    the command before it on the line, if any."""
    text, column = word.text, word.column
    name = re.match(r"[A-Za-z]*", text)
    if name is None or not name[0]:
        if before:
            raise _LineError(column, f"unexpected {_quoted(text)} after {before}")
        raise _LineError(column, f"unknown command {_quoted(text)}")
    pos, plus = name.end(), []
    while pos < len(text) and text[pos] == "+":
        part = re.match(r"[A-Za-z0-9]+|.?", text[pos + 1 :], re.DOTALL)
        part_text = part[0] if part else ""
        plus.append(_Token(part_text, column + pos + 1))
        pos += 1 + len(part_text)
    at = None
    if pos < len(text):
        if text[pos] != "@":
            raise _LineError(column + pos, f"unexpected {_quoted(text[pos:])} after {text[:pos]}")
        at = _Token(text[pos + 1 :], column + pos + 1)
    return _Head(name[0], column, tuple(plus), at)


def _combo_name(head: _Head) -> str:
    """The tmux name of Ctrl+Alt+x and the like: modifiers in any order, then one key."""
    *modifiers, key = (_Token(head.name, head.column), *head.plus)
    if not head.plus:
        raise _LineError(head.column + len(head.name), f"{head.name} needs +KEY, e.g. Ctrl+C")
    prefix = ""
    for modifier in modifiers:
        if modifier.text not in _MODIFIERS:
            raise _LineError(modifier.column, f"unknown modifier {_quoted(modifier.text)}")
        if _MODIFIERS[modifier.text] in prefix:
            raise _LineError(modifier.column, f"repeated modifier {_quoted(modifier.text)}")
        prefix += _MODIFIERS[modifier.text]
    base = _key_base(key)
    if "S-" in prefix and len(base) == 1 and base.isalpha():
        prefix, base = prefix.replace("S-", ""), base.upper()  # as a terminal sends Shift+a
    return _sendable(prefix + base, head)


def _key_base(key: _Token) -> str:
    if key.text in _KEY_NAMES:
        return _KEY_NAMES[key.text]
    if len(key.text) == 1 and key.text.isprintable() and key.text not in _BLANKS:
        return key.text
    if not key.text or key.text in _MODIFIERS:
        raise _LineError(key.column + len(key.text), "missing key after the last +")
    raise _LineError(
        key.column, f"unknown key {_quoted(key.text)}{_suggest(key.text, [*_KEY_NAMES])}"
    )


def _sendable(name: str, head: _Head) -> str:
    """The canonical tmux name, if a terminal can send that key at all."""
    written = "+".join([head.name, *(part.text for part in head.plus)])
    try:
        key = parse_key(name)
        encode_key(key)
    except UnknownKey:
        raise _LineError(head.column, f"no terminal can send {_quoted(written)}") from None
    return key.name


# Parsing


_Handler = Callable[["_Parser", _Head, _Cursor], None]


class _Where(TypedDict):
    """A command's Located fields, passed as **keywords."""

    file: str
    line: int
    column: int


@dataclass(frozen=True)
class _Spec:
    """A command's entry in the table: how to parse it and what its first word may carry."""

    parse: _Handler
    plus: bool = False
    at: bool = False


_SETTING_FIELDS = {
    "Shell": "shell",
    "Width": "look.width",
    "Height": "look.height",
    "Columns": "columns",
    "Rows": "rows",
    "TypingSpeed": "typing_speed",
    "WaitTimeout": "wait_timeout",
    "WaitPattern": "wait_pattern",
    "Theme": "theme",
    "FontSize": "look.font_size",
    "FontFamily": "font_family",
    "LetterSpacing": "look.letter_spacing",
    "LineHeight": "look.line_height",
    "Padding": "look.padding",
    "Margin": "look.margin",
    "MarginFill": "margin_fill",
    "WindowBar": "look.window_bar",
    "WindowBarSize": "look.window_bar_size",
    "BorderRadius": "border_radius",
    "CursorBlink": "cursor_blink",
    "Framerate": "framerate",
    "PlaybackSpeed": "playback_speed",
    "LoopOffset": "loop_offset",
    "Antialias": "antialias",
}
"""Every setting, VHS's and termhost's (Columns, Rows, Antialias), and the Settings
field it sets (`look.` a field of the picture's Look)."""
_PACING = frozenset({"TypingSpeed", "WaitTimeout", "WaitPattern"})
"""Settings folded into the commands after them, so they may change anywhere."""
_PIXELS = frozenset(name for name, field in _SETTING_FIELDS.items() if field.startswith("look."))
"""The settings the terminal's cells follow from, when Columns and Rows do not say."""
_WINDOW_BARS = ("Colorful", "ColorfulRight", "Rings", "RingsRight")
_SHOTS = ".png, .svg, .html, .txt"
_OUTPUT_FORMS = {".cast": "cast", ".txt": "golden", ".ascii": "golden", ".test": "golden",
                 ".svg": "svg", ".html": "html", ".gif": "gif", ".webp": "webp",
                 ".mp4": "mp4", ".webm": "webm", ".png": "frames"}
"""An Output's form by its extension, as VHS reads them (.ascii and .test are its golden
text, .png its directory of frames); a path ending in `/` is frames, and VHS writes any
other extension as a GIF."""


class _Parser:
    """The state of one parse, shared by a tape and the tapes it Sources."""

    def __init__(self) -> None:
        self.current = Settings()
        self.initial: Settings | None = None
        self.env: dict[str, str] = {}
        self.outputs: list[Output] = []
        self.requires: list[Require] = []
        self.commands: list[Command] = []
        self.declarations: list[Set | Env] = []
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.files: list[tuple[str, str]] = []  # the Source chain: (real path, as named)
        self.file, self.line = "", 0
        self.pixels_at: tuple[str, int, int] | None = None
        """Where the last setting the cells follow from was written, for its error."""

    def tape(self) -> Tape:
        settings = self.cells(self.initial or self.current)
        if self.errors:
            raise TapeError(self.errors)
        return Tape(
            settings=settings,
            env=self.env,
            outputs=tuple(self.outputs),
            requires=tuple(self.requires),
            commands=tuple(self.commands),
            declarations=tuple(self.declarations),
            warnings=tuple(self.warnings),
        )

    def cells(self, settings: Settings) -> Settings:
        """`settings` with the terminal's cells: Columns and Rows, else what fits in the
        picture; a picture with no room for any is an error at the last pixel setting."""
        try:
            columns, rows = grid(settings.look)
        except PixelSizeError as error:
            if settings.columns is None or settings.rows is None:
                file, line, column = self.pixels_at or (self.file, 1, 1)
                cells = " (Set Columns and Set Rows give cells)"
                if len(self.errors) < MAX_ERRORS:  # past it the parse stopped already
                    self.errors.append(Diagnostic(file, line, column, f"{error}{cells}"))
            columns, rows = DEFAULT_GRID
        return replace(settings, width=min(settings.columns or columns, _MAX_CELLS),
                       height=min(settings.rows or rows, _MAX_CELLS))

    def parse_text(self, text: str, path: str) -> None:
        self.files.append((os.path.realpath(path), path))
        lines = text.split("\n")
        try:
            number = 0
            while number < len(lines):
                self.file, self.line = path, number + 1
                line = lines[number]
                number += 1
                while _OPEN_JSON.search(line) and number < len(lines):
                    line += " " + lines[number]  # VHS's JSON theme runs on to its `}`
                    number += 1
                self.parse_line(line)
        except _TooManyErrors:
            if len(self.files) > 1:
                raise
        finally:
            self.files.pop()

    def parse_line(self, text: str) -> None:
        """The line's commands, one after another; after an error, the rest of the line
        is skipped."""
        cursor = _Cursor(text)
        before = ""
        try:
            while not cursor.at_end():
                word = cursor.word()
                head = _split_head(word, before)
                spec = self.spec(head, before, word)
                spec.parse(self, head, cursor)
                before = head.name
        except _LineError as error:
            self.error(error.column, error.message)

    def spec(self, head: _Head, before: str = "", word: _Token | None = None) -> _Spec:
        """The command's table entry, having checked the +parts and @part it may take;
        `before` is the command before it on the line, if any."""
        spec = _COMMANDS.get(head.name)
        if spec is None:
            suggestion = _suggest(head.name, [*_COMMANDS])
            if before and word is not None:
                raise _LineError(
                    word.column, f"unexpected {_quoted(word.text)} after {before}{suggestion}")
            raise _LineError(head.column, f"unknown command {_quoted(head.name)}{suggestion}")
        if head.plus and not spec.plus:
            raise _LineError(head.plus[0].column - 1, f'{head.name} takes no "+"')
        if head.at and not spec.at:
            raise _LineError(head.at.column - 1, f'{head.name} takes no "@"')
        return spec

    def error(self, column: int, message: str) -> None:
        self.record(Diagnostic(self.file, self.line, column, message))

    def record(self, diagnostic: Diagnostic) -> None:
        self.errors.append(diagnostic)
        if len(self.errors) >= MAX_ERRORS:
            raise _TooManyErrors

    def warn(self, column: int, message: str) -> None:
        self.warnings.append(Diagnostic(self.file, self.line, column, message))

    def where(self, head: _Head) -> _Where:
        return {"file": self.file, "line": self.line, "column": head.column}

    def add(self, command: Command) -> None:
        if self.initial is None:
            self.initial = self.current
        self.commands.append(command)

    def before_first_command(self, what: str, head: _Head) -> None:
        if self.commands:
            raise _LineError(head.column, f"{what} must come before the first command")

    # Declarations

    def parse_output(self, head: _Head, cursor: _Cursor) -> None:
        path = cursor.value("Output needs a file")
        extension = os.path.splitext(path.text)[1].lower()
        if len(self.files) > 1:
            self.warn(head.column, "Output in a sourced tape is ignored")
            return
        form = "frames" if path.text.endswith(("/", os.sep)) else _OUTPUT_FORMS.get(extension)
        if form is None:
            self.warn(path.column, f"Output {_quoted(path.text)} is written as a GIF, as VHS "
                      f"writes an extension other than {', '.join(_OUTPUT_FORMS)}")
            form = "gif"
        self.outputs.append(Output(path.text, form, **self.where(head)))

    def parse_require(self, head: _Head, cursor: _Cursor) -> None:
        program = cursor.value("Require needs a program")
        self.requires.append(Require(program.text, **self.where(head)))

    def parse_set(self, head: _Head, cursor: _Cursor) -> None:
        name = cursor.value("Set needs a setting")
        if name.text not in _SETTING_FIELDS:
            hint = ' (Env is a command: Env KEY "value")' if name.text == "Env" else ""
            suggestion = hint or _suggest(name.text, [*_SETTING_FIELDS])
            raise _LineError(name.column, f"unknown setting {_quoted(name.text)}{suggestion}")
        if name.text not in _PACING:
            self.before_first_command(f"Set {name.text}", head)
        value = _SETTING_PARSERS[name.text](cursor, name.text)
        # The setting's parser in _SETTING_PARSERS returns its field's type.
        field = _SETTING_FIELDS[name.text]
        if field.startswith("look."):
            pixels: dict[str, Any] = {field[5:]: value}
            change: dict[str, Any] = {"look": replace(self.current.look, **pixels)}
            self.pixels_at = (self.file, self.line, head.column)
        else:
            change = {field: value}
        self.current = replace(self.current, **change)
        if name.text == "FontFamily":
            self.font_family(name.column, str(value))
        self.declarations.append(Set(name.text, value, **self.where(head)))

    def font_family(self, column: int, families: str) -> None:
        """Set FontFamily: the first of its families installed draws the pictures, and
        the cells follow its metrics; with none installed, a warning, and VHS's."""
        face = find_face(families)
        if face is None and families:
            self.warn(column, f"FontFamily {_quoted(families)} is not installed: cells "
                      "as JetBrains Mono's (VHS's first choice), drawn in DejaVu Sans Mono")
        self.current = replace(self.current, look=replace(self.current.look, face=face))
        self.pixels_at = (self.file, self.line, column)

    def parse_env(self, head: _Head, cursor: _Cursor) -> None:
        self.before_first_command("Env", head)
        key = cursor.value("Env needs a name and a value")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key.text):
            raise _LineError(key.column, f"bad variable name {_quoted(key.text)}")
        value = cursor.value(f"Env {key.text} needs a value")
        self.env[key.text] = value.text
        self.declarations.append(Env(key.text, value.text, **self.where(head)))

    def parse_source(self, head: _Head, cursor: _Cursor) -> None:
        name = cursor.value("Source needs a tape")
        path = os.path.normpath(os.path.join(os.path.dirname(self.file), name.text))
        real = os.path.realpath(path)
        seen = [seen_real for seen_real, _ in self.files]
        if real in seen:
            shown = [shown for _, shown in self.files[seen.index(real) :]]
            cycle = " -> ".join(_quoted(each) for each in [*shown, path])
            raise _LineError(name.column, f"Source cycle: {cycle}")
        if len(self.files) > MAX_SOURCE_DEPTH:
            raise _LineError(name.column, f"Source nested more than {MAX_SOURCE_DEPTH} deep")
        text = self.read_source(path, name)
        file, line = self.file, self.line
        try:
            self.parse_text(text, path)
        finally:
            self.file, self.line = file, line

    def read_source(self, path: str, name: _Token) -> str:
        """The sourced tape's text; not UTF-8 is an error in that file, at the bad byte."""
        try:
            with open(path, "rb") as file:
                data = file.read()
        except (OSError, ValueError) as error:  # ValueError: a NUL in the path
            reason = error.strerror if isinstance(error, OSError) else None
            raise _LineError(
                name.column, f"cannot read {_quoted(name.text)}: {reason or error}"
            ) from None
        try:
            return _decode(data, path)
        except TapeError as error:
            self.record(error.diagnostics[0])
            return ""

    # Commands

    def parse_type(self, head: _Head, cursor: _Cursor) -> None:
        speed = self.duration_at(head, self.current.typing_speed)
        self.add(Type(self.strings(head, cursor), speed, **self.where(head)))

    def parse_copy(self, head: _Head, cursor: _Cursor) -> None:
        self.add(Copy(self.strings(head, cursor), **self.where(head)))

    def parse_paste(self, head: _Head, cursor: _Cursor) -> None:
        self.add(Paste(**self.where(head)))

    def strings(self, head: _Head, cursor: _Cursor) -> str:
        """Type's and Copy's words, up to the next command, joined by spaces (VHS)."""
        if cursor.at_command():
            raise _LineError(cursor.column, f"{head.name} needs a string")
        parts = [cursor.value("").text]
        while not cursor.at_command():
            parts.append(cursor.value("").text)
        return " ".join(parts)

    def parse_key(self, head: _Head, cursor: _Cursor) -> None:
        if head.name in _MODIFIERS:
            name = _combo_name(head)
        else:
            name = _sendable(_KEY_NAMES[head.name], head)
        speed = self.duration_at(head, self.current.typing_speed)
        count = _count(cursor.word()) if _NUMBER.fullmatch(cursor.peek()) else 1
        self.add(Key(name, count, speed, **self.where(head)))

    def parse_scroll(self, head: _Head, cursor: _Cursor) -> None:
        speed = self.duration_at(head, self.current.typing_speed)
        count = _count(cursor.word()) if _NUMBER.fullmatch(cursor.peek()) else 1
        rows = -count if head.name == "ScrollUp" else count
        self.add(Scroll(rows, speed, **self.where(head)))

    def parse_sleep(self, head: _Head, cursor: _Cursor) -> None:
        self.add(Sleep(_duration_words(cursor, "Sleep needs a duration"), **self.where(head)))

    def parse_wait(self, head: _Head, cursor: _Cursor) -> None:
        scope = self.scope(head)
        timeout = self.duration_at(head, self.current.wait_timeout)
        if head.at and timeout <= 0:
            raise _LineError(head.at.column, "Wait timeout must be more than 0")
        regex = self.current.wait_pattern
        if cursor.peek().startswith("/"):
            regex = cursor.regex("Wait needs a /regex/")
        self.add(Wait(scope, timeout, regex, **self.where(head)))

    def parse_expect(self, head: _Head, cursor: _Cursor) -> None:
        scope = self.scope(head)
        regex = cursor.regex("Expect needs a /regex/")
        self.add(Expect(scope, regex, **self.where(head)))

    def parse_hide(self, head: _Head, cursor: _Cursor) -> None:
        self.add(Hide(**self.where(head)))

    def parse_show(self, head: _Head, cursor: _Cursor) -> None:
        self.add(Show(**self.where(head)))

    def parse_screenshot(self, head: _Head, cursor: _Cursor) -> None:
        path = cursor.value("Screenshot needs a file")
        extension = os.path.splitext(path.text)[1].lower()
        if extension not in _SHOTS.split(", "):
            raise _LineError(
                path.column, f"Screenshot {_quoted(path.text)} must be one of {_SHOTS}"
            )
        self.add(Screenshot(path.text, **self.where(head)))

    def parse_marker(self, head: _Head, cursor: _Cursor) -> None:
        label = cursor.value("Marker needs a label")
        self.add(Marker(label.text, **self.where(head)))

    def parse_resize(self, head: _Head, cursor: _Cursor) -> None:
        if cursor.at_end():
            raise _LineError(cursor.column, "Resize needs COLSxROWS, e.g. 100x30")
        size = cursor.word()
        match = _SIZE.fullmatch(size.text)
        if not match:
            raise _LineError(size.column, f"bad size {_quoted(size.text)} (COLSxROWS, e.g. 100x30)")
        cols = _cells(_Token(match[1], size.column), "width")
        rows = _cells(_Token(match[2], size.column + len(match[1]) + 1), "height")
        self.add(Resize(cols, rows, **self.where(head)))

    # Parts of a command's first word

    def duration_at(self, head: _Head, default: float) -> float:
        """The @duration of `Type@50ms` or `Wait@5s`, else the setting in force."""
        return default if head.at is None else _duration(head.at)

    def scope(self, head: _Head) -> Scope:
        if not head.plus:
            return "line"
        part = head.plus[0]
        if len(head.plus) > 1 or part.text not in ("Line", "Screen"):
            raise _LineError(part.column, f"{head.name}+ takes Line or Screen")
        return "screen" if part.text == "Screen" else "line"


def _setting_text(cursor: _Cursor, name: str) -> str:
    return cursor.value(f"Set {name} needs a value").text


def _setting_theme(cursor: _Cursor, name: str) -> str | Theme:
    """A theme's name, or a VHS theme as a JSON object, read now so that a bad one is an
    error at its line."""
    if cursor.at_end():
        raise _LineError(cursor.column, "Set Theme needs a theme's name or a JSON object")
    if cursor.text[cursor.pos] == "{":
        token = cursor.json()
        try:
            return vhs_theme(token.text)
        except ThemeError as error:
            raise _LineError(token.column, f"bad theme: {error}") from None
    token = cursor.value("")
    if "/" not in token.text and not token.text.endswith(".json") \
            and find_theme_file(token.text) is None:  # a file's path is read when run
        raise _LineError(token.column, unknown_theme(token.text))
    return token.text


def _number_word(cursor: _Cursor, name: str, what: str) -> _Token:
    if cursor.at_end():
        raise _LineError(cursor.column, f"Set {name} needs {what}")
    return cursor.word()


def _setting_cells(cursor: _Cursor, name: str) -> int:
    return _cells(_number_word(cursor, name, "a number of cells"), name.lower())


def _whole(least: int) -> Callable[[_Cursor, str], int]:
    """A whole number of pixels (frames a second for Framerate), at least `least`."""

    def parse(cursor: _Cursor, name: str) -> int:
        token = _number_word(cursor, name, "a number")
        text = token.text.removesuffix("px")
        if text.isdecimal() and text.isascii() and least <= int(text) <= _MAX_PIXELS:
            return int(text)
        raise _LineError(token.column,
                         f"bad {name} {_quoted(token.text)} ({least} to {_MAX_PIXELS})")

    return parse


def _decimal(least: float, *, above: bool = False, percent: bool = False
             ) -> Callable[[_Cursor, str], float]:
    """A number (LetterSpacing may be negative); `above`: more than `least`, not equal;
    `percent`: a `%` may follow (LoopOffset, a percentage with or without it in VHS)."""

    def parse(cursor: _Cursor, name: str) -> float:
        token = _number_word(cursor, name, "a number")
        text = token.text.removesuffix("%") if percent else token.text
        match = re.fullmatch(r"-?(?:\d+(?:\.\d*)?|\.\d+)", text)
        value = float(match[0]) if match else math.nan
        if math.isfinite(value) and (value > least if above else value >= least) \
                and abs(value) <= _MAX_PIXELS:
            return value
        bound = f"more than {least:g}" if above else f"at least {least:g}"
        raise _LineError(token.column, f"bad {name} {_quoted(token.text)} ({bound})")

    return parse


def _setting_flag(cursor: _Cursor, name: str) -> bool:
    token = _number_word(cursor, name, "true or false")
    if token.text not in ("true", "false"):
        raise _LineError(token.column, f"bad {name} {_quoted(token.text)} (true or false)")
    return token.text == "true"


def _setting_window_bar(cursor: _Cursor, name: str) -> str:
    token = cursor.value(f"Set {name} needs a style")
    if token.text and token.text not in _WINDOW_BARS:
        raise _LineError(token.column, f"bad {name} {_quoted(token.text)} (one of "
                         f"{', '.join(_WINDOW_BARS)}){_suggest(token.text, [*_WINDOW_BARS])}")
    return token.text


def _setting_fill(cursor: _Cursor, name: str) -> str:
    """MarginFill: a #rrggbb colour (quoted: an unquoted # starts a comment), else the
    path of an image."""
    token = cursor.value(f"Set {name} needs a colour (quoted, \"#rrggbb\") or an image")
    if token.text.startswith("#") and not re.fullmatch(r"#[0-9A-Fa-f]{6}", token.text):
        raise _LineError(token.column, f"bad colour {_quoted(token.text)} (#rrggbb)")
    return token.text


def _setting_duration(cursor: _Cursor, name: str) -> float:
    cursor.skip_blanks()
    column = cursor.column
    seconds = _duration_words(cursor, f"Set {name} needs a duration")
    if name == "WaitTimeout" and seconds <= 0:
        raise _LineError(column, "WaitTimeout must be more than 0")
    return seconds


def _setting_pattern(cursor: _Cursor, name: str) -> re.Pattern[str]:
    """VHS takes the pattern bare or quoted; the spec writes it /like this/."""
    if not cursor.at_end() and cursor.text[cursor.pos] == "/":
        return cursor.regex("")
    return _compile(cursor.value("Set WaitPattern needs a /regex/"))


_MAX_PIXELS = 100_000
"""Past this a picture (or a font, or a rate) is a typo, not a setting."""

_SETTING_PARSERS: dict[str, Callable[[_Cursor, str], SettingValue]] = {
    "Shell": _setting_text,
    "Width": _whole(1),
    "Height": _whole(1),
    "Columns": _setting_cells,
    "Rows": _setting_cells,
    "TypingSpeed": _setting_duration,
    "WaitTimeout": _setting_duration,
    "WaitPattern": _setting_pattern,
    "Theme": _setting_theme,
    "FontSize": _whole(1),
    "FontFamily": _setting_text,
    "LetterSpacing": _decimal(-_MAX_PIXELS),
    "LineHeight": _decimal(0, above=True),
    "Padding": _whole(0),
    "Margin": _whole(0),
    "MarginFill": _setting_fill,
    "WindowBar": _setting_window_bar,
    "WindowBarSize": _whole(1),
    "BorderRadius": _whole(0),
    "CursorBlink": _setting_flag,
    "Framerate": _whole(1),
    "PlaybackSpeed": _decimal(0, above=True),
    "LoopOffset": _decimal(0, percent=True),
    "Antialias": _setting_flag,
}

_COMMANDS: dict[str, _Spec] = {
    "Output": _Spec(_Parser.parse_output),
    "Require": _Spec(_Parser.parse_require),
    "Set": _Spec(_Parser.parse_set),
    "Env": _Spec(_Parser.parse_env),
    "Source": _Spec(_Parser.parse_source),
    "Type": _Spec(_Parser.parse_type, at=True),
    **{name: _Spec(_Parser.parse_key, at=True) for name in _KEY_NAMES},
    **{name: _Spec(_Parser.parse_key, plus=True, at=True) for name in _MODIFIERS},
    "Sleep": _Spec(_Parser.parse_sleep),
    "Wait": _Spec(_Parser.parse_wait, plus=True, at=True),
    "Expect": _Spec(_Parser.parse_expect, plus=True),
    "Hide": _Spec(_Parser.parse_hide),
    "Show": _Spec(_Parser.parse_show),
    "Screenshot": _Spec(_Parser.parse_screenshot),
    "Marker": _Spec(_Parser.parse_marker),
    "Resize": _Spec(_Parser.parse_resize),
    "Copy": _Spec(_Parser.parse_copy),
    "Paste": _Spec(_Parser.parse_paste),
    "ScrollUp": _Spec(_Parser.parse_scroll, at=True),
    "ScrollDown": _Spec(_Parser.parse_scroll, at=True),
}
"""Every command, as tmux declares its commands: one entry each, next to its parser."""
