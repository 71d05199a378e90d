"""The helper's side of the control-socket protocol, spoken by hand to a real helper."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys

import pytest

from termhost.process import _helper

HELPER_FILE = _helper.__file__


def start_helper(*fields: str) -> tuple[subprocess.Popen[bytes], socket.socket, int]:
    """Start the helper on a socketpair; returns it, our end, and the fd number it got."""
    ours, theirs = socket.socketpair()
    fd = theirs.fileno()
    helper = subprocess.Popen(
        [sys.executable, "-I", "-S", HELPER_FILE, _helper.MARKER, str(fd), str(os.getpid()),
         *fields],
        pass_fds=[fd], env={}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    theirs.close()
    return helper, ours, fd


def report_after(ours: socket.socket, payload: bytes) -> bytes:
    try:
        ours.sendall(payload)
    except BrokenPipeError:
        pass  # the helper refused early; its report is still there to read
    ours.settimeout(10)
    report = b""
    try:
        while chunk := ours.recv(16):
            report += chunk
    except ConnectionResetError:
        # The helper exited with our bytes unread: Linux hands over what it wrote first,
        # then the reset instead of EOF. The launcher reads it the same way.
        pass
    ours.close()
    return report


def environment(*entries: bytes) -> bytes:
    block = b"".join(entry + b"\0" for entry in entries)
    return len(block).to_bytes(4, "little") + block


def errno_report(code: int) -> bytes:
    return _helper.REPORT_PREFIX + code.to_bytes(4, "little", signed=True)


def test_success_is_the_prefix_then_eof_and_the_target_runs() -> None:
    helper, ours, _ = start_helper("pipe", "", ".", "sh", "sh", "-c", "echo $GREETING")
    report = report_after(ours, environment(b"GREETING=hi", b"PATH=/usr/bin:/bin"))
    out, err = helper.communicate(timeout=10)
    assert report == _helper.REPORT_PREFIX
    assert (out, err, helper.returncode) == (b"hi\n", b"", 0)


@pytest.mark.parametrize(
    ("fields", "payload", "code"),
    [
        (("tty", "", ".", "true", "true"), environment(), errno.EINVAL),  # no such mode
        (("pipe", "x,y", ".", "true", "true"), environment(), errno.EINVAL),  # kept fds
        (("pipe", "2", ".", "true", "true"), environment(), errno.EINVAL),  # stdio is not kept
        (("pipe", "", "."), environment(), errno.EINVAL),  # no program
        (("pipe", "", ".", "true", "true"), environment(b"NO_EQUALS"), errno.EINVAL),
        (("pipe", "", ".", "true", "true"), (8 * 1024 * 1024 + 1).to_bytes(4, "little"),
         errno.E2BIG),
        (("pipe", "99", ".", "true", "true"), environment(), errno.EBADF),  # kept fd not open
        (("pipe", "", "/nonexistent", "true", "true"), environment(b"PATH=/bin"), errno.ENOENT),
        (("pipe", "", ".", "/", "/"), environment(), errno.EACCES),
    ],
)
def test_a_failure_is_reported_as_prefix_and_errno_and_exit_127(
    fields: tuple[str, ...], payload: bytes, code: int
) -> None:
    helper, ours, _ = start_helper(*fields)
    report = report_after(ours, payload)
    out, err = helper.communicate(timeout=10)
    assert report == errno_report(code)
    assert helper.returncode == _helper.EXIT_FAILED
    assert (out, err) == (b"", b"")  # never a word: argv and env may hold secrets


def test_a_truncated_environment_is_reported_and_nothing_runs() -> None:
    helper, ours, _ = start_helper("pipe", "", ".", "sh", "sh", "-c", "echo ran")
    ours.sendall((100).to_bytes(4, "little") + b"A=1\0")
    ours.shutdown(socket.SHUT_WR)  # the parent went away mid-transfer
    report = report_after(ours, b"")
    out, _ = helper.communicate(timeout=10)
    assert report == errno_report(errno.EPIPE)
    assert out == b""
    assert helper.returncode == _helper.EXIT_FAILED


def test_without_a_usable_control_fd_it_exits_127_silently() -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-S", HELPER_FILE, _helper.MARKER, "42", "1", "pipe"],
        env={}, capture_output=True, timeout=10,
    )
    assert (done.returncode, done.stdout, done.stderr) == (_helper.EXIT_FAILED, b"", b"")


def test_a_dead_parent_pid_means_the_helper_ends_itself() -> None:
    # argv names a parent that is not ours: PR_SET_PDEATHSIG came too late, so SIGTERM.
    ours, theirs = socket.socketpair()
    fd = theirs.fileno()
    helper = subprocess.Popen(
        [sys.executable, "-I", "-S", HELPER_FILE, _helper.MARKER, str(fd), "1", "pipe", "",
         ".", "sh", "sh", "-c", "echo ran"],
        pass_fds=[fd], env={}, stdout=subprocess.PIPE,
    )
    theirs.close()
    report = report_after(ours, environment())
    out, _ = helper.communicate(timeout=10)
    assert report == b""  # no report at all: to the parent, the helper died before setup
    assert out == b""
    assert helper.returncode == -15
