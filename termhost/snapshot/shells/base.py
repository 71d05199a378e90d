"""What every shell language shares: the `ShellLanguage` interface, the quoting of values,
and the POSIX family (export, alias, `.`) that bash, zsh and sh have in common."""

from __future__ import annotations

import os
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from termhost.snapshot.errors import SnapshotError

if TYPE_CHECKING:
    from termhost.snapshot.model import Snapshot

__all__ = [
    "COMMON_EXCLUDED",
    "FUNCTION_NAME",
    "GUARD_VARIABLE",
    "NAME",
    "PLAIN",
    "AnsiCFamily",
    "Parsed",
    "PosixFamily",
    "ShellLanguage",
    "ansi_c",
    "home_of",
    "pairs",
    "posix_quote",
    "words",
]

GUARD_VARIABLE = "TERMHOST_SNAPSHOT"
"""Set to 1 while capturing: rc files test it to skip what needs a terminal or a person."""


def words(text: str) -> frozenset[str]:
    """A set of names written as text, the way the shells' manuals list them."""
    return frozenset(text.split())


NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

PLAIN = re.compile(r"[A-Za-z0-9_.,:@%+/-]+\Z")
FUNCTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:+@-]*\Z")
"""A function name that is a plain word in a command line, so a stub can call it."""

COMMON_EXCLUDED = frozenset(
    {"_", "PWD", "OLDPWD", "SHLVL", "COLUMNS", "LINES", "TERM", GUARD_VARIABLE})
"""Per-process state every shell maintains itself, our own guard variable, and TERM: the
terminal is whichever one the snapshot is used in (`termhost exec` passes its own on)."""


class Parsed(NamedTuple):
    """What a shell's report says of the state its rc files left, besides cwd and env."""

    aliases: dict[str, str]
    functions: dict[str, str]
    options: list[str]
    """The options on, as the shell names them (zsh: as `setopt` prints them, so that
    `nobeep` is a default turned off)."""
    options_off: list[str]
    """The options off, where the shell can list them (bash): a shell started without
    rc files has its defaults, some of them on, so those are turned off again."""


@dataclass(frozen=True)
class Interactive:
    """How a shell starts interactive from a snapshot's script (`interactive_argv`)."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    """Variables it needs set for that."""
    files: dict[str, str] = field(default_factory=dict)
    """Files it needs written for that, by path: their text."""


class ShellLanguage(ABC):
    """Everything that differs between shells, for one kind."""

    kind: str
    excluded: frozenset[str] = frozenset()
    """Exported variables not captured: read-only or per-process in this shell."""

    def capture_argv(self, shell: str, script: str) -> list[str]:
        """Run `script` after the startup files an interactive login shell reads: all
        four shells take `-l -i -c`."""
        return [shell, "-l", "-i", "-c", script]

    @abstractmethod
    def capture_script(self, channel: str, nonce: str, env_program: str) -> str:
        """The script writing the report to the FIFO `channel`, ending with NONCE:end."""

    @abstractmethod
    def startup_files(self, env: Mapping[str, str]) -> list[str]:
        """The files (and directories of files) the capture's shell reads at start with
        `env`, read or not: a capture whose files all look the same gives the same
        snapshot, which is what lets identical sessions share one."""

    @staticmethod
    def report_opening(nonce: str, env_program: str) -> str:
        """The report's first lines, the same in every shell's syntax: the begin marker,
        the cwd, and the environment as `env -0` prints it."""
        return (f"  printf '%s\\0' {nonce}:begin \"$PWD\" {nonce}:env\n"
                f"  {env_program} -0")

    @abstractmethod
    def quote(self, value: str) -> str:
        """`value` as one word of this language, exact to the byte."""

    @abstractmethod
    def render(self, snapshot: Snapshot, functions: Iterable[str]) -> Iterable[str]:
        """The lines of the sourceable script after the exports, with `functions` (the
        definitions, or stubs standing in for them) in their place."""

    @abstractmethod
    def export(self, name: str, value: str) -> str:
        """One line exporting `name`."""

    @abstractmethod
    def run_argv(self, shell: str, body: str) -> list[str]:
        """Run `body` in a non-interactive shell that read no startup files."""

    @abstractmethod
    def source_line(self, path: str) -> str:
        """The line that sources the file at `path`."""

    def exec_body(self, script_path: str) -> str:
        """Source `script_path`, then run the command string given as the last argument.

        `eval` parses the command only once the script ran, so aliases it defined apply
        (zsh and fish parse a whole `-c` string before running any of it), and `set --`
        inside the evaluated text leaves the command no arguments, as a `-c` string has.
        The command travels as an argument, never spliced into the body, so the body is
        fixed per snapshot.
        """
        return f'{self.source_line(script_path)}\neval "set --\n$1"'

    def interactive_argv(self, shell: str, script_path: str) -> Interactive | None:
        """An interactive shell that reads `script_path` in place of its startup files;
        None where the shell has no way (a resurrected pane then starts it as usual)."""
        return None

    def exec_tail(self, shell: str) -> list[str]:
        """Arguments between the body and the command: $0, the shell's name."""
        return [shell]

    def stub(self, name: str, path: str) -> str | None:
        """A definition of function `name` that loads the real one from `path` when first
        called and runs it; None where this shell's functions are defined at once."""
        return None

    def deferred(self, snapshot: Snapshot, name: str, source: str) -> str:
        """The file a stub loads: the definition of function `name` as the shell printed
        it, then a call of it with the stub's arguments (a sourced file has its caller's)."""
        return f"{source}\n"

    def validate_body(self, path: str) -> str:
        """Source `path` so that any failing line fails the whole run (`set -e`)."""
        return f"set -e\n{self.source_line(path)}"

    def keeps(self, name: str) -> bool:
        """Whether an exported variable is restored: a valid name, not shell-managed."""
        return (
            NAME.match(name) is not None
            and name not in COMMON_EXCLUDED
            and name not in self.excluded
        )

    def parse(self, sections: Mapping[str, list[str]]) -> Parsed:
        """Aliases, functions and options from the report's sections (NUL-separated)."""
        return Parsed(
            pairs(sections.get("aliases", [])),
            pairs(sections.get("functions", [])),
            sections.get("options", []),
            sections.get("options_off", []),
        )


def pairs(fields: list[str]) -> dict[str, str]:
    if len(fields) % 2:
        raise SnapshotError("the shell's report is malformed: an odd number of fields")
    return dict(zip(fields[::2], fields[1::2], strict=True))


def ansi_c(value: str) -> str:
    """`$'...'` quoting for bash and zsh: printable text as is, bytes as \\xHH.

    Lone surrogates are bytes that were not UTF-8 (surrogateescape); `\\xHH` makes those
    exact bytes in both shells, whatever the locale. Every escape has two hex digits, so
    a following hex digit is never swallowed.
    """
    out = ["$'"]
    for char in value:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif char in "'\\":
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        else:
            out.append(char)
    out.append("'")
    return "".join(out)


def posix_quote(value: str) -> str:
    """POSIX single quotes (dash has no `$'...'`): every byte but `'` stands for itself."""
    return "'" + value.replace("'", "'\\''") + "'"


def home_of(env: Mapping[str, str]) -> str:
    """The HOME the shell will read its dot files from."""
    return env.get("HOME") or os.path.expanduser("~")


class PosixFamily(ShellLanguage):
    """bash, zsh and sh share `export`, `alias` and `.`."""

    interactive_only: frozenset[str] = frozenset()
    """Options that only an interactive shell has, left out of a snapshot."""
    left_on: frozenset[str] = frozenset()
    """Options never turned off again, even when the rc files left them off."""

    def export(self, name: str, value: str) -> str:
        return f"export {name}={self.quote(value)}"

    def source_line(self, path: str) -> str:
        return f". {self.quote(path)}"

    def aliases(self, snapshot: Snapshot) -> Iterable[str]:
        """The `alias` lines, after `unalias -a` and the functions.

        Functions come before the aliases in the script: bash and zsh expand aliases while
        parsing a function definition, and a body already expanded at capture time would
        be expanded twice.
        """
        for name, value in snapshot.aliases.items():
            yield f"alias {self.name(name)}={self.quote(value)}"

    def name(self, name: str) -> str:
        """An alias name, quoted only when it needs to be."""
        return name if PLAIN.match(name) else self.quote(name)


class AnsiCFamily(PosixFamily):
    """bash and zsh: `$'...'` quoting, and functions as the shell prints them."""

    def quote(self, value: str) -> str:
        return ansi_c(value)

    def stub(self, name: str, path: str) -> str | None:
        # Parsing a definition costs bash about 50 us and zsh 30: bash-completion's
        # hundred functions, or oh-my-zsh's hundreds, would take longer than the rest of
        # `termhost exec` together. A stub costs a fraction of that, and loading one
        # function when it is called costs what defining it would have.
        # The stub is as short as it can be (its file ends by calling the function,
        # `deferred`), and the path in plain quotes, which bash reads faster than $'...'.
        if FUNCTION_NAME.match(name) is None:
            return None
        return f"{name} () {{ . {posix_quote(path)}; }}"

    def parse(self, sections: Mapping[str, list[str]]) -> Parsed:
        aliases, functions, options, off = super().parse(sections)
        return Parsed(
            aliases,
            {name: source.rstrip("\n") for name, source in functions.items()},
            [o for o in options if o not in self.interactive_only],
            [o for o in off if o not in self.interactive_only and o not in self.left_on],
        )


