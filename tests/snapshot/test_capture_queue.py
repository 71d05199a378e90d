"""The server's capture queue, with real dash captures: a few at a time, identical ones
shared, the timeout counting from the start, and a capture nobody wants ended.

Every rc file here logs a line as it starts and as it ends, so a test reads from the log
how many captures ran and how many ran at once.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from termhost.snapshot.model import Snapshot
from termhost.snapshot.queue import CaptureQueue, default_limit
from tests.conftest import eventually, group_members
from tests.snapshot.rc_log import LOGGING_LINES, RcLog

DASH = shutil.which("dash") or "/bin/sh"

class Home:
    """A HOME with a dash rc file ($ENV) that logs its runs."""

    def __init__(self, tmp_path: Path, body: str = "") -> None:
        self.path = tmp_path / "home"
        self.path.mkdir()
        self.rc = self.path / ".shrc"
        self.log = RcLog(self.path)
        self.write(body)
        self.env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(self.path),
                    "ENV": str(self.rc)}

    def write(self, body: str) -> None:
        first, last = LOGGING_LINES
        self.rc.write_text(f"{first}\n{body}\n{last}\n")

    def starts(self) -> int:
        return len(self.log.started_in())


def dirs(tmp_path: Path, count: int) -> list[str]:
    """`count` working directories: a capture in each is a different capture."""
    made = []
    for n in range(count):
        (tmp_path / f"dir{n}").mkdir()
        made.append(str(tmp_path / f"dir{n}"))
    return made


def test_identical_requests_share_one_capture_and_its_result(tmp_path: Path) -> None:
    home = Home(tmp_path, "sleep 0.2")

    async def scenario() -> list[Snapshot]:
        queue = CaptureQueue()
        burst = await asyncio.gather(*(
            queue.capture(DASH, cwd=str(tmp_path), env=home.env, timeout=10)
            for _ in range(50)))
        later = await queue.capture(DASH, cwd=str(tmp_path), env=home.env, timeout=10)
        return [*burst, later]

    snapshots = asyncio.run(scenario())
    assert home.starts() == 1
    assert all(snapshot is snapshots[0] for snapshot in snapshots)


def test_a_changed_rc_file_another_cwd_or_env_or_fresh_gets_a_capture_of_its_own(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path)
    first, second = dirs(tmp_path, 2)

    async def scenario() -> list[Snapshot]:
        queue = CaptureQueue()
        taken = [await queue.capture(DASH, cwd=first, env=home.env, timeout=10)]
        taken.append(await queue.capture(DASH, cwd=second, env=home.env, timeout=10))
        taken.append(await queue.capture(DASH, cwd=first, env={**home.env, "X": "1"},
                                         timeout=10))
        taken.append(await queue.capture(DASH, cwd=first, env=home.env, timeout=10,
                                         fresh=True))
        home.write("export EDITED=yes")
        taken.append(await queue.capture(DASH, cwd=first, env=home.env, timeout=10))
        return taken

    snapshots = asyncio.run(scenario())
    assert home.starts() == 5
    assert len({id(snapshot) for snapshot in snapshots}) == 5
    assert snapshots[-1].env.get("EDITED") == "yes"


def test_at_most_limit_captures_run_at_once(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path, "sleep 0.3")
    cwds = dirs(tmp_path, 6)

    async def scenario() -> None:
        queue = CaptureQueue(limit=2)
        await asyncio.gather(*(queue.capture(DASH, cwd=cwd, env=home.env, timeout=10)
                               for cwd in cwds))

    asyncio.run(scenario())
    assert home.starts() == 6
    assert home.log.most_at_once() <= 2


def test_the_default_limit_is_one_per_cpu_and_at_least_two() -> None:
    assert default_limit() == max(2, len(os.sched_getaffinity(0)))
    assert CaptureQueue().limit == default_limit()


def test_the_rest_wait_their_turn_and_the_timeout_counts_only_their_own_time(
    tmp_path: Path,
) -> None:
    # One at a time, each 0.6 s of a 1 s timeout: the third waits 1.2 s for its turn.
    home = Home(tmp_path, "sleep 0.6")
    cwds = dirs(tmp_path, 3)

    async def scenario() -> list[Snapshot]:
        queue = CaptureQueue(limit=1)
        return await asyncio.gather(*(queue.capture(DASH, cwd=cwd, env=home.env, timeout=1)
                                      for cwd in cwds))

    assert [snapshot.cwd for snapshot in asyncio.run(scenario())] == cwds
    assert home.log.started_in() == cwds  # once each, in the order they were asked for


def test_a_capture_nobody_waits_for_is_ended_and_its_traps_run(tmp_path: Path) -> None:
    lock = tmp_path / "lock"
    home = Home(tmp_path, f'echo $$ > "$HOME/pid"; trap "rm -f {lock}; exit" HUP; : > {lock}\n'
                          "sleep 100")
    pid_file = home.path / "pid"

    async def scenario() -> None:
        queue = CaptureQueue()
        requests = [asyncio.create_task(queue.capture(DASH, cwd=None, env=home.env,
                                                      timeout=60)) for _ in range(2)]
        await eventually(lock.exists, what="the capture to take its lock")
        requests[0].cancel()  # one of two waiters gone: the capture goes on for the other
        await asyncio.gather(requests[0], return_exceptions=True)
        assert lock.exists() and group_members(int(pid_file.read_text()))
        requests[1].cancel()
        await asyncio.gather(requests[1], return_exceptions=True)
        await eventually(lambda: not group_members(int(pid_file.read_text())),
                         what="the capture's group to end")
        await queue.close()

    asyncio.run(scenario())
    assert not lock.exists()


def test_a_request_right_after_a_cancelled_one_gets_a_capture_of_its_own(
    tmp_path: Path,
) -> None:
    # A session killed as its capture runs, and an identical one started at once (as
    # scripts do): the second must not join the capture being ended.
    home = Home(tmp_path, "sleep 0.3")

    async def scenario() -> Snapshot:
        queue = CaptureQueue()
        first = asyncio.create_task(queue.capture(DASH, cwd=None, env=home.env, timeout=10))
        await eventually(lambda: home.starts() == 1, what="the first capture to start")
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
        return await queue.capture(DASH, cwd=None, env=home.env, timeout=10)

    assert asyncio.run(scenario()).kind == "sh"
    assert home.starts() == 2


def test_closing_the_queue_ends_every_capture_within_its_grace(tmp_path: Path) -> None:
    lock = tmp_path / "lock"
    home = Home(tmp_path, f'trap "rm -f {lock}; exit" HUP; : > {lock}\nsleep 100')

    async def scenario() -> None:
        queue = CaptureQueue()
        request = asyncio.create_task(queue.capture(DASH, cwd=None, env=home.env,
                                                    timeout=60))
        await eventually(lock.exists, what="the capture to take its lock")
        await queue.close()
        assert not lock.exists()  # close() returned after the trap ran
        with pytest.raises(asyncio.CancelledError):
            await request

    asyncio.run(scenario())
