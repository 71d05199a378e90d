"""`termhost record`: real programs on real PTYs, recorded as a user (or CI) would.

The interactive cases run the recorder inside a PTY of ours (tests/ui/outer.py), so that
it sees a terminal: raw mode, keys relayed, SIGWINCH followed. The others run it with no
terminal at all, as in CI.
"""

from __future__ import annotations

import asyncio
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from termhost.process import Command, set_window_size, spawn_in_pty
from termhost.record.asciicast import Event, EventCode, open_reader, output_bytes
from tests.conftest import DEADLINE, eventually, pid_exists, wait_until
from tests.ui.outer import Outer, client, termhost

COLOUR_AND_SPLIT_UTF8 = r"""
import os, signal, tty
tty.setraw(1)  # no output processing: the file must hold exactly these bytes
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGWINCH})
os.write(1, b"\x1b[1;31mred\x1b[0m caf\xc3")
signal.sigwait({signal.SIGWINCH})
cols, rows = os.get_terminal_size(1)
os.write(1, b"\xa9 \xf0\x9f\x98\x80 %dx%d\r\n" % (cols, rows))
"""
"""Colour, then a character cut in two by a pause that lasts until the terminal is resized."""

EXPECTED = b"\x1b[1;31mred\x1b[0m caf\xc3\xa9 \xf0\x9f\x98\x80 100x30\r\n"

READ_A_LINE_RAW = r"""
import os, tty
tty.setraw(0)
os.write(1, b"ready\r\n")
data = b""
while not data.endswith(b"\r"):
    data += os.read(0, 100)
os.write(1, repr(data).encode() + b"\r\n")
"""


def record(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
           preexec_fn: Callable[[], None] | None = None) -> subprocess.CompletedProcess[str]:
    """`termhost record ARGS` with no terminal, as in CI."""
    return subprocess.run([sys.executable, "-m", "termhost", "record", *args],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, check=False, cwd=cwd, env=env, preexec_fn=preexec_fn)


def events_of(path: Path) -> list[Event]:
    with open_reader(path) as reader:
        return list(reader)


def codes(path: Path, code: EventCode) -> list[str]:
    return [event.data for event in events_of(path) if event.code is code]


def has_line(path: Path, text: str) -> bool:
    return path.exists() and text in path.read_text("utf-8", "replace")


def has_output(path: Path, data: bytes) -> bool:
    """Whether the program's output so far holds `data` (the header's command may too)."""
    return path.exists() and data in output_bytes(events_of(path))


def asciinema_cat(path: Path, home: Path) -> bytes:
    """asciinema 2.4's `cat`: a new session (no /dev/tty to put in raw mode), a UTF-8
    locale, and a HOME of the test's for the install-id it writes."""
    cat = subprocess.run(
        [sys.executable, "-m", "asciinema", "cat", str(path)],
        stdin=subprocess.DEVNULL, capture_output=True, start_new_session=True, timeout=30,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
             "ASCIINEMA_CONFIG_HOME": str(home / "asciinema"), "LC_ALL": "C.UTF-8",
             "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert (cat.returncode, cat.stderr) == (0, b"")
    return cat.stdout


def assert_whole_lines(path: Path) -> None:
    content = path.read_bytes()
    assert content.endswith(b"\n") and b"\n\n" not in content, "a blank line stops asciinema 2"


def test_records_split_utf8_colour_and_a_resize_as_a_user_sees_them(
    env: dict[str, str], tmp_path: Path,
) -> None:
    cast = tmp_path / "demo.cast"

    async def scenario() -> None:
        outer = await client(env, "record", "-o", str(cast), "--",
                             sys.executable, "-c", COLOUR_AND_SPLIT_UTF8, cols=80, rows=24)
        await eventually(lambda: has_output(cast, b"caf"), what="the first write in the file")
        await outer.see(lambda screen: any("red caf" in line for line in screen),
                        "the output shown live")
        set_window_size(outer.master, 100, 30)
        status = await asyncio.wait_for(outer.child.wait(), DEADLINE)
        assert status.code == 0
        await outer.see(lambda screen: any("café" in line and "100x30" in line
                                           for line in screen), "the rest shown")
        outer.close()

    asyncio.run(scenario())
    assert_whole_lines(cast)
    with open_reader(cast) as reader:
        assert (reader.header.cols, reader.header.rows) == (80, 24)
        events = list(reader)
    assert output_bytes(events) == EXPECTED
    assert [event.data for event in events if event.code is EventCode.RESIZE] == ["100x30"]
    assert asciinema_cat(cast, tmp_path) == EXPECTED


def test_input_is_recorded_and_c_backslash_m_adds_a_marker(
    env: dict[str, str], tmp_path: Path,
) -> None:
    cast = tmp_path / "keys.cast"

    async def scenario() -> None:
        outer = await client(env, "record", "--input", "-o", str(cast), "--",
                             sys.executable, "-c", READ_A_LINE_RAW)
        await eventually(lambda: has_output(cast, b"ready"), what="the program ready")
        outer.type(b"\x1cm")
        await eventually(lambda: codes(cast, EventCode.MARKER) == [""], what="the marker")
        outer.type(b"hi\x1c\x1c\r")  # C-\ C-\: one C-\ for the program
        status = await asyncio.wait_for(outer.child.wait(), DEADLINE)
        assert status.code == 0
        outer.close()

    asyncio.run(scenario())
    assert "".join(codes(cast, EventCode.INPUT)) == "hi\x1c\r"
    assert b"'hi\\x1c\\r'" in output_bytes(events_of(cast))


def test_the_terminal_is_restored_after_an_exit_and_after_a_failure(
    env: dict[str, str], tmp_path: Path,
) -> None:
    """`stty -g` before and after, in the shell that ran the recorder; the second recording
    fails mid-way on a file size limit (`ulimit -f`, in 512-byte blocks)."""
    termhost_command = f"{sys.executable} -m termhost record"
    script = (
        f"stty -g; {termhost_command} -o ok.cast -- sh -c 'exit 3'; echo status=$?; stty -g; "
        f"ulimit -f 16; {termhost_command} -o big.cast -- sh -c 'while :; do echo x; done'; "
        "echo status=$?; stty -g; echo done"
    )

    async def scenario() -> None:
        command = Command("sh", ["-c", script], env=env, cwd=str(tmp_path))
        outer = Outer(*await spawn_in_pty(command), 80, 24)
        assert (await asyncio.wait_for(outer.child.wait(), DEADLINE)).code == 0
        await outer.see(lambda screen: "done" in screen, "the script's end")
        lines = outer.raw.decode().splitlines()
        outer.close()
        settings = [line for line in lines if line.count(":") > 10]
        assert len(settings) == 3 and len(set(settings)) == 1, lines
        assert [line for line in lines if line.startswith("status=")] == ["status=3",
                                                                           "status=1"]
        assert "termhost record: big.cast: File too large" in lines

    asyncio.run(scenario())


def test_what_termhost_says_after_an_unfinished_line_starts_a_line_of_its_own(
    env: dict[str, str], tmp_path: Path,
) -> None:
    """A program that ends without a newline, then one whose recording fails on a file
    size limit after a word without one: `recorded FILE` and the failure are each a line
    of their own, not the tail of the program's last word (the failure's message once
    came after half of a line of the flood above, the read having cut it in two)."""
    termhost_command = f"{sys.executable} -m termhost record"
    flood = "head -c 4000 /dev/zero | tr '\\0' y"
    script = (
        f"{termhost_command} -o part.cast -- printf unfinished; echo status=$?; "
        f"ulimit -f 1; {termhost_command} -o big.cast -- "
        f"sh -c \"stty -echo; printf cut; read line; {flood}\"; echo status=$?; echo done"
    )

    async def scenario() -> None:
        command = Command("sh", ["-c", script], env=env, cwd=str(tmp_path))
        outer = Outer(*await spawn_in_pty(command), 80, 24)
        await outer.see(lambda screen: any(line.startswith("cut") for line in screen),
                        "the second program's word")
        outer.type(b"\r")
        assert (await asyncio.wait_for(outer.child.wait(), DEADLINE)).code == 0
        await outer.see(lambda screen: "done" in screen, "the script's end")
        lines = outer.raw.decode().splitlines()
        outer.close()
        said = [line for line in lines if line.startswith(("termhost", "status"))]
        assert said[-5:] == [
            "termhost record: recorded part.cast", "status=0",
            "termhost record: recording to big.cast (C-\\ m adds a marker, C-\\ C-\\ sends "
            "C-\\; exit the program to stop)",
            "termhost record: big.cast: File too large", "status=1",
        ], lines
        assert "unfinished" in lines and "cut" in lines

    asyncio.run(scenario())


def test_the_exit_status_is_the_programs_and_v3_records_it(tmp_path: Path) -> None:
    done = record("--format", "v3", "-o", "exit.cast", "--", "sh", "-c", "echo bye; exit 3",
                  cwd=tmp_path)
    assert (done.returncode, done.stderr) == (3, "")
    events = events_of(tmp_path / "exit.cast")
    assert output_bytes(events) == b"bye\r\n"
    assert events[-1].code is EventCode.EXIT and events[-1].data == "3"


def test_without_a_terminal_the_size_is_cols_by_rows(tmp_path: Path) -> None:
    done = record("--cols", "132", "--rows", "43", "--title", "CI run", "-o", "ci.cast",
                  "--", "sh", "-c", "stty size", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with open_reader(tmp_path / "ci.cast") as reader:
        assert (reader.header.cols, reader.header.rows, reader.header.title) == (132, 43, "CI run")
        assert output_bytes(reader) == b"43 132\r\n"


def test_kill_9_of_the_recorder_leaves_a_readable_file(tmp_path: Path) -> None:
    cast = tmp_path / "killed.cast"
    recorder = subprocess.Popen(
        [sys.executable, "-m", "termhost", "record", "-o", str(cast), "--", sys.executable,
         "-c", "import itertools\nfor n in itertools.count(): print('line', n, 'é' * 50)"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        wait_until(lambda: has_line(cast, "line 2000"), what="a busy recording")
    finally:
        recorder.kill()
        recorder.wait(DEADLINE)
    content = cast.read_bytes()
    assert b"\n\n" not in content and not content.startswith(b"\n")
    events = events_of(cast)
    assert len(events) > 10 and all(event.code is EventCode.OUTPUT for event in events)
    assert output_bytes(events).startswith(b"line 0 " + "é".encode() * 50 + b"\r\nline 1 ")


def test_an_existing_recording_is_not_overwritten_unless_asked(tmp_path: Path) -> None:
    cast = tmp_path / "keep.cast"
    cast.write_text("precious\n")
    refused = record("-o", str(cast), "--", "true")
    assert refused.returncode == 1
    assert refused.stderr == (f"termhost record: {cast} exists; --overwrite replaces it, "
                              "--append continues it\n")
    assert cast.read_text() == "precious\n"
    assert record("--overwrite", "-o", str(cast), "--", "echo", "new").returncode == 0
    assert output_bytes(events_of(cast)) == b"new\r\n"


@pytest.mark.parametrize("version", ["v2", "v3"])
def test_append_continues_a_recording_after_its_last_event(tmp_path: Path, version: str) -> None:
    cast = tmp_path / "more.cast"
    assert record("--format", version, "-o", str(cast), "--", "echo", "one").returncode == 0
    first = events_of(cast)
    appended = record("--append", "--cols", "90", "-o", str(cast), "--", "echo", "two")
    assert (appended.returncode, appended.stderr) == (0, "")
    assert_whole_lines(cast)
    assert cast.read_text().count('"version"') == 1
    events = events_of(cast)
    assert output_bytes(events) == b"one\r\ntwo\r\n"
    assert [event.data for event in events if event.code is EventCode.RESIZE] == ["90x24"]
    times = [event.time for event in events]
    assert times == sorted(times) and times[len(first)] >= first[-1].time


def test_a_full_disk_is_one_line_and_the_program_never_runs(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    done = record("-o", "/dev/full", "--", "sh", "-c", f"echo $$ > {pid_file}; sleep 60")
    assert (done.returncode, done.stderr) == (1, "termhost record: /dev/full: "
                                                 "No space left on device\n")
    assert not pid_file.exists()


def test_a_write_failing_mid_way_ends_the_recording_and_kills_the_program(
    tmp_path: Path,
) -> None:
    """A file size limit makes the writes fail after the start, as a disk filling would."""
    cast, pid_file = tmp_path / "big.cast", tmp_path / "pid"
    flood = f"echo $$ > {pid_file}; while :; do echo flood flood flood; done"

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))

    done = record("-o", str(cast), "--", "sh", "-c", flood, preexec_fn=small_files)
    assert (done.returncode, done.stderr) == (1, f"termhost record: {cast}: File too large\n")
    pid = int(pid_file.read_text())
    wait_until(lambda: not pid_exists(pid), what=f"the recorded program {pid} gone")
    assert b"\n\n" not in cast.read_bytes()
    assert output_bytes(events_of(cast)).startswith(b"flood flood flood\r\n")


def test_a_program_that_cannot_start_is_one_line_and_leaves_no_file(tmp_path: Path) -> None:
    done = record("-o", "none.cast", "--", "no-such-program-here", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        1, "termhost record: no-such-program-here: No such file or directory\n")
    assert not (tmp_path / "none.cast").exists()


def test_a_missing_directory_is_one_line(tmp_path: Path) -> None:
    done = record("-o", str(tmp_path / "gone" / "x.cast"), "--", "true")
    assert (done.returncode, done.stderr) == (
        1, f"termhost record: {tmp_path}/gone/x.cast: No such file or directory\n")


def test_a_pane_of_a_running_session_is_recorded_until_stop(
    env: dict[str, str], tmp_path: Path,
) -> None:
    termhost(env, "new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sh")
    cast = tmp_path / "pane.cast"
    started = record("-t", "s", "-o", "pane.cast", cwd=tmp_path, env=env)
    assert (started.returncode, started.stderr) == (0, "")
    again = record("-t", "s", "-o", "other.cast", cwd=tmp_path, env=env)
    assert again.returncode == 1
    assert again.stderr.startswith("pane %0 is already being recorded to ")
    termhost(env, "send-keys", "-t", "s", "echo tapped-$((6*7))", "Enter")
    wait_until(lambda: has_output(cast, b"tapped-42\r\n"), what="the pane's output in the file")
    termhost(env, "resize-window", "-t", "s", "-x", "100", "-y", "30")
    wait_until(lambda: codes(cast, EventCode.RESIZE) == ["100x30"], what="the resize")
    stopped = record("--stop", "-t", "s", env=env)
    assert (stopped.returncode, stopped.stderr) == (0, "")
    termhost(env, "send-keys", "-t", "s", "echo after-the-$((1+1))", "Enter")
    wait_until(lambda: "after-the-2" in termhost(env, "capture-pane", "-p", "-t", "s"),
               what="the pane's output after the stop")
    assert_whole_lines(cast)
    assert b"tapped-42\r\n" in output_bytes(events_of(cast))
    assert not has_line(cast, "after-the")
    not_recording = record("--stop", "-t", "s", env=env)
    assert (not_recording.returncode, not_recording.stderr) == (
        1, "pane %0 is not being recorded\n")


def test_a_pane_recording_ends_with_the_pane_and_its_exit_status(
    env: dict[str, str], tmp_path: Path,
) -> None:
    termhost(env, "new-session", "-d", "-s", "s", "sh")
    cast = tmp_path / "ends.cast"
    assert record("-t", "s", "--format", "v3", "-o", str(cast), env=env).returncode == 0
    termhost(env, "send-keys", "-t", "s", "echo bye; exit 5", "Enter")
    wait_until(lambda: has_line(cast, '"x","5"'), what="the pane's exit in the file")
    assert b"bye\r\n" in output_bytes(events_of(cast))


def test_no_such_pane_is_tmuxs_message(env: dict[str, str], tmp_path: Path) -> None:
    termhost(env, "new-session", "-d", "-s", "s", "sh")
    done = record("-t", "%99", "-o", str(tmp_path / "x.cast"), env=env)
    assert (done.returncode, done.stderr) == (1, "can't find pane: %99\n")
    assert not (tmp_path / "x.cast").exists()


def test_usage_errors_are_one_line_exit_2(tmp_path: Path) -> None:
    done = record("--stop", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    done = record("-t", "s", "--input", cwd=tmp_path)
    assert done.returncode == 2 and "--input cannot go with it" in done.stderr
    done = record("--append", "--overwrite", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
