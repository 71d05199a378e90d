"""Signals to whole process groups: every member ends, gone groups are fine, ours is refused.

Calls that could reach the caller's own group (pgid 0, a pid in our group) run in a
separate Python process in its own session: if the refusal were missing, the signal
would end that process (seen in its exit status), not pytest and whatever started it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

import termhost
from termhost.process import (
    Child,
    Command,
    ExitStatus,
    Setup,
    interrupt_process_group,
    interrupt_process_group_by_pid,
    kill_process_group,
    kill_process_group_by_pid,
    spawn,
    terminate_process_group,
    terminate_process_group_by_pid,
)
from tests.conftest import (
    BASE_ENV,
    DEADLINE,
    children_of,
    group_members,
    interpreter_for_nobody,
    kill_group_members,
    pid_exists,
    process_state,
    wait_until,
)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(termhost.__file__)))
NOBODY = 65534

BY_GROUP: list[tuple[Callable[[int], None], int]] = [
    (kill_process_group, signal.SIGKILL),
    (terminate_process_group, signal.SIGTERM),
    (interrupt_process_group, signal.SIGINT),
]
BY_PID: list[tuple[Callable[[int], None], int]] = [
    (kill_process_group_by_pid, signal.SIGKILL),
    (terminate_process_group_by_pid, signal.SIGTERM),
    (interrupt_process_group_by_pid, signal.SIGINT),
]
ALL_FUNCTIONS = [function for function, _ in BY_GROUP + BY_PID]


def ids(value: object) -> str:
    """Test ids: the function's name, and the signal's name."""
    if isinstance(value, signal.Signals):
        return value.name
    return getattr(value, "__name__", str(value))


@contextlib.asynccontextmanager
async def running_group() -> AsyncIterator[Child]:
    """A new session and group: `sh` waiting on a foreground pipeline of two sleeps.

    The sleeps are foreground jobs, so they keep the default SIGINT action (a non-interactive
    shell ignores SIGINT only in background jobs), and nothing but a group-wide signal ends
    them: there is no controlling terminal to send SIGHUP when the leader dies.
    """
    child = await spawn(Command("sh", ["-c", "sleep 100 | sleep 100"], env=BASE_ENV), Setup.PIPE)
    try:
        wait_until(lambda: len(group_members(child.pid)) >= 3, what="sh and both sleeps")
        yield child
    finally:
        kill_group_members(child.pid)
        if child.status is None:
            await asyncio.wait_for(child.wait(), DEADLINE)


def run_isolated(
    script: str, *args: object, interpreter: str = sys.executable, **options: object
) -> tuple[int, str]:
    """Run a Python `script` (REPO_ROOT is argv[1]) in its own session; its status and stdout.

    SIGINT is set back to its default action first, so every signal these tests send
    would end the process visibly.
    """
    preamble = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.SIG_DFL)\n"
        "sys.path.insert(0, sys.argv[1])\n"
    )
    process = subprocess.Popen(
        [interpreter, "-c", preamble + script, REPO_ROOT, *map(str, args)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd="/",
        **options,  # type: ignore[call-overload]
    )
    try:
        output, _ = process.communicate(timeout=DEADLINE)
    finally:
        kill_group_members(process.pid)  # anything it left in its group
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, output


# --- a real group ends with the signal --------------------------------------------------


@pytest.mark.parametrize(("function", "signum"), BY_GROUP, ids=ids)
def test_signalling_a_group_ends_every_member_with_that_signal(
    function: Callable[[int], None], signum: int
) -> None:
    async def scenario() -> tuple[ExitStatus, list[int]]:
        async with running_group() as child:
            assert os.getpgid(child.pid) == child.pid
            members = group_members(child.pid)
            function(child.pid)
            status = await asyncio.wait_for(child.wait(), DEADLINE)
            wait_until(
                lambda: not any(pid_exists(pid) for pid in members), what="every member to end"
            )
            return status, members

    status, members = asyncio.run(scenario())
    assert status == ExitStatus(signal=signum)
    assert len(members) >= 3


@pytest.mark.parametrize(("function", "signum"), BY_PID, ids=ids)
def test_signalling_the_group_of_a_member_pid_ends_the_whole_group(
    function: Callable[[int], None], signum: int
) -> None:
    async def scenario() -> ExitStatus:
        async with running_group() as child:
            member = children_of(child.pid)[0]  # one of the sleeps, not the leader
            assert os.getpgid(member) == child.pid
            members = group_members(child.pid)
            function(member)
            status = await asyncio.wait_for(child.wait(), DEADLINE)
            wait_until(
                lambda: not any(pid_exists(pid) for pid in members), what="every member to end"
            )
            return status

    assert asyncio.run(scenario()) == ExitStatus(signal=signum)


# --- refusals and harmless cases --------------------------------------------------------


@pytest.mark.parametrize("function", ALL_FUNCTIONS, ids=ids)
def test_group_or_pid_zero_or_negative_is_refused_and_nothing_is_signalled(
    function: Callable[[int], None],
) -> None:
    returncode, output = run_isolated(
        "import termhost.process as process\n"
        "function = getattr(process, sys.argv[2])\n"
        "for value in (0, -1):\n"
        "    try:\n"
        "        function(value)\n"
        "    except ValueError:\n"
        "        print(value, 'ValueError', flush=True)\n"
        "    else:\n"
        "        print(value, 'returned', flush=True)\n",
        function.__name__,
    )
    assert returncode == 0  # a signal to its own group would have ended it
    assert output == "0 ValueError\n-1 ValueError\n"


@pytest.mark.parametrize("function", ALL_FUNCTIONS, ids=ids)
def test_signalling_a_group_that_is_gone_is_not_an_error(
    function: Callable[[int], None],
) -> None:
    async def scenario() -> int:
        child = await spawn(Command("sh", ["-c", "exit 0"], env=BASE_ENV), Setup.PIPE)
        assert await asyncio.wait_for(child.wait(), DEADLINE) == ExitStatus(code=0)
        return child.pid

    pid = asyncio.run(scenario())
    assert process_state(pid) is None
    assert group_members(pid) == []
    function(pid)  # no ProcessLookupError


@pytest.mark.parametrize("function", [function for function, _ in BY_PID], ids=ids)
def test_by_pid_refuses_a_pid_in_the_callers_own_group(function: Callable[[int], None]) -> None:
    # The caller is the isolated process; its plain Popen child stays in its group.
    returncode, output = run_isolated(
        "import subprocess\n"
        "import termhost.process as process\n"
        "child = subprocess.Popen(['sleep', '100'])\n"
        "try:\n"
        "    getattr(process, sys.argv[2])(child.pid)\n"
        "except ValueError:\n"
        "    print('ValueError', flush=True)\n"
        "else:\n"
        "    print('returned', flush=True)\n"
        "child.kill()\n"
        "print(child.wait(), flush=True)\n",
        function.__name__,
    )
    assert returncode == 0  # the signal to its own group would have ended it
    # The sleep died of the caller's SIGKILL, not of an earlier group signal.
    assert output == f"ValueError\n{-signal.SIGKILL}\n"


@pytest.mark.parametrize("function", ALL_FUNCTIONS, ids=ids)
def test_group_we_may_not_signal_raises_permission_error(
    function: Callable[[int], None],
) -> None:
    if os.geteuid() != 0:
        target = 1
        pgid = os.getpgid(1)
        if pgid == os.getpgrp():
            pytest.skip("pid 1 is in our own process group: no foreign group to try")
        if Path("/proc/1").stat().st_uid == os.getuid():
            pytest.skip("pid 1 runs as our own user: signalling its group would succeed")
        if _has_cap_kill():
            pytest.skip("we hold CAP_KILL: signalling pid 1's group would succeed")
        with pytest.raises(PermissionError):
            function(target if "by_pid" in function.__name__ else pgid)
        return

    # Root here: a root-owned sleeper in its own group, signalled by a process running as
    # nobody (termhost.process is stdlib-only, so any Python 3.11 with REPO_ROOT on its path).
    interpreter = interpreter_for_nobody()
    sleeper = subprocess.Popen(["sleep", "100"], start_new_session=True)
    try:
        returncode, output = run_isolated(
            "import termhost.process as process\n"
            "try:\n"
            "    getattr(process, sys.argv[2])(int(sys.argv[3]))\n"
            "except Exception as error:\n"
            "    print(type(error).__name__, flush=True)\n"
            "else:\n"
            "    print('returned', flush=True)\n",
            function.__name__,
            sleeper.pid,
            interpreter=interpreter,
            user=NOBODY,
            group=NOBODY,
            extra_groups=[],
            env=BASE_ENV,
        )
        assert (returncode, output) == (0, "PermissionError\n")
        assert sleeper.poll() is None
        sleeper.kill()
        # It dies of our SIGKILL, so nobody's signal never reached it.
        assert sleeper.wait(timeout=DEADLINE) == -signal.SIGKILL
    finally:
        if sleeper.poll() is None:
            sleeper.kill()
            sleeper.wait()


def _has_cap_kill() -> bool:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) & (1 << 5))  # CAP_KILL is bit 5
    return False
