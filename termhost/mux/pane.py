"""A pane: a process on a PTY, and the terminal that emulates what it writes.

The server's event loop reads the PTY master (non-blocking, up to _TURN_BYTES a turn),
feeds the terminal, and has it catch up once the master is drained, so device-query
answers go back promptly and a flood is emulated in large batches. Input the program does
not take yet waits here, never in the event loop. The process is watched through its
pidfd: once it has ended and the PTY is drained the owner is told (`on_close`), and the
pane goes, or stays marked dead (remain-on-exit, the server's choice).

Taps (`PaneTap`: what `termhost record -t` adds, and pipe-pane's pipes) see the program's
bytes as they are read, before the emulator, and the pane's resizes and end.

An empty pane (`Pane.empty`: split-window -I) has no process and no PTY, as tmux's
PANE_EMPTY: what it shows is given to `feed` (display -I), and it stays until killed.
Its process side is absent rather than faked, so that what a process would answer
(#{pane_pid}, #{pane_tty}, the foreground command) is answered here, in one place.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import struct
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from pyte import modes as mo

from termhost.mux.clock_mode import ClockMode
from termhost.mux.copy_mode import CopyMode
from termhost.process import Child, Command, ExitStatus, spawn_in_pty
from termhost.process.fd_writer import FdWriter
from termhost.process.pty_pair import read_master, set_window_size
from termhost.record.asciicast import RecordingError
from termhost.terminal import Terminal

__all__ = ["Pane", "PaneTap"]

_READ_SIZE = 65536
_ACTIVE_POINT = 0
FLOOD_PAUSE = 0.002
"""Seconds a pane that filled a whole turn waits before the next while someone types."""
_SHORT_READ = 1024
"""A read of fewer bytes than this ends a turn (a flood gives about 4 KiB a read)."""
_TYPING_TURN_BYTES = 4096
"""A turn while someone types in the session: a key that arrives during a turn waits for
its end (a turn of `yes` output takes 1.7 ms a 16 KiB, bench/echo_under_flood.py)."""
_TURN_BYTES = 16384
"""Bytes read before yielding to the loop, so that one flooding pane cannot starve the
others: each hop of a keystroke's echo in another pane waits for one turn at most.
bench/echo_under_flood.py measured 64 KiB turns: the echo took 2-3 times longer under a
`yes` flood and the flood was no faster (a PTY gives about 4 KiB a read)."""


class PaneTap(Protocol):
    """Sees what a pane's program writes, exactly as read from the PTY, and the pane's
    resizes and end: a recording of the pane from now on. A tap whose recording fails
    (RecordingError) is taken off the pane, so that one full disk cannot stop the pane."""

    def output(self, data: bytes) -> None: ...

    def resized(self, cols: int, rows: int) -> None: ...

    def ended(self, status: ExitStatus | None) -> None:
        """The pane is gone: its process ended with `status`, or it was killed first
        (None). The tap is taken off after this."""


_TIOCGPTN = 0x80045430
"""Linux's ioctl for a PTY master's number (termios does not export it)."""


class Pane:
    """One pane; `on_close` is called when its process has ended and the PTY is drained,
    or at once when the pane is killed; again if a pane kept dead (remain-on-exit) is
    killed, since that is when it goes."""

    def __init__(
        self, pane_id: int, child: Child | None, master: int, terminal: Terminal,
        argv: Sequence[str],
    ) -> None:
        self.id = pane_id
        self.child = child
        """The pane's process; None in an empty pane, which never had one."""
        self.master = master
        """The PTY master; -1 in an empty pane (tmux's wp->fd)."""
        self.terminal = terminal
        terminal.screen.reply = self.write
        self.argv = list(argv)
        self.closed = child is None
        """The PTY is closed (an empty pane has none): the pane takes no input, and
        no program's output reaches it any more."""
        self.killed = False
        """Ended by kill-pane (and friends), not by its process: it never stays dead."""
        self.exit_status: ExitStatus | None = None
        self.input_off = False
        """select-pane -d: keys (a client's, send-keys') do not reach the program."""
        self.died_at: float | None = None
        """When the process ended (time.time(), #{pane_dead_time})."""
        self._announced = False
        self.on_close: Callable[[Pane], None] | None = None
        self.on_output: Callable[[Pane], None] | None = None
        self.yield_to_typing: Callable[[], bool] = lambda: False
        """Whether someone is typing in the session now: then a flooding pane pauses
        between shorter turns (FLOOD_PAUSE), so that the echo does not queue behind it."""
        self._watcher: asyncio.Task[None] | None = None
        self._input = FdWriter(master, lambda _: None)  # a gone PTY: nobody reads it
        self.active_point = 0
        self.output_bytes = 0
        """Bytes the program wrote so far (a renderer's measure of how busy it is)."""
        self.maybe_alert = False
        """Output since the alerts were last looked at may hold a bell or an OSC 52
        write: the (lazy) emulator must be caught up to tell (mux/alerts.py)."""
        self.bells_seen = 0
        """The emulator's bell count when the alerts were last looked at."""
        self.taps: list[PaneTap] = []
        self.start_command: list[str] = []
        """The command as it was given (#{pane_start_command}): none for the shell."""
        self.start_path = ""
        """The directory it was started in (#{pane_start_path}); "" for the server's."""
        self.options: dict[str, str] = {}
        """Pane options set for this pane alone (set-option -p, select-pane -P): over its
        window's own values and the global ones, as tmux's pane options have a parent."""
        self.mode: CopyMode | ClockMode | None = None
        """The pane's mode (copy-mode, view-mode or clock-mode), shown in its place by every client
        while the program's output goes on underneath, as tmux's modes are a pane's."""

    def mark_active(self) -> None:
        """Record that the pane was just made active (tmux's active_point: directional
        select-pane prefers the most recently active of several neighbours; a pane never
        made active has 0, and of those the first in order wins, as tmux's)."""
        global _ACTIVE_POINT
        _ACTIVE_POINT += 1
        self.active_point = _ACTIVE_POINT

    @classmethod
    async def start(
        cls,
        pane_id: int,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: str | None,
        cols: int,
        rows: int,
        history_limit: int,
    ) -> Pane:
        """Start `argv` on a new PTY of cols x rows (through the Pty-mode spawn helper), in
        `cwd`; when that is not a directory, in the home directory or `/`, as tmux's
        spawn falls back (#{pane_start_path} still says what was asked)."""
        start_in = cwd
        if cwd is not None and not os.path.isdir(cwd):
            home = env.get("HOME", "")
            start_in = home if home and os.path.isdir(home) else "/"
        command = Command(argv[0], argv[1:], env=dict(env), cwd=start_in)
        child, master = await spawn_in_pty(command, cols, rows)
        os.set_blocking(master, False)
        terminal = Terminal(cols, rows, history_limit=history_limit)
        pane = cls(pane_id, child, master, terminal, argv)
        pane.start_path = cwd or ""
        loop = asyncio.get_running_loop()
        loop.add_reader(master, pane._readable)
        pane._watcher = loop.create_task(pane._watch())
        return pane

    @classmethod
    def empty(cls, pane_id: int, argv: Sequence[str], *, cwd: str | None, cols: int,
              rows: int, history_limit: int) -> Pane:
        """An empty pane of cols x rows: no process, only what `feed` gives it (tmux's
        split-window -I and `split-window ''`). As tmux's, its LF begins a new line
        (LNM: the bytes come from a file, not through a tty's onlcr) and it shows no
        cursor; `argv` is what respawn-pane with no command runs in it."""
        terminal = Terminal(cols, rows, history_limit=history_limit)
        terminal.screen.set_mode(mo.LNM)
        terminal.screen.reset_mode(mo.DECTCEM)
        pane = cls(pane_id, None, -1, terminal, argv)
        pane.start_path = cwd or ""
        return pane

    @property
    def is_empty(self) -> bool:
        """No process was ever started here (display -I may feed it)."""
        return self.child is None

    @property
    def name(self) -> str:
        """`%N`, as tmux names panes."""
        return f"%{self.id}"

    @property
    def pid(self) -> int:
        """The pane's process's pid; 0 in an empty pane, as tmux's #{pane_pid}."""
        return self.child.pid if self.child is not None else 0

    def current_command(self) -> str:
        """The name of the process in the foreground of the pane's terminal; in an
        empty pane the program it would run (tmux falls back to the shell)."""
        if self.child is None:
            return os.path.basename(self.argv[0])
        try:
            pgrp = os.tcgetpgrp(self.master)
            with open(f"/proc/{pgrp}/comm") as comm:
                return comm.read().strip()
        except OSError:
            return os.path.basename(self.argv[0])

    def current_path(self) -> str:
        """The working directory of the process in the foreground of the pane's
        terminal (#{pane_current_path}), else of the pane's own process; "" in an
        empty pane, which has neither."""
        if self.child is None:
            return ""
        try:
            pids = [os.tcgetpgrp(self.master), self.pid]
        except OSError:
            pids = [self.pid]
        for pid in pids:
            try:
                return os.readlink(f"/proc/{pid}/cwd")
            except OSError:
                continue
        return ""

    @property
    def tty(self) -> str:
        """The path of the pane's terminal (#{pane_tty}), from the master's pty number;
        "" in an empty pane."""
        if self.child is None:
            return ""
        try:
            number = struct.unpack("I", fcntl.ioctl(self.master, _TIOCGPTN, b"\0" * 4))
        except OSError:
            return ""
        return f"/dev/pts/{number[0]}"

    def write(self, data: bytes) -> None:
        """Bytes to the program, as if typed (keys, pastes, query answers).

        What the tty's input queue cannot take now (a big paste into a program that
        reads slowly, or not at all) waits here and goes as the program reads: the
        event loop is never held waiting for a program.
        """
        if not self.closed:
            self._input.write(data)

    @property
    def input_waiting(self) -> int:
        """Bytes written to the program that its terminal has not taken yet (what a
        writer that never stops, a pipe-pane -I command, is bounded by)."""
        return self._input.waiting

    def enter_copy_mode(self, *, keys: str, table: Mapping[str, str] | None = None,
                        source: Pane | None = None, scroll_exit: bool = False,
                        hide_position: bool = False) -> CopyMode:
        """copy-mode: the pane's lines (`source`'s: -s) frozen under a cursor, its keys
        `table`'s (key -> copy-mode command; the stock one for `keys` when None), leaving
        at the bottom with `scroll_exit` (-e), no position shown with `hide_position`
        (-H); a pane already in copy mode stays as it is, as tmux's copy-mode twice
        neither starts over nor takes the second one's flags."""
        mode = self.mode
        if not isinstance(mode, CopyMode) or mode.name != "copy-mode":
            if source is None or source is self:
                mode = CopyMode.of_terminal(self.terminal, keys=keys, table=table)
            else:
                mode = CopyMode.of_terminal(source.terminal, keys=keys, table=table,
                                            into=self.terminal)
            mode.scroll_exit, mode.hide_position = scroll_exit, hide_position
            self.mode = mode
        return mode

    def resize(self, cols: int, rows: int) -> None:
        """TIOCSWINSZ (the kernel sends SIGWINCH to the foreground group) and the terminal."""
        if not self.closed:
            set_window_size(self.master, cols, rows)
        resized = (cols, rows) != (self.terminal.cols, self.terminal.rows)
        self.terminal.resize(cols, rows)
        if resized and self.mode is not None:
            self.mode = self.mode.refit(self.terminal)
        self._tap(lambda tap: tap.resized(cols, rows))

    def kill(self) -> None:
        """End the pane as tmux does: close the PTY, and the kernel's hangup tells the
        program (SIGHUP to the terminal's foreground group and its shell, which passes it
        to its jobs). No SIGHUP of our own to the shell's group: sent while the shell is
        still reading its rc files, it reaches what they run in the middle of what they do
        (pyenv's rehash, between taking its lock file and setting the trap that removes
        it), and every shell on the machine then waits a minute for that lock: half the
        kill-servers right after a new-session left it; the hangup alone, as rarely as
        tmux (1 in 40)."""
        if self.killed:
            return  # it went with the first kill
        self.killed = True
        if self._announced and self.on_close is not None:
            self.on_close(self)  # kept dead until now
        else:
            self._close()

    @property
    def dead(self) -> bool:
        """Its process has ended (the pane may stay, with remain-on-exit), or it never
        had one (an empty pane: tmux's #{pane_dead} is 1 there too)."""
        return self.child is None or self.exit_status is not None

    def feed(self, data: bytes) -> None:
        """Show `data` as if the pane's program had written it: what display -I and
        split-window -I give an empty pane (tmux's input_parse_buffer), seen by the taps,
        the alerts and the clients as a program's output is."""
        self._took(data)
        self.terminal.catch_up()
        if self.on_output is not None:
            self.on_output(self)

    def show_dead(self) -> None:
        """tmux's notice on a pane kept after its process ended, on its bottom row."""
        status = self.exit_status
        assert status is not None
        how = f"signal {status.signal}" if status.signal is not None else f"status {status.code}"
        rows = self.terminal.rows
        notice = f"\x1b[{rows};1H\nPane is dead ({how}, {time.ctime()})"
        self.terminal.feed(notice.encode())

    def _readable(self, to_the_end: bool = False) -> None:
        """Read a turn's worth at most (_TURN_BYTES, _TYPING_TURN_BYTES while someone
        types in the session), as much as there is; everything with `to_the_end`. A
        short read within a turn (an echo, a prompt) ends it: the PTY is most likely
        drained, and if not the loop calls again, so an echo costs one read, not two."""
        typing = self.yield_to_typing()
        budget = sys.maxsize if to_the_end else _TYPING_TURN_BYTES if typing else _TURN_BYTES
        taken = 0
        while taken < budget:
            data = read_master(self.master, _READ_SIZE)
            if data is None:
                break
            if not data:
                self._close()
                return
            taken += len(data)
            self._took(data)
            if len(data) < _SHORT_READ and not to_the_end:
                break
        self.terminal.catch_up()
        if taken >= budget and typing:
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.master)
            loop.call_later(FLOOD_PAUSE, self._resume)
        if self.on_output is not None:
            self.on_output(self)

    def _took(self, data: bytes) -> None:
        """Output for the pane: counted, looked at for alerts, tapped, emulated."""
        self.output_bytes += len(data)
        self.maybe_alert = self.maybe_alert or b"\x07" in data or b"]52;" in data
        if self.taps:
            self._tap_output(data)
        self.terminal.feed(data)

    def _resume(self) -> None:
        if not self.closed:
            asyncio.get_running_loop().add_reader(self.master, self._readable)

    async def _watch(self) -> None:
        assert self.child is not None, "an empty pane has no process to watch"
        self.exit_status = await self.child.wait()
        self.died_at = time.time()
        if not self.closed:  # all the process wrote before it ended, however much
            self._readable(to_the_end=True)
        self._close()

    def _close(self) -> None:
        """Close the PTY; tell the owner once the process's end is known too."""
        if not self.closed:
            self.closed = True
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.master)
            self._input.take_waiting()  # for a program that is gone
            os.close(self.master)
            self.terminal.flush()
        if self._announced or (self.exit_status is None and not self.killed):
            return  # the PTY ended first: the process's exit status follows
        self._announced = True
        status = self.exit_status
        self._tap(lambda tap: tap.ended(status))
        self.taps.clear()
        if self.on_close is not None:
            self.on_close(self)

    def _tap_output(self, data: bytes) -> None:
        self._tap(lambda tap: tap.output(data))

    def _tap(self, event: Callable[[PaneTap], None]) -> None:
        """Pass `event` to every tap; one that cannot record any more is taken off, with
        a line in the server's log (its user finds the recording ended there)."""
        for tap in list(self.taps):
            try:
                event(tap)
            except RecordingError as error:
                self.taps.remove(tap)
                print(f"termhost server: pane {self.name}: recording stopped: {error}",
                      file=sys.stderr)
