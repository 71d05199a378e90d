"""The painter's row diff, checked by the emulator: whatever a row showed before, the
writes it makes leave the terminal showing exactly the new row."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.terminal import Terminal
from termhost.terminal.cell import BLANK, WIDE_STUB, Cell
from termhost.ui.painter import _row_changes, _shown

WIDTH, X0 = 12, 3

_attrs = st.builds(
    lambda fg, bg, bold, reverse: BLANK._replace(fg=fg, bg=bg, bold=bold, reverse=reverse),
    st.sampled_from(["default", "red", "brightblue", "ff8700"]),
    st.sampled_from(["default", "green", "000080"]),
    st.booleans(),
    st.booleans(),
)
_glyph = st.sampled_from(["a", "b", " ", "é", "界"])


@st.composite
def rows(draw: st.DrawFn) -> list[Cell]:
    """A row of WIDTH cells; a wide glyph takes two (its right half a stub)."""
    row: list[Cell] = []
    while len(row) < WIDTH:
        attrs, glyph = draw(_attrs), draw(_glyph)
        if glyph == "界":
            if len(row) == WIDTH - 1:
                glyph = "x"
            else:
                row += [attrs._replace(data=glyph), attrs._replace(data=WIDE_STUB)]
                continue
        row.append(attrs._replace(data=glyph))
    return row


def shown_by(terminal: Terminal) -> list[tuple[str, str]]:
    buffer = terminal.screen.buffer[0]
    return [_shown(buffer[X0 + x]) for x in range(WIDTH)]


@settings(max_examples=300, deadline=None)
@given(rows(), rows())
def test_the_writes_turn_the_old_row_into_the_new(old: list[Cell], new: list[Cell]) -> None:
    terminal = Terminal(X0 + WIDTH + 2, 2)
    before, after = [_shown(cell) for cell in old], [_shown(cell) for cell in new]
    out: list[str] = []
    _row_changes(old, None, X0, 0, out)  # unknown before: the whole row
    terminal.feed("".join(out).encode() + b"\x1b[0m")
    assert shown_by(terminal) == before
    out = []
    _row_changes(new, old, X0, 0, out)
    terminal.feed("".join(out).encode() + b"\x1b[0m")
    assert shown_by(terminal) == after
    assert terminal.display[0][:X0] == " " * X0  # nothing written left of the pane


def test_an_unchanged_row_writes_nothing_and_one_change_one_cell() -> None:
    row = [BLANK._replace(data=c) for c in "hello world!"]
    out: list[str] = []
    _row_changes(row, row, 0, 0, out)
    assert out == []
    changed = [*row[:4], BLANK._replace(data="O"), *row[5:]]
    _row_changes(changed, row, 0, 4, out)
    assert "".join(out) == "\x1b[5;5H\x1b[0mO"
