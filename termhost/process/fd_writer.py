"""Writing to a non-blocking fd from the event loop without ever waiting on it.

A pane's program may not read its input for a while (a big paste into a busy program),
and a client's terminal may be slow or stopped (C-s): the server must not wait for either.
What the fd does not take at once waits here, in order, and goes out as it becomes
writable (the loop's add_writer). Both the pane's input and an attached client's
terminal output are written this way.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

__all__ = ["FdWriter"]


class FdWriter:
    """Writes to `fd` in order; `failed` gets what could not be written once the fd
    fails (its other end is gone), and nothing is written after that."""

    def __init__(self, fd: int, failed: Callable[[bytes], None]) -> None:
        self._fd = fd
        self._failed = failed
        self._waiting = bytearray()
        self._broken = False
        self.drained: Callable[[], None] | None = None
        """Called once the fd has taken everything that waited: a writer whose fd is to
        close after its last bytes (a pane pipe whose pane has ended) waits for this."""

    @property
    def waiting(self) -> int:
        """Bytes the fd has not taken yet (what an owner bounds, for an fd nobody reads)."""
        return len(self._waiting)

    def write(self, data: bytes) -> None:
        if self._broken or not data:
            return
        if self._waiting:
            self._waiting += data
            return
        try:
            written = os.write(self._fd, data)
        except BlockingIOError:
            written = 0
        except OSError:
            self._fail(data)
            return
        if written < len(data):
            self._waiting += data[written:]
            asyncio.get_running_loop().add_writer(self._fd, self._writable)

    def _writable(self) -> None:
        try:
            written = os.write(self._fd, self._waiting)
        except BlockingIOError:
            return
        except OSError:
            self._fail(b"")
            return
        del self._waiting[:written]
        if not self._waiting:
            asyncio.get_running_loop().remove_writer(self._fd)
            if self.drained is not None:
                self.drained()

    def _fail(self, data: bytes) -> None:
        self._broken = True
        self._failed(self.take_waiting() + data)

    def take_waiting(self) -> bytes:
        """Stop waiting for the fd (it is about to close): what it has not taken yet."""
        if not self._waiting:
            return b""
        asyncio.get_running_loop().remove_writer(self._fd)
        rest, self._waiting = bytes(self._waiting), bytearray()
        return rest
