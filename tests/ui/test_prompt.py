"""The status-line prompt as a user types at it: keys by their tmux names, and the line,
the cursor and the shown completions a person would see; then Tab completion on its own,
line and cursor in, line, cursor and candidates out."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.mux.model import Session
from termhost.mux.prompt_history import History
from termhost.ui.completion import Completions, choose, complete, targets_of
from termhost.ui.prompt import Prompt

NAMES = Completions(
    verbs=("kill-pane", "killp", "kill-server", "kill-session", "kill-window", "killw",
           "list-keys", "lsk", "select-layout", "select-pane", "select-window", "selectp",
           "set-option", "set", "setw", "show-options", "show", "split-window"),
    options=("history-limit", "mode-keys", "monitor-activity", "monitor-bell", "mouse",
             "synchronize-panes"),
    targets=("main", "main:0", "main:editor", "work", "work:0", "%0", "%1", "%12"),
    values={"mode-keys": ("emacs", "vi"), "mouse": ("off", "on")},
)


def command_prompt(text: str = "", history: History | None = None) -> tuple[Prompt, list[str]]:
    """`C-b :` as the client opens it; the list collects what Enter accepts."""
    accepted: list[str] = []
    prompt = Prompt(":", "", accepted.append, history=history, completions=lambda: NAMES)
    type_(prompt, text)
    return prompt, accepted


def type_(prompt: Prompt, text: str) -> None:
    for char in text:
        prompt.key(char)


def press(prompt: Prompt, *keys: str) -> None:
    for key in keys:
        assert not prompt.key(key), f"{key} closed the prompt"


def seen(prompt: Prompt) -> str:
    """The line with the cursor drawn as `|`, as a person sees where typing goes."""
    return prompt.text[:prompt.cursor] + "|" + prompt.text[prompt.cursor:]


# Typing and moving.


def test_typing_inserts_at_the_cursor_and_the_column_follows() -> None:
    prompt, _ = command_prompt("neww")
    assert prompt.line == ":neww"
    assert prompt.cursor_column == 5
    press(prompt, "Left", "Left", "-")
    assert seen(prompt) == "ne-|ww"
    assert prompt.cursor_column == 4


def test_a_wide_character_takes_two_columns() -> None:
    prompt, _ = command_prompt("日本x")
    press(prompt, "Left")
    assert prompt.cursor_column == 1 + 4


def test_space_by_either_name() -> None:
    prompt, _ = command_prompt("a")
    press(prompt, " ", "b", "Space", "c")
    assert prompt.text == "a b c"


def test_left_right_stop_at_the_ends() -> None:
    prompt, _ = command_prompt("ab")
    press(prompt, "Right", "C-f")
    assert seen(prompt) == "ab|"
    press(prompt, "Left", "C-b", "C-b", "Left")
    assert seen(prompt) == "|ab"
    press(prompt, "C-f")
    assert seen(prompt) == "a|b"


def test_home_end_and_their_emacs_keys() -> None:
    prompt, _ = command_prompt("split-window -h")
    press(prompt, "Home")
    assert seen(prompt) == "|split-window -h"
    press(prompt, "End")
    assert seen(prompt) == "split-window -h|"
    press(prompt, "C-a")
    assert prompt.cursor == 0
    press(prompt, "C-e")
    assert prompt.cursor == len(prompt.text)


def test_word_moves() -> None:
    prompt, _ = command_prompt("send-keys -t main  hello")
    press(prompt, "M-b")
    assert seen(prompt) == "send-keys -t main  |hello"
    press(prompt, "M-b", "C-Left")
    assert seen(prompt) == "send-keys |-t main  hello"
    press(prompt, "M-f")
    assert seen(prompt) == "send-keys -t| main  hello"
    press(prompt, "M-f", "C-Right")
    assert seen(prompt) == "send-keys -t main  hello|"
    press(prompt, "M-f")
    assert seen(prompt) == "send-keys -t main  hello|"
    press(prompt, "Home", "M-b")
    assert seen(prompt) == "|send-keys -t main  hello"


# Deleting.


def test_backspace_deletes_before_the_cursor() -> None:
    prompt, _ = command_prompt("abc")
    press(prompt, "Left", "BSpace")
    assert seen(prompt) == "a|c"
    press(prompt, "C-h", "C-h")
    assert seen(prompt) == "|c"


def test_delete_and_c_d_delete_under_the_cursor() -> None:
    prompt, _ = command_prompt("abc")
    press(prompt, "Home", "DC")
    assert seen(prompt) == "|bc"
    press(prompt, "C-d", "C-d", "C-d")
    assert seen(prompt) == "|"


def test_c_k_kills_to_the_end_and_c_y_yanks_it_back() -> None:
    prompt, _ = command_prompt("kill-pane -t %1")
    press(prompt, "M-b", "M-b", "C-k")
    assert seen(prompt) == "kill-pane |"
    press(prompt, "Home", "C-y")
    assert seen(prompt) == "-t %1|kill-pane "


def test_c_u_kills_the_whole_line_wherever_the_cursor_is() -> None:
    prompt, _ = command_prompt("rename-window x")
    press(prompt, "Left", "Left", "C-u")
    assert seen(prompt) == "|"
    press(prompt, "C-y")
    assert prompt.text == "rename-window x"


def test_c_w_deletes_the_word_before_the_cursor() -> None:
    prompt, _ = command_prompt("select-pane -t %1  ")
    press(prompt, "C-w")
    assert seen(prompt) == "select-pane -t |"
    press(prompt, "Left", "C-w")
    assert seen(prompt) == "select-pane | "
    press(prompt, "C-w", "C-w")
    assert seen(prompt) == "| "


# Answering.


def test_enter_accepts_the_whole_text_wherever_the_cursor_is() -> None:
    prompt, accepted = command_prompt("list-keys")
    press(prompt, "Home")
    assert prompt.key("Enter")
    assert accepted == ["list-keys"]


def test_escape_cancels() -> None:
    for key in ("Escape", "escape", "C-c", "C-g"):
        prompt, accepted = command_prompt("kill-server")
        assert prompt.key(key)
        assert accepted == []


def test_ask_edits_its_preset_from_the_end() -> None:
    answers: list[str] = []
    prompt = Prompt("(rename-window) ", "bash", answers.append)
    assert prompt.line == "(rename-window) bash"
    assert prompt.cursor_column == len("(rename-window) bash")
    press(prompt, "C-w")
    type_(prompt, "editor")
    assert prompt.key("C-m")
    assert answers == ["editor"]


def test_confirm_takes_one_key() -> None:
    """confirm-before: y (or Y) answers, any other key closes it unanswered."""
    done: list[str] = []
    prompt = Prompt("kill-pane 1? (y/n) ", "", done.append, single_key=True,
                    on_cancel=lambda: done.append("cancelled"))
    assert prompt.key("Y")
    assert done == ["Y"]
    assert Prompt("q? ", "", done.append, single_key=True,
                  on_cancel=lambda: done.append("cancelled")).key("n")
    assert done == ["Y", "cancelled"]


def test_one_key_prompts_answer_with_the_first_key_not_an_edit() -> None:
    """command-prompt -1 answers with the character typed, -k with the key's name; the
    editing and history keys still edit, as tmux 3.3a's prompt (Up browses)."""
    answers: list[str] = []
    history = History()
    history.add("older")
    prompt = Prompt("key: ", "", answers.append, one_key="char", history=history)
    assert not prompt.key("Up")
    assert seen(prompt) == "older|"
    assert not prompt.key("F5")  # no character: -1 waits for one
    assert prompt.key("z")
    named = Prompt("key: ", "", answers.append, one_key="name")
    assert named.key("F5")
    assert answers == ["z", "F5"]


def test_a_numeric_prompt_takes_digits_and_any_other_key_answers() -> None:
    """command-prompt -N: digits go in; another key gives what they make (tmux's
    PROMPT_NUMERIC)."""
    answers: list[str] = []
    prompt = Prompt("num: ", "", answers.append, numeric=True)
    type_(prompt, "12")
    assert prompt.key("a")
    assert answers == ["12"]


def test_an_incremental_prompt_is_told_each_change() -> None:
    """command-prompt -i: each change of the answer, not each key."""
    changes: list[str] = []
    prompt = Prompt("(search) ", "", lambda _: None, on_change=changes.append)
    type_(prompt, "ab")
    press(prompt, "Left", "BSpace")
    assert changes == ["a", "ab", "b"]


def test_cancelling_tells_the_asker() -> None:
    cancelled: list[bool] = []
    prompt = Prompt(":", "", lambda _: None, on_cancel=lambda: cancelled.append(True))
    assert prompt.key("Escape")
    assert cancelled == [True]


def test_without_history_or_completions_up_and_tab_do_nothing() -> None:
    prompt = Prompt("(goto line) ", "12", lambda _: None)
    press(prompt, "Up", "C-p", "Down", "Tab")
    assert seen(prompt) == "12|"
    assert prompt.shown == []


# History.


def test_history_keeps_lines_but_not_blanks_or_repeats() -> None:
    history = History(lambda: 3)
    for line in ("a", "", "   ", "b", "b", "c", "b", "d"):
        history.add(line)
    assert list(history) == ["c", "b", "d"]
    assert len(history) == 3
    assert history.recall(1) == "d"


def test_accepted_lines_go_into_the_history() -> None:
    history = History()
    for line in ("neww", "neww", "", "splitw -h"):
        prompt, _ = command_prompt(line, history)
        assert prompt.key("Enter")
    assert list(history) == ["neww", "splitw -h"]
    prompt, _ = command_prompt("lost", history)
    assert prompt.key("Escape")
    assert list(history) == ["neww", "splitw -h"]


def test_up_and_down_browse_and_keep_the_line_being_edited() -> None:
    history = History()
    for line in ("new-window", "split-window -h", "list-keys"):
        history.add(line)
    prompt, accepted = command_prompt("kill-", history)
    press(prompt, "Left")
    press(prompt, "Up")
    assert seen(prompt) == "list-keys|"
    press(prompt, "C-p", "Up")
    assert seen(prompt) == "new-window|"
    press(prompt, "Up")  # the oldest: stays there
    assert prompt.text == "new-window"
    press(prompt, "Down", "C-n")
    assert prompt.text == "list-keys"
    press(prompt, "Down")
    assert seen(prompt) == "kill-|"
    press(prompt, "Down")
    assert prompt.text == "kill-"
    press(prompt, "C-p", "BSpace")
    assert prompt.key("Enter")
    assert accepted == ["list-key"]
    assert history.recall(1) == "list-key"


def test_editing_while_browsing_keeps_the_draft() -> None:
    history = History()
    history.add("display-panes")
    prompt, _ = command_prompt("sel", history)
    press(prompt, "Up", "C-u")
    type_(prompt, "edited")
    press(prompt, "Down")
    assert prompt.text == "sel"


# Tab at the prompt.


def test_tab_completes_a_unique_verb_with_a_space() -> None:
    prompt, _ = command_prompt("spl")
    press(prompt, "Tab")
    assert seen(prompt) == "split-window |"
    assert prompt.shown == []


def test_tab_on_an_ambiguous_verb_shows_the_candidates_until_the_next_key() -> None:
    prompt, _ = command_prompt("sel")
    press(prompt, "C-i")  # Tab as prompt_toolkit names it
    assert seen(prompt) == "select|"
    assert prompt.shown == ["select-layout", "select-pane", "select-window", "selectp"]
    type_(prompt, "p")
    assert prompt.shown == []
    press(prompt, "Tab")
    assert seen(prompt) == "selectp |"


def test_tab_again_cycles_through_the_candidates() -> None:
    prompt, _ = command_prompt("kill-pane -t main")
    press(prompt, "Tab")
    assert prompt.shown == ["main", "main:0", "main:editor"]
    press(prompt, "Tab")
    assert seen(prompt) == "kill-pane -t main |"
    press(prompt, "Tab", "Tab")
    assert seen(prompt) == "kill-pane -t main:editor |"
    press(prompt, "Tab")
    assert seen(prompt) == "kill-pane -t main |"
    press(prompt, "BTab")
    assert seen(prompt) == "kill-pane -t main:editor |"
    assert prompt.shown == ["main", "main:0", "main:editor"]
    type_(prompt, "x")
    assert seen(prompt) == "kill-pane -t main:editor x|"
    assert prompt.shown == []


def test_btab_first_takes_the_last_candidate() -> None:
    prompt, _ = command_prompt("setw -g mo")
    press(prompt, "Tab", "BTab")
    assert seen(prompt) == "setw -g mouse |"


def test_tab_completes_options_after_set() -> None:
    prompt, _ = command_prompt("set -g hist")
    press(prompt, "Tab")
    assert seen(prompt) == "set -g history-limit |"
    press(prompt, "C-u")
    type_(prompt, "set-option -g -u mon")
    press(prompt, "Tab")
    assert seen(prompt) == "set-option -g -u monitor-|"
    assert prompt.shown == ["monitor-activity", "monitor-bell"]


def test_tab_in_the_middle_of_the_line() -> None:
    prompt, _ = command_prompt("sel -t %1")
    press(prompt, "Home", "M-f", "Tab")
    assert seen(prompt) == "select| -t %1"
    type_(prompt, "p")
    press(prompt, "Tab")
    assert seen(prompt) == "selectp |-t %1"


def test_tab_inside_a_word_that_fits_completes_the_whole_word() -> None:
    prompt, _ = command_prompt("kill-serv")
    press(prompt, "Home", "Right", "Right", "Tab")
    assert seen(prompt) == "kill-server |"
    assert complete("kill-servx", 4, NAMES) == ("kill-servx", 4, ["kill-pane", "kill-server",
                                                                  "kill-session",
                                                                  "kill-window", "killp",
                                                                  "killw"])


# Completion itself.


def test_verbs_by_name_and_alias() -> None:
    assert complete("kill-se", 7, NAMES) == (
        "kill-se", 7, ["kill-server", "kill-session"])
    assert complete("kill-serv", 9, NAMES) == ("kill-server ", 12, [])
    assert complete("kil", 3, NAMES) == (
        "kill", 4, ["kill-pane", "kill-server", "kill-session", "kill-window", "killp",
                    "killw"])
    assert complete("lsk", 3, NAMES) == ("lsk ", 4, [])
    assert complete("  lsk", 5, NAMES) == ("  lsk ", 6, [])


def test_options_after_the_option_verbs_and_their_flags() -> None:
    for verb in ("set", "set-option", "setw", "show", "show-options"):
        line = f"{verb} -g mode"
        assert complete(line, len(line), NAMES) == (f"{verb} -g mode-keys ",
                                                     len(line) + 6, [])
    line = "set -t main:0 -g sync"
    assert complete(line, len(line), NAMES)[0] == "set -t main:0 -g synchronize-panes "
    line = "set -gu mo"
    assert complete(line, len(line), NAMES) == (
        "set -gu mo", 10, ["mode-keys", "monitor-activity", "monitor-bell", "mouse"])


def test_an_option_value_after_its_name() -> None:
    line = "set -g mode-keys "
    assert complete(line, len(line), NAMES) == (line, len(line), ["emacs", "vi"])
    line = "set -g mouse of"
    assert complete(line, len(line), NAMES) == ("set -g mouse off ", 17, [])
    line = "show -g mouse o"  # show takes no value
    assert complete(line, len(line), NAMES) == (line, len(line), [])


def test_targets_after_t() -> None:
    line = "select-pane -t %1"
    assert complete(line, len(line), NAMES) == (line, len(line), ["%1", "%12"])
    line = "split-window -h -t w"
    assert complete(line, len(line), NAMES) == ("split-window -h -t work", 23,
                                                ["work", "work:0"])
    line = "kill-window -t main:e"
    assert complete(line, len(line), NAMES) == ("kill-window -t main:editor ", 27, [])
    line = "kill-pane -tw"
    assert complete(line, len(line), NAMES)[0] == "kill-pane -twork"
    line = "set -gt wo"
    assert complete(line, len(line), NAMES)[0] == "set -gt work"


def test_a_target_that_needs_quotes_gets_them() -> None:
    names = Completions(targets=("my session",))
    assert complete("kill-session -t my", 18, names) == (
        "kill-session -t 'my session' ", 29, [])


def test_nothing_to_complete() -> None:
    for line in ("zzz", "kill-pane ", "kill-pane -", "kill-pane -t x", "list-keys -T ",
                 'display "kill', "display 'a b' kil", "set -g nosuch", "set -g mouse on x",
                 "new -n ", "set 'mo"):
        assert complete(line, len(line), NAMES) == (line, len(line), []), line


def test_choose_puts_a_candidate_in_place_of_the_word() -> None:
    assert choose("kill-pane -t ma foo", 15, "main:0") == ("kill-pane -t main:0 foo", 20)
    assert choose('display "x', 10, "y") == ('display "x', 10)


def test_termhosts_own_verbs_options_and_values() -> None:
    names = Completions.of(["work"])
    assert complete("set-window-option -g synchronize-panes o", 40, names)[2] == ["off", "on"]
    assert complete("capturep -t wo", 14, names)[0] == "capturep -t work "
    assert complete("set -g mode-ke", 14, names)[0] == "set -g mode-keys "


def test_targets_of_sessions_windows_and_panes() -> None:
    def link(index: int, name: str, *panes: str) -> SimpleNamespace:
        window = SimpleNamespace(name=name, panes=[SimpleNamespace(name=pane) for pane in panes])
        return SimpleNamespace(index=index, window=window)

    sessions = [
        SimpleNamespace(name="main", links=[link(0, "sh", "%0", "%2"), link(1, "1")]),
        SimpleNamespace(name="logs", links=[link(0, "tail", "%1")]),
    ]
    assert targets_of(cast(list[Session], sessions)) == [
        "main", "main:0", "main:sh", "%0", "%2", "main:1", "logs", "logs:0", "logs:tail", "%1"]


# Any keys at all.

KEYS = st.sampled_from([
    "Left", "Right", "Home", "End", "C-a", "C-e", "C-b", "C-f", "C-k", "C-u", "C-w", "C-y",
    "M-b", "M-f", "C-Left", "C-Right", "DC", "C-d", "BSpace", "C-h", "Up", "Down", "C-p",
    "C-n", "Tab", "BTab", "Space", "F1", "PageUp", "M-x", "-", " ", "'", '"', "t", "s", "e",
    "m", "%", ":", "1", "日",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(KEYS, max_size=60), st.text(max_size=10))
def test_any_keys_keep_the_cursor_in_the_text(keys: list[str], preset: str) -> None:
    history = History(lambda: 5)
    for line in ("set -g mouse on", "kill-pane -t %1", "s"):
        history.add(line)
    prompt = Prompt(":", preset, lambda _: None, history=history, completions=lambda: NAMES)
    for key in keys:
        assert not prompt.key(key)
        assert 0 <= prompt.cursor <= len(prompt.text)
        assert prompt.line == ":" + prompt.text
        assert len(":") <= prompt.cursor_column <= len(prompt.line) * 2
