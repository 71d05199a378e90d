"""An attached client's keystrokes read by the server straight from the client's terminal.

Relayed keys cost one more process wakeup each (the client reads the terminal and writes
the socket, then the server reads the socket); tmux's server reads the client's terminal
itself, and termhost does the same. The handover keeps the keys in order: the server
opens the terminal and says TTY_INPUT; the client stops reading it and says TTY_INPUT
back after the last keys it relayed; only then does the server start reading. Keys typed
meanwhile wait in the terminal's input queue. The server never becomes the terminal's
controlling process (O_NOCTTY) and, not being in its session, is never stopped by job
control for reading it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from termhost.mux.tty_output import open_tty

__all__ = ["TtyInput"]

_READ_SIZE = 65536


class TtyInput:
    """Reads the terminal open on `fd` once started; `typed` gets what is read, `gone`
    is called once if the terminal hangs up."""

    def __init__(self, fd: int, typed: Callable[[bytes], None], gone: Callable[[], None]) -> None:
        self._fd = fd
        self._typed = typed
        self._gone = gone
        self._reading = False
        self._closed = False

    @classmethod
    def open(
        cls, path: str, typed: Callable[[bytes], None], gone: Callable[[], None]
    ) -> TtyInput | None:
        """The terminal at `path` ready to read, or None if the server cannot open it
        (then the client goes on relaying its keys)."""
        fd = open_tty(path, os.O_RDONLY)
        return cls(fd, typed, gone) if fd is not None else None

    def start(self) -> None:
        """The client has stopped reading: keys come from here from now on."""
        if not self._closed and not self._reading:
            self._reading = True
            asyncio.get_running_loop().add_reader(self._fd, self._readable)

    def pause(self) -> None:
        """The client has left its terminal (suspend-client, lock-client): its keys are
        the shell's or the lock's until `start` again."""
        if self._reading and not self._closed:
            self._reading = False
            asyncio.get_running_loop().remove_reader(self._fd)

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, _READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""  # EIO: the terminal hung up
        if data:
            self._typed(data)
            return
        self.close()
        self._gone()

    def close(self) -> None:
        """Stop reading (before the client takes its terminal back) and close."""
        if self._closed:
            return
        self._closed = True
        if self._reading:
            asyncio.get_running_loop().remove_reader(self._fd)
        os.close(self._fd)
