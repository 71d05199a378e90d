"""PTY allocation with the window size set before anything reads it."""

from __future__ import annotations

import errno
import os
import termios
from typing import NamedTuple

__all__ = ["PtyPair", "get_window_size", "open_pty", "read_master", "set_window_size"]


class PtyPair(NamedTuple):
    """Both ends of a new PTY, close-on-exec: the child gets the slave explicitly."""

    master: int
    slave: int


def open_pty(cols: int = 80, rows: int = 24) -> PtyPair:
    """Open a PTY whose window is `cols` x `rows` from the first read of the slave."""
    master, slave = os.openpty()
    try:
        set_window_size(master, cols, rows)
    except BaseException:
        os.close(master)
        os.close(slave)
        raise
    return PtyPair(master, slave)


def set_window_size(fd: int, cols: int, rows: int) -> None:
    """TIOCSWINSZ: the kernel then sends SIGWINCH to the terminal's foreground group."""
    if not (0 < cols <= 0xFFFF and 0 < rows <= 0xFFFF):
        raise ValueError(f"window size {cols}x{rows} is out of range")
    termios.tcsetwinsize(fd, (rows, cols))


def get_window_size(fd: int) -> tuple[int, int]:
    """TIOCGWINSZ, as (cols, rows)."""
    rows, cols = termios.tcgetwinsize(fd)
    return cols, rows


def read_master(master: int, size: int) -> bytes | None:
    """Read a non-blocking PTY master: None when nothing is there yet, b"" at the end.

    Linux reports the end as EIO once every holder of the slave has closed it (the
    program and everything it started are gone), not as an empty read.
    """
    try:
        return os.read(master, size)
    except BlockingIOError:
        return None
    except OSError as error:
        if error.errno != errno.EIO:
            raise
        return b""
