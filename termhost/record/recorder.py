"""The standalone recorder: a program on a new PTY, its output to an asciicast writer.

`termhost record` without -t runs this in the client process, on an asyncio loop that
watches everything at once: the PTY master (the program's output), the user's terminal
(keys to relay), SIGWINCH (the user's terminal changed size), signals that end the
recording (SIGHUP, SIGTERM, SIGINT) and the program's exit (its pidfd, through
`Child.wait`). Nothing is lost: every byte read from the master goes to the writer before
it is shown, and after the program exits the master is read to its end (every holder of
the slave gone) or until it stays quiet for `LINGER` seconds (a background job kept it).

With a terminal the user sees the program live and types to it, the terminal in raw mode
and restored on every way out; C-\\ is a prefix key of termhost's own, as C-b is in tmux:
C-\\ m adds a marker, C-\\ C-\\ sends one C-\\, C-\\ then any other key sends both. Without
one (CI), the program runs unattended and only the file gets its output.

A writer that fails (a full disk) ends the recording: the program's process group is
killed, since nobody is left to see it or type to it, and the RecordingError is raised.
"""

from __future__ import annotations

import asyncio
import os
import select
import signal
import termios
import tty
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from termhost.process import (
    Child,
    Command,
    ExitStatus,
    get_window_size,
    kill_process_group,
    set_window_size,
    spawn_in_pty,
)
from termhost.process.fd_writer import FdWriter
from termhost.process.groups import signal_process_group
from termhost.process.pty_pair import read_master
from termhost.record.asciicast import RecordingError, Writer

__all__ = ["LINGER", "PREFIX", "Clock", "Recorder", "UserTerminal", "exit_code"]

PREFIX = 0x1C
"""C-\\: the recorder's prefix key (C-b and C-a belong to tmux and screen, which people
record inside)."""
MARKER_KEY = ord("m")
LINGER = 0.5
"""Seconds the master may stay quiet, once the program has exited, before the recording
ends without its EOF: a background job that survived the hangup holds the slave open."""
_READ_SIZE = 65536
_TURN_BYTES = 262144
"""Output read before the loop may look at keys and signals again, during a flood."""

Clock = Callable[[], float]
"""Seconds since the recording started: the event times given to the writer."""


@dataclass(frozen=True)
class UserTerminal:
    """The terminal the user watches and types at: keys from `keys`, output to `screen`.

    `follow_size`: the recording takes the terminal's size when it changes (SIGWINCH);
    off when the user fixed the size (--cols/--rows).
    """

    keys: int
    screen: int
    follow_size: bool = True


def exit_code(status: ExitStatus) -> int:
    """The shell's convention: the exit code, or 128 + the signal that killed it."""
    return status.code if status.code is not None else 128 + (status.signal or 0)


class Recorder:
    """One recording of one program: `run` starts it and returns how it ended."""

    def __init__(
        self,
        writer: Writer,
        clock: Clock,
        *,
        terminal: UserTerminal | None = None,
        record_input: bool = False,
    ) -> None:
        self._writer = writer
        self._clock = clock
        self._terminal = terminal
        self._showing = terminal is not None
        """Output goes to the user's terminal (until writing to it fails)."""
        self._line_open = False
        """The last byte shown was neither CR nor LF: the cursor is not at a line's start."""
        self._record_input = record_input
        self._prefixed = False
        self._size = (0, 0)
        self._master = -1
        self._child: Child | None = None
        self._keys_to_program: FdWriter | None = None
        self._hangups = 0
        self.started = False
        """The program was started: an OSError from `run` comes after, not from its start."""
        loop = asyncio.get_running_loop()
        self._failed: asyncio.Future[None] = loop.create_future()
        self._eof: asyncio.Future[None] = loop.create_future()
        self._output_seen = asyncio.Event()

    async def run(self, command: Command, cols: int, rows: int) -> ExitStatus:
        """Record `command` on a new PTY of `cols` x `rows` until it exits and its output
        is all written; RecordingError if the file fails (the program is killed then)."""
        self._size = (cols, rows)
        child, self._master = await spawn_in_pty(command, cols, rows)
        self._child = child
        self.started = True
        os.set_blocking(self._master, False)
        self._keys_to_program = FdWriter(self._master, lambda _: None)
        saved = self._enter_raw_mode()
        try:
            self._watch()
            return await self._until_the_end(child)
        finally:
            self._unwatch()
            self._end_the_line()
            if self._terminal is not None and saved is not None:
                termios.tcsetattr(self._terminal.keys, termios.TCSADRAIN, saved)
            self._keys_to_program.take_waiting()
            os.close(self._master)

    async def _until_the_end(self, child: Child) -> ExitStatus:
        exited = asyncio.ensure_future(child.wait())
        try:
            either: set[asyncio.Future[Any]] = {exited, self._failed}
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if not self._failed.done():
                status = exited.result()
                await self._drain()
                if not self._failed.done():
                    self._writer.exit(exit_code(status), self._clock())
                    return status
        except RecordingError as error:
            self._fail(error)
        finally:
            exited.cancel()
        if child.returncode is None:  # not reaped, so its group is still its own
            kill_process_group(child.pid)
        await child.wait()
        failure = self._failed.exception()
        assert isinstance(failure, RecordingError)
        raise failure

    async def _drain(self) -> None:
        """After the exit: read until EOF, or until the master stays quiet for LINGER."""
        while not self._eof.done() and not self._failed.done():
            self._output_seen.clear()
            quiet = asyncio.ensure_future(self._output_seen.wait())
            events: set[asyncio.Future[Any]] = {quiet, self._eof, self._failed}
            done, _ = await asyncio.wait(events, timeout=LINGER,
                                         return_when=asyncio.FIRST_COMPLETED)
            quiet.cancel()
            if not done:
                return

    def _enter_raw_mode(self) -> list[Any] | None:
        """Raw mode on the user's terminal, so that every key goes to the program."""
        if self._terminal is None:
            return None
        saved = termios.tcgetattr(self._terminal.keys)
        tty.setraw(self._terminal.keys, termios.TCSAFLUSH)
        return saved

    def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(self._master, self._readable)
        for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self._hang_up)
        if self._terminal is not None:
            loop.add_reader(self._terminal.keys, self._typed)
            if self._terminal.follow_size:
                loop.add_signal_handler(signal.SIGWINCH, self._resized)
                self._resized()  # a change between the size's reading and now

    def _unwatch(self) -> None:
        loop = asyncio.get_running_loop()
        loop.remove_reader(self._master)
        for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT, signal.SIGWINCH):
            loop.remove_signal_handler(signum)
        if self._terminal is not None:
            loop.remove_reader(self._terminal.keys)

    def _fail(self, error: RecordingError) -> None:
        if not self._failed.done():
            self._failed.set_exception(error)
            self._failed.exception()  # retrieved here: `_until_the_end` raises it

    def _readable(self) -> None:
        """The program wrote: to the file first, then to the user's screen."""
        taken = 0
        while taken < _TURN_BYTES:
            data = read_master(self._master, _READ_SIZE)
            if data is None:
                return
            if not data:
                asyncio.get_running_loop().remove_reader(self._master)
                if not self._eof.done():
                    self._eof.set_result(None)
                return
            taken += len(data)
            self._output_seen.set()
            try:
                self._writer.output(data, self._clock())
            except RecordingError as error:
                asyncio.get_running_loop().remove_reader(self._master)
                self._fail(error)
                return
            self._show(data)

    def _show(self, data: bytes) -> None:
        """Write to the user's terminal, all of it (a stopped terminal holds us up, as it
        would hold up the program); a terminal that is gone stops being written to."""
        if self._terminal is None or not self._showing:
            return
        self._line_open = data[-1:] not in (b"\r", b"\n")
        view = memoryview(data)
        try:
            while view:
                try:
                    view = view[os.write(self._terminal.screen, view):]
                except BlockingIOError:  # someone made it non-blocking
                    select.select([], [self._terminal.screen], [])
        except OSError:
            self._showing = False

    def _end_the_line(self) -> None:
        """A line the program left unfinished is ended, so that what termhost says next
        (`recorded FILE`, or why the recording failed) starts a line of its own instead of
        trailing the program's last word (zsh's PROMPT_SP does as much for its prompt).
        The program's bytes are all shown by now; a failed write shows no more of them."""
        if self._line_open:
            self._show(b"\r\n")

    def _typed(self) -> None:
        """Keys from the user: to the program, except what the prefix key takes."""
        assert self._terminal is not None
        try:
            data = os.read(self._terminal.keys, 4096)
        except OSError:
            data = b""
        if not data:  # the terminal is gone; the program goes on, unattended
            asyncio.get_running_loop().remove_reader(self._terminal.keys)
            return
        keys = bytearray()
        try:
            for byte in data:
                if self._prefixed:
                    self._prefixed = False
                    if byte == MARKER_KEY:
                        self._send(bytes(keys))
                        keys.clear()
                        self._writer.marker("", self._clock())
                    else:
                        keys += bytes([byte]) if byte == PREFIX else bytes([PREFIX, byte])
                elif byte == PREFIX:
                    self._prefixed = True
                else:
                    keys.append(byte)
            self._send(bytes(keys))
        except RecordingError as error:
            self._fail(error)

    def _send(self, keys: bytes) -> None:
        if not keys:
            return
        assert self._keys_to_program is not None
        if self._record_input:
            self._writer.input(keys, self._clock())
        self._keys_to_program.write(keys)

    def _resized(self) -> None:
        """The user's terminal changed size: so does the program's, and the recording's."""
        assert self._terminal is not None
        try:
            size = get_window_size(self._terminal.screen)
            if size == self._size or 0 in size:
                return
            set_window_size(self._master, *size)
        except OSError:
            return  # the terminal is gone, or the PTY: nothing to follow
        self._size = size
        try:
            self._writer.resize(*size, self._clock())
        except RecordingError as error:
            self._fail(error)

    def _hang_up(self) -> None:
        """The recorder is asked to stop: hang up the program, as closing its terminal
        would, and keep recording what it writes as it goes; a second time, kill it."""
        assert self._child is not None
        self._hangups += 1
        if self._child.returncode is not None:
            return
        signum = signal.SIGHUP if self._hangups == 1 else signal.SIGKILL
        try:
            signal_process_group(self._child.pid, signum)
        except PermissionError:
            self._child.send_signal(signum)
