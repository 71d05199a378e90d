"""Shell commands the server runs for run-shell and if-shell: `/bin/sh -c`, as tmux does.

They go through the process layer like every launch (a new session, only the fds and
signals they should have); stdout and stderr come back together, as tmux collects them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from termhost.mux.jobs import JOBS
from termhost.process import Command, ExitStatus, spawn
from termhost.process.fdwait import read_to_eof

__all__ = ["run_shell"]

_OUTPUT_LIMIT = 16 << 20
"""Bytes of a command's output kept; more is read and dropped, so the command never
blocks on a full pipe."""


async def run_shell(command: str, env: Mapping[str, str], cwd: str | None
                    ) -> tuple[ExitStatus, str]:
    """Run `command` with `/bin/sh -c` to its end: its status and its output."""
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    try:
        with open(os.devnull, "rb") as stdin:
            child = await spawn(Command("/bin/sh", ["-c", command], env=dict(env),
                                        cwd=cwd if cwd and os.path.isdir(cwd) else None,
                                        stdin=stdin.fileno(), stdout=write_end,
                                        stderr=write_end))
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    with JOBS.running(command, read_end, child.pid):
        try:
            output = await read_to_eof(read_end, _OUTPUT_LIMIT)
        finally:
            os.close(read_end)
        status = await child.wait()
    return status, output.decode("utf-8", "replace")
