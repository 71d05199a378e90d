"""Capturing what a shell's startup files build, once, inside the capture guard.

The shell runs as an interactive login shell (`-l -i -c`): interactive because rc files
guard their aliases behind it (Debian's `.bashrc` returns early otherwise; fish configs
test `status is-interactive`), login so that the profile's PATH is there too. It has no
controlling terminal (its own session), stdin /dev/null, and stdout and stderr on
/dev/null: bash -i without a tty warns about job control, and rc files print banners.

The report travels over a FIFO in a private (0700) temporary directory, the one channel
only our script writes to. It is read until the end marker, not EOF: an rc file that
started `sleep 100 &` or ssh-agent may hold every fd the shell had, and its helpers must
outlive a good capture. We hold a writer of our own on the FIFO so that reading never
sees EOF before the shell opened it; when the shell exits without the end marker, what it
wrote is already in the FIFO, and the capture fails at once instead of at the timeout.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Mapping
from typing import Any

from termhost.process import GRACE, CaptureGuard, Command, ExitStatus
from termhost.process.fdwait import wait_readable
from termhost.snapshot.errors import SnapshotError
from termhost.snapshot.model import Snapshot
from termhost.snapshot.shells import GUARD_VARIABLE, kind_of, language, read_report
from termhost.snapshot.validate import validate

__all__ = ["capture"]


async def capture(
    shell: str,
    *,
    cwd: str | None = None,
    env: Mapping[str, str],
    timeout: float = 10.0,
    grace: float = GRACE,
    max_output: int = 4 << 20,
) -> Snapshot:
    """Run `shell`'s startup files once and snapshot the state they leave.

    `env` is the shell's whole environment (plus TERMHOST_SNAPSHOT=1, which rc files can
    test to skip prompts and `exec tmux`). The whole capture, validation included, is
    bounded by `timeout`; on any failure the capture's process group is ended (asked to,
    then after `grace` seconds killed), on success what the rc files started in the
    background lives on.
    """
    kind = kind_of(shell)
    started, captured_at = time.monotonic(), time.time()
    nonce = secrets.token_hex(16)
    directory = tempfile.mkdtemp(prefix="termhost-snapshot-")
    fds: list[int] = []
    try:
        channel = os.path.join(directory, "report")
        os.mkfifo(channel, 0o600)
        fds.append(os.open(channel, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC))
        fds.append(os.open(channel, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC))
        fds.append(os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC))
        shell_language = language(kind)
        script = shell_language.capture_script(
            channel, nonce, shell_language.quote(_env_program(env))
        )
        argv = shell_language.capture_argv(shell, script)
        command = Command(
            argv[0],
            argv[1:],
            env={**env, GUARD_VARIABLE: "1"},
            cwd=cwd,
            stdout=fds[2],
            stderr=fds[2],
        )
        # The timeout is the capture's; ending it (the guard's grace) comes after.
        async with CaptureGuard(command, grace=grace) as guard:
            async with asyncio.timeout(timeout):
                report = await _read_report(fds[0], guard, nonce, max_output, shell)
                found_cwd, found_env, parsed = read_report(kind, report, nonce)
                snapshot = Snapshot(
                    shell=shell,
                    kind=kind,
                    cwd=found_cwd or cwd or os.getcwd(),
                    env=found_env,
                    aliases=parsed.aliases,
                    functions=parsed.functions,
                    options=parsed.options,
                    captured_at=captured_at,
                    duration_ms=round((time.monotonic() - started) * 1000),
                    options_off=parsed.options_off,
                )
                await validate(snapshot, timeout=timeout)
            guard.preserve_helpers()
        return snapshot
    except TimeoutError:
        raise SnapshotError(
            f"timed out after {timeout:g}s capturing the environment of {shell}: a startup "
            f"file may wait for input or run something in the foreground (rc files can "
            f"skip it when {GUARD_VARIABLE}=1)"
        ) from None
    except OSError as error:
        if isinstance(error, FileNotFoundError) and error.filename == shell:
            raise SnapshotError(
                f"cannot capture the environment of {shell}: no such shell"
            ) from None
        raise SnapshotError(
            f"cannot capture the environment of {shell}: {error.strerror or error}"
        ) from None
    finally:
        for fd in fds:
            os.close(fd)
        shutil.rmtree(directory, ignore_errors=True)


async def _read_report(fd: int, guard: CaptureGuard, nonce: str, limit: int, shell: str) -> bytes:
    """The report, up to and including its end marker; fails if the shell exits first."""
    end = f"{nonce}:end\0".encode()
    exited: asyncio.Future[ExitStatus] = asyncio.ensure_future(guard.wait_for_exit())
    data = bytearray()
    try:
        while not data.endswith(end):
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                # Everything the shell wrote before exiting is in the FIFO by now.
                if exited.done():
                    raise SnapshotError(
                        f"{shell} {exited.result()} before reporting its environment: "
                        "does a startup file exit or exec another program?"
                    ) from None
                readable = asyncio.ensure_future(wait_readable(fd))
                try:
                    waiting: set[asyncio.Future[Any]] = {readable, exited}
                    await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    readable.cancel()
                    await asyncio.gather(readable, return_exceptions=True)
                continue
            data += chunk
            if len(data) > limit:
                raise SnapshotError(
                    f"the environment of {shell} is over {limit} bytes: too large to snapshot"
                )
        return bytes(data)
    finally:
        exited.cancel()
        await asyncio.gather(exited, return_exceptions=True)


def _env_program(env: Mapping[str, str]) -> str:
    """`env`, found now: an rc file may leave the shell a PATH without it."""
    search = os.pathsep.join(p for p in (env.get("PATH"), os.defpath) if p)
    return shutil.which("env", path=search) or "/usr/bin/env"
