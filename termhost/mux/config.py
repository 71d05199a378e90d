"""tmux command files: `-f FILE` at server start, and `source-file`.

A file of tmux commands, one per line, as tmux reads ~/.tmux.conf: `#` starts a comment,
a line ending in `\\` goes on on the next one, `;` at the end of a word separates commands
on one line, and `\\;` is a `;` word given to the command (a binding of two commands).
Every command runs, whatever the ones before gave: an error is reported as
`FILE:LINE: message` and the rest of the file still loads, so an existing tmux
configuration with commands termhost does not have yet mostly works.

A file whose name ends in `.toml` is termhost's own format (config_toml.py), turned into
the same commands, line numbers kept.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path

__all__ = ["Line", "default_path", "escaped", "parse", "printed", "source"]

Line = tuple[int, list[str]]
"""(line number, argv) of one command."""

RunCommand = Callable[[Sequence[str]], Awaitable[tuple[int, str, str]]]
"""Runs one command line: (status, stdout, stderr)."""


_ESCAPED = "\x00;\x00"
"""`\\;` while a line is split: a `;` that belongs to the command (bind a neww \\; splitw
binds both), not one that ends it."""


def default_path(env: Mapping[str, str]) -> str | None:
    """`$XDG_CONFIG_HOME/termhost/config.toml` (~/.config by default) when it exists: the
    configuration a server starts with when -f does not name one."""
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME", "~"), ".config")
    path = os.path.join(os.path.expanduser(base), "termhost", "config.toml")
    return path if os.path.isfile(path) else None


def parse(text: str) -> tuple[list[Line], list[tuple[int, str]]]:
    """The commands of a file and its syntax errors, each with its line number."""
    commands: list[Line] = []
    errors: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not pending:
            start = number
        if raw.endswith("\\") and not raw.endswith("\\\\"):
            pending += raw[:-1]
            continue
        line, pending = pending + raw, ""
        try:
            words = shlex.split(line.replace("\\;", _ESCAPED), comments=True)
        except ValueError as error:
            errors.append((start, f"syntax error: {error}"))
            continue
        argv: list[str] = []
        for word in [*words, ";"]:
            if word == ";" or (word.endswith(";") and not word.endswith("\\;")):
                if word != ";":
                    argv.append(word[:-1])
                if argv:
                    commands.append((start, argv))
                argv = []
            else:
                argv.append(word.replace(_ESCAPED, ";"))
    return commands, errors


_DOUBLE_QUOTED = frozenset(" #';${}%")
"""Characters that make tmux print a word in double quotes."""
_SINGLE_QUOTED = frozenset(' "')
_C_STYLE = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v",
            "\f": "\\f", "\r": "\\r", "\0": "\\0"}


def printed(command: str) -> str:
    """A stored command line (shlex words, `;` between commands) as tmux prints one in
    list-keys: each word escaped so that a configuration file reads it back (tmux's
    args_escape), the commands joined by ` \\; `."""
    words = shlex.split(command)
    return " ".join("\\;" if word == ";" else escaped(word) for word in words)


def escaped(word: str) -> str:
    """`word` as tmux writes one for a configuration file to read back (args_escape):
    list-keys' commands, show-options' string values."""
    if not word:
        return "''"
    quotes = ('"' if not _DOUBLE_QUOTED.isdisjoint(word)
              else "'" if not _SINGLE_QUOTED.isdisjoint(word) else "")
    if len(word) == 1 and word != " " and (quotes or word == "~"):
        return "\\" + word  # a lone special character is escaped, not quoted
    escaped = []
    for char in word:
        if char == "\\" or (quotes == '"' and char in '"$'):
            escaped.append("\\" + char)
        elif char in _C_STYLE:
            escaped.append(_C_STYLE[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\{ord(char):03o}")
        else:
            escaped.append(char)
    text = "".join(escaped)
    if quotes == "'":
        return f"'{text}'"
    tilde = "\\" if text.startswith("~") else ""
    return f'"{tilde}{text}"' if quotes else tilde + text


async def source(path: str, run: RunCommand, *, quiet: bool = False) -> tuple[str, list[str]]:
    """Run the commands of the file at `path`: (their output, the errors, one line each
    as `PATH:LINE: message`). `quiet`: a missing file is no error (source-file -q)."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    except FileNotFoundError:
        return "", [] if quiet else [f"{path}: No such file or directory"]
    except OSError as error:
        return "", [f"{path}: {error.strerror or error}"]
    if path.endswith(".toml"):
        from termhost.mux import config_toml  # only then: every CLI call imports this module

        commands, errors = config_toml.translate(text)
    else:
        commands, errors = parse(text)
    output: list[str] = []
    for number, argv in commands:
        status, stdout, stderr = await run(argv)
        output.append(stdout)
        if status:
            errors.append((number, stderr.strip().splitlines()[0] if stderr.strip() else "error"))
    return "".join(output), [f"{path}:{number}: {message}" for number, message in sorted(errors)]
