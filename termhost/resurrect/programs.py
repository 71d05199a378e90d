"""A resurrected pane's program: never run again blindly (zellij's rule). The pane runs a
small `sh -c` wrapper that says `Press Enter to run: COMMAND` and runs it on Enter (or at
once), under a shell that comes back after it if it ran under one.

The wrapper's argv carries the program's own words, so `unwrap` reads them back: a pane
still waiting for Enter, or running its program, is recorded with that program again, not
with the wrapper, and a second crash brings back the same pane.
"""

from __future__ import annotations

from termhost.front import shell_join

__all__ = ["shown_first", "unshown", "unwrap", "wrap"]

_ASK = 'printf "Press Enter to run: %s\\n" "$0"; read -r _ || exit; '
"""Before the program: wait for Enter ($0 is how the program is shown)."""
_UNDER_SHELL = '"$@"; exec "${SHELL:-/bin/sh}"'
_COMMAND_LINE = 'eval "$1"'
_ARGV = 'exec "$@"'
_RUNNERS = (_UNDER_SHELL, _COMMAND_LINE, _ARGV)


_SHOW = 'cat "$0"; exec "$@"'
"""Before a resurrected pane's program or shell: what the pane showed ($0, a file)."""


def shown_first(screen: str, argv: list[str]) -> list[str]:
    """`argv`, after the file `screen` (what the pane showed before) is written out."""
    return ["/bin/sh", "-c", _SHOW, screen, *argv]


def unshown(argv: list[str]) -> list[str]:
    """`argv` without `shown_first`'s part, if it has it."""
    return argv[4:] if argv[:3] == ["/bin/sh", "-c", _SHOW] else argv


def wrap(command: list[str], in_shell: bool, *, run_now: bool = False) -> list[str]:
    """The pane's argv for `command`: under a shell that comes back after it
    (`in_shell`), else as a pane's own command was given (one word: a command line)."""
    if in_shell:
        runner, shown = _UNDER_SHELL, shell_join(command)
    elif len(command) == 1:
        runner, shown = _COMMAND_LINE, command[0]
    else:
        runner, shown = _ARGV, shell_join(command)
    return ["/bin/sh", "-c", runner if run_now else _ASK + runner, shown, *command]


def unwrap(argv: list[str]) -> tuple[list[str], bool] | None:
    """What `wrap` was given (command, in_shell), if `argv` is its; else None."""
    if len(argv) < 5 or argv[:2] != ["/bin/sh", "-c"]:
        return None
    runner = argv[2].removeprefix(_ASK)
    if runner not in _RUNNERS:
        return None
    return argv[4:], runner == _UNDER_SHELL
