"""termhost's own configuration format, `config.toml`: a translator to tmux commands.

A tmux user's `.tmux.conf` is a list of commands; a TOML file is a list of settings, which
is what most people mean to write. Rather than a second way to set things, each setting
becomes the tmux command that sets it, run by the server as if read from a tmux file
(termhost/mux/config.py), so both formats check values and report errors alike:

    # options: top-level keys, named as tmux's options
    prefix = "C-a"
    mouse = true              # booleans become on/off
    history-limit = 50000     # integers become their decimal text
    mode-keys = "vi"
    theme = "dracula"
    status-right = "%H:%M"

    [window]                  # window options, global (set-option -g works for them too)
    monitor-activity = true

    [keys.prefix]             # bindings per key table: root, prefix, copy-mode, copy-mode-vi
    "|" = "split-window -h"   # a tmux command line, split into words as a shell would
    "%" = false               # false unbinds the key
    [keys.root]
    "M-h" = "select-pane -L"
    [keys.copy-mode-vi]
    "y" = "send-keys -X copy-selection-and-cancel"

gives `set-option -g prefix C-a`, ..., `set-option -g monitor-activity on`,
`bind-key -T prefix | split-window -h`, `unbind-key -T prefix %`, ... in file order.

An option is a string (any option), a boolean (an on/off option) or an integer (a number
option); a string passes through as tmux would take it. `#` inside a command string is
part of the command (`display-message #S`): a TOML file has its own comments.

What needs no server is checked here: option names, TOML types, key table names, command
quoting. Option values, key names and commands are the server's to check, reported with
the line given here. A TOML syntax error costs its line, not the file: it is reported and
the line blanked out, and the rest loads, as a tmux file does (the keys under a broken
table header fall into the table above it, and are reported there if they do not fit).
"""

from __future__ import annotations

import datetime
import re
import shlex
import tomllib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from termhost.mux.bindings import TABLES
from termhost.mux.options import OPTIONS, Option

if TYPE_CHECKING:  # config imports this module to read .toml files: no import cycle
    from termhost.mux.config import Line

__all__ = ["translate"]

KeyPath = tuple[str, ...]
"""Where a setting is in the document: ("keys", "prefix", "|")."""

_ATTEMPTS = 100
"""Parses tried on one file, each after blanking a line with a syntax error: enough for
any file a person wrote, and a bound on a file of garbage."""


def translate(text: str) -> tuple[list[Line], list[tuple[int, str]]]:
    """The tmux commands that `text` sets, each with its line, and the errors, each with
    its line: what config.parse gives for a tmux file, so both are run alike."""
    document, errors, lines = _load(text)
    written = list(_written_keys(lines))
    commands: list[Line] = []
    for path, result in _settings(document):
        line = _locate(written, path)
        if isinstance(result, str):
            errors.append((line, result))
        else:
            commands.append((line, result))
    return sorted(commands, key=lambda command: command[0]), sorted(errors)


# Settings: TOML values to tmux commands.


def _settings(document: dict[str, Any]) -> Iterator[tuple[KeyPath, list[str] | str]]:
    """Every setting of the document: where it is, and its command or why it has none."""
    for name, value in document.items():
        if name == "window":
            yield from _window_options(value)
        elif name == "keys":
            yield from _key_tables(value)
        elif name not in OPTIONS and isinstance(value, dict):
            yield (name,), f"unknown table: [{name}]; the tables are [window] and [keys.TABLE]"
        else:
            yield (name,), _option(name, value, window=False)


def _window_options(table: object) -> Iterator[tuple[KeyPath, list[str] | str]]:
    if not isinstance(table, dict):
        yield ("window",), f"window: expected a table of window options, got {_type(table)}"
        return
    for name, value in table.items():
        yield ("window", name), _option(name, value, window=True)


def _key_tables(tables: object) -> Iterator[tuple[KeyPath, list[str] | str]]:
    if not isinstance(tables, dict):
        yield ("keys",), f"keys: expected key tables such as [keys.prefix], got {_type(tables)}"
        return
    for table, bindings in tables.items():
        if table not in TABLES:
            yield ("keys", table), f"unknown key table: {table}"
        elif not isinstance(bindings, dict):
            yield ("keys", table), (
                f"keys.{table}: expected a table of key bindings, got {_type(bindings)}")
        else:
            for key, command in bindings.items():
                yield ("keys", table, key), _binding(table, key, command)


def _option(name: str, value: object, *, window: bool) -> list[str] | str:
    """set-option -g for one option, or why not."""
    option = OPTIONS.get(name)
    if option is None:
        return f"unknown option: {name}"
    if window and not option.window:
        return f"{name}: not a window option; set it at the top level, before any [table]"
    if isinstance(value, str):
        text = value
    elif isinstance(value, bool) and "on" in option.choices:
        text = "on" if value else "off"
    elif isinstance(value, int) and not isinstance(value, bool) and option.kind == "number":
        text = _decimal(value)
    else:
        return f"{name}: expected {_expected(option)}, got {_type(value)}"
    return ["set-option", "-g", name, text]


def _decimal(number: int) -> str:
    """str(number), but for a number too long for Python to print (0x and 4000 digits,
    which TOML reads): no option takes one, and the server says so."""
    try:
        return str(number)
    except ValueError:
        return f"{number:#x}"


def _expected(option: Option) -> str:
    """What an option takes, as the fix to suggest."""
    if option.kind == "number":
        return "an integer"
    if option.kind == "key":
        return 'a key name such as "C-a"'
    if option.kind == "choice":
        choices = ", ".join(f'"{choice}"' for choice in option.choices)
        return f"true, false or one of {choices}" if "on" in option.choices else (
            f"one of {choices}")
    return "a string"


def _binding(table: str, key: str, command: object) -> list[str] | str:
    """bind-key or unbind-key for one key, or why not."""
    if command is False:
        return ["unbind-key", "-T", table, key]
    if not isinstance(command, str):
        return (f'{table} key "{key}": expected a command string, or false to unbind it, '
                f"got {_type(command)}")
    try:
        words = shlex.split(command)
    except ValueError as error:
        return f'{table} key "{key}": {str(error).lower()} in: {command}'
    if not words:
        return f'{table} key "{key}": empty command; false unbinds a key'
    return ["bind-key", "-T", table, key, *words]


def _type(value: object) -> str:
    """The TOML name of a value's type, for messages."""
    if isinstance(value, datetime.datetime):
        return "a date-time"
    names: dict[type, str] = {
        bool: "a boolean", int: "an integer", float: "a float", str: "a string",
        list: "an array", dict: "a table", datetime.date: "a date", datetime.time: "a time",
    }
    return names.get(type(value), type(value).__name__)


# Syntax errors: tomllib reads all of a file or nothing.

_POSITION = re.compile(r"(.*) \(at line (\d+), column \d+\)", re.DOTALL)
_END = " (at end of document)"


def _load(text: str) -> tuple[dict[str, Any], list[tuple[int, str]], list[str]]:
    """The document, its syntax errors, and its lines as read (lines with an error blanked).

    tomllib stops at the first error, so each error's line is blanked and the text read
    again. An error at the end of the document (a string, array or inline table left
    open) is in no one line: lines are blanked from the end up until it goes, and it is
    reported at the last one blanked, where the open construct starts."""
    lines = text.split("\n")
    errors: list[tuple[int, str]] = []
    open_error: str | None = None
    for _ in range(_ATTEMPTS):
        try:
            return tomllib.loads("\n".join(lines)), errors, lines
        except (ValueError, RecursionError) as error:
            number, message = _syntax_error(error)
        blanked = _blank(lines, number or len(lines))
        if number is None and message == open_error:
            errors[-1] = (blanked, message)
        else:
            errors.append((number or blanked, message))
        open_error = message if number is None else None
    errors.append((errors[-1][0], f"more than {_ATTEMPTS} syntax errors: nothing loaded"))
    return {}, errors, lines


def _syntax_error(error: ValueError | RecursionError) -> tuple[int | None, str]:
    """(line, message) of a tomllib error; no line at the end of the document, or for
    the errors tomllib lets through without a position (nesting too deep, an integer
    too long)."""
    if isinstance(error, RecursionError):
        return None, "arrays or inline tables nested too deeply"
    message = str(error)
    if position := _POSITION.fullmatch(message):
        return int(position[2]), position[1]
    return None, message.removesuffix(_END)


def _blank(lines: list[str], number: int) -> int:
    """Blank out line `number`, or if it is blank the nearest written line above it;
    its number."""
    number = min(number, len(lines))
    while number > 1 and not lines[number - 1]:
        number -= 1
    lines[number - 1] = ""
    return number


# The locator: tomllib gives no positions, so a key's line is found in the text.

_SIMPLE_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
_DOTTED_KEY = rf"{_SIMPLE_KEY}(?:[ \t]*\.[ \t]*{_SIMPLE_KEY})*"
_HEADER = re.compile(rf"[ \t]*\[\[?[ \t]*({_DOTTED_KEY})[ \t]*\]")
_ASSIGNMENT = re.compile(rf"[ \t]*({_DOTTED_KEY})[ \t]*=")
_INLINE_ASSIGNMENT = re.compile(rf"({_DOTTED_KEY})[ \t]*=")


def _written_keys(lines: list[str]) -> Iterator[tuple[int, KeyPath, str]]:
    """Each line that writes a table header or a key: its number, the full path it
    writes, and for a key the text after `=`, where an inline table has its keys."""
    table: KeyPath = ()
    numbered = enumerate(lines, 1)
    for number, line in numbered:
        if header := _HEADER.match(line):
            table = _key_path(header[1])
            yield number, table, ""
        elif assignment := _ASSIGNMENT.match(line):
            value = line[assignment.end():]
            yield number, table + _key_path(assignment[1]), value
            _skip_multiline_string(value, numbered)


def _skip_multiline_string(value: str, numbered: Iterator[tuple[int, str]]) -> None:
    """Past the lines of a multi-line string `value` opens, which are text, not keys."""
    value = value.lstrip(" \t")
    quotes = value[:3]
    if quotes in ('"""', "'''") and quotes not in value[3:]:
        for _, line in numbered:
            if quotes in line:
                return


def _key_path(dotted: str) -> KeyPath:
    """The parts of a dotted key as written (`keys."|"`), unquoted as TOML does."""
    try:
        node: object = tomllib.loads(f"{dotted} = 0")
    except tomllib.TOMLDecodeError:
        return ()
    path: list[str] = []
    while isinstance(node, dict):
        [(name, node)] = node.items()
        path.append(name)
    return tuple(path)


def _locate(written: list[tuple[int, KeyPath, str]], path: KeyPath) -> int:
    """The line where the setting at `path` is written: the first line writing it or
    a table under it, or an inline table with its key; else where its table is; else 1."""
    if not path:
        return 1
    for number, key, value in written:
        if key[:len(path)] == path:
            return number
        if path[:len(key)] == key and _names(value, path[-1]):
            return number
    return _locate(written, path[:-1])


def _names(value: str, key: str) -> bool:
    """Whether `value`, an inline table, sets `key` (approximately: a key in a string
    looks the same)."""
    return any(_key_path(assignment[1])[-1:] == (key,)
               for assignment in _INLINE_ASSIGNMENT.finditer(value))
