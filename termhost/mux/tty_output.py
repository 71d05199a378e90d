"""An attached client's output written by the server straight to the client's terminal.

The client relays keys to the server and, by default, the server's output back to its
terminal: one more process to wake for every frame the user waits for. tmux avoids that
hop by having the server write to the client's tty itself; termhost does the same when
the client says its stdout is the terminal it named (the TTY and TTY_OUTPUT frames).
The server opens that terminal itself (same user, checked with SO_PEERCRED; O_NOCTTY, so
that it never becomes the server's controlling terminal) and writes without blocking:
what the terminal does not take at once waits for it, so a slow or stopped terminal never
holds the event loop. At the end, anything still waiting goes through the relay instead,
after every byte written directly, so the client prints the last of it in order.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

__all__ = ["TtyOutput", "open_tty"]


def open_tty(path: str) -> int | None:
    """A non-blocking write-only fd on the terminal at `path`, or None if it is not one
    (then the client's output goes through the relay)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    if not os.isatty(fd):
        os.close(fd)
        return None
    return fd


class TtyOutput:
    """Writes to the client's terminal; `relay` takes what is left when it closes."""

    def __init__(self, fd: int, relay: Callable[[bytes], None]) -> None:
        self._fd = fd
        self._relay = relay
        self._waiting = bytearray()
        self._closed = False

    def write(self, data: bytes) -> None:
        if self._closed:
            self._relay(data)
            return
        if self._waiting:
            self._waiting += data
            return
        try:
            written = os.write(self._fd, data)
        except BlockingIOError:
            written = 0
        except OSError:
            self._fall_back(data)  # the terminal is gone: the relay reports it
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
            self._fall_back(b"")
            return
        del self._waiting[:written]
        if not self._waiting:
            asyncio.get_running_loop().remove_writer(self._fd)

    def _fall_back(self, data: bytes) -> None:
        """From now on everything goes through the relay, what waited first."""
        if self._closed:
            return
        self._closed = True
        if self._waiting:
            asyncio.get_running_loop().remove_writer(self._fd)
        rest, self._waiting = bytes(self._waiting) + data, bytearray()
        os.close(self._fd)
        if rest:
            self._relay(rest)

    def close(self) -> None:
        """The client is leaving: what its terminal has not taken yet goes by relay."""
        self._fall_back(b"")
