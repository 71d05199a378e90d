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
    assert t.cursor[1] == 2  # the cursor keeps its row; the extra row went up
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
