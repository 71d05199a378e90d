"""The flood path gives exactly what feeding every byte to the screen gives."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termhost.terminal import Terminal
from termhost.terminal.cell import BLANK

WORDS = ["hello", "x" * 17, "日本語", "a\tb", "\t", "tab\tstop\t", "e\u0301", " ", "  end  ",
         "\x07", "ü", "wide日x", "🙂"]
SGR = ["\x1b[0m", "\x1b[31m", "\x1b[1;4m", "\x1b[38;5;208m", "\x1b[48:2::1:2:3m", "\x1b[m",
       "\x1b[7m", "\x1b[39;49m", "\x1b[4:3m"]
OTHER = ["\r", "\n", "\b", "\x1b[b", "\x1b#8", "\x1b[?6h", "\x1b[5;1H", "\x1b[2b", "\x1b[A",
         "\x1b[2;3H", "\x1b[2;4r", "\x1b[r", "\x1b[K", "\x1b[2J",
         "\x1b[?1049h", "\x1b[?1049l", "\x1b[?7l", "\x1b[?7h", "\x1b[4h", "\x1b[4l", "\x1b[3C",
         "\x1bM", "\x1b[L", "\x1b[S", "\x1b]8;;u\x07", "\x1b]8;;\x07", "\x1b[20b", "\x1b7",
         "\x1b8", "\x1b[1@", "\x1b[P", "\x1bH", "\x1b[3g"]

lines = st.lists(st.sampled_from(WORDS + SGR), max_size=8).map(lambda p: "".join(p) + "\r\n")
tokens = st.one_of(lines, lines, lines, st.sampled_from(OTHER), st.sampled_from(WORDS + SGR))
streams = st.lists(tokens, max_size=80).map("".join)


def state(t: Terminal) -> dict[str, object]:
    s = t.screen
    return {
        "cells": [[s.buffer[y].get(x, BLANK) for x in range(t.cols)] for y in range(t.rows)],
        "display": t.display,
        "cursor": (s.cursor.x, s.cursor.y, s.cursor.attrs, s.cursor.hidden),
        "modes": sorted(s.mode),
        "margins": s.margins,
        "wrapped": sorted(s.wrapped),
        "history": t.history.raw(),
        "alternate": s.alternate_screen,
        "bells": s.bell_count,
        "last": s._last_char,
        "tabstops": sorted(s.tabstops),
    }


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=streams,
    size=st.tuples(st.integers(1, 24), st.integers(1, 8)),
    cuts=st.lists(st.integers(0, 4000), max_size=6),
    limit=st.sampled_from([0, 3, 50]),
)
def test_fast_forward_equals_the_full_feed(
    text: str, size: tuple[int, int], cuts: list[int], limit: int
) -> None:
    data = text.encode()
    fast = Terminal(*size, history_limit=limit)
    full = Terminal(*size, history_limit=limit)
    full.fast_path = False
    points = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    for start, end in itertools.pairwise(points):
        fast.feed(data[start:end])
        full.feed(data[start:end])
    assert state(fast) == state(full)


def test_a_flood_really_takes_the_fast_path() -> None:
    t = Terminal(80, 24, history_limit=100)
    t.feed(b"\x1b[24;1H" + b"".join(b"\x1b[32mline %d\x1b[0m\r\n" % i for i in range(5000)))
    t.flush()
    calls = []
    t.parser.feed = lambda text: calls.append(text)  # type: ignore[method-assign]
    t.feed(b"".join(b"more %d\r\n" % i for i in range(1000)))
    t.flush()
    assert calls == []  # not one byte went through the parser
    assert t.history.lines()[-1] == "more 976"
    assert t.display[-2].rstrip() == "more 999"
