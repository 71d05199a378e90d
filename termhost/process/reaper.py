"""Reaps children nobody waits for any more, so a dropped Child never stays a zombie.

One daemon thread for the whole process watches the pidfds of dropped, still-running
children and reaps each when it exits. It never kills: dropping a handle is not a
request to end the process (that is `Child.kill`).
"""

from __future__ import annotations

import os
import selectors
import threading

__all__ = ["adopt"]


class _Reaper:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._selector: selectors.DefaultSelector | None = None
        self._wake_w = -1

    def adopt(self, pidfd: int) -> None:
        with self._lock:
            if self._selector is None:
                self._start()
            assert self._selector is not None
            self._selector.register(pidfd, selectors.EVENT_READ)
        os.write(self._wake_w, b"\0")

    def _start(self) -> None:
        self._selector = selectors.DefaultSelector()
        wake_r, self._wake_w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        self._selector.register(wake_r, selectors.EVENT_READ)
        threading.Thread(
            target=self._run, args=(self._selector, wake_r), name="termhost-reaper", daemon=True
        ).start()

    def _run(self, selector: selectors.DefaultSelector, wake_r: int) -> None:
        while True:
            for key, _ in selector.select():
                fd = int(key.fd)
                if fd == wake_r:
                    _drain(wake_r)
                    continue
                if _reaped(fd):
                    with self._lock:
                        selector.unregister(fd)
                    os.close(fd)


def _reaped(pidfd: int) -> bool:
    try:
        return os.waitid(os.P_PIDFD, pidfd, os.WEXITED | os.WNOHANG) is not None
    except ChildProcessError:
        return True  # someone else reaped it: nothing left to do


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 4096):
            pass
    except BlockingIOError:
        pass


_REAPER = _Reaper()


def adopt(pidfd: int) -> None:
    """Take ownership of `pidfd`: reap its process when it exits, then close the fd."""
    _REAPER.adopt(pidfd)
