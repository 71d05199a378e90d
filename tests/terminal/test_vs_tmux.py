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
