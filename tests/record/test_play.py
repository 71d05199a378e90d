"""Playing recordings back: `termhost cat`, `termhost play` and the timing core under them.

The core (termhost.record.player) is driven with a clock the test holds, so speed, idle
cutting, pausing, stepping and markers are checked without sleeping; the commands are run as
a user runs them, in a subprocess, and with a terminal, in a PTY.
"""

from __future__ import annotations

import asyncio
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from termhost.process import Command, spawn_in_pty
from termhost.record.asciicast import Event, EventCode, Header, writer_for
from termhost.record.player import At, Player, UnknownMarker, events_until, parse_at, timeline
from tests.conftest import BASE_ENV, DEADLINE, children_of, read_to_eof

OUT, MARK, SIZE = EventCode.OUTPUT, EventCode.MARKER, EventCode.RESIZE

PROGRAM_OUTPUT = b"\x1b[1;31mHello \x1b[0m\xe2\x82\xac\r\n$ ls\r\nREADME.md  src\r\n$ "

ASCIINEMA_2_4 = (
    # As asciinema 2.4.0's writer lays a file out: spaced separators, the env it captures,
    # times rounded to six decimals, characters as themselves, markers with an empty label.
    '{"version": 2, "width": 80, "height": 24, "timestamp": 1700000000, '
    '"idle_time_limit": 2.0, "env": {"SHELL": "/bin/bash", "TERM": "xterm-256color"}}\n'
    '[0.248848, "o", "\\u001b[1;31mHello \\u001b[0m€\\r\\n"]\n'
    '[1.001376, "o", "$ ls\\r\\n"]\n'
    '[1.500218, "m", ""]\n'
    '[1.502411, "r", "100x30"]\n'
    '[2.104731, "o", "README.md  src\\r\\n$ "]\n'
)


def write_cast(path: Path, version: int, *, markers: bool = True) -> Path:
    """A recording of PROGRAM_OUTPUT by termhost's writer, split across reads as a PTY would."""
    writer = writer_for(version, path, Header(80, 24, idle_time_limit=2.0))
    writer.output(PROGRAM_OUTPUT[:18], 0.25)  # ends inside the euro sign
    writer.output(PROGRAM_OUTPUT[18:26], 1.0)
    if markers:
        writer.marker("listing", 1.5)
    writer.output(PROGRAM_OUTPUT[26:], 2.1)
    writer.exit(0, 2.2)
    writer.close(2.2)
    return path


@pytest.fixture(params=["v2", "v3", "asciinema"])
def cast(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The same session written by termhost (v2, v3) and as asciinema 2.4.0 writes it."""
    path = tmp_path / f"{request.param}.cast"
    if request.param == "asciinema":
        path.write_text(ASCIINEMA_2_4, encoding="utf-8")
        return path
    return write_cast(path, int(request.param[1]))


def termhost(*args: str) -> subprocess.CompletedProcess[bytes]:
    """A `termhost` command with no terminal: stdin is /dev/null, as in CI."""
    return subprocess.run(
        [sys.executable, "-m", "termhost", *args],
        stdin=subprocess.DEVNULL, capture_output=True, timeout=30,
    )


def failure(*args: str) -> tuple[int, str]:
    done = termhost(*args)
    assert done.stdout == b""
    return done.returncode, done.stderr.decode()


# termhost cat


def test_cat_prints_exactly_the_bytes_the_program_wrote(cast: Path) -> None:
    done = termhost("cat", str(cast))
    assert (done.returncode, done.stdout, done.stderr) == (0, PROGRAM_OUTPUT, b"")


def test_cat_prints_what_a_killed_recorder_left(tmp_path: Path) -> None:
    path = write_cast(tmp_path / "killed.cast", 2)
    whole = path.read_bytes()
    path.write_bytes(whole[: whole.rindex(b"README") + 3])  # cut in the middle of a line
    done = termhost("cat", str(path))
    assert (done.returncode, done.stdout) == (0, PROGRAM_OUTPUT[:26])


def test_cat_failures_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    assert failure("cat", str(tmp_path / "missing.cast")) == (
        1, f"termhost cat: {tmp_path}/missing.cast: No such file or directory\n"
    )
    assert failure("cat", str(tmp_path / "notes.txt")) == (
        1, f"termhost cat: {tmp_path}/notes.txt:1: not an asciicast file (no JSON header object)\n"
    )


def test_cat_into_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    path = tmp_path / "big.cast"
    writer = writer_for(2, path, Header(80, 24))
    for number in range(2000):
        writer.output(b"x" * 1000 + b"\r\n", number / 1000)
    writer.close(2.0)
    with subprocess.Popen(
        [sys.executable, "-m", "termhost", "cat", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.read(10)
        process.stdout.close()
        assert process.wait(DEADLINE) == 0
        assert process.stderr.read() == b""


# The timing core


def events(*items: tuple[float, EventCode, str]) -> list[Event]:
    return [Event(*item) for item in items]


SESSION = events(
    (1.0, OUT, "a"), (1.5, OUT, "b"), (11.5, MARK, "build"), (12.0, OUT, "c"),
    (12.5, SIZE, "90x30"), (13.0, MARK, "test"), (14.0, OUT, "d"),
)


def played(steps_events: list[Event]) -> str:
    return "".join(event.data for event in steps_events if event.code is OUT)


def test_steps_keep_the_recorded_times_at_normal_speed() -> None:
    assert [step.at for step in timeline(SESSION)] == [1.0, 1.5, 11.5, 12.0, 12.5, 13.0, 14.0]


def test_speed_divides_every_gap() -> None:
    assert [step.at for step in timeline(SESSION, speed=2)] == [
        0.5, 0.75, 5.75, 6.0, 6.25, 6.5, 7.0
    ]


def test_the_idle_limit_cuts_long_pauses_before_the_speed_applies() -> None:
    assert [step.at for step in timeline(SESSION, idle_limit=2)] == [
        1.0, 1.5, 3.5, 4.0, 4.5, 5.0, 6.0
    ]
    assert [step.at for step in timeline(SESSION, speed=2, idle_limit=2)] == [
        0.5, 0.75, 1.75, 2.0, 2.25, 2.5, 3.0
    ]


def test_a_clock_that_stepped_back_is_no_gap() -> None:
    steps = timeline(events((2.0, OUT, "a"), (1.0, OUT, "b"), (3.0, OUT, "c")))
    assert [step.at for step in steps] == [2.0, 2.0, 3.0]


def test_playing_shows_what_is_due_and_says_how_long_to_wait() -> None:
    player = Player(timeline(SESSION))
    player.start(100.0)
    assert (player.play(100.5), player.wait(100.5)) == ([], 0.5)
    assert played(player.play(101.6)) == "ab"
    assert player.wait(101.6) == pytest.approx(9.9)
    assert played(player.play(200.0)) == "cd"
    assert player.finished and player.wait(200.0) is None


def test_a_pause_holds_playback_and_resuming_carries_on_from_there() -> None:
    player = Player(timeline(SESSION))
    player.start(0.0)
    assert played(player.play(1.2)) == "a"
    player.press(" ", 1.2)
    assert player.paused and player.play(50.0) == [] and player.wait(50.0) is None
    player.press(" ", 50.0)
    assert player.wait(50.0) == pytest.approx(0.3)  # b was 0.3s away when paused
    assert played(player.play(50.31)) == "b"


def test_a_step_shows_the_next_output_only_while_paused() -> None:
    player = Player(timeline(SESSION))
    player.start(0.0)
    assert player.press(".", 0.0) == []  # playing: nothing to step
    player.press(" ", 0.0)
    assert played(player.press(".", 0.1)) == "a"
    assert played(player.press(".", 0.2)) == "b"
    assert player.press(".", 0.3) == [SESSION[2], SESSION[3]]  # the marker on the way, then c
    assert player.paused
    player.press(" ", 10.0)
    assert player.wait(10.0) == pytest.approx(0.5)  # the resize, 0.5s after c


def test_next_marker_jumps_there_and_pauses() -> None:
    player = Player(timeline(SESSION))
    player.start(0.0)
    assert player.press("]", 1.0) == SESSION[:3]
    assert player.paused
    assert player.press("]", 2.0) == SESSION[3:6]
    assert player.press("]", 3.0) == []  # no marker ahead: nothing moves
    assert player.paused and not player.finished
    player.press(" ", 3.0)
    assert player.wait(3.0) == pytest.approx(1.0)
    assert played(player.play(4.0)) == "d"


def test_pause_on_markers_stops_after_each_marker() -> None:
    player = Player(timeline(SESSION), pause_on_markers=True)
    player.start(0.0)
    assert player.play(100.0) == SESSION[:3]
    assert player.paused and player.play(200.0) == []
    player.press(" ", 200.0)
    assert player.play(201.5) == SESSION[3:6]
    player.press(" ", 300.0)
    assert played(player.play(301.0)) == "d"


@pytest.mark.parametrize("key", ["q", "\x03"])
def test_q_and_ctrl_c_quit(key: str) -> None:
    player = Player(timeline(SESSION))
    player.start(0.0)
    assert not player.quit
    assert player.press(key, 0.0) == []
    assert player.quit


def test_start_again_plays_from_the_beginning() -> None:
    player = Player(timeline(SESSION))
    player.start(0.0)
    player.play(100.0)
    player.start(100.0)
    assert not player.finished and player.wait(100.0) == 1.0


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("12.5", At(seconds=12.5)), ("12.5s", At(seconds=12.5)), ("3", At(seconds=3)),
        ("1m3s", At(seconds=63)), ("2m", At(seconds=120)), ("1h0m0.5s", At(seconds=3600.5)),
        ("marker:build", At(marker="build")), ("marker:2", At(marker="2")),
        ("marker:", At(marker="")),
    ],
)
def test_screen_positions(text: str, at: At) -> None:
    assert parse_at(text) == at


@pytest.mark.parametrize("text", ["", "abc", "-1", "500ms", "1s2m", "1.5m"])
def test_screen_positions_that_mean_nothing(text: str) -> None:
    with pytest.raises(ValueError, match="is neither a time"):
        parse_at(text)


def test_a_marker_is_found_by_label_before_by_number() -> None:
    numbered = events((1.0, MARK, "x"), (2.0, MARK, "1"), (3.0, MARK, "y"))
    assert events_until(numbered, At(marker="1")) == numbered[:2]
    assert events_until(numbered, At(marker="3")) == numbered
    with pytest.raises(UnknownMarker) as raised:
        events_until(numbered, At(marker="4"))
    assert raised.value.labels == ["x", "1", "y"]


# termhost play, without a terminal


def test_play_writes_the_output_at_speed(cast: Path) -> None:
    done = termhost("play", "-s", "100", str(cast))
    assert (done.returncode, done.stdout, done.stderr) == (0, PROGRAM_OUTPUT, b"")


def test_loop_plays_again(tmp_path: Path) -> None:
    path = tmp_path / "short.cast"
    writer = writer_for(2, path, Header(80, 24))
    writer.output(b"once\r\n", 0.01)
    writer.close(0.01)
    with subprocess.Popen(
        [sys.executable, "-m", "termhost", "play", "--loop", str(path)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None
        try:
            seen = read_until(process.stdout.fileno(), b"once\r\nonce\r\nonce\r\n")
        finally:
            process.kill()
    assert seen.startswith(b"once\r\nonce\r\nonce\r\n")


# termhost play --screen


SCREEN_SESSION = (
    '{"version": 2, "width": 12, "height": 3}\n'
    '[0.5, "o", "one\\r\\n"]\n'
    '[1.0, "m", "first"]\n'
    '[1.5, "o", "two\\r\\n"]\n'
    '[2.0, "r", "6x2"]\n'
    '[2.5, "m", "narrow"]\n'
    '[3.0, "o", "abcdefghij"]\n'
)


@pytest.fixture
def screens(tmp_path: Path) -> Path:
    path = tmp_path / "demo.cast"
    path.write_text(SCREEN_SESSION)
    return path


@pytest.mark.parametrize(
    ("at", "screen"),
    [
        ("0", "\n\n\n"),
        ("0.5", "one\n\n\n"),
        ("1.4s", "one\n\n\n"),
        ("marker:first", "one\n\n\n"),
        ("marker:2", "two\n\n"),  # the resize to 2 rows scrolled "one" away
        ("3", "abcdef\nghij\n"),  # wrapped at the new width
    ],
)
def test_the_screen_at_a_time_or_a_marker(screens: Path, at: str, screen: str) -> None:
    done = termhost("play", "--screen", at, str(screens))
    assert (done.returncode, done.stdout.decode(), done.stderr) == (0, screen, b"")


def test_a_screen_past_the_end_is_the_final_one_and_says_so(screens: Path) -> None:
    done = termhost("play", "--screen", "1m", str(screens))
    assert (done.returncode, done.stdout.decode()) == (0, "abcdef\nghij\n")
    assert done.stderr.decode() == (
        f"termhost play: {screens} ends at 3s, before 60s: this is the final screen\n"
    )


def test_the_screen_as_svg(screens: Path) -> None:
    done = termhost("play", "--screen", "marker:first", "--format", "svg", str(screens))
    assert done.returncode == 0 and done.stdout.lstrip().startswith(b"<svg")
    assert b">one<" in done.stdout


def test_an_unknown_marker_names_the_markers_there_are(screens: Path, tmp_path: Path) -> None:
    assert failure("play", "--screen", "marker:x", str(screens)) == (
        1, f'termhost play: no marker "x" in {screens} (markers: first, narrow)\n'
    )
    assert failure("play", "--screen", "marker:3", str(screens)) == (
        1, f'termhost play: no marker "3" in {screens} (markers: first, narrow)\n'
    )
    bare = write_cast(tmp_path / "bare.cast", 2, markers=False)
    assert failure("play", "--screen", "marker:x", str(bare)) == (
        1, f'termhost play: no marker "x" in {bare} (it has none)\n'
    )


def test_play_failures_are_one_line(tmp_path: Path, screens: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    assert failure("play", str(tmp_path / "missing.cast")) == (
        1, f"termhost play: {tmp_path}/missing.cast: No such file or directory\n"
    )
    assert failure("play", str(tmp_path / "notes.txt")) == (
        1, f"termhost play: {tmp_path}/notes.txt:1: not an asciicast file (no JSON header object)\n"
    )
    assert failure("play", "--screen", "0", "--theme", "no-such-theme", "--format", "svg",
                   str(screens))[0] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--screen", "soon"], "argument --screen: 'soon' is neither a time (12.5, 12.5s, 1m3s) "
                               "nor a marker (marker:LABEL, marker:N)"),
        (["-s", "0"], "argument -s/--speed: '0' should be a positive number"),
        (["-i", "x"], "argument -i/--idle-time-limit: 'x' is not a number"),
        (["--format", "svg"], "--format and --theme go with --screen"),
    ],
)
def test_usage_errors_are_one_line(screens: Path, args: list[str], message: str) -> None:
    assert failure("play", *args, str(screens)) == (
        2, f"termhost play: {message} (try 'termhost play --help')\n"
    )


# termhost play, in a terminal


def read_until(fd: int, wanted: bytes, timeout: float = DEADLINE) -> bytes:
    """Read `fd` until `wanted` has come, within a deadline."""
    deadline = time.monotonic() + timeout
    data = b""
    while wanted not in data:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            pytest.fail(f"never saw {wanted!r}; read: {data!r}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                pytest.fail(f"EOF before {wanted!r}; read: {data!r}")
            data += chunk
    return data


def long_recording(path: Path) -> Path:
    """Something at once, then nothing for a quarter of an hour: only a quit ends it soon."""
    writer = writer_for(2, path, Header(80, 24))
    writer.output(b"started\r\n", 0.0)
    writer.output(b"the end\r\n", 900.0)
    writer.close(900.0)
    return path


def in_a_terminal(cast: Path, *script: tuple[bytes, bytes | signal.Signals]) -> str:
    """Play `cast` from a shell in a PTY; for each step, once the first part has been shown,
    type the second, or send it to play if it is a signal. Returns what the terminal showed,
    down to the shell's `stty -a` after play exited."""
    shell = f"{sys.executable} -m termhost play {cast}; echo status=$?; stty -a; echo done"

    async def session() -> str:
        command = Command("/bin/sh", ["-c", shell], env={**BASE_ENV, "TERM": "xterm"})
        child, master = await spawn_in_pty(command)
        try:
            seen = b""
            for wanted, action in script:
                seen += read_until(master, wanted)
                if isinstance(action, signal.Signals):
                    (player,) = children_of(child.pid)
                    os.kill(player, action)
                else:
                    os.write(master, action)
            seen += read_to_eof(master)
            assert (await asyncio.wait_for(child.wait(), DEADLINE)).code == 0
        finally:
            os.close(master)
        return seen.decode(errors="replace")

    return asyncio.run(session())


def assert_restored(shown: str) -> None:
    """The shell after play sees a cooked terminal again: line editing, echo, signals."""
    for setting in ("icanon", "echo", "isig", "opost"):
        assert re.search(rf"(?<![-\w]){setting}\b", shown), f"{setting} is off:\n{shown}"


def test_q_quits_at_once_and_restores_the_terminal(tmp_path: Path) -> None:
    shown = in_a_terminal(long_recording(tmp_path / "long.cast"), (b"started", b"q"))
    assert "status=0" in shown and "the end" not in shown
    assert_restored(shown)


def test_sigterm_restores_the_terminal(tmp_path: Path) -> None:
    shown = in_a_terminal(long_recording(tmp_path / "long.cast"), (b"started", signal.SIGTERM))
    assert f"status={128 + signal.SIGTERM}" in shown
    assert_restored(shown)


def test_keys_jump_to_the_next_marker_and_step_past_it(tmp_path: Path) -> None:
    path = tmp_path / "chapters.cast"
    writer = writer_for(3, path, Header(80, 24))
    writer.output(b"started\r\n", 0.0)
    writer.output(b"chapter one\r\n", 600.0)
    writer.marker("two", 600.0)
    writer.output(b"chapter two\r\n", 1200.0)
    writer.output(b"the end\r\n", 1800.0)
    writer.close(1800.0)
    shown = in_a_terminal(
        path, (b"started", b"]"), (b"chapter one", b"."), (b"chapter two", b" q"),
    )
    assert "status=0" in shown and "the end" not in shown
    assert_restored(shown)
