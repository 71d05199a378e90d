"""Per-shell knowledge: how to capture a shell's state, read it back, and replay it.

One `ShellLanguage` per kind, each in a module of its own (bash, zsh, sh, fish; what they
share is in base); this package's functions pick the language and do the rest. The
capture script runs after the startup files and writes NUL-separated fields to a private
channel (never stdout, which banners share):

    NONCE:begin \\0 CWD \\0 NONCE:env \\0 NAME=VALUE \\0 ... NONCE:aliases \\0 ...
    NONCE:functions \\0 ... NONCE:options \\0 ... NONCE:end \\0

The environment comes from `env -0` run by the shell itself: exactly what a command
started from that shell would inherit, byte for byte, with no shell quoting to undo.

The rendering (`to_script`) is a file in the snapshot's own language, sourced by a
non-interactive shell that read no startup files. It does not `cd`: the exec runner
chooses the working directory (the snapshot's `cwd`, or the pane's current one) when it
starts the command, which keeps the script valid wherever it is run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from termhost.snapshot.errors import SnapshotError, UnsupportedShell
from termhost.snapshot.shells.base import GUARD_VARIABLE, Interactive, Parsed, ShellLanguage
from termhost.snapshot.shells.bash import Bash
from termhost.snapshot.shells.fish import Fish
from termhost.snapshot.shells.sh import Sh
from termhost.snapshot.shells.zsh import Zsh

if TYPE_CHECKING:
    from termhost.snapshot.model import Snapshot

__all__ = [
    "GUARD_VARIABLE",
    "Interactive",
    "Parsed",
    "ShellLanguage",
    "exec_argv",
    "exec_script",
    "interactive_argv",
    "kind_of",
    "language",
    "read_report",
    "to_script",
]

_KINDS = {"bash": "bash", "zsh": "zsh", "sh": "sh", "dash": "sh", "ash": "sh", "fish": "fish"}
"""Shell basenames we capture. ksh and mksh print `set -o` and `alias` differently: unsupported."""


def kind_of(shell: str) -> str:
    """The shell language of `shell` (a path or name), by its basename.

    A leading "-" (a login shell's argv[0]) is ignored.
    """
    kind = _KINDS.get(os.path.basename(shell).lstrip("-"))
    if kind is None:
        raise UnsupportedShell(f"snapshots are not supported for {shell}")
    return kind


_LANGUAGES: dict[str, ShellLanguage] = {
    language.kind: language for language in (Bash(), Zsh(), Sh(), Fish())
}


def language(kind: str) -> ShellLanguage:
    """The `ShellLanguage` of a kind ("bash", "zsh", "sh", "fish")."""
    try:
        return _LANGUAGES[kind]
    except KeyError:
        raise UnsupportedShell(f"snapshots are not supported for {kind} shells") from None


def to_script(snapshot: Snapshot) -> str:
    """The snapshot as a script in its own shell's language, to be sourced.

    Order matters: exports, then options (bash's extglob changes how function bodies
    parse), then functions, then aliases. Values that were not UTF-8 are escaped (bash,
    zsh, fish) or, in sh, kept as the raw bytes (lone surrogates here): write the text
    with `os.fsencode`, as `store` and `validate` do.
    """
    return _script(snapshot, snapshot.functions.values())


def exec_script(snapshot: Snapshot, function_path: Callable[[int], str]) -> tuple[str, list[str]]:
    """The script `termhost exec` sources, and the files its function stubs load.

    It is `to_script` but where the shell has stubs (bash, zsh), each function is one,
    loading the definition from `function_path(i)` (the i-th file returned) on its first
    call: an exec that calls no function parses none. What differs: `declare -f NAME`
    (zsh: `functions NAME`) shows the stub until NAME has run once, and during that
    first run the call stack (FUNCNAME, `caller`; zsh's funcstack) holds the stub's
    frame under the function's own.
    """
    shell = language(snapshot.kind)
    definitions: list[str] = []
    files: list[str] = []
    for name, source in snapshot.functions.items():
        stub = shell.stub(name, function_path(len(files)))
        if stub is None:
            definitions.append(source)
        else:
            definitions.append(stub)
            files.append(shell.deferred(snapshot, name, source))
    return _script(snapshot, definitions), files


def _script(snapshot: Snapshot, functions: Iterable[str]) -> str:
    shell = language(snapshot.kind)
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(snapshot.captured_at))
    lines = [f"# termhost environment snapshot of {snapshot.shell}, captured {when}"]
    lines += [shell.export(name, value) for name, value in sorted(snapshot.env.items())]
    lines += shell.render(snapshot, functions)
    return "\n".join(lines) + "\n"


def exec_argv(kind: str, shell: str, script_path: str) -> list[str]:
    """argv that, with a command string appended, runs it in `shell` (of `kind`:
    Snapshot.kind) after sourcing `script_path`, exiting with its status.

    The shell is non-interactive and reads no startup files: the snapshot is the state.
    The caller chooses cwd and the environment; it should not set BASH_ENV (bash would
    source it first).
    """
    language_ = language(kind)
    return [*language_.run_argv(shell, language_.exec_body(script_path)),
            *language_.exec_tail(shell)]


def interactive_argv(kind: str, shell: str, script_path: str) -> Interactive | None:
    """An interactive `shell` (of `kind`) that starts from the snapshot at `script_path`
    rather than its startup files (a resurrected pane's): its argv, the variables and
    files it needs; None for a shell that has no way to."""
    return language(kind).interactive_argv(shell, script_path)


def read_report(kind: str, report: bytes, nonce: str) -> tuple[str, dict[str, str], Parsed]:
    """cwd, env, and the rest (aliases, functions, options) from a capture's report.

    Fields are NUL-terminated; a field `NONCE:NAME` starts section NAME. The nonce is
    fresh per capture, so no value can pass for a marker.
    """
    fields = [os.fsdecode(field) for field in report.split(b"\0")]
    if fields[:1] != [f"{nonce}:begin"] or fields[-2:] != [f"{nonce}:end", ""]:
        raise SnapshotError("the shell's report is incomplete")
    sections: dict[str, list[str]] = {}
    current = sections.setdefault("cwd", [])
    for field in fields[1:-2]:
        marker, _, name = field.partition(":")
        if marker == nonce:
            current = sections.setdefault(name, [])
        else:
            current.append(field)
    shell = language(kind)
    env = {}
    for entry in sections.get("env", []):
        name, sep, value = entry.partition("=")
        if sep and shell.keeps(name):
            env[name] = value
    cwd = sections["cwd"][0] if sections["cwd"] else ""
    return cwd, env, shell.parse(sections)
