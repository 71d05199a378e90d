"""A private termhost server, attached clients in PTYs and /proc figures, for the benchmarks.

The benchmarks that drive termhost as a user does (its CLI, a client attached in a
terminal) measure it from outside, beside a tmux doing the same in the same run:

- `PrivateTermhost` is the counterpart of `_tmux.PrivateTmux`: a server of one benchmark,
  never the user's. Its socket lives in a fresh TERMHOST_TMPDIR of its own (removed by
  `stop()`), it reads no configuration (`-f /dev/null`), and its clients run without
  TERMHOST and TMUX, so a benchmark started inside termhost or tmux talks to neither.
- `PtyClient` runs an attach command (`termhost attach`, `tmux attach`) on a PTY of its own,
  as a user's terminal would, and drains the PTY from a thread, so the client never blocks
  on a full PTY whatever the multiplexer sends. It counts what arrived and can wait for a
  marker to be drawn or for the output to go quiet.
- `cpu_seconds`, `rss_kib` and `children` read what the kernel accounts for a process.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Self

from _tmux import PrivateServer, environment

__all__ = [
    "PrivateTermhost",
    "PtyClient",
    "children",
    "cpu_seconds",
    "rss_kib",
    "termhost_command",
    "wait_until",
]

_CLOCK_TICK = os.sysconf("SC_CLK_TCK")


def termhost_command() -> list[str]:
    """How to run termhost: the script installed beside this interpreter, else `-m termhost`."""
    script = Path(sys.executable).with_name("termhost")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "termhost"]


def wait_until(condition: Callable[[], bool], what: str, timeout: float) -> None:
    """Poll `condition()` (every 10 ms) until it is true; raise TimeoutError naming `what`."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout:g} s")
        time.sleep(0.01)  # polling a condition with a deadline, not synchronisation


class PrivateTermhost(PrivateServer):
    """A termhost server of one benchmark, holding one idle COLSxROWS session once started.

    Usable as a context manager (start on entry, stop on exit), or through `start()` and
    `stop()`; `stop()` is safe whether or not a server was started, also by a command the
    benchmark ran itself on `base` (a `termhost new-session` in a PTY).
    """

    def __init__(self, name: str, *, cols: int = 80, rows: int = 24,
                 command: Sequence[str] | None = None) -> None:
        """`command`: how to run termhost (default: `termhost_command()`)."""
        self.directory = Path(tempfile.mkdtemp(prefix=f"termhost-bench-{name}-"))
        self.socket = f"bench-{name}"
        self.cols, self.rows = cols, rows
        self.base = [*(command or termhost_command()), "-L", self.socket, "-f", "/dev/null"]
        """The start of every command line for this server."""
        env = {key: value for key, value in environment().items() if key != "TERMHOST"}
        self.env = env | {"TERMHOST_TMPDIR": str(self.directory),
                          "XDG_STATE_HOME": str(self.directory / "state")}
        """The environment of every client of this server (and of what runs one): its
        snapshots and session records stay in its directory, out of the user's."""

    def start(self) -> None:
        # A server exits with its last session: this one sleeps, and others go beside it.
        size = ["-x", str(self.cols), "-y", str(self.rows)]
        self.run("new-session", "-d", *size, "-s", "idle", "sleep 100000")

    def server_pid(self) -> int:
        return int(self.run("display-message", "-p", "#{pid}"))

    def stop(self) -> None:
        try:
            self.run("kill-server")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass  # no server left to kill (it never started, or already exited)
        shutil.rmtree(self.directory, ignore_errors=True)


class PtyClient:
    """`argv` (an attach command) running on a COLSxROWS PTY whose output a thread drains.

    The PTY is the client's stdin, stdout and stderr, TERM is xterm-256color. Usable as a
    context manager; `close()` ends the client (SIGTERM, then SIGKILL) and the thread.
    `markers` are watched from the first byte on (`watch` only sees the last 4 KiB of what
    came before it); `on_output` is given every chunk read, in the draining thread (an
    outer terminal's emulator, say), before the next read.
    """

    _TAIL = 4096
    """Bytes of earlier output kept to find a marker split across two reads."""

    def __init__(
        self,
        argv: Sequence[str],
        env: dict[str, str],
        *,
        cols: int = 80,
        rows: int = 24,
        markers: Sequence[bytes] = (),
        on_output: Callable[[bytes], None] | None = None,
    ) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        try:
            self.process = subprocess.Popen(
                list(argv),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env | {"TERM": "xterm-256color"},
                start_new_session=True,
            )
        except BaseException:
            os.close(self.master)
            raise
        finally:
            os.close(slave)
        self.received = 0
        """Bytes the client has written to its terminal so far."""
        self.last_output = time.monotonic()
        self._tail = b""
        self._markers = {marker: threading.Event() for marker in markers}
        self.seen = dict(self._markers)
        """An event per marker given, set once the marker was drawn."""
        self._on_output = on_output
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, name="pty-drain", daemon=True)
        self._thread.start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def watch(self, marker: bytes) -> threading.Event:
        """An event set once `marker` appears in the output (or is in its last 4 KiB)."""
        event = threading.Event()
        with self._lock:
            if marker in self._tail:
                event.set()  # already drawn (the marker fits in the tail)
            else:
                self._markers[marker] = event
        return event

    def wait_for(self, event: threading.Event, what: str, timeout: float) -> None:
        """Wait until `event` (from `watch`) is set; raise if the client exits first."""
        wait_until(
            lambda: event.is_set() or self.process.poll() is not None, f"{what} drawn", timeout
        )
        if not event.is_set():
            self._thread.join(timeout=5)  # the client's last words, to say what happened
            last = self._tail[-300:].decode(errors="replace")
            raise RuntimeError(
                f"{what}: the client exited ({self.process.returncode}) first: {last!r}"
            )

    def wait_quiet(self, quiet: float, timeout: float) -> None:
        """Wait until the client has written nothing for `quiet` seconds."""
        wait_until(
            lambda: time.monotonic() - self.last_output >= quiet,
            f"client output quiet for {quiet:g} s",
            timeout,
        )

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return  # EIO: the client has exited and closed the PTY
            if not chunk:
                return
            if self._on_output is not None:
                self._on_output(chunk)
            self.received += len(chunk)
            self.last_output = time.monotonic()
            with self._lock:
                window = self._tail + chunk
                for marker, event in list(self._markers.items()):
                    if marker in window:
                        event.set()
                        del self._markers[marker]
                self._tail = window[-self._TAIL :]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.close(self.master)
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, all its threads (/proc/PID/stat utime + stime)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    # The name (field 2) is in parentheses and may hold spaces: count fields after it.
    fields = stat[stat.rindex(")") + 2 :].split()
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / _CLOCK_TICK


def rss_kib(pid: int) -> int:
    """Resident set size of a process in KiB (/proc/PID/status VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}: is it a zombie?")


def children(pid: int) -> list[int]:
    """The live children of a process, of all its threads (/proc/PID/task/*/children)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except FileNotFoundError:
            pass  # the thread exited while we looked
    return found
