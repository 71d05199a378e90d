"""A pane's pipe (tmux's pipe-pane): a shell command fed the pane's output, and/or typing
into the pane what the command prints.

The pipe is a `PaneTap`: it sees the program's bytes as they are read from the PTY, from
the moment it opens, exactly as tmux copies them from its read buffer. As in tmux the
command runs as `sh -c` (/bin/sh, not default-shell) in the server's environment, on one
end of a socketpair: its stdin (-O) and/or its stdout (-I), the rest /dev/null.

The pipe ends when the socket does: tmux learns that a -O command has gone only when a
write fails, termhost at once, since reading our end gives EOF once every copy of the
command's end is closed (so a command that backgrounds a reader keeps the pipe open, as in
tmux). Writes never block the server (`FdWriter`, both ways); tmux buffers without bound
for a command that does not read (or a -I command that writes more than the pane's program
reads), termhost closes the pipe past BACKLOG_LIMIT, with a line in the server's log.
A pane killed closes its pipe at once; a pane whose program ended first lets the command
take what it was sent, as tmux keeps such a pane until its pipe drains.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys

from termhost.mux.pane import Pane
from termhost.process import Command, ExitStatus, spawn
from termhost.process.fd_writer import FdWriter

__all__ = ["BACKLOG_LIMIT", "PanePipe", "pipe_of"]

BACKLOG_LIMIT = 16 << 20
"""Bytes of the pane's output the command may fall behind by before its pipe is closed."""
_READ_SIZE = 65536


class PanePipe:
    """One open pipe of `pane` on our end of the socketpair; `to_command` (-O) sends it
    the pane's output, `from_command` (-I) types what the command prints."""

    def __init__(self, pane: Pane, end: socket.socket, *, to_command: bool,
                 from_command: bool) -> None:
        self.pane = pane
        self._end = end
        self._to_command = to_command
        self._from_command = from_command
        self._writer = FdWriter(end.fileno(), lambda _: self.close())
        self.closed = False
        asyncio.get_running_loop().add_reader(end.fileno(), self._readable)

    @classmethod
    async def open(cls, pane: Pane, command: str, *, to_command: bool,
                   from_command: bool) -> PanePipe:
        """Start `command` on a new pipe and tap `pane` with it. OSError if it cannot start."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with open(os.devnull, "r+b") as null:
                child = await spawn(Command(
                    "/bin/sh", ["-c", command], env=dict(os.environ), argv0="sh",
                    stdin=theirs.fileno() if to_command else null.fileno(),
                    stdout=theirs.fileno() if from_command else null.fileno(),
                    stderr=null.fileno()))
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        child.close()  # the pipe is the socket, not the process: the reaper has it
        ours.setblocking(False)
        pipe = cls(pane, ours, to_command=to_command, from_command=from_command)
        if pane.closed:
            pipe.close()  # the pane ended while the command started: it gets EOF
        else:
            pane.taps.append(pipe)
        return pipe

    def output(self, data: bytes) -> None:
        if not self._to_command:
            return
        self._writer.write(data)
        if self._writer.waiting > BACKLOG_LIMIT:
            self._cut_off("the command fell behind the pane's output")

    def resized(self, cols: int, rows: int) -> None:
        """A pipe carries bytes only, as tmux's."""

    def ended(self, status: ExitStatus | None) -> None:
        """Killed: closed at once. Ended on its own: closed once the command has taken
        what the pane wrote last (the tap is off the pane already)."""
        if status is None or not self._writer.waiting:
            self.close()
        else:
            self._writer.drained = self.close

    def close(self) -> None:
        """End the pipe: the command reads EOF (and, with -I, nothing more is typed)."""
        if self.closed:
            return
        self.closed = True
        if self in self.pane.taps:
            self.pane.taps.remove(self)
        asyncio.get_running_loop().remove_reader(self._end.fileno())
        self._writer.take_waiting()
        self._end.close()

    def _readable(self) -> None:
        """What the command printed, typed into the pane with -I (else dropped, as tmux
        never reads a -O pipe); EOF or an error ends the pipe."""
        try:
            data = self._end.recv(_READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.close()
        elif self._from_command:
            self.pane.write(data)
            if self.pane.input_waiting > BACKLOG_LIMIT:
                self._cut_off("the pane's program fell behind the command's output")

    def _cut_off(self, why: str) -> None:
        """Close a pipe one side of which does not keep up, rather than buffer without end;
        its user finds why in the server's log."""
        print(f"termhost server: pane {self.pane.name}: pipe closed: {why} by "
              f"{BACKLOG_LIMIT >> 20} MiB", file=sys.stderr)
        self.close()


def pipe_of(pane: Pane) -> PanePipe | None:
    """The pane's open pipe, if it has one (#{pane_pipe})."""
    return next((tap for tap in pane.taps if isinstance(tap, PanePipe)), None)
