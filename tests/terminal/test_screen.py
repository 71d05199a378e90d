"""The emulator, one behaviour per test: bytes in, what a person would see out."""

from __future__ import annotations

import pytest

from termhost.terminal import Terminal
from termhost.terminal.cell import Cell


def term(data: bytes | str, cols: int = 20, rows: int = 5, **kwargs: object) -> Terminal:
    t = Terminal(cols, rows, **kwargs)  # type: ignore[arg-type]
    t.feed(data.encode() if isinstance(data, str) else data)
    return t


def lines(t: Terminal) -> list[str]:
    return [line.rstrip() for line in t.display]


def everything(t: Terminal) -> list[str]:
    """Scrollback then screen, as `capture-pane -S -` shows them."""
    return t.history.lines() + lines(t)


def cell(t: Terminal, x: int, y: int) -> Cell:
    return t.screen.buffer[y][x]


# --- alternate screen ------------------------------------------------------------------


@pytest.mark.parametrize("mode", [47, 1047, 1049])
def test_the_alternate_screen_leaves_the_main_screen_untouched(mode: int) -> None:
    t = term(f"main\r\n\x1b[?{mode}h\x1b[Hfull-screen app\x1b[?{mode}l")
    assert lines(t)[:2] == ["main", ""]


def test_1049_saves_and_restores_the_cursor_and_clears_the_alternate_screen() -> None:
    t = term("abc\x1b[?1049hxyz")
    assert lines(t)[0] == "   xyz"  # cleared, the cursor where it was
    t.feed(b"\x1b[5;5H\x1b[?1049l")
    assert t.cursor == (3, 0)
    assert lines(t)[0] == "abc"


def test_a_full_screen_app_does_not_fill_the_scrollback() -> None:
    t = term("\x1b[?1049h" + "x\r\n" * 50 + "\x1b[?1049l", rows=5)
    assert len(t.history) == 0


# --- scrolling ---------------------------------------------------------------------------


def test_su_scrolls_the_region_up_and_keeps_the_cursor() -> None:
    t = term("1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[3;2H\x1b[S")
    assert lines(t) == ["1", "3", "4", "", "5"]
    assert t.cursor == (1, 2)


def test_sd_scrolls_the_region_down() -> None:
    t = term("1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[2T")
    assert lines(t) == ["1", "", "", "2", "5"]


def test_lines_scrolled_off_a_full_screen_go_to_the_scrollback() -> None:
    t = term("".join(f"line {i}\r\n" for i in range(10)), rows=5)
    assert t.history.lines() == [f"line {i}" for i in range(6)]


def test_lines_scrolled_inside_a_region_do_not_go_to_the_scrollback() -> None:
    t = term("\x1b[2;4r\x1b[4;1H" + "x\r\n" * 5)
    assert len(t.history) == 0


def test_the_history_limit_is_kept() -> None:
    t = term("".join(f"{i}\r\n" for i in range(100)), rows=5, history_limit=10)
    assert len(t.history) == 10
    assert t.history.lines()[-1] == "95"


def test_rep_repeats_the_last_character() -> None:
    assert lines(term("ab\x1b[3b"))[0] == "abbbb"


@pytest.mark.parametrize("cols", [1, 5])
def test_ich_shifts_the_row_right_and_cuts_it_at_the_margin(cols: int) -> None:
    t = term("abcde"[:cols] + "\r\x1b[2@", cols=cols, rows=2)
    assert lines(t)[0] == ("  abc" if cols == 5 else "")
    assert all(0 <= x < cols for row in t.screen.buffer.values() for x in row)


def test_il_dl_stay_inside_the_region() -> None:
    t = term("1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[3;1H\x1b[L")
    assert lines(t) == ["1", "2", "", "3", "5"]
    t.feed(b"\x1b[2M")
    assert lines(t) == ["1", "2", "", "", "5"]


def test_ri_at_the_top_margin_scrolls_the_region_down() -> None:
    t = term("1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[2;1H\x1bM")
    assert lines(t) == ["1", "", "2", "3", "5"]


@pytest.mark.parametrize(
    ("sequence", "region"),
    [("\x1b[r", None), ("\x1b[2;4r", (1, 3)), ("\x1b[;3r", (0, 2)), ("\x1b[2;r", (1, 4)),
     ("\x1b[?6h\x1b[2;4r", (1, 3))],
)
def test_decstbm_sets_the_region_and_homes_the_cursor(
    sequence: str, region: tuple[int, int] | None
) -> None:
    """tmux's screen_write_scrollregion: every region set homes the cursor, the whole
    screen's (CSI r) too, and to the screen's top left even in origin mode."""
    t = term("\x1b[3;4H" + sequence)
    assert t.cursor == (0, 0)
    assert t.screen.margins == region


@pytest.mark.parametrize("sequence", ["\x1b[3;3r", "\x1b[0;0r", "\x1b[4;2r", "\x1b[6;9r"])
def test_decstbm_of_fewer_than_two_rows_is_ignored(sequence: str) -> None:
    """tmux ignores a region whose top is not above its bottom (0 counts as 1, rows past
    the screen as its last): the region and the cursor stay."""
    t = term("\x1b[2;4r\x1b[3;4H" + sequence)
    assert t.cursor == (3, 2)
    assert t.screen.margins == (1, 3)


# --- characters ------------------------------------------------------------------------


def test_a_wide_character_at_the_last_column_wraps_whole() -> None:
    t = term("x" * 19 + "日", cols=20)
    assert lines(t)[:2] == ["x" * 19, "日"]
    assert t.screen.wrapped == {0}


def test_combining_marks_join_the_character_before() -> None:
    t = term("e\u0301x")
    assert cell(t, 0, 0).data == "e\u0301"
    assert cell(t, 1, 0).data == "x"


@pytest.mark.parametrize("emoji", ["\u2764\ufe0f", "\U0001f468\u200d\U0001f469\u200d\U0001f467"])
def test_emoji_sequences_keep_the_text_after_them(emoji: str) -> None:
    t = term(f"a{emoji}b and more")
    assert "b and more" in lines(t)[0]


def test_text_exactly_as_wide_as_the_screen_does_not_wrap_until_more_comes() -> None:
    t = term("x" * 20)
    assert t.cursor == (20, 0)  # past the last column: the wrap is pending (tmux's view)
    assert lines(t)[1] == ""
    t.feed(b"y")
    assert lines(t)[1] == "y"


def test_autowrap_off_overwrites_the_last_column() -> None:
    t = term("\x1b[?7l" + "x" * 19 + "abc")
    assert lines(t)[0] == "x" * 19 + "c"
    assert not t.screen.autowrap


# --- attributes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sgr", "fg"),
    [
        ("31", "red"), ("91", "brightred"), ("38;5;208", "ff8700"), ("38:5:208", "ff8700"),
        ("38;2;1;2;3", "010203"), ("38:2::1:2:3", "010203"), ("38:2:1:2:3", "010203"),
        ("38;5;1", "red"),
    ],
)
def test_foreground_colours_in_every_spelling(sgr: str, fg: str) -> None:
    assert cell(term(f"\x1b[{sgr}mX"), 0, 0).fg == fg


def test_attributes_and_their_resets() -> None:
    t = term("\x1b[1;2;3;4:3;7;9mA\x1b[22;23;24;27;29mB\x1b[0mC")
    a, b = cell(t, 0, 0), cell(t, 1, 0)
    assert (a.bold, a.faint, a.italics, a.underline, a.reverse, a.strikethrough) == (
        True, True, True, 3, True, True,
    )
    assert (b.bold, b.faint, b.italics, b.underline, b.reverse, b.strikethrough) == (
        False, False, False, 0, False, False,
    )
    assert cell(t, 2, 0) == Cell("C")


def test_malformed_sgr_is_ignored_without_corrupting_later_text() -> None:
    t = term("\x1b[38;5mA\x1b[38;2;1mB\x1b[38:2mC\x1b[31mD")
    assert lines(t)[0] == "ABCD"
    assert cell(t, 3, 0).fg == "red"


# --- modes ----------------------------------------------------------------------------


def test_modes_a_multiplexer_honours_are_exposed() -> None:
    s = term("\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[?1004h\x1b[?1h\x1b=\x1b[?25l\x1b[4 q"
             "\x1b[?2026h").screen
    assert s.bracketed_paste and s.focus_events and s.application_cursor
    assert s.application_keypad and s.synchronized_output
    assert (s.mouse_tracking, s.mouse_encoding) == (1002, 1006)
    assert not s.cursor_visible
    assert s.cursor_shape == 4
    t = term("\x1b[?2004h\x1b[?2004l\x1b[?1000h\x1b[?1000l\x1b>")
    assert not t.screen.bracketed_paste and t.screen.mouse_tracking == 0
    assert not t.screen.application_keypad


# --- OSC, BEL, replies ----------------------------------------------------------------


def test_titles_cwd_hyperlinks_clipboard_and_bell() -> None:
    t = term("\x1b]2;my title\x07\x1b]7;file://host/tmp\x1b\\"
             "\x1b]8;;https://x.example\x1b\\L\x1b]8;;\x1b\\N"
             "\x1b]52;c;aGk=\x07\x07\x07")
    s = t.screen
    assert s.title == "my title"
    assert s.cwd == "file://host/tmp"
    assert cell(t, 0, 0).link == "https://x.example"
    assert cell(t, 1, 0).link == ""
    assert [(c.selection, c.data) for c in s.clipboard] == [("c", "aGk=")]
    assert s.bell_count == 2
    assert lines(t)[0] == "LN"


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("\x1b[c", b"\x1b[?62;22c"),
        ("\x1b[0c", b"\x1b[?62;22c"),
        ("\x1b[>c", b"\x1b[>84;0;0c"),
        ("\x1b[5n", b"\x1b[0n"),
        ("\x1b[3;7H\x1b[6n", b"\x1b[3;7R"),
        ("\x1b[>q", b"\x1bP>|termhost "),
        ("\x1b[99n\x1b[?999c", b""),
    ],
)
def test_device_queries_are_answered_through_the_reply_callback(
    query: str, answer: bytes
) -> None:
    replies: list[bytes] = []
    term(query, reply=replies.append)
    assert b"".join(replies).startswith(answer)
    if not answer:
        assert replies == []


# --- parser edges ------------------------------------------------------------------------


def test_a_sequence_split_across_reads_is_joined() -> None:
    t = Terminal(20, 5)
    for byte in b"\x1b[31mred\x1b]2;ti" + b"tle\x07" + "é".encode():
        t.feed(bytes([byte]))
    assert lines(t)[0] == "redé"
    assert t.screen.title == "title"
    assert cell(t, 0, 0).fg == "red"


def test_a_control_inside_a_csi_runs_and_the_sequence_goes_on() -> None:
    t = term("ab\x1b[2\rC!")
    assert lines(t)[0] == "ab!"  # CR ran inside the CSI, then CUF 2 from column 0


def test_an_endless_osc_is_capped() -> None:
    t = Terminal(20, 5)
    for _ in range(40):
        t.feed(b"\x1b]2;" + b"x" * 65536)
    t.feed(b"\x07visible")
    assert len(t.screen.title) <= 4096
    assert lines(t)[0] == "visible"


# --- resize ------------------------------------------------------------------------------


def test_a_narrower_screen_keeps_the_text_and_the_cursor_row() -> None:
    t = term("one\r\ntwo\r\nthree", cols=20, rows=5)
    t.resize(10, 5)
    assert lines(t)[:3] == ["one", "two", "three"]
    assert t.cursor == (5, 2)


def test_fewer_rows_push_the_top_rows_into_the_scrollback() -> None:
    t = term("1\r\n2\r\n3\r\n4\r\n5", rows=5)
    t.resize(20, 3)
    assert lines(t) == ["3", "4", "5"]
    assert t.history.lines() == ["1", "2"]
    assert t.cursor == (1, 2)


def test_fewer_rows_drop_blank_rows_below_the_cursor_first() -> None:
    t = term("1\r\n2", rows=5)
    t.resize(20, 3)
    assert lines(t) == ["1", "2", ""]
    assert len(t.history) == 0
    assert t.cursor == (1, 1)


def test_more_rows_pull_lines_back_from_the_scrollback() -> None:
    t = term("1\r\n2\r\n3\r\n4\r\n5", rows=5)
    t.resize(20, 3)
    t.resize(20, 5)
    assert lines(t) == ["1", "2", "3", "4", "5"]
    assert len(t.history) == 0
    assert t.cursor == (1, 4)


def test_a_wide_character_past_the_new_margin_moves_to_the_next_row() -> None:
    t = term("abc日\r\n", cols=10)
    t.resize(4, 5)
    assert everything(t)[:2] == ["abc", "日"]


# --- reflow ------------------------------------------------------------------------------


def test_a_wrapped_line_reflows_to_a_narrower_and_back_to_a_wider_screen() -> None:
    t = term("a" * 15 + "b" * 10 + "\r\nnext", cols=20, rows=6)
    assert lines(t)[:3] == ["a" * 15 + "b" * 5, "b" * 5, "next"]
    t.resize(10, 6)
    assert everything(t)[:4] == ["a" * 10, "a" * 5 + "b" * 5, "b" * 5, "next"]
    assert t.cursor[1] == 2  # the screen shows the last rows; the extra one went up
    t.resize(30, 6)
    assert everything(t)[:2] == ["a" * 15 + "b" * 10, "next"]
    assert t.cursor == (4, 1)  # back up: nothing above it to keep its row with


def test_the_cursor_stays_on_its_character_through_a_reflow() -> None:
    t = term("0123456789abcdefghijKLMNO\x1b[2;3H", cols=20, rows=4)  # on the "M"
    t.resize(8, 6)
    x, y = t.cursor
    assert t.display[y][x] == "M"


def test_the_scrollback_reflows_too() -> None:
    t = term("x" * 30 + "\r\n" + "".join(f"{i}\r\n" for i in range(6)), cols=20, rows=4)
    assert t.history.lines()[:2] == ["x" * 20, "x" * 10]
    t.resize(40, 4)
    assert t.history.lines()[0] == "x" * 30


def test_a_wide_character_is_never_split_by_a_reflow() -> None:
    t = term("abcd日本語\r\n", cols=20, rows=3)
    t.resize(5, 3)
    assert everything(t)[:3] == ["abcd", "日本", "語"]


def test_the_screen_shows_the_last_rows_of_the_reflowed_text() -> None:
    """tmux's grid_reflow: the screen is the last `rows` rows of scrollback and screen cut
    again, the blank rows below the text included (regress/cursor-test1), not the rows
    around the cursor."""
    t = term("a" * 10 + "xy\r\nb\r\nc\x1b[1;12H", cols=12, rows=5)
    t.resize(4, 5)
    assert lines(t) == ["aaxy", "b", "c", "", ""]
    assert t.history.lines() == ["aaaa", "aaaa"]
    assert t.cursor == (3, 0)  # on its "y", now in the screen's top row


def test_a_cursor_whose_line_went_into_the_scrollback_goes_home() -> None:
    """tmux's screen_resize_cursor: when its character ends up in the scrollback, the
    cursor goes to the top left (off its character)."""
    t = term("a" * 20 + "\r\nb\r\nc\x1b[1;1H", cols=20, rows=4)
    t.resize(5, 4)
    assert lines(t) == ["aaaaa", "b", "c", ""]
    assert t.cursor == (0, 0)


def test_spaces_written_at_a_wrap_point_survive_a_reflow_through_the_scrollback() -> None:
    """A row that wrapped used every column (tmux's cellused): the scrollback drops its
    trailing blanks, so the reflow puts them back rather than join the words."""
    t = term("ab cd " + "ef gh\r\n" * 4, cols=6, rows=3)
    assert t.history.lines()[0] == "ab cd"  # stored without its last column's space
    t.resize(20, 3)
    assert everything(t)[0] == "ab cd ef gh"


@pytest.mark.parametrize(
    ("data", "cursor"),
    [("$ ", (2, 1)), ("abc\x1b[12G", (3, 1)), ("x" * 7, (7, 1))],
    ids=["after-a-prompt's-space", "past-the-text", "at-a-pending-wrap"],
)
def test_a_cursor_past_its_rows_used_cells_goes_to_the_end_of_its_line(
    data: str, cursor: tuple[int, int]
) -> None:
    """tmux's grid_wrap_position: a cursor at or past the last cell its row used (spaces
    the application wrote count) goes to the end of its line: x == cols after a full row."""
    t = term("xxxxxxxxxxxx\r\n" + data, cols=12, rows=3)
    t.resize(7, 3)
    assert t.cursor == cursor


def test_a_cursor_on_the_right_half_of_a_wide_character_stays_there() -> None:
    """tmux keeps the cursor's cell offset in its line, a wide character's second cell
    counted too."""
    t = term("ab日日\x1b[1;6H", cols=10, rows=3)
    t.resize(5, 3)
    assert everything(t)[:2] == ["ab日", "日"]
    assert t.cursor == (1, 0)


def test_a_change_of_rows_alone_keeps_a_pending_wrap() -> None:
    """tmux's screen_resize_y leaves the cursor's column alone: still one past the last."""
    t = term("x" * 20, rows=5)
    t.resize(20, 3)
    assert t.cursor == (20, 0)


def test_erasing_the_end_of_a_row_keeps_the_width_it_reached() -> None:
    """tmux's EL 0 (grid_clear) leaves the row's used cells as they were: the spaces
    show in capture-pane -N, and a reflow cuts them like text."""
    t = term("abcdef\x1b[3D\x1b[K\r\nxy", cols=10, rows=3)
    assert t.screen.row_text(0) == "abc   "
    t.resize(4, 3)
    assert everything(t) == ["abc", "", "xy", ""]


@pytest.mark.parametrize("erase", ["\x1b[2K", "\x1b[K", "\x1b[4G\x1b[1K", "\x1b[J"])
def test_erasing_a_whole_row_unwraps_the_row_above(erase: str) -> None:
    """tmux's grid_clear_lines: a row erased whole (EL 2, EL 0 from the first column, EL 1
    from the last, ED) starts afresh, and the row above no longer wraps onto it."""
    t = term("a" * 6 + "\x1b[2;1H" + erase + "\rxyz", cols=4, rows=3)
    assert t.screen.wrapped == set()
    t.resize(10, 3)
    assert lines(t)[:2] == ["aaaa", "xyz"]


@pytest.mark.parametrize("clear", ["\x1b[2J", "\x1b[H\x1b[J"])
def test_clearing_the_whole_screen_keeps_its_text_in_the_scrollback(clear: str) -> None:
    """tmux's screen_write_clearscreen (ED 2, and ED 0 from the top left with
    scroll-on-clear): the rows down to the last one used scroll into the history, the
    blank ones below it do not; the screen is blank, the cursor stays."""
    t = term("a\r\n\r\nb\r\n" + clear, rows=5)
    assert t.history.lines() == ["a", "", "b"]
    assert lines(t) == [""] * 5
    assert t.cursor == ((0, 3) if clear == "\x1b[2J" else (0, 0))


def test_clearing_below_the_top_left_or_without_scroll_on_clear_keeps_no_history() -> None:
    t = term("a\r\nb\x1b[1;2H\x1b[J")
    assert (t.history.lines(), lines(t)[:2]) == ([], ["a", ""])
    t = Terminal(20, 5)
    t.screen.scroll_on_clear = lambda: False
    t.feed(b"a\r\nb\x1b[2J")
    assert (t.history.lines(), lines(t)) == ([], [""] * 5)


def test_a_wrapped_line_cleared_into_the_scrollback_still_wraps() -> None:
    """The rows keep their wrap flags on the way into the history (grid_scroll_history
    moves the lines as they are): a wider screen joins them again."""
    t = term("a" * 10 + "\x1b[2J", cols=4, rows=4)
    t.resize(12, 4)
    assert everything(t)[:2] == ["a" * 10, ""]


def test_erasing_the_top_row_unwraps_the_scrollbacks_newest_line() -> None:
    """tmux's grid_clear_lines unwraps the line above the erased row: for the top row,
    the last line the scrollback holds."""
    t = term("a" * 10 + "\x1b[1;1H\x1b[2Kxyz", cols=4, rows=2)
    assert not t.history.wrapped(-1)
    t.resize(10, 2)
    assert everything(t)[-3:] == ["aaaa", "xyz", "aa"]
