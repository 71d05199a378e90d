"""The asciicast layer, on real files: what a recording keeps, and who can read it back."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termhost.record.asciicast import (
    Event,
    EventCode,
    Header,
    RecordingError,
    open_reader,
    output_bytes,
    writer_for,
)
from termhost.record.asciicast.v2 import Writer as Writer2

PALETTE = ":".join(
    ["#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5"]
)
HEADER = Header(
    cols=80,
    rows=24,
    timestamp=1_700_000_000,
    idle_time_limit=2.5,
    command="bash -l",
    title="Démo",
    term_type="xterm-256color",
    env={"SHELL": "/bin/bash"},
    theme={"fg": "#d0d0d0", "bg": "#212121", "palette": PALETTE},
)


def record(path: Path, version: int, chunks: list[bytes], step: float = 0.01) -> None:
    """A recording of a program that wrote `chunks`, one read of its PTY each."""
    writer = writer_for(version, path, Header(80, 24))
    for number, chunk in enumerate(chunks):
        writer.output(chunk, number * step)
    writer.close(len(chunks) * step)


def events_of(path: Path) -> list[Event]:
    with open_reader(path) as reader:
        return list(reader)


@pytest.mark.parametrize("version", [2, 3])
@pytest.mark.parametrize(
    ("chunks", "character"),
    [
        ([b"caf\xc3", b"\xa9"], "é"),
        ([b"\xf0", b"\x9f\x98\x80"], "😀"),
        ([b"\xf0\x9f", b"\x98\x80"], "😀"),
        ([b"\xf0", b"\x9f", b"\x98", b"\x80"], "😀"),
    ],
)
def test_a_character_split_between_reads_survives(
    tmp_path: Path, version: int, chunks: list[bytes], character: str
) -> None:
    path = tmp_path / "split.cast"
    record(path, version, chunks)
    events = events_of(path)
    assert character in events[-1].data
    assert "\ufffd" not in "".join(event.data for event in events)
    assert all(event.data for event in events), "an empty event was written"


@pytest.mark.parametrize("version", [2, 3])
def test_invalid_bytes_become_replacement_characters(tmp_path: Path, version: int) -> None:
    path = tmp_path / "invalid.cast"
    record(path, version, [b"ok \xff\xfe done", b"cut \xe2\x82"])
    assert output_bytes(events_of(path)).decode() == "ok \ufffd\ufffd done" + "cut \ufffd"


@st.composite
def pty_reads(draw: st.DrawFn) -> list[bytes]:
    """What a program writes (valid UTF-8 mixed with any bytes), cut anywhere into reads."""
    pieces = draw(st.lists(st.one_of(st.text().map(str.encode), st.binary()), max_size=8))
    blob = b"".join(pieces)
    cuts = sorted(draw(st.lists(st.integers(0, len(blob)), max_size=12)))
    return [blob[start:end] for start, end in zip([0, *cuts], [*cuts, len(blob)], strict=True)]


@pytest.mark.parametrize("version", [2, 3])
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(chunks=pty_reads())
def test_any_reads_make_whole_json_lines_holding_every_byte(
    tmp_path: Path, version: int, chunks: list[bytes]
) -> None:
    path = tmp_path / "any.cast"
    record(path, version, chunks)
    content = path.read_bytes()
    assert content.endswith(b"\n")
    lines = content[:-1].split(b"\n")
    assert all(line.strip() for line in lines), "a blank line stops asciinema 2.x's reader"
    for line in lines:
        json.loads(line)
    expected = b"".join(chunks).decode("utf-8", "replace").encode()
    assert output_bytes(events_of(path)) == expected


def test_v3_intervals_do_not_drift_over_ten_thousand_events(tmp_path: Path) -> None:
    path = tmp_path / "long.cast"
    clock = random.Random(3)
    times, now = [], 0.0
    for _ in range(10_000):
        now += clock.choice([0.0, 0.0004, 0.0006, 0.0015, clock.uniform(0, 0.05), 1.2345678])
        times.append(now)
    writer = writer_for(3, path, Header(80, 24))
    for at in times:
        writer.marker("", at)
    writer.close(now)

    lines = path.read_text().splitlines()[1:]
    assert all(re.match(r"\[\d+\.\d{3},", line) for line in lines), "whole milliseconds"
    read = [event.time for event in events_of(path)]
    assert len(read) == len(times)
    assert max(abs(got - true) for got, true in zip(read, times, strict=True)) <= 0.0005 + 1e-9


SESSION = [
    ("output", b"\x1b[1;31mhello\x1b[0m \xc3", 0.25),
    ("output", b"\xa9\r\n", 0.5),
    ("input", b"ls\r", 1.0),
    ("resize", (100, 30), 1.5),
    ("marker", "chapter 1", 2.0),
    ("marker", "", 2.25),
    ("output", b"bye\r\n", 3.0),
    ("exit", 0, 3.5),
]


def record_session(path: Path, version: int) -> None:
    writer = writer_for(version, path, HEADER)
    for kind, data, at in SESSION:
        if kind == "resize":
            assert isinstance(data, tuple)
            writer.resize(*data, at)
        else:
            getattr(writer, kind)(data, at)
    writer.close(4.0)


SESSION_EVENTS = [
    Event(0.25, EventCode.OUTPUT, "\x1b[1;31mhello\x1b[0m "),
    Event(0.5, EventCode.OUTPUT, "é\r\n"),
    Event(1.0, EventCode.INPUT, "ls\r"),
    Event(1.5, EventCode.RESIZE, "100x30"),
    Event(2.0, EventCode.MARKER, "chapter 1"),
    Event(2.25, EventCode.MARKER, ""),
    Event(3.0, EventCode.OUTPUT, "bye\r\n"),
]


def test_v2_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "demo.cast"
    record_session(path, 2)
    with open_reader(path) as reader:
        assert (reader.version, reader.header) == (2, HEADER)
        assert list(reader) == SESSION_EVENTS, "v2 has no exit event"
        assert not reader.truncated
    header = json.loads(path.read_text().splitlines()[0])
    assert header["env"] == {"SHELL": "/bin/bash", "TERM": "xterm-256color"}
    assert path.read_text().splitlines()[1] == r'[0.250000,"o","\u001b[1;31mhello\u001b[0m "]'


def test_v3_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "demo.cast"
    record_session(path, 3)
    with open_reader(path) as reader:
        assert (reader.version, reader.header) == (3, HEADER)
        assert list(reader) == [*SESSION_EVENTS, Event(3.5, EventCode.EXIT, "0")]
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["term"] == {
        "cols": 80,
        "rows": 24,
        "type": "xterm-256color",
        "theme": HEADER.theme,
    }
    assert lines[2] == '[0.250,"o","é\\r\\n"]'


def test_absent_header_fields_are_omitted(tmp_path: Path) -> None:
    path = tmp_path / "bare.cast"
    writer_for(2, path, Header(80, 24)).close(0)
    assert path.read_text() == '{"version":2,"width":80,"height":24}\n'
    writer_for(3, path, Header(80, 24)).close(0)
    assert path.read_text() == '{"version":3,"term":{"cols":80,"rows":24}}\n'


def test_a_theme_players_would_misread_is_refused() -> None:
    with pytest.raises(ValueError, match="palette has 3 colours"):
        Header(80, 24, theme={"fg": "#ffffff", "bg": "#000000", "palette": "#000000:#111111:#2"})


def test_reads_what_asciinema_2_writes(tmp_path: Path) -> None:
    """asciinema's own v2 writer: spaced separators, float times, its header layout."""
    from asciinema.asciicast import v2 as asciinema_v2

    path = tmp_path / "asciinema.cast"
    metadata = {"timestamp": 1_504_467_315, "env": {"SHELL": "/bin/zsh", "TERM": "xterm"}}
    with asciinema_v2.writer(str(path), metadata, width=80, height=24) as writer:
        writer.write_stdout(0.248848, b"\x1b[1;31mHello \xe2\x82")
        writer.write_stdout(1.001376, b"\xac\n")
        writer.write_marker(1.5)
        writer.write_resize(2.0, (90, 30))
    with open_reader(path) as reader:
        assert reader.header == Header(
            80, 24, timestamp=1_504_467_315, term_type="xterm", env={"SHELL": "/bin/zsh"}
        )
        assert list(reader) == [
            Event(0.248848, EventCode.OUTPUT, "\x1b[1;31mHello "),
            Event(1.001376, EventCode.OUTPUT, "€\n"),
            Event(1.5, EventCode.MARKER, ""),
            Event(2.0, EventCode.RESIZE, "90x30"),
        ]


def test_reads_v3_as_asciinema_3_documents_it(tmp_path: Path) -> None:
    path = tmp_path / "v3.cast"
    path.write_text(
        textwrap.dedent(
            """\
            {"version": 3, "term": {"cols": 80, "rows": 24, "type": "xterm-256color", "version": "VTE(7802)"}, "timestamp": 1504467315, "title": "Demo", "env": {"SHELL": "/bin/zsh"}, "tags": ["demo"]}
            # event stream follows the header
            [0.248, "o", "\\u001b[1;31mHello \\u001b[32mWorld!\\u001b[0m\\n"]
            [1.001, "o", "That was ok\\rThis is better."]
            [3.500, "m", ""]
            [0.250, "z", "a code from the future"]
            [0.143, "o", "Now... "]
            # terminal window resized to 90 cols and 30 rows
            [2.050, "r", "90x30"]
            [1.541, "o", "Bye!"]
            [0.887, "x", "0"]
            """  # noqa: E501
        )
    )
    with open_reader(path) as reader:
        assert reader.header.title == "Demo"
        events = list(reader)
    assert [(event.time, event.code.value) for event in events] == [
        (0.248, "o"),
        (1.249, "o"),
        (4.749, "m"),
        (5.142, "o"),
        (7.192, "r"),
        (8.733, "o"),
        (9.62, "x"),
    ]


@pytest.mark.parametrize("version", [2, 3])
def test_a_cut_last_line_ends_the_recording_quietly(tmp_path: Path, version: int) -> None:
    path = tmp_path / "cut.cast"
    record(path, version, [b"one", b"two", b"three"])
    content = path.read_bytes()
    path.write_bytes(content[: content.rindex(b'"three"') + 4])
    with open_reader(path) as reader:
        assert [event.data for event in reader] == ["one", "two"]
        assert reader.truncated


def test_a_killed_recorder_leaves_every_event_it_wrote(tmp_path: Path) -> None:
    path = tmp_path / "killed.cast"
    recorder = textwrap.dedent(
        f"""\
        import sys
        from termhost.record.asciicast import Header, writer_for
        writer = writer_for(2, {str(path)!r}, Header(80, 24))
        for number in range(100):
            writer.output(f"line {{number}}\\r\\n".encode() + b"\\xc3", number / 10)
        print("recorded", flush=True)
        sys.stdin.read()
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-c", recorder], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdout is not None and process.stdin is not None
    with process.stdin, process.stdout:
        assert process.stdout.readline() == b"recorded\n"
        process.send_signal(signal.SIGKILL)
        assert process.wait(timeout=10) == -signal.SIGKILL
    with open_reader(path) as reader:
        events = list(reader)
        assert not reader.truncated
    assert len(events) == 100
    assert events[-1].data == "\ufffdline 99\r\n"


def test_a_malformed_line_is_one_line_naming_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.cast"
    path.write_text('{"version": 2, "width": 80, "height": 24}\n[0.1, "o", "hi"]\n[0.2, "o"]\n')
    with open_reader(path) as reader, pytest.raises(RecordingError) as caught:
        list(reader)
    assert str(caught.value) == f"{path}:3: an event should be [time, code, data]"


@pytest.mark.parametrize(
    ("first_line", "problem"),
    [
        ("", "not an asciicast file (no JSON header object)"),
        ('{\n  "version": 1,\n', "not an asciicast file (no JSON header object)"),
        ('{"version": 4}\n', "asciicast version 4 is not supported (termhost reads 2, 3)"),
        ('{"version": 2, "width": 80}\n', "header has no 'height'"),
    ],
)
def test_a_file_that_is_not_a_recording_is_refused(
    tmp_path: Path, first_line: str, problem: str
) -> None:
    path = tmp_path / "other.cast"
    path.write_text(first_line)
    with pytest.raises(RecordingError) as caught:
        open_reader(path)
    assert str(caught.value) == f"{path}:1: {problem}"


def test_a_full_disk_is_a_recording_error() -> None:
    with pytest.raises(RecordingError) as caught:
        writer_for(2, "/dev/full", HEADER)
    assert str(caught.value) == "/dev/full: No space left on device"
    with open("/dev/full", "wb", buffering=0) as full, pytest.raises(RecordingError) as caught:
        writer_for(3, full, HEADER)
    assert str(caught.value) == "/dev/full: No space left on device"


def test_an_error_mid_recording_is_reported_once(tmp_path: Path) -> None:
    """A pipe to a player that quits: the write fails, and closing afterwards stays quiet."""
    read_end, write_end = os.pipe()
    writer = Writer2(os.fdopen(write_end, "wb"), Header(80, 24), name="pipe", owns_file=True)
    writer.output(b"seen", 0.1)
    os.close(read_end)
    with pytest.raises(RecordingError) as caught:
        writer.output(b"lost \xc3", 0.2)
    assert str(caught.value) == "pipe: Broken pipe"
    writer.close(0.3)


def test_a_removed_directory_is_a_recording_error(tmp_path: Path) -> None:
    directory = tmp_path / "casts"
    directory.mkdir()
    directory.rmdir()
    with pytest.raises(RecordingError) as caught:
        writer_for(2, directory / "demo.cast", HEADER)
    assert str(caught.value) == f"{directory}/demo.cast: No such file or directory"


def test_asciinema_cat_prints_exactly_the_bytes_the_program_wrote(tmp_path: Path) -> None:
    """The independent reader: asciinema 2.4's `cat` on a v2 file termhost wrote.

    `asciinema cat` puts /dev/tty in raw mode while it prints if it has one (so it runs in a
    new session here, without one), refuses to run unless the locale is ASCII or UTF-8, and
    writes an install-id into its config directory even to cat (so that is kept in tmp_path).
    """
    chunks = [
        b"\x1b[1;32mgreen\x1b[0m caf\xc3",
        b"\xa9 \xf0\x9f",
        b"\x98\x80 \xe2\x80\xa8 tab\there\r\n",
        b"bad \xff byte\x1b[38;5;208morange\x1b[0m\r\n",
    ]
    path = tmp_path / "demo.cast"
    writer = writer_for(2, path, HEADER)
    writer.output(chunks[0], 0.1)
    writer.output(chunks[1], 0.2)
    writer.resize(120, 40, 0.3)
    writer.output(chunks[2], 0.4)
    writer.marker("here", 0.5)
    writer.output(chunks[3], 0.6)
    writer.close(0.7)

    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "ASCIINEMA_CONFIG_HOME": str(tmp_path / "asciinema"),
        "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
    }
    cat = subprocess.run(
        [sys.executable, "-m", "asciinema", "cat", str(path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=env,
        start_new_session=True,
        timeout=30,
        check=False,
    )
    assert (cat.returncode, cat.stderr) == (0, b"")
    expected = b"".join(chunks).decode("utf-8", "replace").encode()
    assert cat.stdout == expected
    assert output_bytes(events_of(path)) == expected


def test_a_null_in_asciinemas_env_is_left_out(tmp_path: Path) -> None:
    # asciinema 2.4.0 writes null for a variable it captures that is unset (SHELL in CI).
    cast = tmp_path / "ci.cast"
    cast.write_text('{"version": 2, "width": 80, "height": 24, "timestamp": 1700000000, '
                    '"env": {"SHELL": null, "TERM": "xterm"}}\n[0.5, "o", "hi"]\n')
    with open_reader(cast) as reader:
        assert reader.header.env == {} and reader.header.term_type == "xterm"
        assert [event.data for event in reader] == ["hi"]
