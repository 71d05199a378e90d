"""A started process, watched through a pidfd on the event loop.

No SIGCHLD handler (Python runs those in the main thread only) and no thread per child:
the pidfd becomes readable when the process exits, so the event loop waits for it like
any other fd. While the process is unreaped its pid cannot be reused, so the pidfd and
the pid both name this process until `wait()` reaps it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from typing import Literal

from termhost.process import reaper
from termhost.process.fdwait import readable_future, stop_watching
from termhost.process.status import ExitStatus

__all__ = ["Child", "Launcher", "kill_starting"]

Launcher = Literal["helper", "direct", "guard"]


class Child:
    """Handle on one child process: its pid, an awaitable exit, signals.

    Dropping the handle (or `close()`) without waiting hands the process to the
    background reaper: it keeps running, and is reaped when it ends.
    """

    def __init__(self, pid: int, *, launcher: Launcher) -> None:
        """Take ownership of `pid`, a child of ours that nothing else reaps.

        If it cannot be watched (no fd for the pidfd), it cannot be owned either: it is
        killed, with the group it may have made, and reaped before the OSError is raised.
        """
        self.pid = pid
        self.launcher: Launcher = launcher
        self.status: ExitStatus | None = None
        self._exited: asyncio.Future[None] | None = None
        try:
            self._pidfd: int | None = os.pidfd_open(pid)
        except OSError:
            self._pidfd = None
            kill_starting(pid)
            os.waitpid(pid, 0)
            raise

    def __repr__(self) -> str:
        state = str(self.status) if self.status else "running"
        return f"<Child pid={self.pid} via {self.launcher}: {state}>"

    @property
    def returncode(self) -> int | None:
        """subprocess's convention: None while running, minus the signal when killed."""
        return None if self.status is None else self.status.returncode

    def poll(self) -> ExitStatus | None:
        """Reap the child if it has exited; None if it is still running."""
        return self._waitid(reap=True)

    def peek(self) -> ExitStatus | None:
        """The exit status if the child has exited, leaving it unreaped (WNOWAIT).

        Raises ChildProcessError (ECHILD) if something else reaped it.
        """
        return self._waitid(reap=False)

    async def exited(self) -> None:
        """Wait until the process has exited, without reaping it."""
        if self._pidfd is None:
            return
        loop = asyncio.get_running_loop()
        if self._exited is None or self._exited.get_loop() is not loop:
            self._exited = readable_future(loop, self._pidfd)
        await asyncio.shield(self._exited)

    async def wait(self) -> ExitStatus:
        """Wait for the process to exit and reap it."""
        while True:
            status = self.poll()
            if status is not None:
                return status
            await self.exited()

    def send_signal(self, signum: int) -> None:
        """Signal this process (through the pidfd, so never a reused pid)."""
        if self._pidfd is None:
            return
        try:
            signal.pidfd_send_signal(self._pidfd, signum)
        except ProcessLookupError:
            pass  # exited, not yet reaped: the signal has nothing to reach

    def kill(self) -> None:
        """SIGKILL the process."""
        self.send_signal(signal.SIGKILL)

    def close(self) -> None:
        """Let go of the process: reap it now if it has ended, else in the background."""
        pidfd, self._pidfd = self._pidfd, None
        if pidfd is None:
            return
        self._stop_watching(pidfd)
        try:
            if os.waitid(os.P_PIDFD, pidfd, os.WEXITED | os.WNOHANG) is None:
                reaper.adopt(pidfd)
                return
        except ChildProcessError:
            pass  # already reaped by someone else
        os.close(pidfd)

    def forget(self) -> None:
        """Drop the pidfd after someone else reaped the process (ECHILD)."""
        pidfd, self._pidfd = self._pidfd, None
        if pidfd is not None:
            self._stop_watching(pidfd)
            os.close(pidfd)

    def _stop_watching(self, pidfd: int) -> None:
        """Take the pidfd off the event loop before the fd number can be reused."""
        if self._exited is not None:
            stop_watching(pidfd, self._exited)
            self._exited = None

    def __del__(self) -> None:
        if getattr(self, "_pidfd", None) is not None and not sys.is_finalizing():
            self.close()

    def _waitid(self, *, reap: bool) -> ExitStatus | None:
        if self.status is not None or self._pidfd is None:
            return self.status
        flags = os.WEXITED | os.WNOHANG | (0 if reap else os.WNOWAIT)
        result = os.waitid(os.P_PIDFD, self._pidfd, flags)  # EINTR is retried by Python
        if result is None:
            return None
        status = ExitStatus.from_waitid(result)
        if reap:
            self.status = status
            self.forget()
        return status


def kill_starting(pid: int) -> None:
    """SIGKILL a launch in progress on both sides of setsid: its group, then the pid.

    Only for a pid of ours that is unreaped, so neither it nor a group named after it
    can have been reused.
    """
    for target in (-pid, pid):
        try:
            os.kill(target, signal.SIGKILL)
        except ProcessLookupError:
            pass
