"""The capture guard: a capture's process group is killed unless its output proved good.

Every capture here is a real `sh -c` (dash). A "helper" is a background `sleep` the
capture leaves in its group, as a shell's startup files leave ssh-agent behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import select
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from termhost.process import CaptureGuard, Command, ExitStatus, OutputTooLarge
from tests.conftest import (
    BASE_ENV,
    DEADLINE,
    children_of,
    eventually,
    group_members,
    kill_group_members,
    pid_exists,
    process_state,
    wait_until,
)

HELPER = "sleep 100 >/dev/null & echo $!"
"""Start a helper that does not hold the capture's stdout, and print its pid."""

_PR_SET_CHILD_SUBREAPER = 36


class Boom(Exception):
    """The error a test raises inside the block."""


def sh(script: str, cwd: str | None = None) -> Command:
    return Command("sh", ["-c", script], env=BASE_ENV, cwd=cwd)


@pytest.fixture
def groups() -> Iterator[list[int]]:
    """Capture groups a test started: their leftovers are killed even when the test fails."""
    started: list[int] = []
    yield started
    for pgid in started:
        kill_group_members(pgid)


@contextlib.contextmanager
def adopting_orphans() -> Iterator[None]:
    """Make this process a child subreaper while the block runs.

    A helper whose capture leader exits is re-parented to us instead of init, so the test
    can reap it and read *how* it died: proof that nothing killed it before we did, which
    "it still exists" alone cannot give (a SIGKILL already sent may not have landed yet).
    """
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    try:
        yield
    finally:
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def end_adopted(pid: int) -> int:
    """SIGTERM an adopted helper and reap it; returns the signal it actually died of."""
    os.kill(pid, signal.SIGTERM)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status), f"helper {pid} exited with {status:#x}"
    return os.WTERMSIG(status)


def reap_adopted(pid: int | None) -> None:
    """Cleanup for an adopted helper the test did not get to end itself."""
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def read_line(fd: int, timeout: float = DEADLINE) -> bytes:
    """One line from the guard's non-blocking stdout, without waiting for EOF."""
    deadline = time.monotonic() + timeout
    line = bytearray()
    while not line.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            pytest.fail(f"no full line within {timeout}s; read so far: {bytes(line)!r}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        try:
            byte = os.read(fd, 1)
        except BlockingIOError:
            continue
        if not byte:
            pytest.fail(f"EOF before a full line; read so far: {bytes(line)!r}")
        line += byte
    return bytes(line)


def read_helper_pid(guard: CaptureGuard) -> int:
    assert guard.stdout is not None
    pid = int(read_line(guard.stdout))
    assert pid_exists(pid)
    return pid


# --- how the capture is started ---------------------------------------------------------


def test_capture_leads_its_own_process_group_and_session(groups: list[int]) -> None:
    async def scenario() -> tuple[int, int, int]:
        async with CaptureGuard(sh("exit 0")) as guard:
            groups.append(guard.pid)
            return guard.pid, os.getpgid(guard.pid), os.getsid(guard.pid)

    pid, pgid, sid = asyncio.run(scenario())
    assert pgid == pid
    assert sid == pid
    assert pgid != os.getpgrp()


def test_capture_reads_dev_null_not_our_stdin(groups: list[int]) -> None:
    # Give this process a pipe as stdin for the test: a capture that inherited our fd 0
    # instead of getting /dev/null would then report a pipe.
    saved = os.dup(0)
    pipe_r, pipe_w = os.pipe()
    os.dup2(pipe_r, 0)

    async def scenario() -> bytes:
        async with CaptureGuard(sh("readlink /proc/$$/fd/0")) as guard:
            groups.append(guard.pid)
            return await guard.read_stdout(4096)

    try:
        output = asyncio.run(scenario())
    finally:
        os.dup2(saved, 0)
        for fd in (saved, pipe_r, pipe_w):
            os.close(fd)
    assert output == b"/dev/null\n"


def test_read_stdout_returns_what_the_capture_printed(groups: list[int]) -> None:
    async def scenario() -> tuple[bytes, str]:
        async with CaptureGuard(sh("readlink /proc/$$/fd/1; echo hello; printf world")) as guard:
            groups.append(guard.pid)
            assert guard.stdout is not None
            ours = os.readlink(f"/proc/self/fd/{guard.stdout}")
            return await guard.read_stdout(4096), ours

    output, our_end = asyncio.run(scenario())
    their_end, rest = output.split(b"\n", 1)
    assert their_end.decode() == our_end  # the same pipe: pipe:[inode]
    assert our_end.startswith("pipe:")
    assert rest == b"hello\nworld"


def test_missing_program_raises_file_not_found_naming_it_and_starts_nothing(
    groups: list[int],
) -> None:
    # A bare name fails in the PATH search, a path in posix_spawn itself: both must say
    # which program, and leave no child (not even a zombie) behind.
    before = set(children_of(os.getpid()))

    async def scenario(program: str) -> None:
        async with CaptureGuard(Command(program, env=BASE_ENV)) as guard:
            groups.append(guard.pid)
            pytest.fail(f"{program} was started as {guard.pid}")

    for program in ("termhost-no-such-program", "/nonexistent/termhost-no-such-program"):
        with pytest.raises(FileNotFoundError) as raised:
            asyncio.run(scenario(program))
        assert raised.value.filename == program
        assert program in str(raised.value)
    assert set(children_of(os.getpid())) - before == set()


# --- cleanup while armed ----------------------------------------------------------------


def test_error_inside_the_block_kills_the_helpers_and_reaps_the_leader(
    groups: list[int],
) -> None:
    seen: dict[str, int] = {}

    async def scenario() -> None:
        async with CaptureGuard(sh(f"{HELPER}; exit 3")) as guard:
            groups.append(guard.pid)
            seen["leader"] = guard.pid
            seen["helper"] = read_helper_pid(guard)
            raise Boom

    with pytest.raises(Boom):
        asyncio.run(scenario())
    wait_until(lambda: not pid_exists(seen["helper"]), what="the helper to be killed")
    assert process_state(seen["leader"]) is None


LADDER = """\
sleep 100 >/dev/null & echo hup $!
sh -c 'trap "" HUP; echo term $$; exec sleep 100 >/dev/null' &
sh -c 'trap "" HUP TERM; echo kill $$; exec sleep 100 >/dev/null' &
sleep 100 >/dev/null & echo stopped $!
exit 0
"""
"""Members that end on SIGHUP, on SIGTERM, on SIGKILL only, and one the test stops, each
named once it is ready (a trap set); the leader leaves them to us, so that we, not it,
reap them and learn what they died of."""


def test_ending_the_group_asks_with_sighup_then_sigterm_and_kills_only_what_is_left(
    groups: list[int],
) -> None:
    # Each member's death signal is the first the guard sent that it does not ignore: a
    # cleanup trap gets its chance, and SIGKILL reaches only what refused both. The
    # stopped one dies of SIGHUP too: the SIGCONT after it woke it to take it.
    seen: dict[str, int] = {}
    try:
        with adopting_orphans():

            async def scenario() -> None:
                async with CaptureGuard(sh(LADDER), grace=1.0) as guard:
                    groups.append(guard.pid)
                    assert guard.stdout is not None
                    for _ in range(4):
                        name, pid = read_line(guard.stdout).decode().split()
                        seen[name] = int(pid)
                    await guard.wait_for_exit()
                    os.kill(seen["stopped"], signal.SIGSTOP)
                    wait_until(lambda: process_state(seen["stopped"]) == "T",
                               what="the member to stop")
                    raise Boom

            with pytest.raises(Boom):
                asyncio.run(scenario())
            died = {}
            for name in list(seen):
                _, status = os.waitpid(seen.pop(name), 0)  # adopted: the leader is gone
                died[name] = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    finally:
        for pid in seen.values():
            reap_adopted(pid)
    assert died == {"hup": signal.SIGHUP, "term": signal.SIGTERM, "kill": signal.SIGKILL,
                    "stopped": signal.SIGHUP}


def test_cancelled_while_the_group_has_its_grace_what_is_left_is_killed_at_once(
    groups: list[int],
) -> None:
    seen: dict[str, int] = {}

    async def capture() -> None:
        # The leader ends on SIGHUP; its helper ignores it and SIGTERM, so the guard
        # would wait out its (long) grace for it.
        script = "sh -c 'trap \"\" HUP TERM; echo $$; exec sleep 100 >/dev/null' & sleep 100"
        async with CaptureGuard(sh(script), grace=1000) as guard:
            groups.append(guard.pid)
            seen["leader"] = guard.pid
            seen["helper"] = read_helper_pid(guard)
            raise Boom

    async def scenario() -> None:
        task = asyncio.create_task(capture())
        await eventually(lambda: process_state(seen.get("leader", 0)) == "Z",
                         what="the leader to end on SIGHUP")
        assert not task.done()  # the guard is waiting for the helper
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    wait_until(lambda: not group_members(seen["leader"]), what="the capture group to be empty")
    assert process_state(seen["leader"]) is None


def test_leader_stays_an_unreaped_zombie_while_the_guard_is_armed(groups: list[int]) -> None:
    async def scenario() -> tuple[int, list[tuple[ExitStatus, str | None]]]:
        async with CaptureGuard(sh("exit 0")) as guard:
            groups.append(guard.pid)
            seen = []
            # Asking twice must not reap it either (and nothing in the background may).
            for _ in range(2):
                status = await guard.wait_for_exit()
                seen.append((status, process_state(guard.pid)))
            return guard.pid, seen

    leader, seen = asyncio.run(scenario())
    assert seen == [(ExitStatus(code=0), "Z"), (ExitStatus(code=0), "Z")]
    assert process_state(leader) is None  # reaped on close


def test_timeout_kills_the_whole_group_and_reaps_the_leader(groups: list[int]) -> None:
    seen: dict[str, int] = {}

    async def capture() -> None:
        async with CaptureGuard(sh(f"{HELPER}; sleep 100")) as guard:
            groups.append(guard.pid)
            seen["leader"] = guard.pid
            seen["helper"] = read_helper_pid(guard)
            await guard.wait_for_exit()

    async def scenario() -> None:
        await asyncio.wait_for(capture(), 0.2)

    with pytest.raises(TimeoutError):
        asyncio.run(scenario())
    wait_until(lambda: not group_members(seen["leader"]), what="the capture group to be empty")
    assert not pid_exists(seen["helper"])
    assert process_state(seen["leader"]) is None


def test_cancelling_the_capture_kills_the_group_reaps_the_leader_and_propagates(
    groups: list[int],
) -> None:
    seen: dict[str, int] = {}

    async def capture(waiting: asyncio.Event) -> None:
        async with CaptureGuard(sh(f"{HELPER}; sleep 100")) as guard:
            groups.append(guard.pid)
            seen["leader"] = guard.pid
            seen["helper"] = read_helper_pid(guard)
            waiting.set()  # this task runs on into wait_for_exit before anyone resumes
            await guard.wait_for_exit()

    async def scenario() -> None:
        waiting = asyncio.Event()
        task = asyncio.create_task(capture(waiting))
        await waiting.wait()
        assert not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    wait_until(lambda: not group_members(seen["leader"]), what="the capture group to be empty")
    assert not pid_exists(seen["helper"])
    assert process_state(seen["leader"]) is None


def test_output_over_the_limit_raises_output_too_large_and_kills_the_group(
    groups: list[int],
) -> None:
    seen: dict[str, int] = {}

    async def scenario() -> None:
        async with CaptureGuard(sh(f"{HELPER}; exec yes")) as guard:
            groups.append(guard.pid)
            seen["leader"] = guard.pid
            seen["helper"] = read_helper_pid(guard)
            await guard.read_stdout(4096)

    with pytest.raises(OutputTooLarge):
        asyncio.run(scenario())
    wait_until(lambda: not group_members(seen["leader"]), what="the capture group to be empty")
    assert not pid_exists(seen["helper"])
    assert process_state(seen["leader"]) is None


# --- disarmed: helpers survive ----------------------------------------------------------


def test_preserve_helpers_after_a_good_capture_lets_the_helpers_live(
    groups: list[int],
) -> None:
    seen: dict[str, int] = {}
    statuses: list[ExitStatus] = []
    try:
        with adopting_orphans():

            async def scenario() -> None:
                async with CaptureGuard(sh(f"{HELPER}; exit 3")) as guard:
                    groups.append(guard.pid)
                    seen["leader"] = guard.pid
                    seen["helper"] = read_helper_pid(guard)
                    statuses.append(await guard.wait_for_exit())
                    guard.preserve_helpers()

            asyncio.run(scenario())
            assert statuses == [ExitStatus(code=3)]
            assert process_state(seen["leader"]) is None
            assert pid_exists(seen["helper"])
            # It dies of our SIGTERM, so no SIGKILL reached it before.
            assert end_adopted(seen.pop("helper")) == signal.SIGTERM
    finally:
        reap_adopted(seen.get("helper"))


def test_leader_reaped_behind_the_guards_back_raises_echild_and_signals_nothing(
    groups: list[int],
) -> None:
    seen: dict[str, int] = {}
    try:
        with adopting_orphans():

            async def scenario() -> None:
                async with CaptureGuard(sh(HELPER)) as guard:
                    groups.append(guard.pid)
                    seen["leader"] = guard.pid
                    seen["helper"] = int(await guard.read_stdout(4096))
                    wait_until(lambda: process_state(guard.pid) == "Z", what="the leader to exit")
                    os.waitpid(guard.pid, 0)  # someone else reaps it: its id may be reused
                    with pytest.raises(ChildProcessError):
                        await guard.wait_for_exit()

            asyncio.run(scenario())
            # Still in the dead leader's group: a killpg on close would have reached it.
            assert os.getpgid(seen["helper"]) == seen["leader"]
            assert pid_exists(seen["helper"])
            assert end_adopted(seen.pop("helper")) == signal.SIGTERM
    finally:
        reap_adopted(seen.get("helper"))


# --- exit status ------------------------------------------------------------------------


def run_capture(command: Command, groups: list[int]) -> ExitStatus:
    async def scenario() -> ExitStatus:
        async with CaptureGuard(command) as guard:
            groups.append(guard.pid)
            return await guard.wait_for_exit()

    return asyncio.run(scenario())


def test_exit_code_is_reported_as_code_returncode_and_wait_status(groups: list[int]) -> None:
    status = run_capture(sh("exit 7"), groups)
    assert status == ExitStatus(code=7)
    assert status.returncode == 7
    assert os.WIFEXITED(status.wait_status)
    assert os.WEXITSTATUS(status.wait_status) == 7


def test_killed_capture_is_reported_as_the_signal_without_core(groups: list[int]) -> None:
    status = run_capture(sh("kill -KILL $$"), groups)
    assert status == ExitStatus(signal=signal.SIGKILL, core_dumped=False)
    assert status.returncode == -signal.SIGKILL
    assert os.WIFSIGNALED(status.wait_status)
    assert os.WTERMSIG(status.wait_status) == signal.SIGKILL
    assert not os.WCOREDUMP(status.wait_status)


def test_core_dumping_capture_is_reported_as_the_signal_with_core(
    groups: list[int], tmp_path: Path
) -> None:
    status = run_capture(sh("ulimit -c unlimited; kill -SEGV $$", cwd=str(tmp_path)), groups)
    assert status.signal == signal.SIGSEGV
    assert os.WIFSIGNALED(status.wait_status)
    assert os.WTERMSIG(status.wait_status) == signal.SIGSEGV
    pattern = Path("/proc/sys/kernel/core_pattern").read_text().strip()
    # A pattern starting with `|` hands the dump to a program (systemd-coredump, apport),
    # which may refuse it, and then the kernel reports a plain kill: only a pattern that
    # names a file makes the dump (and so CLD_DUMPED) certain.
    if not pattern.startswith("|"):
        assert status.core_dumped
        assert os.WCOREDUMP(status.wait_status)
        if "/" not in pattern:  # relative to the dumping process's cwd
            assert [p.name for p in tmp_path.iterdir() if p.name.startswith("core")]


def test_capture_starts_in_the_cwd_given_with_no_signal_ignored(
    groups: list[int], tmp_path: Path
) -> None:
    async def scenario() -> bytes:
        async with CaptureGuard(sh("pwd; grep SigIgn /proc/$$/status", cwd=str(tmp_path))) as g:
            groups.append(g.pid)
            return await g.read_stdout(4096)

    # pytest ignores SIGPIPE and SIGXFSZ (CPython does): a capture shell must not inherit it.
    assert signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN
    assert asyncio.run(scenario()) == f"{tmp_path}\nSigIgn:\t0000000000000000\n".encode()
