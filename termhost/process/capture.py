"""The capture guard: owns a capture's process group until its output is validated.

A capture (a shell sourcing the user's startup files to report its state) can leave
helpers behind in its group: some on purpose (ssh-agent), some by accident (a hung
`read`). While the guard is armed, leaving the `async with` block (an error, a timeout,
cancellation) ends the whole group; `preserve_helpers()`, once the output proved good,
lets them live.

Ending it is a request before it is a kill, unlike the seed's immediate SIGKILL: the
group gets SIGHUP, then SIGTERM (each with SIGCONT, so that a stopped member wakes to
take it), `grace` seconds in all to go, and only then SIGKILL. Startup files take locks
and remove them in traps: pyenv's rehash creates a lock file with noclobber and deletes
it on exit. A capture killed outright leaves the lock behind, and every shell on the
machine then waits for it. Nothing of the capture outlives the guard either way.

The leader is never reaped while the guard is armed: its exit is observed with
`waitid(WNOWAIT)`, so its pid, and with it the group id, cannot be reused, and the final
killpg can only reach the capture's own stragglers. Nothing else may reap it: it is not
started through asyncio (whose child watchers reap eagerly) nor subprocess.
"""

from __future__ import annotations

import asyncio
import errno
import os
import signal
from types import TracebackType

from termhost.process.child import Child
from termhost.process.command import Command, resolve_program
from termhost.process.fdwait import wait_readable
from termhost.process.groups import group_members, kill_process_group, signal_process_group
from termhost.process.native import spawn_native
from termhost.process.status import ExitStatus

__all__ = ["GRACE", "CaptureGuard", "OutputTooLarge"]

GRACE = 1.0
"""Seconds a capture being ended has to clean up (its traps run) before SIGKILL."""


class OutputTooLarge(OSError):
    """The capture wrote more than the caller's limit."""


class CaptureGuard:
    """`async with CaptureGuard(command) as capture:` then read, wait, validate, preserve.

    The capture runs in a new session (so its own process group, and no controlling
    terminal to stop on), stdin /dev/null unless the command names one, stdout piped to
    `capture.stdout` unless the command names one.
    """

    def __init__(self, command: Command, *, grace: float = GRACE) -> None:
        self.command = command
        self.grace = grace
        self.child: Child | None = None
        self.stdout: int | None = None
        self._armed = False

    @property
    def pid(self) -> int:
        """The capture leader's pid, which is also its process group id."""
        return self._started().pid

    async def __aenter__(self) -> CaptureGuard:
        self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def start(self) -> None:
        """Spawn the capture as the leader of a new session and process group."""
        encoded = self.command.encode()
        stdin, stdout, stderr = encoded.stdio
        opened: list[int] = []
        read_end: int | None = None
        try:
            if stdin is None:
                stdin = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
                opened.append(stdin)
            if stdout is None:
                read_end, stdout = os.pipe2(os.O_CLOEXEC)
                opened.append(stdout)
            pid = spawn_native(
                resolve_program(encoded),
                encoded.argv,
                encoded.env,
                stdio=(stdin, stdout, stderr),
                keep_fds=encoded.keep_fds,
                cwd=encoded.cwd,
                setsid=True,
            )
        except BaseException:
            if read_end is not None:
                os.close(read_end)
            raise
        finally:
            for fd in opened:
                os.close(fd)
        try:
            self.child = Child(pid, launcher="guard")
        except OSError:
            if read_end is not None:
                os.close(read_end)
            raise
        self._armed = True
        if read_end is not None:
            os.set_blocking(read_end, False)
            self.stdout = read_end

    async def read_stdout(self, limit: int) -> bytes:
        """Read the piped stdout to EOF; OutputTooLarge past `limit` bytes.

        EOF needs every holder of the pipe gone: a background helper that kept the
        capture's stdout keeps this waiting, which is why real captures report over a
        private channel and read it with a timeout.
        """
        if self.stdout is None:
            raise RuntimeError("the capture's stdout is not piped to the guard")
        data = bytearray()
        while True:
            try:
                chunk = os.read(self.stdout, 65536)
            except BlockingIOError:
                await wait_readable(self.stdout)
                continue
            if not chunk:
                return bytes(data)
            data += chunk
            if len(data) > limit:
                raise OutputTooLarge(errno.EFBIG, f"capture output is over {limit} bytes")

    async def wait_for_exit(self) -> ExitStatus:
        """The leader's exit status, leaving it unreaped (a zombie) while armed.

        ECHILD means something else reaped it: its id may already be reused, so the
        guard disarms (it will signal nothing) and the error is raised.
        """
        child = self._started()
        while True:
            try:
                status = child.peek()
            except ChildProcessError:
                self._armed = False
                child.forget()
                raise
            if status is not None:
                return status
            await child.exited()

    def preserve_helpers(self) -> None:
        """The output is good: let what the capture started on purpose live on."""
        self._armed = False

    async def close(self) -> None:
        """End the group if still armed (asked, then killed), then reap the leader (now,
        or in the background if cancelled while waiting for it)."""
        if self.stdout is not None:
            os.close(self.stdout)
            self.stdout = None
        child = self.child
        if child is None:
            return
        try:
            if self._armed:
                self._armed = False
                try:
                    await self._ask_to_end(child)
                finally:  # cancelled while asking too: what is left goes at once
                    kill_process_group(child.pid)
                await child.wait()
        finally:
            child.close()

    async def _ask_to_end(self, child: Child) -> None:
        """Ask the group to end, and wait up to `grace` seconds for every member (the
        unreaped leader aside) to be gone.

        SIGHUP first, as when a terminal goes away (what shells and their traps expect),
        then SIGTERM to whatever is left half-way through, each with a SIGCONT so that
        stopped members wake to take it. Not both at once: bash, given a second fatal
        signal while its EXIT trap runs for the first, dies without finishing the trap.
        """
        for signum in (signal.SIGHUP, signal.SIGTERM):
            signal_process_group(child.pid, signum)
            signal_process_group(child.pid, signal.SIGCONT)
            if await self._group_ended(child, self.grace / 2):
                return

    @staticmethod
    async def _group_ended(child: Child, seconds: float) -> bool:
        """Whether every member of the group but the leader's zombie is gone within
        `seconds`."""
        try:
            async with asyncio.timeout(seconds):
                await child.exited()
                delay = 0.002
                while group_members(child.pid):
                    await asyncio.sleep(delay)  # no event says a group emptied: poll /proc
                    delay = min(delay * 2, 0.05)
        except TimeoutError:
            return False
        return True

    def _started(self) -> Child:
        if self.child is None:
            raise RuntimeError("the capture has not been started")
        return self.child
