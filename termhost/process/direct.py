"""The fallback launch: posix_spawn the target itself, when the helper cannot be used.

Still a new session, and in pty mode still the PTY as controlling terminal (the session
leader opens the slave by path as fd 0); like every spawn here, only the fds asked for,
every signal at its default and none blocked (native.py). What it cannot do without
running code in the child: the parent-death signal.
"""

from __future__ import annotations

import os

from termhost.process.child import Child
from termhost.process.command import Command, EncodedCommand, resolve_program
from termhost.process.helper import Setup
from termhost.process.native import spawn_native

__all__ = ["spawn_direct"]


def spawn_direct(command: Command | EncodedCommand, setup: Setup) -> Child:
    """Start `command` with posix_spawn in a new session."""
    encoded = command.encode() if isinstance(command, Command) else command
    program = resolve_program(encoded)
    tty: bytes | None = None
    if setup is Setup.PTY:
        stdin = encoded.stdio[0]
        if stdin is None or not os.isatty(stdin):
            raise ValueError("pty mode needs a terminal as stdin")
        tty = os.fsencode(os.ttyname(stdin))
    pid = spawn_native(
        program,
        encoded.argv,
        encoded.env,
        stdio=encoded.stdio,
        keep_fds=encoded.keep_fds,
        cwd=encoded.cwd,
        controlling_tty=tty,
        setsid=True,
    )
    return Child(pid, launcher="direct")
