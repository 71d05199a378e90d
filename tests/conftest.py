"""Shared test tools: deadline-bound waits and readers for real fds and processes."""

from __future__ import annotations

import asyncio
import compileall
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

import termhost
from termhost.process.groups import group_members

T = TypeVar("T")

DEADLINE = 10.0
"""Seconds a test waits for a condition before failing (generous: CI machines are noisy)."""

BASE_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin"}


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The environment a test's termhost runs in: a server directory of its own and a
    plain sh; the server is killed at the end."""
    environment = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path), "SHELL": "/bin/sh",
                   "PS1": "$ ", "ENV": ""}
    environment.pop("TERMHOST", None)
    yield environment
    subprocess.run([sys.executable, "-m", "termhost", "kill-server"], env=environment,
                   capture_output=True, timeout=30, check=False)


class BothServers:
    """A private tmux 3.3a and a private termhost: the same commands run in both, their
    answers compared, tmux's being the reference. Killed by the `both` fixture."""

    NAMES = ("tmux", "termhost")

    def __init__(self, tmp_path: Path) -> None:
        self.env = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path),
                    "TMUX_TMPDIR": str(tmp_path)}
        for variable in ("TERMHOST", "TMUX"):
            self.env.pop(variable, None)
        self.programs = {"tmux": ["tmux", "-L", "reference", "-f", "/dev/null"],
                         "termhost": [sys.executable, "-m", "termhost", "-f", "/dev/null"]}

    def run(self, name: str, *args: str, cwd: Path | None = None, config: Path | None = None,
            stdin: str = "") -> subprocess.CompletedProcess[str]:
        """One command line of `name`'s (tmux or termhost), never raising for its status;
        `config`: the file a server it starts reads (-f), in place of /dev/null; `stdin`:
        what it reads there (a verb given "-" reads it)."""
        program = self.programs[name] if config is None else [
            *self.programs[name][:-1], str(config)]
        return subprocess.run([*program, *args], env=self.env, cwd=cwd, input=stdin,
                              capture_output=True, text=True, timeout=30, check=False)

    def answers(self, name: str, args: list[str]) -> tuple[int, str, str]:
        done = self.run(name, *args)
        return done.returncode, done.stdout, done.stderr

    def after_each(self, steps: list[list[str]], observe: list[str]) -> None:
        """Run `steps` in both, asserting that each has the same status and error in
        both, and leaves the same answer to `observe` (where it left the session)."""
        seen = {name: [(*self.answers(name, step)[::2], self.run(name, *observe).stdout)
                       for step in steps] for name in self.NAMES}
        for step, ours, theirs in zip(steps, seen["termhost"], seen["tmux"], strict=True):
            assert ours == theirs, step

    def stop(self, name: str) -> None:
        """`name`'s server killed, and gone: tmux's kill-server answers before its server
        has exited, and a client reaching the dying server is told it exited unexpectedly."""
        self.run(name, "kill-server")
        wait_until(lambda: "no server running" in self.run(name, "has-session").stderr,
                   what=f"{name}'s server to exit")

    def kill(self) -> None:
        for name in self.NAMES:
            self.run(name, "kill-server")


@pytest.fixture
def both(tmp_path: Path) -> Iterator[BothServers]:
    servers = BothServers(tmp_path)
    try:
        yield servers
    finally:
        servers.kill()


@pytest.fixture(autouse=True, scope="session")
def _private_state_dir(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Servers the tests start keep their sessions' environment snapshots in a directory
    of the run's own, not in the user's ~/.local/state; and the shell they capture for each
    session is sh, not the user's own shell with its rc files (which would make every test
    that starts a session read them), unless a test says otherwise. HOME and
    XDG_CONFIG_HOME are empty directories of the run's: a server started without -f reads
    the user's config.toml or ~/.tmux.conf, and no test may depend on the user's."""
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state"))
    os.environ["SHELL"] = "/bin/sh"
    os.environ["HOME"] = str(tmp_path_factory.mktemp("home"))
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("config"))


@pytest.fixture(autouse=True, scope="session")
def _compiled() -> None:
    """termhost's bytecode written once, before any server starts: where
    PYTHONDONTWRITEBYTECODE is set (some CI images), every server and command the tests
    start would otherwise compile every module it imports (150 ms a server start)."""
    compileall.compile_dir(str(Path(termhost.__file__).parent), quiet=1)


class _Poll:
    """The pacing of a deadline-bound wait: growing intervals, then a test failure."""

    def __init__(self, timeout: float, what: object) -> None:
        self.timeout, self.what = timeout, what
        self.deadline = time.monotonic() + timeout
        self.delay = 0.001

    def next_delay(self) -> float:
        if time.monotonic() > self.deadline:
            pytest.fail(f"timed out after {self.timeout}s waiting for {self.what}")
        delay, self.delay = self.delay, min(self.delay * 2, 0.05)
        return delay


def wait_until(condition: Callable[[], T], timeout: float = DEADLINE, what: str = "") -> T:
    """Poll `condition` until it returns something truthy; fail after `timeout` seconds."""
    poll = _Poll(timeout, what or condition)
    while not (result := condition()):
        time.sleep(poll.next_delay())  # the interval of a deadline-bound wait
    return result


async def eventually(condition: Callable[[], T], timeout: float = DEADLINE, what: str = "") -> T:
    """`wait_until` for coroutines: polls without blocking the event loop."""
    poll = _Poll(timeout, what or condition)
    while not (result := condition()):
        await asyncio.sleep(poll.next_delay())  # the interval of a deadline-bound wait
    return result


def read_to_eof(fd: int, timeout: float = DEADLINE) -> bytes:
    """Read `fd` until EOF (or EIO, a PTY master whose slave side is gone)."""
    deadline = time.monotonic() + timeout
    data = bytearray()
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            pytest.fail(f"no EOF within {timeout}s; read so far: {bytes(data)!r}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO from a PTY master: every slave fd is closed
            return bytes(data)
        if not chunk:
            return bytes(data)
        data += chunk


def process_state(pid: int) -> str | None:
    """The one-letter state from /proc/PID/stat (Z for a zombie), None if reaped."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):  # gone before, or while, reading
        return None


def pid_exists(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    return process_state(pid) not in (None, "Z")


def children_of(pid: int) -> list[int]:
    """Direct children of `pid`, from /proc."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as children:
                found += [int(p) for p in children.read().split()]
        except FileNotFoundError:
            continue
    return found


def kill_group_members(pgid: int) -> None:
    """SIGKILL, by pid, whatever still lives in group `pgid`."""
    for pid in group_members(pgid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def world_executable(path: str) -> bool:
    """Whether any user can run `path`: the file and every directory above it are o+x."""
    real = Path(os.path.realpath(path))
    return all(part.stat().st_mode & 0o001 for part in (real, *real.parents))


def interpreter_for_nobody() -> str:
    """An interpreter user nobody can start: ours, unless it lives under e.g. /root (0700)."""
    if world_executable(sys.executable):
        return sys.executable
    for directory in BASE_ENV["PATH"].split(":"):
        candidate = os.path.join(directory, "python3")
        if os.path.isfile(candidate) and world_executable(candidate):
            return candidate
    pytest.skip(f"no Python that user nobody may run: {sys.executable} is not world-executable")
