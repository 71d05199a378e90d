"""tmux command files as the config reader splits them: never an exception, every error
with a line of the file."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.mux.config import parse

_PIECES = st.sampled_from([
    "set -g mouse on", "bind | split-window -h", "\\", ";", " \\;", "'", '"', "#", "\n",
    "new -d", " ", "a", "\\\\", "neww ; splitw",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES | st.text(max_size=4), max_size=40).map("".join))
def test_any_file_parses_with_errors_on_its_lines(text: str) -> None:
    commands, errors = parse(text)
    lines = max(1, len(text.splitlines()))
    assert all(1 <= number <= lines for number, _ in commands + errors)
    assert all(argv for _, argv in commands)


def test_commands_split_as_tmux_reads_them() -> None:
    commands, errors = parse("set -g mouse on # a comment\nbind a neww \\; splitw\n"
                             "set -g status-left 'a \\\n  b'\nset -g x 'open\n")
    assert commands == [(1, ["set", "-g", "mouse", "on"]),
                        (2, ["bind", "a", "neww", ";", "splitw"]),
                        (3, ["set", "-g", "status-left", "a   b"])]
    assert errors == [(5, "syntax error: No closing quotation")]
