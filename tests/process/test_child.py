"""Child handles: awaitable exits on the event loop, signals, and no zombies when dropped."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from termhost.process import Command, ExitStatus, spawn
from termhost.process import _helper as helper_module
from tests.conftest import BASE_ENV, process_state, wait_until


def test_wait_returns_the_exit_code_and_reaps() -> None:
    async def scenario() -> tuple[ExitStatus, int | None, str | None]:
        child = await spawn(Command("sh", ["-c", "exit 4"], env=BASE_ENV))
        status = await child.wait()
        return status, child.returncode, process_state(child.pid)

    status, returncode, state = asyncio.run(scenario())
    assert status == ExitStatus(code=4)
    assert returncode == 4
    assert state is None  # reaped: no zombie


def test_poll_is_none_while_running_and_kill_reports_sigkill() -> None:
    async def scenario() -> tuple[ExitStatus | None, ExitStatus]:
        child = await spawn(Command("sleep", ["30"], env=BASE_ENV))
        running = child.poll()
        child.kill()
        return running, await child.wait()

    running, status = asyncio.run(scenario())
    assert running is None
    assert status.signal == signal.SIGKILL
    assert str(status) == "killed by SIGKILL"


def test_many_children_are_awaited_without_a_thread_each() -> None:
    async def scenario() -> tuple[list[int], int]:
        children = [
            await spawn(Command("sh", ["-c", f"read x; exit {i}"], env=BASE_ENV, stdin=r))
            for i, r in enumerate(pipes_r)
        ]
        threads_while_waiting = threading.active_count()
        waits = asyncio.gather(*(child.wait() for child in children))
        for w in pipes_w:
            os.write(w, b"go\n")
        statuses = await waits
        return [s.returncode for s in statuses], threads_while_waiting

    pipes = [os.pipe() for _ in range(20)]
    pipes_r, pipes_w = [p[0] for p in pipes], [p[1] for p in pipes]
    before = threading.active_count()
    try:
        codes, threads = asyncio.run(scenario())
    finally:
        for fd in pipes_r + pipes_w:
            os.close(fd)
    assert codes == list(range(20))
    assert threads <= before + 1  # at most asyncio's own executor thread, never one per child


def test_two_waiters_see_the_same_exit() -> None:
    async def scenario() -> list[ExitStatus]:
        child = await spawn(Command("sh", ["-c", "exit 9"], env=BASE_ENV))
        return list(await asyncio.gather(child.wait(), child.wait()))

    assert asyncio.run(scenario()) == [ExitStatus(code=9), ExitStatus(code=9)]


def test_a_dropped_child_keeps_running_and_is_reaped_when_it_ends() -> None:
    read_end, write_end = os.pipe()

    async def scenario() -> int:
        child = await spawn(Command("sh", ["-c", "read x"], env=BASE_ENV, stdin=read_end))
        return child.pid  # the handle is dropped here, the process still running

    try:
        pid = asyncio.run(scenario())
        gc.collect()
        assert process_state(pid) not in (None, "Z")  # dropping is not killing
        os.write(write_end, b"done\n")
        wait_until(lambda: process_state(pid) is None, what="the dropped child reaped")
    finally:
        os.close(read_end)
        os.close(write_end)


def test_signalling_an_exited_child_is_harmless() -> None:
    async def scenario() -> ExitStatus:
        child = await spawn(Command("true", env=BASE_ENV))
        await child.exited()
        child.send_signal(signal.SIGTERM)  # exited, unreaped: nothing to reach
        status = await child.wait()
        child.send_signal(signal.SIGTERM)  # reaped: nothing either
        return status

    assert asyncio.run(scenario()).code == 0


def test_the_helper_imports_nothing_slow() -> None:
    # Every pane start pays for the helper's imports; typing or enum cost ~10 ms each start.
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-I", "-S", helper_module.__file__,
         helper_module.MARKER, "1"],
        capture_output=True, env={}, text=True, timeout=30,
    )
    assert done.returncode == helper_module.EXIT_FAILED  # fd 1 refused: no report, exit 127
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()[1:]}
    assert "errno" in imported  # the listing really is of the helper's imports
    assert not imported & {"typing", "enum", "re", "os", "signal", "ctypes", "collections"}
    assert Path(helper_module.__file__).name == "_helper.py"
