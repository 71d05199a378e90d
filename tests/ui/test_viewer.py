"""The view mode (C-b ?) as a user drives it: keys by their tmux names, searches typed at
the prompt, and what the rows then show."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.mux.copy_mode import Action
from termhost.ui.viewer import TextView

KEYS = [f"bind-key -T prefix {key} command-{key}" for key in "abcdefghij"]
"""Ten lines, as list-keys would give them."""


def view(*lines: str) -> TextView:
    return TextView(list(lines) or list(KEYS))


def test_keys_still_close_through_the_old_contract() -> None:
    text = view()
    assert text.key("j", 4) is False
    assert text.top == 1
    assert text.key("/", 4) is False  # a prompt is no reason to close
    assert text.key("q", 4) is True


def test_slash_and_question_mark_ask_for_a_search() -> None:
    text = view()
    assert text.press("/", 4) == Action("prompt", "search-forward")
    assert text.press("?", 4) == Action("prompt", "search-backward")
    assert text.press("Escape", 4) == Action("exit")
    assert text.press("Down", 4) is None


def test_search_forward_brings_the_next_matching_line_to_the_top() -> None:
    text = view()
    assert text.search("command-c", True)
    assert text.top == 2
    first = text.rows(40, 3)[0]
    assert first.startswith("bind-key -T prefix c command-c ") and first.endswith(" [2/7]")
    assert len(first) == 40


def test_search_down_starts_at_the_top_line() -> None:
    text = view()
    assert text.search("command-a", True)
    assert text.top == 0 and text.message is None


def test_search_backward_starts_above_the_top_line_and_wraps() -> None:
    text = view()
    text.press("G", 4)
    assert text.top == 6
    assert text.search("command-d", False)
    assert text.top == 3 and text.message is None
    assert text.search("command-h", False)
    assert text.top == 7 and text.message == "Search wrapped"


def test_n_repeats_and_n_capital_goes_back() -> None:
    text = view("one x", "two", "three x", "four x", "five")
    text.search("x", True)
    assert text.top == 0
    text.press("n", 2)
    assert text.top == 2
    text.press("n", 2)
    assert text.top == 3  # the last page: the top cannot go lower, yet n still went on
    text.press("n", 2)
    assert (text.top, text.message) == (0, "Search wrapped")
    text.press("N", 2)
    assert text.top == 3
    text.press("N", 2)
    assert text.top == 2


def test_after_a_backward_search_n_goes_up() -> None:
    text = view("x 0", "y", "x 2", "y", "x 4")
    text.press("G", 1)
    text.search("x", False)
    assert text.top == 2
    text.press("n", 1)
    assert text.top == 0
    text.press("N", 1)
    assert text.top == 2


def test_a_match_near_the_end_shows_as_high_as_the_end_allows() -> None:
    text = view()
    text.search("command-j", True)
    rows = text.rows(40, 4)
    assert rows[-1].startswith("bind-key -T prefix j")
    assert rows[0].endswith("[6/6]")
    text.press("Up", 4)
    assert text.top == 5  # from the page shown, not from the match's line


def test_no_match_leaves_the_view_alone() -> None:
    text = view()
    text.press("Down", 4)
    assert not text.search("nothing like it", True)
    assert text.top == 1 and text.message == "Pattern not found: nothing like it"
    text.press("n", 4)
    assert text.top == 1


def test_lowercase_text_matches_either_case_and_mixed_case_only_itself() -> None:
    text = view("Alpha", "beta", "ALPHA", "alpha")
    assert text.search("alpha", True) and text.top == 0
    text.press("n", 1)
    assert text.top == 2
    assert text.search("ALPHA", True) and text.top == 2
    text.press("n", 1)
    assert text.top == 2 and text.message == "Search wrapped"


def test_matches_are_highlighted_even_when_cut_off_by_the_width() -> None:
    text = view("a cat and a Cat", "no", "category")
    text.search("cat", True)
    assert text.styled_rows(20, 3) == [
        [("", "a "), ("match", "cat"), ("", " and a "), ("match", "Cat"),
         ("position", "[0/0]")],
        [("", "no" + " " * 18)],
        [("match", "cat"), ("", "egory" + " " * 12)],
    ]
    assert text.styled_rows(5, 3)[2] == [("match", "cat"), ("", "eg")]
    assert text.styled_rows(2, 3)[2] == [("match", "ca")]


def test_without_a_search_a_row_is_one_fragment() -> None:
    assert view("plain").styled_rows(12, 2) == [
        [("", "plain  "), ("position", "[0/0]")],
        [("", " " * 12)],
    ]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abAB x", max_size=8), max_size=12),
       st.lists(st.sampled_from(["j", "k", "n", "N", "G", "g", "Space", "PageUp", "/", "?",
                                 "search a", "search B", "back x", "search zz"]), max_size=20),
       st.integers(1, 8))
def test_any_keys_and_searches_keep_the_view_in_range(
    lines: list[str], keys: list[str], height: int
) -> None:
    text = TextView(lines)
    for key in keys:
        if key.startswith(("search ", "back ")):
            needle = key.split()[1]
            smart = needle == needle.lower()
            found = text.search(needle, key.startswith("search"))
            assert found == any(needle in (line.lower() if smart else line) for line in lines)
        else:
            text.press(key, height)
            assert 0 <= text.top <= max(0, len(lines) - height)
        rows = text.styled_rows(10, height)
        assert len(rows) == height
        assert all(sum(len(part) for _, part in row) == 10 for row in rows)
