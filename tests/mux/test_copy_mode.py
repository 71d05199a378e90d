"""Copy mode as a user drives it: a pane's lines frozen, keys pressed by their tmux names,
and what the cursor, the view, the selection and the copied text become."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wcwidth import wcwidth

from termhost.mux.bindings import copy_mode_commands
from termhost.mux.copy_mode import Action, CopyMode


def cells(line: str, width: int) -> list[str]:
    """A line as the pane holds it: a wide character and then "" for its right half,
    blanks to the width."""
    row: list[str] = []
    for char in line:
        row += [char, ""] if wcwidth(char) == 2 else [char]
    assert len(row) <= width, f"{line!r} is wider than {width}"
    return row + [" "] * (width - len(row))


def pane(*lines: str, width: int = 0, height: int = 0, cursor: tuple[int, int] = (0, 0),
         keys: str = "vi", wrapped: Iterable[int] = ()) -> CopyMode:
    """Copy mode over `lines` (all on the screen unless `height` is smaller, the rest
    history); `wrapped` lists the lines that soft-wrap into the next."""
    width = width or max(sum(1 + (wcwidth(char) == 2) for char in line) for line in lines) or 1
    rows = [cells(line, width) for line in lines]
    flags = [i in set(wrapped) for i in range(len(lines))]
    return CopyMode(rows, flags, height or len(lines), cursor, keys=keys)


def press(mode: CopyMode, *keys: str) -> Action | None:
    """Press each key in turn; what the last one asked of the client."""
    action = None
    for key in keys:
        action = mode.press(key)
    return action


def copied(mode: CopyMode, *keys: str) -> str:
    action = press(mode, *keys)
    assert action is not None and action.kind == "copy", action
    return action.text


# Starting, and moving the cursor.


def test_starts_at_the_bottom_with_the_pane_cursor() -> None:
    mode = pane("old 1", "old 2", "screen 1", "screen 2", height=2, cursor=(3, 1))
    assert mode.top == 2
    assert mode.cursor == (3, 3)
    assert mode.view_cursor() == (3, 1)
    assert mode.position_indicator() == "[0/2]"


def test_fewer_lines_than_the_pane_is_high_means_no_history() -> None:
    mode = pane("only", height=5, cursor=(1, 0))
    assert (mode.top, mode.cursor, mode.position_indicator()) == (0, (1, 0), "[0/0]")


def test_hjkl_and_the_arrows_move_one_cell() -> None:
    mode = pane("abcd", "efgh", "ijkl", cursor=(1, 1))
    press(mode, "l")
    assert mode.cursor == (2, 1)
    press(mode, "j")
    assert mode.cursor == (2, 2)
    press(mode, "h", "k", "k")
    assert mode.cursor == (1, 0)
    press(mode, "Right", "Down", "Left", "Up")
    assert mode.cursor == (1, 0)


def test_l_at_the_end_of_a_line_goes_on_to_the_next_and_h_comes_back() -> None:
    mode = pane("ab", "cd", cursor=(1, 0))
    press(mode, "l")
    assert mode.cursor == (0, 1)
    press(mode, "h")
    assert mode.cursor == (1, 0)


def test_the_column_is_remembered_over_a_shorter_line() -> None:
    mode = pane("abcdef", "ab", "abcdef", cursor=(4, 0))
    press(mode, "j")
    assert mode.cursor == (1, 1)
    press(mode, "j")
    assert mode.cursor == (4, 2)


def test_after_dollar_up_and_down_keep_to_the_end_of_the_line() -> None:
    mode = pane("abc", "abcdef", "a", cursor=(0, 0))
    press(mode, "$")
    assert mode.cursor == (2, 0)
    press(mode, "j")
    assert mode.cursor == (5, 1)
    press(mode, "j")
    assert mode.cursor == (0, 2)


def test_the_cursor_never_rests_on_the_right_half_of_a_wide_character() -> None:
    mode = pane("ab界c", "abcdef", cursor=(3, 1))
    press(mode, "k")
    assert mode.cursor == (2, 0)
    press(mode, "l")
    assert mode.cursor == (4, 0)
    press(mode, "h")
    assert mode.cursor == (2, 0)


def test_a_count_repeats_a_motion() -> None:
    mode = pane(*[f"line {i} of text" for i in range(20)], height=20)
    press(mode, "3", "j")
    assert mode.cursor == (0, 3)
    press(mode, "1", "0", "l")
    assert mode.cursor == (10, 3)
    press(mode, "0")
    assert mode.cursor == (0, 3)
    press(mode, "2", "w")
    assert mode.cursor == (7, 3)


def test_a_count_larger_than_the_lines_stops_at_the_end() -> None:
    mode = pane("a", "b", "c")
    press(mode, *"99999j")
    assert mode.cursor == (0, 2)


def test_zero_caret_and_dollar() -> None:
    mode = pane("   indented text   ", cursor=(9, 0))
    press(mode, "0")
    assert mode.cursor == (0, 0)
    press(mode, "$")
    assert mode.cursor == (15, 0)
    press(mode, "^")
    assert mode.cursor == (3, 0)
    press(mode, "Home")
    assert mode.cursor == (0, 0)
    press(mode, "End")
    assert mode.cursor == (15, 0)


def test_line_start_and_end_follow_soft_wraps() -> None:
    mode = pane("  a lo", "ng line", "next", width=7, wrapped=[0], cursor=(2, 1))
    press(mode, "0")
    assert mode.cursor == (0, 0)
    press(mode, "$")
    assert mode.cursor == (6, 1)
    press(mode, "^")
    assert mode.cursor == (2, 0)


def test_g_and_capital_g_go_to_the_ends_of_the_history() -> None:
    mode = pane(*[f"line {i}" for i in range(10)], height=3, cursor=(2, 1))
    press(mode, "g")
    assert (mode.cursor, mode.top, mode.position_indicator()) == ((0, 0), 0, "[7/7]")
    press(mode, "G")
    assert (mode.cursor, mode.top, mode.position_indicator()) == ((5, 9), 7, "[0/7]")


def test_h_m_l_go_to_the_top_middle_and_bottom_of_the_view() -> None:
    mode = pane(*[f"line {i}" for i in range(10)], height=5, cursor=(3, 2))
    assert mode.top == 5
    press(mode, "H")
    assert mode.cursor == (0, 5)
    press(mode, "M")
    assert mode.cursor == (0, 7)
    press(mode, "L")
    assert mode.cursor == (0, 9)


def test_the_view_follows_the_cursor_up_into_the_history() -> None:
    mode = pane(*[f"line {i}" for i in range(10)], height=3, cursor=(0, 0))
    assert (mode.top, mode.cursor) == (7, (0, 7))
    press(mode, "k")
    assert (mode.top, mode.view_cursor(), mode.position_indicator()) == (6, (0, 0), "[1/7]")
    press(mode, "j", "j", "j")
    assert (mode.top, mode.view_cursor()) == (7, (0, 2))


# Pages and scrolling.


def test_pages_move_the_height_less_two_and_stop_at_the_ends() -> None:
    mode = pane(*[f"{i}" for i in range(30)], height=10, cursor=(0, 5))
    assert (mode.top, mode.cursor) == (20, (0, 25))
    press(mode, "C-b")
    assert (mode.top, mode.cursor) == (12, (0, 17))
    press(mode, "PageUp", "PPage")
    assert (mode.top, mode.cursor) == (0, (0, 1))
    press(mode, "C-b")
    assert (mode.top, mode.cursor, mode.position_indicator()) == (0, (0, 0), "[20/20]")
    press(mode, "C-f")
    assert (mode.top, mode.cursor) == (8, (0, 8))
    press(mode, "PageDown", "NPage", "C-f")
    assert (mode.top, mode.cursor) == (20, (0, 29))


def test_half_pages_move_half_the_height() -> None:
    mode = pane(*[f"{i}" for i in range(30)], height=10, cursor=(0, 5))
    press(mode, "C-u")
    assert (mode.top, mode.cursor) == (15, (0, 20))
    press(mode, "C-d")
    assert (mode.top, mode.cursor) == (20, (0, 25))
    press(mode, "C-d")
    assert (mode.top, mode.cursor) == (20, (0, 29))


def test_scrolling_a_line_leaves_the_cursor_until_it_would_leave_the_view() -> None:
    mode = pane(*[f"{i}" for i in range(10)], height=3, cursor=(0, 0))
    press(mode, "C-y")
    assert (mode.top, mode.cursor) == (6, (0, 7))
    press(mode, "C-y", "C-y")
    assert (mode.top, mode.cursor) == (4, (0, 6))
    press(mode, "C-e")
    assert (mode.top, mode.cursor) == (5, (0, 6))
    press(mode, "C-e", "C-e")
    assert (mode.top, mode.cursor) == (7, (0, 7))
    press(mode, "K", "J")
    assert mode.top == 7


def test_the_wheel_scrolls_five_lines() -> None:
    """tmux binds the wheel in copy mode to `send -X -N 5 scroll-up` (and down)."""
    mode = pane(*[f"{i}" for i in range(20)], height=4, cursor=(0, 3))
    mode.run("scroll-up", count=5)
    assert (mode.top, mode.cursor) == (11, (0, 14))
    mode.run("scroll-down", count=5)
    assert mode.top == 16


def test_select_word_selects_the_word_under_the_cursor() -> None:
    """select-word (tmux's double click): the word the cursor is on, from its first
    cell to its last, the cursor at the end; after a mouse move the cursor is there."""
    mode = pane("alpha beta gamma", height=1)
    mode.mouse_move(8, 0)
    assert mode.cursor == (8, 0)
    mode.run("select-word")
    assert mode.cursor == (9, 0)
    assert mode.run("copy-selection") == Action("copy", "beta", stay=True)


def test_after_select_word_the_mouse_selects_whole_words() -> None:
    """tmux's SEL_WORD: a command from a mouse key moves the cursor to the mouse, and
    the selection grows to the whole word there; in emacs mode too, whose selection
    ends before the cursor."""
    mode = pane("alpha beta gamma", height=1, keys="emacs")
    mode.mouse_move(7, 0)
    mode.run("select-word")
    mode.mouse_move(7, 0)
    assert mode.run("copy-selection-no-clear") == Action("copy", "beta", stay=True)
    mode.mouse_move(12, 0)
    assert mode.run("copy-selection-no-clear") == Action("copy", "beta gamma", stay=True)
    mode.mouse_move(1, 0)
    assert mode.run("copy-selection-no-clear") == Action("copy", "alpha beta", stay=True)


def test_z_puts_the_cursor_line_in_the_middle_of_the_view() -> None:
    mode = pane(*[f"{i}" for i in range(20)], height=5, cursor=(0, 4))
    press(mode, "z")
    assert (mode.top, mode.cursor) == (15, (0, 19))
    press(mode, "g", "1", "0", "j", "z")
    assert mode.top == 8


def test_goto_line_scrolls_to_lines_up_from_the_bottom() -> None:
    mode = pane(*[f"{i}" for i in range(20)], height=5, cursor=(0, 1))
    assert press(mode, ":") == Action("prompt", "goto-line")
    mode.goto_line(6)
    assert (mode.top, mode.cursor, mode.position_indicator()) == (9, (0, 10), "[6/15]")
    mode.goto_line(99)
    assert (mode.top, mode.cursor) == (0, (0, 1))


# Words, paragraphs, jumps.


def test_w_b_e_stop_between_words_and_punctuation() -> None:
    mode = pane("foo.bar  baz")
    stops = []
    for _ in range(4):
        press(mode, "w")
        stops.append(mode.cursor[0])
    assert stops == [3, 4, 9, 11]
    press(mode, "0")
    stops = []
    for _ in range(4):
        press(mode, "e")
        stops.append(mode.cursor[0])
    assert stops == [2, 3, 6, 11]
    stops = []
    for _ in range(4):
        press(mode, "b")
        stops.append(mode.cursor[0])
    assert stops == [9, 4, 3, 0]


def test_capital_w_b_e_only_stop_at_blanks() -> None:
    mode = pane("foo.bar  baz(1)")
    press(mode, "W")
    assert mode.cursor == (9, 0)
    press(mode, "0", "E")
    assert mode.cursor == (6, 0)
    press(mode, "$", "B")
    assert mode.cursor == (9, 0)


def test_words_go_on_over_a_line_break_but_not_through_a_soft_wrap() -> None:
    mode = pane("one hal", "f two", "three", width=7, wrapped=[0])
    press(mode, "w")
    assert mode.cursor == (4, 0)
    press(mode, "w")
    assert mode.cursor == (2, 1)
    press(mode, "w")
    assert mode.cursor == (0, 2)
    press(mode, "b", "b")
    assert mode.cursor == (4, 0)
    press(mode, "e")
    assert mode.cursor == (0, 1)


def test_a_word_with_wide_characters_is_one_word() -> None:
    mode = pane("日本語 x")
    press(mode, "e")
    assert mode.cursor == (4, 0)
    press(mode, "w")
    assert mode.cursor == (7, 0)
    press(mode, "b")
    assert mode.cursor == (0, 0)


def test_paragraphs_are_separated_by_blank_lines() -> None:
    mode = pane("a", "b", "", "", "c", "d", "", "e", cursor=(0, 7))
    press(mode, "{")
    assert mode.cursor == (0, 6)
    press(mode, "{")
    assert mode.cursor == (0, 3)
    press(mode, "{")
    assert mode.cursor == (0, 0)
    press(mode, "}")
    assert mode.cursor == (0, 2)
    press(mode, "2", "}")
    assert mode.cursor == (0, 7)


def test_f_t_and_their_backward_forms_jump_to_a_character() -> None:
    mode = pane("a,b,c,d")
    press(mode, "f", ",")
    assert mode.cursor == (1, 0)
    press(mode, ";")
    assert mode.cursor == (3, 0)
    press(mode, ",")
    assert mode.cursor == (1, 0)
    press(mode, "t", "d")
    assert mode.cursor == (5, 0)
    press(mode, "F", "a")
    assert mode.cursor == (0, 0)
    press(mode, "$", "T", "b")
    assert mode.cursor == (3, 0)
    press(mode, "0", "2", "f", ",")
    assert mode.cursor == (3, 0)


def test_t_skips_the_next_cell_so_that_t_again_goes_on() -> None:
    mode = pane("x.y.z.w")
    press(mode, "t", ".")
    assert mode.cursor == (2, 0)
    press(mode, ";")
    assert mode.cursor == (4, 0)
    press(mode, ",")
    assert mode.cursor == (2, 0)


def test_jumps_follow_a_soft_wrap_but_stay_on_the_logical_line() -> None:
    mode = pane("abcd", "efg", "xyz", width=4, wrapped=[0])
    press(mode, "f", "g")
    assert mode.cursor == (2, 1)
    press(mode, "f", "x")
    assert mode.cursor == (2, 1)
    press(mode, "F", "a")
    assert mode.cursor == (0, 0)


def test_a_jump_waits_for_its_character_and_space_is_one() -> None:
    mode = pane("ab cd")
    press(mode, "f")
    assert mode.cursor == (0, 0)
    press(mode, "Space")
    assert mode.cursor == (2, 0)
    press(mode, "f", "Escape", "l")
    assert mode.cursor == (3, 0)


# Selecting and copying.


def test_space_selects_from_the_cursor_and_enter_copies_it_inclusive() -> None:
    mode = pane("hello world")
    press(mode, "w", "Space", "e")
    assert mode.selection_spans(0) == [(6, 11)]
    assert copied(mode, "Enter") == "world"


def test_y_and_c_j_copy_too() -> None:
    assert copied(pane("abc"), "v", "l", "y") == "ab"
    assert copied(pane("abc"), "v", "l", "C-j") == "ab"


def test_v_toggles_the_selection_off() -> None:
    mode = pane("abc")
    press(mode, "v", "l")
    assert mode.selection_spans(0) == [(0, 2)]
    press(mode, "v")
    assert mode.selection_spans(0) == []
    assert press(mode, "Enter") == Action("exit")


def test_a_selection_flows_over_lines_and_drops_trailing_blanks() -> None:
    mode = pane("first line   ", "second", "third line", cursor=(6, 0))
    press(mode, "Space", "j", "j", "0", "l", "l", "l", "l")
    assert mode.selection_spans(0) == [(6, 13)]
    assert mode.selection_spans(1) == [(0, 13)]
    assert mode.selection_spans(2) == [(0, 5)]
    assert copied(mode, "Enter") == "line\nsecond\nthird"


def test_a_backward_selection_copies_the_same_text() -> None:
    mode = pane("alpha beta", "gamma", cursor=(2, 1))
    press(mode, "Space", "k", "l")
    assert mode.cursor == (3, 0)
    assert copied(mode, "Enter") == "ha beta\ngam"


def test_a_soft_wrap_is_copied_without_a_newline() -> None:
    mode = pane("a long line tha", "t wraps", "next", width=15, wrapped=[0])
    press(mode, "V", "j", "j")
    assert copied(mode, "Enter") == "a long line that wraps\nnext"


def test_a_blank_at_a_soft_wrap_is_kept() -> None:
    mode = pane("words and", "more", width=10, wrapped=[0])
    press(mode, "Space", "j", "$")
    assert copied(mode, "Enter") == "words and more"


def test_wide_characters_are_selected_whole() -> None:
    mode = pane("ab日本cd")
    press(mode, "f", "日", "Space", "l")
    assert mode.selection_spans(0) == [(2, 6)]
    assert copied(mode, "Enter") == "日本"


def test_capital_v_selects_whole_lines() -> None:
    mode = pane("one", "two  ", "three", cursor=(1, 0))
    press(mode, "V")
    assert mode.cursor == (2, 0)
    press(mode, "j")
    assert mode.selection_spans(0) == [(0, 5)]
    assert mode.selection_spans(2) == []
    assert copied(mode, "Enter") == "one\ntwo"


def test_c_v_selects_a_rectangle() -> None:
    mode = pane("abcdef", "gh", "mnopqr", cursor=(1, 0))
    press(mode, "Space", "C-v", "j", "j", "l", "l")
    assert mode.cursor == (3, 2)
    assert [mode.selection_spans(y) for y in range(3)] == [[(1, 4)], [(1, 4)], [(1, 4)]]
    assert copied(mode, "Enter") == "bcd\nh\nnop"


def test_a_rectangle_goes_past_the_end_of_short_lines() -> None:
    mode = pane("ab", "cdefgh", cursor=(0, 0))
    press(mode, "C-v", "Space", "l", "l", "l", "l")
    assert mode.cursor == (4, 0)
    press(mode, "C-v")
    assert mode.cursor == (1, 0)


def test_a_rectangle_takes_wide_characters_it_cuts_whole() -> None:
    mode = pane("日本", "abcd", cursor=(1, 1))
    press(mode, "C-v", "Space", "l", "k")
    assert mode.cursor == (2, 0)
    assert mode.selection_spans(0) == [(0, 4)]
    assert mode.selection_spans(1) == [(1, 3)]
    assert copied(mode, "Enter") == "日本\nbc"


def test_o_swaps_the_cursor_to_the_other_end() -> None:
    mode = pane("abcdef")
    press(mode, "l", "Space", "l", "l", "o")
    assert mode.cursor == (1, 0)
    press(mode, "h")
    assert copied(mode, "Enter") == "abcd"


def test_escape_clears_the_selection_and_stays_in_copy_mode() -> None:
    mode = pane("abc")
    assert press(mode, "Space", "l", "Escape") is None
    assert mode.selection_spans(0) == []
    assert press(mode, "Escape") is None


@pytest.mark.parametrize("key", ["q", "C-c"])
def test_q_and_c_c_leave(key: str) -> None:
    assert press(pane("abc"), "Space", "l", key) == Action("exit")


def test_enter_without_a_selection_leaves_without_copying() -> None:
    assert press(pane("abc"), "Enter") == Action("exit")


def test_a_count_does_not_repeat_a_toggle() -> None:
    mode = pane("abc")
    press(mode, "2", "v", "l")
    assert mode.selection_spans(0) == [(0, 2)]


# Searching.


def test_slash_and_question_mark_ask_for_the_pattern() -> None:
    mode = pane("abc")
    assert press(mode, "/") == Action("prompt", "search-forward")
    assert press(mode, "?") == Action("prompt", "search-backward")


def test_search_forward_wraps_round_and_n_and_capital_n_repeat_it() -> None:
    mode = pane("foo one", "two foo", "foo three", cursor=(0, 1))
    assert mode.search("foo", forward=True)
    assert (mode.cursor, mode.message) == ((4, 1), None)
    press(mode, "n")
    assert mode.cursor == (0, 2)
    press(mode, "n")
    assert (mode.cursor, mode.message) == ((0, 0), "Search wrapped")
    press(mode, "N")
    assert (mode.cursor, mode.message) == ((0, 2), "Search wrapped")
    press(mode, "N")
    assert (mode.cursor, mode.message) == ((4, 1), None)


def test_search_backward_and_n_go_up() -> None:
    mode = pane("foo one", "two foo", "foo three", cursor=(5, 2))
    assert mode.search("foo", forward=False)
    assert mode.cursor == (0, 2)
    press(mode, "n")
    assert mode.cursor == (4, 1)
    press(mode, "N")
    assert mode.cursor == (0, 2)


def test_a_pattern_not_found_leaves_the_cursor_and_says_so() -> None:
    mode = pane("abc", "def", cursor=(1, 1))
    assert not mode.search("xyz", forward=True)
    assert (mode.cursor, mode.message) == ((1, 1), "Pattern not found: xyz")
    assert mode.position_indicator() == "(0 results) [0/0]"


def test_search_is_smart_about_case() -> None:
    mode = pane("Error error ERROR")
    mode.search("error", forward=True)
    assert [span[0] for span in mode.match_spans(0)] == [0, 6, 12]
    mode.search("Error", forward=True)
    assert mode.match_spans(0) == [(0, 5)]


def test_search_takes_a_regular_expression_as_tmux_does() -> None:
    mode = pane("error 404 at line 12", "warning 500")
    assert mode.search(r"[0-9]{3}", forward=True)
    assert (mode.match_spans(0), mode.match_spans(1)) == ([(6, 9)], [(8, 11)])
    mode.search(r"line \d+$|^warn", forward=True)
    assert (mode.match_spans(0), mode.match_spans(1)) == ([(13, 20)], [(0, 4)])
    mode.search("ERROR|Warning", forward=True)  # an upper-case letter: case counts
    assert (mode.match_spans(0), mode.match_spans(1)) == ([], [])
    mode.search("x*", forward=True)  # only empty matches: none
    assert mode.message == "Pattern not found: x*"


def test_a_pattern_that_is_no_regular_expression_is_plain_text() -> None:
    mode = pane("f(x) = (y", "a * b")
    assert mode.search("(y", forward=True)
    assert mode.match_spans(0) == [(7, 9)]
    assert mode.search("*", forward=True)
    assert mode.match_spans(1) == [(2, 3)]


def test_matches_are_highlighted_and_the_current_one_told_apart() -> None:
    mode = pane("ab ab", "xx ab")
    mode.search("ab", forward=True)
    assert mode.match_spans(0) == [(0, 2), (3, 5)]
    assert mode.match_spans(1) == [(3, 5)]
    assert mode.current_match is not None
    current = [span for span in mode.match_spans(0) if mode.current_match.covers(span[0], 0)]
    assert current == [(3, 5)]
    assert mode.position_indicator() == "(3 results) [0/0]"


def test_a_match_over_a_soft_wrap_is_found_and_highlighted_on_both_lines() -> None:
    mode = pane("the needl", "e is here", width=9, wrapped=[0], cursor=(0, 1))
    assert mode.search("needle", forward=False)
    assert mode.cursor == (4, 0)
    assert mode.match_spans(0) == [(4, 9)]
    assert mode.match_spans(1) == [(0, 1)]


def test_a_match_of_wide_characters_covers_their_cells() -> None:
    mode = pane("xx 日本語", cursor=(0, 0))
    mode.search("本", forward=True)
    assert (mode.cursor, mode.match_spans(0)) == ((5, 0), [(5, 7)])


def test_search_scrolls_the_history_to_show_the_match() -> None:
    mode = pane("needle", *[f"{i}" for i in range(20)], height=5, cursor=(0, 4))
    mode.search("needle", forward=False)
    assert mode.cursor == (0, 0)
    assert mode.top == 0
    assert mode.position_indicator() == "(1 results) [16/16]"


def test_a_count_repeats_n() -> None:
    mode = pane("a a a a a")
    mode.search("a", forward=True)
    press(mode, "3", "n")
    assert mode.cursor == (8, 0)


# The emacs key table.


def test_emacs_moves_by_cells_lines_and_line_ends() -> None:
    mode = pane("abc def", "ghi", width=10, keys="emacs")
    press(mode, "C-f", "C-f")
    assert mode.cursor == (2, 0)
    press(mode, "C-n")
    assert mode.cursor == (2, 1)
    press(mode, "C-p", "C-b")
    assert mode.cursor == (1, 0)
    press(mode, "C-e")
    assert mode.cursor == (7, 0)
    press(mode, "C-a")
    assert mode.cursor == (0, 0)


def test_emacs_words_end_after_the_word_as_in_emacs() -> None:
    mode = pane("foo bar.baz", keys="emacs")
    press(mode, "M-f")
    assert mode.cursor == (3, 0)
    press(mode, "M-f")
    assert mode.cursor == (7, 0)
    press(mode, "M-b")
    assert mode.cursor == (4, 0)


def test_emacs_selects_up_to_the_cursor_and_m_w_copies() -> None:
    mode = pane("hello world", width=12, keys="emacs")
    press(mode, "C-Space", "M-f")
    assert mode.selection_spans(0) == [(0, 5)]
    assert copied(mode, "M-w") == "hello"
    mode = pane("hello world", keys="emacs")
    assert copied(mode, "C-@", "C-e", "C-w") == "hello world"


def test_emacs_takes_the_last_column_of_a_full_line_into_a_selection() -> None:
    mode = pane("full line", "next", keys="emacs")
    press(mode, "C-Space", "C-e")
    assert mode.cursor == (8, 0)
    assert copied(mode, "M-w") == "full line"


def test_emacs_c_g_clears_and_q_and_escape_leave() -> None:
    mode = pane("abc", keys="emacs")
    assert press(mode, "C-Space", "C-f", "C-g") is None
    assert mode.selection_spans(0) == []
    assert press(mode, "q") == Action("exit")
    assert press(mode, "Escape") == Action("exit")


def test_emacs_pages_history_and_view_lines() -> None:
    mode = pane(*[f"{i}" for i in range(30)], width=5, height=10, cursor=(0, 5), keys="emacs")
    press(mode, "M-v")
    assert (mode.top, mode.cursor) == (12, (0, 17))
    press(mode, "C-v")
    assert (mode.top, mode.cursor) == (20, (0, 25))
    press(mode, "M-<")
    assert (mode.top, mode.cursor) == (0, (0, 0))
    press(mode, "M-r")
    assert mode.cursor == (0, 4)
    press(mode, "M->")
    assert (mode.top, mode.cursor) == (20, (2, 29))
    press(mode, "M-R")
    assert mode.cursor == (0, 20)
    press(mode, "M-<", "Space")
    assert (mode.top, mode.cursor) == (8, (0, 8))


def test_emacs_counts_come_from_meta_digits() -> None:
    mode = pane(*[f"{i}" for i in range(20)], height=20, keys="emacs")
    press(mode, "M-1", "2", "C-n")
    assert mode.cursor == (0, 12)
    press(mode, "3")
    assert mode.cursor == (0, 12)


def test_emacs_prompts_and_search_repeat() -> None:
    mode = pane("x y x", keys="emacs")
    assert press(mode, "C-s") == Action("prompt", "search-forward")
    assert press(mode, "C-r") == Action("prompt", "search-backward")
    assert press(mode, "g") == Action("prompt", "goto-line")
    # As tmux 3.3a with mode-keys emacs: a forward search counts a match at the cursor
    # and lands just past it; a backward one lands on the start of the match before.
    mode = pane("a a a a a", keys="emacs")
    mode.search("a", forward=True)
    assert mode.cursor == (1, 0)
    positions = []
    for key in ("n", "n", "n", "N", "N"):
        press(mode, key)
        positions.append(mode.cursor[0])
    assert positions == [3, 5, 7, 6, 4]


def test_emacs_rectangle_excludes_the_cursor_column() -> None:
    mode = pane("abcd", "efgh", keys="emacs")
    press(mode, "R", "C-Space", "C-n", "C-f", "C-f")
    assert copied(mode, "M-w") == "ab\nef"


def test_emacs_paragraphs_and_indentation() -> None:
    mode = pane("a", "", "  b", keys="emacs")
    press(mode, "M-}")
    assert mode.cursor == (0, 1)
    press(mode, "C-n", "M-m")
    assert mode.cursor == (2, 2)
    press(mode, "M-{")
    assert mode.cursor == (0, 1)


# Whatever is pressed.


_GLYPHS = st.sampled_from(["a", "b", "_", ".", "(", " ", " ", "日"])
_KEYS = sorted({*copy_mode_commands("vi"), *copy_mode_commands("emacs"), *"0123456789",
                "M-2", "Space", "C-Space", "PageUp",
                "x", "a", "search", "goto"})


@st.composite
def panes(draw: st.DrawFn) -> tuple[CopyMode, list[str]]:
    width = draw(st.integers(1, 7))
    rows = []
    for _ in range(draw(st.integers(1, 10))):
        row: list[str] = []
        while len(row) < width:
            glyph = draw(_GLYPHS)
            if glyph == "日":
                row += [glyph, ""] if len(row) < width - 1 else ["a"]
            else:
                row.append(glyph)
        rows.append(row)
    wrapped = draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows)))
    height = draw(st.integers(1, 6))
    cursor = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    mode = CopyMode(rows, wrapped, height, cursor, keys=draw(st.sampled_from(["vi", "emacs"])))
    return mode, ["".join(row) for row in rows]


def logical_lines(mode: CopyMode, texts: list[str]) -> list[str]:
    lines: list[str] = []
    joined = False
    for y, text in enumerate(texts):
        if joined:
            lines[-1] += text
        else:
            lines.append(text)
        joined = bool(mode._wrapped[y])
    return lines


def assert_in_bounds(mode: CopyMode, lines: int) -> None:
    x, y = mode.cursor
    assert 0 <= x < mode.width and 0 <= y < lines
    assert 0 <= mode.top <= max(0, lines - mode.height)
    assert mode.top <= y < mode.top + mode.height


@settings(max_examples=300, deadline=None)
@given(panes(), st.lists(st.sampled_from(_KEYS), max_size=40), st.data())
def test_any_keys_keep_the_cursor_and_view_in_the_lines(
        made: tuple[CopyMode, list[str]], keys: list[str], data: st.DataObject) -> None:
    mode, texts = made
    lines = logical_lines(mode, texts)
    assert_in_bounds(mode, len(texts))
    for key in keys:
        if key == "search":
            mode.search(data.draw(st.sampled_from(["a", "b", "A", "a b", ".", "日"])),
                        forward=data.draw(st.booleans()))
            action = None
        elif key == "goto":
            mode.goto_line(data.draw(st.integers(-2, 12)))
            action = None
        else:
            action = mode.press(key)
        assert_in_bounds(mode, len(texts))
        for y in range(len(texts)):
            for start, stop in mode.selection_spans(y) + mode.match_spans(y):
                assert 0 <= start < stop <= mode.width
        if action is not None and action.kind == "copy":
            assert action.text
            for line in action.text.split("\n"):
                assert line == line.rstrip(" ")
                assert any(line in whole for whole in lines)


def occurrences(pattern: str, text: str) -> int:
    return sum(text.startswith(pattern, i) for i in range(len(text)))


@settings(max_examples=200, deadline=None)
@given(panes(), st.sampled_from(["a", "ab", "a b", "日", "b日", "_."]))
def test_every_match_is_the_pattern_and_every_pattern_a_match(
        made: tuple[CopyMode, list[str]], pattern: str) -> None:
    mode, texts = made
    found = mode.search(re.escape(pattern), forward=True)  # a regular expression: the text
    matches = mode._matches
    assert found == bool(matches)
    assert len(matches) == sum(occurrences(pattern, line) for line in logical_lines(mode, texts))
    for match in matches:
        (x, y), (end_x, end_y) = match
        text = ""
        while (y, x) < (end_y, end_x):
            text += mode._rows[y][x]
            x, y = (x + 1, y) if x + 1 < mode.width else (0, y + 1)
        assert text == pattern


def test_a_mouse_drag_selects_from_the_press_and_the_release_copies() -> None:
    mode = pane("one two", "three four", "five six", height=2)  # "one two" is history
    assert mode.top == 1
    mode.mouse_down(4, 0)  # on "four"
    assert mode.cursor == (4, 1) and mode.selection_spans(1) == []
    mode.mouse_drag(3, 1)  # to "fiv|e": vi includes the cell under the cursor
    assert mode.mouse_up() == Action("copy", "e four\nfive", pipe="")


def test_a_mouse_drag_past_the_top_scrolls_and_a_click_copies_nothing() -> None:
    mode = pane("one two", "three four", "five six", height=2)
    mode.mouse_down(2, 1)
    assert mode.mouse_up() is None  # a click: nothing to copy, copy mode stays
    mode.mouse_down(2, 1)
    mode.mouse_drag(0, -1)  # above the view: a line further up comes into it
    assert mode.top == 0 and mode.cursor == (0, 0)
    assert mode.mouse_up() == Action("copy", "one two\nthree four\nfiv", pipe="")
    assert not mode.at_bottom


def test_copy_mode_knows_when_its_view_is_back_at_the_bottom() -> None:
    mode = pane("a", "b", "c", height=2)
    assert mode.at_bottom
    mode.run("scroll-up", count=5)
    assert not mode.at_bottom
    mode.run("scroll-down", count=5)
    assert mode.at_bottom
