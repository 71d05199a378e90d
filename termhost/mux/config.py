"""tmux command files: `-f FILE` at server start, and `source-file`.

A file is read whole (lexer.py: tmux's language, `%if`, `NAME=value`), then each of its
commands checked as tmux builds it (a verb there is, flags and arguments it takes), and
only then run: as tmux 3.3a, a file with an error in either step runs none of its
commands, and that first error is the one said, `FILE:LINE: message`. Run, a command
that fails skips the rest of its line (tmux's command group) and the file goes on.

A file whose name ends in `.toml` is termhost's own format (config_toml.py), turned into
the same commands, line numbers kept; an error in it costs its line, not the file.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path

from termhost.mux.lexer import Assign, LexError, Line, parse_commands
from termhost.mux.printing import Block, command_line

__all__ = ["Line", "Sourced", "parse", "source"]

RunCommand = Callable[[Sequence[str]], Awaitable[tuple[int, str, str]]]
"""Runs one command line: (status, stdout, stderr)."""

CheckCommand = Callable[[Sequence[str]], str | None]
"""Why tmux would refuse to build a command (`unknown command: X`, a usage error), or
None: what a file is checked with before any of it runs."""


def parse(text: str, env: Mapping[str, str] | None = None, *,
          assign: Assign | None = None) -> tuple[list[Line], list[tuple[int, str]]]:
    """The commands of a file, each with its line, or (none then) its syntax error.
    `$NAME` and `~` are expanded from `env` (the server's environment by default) and
    the file's own `NAME=value` lines, which `assign` is given as they are read."""
    try:
        return parse_commands(text, os.environ if env is None else env, assign=assign), []
    except LexError as error:
        return [], [(error.line, str(error))]


@dataclass
class Sourced:
    """What running a file gave."""

    output: str = ""
    """What its commands printed, after -v's lines."""
    refused: list[str] = field(default_factory=list)
    """Its error, when it ran nothing: what tmux prints as output to a client that
    asked, and keeps for the first session to show when none did."""
    errors: list[str] = field(default_factory=list)
    """The errors of the commands that ran (and a file that could not be read)."""


async def source(path: str, run: RunCommand, check: CheckCommand, *,
                 client: bool = False, quiet: bool = False,
                 env: Mapping[str, str] | None = None, assign: Assign | None = None,
                 verbose: bool = False, parse_only: bool = False,
                 text: str | None = None) -> Sourced:
    """Check then run the commands of the file at `path` (or `text`, read already: a
    client's stdin for `-`, named so in messages). `client`: a client asked, so
    a command's error is said as it is, not as `PATH:LINE: message`; `quiet` (-q): a
    missing file is no error; `env`: what `$NAME` and `~` expand from (the server's
    environment by default), and `assign` takes the file's variables; `verbose` (-v):
    each line's commands printed as `PATH:LINE: COMMAND` first; `parse_only` (-n):
    checked, its errors said, nothing run."""
    sourced = Sourced()
    try:
        if text is None:
            text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    except FileNotFoundError:
        if not quiet:
            sourced.errors.append(f"{path}: No such file or directory")
        return sourced
    except OSError as error:
        sourced.errors.append(f"{path}: {error.strerror or error}")
        return sourced
    refused: tuple[int, str] | None = None
    if path.endswith(".toml"):
        from termhost.mux import config_toml  # only then: every CLI call imports this module

        commands, errors = config_toml.translate(text)
        sourced.errors += [f"{path}:{line}: {message}" for line, message in errors]
    else:
        commands, errors = parse(text, env, assign=assign)
        refused = errors[0] if errors else _refused(commands, check)
    groups = [list(group) for _, group in groupby(commands, key=lambda command: command[0])]
    if refused is not None:  # -v shows the lines built before the one refused, as tmux
        sourced.refused.append(f"{path}:{refused[0]}: {refused[1]}")
        groups = [group for group in groups if group[0][0] < refused[0]]
    if verbose:
        sourced.output += "".join(
            f"{path}:{group[0][0]}: "
            f"{' ; '.join(command_line(argv) for _, argv in group)}\n" for group in groups)
    if parse_only or sourced.refused:
        return sourced
    for group in groups:
        await _run_group(path, group, run, sourced, client=client)
    return sourced


def _refused(commands: Iterable[Line], check: CheckCommand) -> tuple[int, str] | None:
    """The first command tmux would not build, and why: the commands of its `{ }`
    arguments first, then the command itself."""
    for line, argv in commands:
        for word in argv:
            if isinstance(word, Block):
                inner = _refused(zip(word.lines, word.commands, strict=True), check)
                if inner is not None:
                    return inner
        cause = check(argv)
        if cause is not None:
            return line, cause
    return None


async def _run_group(path: str, group: list[Line], run: RunCommand, sourced: Sourced, *,
                     client: bool) -> None:
    """The commands of one line, up to the first that fails, as tmux runs a group."""
    for line, argv in group:
        status, stdout, stderr = await run(argv)
        sourced.output += stdout
        if status:
            said = stderr.splitlines() or ["error"]
            sourced.errors += said if client else [f"{path}:{line}: {text}" for text in said]
            return
