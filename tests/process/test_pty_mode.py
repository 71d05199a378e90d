"""Pty mode, through the helper and through the direct fallback: a real terminal session."""

from __future__ import annotations

import asyncio
import os
from dataclasses import replace

import pytest

from termhost.process import Child, Command, PtyPair, Setup, open_pty, spawn
from termhost.process.direct import spawn_direct
from tests.conftest import BASE_ENV, read_to_eof


async def start(command: Command, pty: PtyPair, launcher: str) -> Child:
    command = replace(command, stdin=pty.slave, stdout=pty.slave, stderr=pty.slave)
    if launcher == "helper":
        child = await spawn(command, Setup.PTY)
    else:
        child = spawn_direct(command, Setup.PTY)
    assert child.launcher == launcher
    return child


def run_in_pty(command: Command, launcher: str) -> tuple[str, int]:
    """Run `command` on a new PTY to the end; its output (CRLF as typed) and exit code."""

    async def scenario() -> tuple[str, int]:
        pty = open_pty(100, 30)
        try:
            child = await start(command, pty, launcher)
        finally:
            os.close(pty.slave)
        try:
            output = await asyncio.get_running_loop().run_in_executor(None, read_to_eof, pty.master)
        finally:
            os.close(pty.master)
        return output.decode(), (await child.wait()).returncode

    return asyncio.run(scenario())


LAUNCHERS = ["helper", "direct"]


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_the_child_leads_a_session_whose_terminal_is_the_pty(launcher: str) -> None:
    async def scenario() -> None:
        pty = open_pty()
        child = await start(Command("sleep", ["30"], env=BASE_ENV), pty, launcher)
        try:
            assert os.getsid(child.pid) == child.pid
            assert os.getpgid(child.pid) == child.pid
            with open(f"/proc/{child.pid}/stat") as stat:
                tty_nr = int(stat.read().rsplit(")", 1)[1].split()[4])
            assert tty_nr == os.fstat(pty.slave).st_rdev  # controlling terminal: our slave
            assert os.tcgetpgrp(pty.master) == child.pid  # and its foreground group
        finally:
            child.kill()
            await child.wait()
            os.close(pty.master)
            os.close(pty.slave)

    asyncio.run(scenario())


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_the_environment_is_exactly_what_was_passed(launcher: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "ONLY": "this", "EMPTY": ""}
    output, code = run_in_pty(Command("cat", ["/proc/self/environ"], env=env), launcher)
    assert sorted(output.split("\0")[:-1]) == sorted(f"{k}={v}" for k, v in env.items())
    assert code == 0


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_terminal_tests_and_dev_tty_work(launcher: str) -> None:
    command = Command(
        "sh", ["-c", "test -t 0 && test -t 1 && test -t 2 && echo ok > /dev/tty; stty size"],
        env=BASE_ENV,
    )
    output, code = run_in_pty(command, launcher)
    assert (output, code) == ("ok\r\n30 100\r\n", 0)


def test_pipe_mode_has_no_controlling_terminal() -> None:
    async def scenario() -> tuple[bytes, int]:
        read_end, write_end = os.pipe()
        child = await spawn(
            Command("sh", ["-c", "echo > /dev/tty || echo none"], env=BASE_ENV,
                    stdout=write_end, stderr=write_end)
        )
        os.close(write_end)
        output = read_to_eof(read_end)
        os.close(read_end)
        return output, (await child.wait()).returncode

    output, code = asyncio.run(scenario())
    assert output.endswith(b"none\n")
    assert code == 0
