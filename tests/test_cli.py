"""The command line as a user meets it: a real `termhost` process, its output, its status."""

from __future__ import annotations

import subprocess
import sys

from termhost import __version__


def termhost(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "termhost", *args], capture_output=True, text=True, timeout=30
    )


def test_version_prints_the_version() -> None:
    for flag in ("--version", "-V"):
        done = termhost(flag)
        assert (done.returncode, done.stdout) == (0, f"termhost {__version__}\n")


def test_no_arguments_opens_a_session_and_needs_a_terminal_for_it() -> None:
    done = termhost()
    assert (done.returncode, done.stderr) == (
        1, "termhost: open terminal failed: not a terminal\n"
    )


def test_attaching_inside_a_pane_refuses_to_nest(tmp_path: object) -> None:
    # As tmux's server_client_check_nested: refused from a pane of the same server (a
    # pane of another server may attach; regress am-terminal runs one inside another).
    import os
    import pty

    socket = f"{tmp_path}/termhost-{os.getuid()}/default"
    env = {**os.environ, "TERMHOST": f"{socket},1,0", "TERMHOST_TMPDIR": str(tmp_path)}
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(sys.executable, [sys.executable, "-m", "termhost", "new"], env)
    output = b""
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 1
    assert b"sessions should be nested with care, unset $TERMHOST to force" in output


def test_an_unknown_verb_is_a_one_line_usage_error() -> None:
    done = termhost("frobnicate")
    assert (done.returncode, done.stderr) == (
        2, "termhost: unknown command: frobnicate (try 'termhost --help')\n"
    )


def test_an_unknown_option_is_a_one_line_usage_error() -> None:
    done = termhost("--frobnicate")
    assert done.returncode == 2
    assert done.stderr.startswith("termhost: ")
    assert done.stderr.count("\n") == 1


def test_the_console_script_is_installed() -> None:
    import shutil

    script = shutil.which("termhost", path=str(__import__("pathlib").Path(sys.executable).parent))
    assert script is not None
    done = subprocess.run([script, "-V"], capture_output=True, text=True, timeout=30)
    assert done.stdout == f"termhost {__version__}\n"
