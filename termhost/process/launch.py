"""The entry points the rest of termhost uses to start a process.

The helper is the normal path; the direct spawn is used exactly when the helper reports
that it could not be used (returns None), never after it reported an error.
"""

from __future__ import annotations

import os
from dataclasses import replace

from termhost.process.child import Child
from termhost.process.command import Command
from termhost.process.direct import spawn_direct
from termhost.process.helper import DEFAULT_HELPER, HelperProgram, Setup, spawn_with_helper
from termhost.process.pty_pair import open_pty

__all__ = ["spawn", "spawn_in_pty"]


async def spawn(
    command: Command, setup: Setup = Setup.PIPE, *, helper: HelperProgram = DEFAULT_HELPER
) -> Child:
    """Start `command` in a new session through the helper, or directly if it cannot run."""
    encoded = command.encode()
    child = await spawn_with_helper(encoded, setup, helper)
    return child if child is not None else spawn_direct(encoded, setup)


async def spawn_in_pty(
    command: Command, cols: int = 80, rows: int = 24, *, helper: HelperProgram = DEFAULT_HELPER
) -> tuple[Child, int]:
    """Start `command` on a new PTY of `cols` x `rows`; returns the child and the master.

    The PTY is the child's stdin, stdout, stderr and controlling terminal; our copy of the
    slave is closed, so reading the master ends (EIO) when the child and its heirs are gone.
    """
    master, slave = open_pty(cols, rows)
    try:
        child = await spawn(
            replace(command, stdin=slave, stdout=slave, stderr=slave), Setup.PTY, helper=helper
        )
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    return child, master
