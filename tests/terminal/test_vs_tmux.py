"""The emulator against tmux: the same bytes must give the same screen text and cursor.

tmux renders every case live on a private server (tmux_harness.py); the corpus is in
corpus.py and the recorded sessions of real programs in tests/data/ (record_apps.py).
Lines are compared with trailing blanks stripped (capture-pane stops at the last cell
written) and in NFC, since tmux keeps a combining mark as sent and an emulator may
compose it: the same glyphs on screen either way.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from termhost.terminal import Terminal
from tests.conftest import BothServers, wait_until
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


# tmux 3.3a's regress/cursor-test.txt, as `cat` in a cooked tty writes it.
LOREM = (
    b"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor\r\n"
    b"incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud "
    b"exercitation ullamco laboris nisi ut aliquip ex ea\r\n"
    b"commodo consequat. Duis aute\r\n"
    b"irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat\r\n"
    b"nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui "
    b"officia\r\n"
    b"deserunt mollit anim id est laborum.\r\n"
)

# (name, bytes, size before, the sizes resized to in turn). Each pins a rule of tmux's
# reflow (grid_reflow, screen_resize_cursor); tmux renders each case live.
RESIZES = [
    ("narrower", b"a" * 30 + b"b" * 15 + b"\r\nshort\r\n" + "日本語テキスト".encode() * 3,
     (40, 8), [(17, 8)]),
    ("wider", b"".join(b"%02d " % i * 9 + b"\r\n" for i in range(12)), (20, 6), [(33, 6)]),
    ("shorter", b"".join(b"line %d\r\n" % i for i in range(5)) + b"last", (20, 8), [(20, 3)]),
    ("taller", b"".join(b"line %d\r\n" % i for i in range(12)) + b"last", (20, 4), [(20, 9)]),
    ("both", b"x" * 50 + b"\r\n" + b"y" * 7, (25, 5), [(12, 7)]),
    # regress/cursor-test1 and -2: the screen shows the last rows of the reflowed text (the
    # blank rows below it included), the spaces at the old wrap points are kept, and the
    # cursor stays on its character through a narrower and then a wider width.
    ("cursor-test1", LOREM + b"\x1b[9;15H", (40, 10), [(10, 10), (50, 10)]),
    ("cursor-test2", LOREM + b"\x1b[8;10H", (10, 10), [(5, 10), (50, 10)]),
    # The cursor moved up into a line that the reflow pushes into the scrollback: tmux
    # puts it home, off its character.
    ("cursor-into-scrollback", b"x" * 50 + b"\r\n" + b"y" * 7 + b"\x1b[1;1H", (25, 5),
     [(12, 7)]),
    # Past the cells its row used, the cursor goes to the end of its line: after a prompt
    # (whose trailing space counts), past the text, at a pending wrap (then x == cols).
    ("cursor-after-prompt", b"x" * 25 + b"\r\n$ ", (20, 5), [(10, 5), (30, 5)]),
    ("cursor-past-the-text", b"abc\x1b[1;15H", (20, 5), [(10, 5)]),
    ("cursor-at-pending-wrap", b"abcdefghij", (10, 5), [(8, 5), (12, 5)]),
    ("cursor-on-a-wide-character", "日日日".encode() + b"\x1b[1;4H", (10, 5), [(3, 5)]),
    # A wide character that did not fit the last column left it unused: not a blank.
    ("wide-character-at-the-wrap", "abcdefghi日xyz\x1b[1;9H".encode(), (10, 5),
     [(4, 5), (20, 5)]),
    # Erasing the end of a row keeps the width it reached (spaces that reflow cuts too).
    ("el-keeps-the-used-width", b"abcdef\x1b[3D\x1b[K\r\nxy", (10, 3), [(4, 3)]),
    ("el-on-a-wrapped-row", b"a" * 31 + b"\x1b[2;4H\x1b[K\x1b[4;1H", (10, 5), [(20, 5)]),
    ("ed-on-a-wrapped-row", b"a" * 31 + b"\x1b[2;4H\x1b[J\x1b[3;1Hxyz\x1b[5;1H", (10, 5),
     [(20, 5)]),
    # Erasing a whole row (EL 2, EL 0 from the first column, EL 1 from the last) starts
    # it afresh and unwraps the row above, the scrollback's newest line for the top row.
    ("el-2-unwraps-the-row-above", b"a" * 31 + b"\x1b[2;1H\x1b[2Kxyz\x1b[4;1H", (10, 5),
     [(20, 5)]),
    ("el-1-from-the-last-column", b"a" * 31 + b"\x1b[2;10H\x1b[1K\x1b[4;1H", (10, 5),
     [(20, 5)]),
    ("el-0-from-the-first-column", b"a" * 20 + b"\r\x1b[K", (10, 4), [(20, 4)]),
    # A line does not take in an empty row below it that is not wrapped (here what DL
    # pulled up): that row stays (grid_reflow_join).
    ("dl-leaves-an-empty-row", b"a" * 15 + b"\x1b[2;1H\x1b[M", (10, 4), [(20, 4)]),
    ("el-2-on-the-top-row", b"a" * 25 + b"\x1b[1;1H\x1b[2Kxyz\x1b[2;1H", (10, 2),
     [(20, 2)]),
]


@pytest.mark.parametrize(
    ("data", "before", "after"), [case[1:] for case in RESIZES], ids=[c[0] for c in RESIZES]
)
def test_a_resize_reflows_like_tmux(
    tmux: TmuxTerminal, data: bytes, before: tuple[int, int], after: list[tuple[int, int]]
) -> None:
    lines, cursor = tmux.tmux_screen(data, *before, resize_to=after, with_history=True)
    t = Terminal(*before)
    t.feed(data)
    for size in after:
        t.resize(*size)
    mine = [line.rstrip() for line in t.history.lines()] + [r.rstrip() for r in t.display]
    assert (mine, t.cursor) == (lines, cursor), f"{mine} {t.cursor}\ntmux: {lines} {cursor}"


CURSOR = "#{cursor_x} #{cursor_y} #{cursor_character}"


@pytest.mark.parametrize(
    ("text", "size", "widths", "ready"),
    [
        # regress/cursor-test1, whose output this is.
        (LOREM + b"\x1b[9;15H", (40, 10), [10, 50],
         (["display", "-p", "#{cursor_x} #{cursor_y}"], "14 8\n")),
        # After the last column is written tmux reports x == cols (the wrap is pending),
        # and a reflow can leave the cursor there: after a line that fills its last row.
        (b"abcdefghij", (10, 5), [8, 12], (["capture-pane", "-p"], "abcdefghij\n" + "\n" * 4)),
    ],
    ids=["cursor-test1", "pending-wrap"],
)
def test_the_cursor_formats_follow_a_reflow_like_tmux(
    both: BothServers, tmp_path: Path, text: bytes, size: tuple[int, int], widths: list[int],
    ready: tuple[list[str], str],
) -> None:
    """#{cursor_x}, #{cursor_y} and #{cursor_character} after each resize-window, through
    the whole server, as tmux's regress scripts read them."""
    (tmp_path / "text").write_bytes(text)
    program = f"cat {tmp_path / 'text'}; exec cat"
    command, shown = ready

    def pane_shows(name: str) -> bool:
        return both.run(name, *command).stdout == shown

    for name in both.NAMES:
        both.run(name, "new-session", "-d", "-x", str(size[0]), "-y", str(size[1]), program)
        wait_until(functools.partial(pane_shows, name), what=f"{name}'s pane")
    steps = [["set", "-g", "window-size", "manual"]]
    steps += [["resize-window", "-x", str(width)] for width in widths]
    both.after_each(steps, ["display", "-p", CURSOR])
