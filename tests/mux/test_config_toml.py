"""config.toml: the tmux commands each setting becomes, and the line each is written on."""

from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.mux.bindings import TABLES
from termhost.mux.config_toml import translate
from termhost.mux.options import OPTIONS

EXAMPLE = """\
# options: top-level keys, named as tmux's options
prefix = "C-a"
mouse = true              # booleans become on/off
history-limit = 50000     # integers become their decimal text
mode-keys = "vi"
theme = "dracula"
status-right = "%H:%M"

[window]                  # window options, global (set-option -g works for them too)
monitor-activity = true

[keys.prefix]             # bindings per key table: root, prefix, copy-mode, copy-mode-vi
"|" = "split-window -h"   # a command line
"%" = false               # false unbinds the key
[keys.root]
"M-h" = "select-pane -L"
[keys.copy-mode-vi]
"y" = "send-keys -X copy-selection-and-cancel"
"""


def errors_of(text: str) -> list[tuple[int, str]]:
    return translate(text)[1]


def test_the_documented_example_becomes_tmux_commands_on_their_lines() -> None:
    assert translate(EXAMPLE) == ([
        (2, ["set-option", "-g", "prefix", "C-a"]),
        (3, ["set-option", "-g", "mouse", "on"]),
        (4, ["set-option", "-g", "history-limit", "50000"]),
        (5, ["set-option", "-g", "mode-keys", "vi"]),
        (6, ["set-option", "-g", "theme", "dracula"]),
        (7, ["set-option", "-g", "status-right", "%H:%M"]),
        (10, ["set-option", "-g", "monitor-activity", "on"]),
        (13, ["bind-key", "-T", "prefix", "|", "split-window", "-h"]),
        (14, ["unbind-key", "-T", "prefix", "%"]),
        (16, ["bind-key", "-T", "root", "M-h", "select-pane", "-L"]),
        (18, ["bind-key", "-T", "copy-mode-vi", "y", "send-keys", "-X",
              "copy-selection-and-cancel"]),
    ], [])


def test_values_are_text_in_and_text_out() -> None:
    text = ('mouse = false\nhistory-limit = "3000"\nremain-on-exit = "failed"\n'
            'status-left = "#S "\nescape-time = -1\n')
    assert translate(text) == ([
        (1, ["set-option", "-g", "mouse", "off"]),
        (2, ["set-option", "-g", "history-limit", "3000"]),
        (3, ["set-option", "-g", "remain-on-exit", "failed"]),
        (4, ["set-option", "-g", "status-left", "#S "]),
        (5, ["set-option", "-g", "escape-time", "-1"]),
    ], [])


def test_a_window_option_may_also_be_set_at_the_top_level() -> None:
    assert translate("monitor-bell = false\n") == (
        [(1, ["set-option", "-g", "monitor-bell", "off"])], [])


def test_a_command_is_split_as_a_shell_would_keeping_its_hash() -> None:
    text = """[keys.prefix]\nS = 'display-message "#S: #{pane_title}" #W'\n"""
    assert translate(text) == (
        [(2, ["bind-key", "-T", "prefix", "S", "display-message", "#S: #{pane_title}", "#W"])],
        [])


def test_quoted_bare_and_literal_keys_and_dotted_headers() -> None:
    text = ("[ keys . 'copy-mode' ]\n"
            "'\\' = \"send-keys -X cancel\"\n"
            'q = "send-keys -X cancel"\n'
            '"\\u0022" = false\n')
    assert translate(text) == ([
        (2, ["bind-key", "-T", "copy-mode", "\\", "send-keys", "-X", "cancel"]),
        (3, ["bind-key", "-T", "copy-mode", "q", "send-keys", "-X", "cancel"]),
        (4, ["unbind-key", "-T", "copy-mode", '"']),
    ], [])


def test_dotted_keys_and_inline_tables_are_found_on_their_lines() -> None:
    text = ('keys.root."M-l" = "select-pane -R"\n'
            "window = { monitor-activity = true }\n"
            'keys.prefix = { "|" = "split-window -h", "-" = "split-window -v" }\n')
    assert translate(text) == ([
        (1, ["bind-key", "-T", "root", "M-l", "select-pane", "-R"]),
        (2, ["set-option", "-g", "monitor-activity", "on"]),
        (3, ["bind-key", "-T", "prefix", "|", "split-window", "-h"]),
        (3, ["bind-key", "-T", "prefix", "-", "split-window", "-v"]),
    ], [])


def test_commands_come_in_file_order_whatever_the_tables() -> None:
    text = ('[keys.prefix]\nc = "new-window"\n[window]\nmonitor-bell = true\n'
            '[keys.root]\nF1 = "next-window"\n[keys.prefix.x]\n')
    commands, _ = translate(text)
    assert [line for line, _ in commands] == [2, 4, 6]


def test_a_multiline_string_holds_no_keys() -> None:
    text = 'status-left = """\nmouse = 1\n[keys.prefix]\n"""\nmouse = true\n'
    assert translate(text) == ([
        (1, ["set-option", "-g", "status-left", "mouse = 1\n[keys.prefix]\n"]),
        (5, ["set-option", "-g", "mouse", "on"]),
    ], [])


def test_unknown_names_are_errors_on_their_lines() -> None:
    text = ('prefix = "C-a"\nhistory = 5\n\n[colors]\nred = "#f00"\n'
            '[keys.prefix]\nc = "new-window"\n[keys.command]\nx = "kill-pane"\n'
            '[window]\nhistory-limit = 10\nactivity = true\n')
    commands, errors = translate(text)
    assert commands == [(1, ["set-option", "-g", "prefix", "C-a"]),
                        (7, ["bind-key", "-T", "prefix", "c", "new-window"])]
    assert errors == [
        (2, "unknown option: history"),
        (4, "unknown table: [colors]; the tables are [window] and [keys.TABLE]"),
        (8, "unknown key table: command"),
        (11, "history-limit: not a window option; set it at the top level, before any [table]"),
        (12, "unknown option: activity"),
    ]


def test_a_value_of_the_wrong_toml_type_is_an_error_naming_what_fits() -> None:
    text = ("history-limit = true\nescape-time = 1.5\nmouse = 1\nmode-keys = false\n"
            "prefix = [\"C-a\"]\nstatus-left = 1979-05-27\nstatus-right = 07:32:00\n"
            "theme = 1979-05-27T07:32:00Z\n[status-interval]\n")
    assert translate(text) == ([], [
        (1, "history-limit: expected an integer, got a boolean"),
        (2, "escape-time: expected an integer, got a float"),
        (3, 'mouse: expected true, false or one of "off", "on", got an integer'),
        (4, 'mode-keys: expected one of "emacs", "vi", got a boolean'),
        (5, 'prefix: expected a key name such as "C-a", got an array'),
        (6, "status-left: expected a string, got a date"),
        (7, "status-right: expected a string, got a time"),
        (8, "theme: expected a string, got a date-time"),
        (9, "status-interval: expected an integer, got a table"),
    ])


def test_the_tables_themselves_must_be_tables() -> None:
    assert errors_of('window = "on"\nkeys = 1\n') == [
        (1, 'window: expected a table of window options, got a string'),
        (2, "keys: expected key tables such as [keys.prefix], got an integer"),
    ]
    assert errors_of('[keys]\nroot = "next-window"\n') == [
        (2, "keys.root: expected a table of key bindings, got a string")]


def test_a_binding_is_a_command_string_or_false() -> None:
    text = ('[keys.prefix]\na = true\nb = 1\nc = ["kill-pane"]\nd = "display \'oops"\n'
            'e = "   "\n')
    assert translate(text) == ([], [
        (2, 'prefix key "a": expected a command string, or false to unbind it, '
            "got a boolean"),
        (3, 'prefix key "b": expected a command string, or false to unbind it, '
            "got an integer"),
        (4, 'prefix key "c": expected a command string, or false to unbind it, '
            "got an array"),
        (5, "prefix key \"d\": no closing quotation in: display 'oops"),
        (6, 'prefix key "e": empty command; false unbinds a key'),
    ])


def test_an_error_in_an_inline_table_is_on_its_line() -> None:
    text = 'mouse = true\nkeys = { prefix = { x = "kill-pane", y = 2 }, nope = {} }\n'
    assert errors_of(text) == [
        (2, 'prefix key "y": expected a command string, or false to unbind it, got an integer'),
        (2, "unknown key table: nope"),
    ]


def test_a_syntax_error_costs_its_line_not_the_file() -> None:
    text = ('prefix = "C-a"\nmouse = on\nhistory-limit = 100\n[keys.prefix\n'
            'c = "new-window"\n')
    commands, errors = translate(text)
    assert commands == [(1, ["set-option", "-g", "prefix", "C-a"]),
                        (3, ["set-option", "-g", "history-limit", "100"])]
    assert errors == [(2, "Invalid value"),
                      (4, "Expected ']' at the end of a table declaration"),
                      (5, "unknown option: c")]


def test_something_left_open_is_reported_where_it_opens() -> None:
    text = 'mouse = true\nstatus-left = """never closed\nprefix = "C-a"\n\n'
    assert translate(text) == ([(1, ["set-option", "-g", "mouse", "on"])],
                               [(2, "Unterminated string")])
    text = 'mouse = true\nkeys.prefix = { c = "new-window",\n'
    assert translate(text) == ([(1, ["set-option", "-g", "mouse", "on"])],
                               [(2, "Invalid initial character for a key part")])


def test_what_tomllib_cannot_place_is_placed_at_the_cost_of_the_lines_below() -> None:
    text = f"mouse = true\nhistory-limit = {'[' * 2000}{']' * 2000}\ntheme = 'x'\n"
    assert translate(text) == ([(1, ["set-option", "-g", "mouse", "on"])],
                               [(2, "arrays or inline tables nested too deeply")])
    huge = "0x" + "f" * 4000
    assert translate(f"history-limit = {huge}\n") == (
        [(1, ["set-option", "-g", "history-limit", huge])], [])


def test_a_file_of_garbage_gives_up_after_a_bound() -> None:
    commands, errors = translate("mouse = true\n" + "!\n" * 150)
    assert commands == []
    assert len(errors) == 101
    assert errors[-1] == (101, "more than 100 syntax errors: nothing loaded")


def test_windows_line_endings() -> None:
    assert translate('mouse = true\r\n[keys.root]\r\nF2 = "new-window"\r\n') == (
        [(1, ["set-option", "-g", "mouse", "on"]),
         (3, ["bind-key", "-T", "root", "F2", "new-window"])], [])


TOML_ISH = st.text(alphabet='[]{}"\'=.,#\\\n\r\t abkeysprfixwnd-_01tf:', max_size=200)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=200), TOML_ISH))
def test_any_text_translates_without_raising_with_lines_in_the_text(text: str) -> None:
    commands, errors = translate(text)
    last = text.count("\n") + 1
    assert all(1 <= line <= last for line, _ in [*commands, *errors])
    assert all("\n" not in message for _, message in errors)


def toml_string(text: str) -> str:
    """A TOML basic string of `text`: escapes for quotes, backslashes and controls."""
    def escape(char: str) -> str:
        if char in '"\\':
            return "\\" + char
        return f"\\u{ord(char):04x}" if ord(char) < 0x20 or char == "\x7f" else char
    return '"' + "".join(escape(char) for char in text) + '"'


TEXT = st.text(st.characters(codec="utf-8"), max_size=20)


@st.composite
def option_values(draw: st.DrawFn, name: str) -> tuple[str, str]:
    """(TOML value, tmux value) that option `name` takes."""
    option = OPTIONS[name]
    kinds = ["string"] + (["bool"] if "on" in option.choices else []) + (
        ["int"] if option.kind == "number" else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "bool":
        flag = draw(st.booleans())
        return ("true", "on") if flag else ("false", "off")
    if kind == "int":
        number = draw(st.integers(-(2**40), 2**40))
        return str(number), str(number)
    text = draw(TEXT)
    return toml_string(text), text


WORD = st.text(st.characters(codec="utf-8"), min_size=1, max_size=8)


@st.composite
def configs(draw: st.DrawFn) -> tuple[str, list[tuple[str, list[str]]]]:
    """A valid config.toml and, for each entry, (how its key is written, its command)."""
    lines: list[str] = []
    expected: list[tuple[str, list[str]]] = []
    names = draw(st.lists(st.sampled_from(sorted(OPTIONS)), unique=True))
    window = [name for name in names if OPTIONS[name].window and draw(st.booleans())]
    for section, chosen in ((None, [n for n in names if n not in window]), ("window", window)):
        if section and chosen:
            lines.append(f"[{section}]")
        for name in chosen:
            value, text = draw(option_values(name))
            lines.append(f"{name} = {value}")
            expected.append((f"{name} =", ["set-option", "-g", name, text]))
    for table in draw(st.lists(st.sampled_from(TABLES), unique=True)):
        lines.append(f'[keys."{table}"]')
        keys = draw(st.dictionaries(TEXT.filter(bool), st.none() | st.lists(WORD, min_size=1)))
        for key, words in keys.items():
            written = toml_string(key)
            if words is None:
                lines.append(f"{written} = false")
                expected.append((written, ["unbind-key", "-T", table, key]))
            else:
                lines.append(f"{written} = {toml_string(shlex.join(words))}")
                expected.append((written, ["bind-key", "-T", table, key, *words]))
    return "".join(line + "\n" for line in lines), expected


@settings(max_examples=200, deadline=None)
@given(configs())
def test_a_valid_config_gives_one_command_per_entry_on_the_line_of_its_key(
        config: tuple[str, list[tuple[str, list[str]]]]) -> None:
    text, expected = config
    commands, errors = translate(text)
    assert errors == []
    assert [argv for _, argv in commands] == [argv for _, argv in expected]
    lines = text.split("\n")
    for (line, _), (written, _) in zip(commands, expected, strict=True):
        assert lines[line - 1].startswith(written)
