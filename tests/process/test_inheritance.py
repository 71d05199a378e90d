"""What a launched program inherits: only the fds it asked for and every signal at its
default, whatever termhost itself inherited.

A user's shell, a CI runner or a background job can start termhost with fds open
without close-on-exec (`exec 7</dev/null`) and with signals ignored (`cmd &` and nohup
ignore SIGINT, SIGQUIT and SIGHUP) or blocked. tmux resets all of that in its children,
so every way termhost launches a program must too: pipe and pty mode, through the helper
and directly, and the capture guard.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from termhost.process import CaptureGuard, Child, Command, Setup, open_pty, spawn
from termhost.process.direct import spawn_direct
from tests.conftest import BASE_ENV, kill_group_members, process_state, wait_until

LAUNCHES = [
    pytest.param(Setup.PIPE, "helper", id="pipe-helper"),
    pytest.param(Setup.PIPE, "direct", id="pipe-direct"),
    pytest.param(Setup.PTY, "helper", id="pty-helper"),
    pytest.param(Setup.PTY, "direct", id="pty-direct"),
    pytest.param(None, "guard", id="capture-guard"),
]

IGNORED = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM, signal.SIGUSR1,
           signal.SIGPIPE)
"""Not SIGCHLD: with it ignored the kernel reaps our children itself, and no launcher
could report an exit status (the server starts with it at its default, as launched)."""
BLOCKED = {signal.SIGUSR2, signal.SIGTERM, signal.SIGWINCH}


@contextmanager
def careless_parent() -> Iterator[int]:
    """Make this process what a careless caller leaves to termhost: stray fds without
    close-on-exec below and above the kept one, signals ignored and blocked. Yields the
    fd the launch is asked to keep."""
    opened: list[int] = []
    previous = {signum: signal.getsignal(signum) for signum in IGNORED}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, BLOCKED)
    try:
        for signum in IGNORED:
            signal.signal(signum, signal.SIG_IGN)
        low = os.open(os.devnull, os.O_RDONLY)
        opened.append(low)
        os.set_inheritable(low, True)
        kept_r, kept_w = os.pipe()
        opened += [kept_r, kept_w]
        high = fcntl.fcntl(low, fcntl.F_DUPFD, 200)  # F_DUPFD: no close-on-exec
        opened.append(high)
        assert low < kept_w < high and os.get_inheritable(high)
        yield kept_w
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for fd in opened:
            os.close(fd)


STOPS_ITSELF = ["-c", "kill -STOP $$"]
"""A program whose fds can be read once it has started: until it runs its own code, the
dynamic loader may hold ld.so.cache or a library open (fd 3, for a moment)."""


async def launch(setup: Setup | None, launcher: str, kept: int) -> tuple[set[int], str]:
    """Start a shell as `launcher` does, keeping fd `kept`; its open fds and its /proc
    status, read once it has stopped itself."""
    command = Command("sh", STOPS_ITSELF, env=BASE_ENV, keep_fds=[kept])
    if launcher == "guard":
        async with CaptureGuard(command, grace=0) as guard:
            try:
                return inherited(guard.pid)
            finally:
                kill_group_members(guard.pid)
    pty = open_pty(80, 24) if setup is Setup.PTY else None
    if pty is not None:
        command = replace(command, stdin=pty.slave, stdout=pty.slave, stderr=pty.slave)
    assert setup is not None
    try:
        child: Child = await spawn(command, setup) if launcher == "helper" else spawn_direct(
            command, setup)
    finally:
        if pty is not None:
            os.close(pty.slave)
    try:
        assert child.launcher == launcher
        return inherited(child.pid)
    finally:
        child.kill()
        await child.wait()
        if pty is not None:
            os.close(pty.master)


def inherited(pid: int) -> tuple[set[int], str]:
    wait_until(lambda: process_state(pid) == "T", what="the program to stop itself")
    with open(f"/proc/{pid}/status") as status:
        return {int(fd) for fd in os.listdir(f"/proc/{pid}/fd")}, status.read()


def status_mask(status: str, name: str) -> int:
    for line in status.splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1], 16)
    raise AssertionError(f"{name} not in /proc status")


@pytest.mark.parametrize(("setup", "launcher"), LAUNCHES)
def test_only_fds_0_to_2_and_the_kept_one_reach_the_program(
    setup: Setup | None, launcher: str
) -> None:
    with careless_parent() as kept:
        fds, _ = asyncio.run(launch(setup, launcher, kept))
    assert fds == {0, 1, 2, kept}


@pytest.mark.parametrize(("setup", "launcher"), LAUNCHES)
def test_no_signal_is_ignored_or_blocked_in_the_program(
    setup: Setup | None, launcher: str
) -> None:
    with careless_parent() as kept:
        _, status = asyncio.run(launch(setup, launcher, kept))
    assert status_mask(status, "SigIgn") == 0
    assert status_mask(status, "SigBlk") == 0
