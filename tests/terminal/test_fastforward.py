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
    after=st.lists(st.sampled_from(["feed", "flush", "look"]), min_size=7, max_size=7),
)
def test_fast_forward_equals_the_full_feed(
    text: str, size: tuple[int, int], cuts: list[int], limit: int, after: list[str]
) -> None:
    """After each piece the fast terminal only takes it, or emulates it (leaving the
    rows it scrolled in encoded), or is looked at (they are laid out as cells)."""
    data = text.encode()
    fast = Terminal(*size, history_limit=limit)
    full = Terminal(*size, history_limit=limit)
    full.fast_path = False
    points = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    for (start, end), then in zip(itertools.pairwise(points), after, strict=False):
        fast.feed(data[start:end])
        full.feed(data[start:end])
        if then == "flush":
            fast.flush()
        elif then == "look":
            assert fast.display == full.display
    assert state(fast) == state(full)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    flood=st.lists(st.lists(lines, max_size=12).map("".join), min_size=2, max_size=8),
    size=st.tuples(st.integers(1, 24), st.integers(2, 8)),
    limit=st.sampled_from([0, 3, 50]),
    after=st.lists(st.sampled_from(["flush", "look"]), min_size=8, max_size=8),
)
def test_a_flood_flushed_in_batches_equals_the_full_feed(
    flood: list[str], size: tuple[int, int], limit: int, after: list[str]
) -> None:
    """Batches of whole lines from the bottom row: each batch fast-forwards over rows
    the batch before left encoded (scrolling them on or off), looked at or not."""
    fast = Terminal(*size, history_limit=limit)
    full = Terminal(*size, history_limit=limit)
    full.fast_path = False
    for t in (fast, full):
        t.feed(b"\x1b[%d;1H" % size[1])
    for batch, then in zip(flood, after, strict=False):
        fast.feed(batch.encode())
        full.feed(batch.encode())
        if then == "flush":
            fast.flush()
        else:
            assert fast.display == full.display
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


def test_output_below_a_prompt_fills_the_blank_rows_without_the_parser() -> None:
    t = Terminal(80, 24, history_limit=100)
    t.feed(b"$ ls\r\n")
    t.flush()
    calls = []
    t.parser.feed = lambda text: calls.append(text)  # type: ignore[method-assign]
    t.feed(b"".join(b"\x1b[1;34mdir%d\x1b[0m\r\n" % i for i in range(30)))
    t.flush()
    assert calls == []  # 22 lines filled the screen, 8 scrolled it
    assert t.history.lines() == ["$ ls"] + [f"dir{i}" for i in range(7)]
    assert t.display[-2].rstrip() == "dir29"
    assert t.screen.buffer[0][0].bold and t.cursor == (0, 23)


def test_a_catch_up_holds_back_an_incomplete_line_and_a_look_shows_it() -> None:
    replies: list[bytes] = []
    t = Terminal(20, 5, reply=replies.append)
    t.feed(b"one\r\ntwo\r\n$ ")
    t.catch_up()
    assert t._held == "$ "  # the next output usually completes it
    assert t.display[2].rstrip() == "$" and t.cursor == (2, 2)
    # A query in an incomplete line is answered by the catch-up, not held back.
    t.feed(b"\r\n\x1b[6n" + b"y" * 100)
    assert replies == []
    t.catch_up()
    assert replies == [b"\x1b[4;1R"] and t._held == ""


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(st.text(alphabet="ab ", max_size=50), min_size=1, max_size=60),
    size=st.tuples(st.integers(1, 24), st.integers(2, 8)),
)
def test_a_plain_log_wider_than_the_screen_equals_the_full_feed(
    lines: list[str], size: tuple[int, int]
) -> None:
    """Plain lines that wrap (a log in a split pane), spaces at the cuts included."""
    fast = Terminal(*size, history_limit=50)
    full = Terminal(*size, history_limit=50)
    full.fast_path = False
    data = (f"\x1b[{size[1]};1H" + "".join(line + "\r\n" for line in lines)).encode()
    for t in (fast, full):
        t.feed(data)
    assert state(fast) == state(full)


def test_a_row_of_written_blanks_is_used_when_the_screen_is_cleared() -> None:
    """A line of spaces uses its row, as tmux's grid counts it (the cells are set): ED 2
    then scrolls it into the scrollback (grid_view_clear_history), though it is stored
    empty. Only an empty line leaves its row unused. Hypothesis found the flood path
    leaving such a row unused."""
    cases = [((1, 2), " \r\n", [""]), ((4, 2), "\x1b[31m\x1b[0m \r\n", [""]),
             ((4, 2), "\r\n", []), ((4, 2), "a\r\nb\r\n  \r\n", ["a", "b", ""]),
             ((2, 3), "a\r\n   \r\n", ["a", "\1", ""]), ((4, 2), "a\r\n\t\r\n", ["a"])]
    for size, text, history in cases:
        for flush in (False, True):
            fast = Terminal(*size, history_limit=5)
            full = Terminal(*size, history_limit=5)
            full.fast_path = False
            for terminal in (fast, full):
                terminal.feed(text.encode())
                if flush:
                    terminal.flush()
                terminal.feed(b"\x1b[2J")
            assert full.history.raw() == history, text
            assert state(fast) == state(full), (text, flush)
