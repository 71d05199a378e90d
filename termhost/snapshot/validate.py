"""Proof that a snapshot's script sources cleanly before anyone relies on it.

The rendering is sourced under `set -e` by a non-login shell of the same kind that read no
startup files, as the exec runner will source it: a broken function body, a read-only
variable or an option this shell lacks fails here, at capture time, with the shell's own
message, instead of in front of every later command.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from dataclasses import replace

from termhost.process import CaptureGuard, Command, ExitStatus
from termhost.process.fdwait import read_to_eof
from termhost.snapshot.errors import SnapshotError
from termhost.snapshot.model import Snapshot
from termhost.snapshot.shells import language, to_script

__all__ = ["validate"]

_STDERR_LIMIT = 64 * 1024
"""Enough of the shell's complaints to quote the first line."""


async def validate(snapshot: Snapshot, *, timeout: float = 10.0) -> None:
    """Raise SnapshotError, with the shell's first line of stderr, unless the script sources.

    The environment is the snapshot's own, less BASH_ENV and ENV, which would make the
    shell source a user file before ours.
    """
    shell = language(snapshot.kind)
    directory = tempfile.mkdtemp(prefix="termhost-validate-")
    try:
        path = os.path.join(directory, "snapshot.sh")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(os.fsencode(to_script(snapshot)))
        argv = shell.run_argv(snapshot.shell, shell.validate_body(path))
        env = {k: v for k, v in snapshot.env.items() if k not in ("BASH_ENV", "ENV")}
        try:
            async with asyncio.timeout(timeout):
                status, errors = await _run(Command(argv[0], argv[1:], env=env, cwd=directory))
        except TimeoutError:
            raise SnapshotError(
                f"timed out after {timeout:g}s validating the snapshot of {snapshot.shell}"
            ) from None
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    if status.returncode != 0:
        lines = os.fsdecode(errors).strip().splitlines()
        why = lines[0] if lines else f"it exited with {status}"
        raise SnapshotError(f"the snapshot of {snapshot.shell} does not source cleanly: {why}")


async def _run(command: Command) -> tuple[ExitStatus, bytes]:
    """Run `command` as its own group (killed if we are interrupted); status and stderr."""
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    devnull = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
    try:
        guard = CaptureGuard(replace(command, stdout=devnull, stderr=write_end))
        async with guard:
            os.close(write_end)
            write_end = -1
            errors = await read_to_eof(read_end, _STDERR_LIMIT)
            status = await guard.wait_for_exit()
        return status, errors
    finally:
        for fd in (read_end, write_end, devnull):
            if fd >= 0:
                os.close(fd)
