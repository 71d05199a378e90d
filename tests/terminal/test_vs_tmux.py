"""The emulator against tmux: the same bytes must give the same screen text and cursor.

tmux renders every case live on a private server (tmux_harness.py); the corpus is in
corpus.py and the recorded sessions of real programs in tests/data/ (record_apps.py).
Lines are compared with trailing blanks stripped (capture-pane stops at the last cell
written) and in NFC, since tmux keeps a combining mark as sent and an emulator may
compose it: the same glyphs on screen either way.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from termhost.terminal import Terminal
from tests.terminal.corpus import CASES, Case
from tests.terminal.tmux_harness import TmuxTerminal

DATA = Path(__file__).parent.parent / "data"
RECORDINGS = ["vim", "less", "top", "bash"]

Screen = tuple[list[str], tuple[int, int]]


@pytest.fixture(scope="session")
def tmux() -> Iterator[TmuxTerminal]:
    server = TmuxTerminal()
    try:
        yield server
    finally:
        server.close()


def emulate(data: bytes, cols: int, rows: int) -> Screen:
    terminal = Terminal(cols, rows)
    terminal.feed(data)
    return [line.rstrip(" ") for line in terminal.display], terminal.cursor


def normalise(screen: Screen) -> Screen:
    lines, cursor = screen
    return [unicodedata.normalize("NFC", line) for line in lines], cursor


def cell_width(text: str) -> int:
    """Columns `text` takes on a terminal: wide characters two, combining marks none."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or char in "\u200d\ufe0f":
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def side_by_side(emulator: Screen, reference: Screen, cols: int) -> str:
    """Both screens in columns, rows that differ marked with '!', then both cursors."""
    lines = [f"  {'':>2} {'emulator':<{cols + 2}}   tmux"]
    for row, (mine, theirs) in enumerate(zip(emulator[0], reference[0], strict=True)):
        mark = " " if mine == theirs else "!"
        padded = mine + " " * max(0, cols - cell_width(mine))
        lines.append(f"{mark} {row:>2} |{padded}|   |{theirs}")
    mark = " " if emulator[1] == reference[1] else "!"
    lines.append(f"{mark} cursor {emulator[1]} vs tmux {reference[1]}")
    return "\n".join(lines)


def assert_same_screen(tmux: TmuxTerminal, data: bytes, cols: int, rows: int, what: str) -> None:
    reference = normalise(tmux.tmux_screen(data, cols, rows))
    mine = normalise(emulate(data, cols, rows))
    assert mine == reference, (
        f"{what} ({cols}x{rows}) differs from tmux:\n{side_by_side(mine, reference, cols)}"
    )


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_screen_matches_tmux(tmux: TmuxTerminal, case: Case) -> None:
    assert_same_screen(tmux, case.data, case.cols, case.rows, repr(case.data))


def test_corpus_names_are_unique() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("app", RECORDINGS)
def test_recorded_session_matches_tmux(tmux: TmuxTerminal, app: str) -> None:
    """Every step of the session in order, so that a failure shows the first divergence."""
    data = (DATA / f"{app}.bin").read_bytes()
    meta = json.loads((DATA / f"{app}.json").read_text())
    assert meta["steps"][-1]["offset"] == len(data), f"{app}.json does not end at {app}.bin's end"
    for step in meta["steps"]:
        offset = step["offset"]
        assert_same_screen(
            tmux, data[:offset], meta["cols"], meta["rows"],
            f"{app}.bin up to byte {offset}, after {step['after']!r},",
        )


RESIZES = [
    ("narrower", b"a" * 30 + b"b" * 15 + b"\r\nshort\r\n" + "日本語テキスト".encode() * 3,
     (40, 8), (17, 8)),
    ("wider", b"".join(b"%02d " % i * 9 + b"\r\n" for i in range(12)), (20, 6), (33, 6)),
    ("shorter", b"".join(b"line %d\r\n" % i for i in range(5)) + b"last", (20, 8), (20, 3)),
    ("taller", b"".join(b"line %d\r\n" % i for i in range(12)) + b"last", (20, 4), (20, 9)),
    # The cursor where a shell leaves it. (Moved up into a line that reflow then pushes
    # into the scrollback, tmux 3.3a leaves the cursor at 0,0, off its character; termhost
    # keeps it on its character, so that case is not compared here.)
    ("both", b"x" * 50 + b"\r\n" + b"y" * 7, (25, 5), (12, 7)),
]


@pytest.mark.parametrize(
    ("data", "before", "after"), [case[1:] for case in RESIZES], ids=[c[0] for c in RESIZES]
)
def test_a_resize_reflows_like_tmux(
    tmux: TmuxTerminal, data: bytes, before: tuple[int, int], after: tuple[int, int]
) -> None:
    lines, cursor = tmux.tmux_screen(data, *before, resize_to=after, with_history=True)
    t = Terminal(*before)
    t.feed(data)
    t.resize(*after)
    mine = [line.rstrip() for line in t.history.lines()] + [r.rstrip() for r in t.display]
    assert (mine, t.cursor) == (lines, cursor), f"{mine} {t.cursor}\ntmux: {lines} {cursor}"
