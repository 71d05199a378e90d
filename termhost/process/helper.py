"""The parent side of the spawn helper: start it, hand it the environment, read its report.

See `_helper.py` for the program itself. The outcome of a launch is one of three:
a running Child (prefix, then EOF), an OSError the helper reported (prefix + errno: the
target cannot run, and a direct spawn would fail the same way), or None: the helper could
not be used at all (no socket, no interpreter, died before reporting) and the target never
ran, so the caller may safely fall back to a direct spawn.
"""

from __future__ import annotations

import asyncio
import enum
import errno
import fcntl
import os
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path

from termhost.process import _helper
from termhost.process.child import Child, kill_starting
from termhost.process.command import Command, EncodedCommand
from termhost.process.native import spawn_native

__all__ = ["DEFAULT_HELPER", "HelperProgram", "Setup", "spawn_with_helper"]

_REPORT_LIMIT = 6  # prefix + errno is 5 bytes; a sixth byte proves the report invalid


class Setup(enum.Enum):
    """What the helper does in the child before exec, besides what every launch gets
    (only the fds asked for, every signal at its default, none blocked)."""

    PIPE = "pipe"
    """New session, no controlling terminal, SIGTERM when the parent dies."""
    PTY = "pty"
    """New session with fd 0 as controlling terminal, parent-death kill."""


@dataclass(frozen=True)
class HelperProgram:
    """Which interpreter runs which helper file (tests swap in broken or paused ones).

    `sys.executable`, not /proc/self/exe: inside a venv the latter resolves to the base
    interpreter, which would still work here but names a different program than the
    one the user runs.
    """

    interpreter: str = sys.executable
    script: str = field(default_factory=lambda: str(Path(_helper.__file__).resolve()))

    def argv(self) -> list[bytes]:
        """The helper's command line up to and including the marker."""
        return [os.fsencode(a) for a in (self.interpreter, "-I", "-S", self.script, _helper.MARKER)]


DEFAULT_HELPER = HelperProgram()


async def spawn_with_helper(
    command: Command | EncodedCommand, setup: Setup, helper: HelperProgram = DEFAULT_HELPER
) -> Child | None:
    """Launch `command` through the helper; None means "fall back to a direct spawn".

    Must run on the event loop's thread: the parent-death signal fires when the *thread*
    that spawned the helper exits, and the loop thread lives as long as the server.
    """
    encoded = command.encode() if isinstance(command, Command) else command
    try:
        control, helper_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError:
        return None  # helper-only resources (EMFILE...): the target may still spawn directly
    try:
        child = _start_helper(encoded, setup, helper, control, helper_end)
    finally:
        helper_end.close()
    if child is None:
        control.close()
        return None
    with control:
        try:
            report = await _exchange(control, encoded)
        except BaseException:
            _abandon(child)
            raise
    return _conclude(child, report, encoded)


def _start_helper(
    command: EncodedCommand,
    setup: Setup,
    helper: HelperProgram,
    control: socket.socket,
    helper_end: socket.socket,
) -> Child | None:
    """posix_spawn the helper with its end of the socket above fd 2; None if refused."""
    try:
        control.setblocking(False)
        helper_fd = helper_end.fileno()
        if helper_fd <= 2:  # our own stdio was closed, so the socket took its number
            helper_fd = fcntl.fcntl(helper_fd, fcntl.F_DUPFD_CLOEXEC, 3)
        try:
            argv = [
                *helper.argv(),
                str(helper_fd).encode(),
                str(os.getpid()).encode(),
                setup.value.encode(),
                ",".join(map(str, command.keep_fds)).encode(),
                command.cwd if command.cwd is not None else b".",
                command.program,
                *command.argv,
            ]
            pid = spawn_native(
                argv[0],
                argv,
                {},
                stdio=command.stdio,
                keep_fds=(*command.keep_fds, helper_fd),
            )
        finally:
            if helper_fd != helper_end.fileno():
                os.close(helper_fd)
    except OSError:
        return None  # the interpreter could not be started: nothing ran
    try:
        return Child(pid, launcher="helper")
    except OSError:
        return None  # no fd left for its pidfd: killed and reaped, so fall back


async def _exchange(control: socket.socket, command: EncodedCommand) -> bytes:
    """Send the environment, then read the report to EOF (at most _REPORT_LIMIT bytes).

    A failed write is not final by itself: a helper that refused the environment has
    closed its end after reporting why, and that errno is the better error.
    """
    loop = asyncio.get_running_loop()
    block = command.env_block
    send_error: OSError | None = None
    try:
        await loop.sock_sendall(control, len(block).to_bytes(4, "little") + block)
    except OSError as error:
        send_error = error
    report = b""
    try:
        while len(report) < _REPORT_LIMIT:
            chunk = await loop.sock_recv(control, _REPORT_LIMIT - len(report))
            if not chunk:
                break
            report += chunk
    except ConnectionResetError:
        pass  # the helper died with our data unread: treated as the report it wrote
    if report == _helper.REPORT_PREFIX and send_error is not None:
        raise send_error
    return report


def _conclude(child: Child, report: bytes, command: EncodedCommand) -> Child | None:
    if report == _helper.REPORT_PREFIX:
        return child
    _abandon(child)
    if not report:
        return None  # died before reporting: the target never ran
    if len(report) != 5 or report[:1] != _helper.REPORT_PREFIX:
        raise OSError(errno.EIO, "invalid spawn helper report")
    code = int.from_bytes(report[1:], "little", signed=True)
    raise OSError(code, os.strerror(code), _failed_path(code, command))


def _failed_path(code: int, command: EncodedCommand) -> str:
    """Name the cwd when it is the missing or forbidden path, else the program."""
    cwd = command.cwd
    if cwd is None or code not in (errno.ENOENT, errno.ENOTDIR, errno.EACCES):
        return command.program_name
    usable = os.path.isdir(cwd) and os.access(cwd, os.X_OK)
    return command.program_name if usable else os.fsdecode(cwd)


def _abandon(child: Child) -> None:
    """Kill a launch that will not be handed out, on both sides of setsid, and reap it."""
    kill_starting(child.pid)
    child.close()
