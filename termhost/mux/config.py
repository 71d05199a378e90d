"""tmux command files: `-f FILE` at server start, and `source-file`.

A file of tmux commands, one per line, as tmux reads ~/.tmux.conf: a line ending in `\\`
goes on on the next one; its words and commands are lexer.py's (quotes, escapes, `;`,
`$NAME`, `~`, and `{ }` blocks, which go on over lines); `NAME=value` alone sets a
variable for the lines after it (`%hidden` too), and `%if FORMAT` / `%elif` / `%else` /
`%endif` choose the lines read. Every command runs, whatever the ones before gave: an
error is reported as `FILE:LINE: message` and the rest of the file still loads, so an
existing tmux configuration with commands termhost does not have yet mostly works.
(tmux refuses a whole file when one of its commands has bad arguments.)

A file whose name ends in `.toml` is termhost's own format (config_toml.py), turned into
the same commands, line numbers kept.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from pathlib import Path

from termhost.mux.formats import expand
from termhost.mux.lexer import LexError, Unclosed, split_commands

__all__ = ["Line", "default_path", "parse", "source"]

Line = tuple[int, list[str]]
"""(line number, argv) of one command."""

RunCommand = Callable[[Sequence[str]], Awaitable[tuple[int, str, str]]]
"""Runs one command line: (status, stdout, stderr)."""


def default_path(env: Mapping[str, str]) -> str | None:
    """The configuration a server starts with when -f names none: termhost's own
    `$XDG_CONFIG_HOME/termhost/config.toml` (~/.config by default) when it exists, else
    the tmux configuration tmux 3.3a would read (~/.tmux.conf,
    `$XDG_CONFIG_HOME/tmux/tmux.conf`, ~/.config/tmux/tmux.conf: the first there is), so
    that a tmux user's setup simply works."""
    home = env.get("HOME") or os.path.expanduser("~")
    config_home = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    for path in (os.path.join(config_home, "termhost", "config.toml"),
                 os.path.join(home, ".tmux.conf"),
                 os.path.join(config_home, "tmux", "tmux.conf"),
                 os.path.join(home, ".config", "tmux", "tmux.conf")):
        if os.path.isfile(path):
            return path
    return None


_DIRECTIVES = ("%if", "%elif", "%else", "%endif", "%hidden")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def parse(text: str, env: Mapping[str, str] | None = None
          ) -> tuple[list[Line], list[tuple[int, str]]]:
    """The commands of a file and its syntax errors, each with its line number.

    `$NAME` and `~` are expanded from `env` (the server's environment by default) and
    the file's own `NAME=value` lines; of `%if`, `%elif` and `%else`, only the branch
    whose format is true is read.
    """
    variables = dict(os.environ if env is None else env)
    commands: list[Line] = []
    errors: list[tuple[int, str]] = []
    branches = _Branches()
    block: tuple[int, str] | None = None
    """The first line and the text so far of a `{` block still open."""
    for start, line in _joined_lines(text):
        if block is not None:
            start, line = block[0], block[1] + "\n" + line
            block = None
        try:
            directive = line.split(None, 1)[0] if line.strip() else ""
            if directive in _DIRECTIVES:
                rest = line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
                if directive == "%hidden":
                    if branches.reading:
                        _assign(split_commands(rest, variables), variables)
                else:
                    branches.directive(directive, _condition(rest, variables), start)
                continue
            if not branches.reading:
                continue
            for argv in split_commands(line, variables):
                if not _assign([argv], variables):
                    commands.append((start, argv))
        except Unclosed:
            block = (start, line)  # the block goes on on the next line
        except LexError as error:
            errors.append((start, f"syntax error: {error}"))
    if block is not None:
        errors.append((block[0], "syntax error: missing }"))
    if branches.open_at is not None:
        errors.append((branches.open_at, "syntax error: %if without %endif"))
    return commands, errors


def _joined_lines(text: str) -> Iterator[tuple[int, str]]:
    """Each logical line with the number of its first: a line ending in `\\` goes on."""
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not pending:
            start = number
        if raw.endswith("\\") and not raw.endswith("\\\\"):
            pending += raw[:-1]
            continue
        yield start, pending + raw
        pending = ""
    if pending:
        yield start, pending


def _assign(commands: list[list[str]], variables: dict[str, str]) -> bool:
    """`NAME=value` standing alone sets a variable of the file's; False if not one."""
    if len(commands) != 1 or len(commands[0]) != 1 or not _ASSIGNMENT.match(commands[0][0]):
        return False
    name, _, value = commands[0][0].partition("=")
    variables[name] = value
    return True


def _condition(rest: str, variables: Mapping[str, str]) -> bool:
    """An `%if`'s or `%elif`'s one word, as a format: true unless empty or 0."""
    commands = split_commands(rest, variables)
    words = commands[0] if len(commands) == 1 else []
    if len(words) > 1:
        raise LexError("%if takes one word, the format")
    # the server's variables: a file written for several tmux versions or hosts takes
    # the branch for this one (`#{version}`, `#{host}`). Imported here: the command-line
    # client imports this module, and the variables' module brings the emulator along.
    from termhost.mux.format_variables import server_variables

    value = expand(words[0], server_variables(None)) if words else ""
    return value not in ("", "0")


class _Branches:
    """The `%if` blocks a file is inside: whether its lines are read at this point."""

    def __init__(self) -> None:
        self._frames: list[list[int]] = []
        """[reading this branch, a branch of this %if was taken, its line] per open %if."""

    @property
    def reading(self) -> bool:
        return all(frame[0] for frame in self._frames)

    @property
    def open_at(self) -> int | None:
        """The line of the first %if still open."""
        return self._frames[0][2] if self._frames else None

    def directive(self, name: str, condition: bool, line: int) -> None:
        if name == "%if":
            taken = self.reading and condition
            self._frames.append([taken, taken, line])
            return
        if not self._frames:
            raise LexError(f"{name} without %if")
        frame = self._frames.pop()
        if name == "%endif":
            return
        outer = self.reading
        frame[0] = outer and not frame[1] and (condition if name == "%elif" else True)
        frame[1] = frame[1] or frame[0]
        self._frames.append(frame)


async def source(path: str, run: RunCommand, *, quiet: bool = False,
                 env: Mapping[str, str] | None = None, verbose: bool = False,
                 parse_only: bool = False) -> tuple[str, list[str]]:
    """Run the commands of the file at `path`: (their output, the errors, one line each
    as `PATH:LINE: message`). `quiet`: a missing file is no error (source-file -q);
    `env`: what `$NAME` and `~` expand from (the server's environment by default);
    `verbose` (-v): each command printed as `PATH:LINE: COMMAND` first; `parse_only`
    (-n): parsed, its errors said, nothing run."""
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
        commands, errors = parse(text, env)
    output: list[str] = []
    for number, argv in commands:
        if verbose:
            from termhost.mux.printing import command_line

            output.append(f"{path}:{number}: {command_line(argv)}\n")
        if parse_only:
            continue
        status, stdout, stderr = await run(argv)
        output.append(stdout)
        if status:
            errors.append((number, stderr.strip().splitlines()[0] if stderr.strip() else "error"))
    return "".join(output), [f"{path}:{number}: {message}" for number, message in sorted(errors)]
