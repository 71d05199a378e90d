"""choose-tree as a user drives it: the tree of sessions, windows and panes drawn as tmux
3.3 draws it, keys pressed by their tmux names, and the target chosen."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.ui.choose_tree import Choice, ChooseTree, TreePane, TreeSession, TreeWindow

WORK = TreeSession(0, "work", attached=True, windows=[
    TreeWindow(1, 0, "bash", "*", [TreePane(1, 0, "bash", active=True), TreePane(2, 1, "top")],
               current=True),
    TreeWindow(2, 1, "vim", "-", [TreePane(3, 0, "vim", title="notes.txt", active=True)]),
])
PLAY = TreeSession(1, "play", windows=[
    TreeWindow(3, 0, "zsh", "*", [TreePane(4, 0, "zsh", active=True)], current=True),
])


def texts(tree: ChooseTree, width: int = 40, height: int = 10) -> list[str]:
    """The tree's rows as a person reads them: trailing blanks and empty rows gone."""
    return [text.rstrip() for _, text in tree.rows(width, height) if text.strip()]


def selected(tree: ChooseTree, width: int = 40, height: int = 10) -> str:
    [row] = [text.rstrip() for style, text in tree.rows(width, height) if style == "selected"]
    return row


def press(tree: ChooseTree, *keys: str) -> Choice | None:
    choice = None
    for key in keys:
        choice = tree.press(key)
    return choice


def many(count: int) -> list[TreeSession]:
    return [TreeSession(i, f"s{i}", windows=[TreeWindow(i, 0, "sh", "*", [
        TreePane(i, 0, "sh", active=True)], current=True)]) for i in range(count)]


def test_sessions_start_collapsed_with_the_current_one_selected() -> None:
    tree = ChooseTree([WORK, PLAY], 1, windows=False)
    assert texts(tree) == [
        "(0) + work: 2 windows (attached)",
        "(1) + play: 1 windows",
    ]
    assert selected(tree) == "(1) + play: 1 windows"


def test_windows_show_every_session_expanded_with_the_current_window_selected() -> None:
    """A window of one pane has no rows under it, as tmux's window_tree_build_window."""
    tree = ChooseTree([WORK, PLAY], 0, windows=True)
    assert texts(tree) == [
        "(0) - work: 2 windows (attached)",
        "(1) ├─> + 0: bash*",
        '(2) └─>   1: vim-: "notes.txt"',
        "(3) - play: 1 windows",
        "(4) └─> 0: zsh*",
    ]
    assert selected(tree) == "(1) ├─> + 0: bash*"


def test_right_expands_a_window_into_its_panes_and_left_collapses_it_again() -> None:
    tree = ChooseTree([WORK, PLAY], 0, windows=True)
    press(tree, "Right")
    assert texts(tree)[1:5] == [
        "(1) ├─> - 0: bash*",
        "(2) │   ├─> 0: bash*",
        "(3) │   └─> 1: top",
        '(4) └─>   1: vim-: "notes.txt"',
    ]
    press(tree, "Down", "Down", "Left")  # on a pane: its window collapses, and is selected
    assert selected(tree) == "(1) ├─> + 0: bash*"
    assert len(texts(tree)) == 5


def test_panes_of_the_last_window_hang_from_a_blank_column() -> None:
    edit = TreeSession(2, "edit", windows=[
        TreeWindow(5, 0, "sh", "-", [TreePane(6, 0, "sh", active=True)]),
        TreeWindow(6, 1, "vim", "*", [TreePane(7, 0, "vim", title="notes.txt", active=True),
                                      TreePane(8, 1, "make")], current=True)])
    tree = ChooseTree([edit], 2, windows=True)
    press(tree, "+")
    assert texts(tree)[1:] == [
        "(1) ├─>   0: sh-",
        "(2) └─> - 1: vim*",
        '(3)     ├─> 0: vim*: "notes.txt"',
        "(4)     └─> 1: make",
    ]


def test_right_on_an_expanded_row_moves_down_and_left_on_a_collapsed_top_row_moves_up() -> None:
    tree = ChooseTree([WORK, PLAY], 0, windows=True)
    press(tree, "Home", "Right")
    assert selected(tree) == "(1) ├─> + 0: bash*"
    press(tree, "End", "Left", "Left")  # collapses play, then moves up off it
    assert selected(tree) == '(2) └─>   1: vim-: "notes.txt"'
    assert texts(tree)[-1] == "(3) + play: 1 windows"


def test_collapsing_above_the_selection_keeps_the_same_item_selected() -> None:
    tree = ChooseTree([WORK, PLAY], 1, windows=True)
    assert selected(tree) == "(4) └─> 0: zsh*"
    press(tree, "Home", "-")
    assert selected(tree) == "(0) + work: 2 windows (attached)"
    assert press(tree, "End", "Enter") == Choice("choose", "@3")


def test_up_and_down_go_round_the_ends() -> None:
    tree = ChooseTree([WORK, PLAY], 0, windows=False)
    press(tree, "Up")
    assert selected(tree).startswith("(1)")
    press(tree, "j")
    assert selected(tree).startswith("(0)")
    press(tree, "C-n", "k", "C-p")
    assert selected(tree).startswith("(1)")


def test_enter_chooses_a_target_of_each_kind() -> None:
    tree = ChooseTree([WORK, PLAY], 0, windows=False)
    assert press(tree, "Enter") == Choice("choose", "$0")
    assert press(tree, "Right", "Down", "Enter") == Choice("choose", "@1")
    assert press(tree, "Right", "Down", "Down", "Enter") == Choice("choose", "%2")


def test_a_shortcut_chooses_its_row_at_once() -> None:
    tree = ChooseTree([WORK, PLAY], 0, windows=True)
    assert press(tree, "3") == Choice("choose", "$1")
    assert press(tree, "9") is None  # no row 9: nothing happens
    tree = ChooseTree(many(15), 0, windows=False)
    assert texts(tree, height=15)[10] == "(M-a) + s10: 1 windows"
    assert texts(tree, height=15)[0] == "(0)   + s0: 1 windows"
    assert press(tree, "M-d") == Choice("choose", "$13")
    assert press(tree, "M-z") is None


def test_cancel_keys() -> None:
    for key in ("q", "Escape", "C-c", "C-g"):
        assert press(ChooseTree([WORK], 0, windows=False), key) == Choice("cancel")


def test_the_selection_is_kept_in_view_and_the_view_moves_no_more_than_it_must() -> None:
    tree = ChooseTree(many(30), 0, windows=False)
    assert texts(tree, height=5)[0].startswith("(0)")
    press(tree, "Down", "Down", "Down", "Down", "Down")
    rows = texts(tree, height=5)
    assert rows[0].startswith("(1) ") and selected(tree, height=5).startswith("(5) ")
    press(tree, "Up")
    assert texts(tree, height=5)[0].startswith("(1) ")  # still in view: no scroll
    press(tree, "End")
    assert selected(tree, height=5) == texts(tree, height=5)[-1]
    assert selected(tree, height=5).startswith("(M-t)")
    press(tree, "PageUp")  # by the height drawn
    assert selected(tree, height=5).startswith("(M-o)")
    press(tree, "C-f", "C-f")
    assert selected(tree, height=5).startswith("(M-t)")
    press(tree, "g")
    assert texts(tree, height=5)[0] == selected(tree, height=5)


def test_rows_are_cut_to_the_width_and_padded_to_the_height() -> None:
    tree = ChooseTree([WORK, PLAY], 0, windows=False)
    rows = tree.rows(12, 4)
    assert [text for _, text in rows] == ["(0) + work: ", "(1) + play: ", " " * 12, " " * 12]
    assert [style for style, _ in rows] == ["selected", "", "", ""]


def test_the_preview_is_of_the_active_pane_under_the_selection() -> None:
    tree = ChooseTree([WORK, PLAY], 0, windows=True)
    assert tree.preview_target() == "%1"
    press(tree, "Down")
    assert tree.preview_target() == "%3"
    press(tree, "Down")
    assert tree.preview_target() == "%4"
    press(tree, "Up", "Up", "Right", "Down", "Down")
    assert tree.preview_target() == "%2"


def test_the_preview_boxes_the_panes_text_under_the_items_name() -> None:
    tree = ChooseTree([WORK], 0, windows=False)
    assert tree.preview(["$ ls", "a b c", "日本語テキスト"], 14, 5) == [
        "┌ work ──────┐",
        "│ $ ls       │",
        "│ a b c      │",
        "│ 日本語テキ │",
        "└────────────┘",
    ]
    box = tree.preview([f"line {i}" for i in range(10)], 14, 5, cursor=9)
    assert box[1:4] == ["│ line 7     │", "│ line 8     │", "│ line 9     │"]


def test_the_tree_takes_the_whole_height_when_a_preview_would_not_fit() -> None:
    tree = ChooseTree(many(30), 0, windows=False)
    assert tree.tree_height(30) == 20
    assert tree.tree_height(12) == 12
    assert ChooseTree(many(3), 0, windows=False).tree_height(30) == 15


def test_an_empty_tree_takes_keys() -> None:
    tree = ChooseTree([], 0, windows=True)
    assert press(tree, "Down", "Right", "Enter", "0") is None
    assert tree.preview_target() == ""
    assert press(tree, "q") == Choice("cancel")


KEYS = ["Up", "Down", "k", "j", "C-p", "C-n", "PageUp", "PageDown", "Home", "End", "g", "G",
        "Left", "Right", "+", "-", "h", "l", "Enter", "0", "5", "9", "M-a", "M-z", "x"]

panes = st.lists(st.builds(TreePane, st.integers(0, 50), st.integers(0, 9), st.just("sh"),
                           active=st.booleans()), max_size=3)
windows = st.lists(st.builds(TreeWindow, st.integers(0, 50), st.integers(0, 9), st.just("w"),
                             panes=panes, current=st.booleans()), max_size=4)
sessions = st.lists(st.builds(TreeSession, st.integers(0, 5), st.just("s"), windows=windows),
                    max_size=4)


@settings(max_examples=200, deadline=None)
@given(sessions, st.booleans(), st.lists(st.sampled_from(KEYS), max_size=30),
       st.integers(1, 12))
def test_any_keys_keep_the_selection_on_a_row(
    tree_sessions: list[TreeSession], windows_mode: bool, keys: list[str], height: int
) -> None:
    tree = ChooseTree(tree_sessions, 0, windows=windows_mode)
    for key in keys:
        choice = tree.press(key)
        rows = tree.rows(20, height)
        assert len(rows) == height and all(len(text) == 20 for _, text in rows)
        if tree.line_count:
            assert 0 <= tree.selected < tree.line_count
            assert [style for style, _ in rows].count("selected") == 1
            assert choice is None or choice.target[0] in "$@%"
        else:
            assert choice is None
