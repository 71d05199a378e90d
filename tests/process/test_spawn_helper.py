"""The spawn helper, as the original's tests describe it: real helpers, real targets."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import signal
import subprocess
import sys
from collections.abc import Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest

from termhost.process import (
    Child,
    Command,
    ExitStatus,
    HelperProgram,
    Setup,
    spawn,
    spawn_in_pty,
)
from termhost.process.helper import spawn_with_helper
from tests.conftest import (
    BASE_ENV,
    children_of,
    eventually,
    pid_exists,
    process_state,
    read_to_eof,
)

PROGRAMS = Path(__file__).parent / "programs"
REPO = Path(__file__).resolve().parents[2]
T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


async def launch_and_read(
    command: Command, setup: Setup = Setup.PIPE, **kwargs: Any
) -> tuple[Child, ExitStatus, bytes]:
    """Spawn with stdout (and stderr) on a pipe; return (child, status, output)."""
    read_end, write_end = os.pipe()
    try:
        stderr = command.stderr if command.stderr is not None else write_end
        child = await spawn(replace(command, stdout=write_end, stderr=stderr), setup, **kwargs)
    finally:
        os.close(write_end)
    try:
        output = await asyncio.get_running_loop().run_in_executor(None, read_to_eof, read_end)
    finally:
        os.close(read_end)
    return child, await child.wait(), output


def paused_helper(tmp_path: Path, phase: str) -> HelperProgram:
    """A HelperProgram whose helper stops itself (SIGSTOP) at `phase`."""
    script = tmp_path / f"helper_{phase}.py"
    script.write_text(
        f"PHASE = {phase!r}\n"
        f"HELPER = {str(REPO / 'termhost/process/_helper.py')!r}\n"
        f"exec(open({str(PROGRAMS / 'paused_helper.py')!r}).read())\n"
    )
    return HelperProgram(script=str(script))


def helper_children(script: str) -> list[int]:
    """Our children that run the given helper script."""
    found = []
    for pid in children_of(os.getpid()):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except FileNotFoundError:
            continue
        if script.encode() in cmdline:
            found.append(pid)
    return found


def test_cwd_env_arg0_and_exit_status_reach_the_target(tmp_path: Path) -> None:
    command = Command(
        "sh",
        ["-c", 'pwd; echo "$GREETING"; exit 7'],
        env={**BASE_ENV, "GREETING": "hello there"},
        cwd=str(tmp_path),
    )
    child, status, output = run(launch_and_read(command))
    assert child.launcher == "helper"
    assert output.decode().splitlines() == [str(tmp_path), "hello there"]
    assert status.code == 7


def test_arg0_is_what_the_caller_chose_and_empty_arguments_survive() -> None:
    command = Command("cat", ["/proc/self/cmdline", ""], env=BASE_ENV, argv0="my-cat")
    child, status, output = run(launch_and_read(command))
    # cat reads "" as a file name and fails on it, after printing its own cmdline.
    assert output.split(b"\0")[:3] == [b"my-cat", b"/proc/self/cmdline", b""]
    assert status.code == 1
    assert child.launcher == "helper"


def test_stdin_stdout_and_stderr_are_the_fds_given() -> None:
    async def scenario() -> tuple[bytes, bytes, int]:
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        os.write(in_w, b"through stdin\n")
        os.close(in_w)
        command = Command(
            "sh", ["-c", "cat; echo to-stderr >&2"], env=BASE_ENV,
            stdin=in_r, stdout=out_w, stderr=err_w,
        )
        child = await spawn(command)
        for fd in (in_r, out_w, err_w):
            os.close(fd)
        status = await child.wait()
        out, err = read_to_eof(out_r), read_to_eof(err_r)
        os.close(out_r)
        os.close(err_r)
        return out, err, status.code or 0

    out, err, code = run(scenario())
    assert (out, err, code) == (b"through stdin\n", b"to-stderr\n", 0)


def test_missing_program_is_enoent_from_the_helper_not_a_fallback() -> None:
    with pytest.raises(FileNotFoundError) as raised:
        run(spawn_with_helper(Command("no-such-program-here", env=BASE_ENV), Setup.PIPE))
    assert raised.value.errno == errno.ENOENT
    assert raised.value.filename == "no-such-program-here"


def test_missing_cwd_is_enoent_naming_the_directory(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone")
    with pytest.raises(FileNotFoundError) as raised:
        run(spawn_with_helper(Command("true", env=BASE_ENV, cwd=missing), Setup.PIPE))
    assert raised.value.errno == errno.ENOENT
    assert raised.value.filename == missing


def test_a_directory_as_program_is_eacces() -> None:
    with pytest.raises(PermissionError) as raised:
        run(spawn_with_helper(Command("/", env=BASE_ENV), Setup.PIPE))
    assert raised.value.errno == errno.EACCES


def test_loader_and_python_variables_do_not_disturb_the_helper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # In our own environment: the helper starts with an empty one, so it never sees them.
    monkeypatch.setenv("LD_TRACE_LOADED_OBJECTS", "1")
    monkeypatch.setenv("PYTHONHOME", "/nonexistent")
    monkeypatch.setenv("PYTHONPATH", "/nonexistent")
    # In the target's: sh gets them (the loader then lists libraries instead of running
    # sh), but the helper, which runs before exec, must not.
    command = Command(
        "sh", ["-c", "echo ran"],
        env={**BASE_ENV, "LD_TRACE_LOADED_OBJECTS": "1", "PYTHONHOME": "/nonexistent"},
    )
    child, status, output = run(launch_and_read(command))
    assert child.launcher == "helper"
    assert b"libc.so" in output
    assert status.code == 0


def test_a_large_environment_crosses_the_socket() -> None:
    env = {**BASE_ENV, **{f"BIG_{i}": chr(ord("a") + i) * 8192 for i in range(8)}}
    child, status, output = run(launch_and_read(Command("cat", ["/proc/self/environ"], env=env)))
    assert child.launcher == "helper"
    entries = output.split(b"\0")[:-1]
    assert sorted(entries) == sorted(f"{k}={v}".encode() for k, v in env.items())
    assert status.code == 0


def test_only_the_requested_fds_are_inherited() -> None:
    kept_r, kept_w = os.pipe()
    stray_r, stray_w = os.pipe()
    os.set_inheritable(stray_r, True)  # even an inheritable fd of ours must not leak
    os.set_inheritable(stray_w, True)

    async def scenario() -> set[int]:
        # Read once the program runs its own code: before, the loader may hold fd 3.
        child = await spawn(Command("sh", ["-c", "kill -STOP $$"], env=BASE_ENV,
                                    keep_fds=[kept_w]))
        try:
            await eventually(lambda: process_state(child.pid) == "T", what="sh to stop")
            return {int(fd) for fd in os.listdir(f"/proc/{child.pid}/fd")}
        finally:
            child.kill()
            await child.wait()

    try:
        fds = run(scenario())
    finally:
        for fd in (kept_r, kept_w, stray_r, stray_w):
            os.close(fd)
    assert fds == {0, 1, 2, kept_w}


def test_target_killing_itself_with_sigterm_reports_that_signal() -> None:
    child, status, _ = run(launch_and_read(Command("sh", ["-c", "kill -TERM $$"], env=BASE_ENV)))
    assert status.signal == signal.SIGTERM
    assert status.returncode == -signal.SIGTERM
    assert child.launcher == "helper"


def test_pty_mode_gives_a_terminal_on_0_1_2_and_a_writable_dev_tty() -> None:
    async def scenario() -> tuple[bytes, int]:
        command = Command(
            "sh", ["-c", "test -t 0 && test -t 1 && test -t 2 && echo via-tty > /dev/tty"],
            env=BASE_ENV,
        )
        child, master = await spawn_in_pty(command)
        try:
            output = await asyncio.get_running_loop().run_in_executor(None, read_to_eof, master)
        finally:
            os.close(master)
        return output, (await child.wait()).returncode

    output, code = run(scenario())
    assert (output, code) == (b"via-tty\r\n", 0)


@pytest.mark.parametrize("mode", ["pipe", "pty"])
def test_target_dies_when_the_parent_is_killed(mode: str) -> None:
    parent = subprocess.Popen(
        [sys.executable, str(PROGRAMS / "parent.py"), mode, "sleep", "1000"],
        stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    target = 0
    try:
        assert parent.stdout is not None
        target_text, launcher = parent.stdout.readline().decode().split()
        target = int(target_text)
        assert launcher == "helper"
        target_fd = os.pidfd_open(target)  # holds on to *this* process, whoever reaps it
        assert pid_exists(target)
        parent.kill()
        parent.wait()
        import select

        readable, _, _ = select.select([target_fd], [], [], 5.0)
        os.close(target_fd)
        assert readable, "the target outlived its parent by more than 5 s"
    finally:
        parent.kill()
        parent.wait()
        if target and pid_exists(target):
            os.kill(target, signal.SIGKILL)


@pytest.mark.parametrize("setup", [Setup.PIPE, Setup.PTY])
def test_parent_death_signal_is_set_in_the_target(setup: Setup) -> None:
    # In pty mode the hangup of a dead parent's PTY would also end the child; the
    # parent-death signal must be there all the same (a pane whose PTY is held elsewhere).
    probe = (
        "import ctypes; v = ctypes.c_int(); "
        "ctypes.CDLL(None).prctl(2, ctypes.byref(v)); print(v.value)"  # PR_GET_PDEATHSIG
    )
    command = Command(sys.executable, ["-c", probe], env={})
    if setup is Setup.PTY:
        async def in_pty() -> tuple[Child, ExitStatus, bytes]:
            child, master = await spawn_in_pty(command)
            try:
                output = await asyncio.get_running_loop().run_in_executor(
                    None, read_to_eof, master
                )
            finally:
                os.close(master)
            return child, await child.wait(), output

        child, status, output = run(in_pty())
    else:
        child, status, output = run(launch_and_read(command))
    assert child.launcher == "helper"
    assert output.decode().strip() == str(int(signal.SIGTERM))
    assert status.code == 0


@pytest.mark.parametrize("phase", ["env", "report", "exec"])
def test_cancelling_at_each_phase_kills_and_reaps_the_helper(tmp_path: Path, phase: str) -> None:
    helper = paused_helper(tmp_path, phase)
    marker = tmp_path / "target-ran"
    # "env": an environment larger than the socket buffer, so the write is still pending.
    big = {f"V{i}": "x" * 65536 for i in range(64)} if phase == "env" else {}
    command = Command("sh", ["-c", f"touch {marker}"], env={**BASE_ENV, **big})

    async def scenario() -> int:
        task = asyncio.create_task(spawn_with_helper(command, Setup.PIPE, helper))
        pids = await eventually(lambda: helper_children(helper.script), what="the helper")
        pid = pids[0]
        await eventually(lambda: process_state(pid) == "T", what=f"the helper stopped at {phase}")
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await eventually(lambda: process_state(pid) is None, what="the helper reaped")
        return pid

    run(scenario())
    assert not marker.exists()


def test_a_helper_that_dies_before_acknowledging_leads_to_the_fallback(tmp_path: Path) -> None:
    helper = paused_helper(tmp_path, "die")
    child, status, output = run(
        launch_and_read(Command("sh", ["-c", "echo fallback ran"], env=BASE_ENV), helper=helper)
    )
    assert child.launcher == "direct"
    assert (output, status.code) == (b"fallback ran\n", 0)


@pytest.mark.parametrize("interpreter", ["/nonexistent/python3", "/bin/false"])
def test_bootstrap_failure_falls_back_to_a_direct_spawn(interpreter: str) -> None:
    helper = HelperProgram(interpreter=interpreter)
    child, status, output = run(
        launch_and_read(Command("sh", ["-c", "echo direct ran"], env=BASE_ENV), helper=helper)
    )
    assert child.launcher == "direct"
    assert (output, status.code) == (b"direct ran\n", 0)


def test_fds_0_and_1_closed_in_the_parent_still_work(tmp_path: Path) -> None:
    marker = tmp_path / "socket-case"
    done = subprocess.run(
        [sys.executable, str(PROGRAMS / "closed_stdio.py"), str(marker)],
        capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=30,
    )
    result = json.loads(done.stderr)
    assert result["socket_launcher"] == result["pipe_launcher"] == "helper"
    assert result["socket_output"] == "socket-ok\n"
    assert result["pipe_output"] == "from-stdin\npipe-ok\n"
    assert result["socket_status"] == result["pipe_status"] == 0


def test_descriptor_pressure_falls_back_to_a_direct_spawn() -> None:
    done = subprocess.run(
        [sys.executable, str(PROGRAMS / "fd_pressure.py")],
        capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=30,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout) == {"launcher": "direct", "status": 0, "output": "pressure-ok\n"}


def test_a_successful_launch_leaves_no_helper_behind() -> None:
    async def scenario() -> list[int]:
        child = await spawn(Command("sleep", ["30"], env=BASE_ENV))
        try:
            # the only child is the target itself: the helper became it by exec
            return [p for p in children_of(os.getpid()) if p == child.pid or
                    b"--termhost-run-as-process-setup" in Path(f"/proc/{p}/cmdline").read_bytes()]
        finally:
            child.kill()
            await child.wait()

    pids = run(scenario())
    assert len(pids) == 1
