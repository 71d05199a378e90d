"""Whatever an application writes, the emulator survives it: no exception, no hang,
the cursor on the screen, memory bounded."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from wcwidth import wcwidth

from termhost.terminal import Terminal
from termhost.terminal.parser import OSC_LIMIT

FRAGMENTS = [
    b"\x1b", b"\x1b[", b"\x1b]", b"\x1bP", b"\x1b[?", b"\x1b[>", b"\x1b[99999999", b";", b":",
    b"\x1b[2J", b"\x1b[3J", b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[?47h", b"\x1b[r",
    b"\x1b[2;3r", b"\x1b[99;1r", b"\x1b[H", b"\x1b[99999999C", b"\x1b[99999999;99999999H",
    b"\x1b[99999999b", b"\x1b[99999999S", b"\x1b[99999999T", b"\x1b[99999999L",
    b"\x1b[99999999@", b"\x1b[38:2::1:2:3m", b"\x1b[38;5m", b"\x1b[4:9m", b"\x1bM", b"\x1bD",
    b"\x1bE", b"\x1b7", b"\x1b8", b"\x1bc", b"\x1b#8", b"\x1b[?7l", b"\x1b[4h", b"\x1b[?6h",
    b"\x1b]8;;http://x\x07", b"\x1b]52;c;", b"\x07", b"\r", b"\n", b"\t", b"\x08", b"\x18",
    "日本".encode(), "e\u0301".encode(), "\u2764\ufe0f".encode(), b"\xff\xfe\xc3", b"\xe6\x97",
    "\U0001f468\u200d\U0001f469".encode(), b"x" * 30, b"\x1b[6n", b"\x1b[c", b"\x1b[>q",
    b"\x1b[ 3q", b"\x1b[!p", b"\x1b[?3h", b"\x1b[3g", b"\x1b[Z", b"\x1b[I", b"\x9b", b"\xc2\x9b",
]

def width(text: str) -> int:
    return sum(max(0, wcwidth(char)) for char in text)


chunks = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.binary(max_size=40)), max_size=60)
sizes = st.tuples(st.integers(1, 30), st.integers(1, 12))


@settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(data=chunks, size=sizes, resize_to=st.none() | sizes)
# ICH with the cursor on a wide character's right half: the half left behind once made a
# row wider than the screen.
@example(data=["日本".encode(), b"\x08", b"\x1b[99999999@"], size=(2, 1), resize_to=None)
def test_any_bytes_keep_the_emulator_consistent(
    data: list[bytes], size: tuple[int, int], resize_to: tuple[int, int] | None
) -> None:
    replies: list[bytes] = []
    t = Terminal(*size, history_limit=50, reply=replies.append)
    for chunk in data:
        t.feed(chunk)
        x, y = t.cursor
        assert 0 <= x <= t.cols and 0 <= y < t.rows  # x == cols: a wrap is pending
    if resize_to is not None:
        t.resize(*resize_to)
        x, y = t.cursor
        assert 0 <= x <= t.cols and 0 <= y < t.rows
    display = t.display
    assert len(display) == t.rows
    # A character after a ZWJ shares its cell: it adds no width of its own.
    assert all(width(re.sub("\u200d.", "", row)) <= t.cols for row in display)
    assert all(0 <= key < t.cols for row in t.screen.buffer.values() for key in row)
    assert all(0 <= key < t.rows for key in t.screen.buffer)
    assert len(t.history) <= 50


def test_an_unterminated_osc_stays_bounded() -> None:
    t = Terminal(20, 5)
    t.feed(b"\x1b]2;")
    for _ in range(64):
        t.feed(b"y" * 65536)  # 4 MiB of title that never ends
    assert t.parser._osc_size <= OSC_LIMIT
    t.feed(b"\x1b\\after")
    assert t.display[0].rstrip() == "after"


def test_an_unterminated_dcs_swallows_nothing_after_its_end() -> None:
    t = Terminal(20, 5)
    t.feed(b"\x1bP1$r" + b"z" * 200_000 + b"\x1b\\shown")
    assert t.display[0].rstrip() == "shown"


def test_a_wide_character_no_narrower_screen_holds_leaves_the_cursor_at_the_margin() -> None:
    # found by the property above: 日本 filling a 2-column row, then 1 column wide
    t = Terminal(2, 1, history_limit=50)
    t.feed("日本".encode())
    t.resize(1, 1)
    assert t.cursor[0] <= t.cols == 1
    assert t.display == [" "] and all(key < 1 for key in t.screen.buffer[0])
