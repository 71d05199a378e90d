"""select-layout with a layout string (what #{window_layout} printed, as tmuxp and
tmux-resurrect hand it back) and -o, run in a live tmux 3.3a and in termhost and compared
after every step. Strings that crash tmux 3.3a's server (a bad checksum field, fewer
cells than panes) are refused by termhost with the `invalid layout` tmux gives for a
wrong checksum: the tests below the comparison hold those, on the parser alone."""

from __future__ import annotations

import pytest

from termhost.mux.layout import Cell, LayoutError, checksum, describe
from termhost.mux.layout_custom import parse_layout
from tests.conftest import BothServers

NESTED = "d67e,80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]}"
FOUR_CELLS = "7f5a,80x24,0,0{20x24,0,0,0,19x24,21,0,1,19x24,41,0,2,19x24,61,0,3}"


def test_layout_strings_and_undo_land_where_tmuxs_do(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "80", "-y", "24",
                        "sleep 1000").returncode == 0
        both.run(name, "split-window", "-d", "-h", "sleep 1000")
        both.run(name, "split-window", "-d", "-t", "s:0.1", "sleep 1000")
    both.after_each([
        ["select-layout", "-o"],  # nothing before: nothing happens
        ["select-layout", "even-vertical"],
        ["select-layout", NESTED],
        ["select-layout", "-o"],  # back to even-vertical
        ["select-layout", FOUR_CELLS],  # one cell too many: the bottom-right one goes
        ["select-layout", "5a31,80x24,0,0{40x24,0,0,0,39x24,41,0,1}"],  # checksum
        ["select-layout", "-o"],
        ["select-layout", "tiled"],
        ["select-layout", "-o", "-t", "s:0"],
    ], ["display-message", "-p", "#{window_layout} #{window_width}x#{window_height}"])


def _panes(count: int) -> list[str]:
    return [f"p{index}" for index in range(count)]


@pytest.mark.parametrize("text", [NESTED, FOUR_CELLS.replace("7f5a", "7f5b"), "bad", "",
                                  "8205,80x24,0,0{40x24,0,0,0,39x24,41,0,1}",
                                  "0000,", "abcd,80x24,0,0{40x24,0,0,0"])
def test_a_string_tmux_would_refuse_is_refused_in_tmuxs_words(text: str) -> None:
    # (NESTED has three cells: refused for four panes; 8205 has two cells for three.)
    count = 4 if text == NESTED else 3
    with pytest.raises(LayoutError, match=f"^invalid layout: {text}"[:40].replace("[", r"\[")
                       .replace("{", r"\{")):
        parse_layout(text, _panes(count))


def test_sizes_that_do_not_add_up_are_refused() -> None:
    # 12 + 1 + 12 is not 24 (the top cell's own size tmux corrects: not this one's)
    body = "80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x12,41,13,2]}"
    with pytest.raises(LayoutError):
        parse_layout(f"{checksum(body):04x},{body}", _panes(3))


def test_a_parsed_layout_prints_back_as_it_was_read() -> None:
    root: Cell[str] = parse_layout(NESTED, _panes(3))
    assert describe(root, lambda pane: int(pane[1:])) == NESTED
    assert [leaf.pane for leaf in root.leaves()] == ["p0", "p1", "p2"]
