"""tmux 3.3a's format language, expanded as tmux's format.c expands it.

`display-message`, the `-F` of the list commands, the status line and titles all expand
formats, and scripts written for tmux depend on its every quirk: which commas split a `?`,
that `#{?a,b}` ends the whole expansion, that `s/^/x/` drops a character. So this is a port
of format.c's algorithm rather than a grammar: the same scan for `#{...}` (format_skip), the
same modifier parser (format_build_modifiers), the same order of work in format_replace,
and the same log lines, so `display-message -v` prints tmux's trace. tests/mux/test_formats.py
holds it to a live tmux 3.3a, case by case, and runs tmux's regress/format-strings.sh as data.

What tmux reads from its server state (options, the environment, the sessions to loop over,
pane content, `#()` jobs, the clock) comes through a `FormatScope`, so this module stays
pure; without one, those expand as tmux does with nothing known. Plain variables come from a
mapping and are looked up before options (tmux looks options up first; no variable shares
an option's name), which keeps `#{name}`, the status line's staple, a dictionary lookup.
"""

from __future__ import annotations

import re
import string
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Literal, NamedTuple, Protocol

from termhost.mux.colour_names import colour_rgb
from termhost.mux.format_text import format_skip, format_width, text_width, trim_left, trim_right
from termhost.mux.libc import (
    basename,
    dirname,
    divide,
    fixed,
    fmod,
    fnmatch,
    long_long,
    regex_search,
    regsub,
    strftime_into,
    strtod,
    strtonum,
)

__all__ = ["SHORT_ALIASES", "FormatScope", "LoopItem", "LoopKind", "NameKind", "expand",
           "format_true", "search_lines"]

Variables = Mapping[str, str]
Trace = Callable[[str], None]
LoopKind = Literal["sessions", "windows", "panes"]
NameKind = Literal["sessions", "windows"]


class LoopItem(NamedTuple):
    """One session, window or pane of a `S:`/`W:`/`P:` loop."""

    variables: Variables
    """Its format variables, as for a format expanded against it alone."""
    current: bool
    """The session's current window, or the window's active pane: `W:` and `P:` use
    their second format for it."""
    scope: FormatScope
    """The scope inside it: a window's `P:` loops over that window's panes."""


class FormatScope(Protocol):
    """What a format may ask of the server beyond its variables. The server implements
    one per expansion target (a client, session, window and pane, as tmux's format tree);
    each method answers as tmux 3.3a's format.c would."""

    def option(self, name: str) -> str | None:
        """The value of option `name` as `show-options -v` prints it (flags `on`/`off`,
        an array element for `name[N]`, a whole array space-separated), looked up as
        tmux does: server options, then the pane's, the window's, global window options,
        the session's, global session options; None when no table has it. Used for
        `#{status-left}`, `#{@user}` and `E:`/`T:`."""
        ...

    def environ(self, name: str) -> str | None:
        """The variable from the session's environment, else the global one; None when
        unset or removed (`-r`). tmux falls back to it for a name that is neither a format
        variable nor an option (`#{HOME}`), except under `t:`."""
        ...

    def loop(self, kind: LoopKind) -> Sequence[LoopItem] | None:
        """The items `S:`, `W:` or `P:` repeats its format for: every session (by name,
        tmux's session tree order), the windows of this scope's session (by index), the
        panes of this scope's window (in layout order). None when there is no session
        (`windows`) or window (`panes`) to loop in: tmux then fails the format."""
        ...

    def names(self, kind: NameKind) -> Collection[str] | None:
        """Every session's name, or the names of this scope's session's windows, for
        `N/s:` and `N:`; None for windows when there is no session (tmux fails then)."""
        ...

    def search(self, pattern: str, regex: bool, ignore_case: bool) -> int | None:
        """`C:`: the 1-based number of the first visible line of this scope's pane that
        matches, 0 for none: `search_lines(visible lines, ...)` does tmux's matching.
        None when there is no pane."""
        ...

    def job(self, command: str) -> str:
        """`#(command)` (already expanded): the last line the command printed in its most
        recent run, "" before it printed any. Never waits: starts the command through
        /bin/sh in the background (global environment, client's cwd) when it has never
        run, or has finished and last started in an earlier second, and asks for the
        status line to be redrawn when output arrives, as tmux's format_job_get."""
        ...

    def now(self) -> float:
        """The time: for strftime expansion, `t/p:` and nothing else (seconds since the
        epoch, local time zone)."""
        ...


SHORT_ALIASES = {
    "S": "session_name",
    "I": "window_index",
    "P": "pane_index",
    "W": "window_name",
    "T": "pane_title",
    "D": "pane_id",
    "H": "host",
    "h": "host_short",
    "F": "window_flags",
}

# format.c's modifier flags
_TIMESTRING, _BASENAME, _DIRNAME, _QUOTE_SHELL = 0x1, 0x2, 0x4, 0x8
_LITERAL, _EXPAND, _EXPANDTIME, _SESSIONS = 0x10, 0x20, 0x40, 0x80
_WINDOWS, _PANES, _PRETTY, _LENGTH = 0x100, 0x200, 0x400, 0x800
_WIDTH, _QUOTE_STYLE, _WINDOW_NAME, _SESSION_NAME = 0x1000, 0x2000, 0x4000, 0x8000
_CHARACTER, _COLOUR = 0x10000, 0x20000

_SIMPLE_FLAGS = {"l": _LITERAL, "a": _CHARACTER, "b": _BASENAME, "c": _COLOUR,
                 "d": _DIRNAME, "n": _LENGTH, "w": _WIDTH, "E": _EXPAND, "T": _EXPANDTIME,
                 "S": _SESSIONS, "W": _WINDOWS, "P": _PANES}
_COMPARISONS: dict[str, Callable[[str, str], bool]] = {
    "||": lambda a, b: format_true(a) or format_true(b),
    "&&": lambda a, b: format_true(a) and format_true(b),
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}
_OPERATORS: dict[str, Callable[[float, float], float]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": divide,
    "%": fmod,
    "m": fmod,
    "==": lambda a, b: float(abs(a - b) < 1e-9),
    "!=": lambda a, b: float(abs(a - b) > 1e-9),
    ">": lambda a, b: float(a > b),
    ">=": lambda a, b: float(a >= b),
    "<": lambda a, b: float(a < b),
    "<=": lambda a, b: float(a <= b),
}
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
_LOOP_LIMIT = 100
_STRFTIME_MAX = 8192
"""Bytes in format.c's strftime buffer: a longer expansion makes the format empty."""
_QUOTED = frozenset("|&;<>()$`\\\"'*?[# =%")
_PLAIN = re.compile(r"[\w@-]+")
"""A body that can only be a name: format_build_modifiers finds no modifier in it and
expands nothing (no `:`, `;`, `#` or `%`), so it is looked up directly."""


def expand(template: str, variables: Variables, *, scope: FormatScope | None = None,
           strftime: bool = False, trace: Trace | None = None) -> str:
    """`template` with every `#{...}`, `#X` and `#()` replaced, as tmux's format_expand;
    `strftime` first passes it (and each format inside) through strftime(3), as
    format_expand_time does for display-message and the status line. `trace` is given
    each line `display-message -v` prints, without its leading `# `."""
    if trace is None and not strftime:
        parts = _plain_parts(template)
        if parts is not None:
            if scope is None:
                found = variables.get
                return "".join(found(text, "") if name else text for text, name in parts)
            return "".join(_lookup(text, variables, scope) if name else text
                           for text, name in parts)
    return _Expansion(variables, scope, trace, strftime).expand(template)


@lru_cache(maxsize=512)
def _plain_parts(template: str) -> tuple[tuple[str, bool], ...] | None:
    """`template` cut into text and names (True), when it holds nothing but plain
    `#{name}`s, `#X` aliases and `#,`/`#}` escapes: the status line's usual formats, which
    the full expansion would only look up. None for anything else (`##` too, which may
    start a `##[`). Kept equal to the full expansion by a property test."""
    parts: list[tuple[str, bool]] = []
    index = 0
    while True:
        hash_at = template.find("#", index)
        if hash_at < 0:
            parts.append((template[index:], False))
            break
        parts.append((template[index:hash_at], False))
        char = template[hash_at + 1:hash_at + 2]
        index = hash_at + 2
        if char == "{":
            close = template.find("}", index)
            if close < 0 or not _PLAIN.fullmatch(template, index, close):
                return None
            parts.append((template[index:close], True))
            index = close + 1
        elif char in SHORT_ALIASES:
            parts.append((SHORT_ALIASES[char], True))
        elif char in ("(", "#"):
            return None
        elif char in ("}", ","):
            parts.append((char, False))
        elif char == "":
            parts.append(("#", False))
            break
        else:
            parts.append(("#" + char, False))
    return tuple(part for part in parts if part[0])


def _lookup(name: str, variables: Variables, scope: FormatScope) -> str:
    """A plain name's value: format_find without modifiers."""
    found = variables.get(name)
    if found is None:
        found = scope.option(name)
        if found is None:
            found = scope.environ(name)
    return found or ""


def search_lines(lines: Iterable[str], pattern: str, *, regex: bool, ignore_case: bool
                 ) -> int:
    """tmux's window_pane_search for `C:`: the 1-based number of the first line (trailing
    blanks removed) that matches `*pattern*` as fnmatch(3), or the extended regular
    expression; 0 when none does or the expression does not compile."""
    for number, line in enumerate(lines, 1):
        text = line.rstrip(" \t\n\v\f\r")
        if regex:
            found = regex_search(pattern, text, ignore_case=ignore_case)
            if found is None:
                return 0
        else:
            found = fnmatch(f"*{pattern}*", text, ignore_case=ignore_case)
        if found:
            return number
    return 0


def format_true(value: str) -> bool:
    """tmux's format_true: an expanded format is true unless empty or `0` (the `-f` of
    the list commands, `if -F`, `%if`)."""
    return value != "" and value != "0"



def _choose(text: str) -> tuple[str, str] | None:
    """format_choose: `text` split at its first unescaped top-level comma."""
    comma = format_skip(text, 0, ",")
    return None if comma is None else (text[:comma], text[comma + 1:])


def _strip(text: str) -> str:
    """format_strip, for a `t/f` time format: escapes removed outside `#{...}`."""
    out: list[str] = []
    depth = 0
    index = 0
    while index < len(text):
        char = text[index]
        following = text[index + 1:index + 2]
        if char == "#" and following == "{":
            depth += 1
        if char == "#" and (following == "" or following in ",#{}:"):
            if depth:
                out.append(char)
            index += 1
            continue
        if char == "}":
            depth -= 1
        out.append(char)
        index += 1
    return "".join(out)


class _Expansion:
    """format.c's format_expand_state: the variables and scope in force, the recursion
    depth (which also indents the trace), and the strftime and no-jobs flags."""

    __slots__ = ("jobs", "loop", "scope", "stamp", "time", "trace", "variables")

    def __init__(self, variables: Variables, scope: FormatScope | None, trace: Trace | None,
                 time_: bool) -> None:
        self.variables = variables
        self.scope = scope
        self.trace = trace
        self.time = time_
        self.jobs = True
        self.loop = 0
        self.stamp: time.struct_time | None = None

    def copy(self, variables: Variables | None = None, scope: FormatScope | None = None
             ) -> _Expansion:
        """format_copy_state, optionally for another target (a loop's item)."""
        other = _Expansion(self.variables if variables is None else variables,
                           self.scope if scope is None else scope, self.trace, self.time)
        other.jobs, other.loop, other.stamp = self.jobs, self.loop, self.stamp
        return other

    def log(self, message: str) -> None:
        """format_log: one `display -v` line, indented by depth (at most ten spaces)."""
        if self.trace is not None:
            self.trace(" " * (min(self.loop, 10) - 1) + message)

    def now(self) -> float:
        return self.scope.now() if self.scope is not None else time.time()

    # format_expand1

    def expand(self, template: str) -> str:
        if not template:
            return ""
        if self.loop == _LOOP_LIMIT:
            self.log(f"reached loop limit ({_LOOP_LIMIT})")
            return ""
        self.loop += 1
        tracing = self.trace is not None
        if tracing:
            self.log(f"expanding format: {template}")
        if self.time and "%" in template:
            if self.stamp is None:
                self.stamp = time.localtime(self.now())
            timed = strftime_into(template, self.stamp, _STRFTIME_MAX)
            if not timed:
                self.log("format is too long")
                return ""  # as tmux: without leaving this depth, so later lines indent more
            if tracing and timed != template:
                self.log(f"after time expanded: {timed}")
            template = timed
        out: list[str] = []
        index, length = 0, len(template)
        while index < length:
            hash_at = template.find("#", index)
            if hash_at < 0:
                out.append(template[index:])
                break
            out.append(template[index:hash_at])
            index = hash_at + 2
            char = template[hash_at + 1:hash_at + 2]
            if char == "{":
                close = template.find("}", index)
                end = close if close >= 0 and "#" not in template[index:close] else format_skip(
                    template, hash_at, "}")
                if end is None:
                    break
                body = template[index:end]
                if tracing:
                    self.log(f"found #{{}}: {body}")
                value = self.replace(body)
                if value is None:
                    break
                out.append(value)
                index = end + 1
            elif char == "(":
                end = _closing_parenthesis(template, index)
                if end is None:
                    break
                out.append(self.job(template[index:end]))
                index = end + 1
            elif char == "#":
                after = index
                while template[after:after + 1] == "#":
                    after += 1
                if template[after:after + 1] == "[":  # ##[ and more: kept for the
                    self.log(f"found #*{after - hash_at}[")  # style drawer, literally
                    out.append(template[hash_at:after + 1])
                    index = after + 1
                    continue
                self.log("found ##")
                out.append("#")
            elif char in ("}", ","):
                self.log(f"found #{char}")
                out.append(char)
            elif char == "":
                out.append("#")  # a final #: tmux copies it and its string's end
            elif char in SHORT_ALIASES:
                name = SHORT_ALIASES[char]
                if tracing:
                    self.log(f"found #{char}: {name}")
                    value = self.replace(name)
                else:  # a plain name: what replace() would find, without its parsing
                    value = self.find(name, 0, None)
                out.append(value or "")
            else:
                out.append("#" + char)
        result = "".join(out)
        if tracing:
            self.log(f"result is: {result}")
        self.loop -= 1
        return result

    def job(self, command: str) -> str:
        """`#(command)`: format_job_get, with the scope running the command."""
        self.log(f"found #(): {command}")
        if not self.jobs:
            self.log("#() is disabled")
            return ""
        inner = self.copy()
        inner.jobs, inner.time = False, False
        expanded = inner.expand(command)
        output = inner.expand(self.scope.job(expanded)) if self.scope is not None else ""
        self.log(f"#() result: {output}")
        return output

    # format_find

    def find(self, key: str, modifiers: int, time_format: str | None) -> str | None:
        found = self.variables.get(key)
        if found is None and self.scope is not None:
            found = self.scope.option(key)
            if found is None and not modifiers & _TIMESTRING:
                found = self.scope.environ(key)
        if found is None:
            return None
        if modifiers & _TIMESTRING:
            seconds, error = strtonum(found, 0, 2**63 - 1)
            if error is not None or seconds == 0:
                return None
            return _time_string(seconds, modifiers & _PRETTY != 0, time_format, self.now())
        if modifiers & _BASENAME:
            found = basename(found)
        if modifiers & _DIRNAME:
            found = dirname(found)
        if modifiers & _QUOTE_SHELL:
            found = "".join("\\" + c if c in _QUOTED else c for c in found)
        if modifiers & _QUOTE_STYLE:
            found = found.replace("#", "##")
        return found

    # format_build_modifiers

    def modifiers(self, body: str) -> tuple[list[tuple[str, list[str]]], str]:
        """The modifiers before the `:` and the rest of `body`; no modifiers and all of
        `body` when they do not end in a `:` (tmux then reads `body` as a name)."""
        found: list[tuple[str, list[str]]] = []
        at = 0
        length = len(body)
        while at < length and body[at] != ":":
            if body[at] == ";":
                at += 1
            first = body[at:at + 1]
            second = body[at + 1:at + 2]
            ends = second != "" and second in ";:"
            if first != "" and first in "labcdnwETSWP<>" and ends:
                found.append((first, []))
                at += 1
                continue
            pair = body[at:at + 2]
            if pair in ("||", "&&", "!=", "==", "<=", ">=") and body[at + 2:at + 3] in (";", ":"):
                found.append((pair, []))
                at += 2
                continue
            if first == "" or first not in "mCNst=peq":
                break
            if ends:
                found.append((first, []))
                at += 1
                continue
            if second == "" or second not in string.punctuation or second == "-":
                end = format_skip(body, at + 1, ":;")
                if end is None:
                    break
                found.append((first, [self.expand(body[at + 1:end])]))
                at = end
                continue
            stops = second + ";:"
            at += 1
            arguments: list[str] = []
            while True:
                if body[at:at + 1] == second and body[at + 1:at + 2] in (";", ":"):
                    at += 1
                    break
                end = format_skip(body, at + 1, stops)
                if end is None:
                    break
                arguments.append(self.expand(body[at + 1:end]))
                at = end
                if body[at] in ";:":
                    break
            found.append((first, arguments))
        if body[at:at + 1] != ":":
            return [], body
        return found, body[at + 1:]

    # format_replace

    def replace(self, body: str) -> str | None:
        """The expansion of one `#{body}`, or None when tmux fails it (which ends the
        whole expansion there)."""
        if self.trace is None and _PLAIN.fullmatch(body):
            value = self.find(body, 0, None)
            return "" if value is None else value
        modifiers, copy = self.modifiers(body)
        flags = limit = width = 0
        marker = time_format = None
        compare: tuple[str, list[str]] | None = None
        search: list[str] | None = None
        expression: list[str] | None = None
        substitutions: list[list[str]] = []
        for number, (name, arguments) in enumerate(modifiers):
            if self.trace is not None:
                self.log(f"modifier {number} is {name}")
                for position, argument in enumerate(arguments):
                    self.log(f"modifier {number} argument {position}: {argument}")
            if name in _SIMPLE_FLAGS:
                flags |= _SIMPLE_FLAGS[name]
            elif name in _COMPARISONS or name == "m":
                compare = (name, arguments)
            elif name == "C":
                search = arguments
            elif name == "s" and len(arguments) >= 2:
                substitutions.append(arguments)
            elif name == "=" and arguments:
                limit = strtonum(arguments[0], _INT_MIN, _INT_MAX)[0]
                marker = arguments[1] if len(arguments) >= 2 else None
            elif name == "p" and arguments:
                width = strtonum(arguments[0], _INT_MIN, _INT_MAX)[0]
            elif name == "e" and 1 <= len(arguments) <= 3:
                expression = arguments
            elif name == "t":
                flags |= _TIMESTRING
                if arguments and "p" in arguments[0]:
                    flags |= _PRETTY
                elif len(arguments) >= 2 and "f" in arguments[0]:
                    time_format = _strip(arguments[1])
            elif name == "q":
                if not arguments:
                    flags |= _QUOTE_SHELL
                elif "e" in arguments[0] or "h" in arguments[0]:
                    flags |= _QUOTE_STYLE
            elif name == "N":
                if not arguments or "w" in arguments[0]:
                    flags |= _WINDOW_NAME
                elif "s" in arguments[0]:
                    flags |= _SESSION_NAME
        value = self.value(copy, flags, compare, search, expression, time_format)
        if value is None:
            self.log(f"failed {body}")
            return None
        if flags & _EXPAND:
            value = self.expand(value)
        elif flags & _EXPANDTIME:
            timed = self.copy()
            timed.time = True
            value = timed.expand(value)
        for arguments in substitutions:
            pattern, replacement = self.expand(arguments[0]), self.expand(arguments[1])
            ignore_case = len(arguments) >= 3 and "i" in arguments[2]
            substituted = regsub(pattern, replacement, value, ignore_case=ignore_case)
            value = value if substituted is None else substituted
            self.log(f"substitute '{pattern}' to '{replacement}': {value}")
        if limit:
            trimmed = trim_left(value, limit) if limit > 0 else trim_right(value, -limit)
            if marker is not None and trimmed != value:
                value = trimmed + marker if limit > 0 else marker + trimmed
            else:
                value = trimmed
            self.log(f"applied length limit {limit}: {value}")
        if width:
            shortfall = " " * max(0, abs(width) - text_width(value))
            value = value + shortfall if width > 0 else shortfall + value
            self.log(f"applied padding width {width}: {value}")
        if flags & _LENGTH:
            value = str(len(value.encode("utf-8", "surrogateescape")))
            self.log(f"replacing with length: {value}")
        if flags & _WIDTH:
            value = str(format_width(value))
            self.log(f"replacing with width: {value}")
        if self.trace is not None:
            self.log(f"replaced '{body}' with '{value}'")
        return value

    def value(self, copy: str, flags: int, compare: tuple[str, list[str]] | None,
              search: list[str] | None, expression: list[str] | None,
              time_format: str | None) -> str | None:
        """What the modifiers make of `copy`, before E:/T:, s///, =, p, n and w."""
        if flags & _LITERAL:
            return copy
        if flags & _CHARACTER:
            code, error = strtonum(self.expand(copy), 32, 126)
            return "" if error is not None else chr(code)
        if flags & _COLOUR:
            rgb = colour_rgb(self.expand(copy))
            return "" if rgb is None else f"{rgb:06x}"
        if flags & _SESSIONS:
            return self.loop_sessions(copy)
        if flags & _WINDOWS:
            return self.loop_items(copy, "windows")
        if flags & _PANES:
            return self.loop_items(copy, "panes")
        if flags & (_WINDOW_NAME | _SESSION_NAME):
            return self.name_exists(copy, "windows" if flags & _WINDOW_NAME else "sessions")
        if search is not None:
            return self.search(copy, search)
        if compare is not None:
            return self.compare(copy, *compare)
        if copy.startswith("?"):
            return self.condition(copy, flags, time_format)
        if expression is not None:
            return self.expression(copy, expression)
        if "#{" in copy:
            self.log(f"expanding inner format '{copy}'")
            return self.expand(copy)
        found = self.find(copy, flags, time_format)
        if found is None:
            self.log(f"format '{copy}' not found")
            return ""
        self.log(f"format '{copy}' found: {found}")
        return found

    def loop_sessions(self, template: str) -> str:
        items = self.scope.loop("sessions") if self.scope is not None else None
        out = []
        for item in items or ():
            self.log(f"session loop: {item.variables.get('session_id', '')}")
            out.append(self.copy(item.variables, item.scope).expand(template))
        return "".join(out)

    def loop_items(self, template: str, kind: Literal["windows", "panes"]) -> str | None:
        items = self.scope.loop(kind) if self.scope is not None else None
        if items is None:
            self.log("window loop but no session" if kind == "windows"
                     else "pane loop but no window")
            return None
        every, current = _choose(template) or (template, None)
        out = []
        for item in items:
            found = item.variables.get
            self.log(f"window loop: {found('window_index', '')} {found('window_id', '')}"
                     if kind == "windows" else f"pane loop: {found('pane_id', '')}")
            chosen = current if current is not None and item.current else every
            out.append(self.copy(item.variables, item.scope).expand(chosen))
        return "".join(out)

    def name_exists(self, template: str, kind: NameKind) -> str | None:
        names = self.scope.names(kind) if self.scope is not None else (
            None if kind == "windows" else ())
        if names is None:
            self.log("window name but no session")
            return None
        return "1" if self.expand(template) in names else "0"

    def search(self, template: str, arguments: list[str]) -> str:
        pattern = self.expand(template)
        flags = arguments[0] if arguments else ""
        line = None
        if self.scope is not None:
            line = self.scope.search(pattern, "r" in flags, "i" in flags)
        if line is None:
            self.log(f"search '{pattern}' but no pane")
            return "0"
        self.log(f"search '{pattern}' pane {self.variables.get('pane_id', '%')}")
        return str(line)

    def compare(self, copy: str, name: str, arguments: list[str]) -> str | None:
        pair = _choose(copy)
        if pair is None:
            self.log(f"compare {name} syntax error: {copy}")
            return None
        left, right = self.expand(pair[0]), self.expand(pair[1])
        self.log(f"compare {name} left is: {left}")
        self.log(f"compare {name} right is: {right}")
        if name != "m":
            return "1" if _COMPARISONS[name](left, right) else "0"
        flags = arguments[0] if arguments else ""
        if "r" in flags:
            return "1" if regex_search(left, right, ignore_case="i" in flags) else "0"
        return "1" if fnmatch(left, right, ignore_case="i" in flags) else "0"

    def condition(self, copy: str, flags: int, time_format: str | None) -> str | None:
        comma = format_skip(copy, 1, ",")
        if comma is None:
            self.log(f"condition syntax error: {copy[1:]}")
            return None
        condition = copy[1:comma]
        self.log(f"condition is: {condition}")
        found = self.find(condition, flags, time_format)
        if found is None:
            found = self.expand(condition)
            if found == condition:
                found = ""
                self.log(f"condition '{condition}' not found; assuming false")
        else:
            self.log(f"condition '{condition}' found: {found}")
        choices = _choose(copy[comma + 1:])
        if choices is None:
            self.log(f"condition '{condition}' syntax error: {copy[comma + 1:]}")
            return None
        if format_true(found):
            self.log(f"condition '{condition}' is true")
            return self.expand(choices[0])
        self.log(f"condition '{condition}' is false")
        return self.expand(choices[1])

    def expression(self, copy: str, arguments: list[str]) -> str:
        """`e|OP|FLAGS|PRECISION:`, format_replace_expression: doubles throughout, cut to
        long long unless `f`, printed with "%.*f"; "" for anything wrong."""
        operation = _OPERATORS.get(arguments[0])
        if operation is None:
            self.log(f"expression has no valid operator: '{arguments[0]}'")
            return ""
        floating = len(arguments) >= 2 and "f" in arguments[1]
        precision = 2 if floating else 0
        if len(arguments) >= 3:
            precision, error = strtonum(arguments[2], _INT_MIN, _INT_MAX)
            if error is not None:
                self.log(f"expression precision {error}: {arguments[2]}")
                return ""
        pair = _choose(copy)
        if pair is None:
            self.log("expression syntax error")
            return ""
        left_text, right_text = self.expand(pair[0]), self.expand(pair[1])
        left = strtod(left_text)
        if left is None:
            self.log(f"expression left side is invalid: {left_text}")
            return ""
        right = strtod(right_text)
        if right is None:
            self.log(f"expression right side is invalid: {right_text}")
            return ""
        if not floating:
            left, right = float(long_long(left)), float(long_long(right))
        self.log(f"expression left side is: {fixed(precision, left)}")
        self.log(f"expression right side is: {fixed(precision, right)}")
        result = operation(left, right)
        value = fixed(precision, result if floating else float(long_long(result)))
        self.log(f"expression result is {value}")
        return value


def _closing_parenthesis(text: str, start: int) -> int | None:
    """The `)` closing a `#(` whose command starts at `start` (nested pairs counted)."""
    depth = 1
    for index in range(start, len(text)):
        char = text[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
    return None


def _time_string(seconds: int, pretty: bool, time_format: str | None, now: float) -> str | None:
    """A `t:` time: ctime(3), or `t/p`'s short form, or strftime of a `t/f` format (into
    format_find's 512 bytes)."""
    try:
        stamp = time.localtime(seconds)
        if pretty:
            return _pretty_time(seconds, stamp, now)
        if time_format is not None:
            return strftime_into(time_format, stamp, 512)
        return time.asctime(stamp)
    except (OverflowError, OSError, ValueError):
        return None


def _pretty_time(seconds: int, stamp: time.struct_time, now: float) -> str:
    """format_pretty_time: the time of day within 24 hours, the weekday and day this month
    or within 28 days, day and month within a year, else month and year."""
    current = max(int(now), seconds)
    age = current - seconds
    today = time.localtime(current)
    if age < 24 * 3600:
        return time.strftime("%H:%M", stamp)
    same_year = stamp.tm_year == today.tm_year
    if (same_year and stamp.tm_mon == today.tm_mon) or age < 28 * 24 * 3600:
        return time.strftime("%a%d", stamp)
    if (same_year and stamp.tm_mon < today.tm_mon) or (
            stamp.tm_year == today.tm_year - 1 and stamp.tm_mon > today.tm_mon):
        return time.strftime("%d%b", stamp)
    return time.strftime("%h%y", stamp)


