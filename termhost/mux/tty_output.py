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

import os
from collections.abc import Callable

from termhost.process.fd_writer import FdWriter

__all__ = ["TtyOutput", "open_tty"]


def open_tty(path: str, access: int = os.O_WRONLY) -> int | None:
    """A non-blocking fd (`access`: write-only, or O_RDONLY for tty_input.py) on the
    terminal at `path`, never becoming the server's controlling terminal; None if it is
    not one (then the client relays)."""
    try:
        fd = os.open(path, access | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC)
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
        self._writer = FdWriter(fd, self._fall_back)
        self._closed = False

    def write(self, data: bytes) -> None:
        if self._closed:
            self._relay(data)
        else:
            self._writer.write(data)

    def hand_over(self) -> None:
        """What the terminal has not taken yet goes by relay, so that it comes before
        the frame sent next (SUSPEND: the client must not stop with the screen half
        written); written here again afterwards."""
        if not self._closed:
            rest = self._writer.take_waiting()
            if rest:
                self._relay(rest)

    def _fall_back(self, rest: bytes) -> None:
        """From now on everything goes through the relay, what waited first (the
        terminal is gone, and the relay reports it; or the client is leaving)."""
        if self._closed:
            return
        self._closed = True
        os.close(self._fd)
        if rest:
            self._relay(rest)

    def close(self) -> None:
        """The client is leaving: what its terminal has not taken yet goes by relay."""
        self._fall_back(self._writer.take_waiting())
