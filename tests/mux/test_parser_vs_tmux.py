"""The command language against a live tmux 3.3a, by Hypothesis: generated lines of
quoting, escapes, `~`, `$NAME` / `${NAME}`, `NAME=value`, `;` separators and comments,
each the value of a user option, sourced into both servers; every value must read back
the same (`show-options -g`) and every refusal must be tmux's. One pair of servers serves
all the examples: a file is a few lines, sourced, read back, the options dropped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termhost.mux.lexer import parse_commands
from tests.conftest import BothServers

_PLAIN = st.text(alphabet="abcXYZ019-_./:,=@%+", min_size=1, max_size=6)
_INSIDE = st.text(alphabet="ab c#{}()-;:~$", max_size=6)
_ESCAPED = st.sampled_from(["\\\\", "\\;", "\\'", '\\"', "\\$", "\\~", "\\ ", "\\a"])
_EXPANDED = st.sampled_from(["$FROMFILE", "${FROMFILE}", "$HOME", "${HOME}x", "$NOSUCH",
                             "${NOSUCH}", "~", "~/d", "~root", "$", "${", "$0", "$é"])


@st.composite
def _double_quoted(draw: st.DrawFn) -> str:
    parts = draw(st.lists(_INSIDE | _EXPANDED | st.sampled_from(
        ["\\\\", '\\"', "\\$", "\\n", "\\t", "\\e", "\\u00e9", "\\101", "'"]), max_size=4))
    return '"' + "".join(parts) + '"'


_SINGLE_QUOTED = _INSIDE.map(lambda text: "'" + text.replace("'", "") + "'")
_PIECE = _PLAIN | _ESCAPED | _EXPANDED | _double_quoted() | _SINGLE_QUOTED
_WORD = st.lists(_PIECE, min_size=1, max_size=4).map("".join)


@st.composite
def _file(draw: st.DrawFn) -> str:
    """A few `set -g @vN WORD` commands, some on one line with `;`, some with a comment
    after them, after an assignment the words may expand."""
    lines = [f"FROMFILE={draw(_PLAIN)}"]
    count = draw(st.integers(min_value=1, max_value=5))
    line: list[str] = []
    for number in range(count):
        line.append(f"set -g @v{number} {draw(_WORD)}")
        if draw(st.booleans()):
            comment = " # a comment" if draw(st.booleans()) else ""
            lines.append(" ; ".join(line) + comment)
            line = []
    if line:
        lines.append(" ; ".join(line))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BothServers]:
    both = BothServers(tmp_path_factory.mktemp("parser"))
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    yield both
    both.kill()


def _user_options(servers: BothServers, name: str) -> list[str]:
    return [line for line in servers.run(name, "show-options", "-g").stdout.splitlines()
            if line.startswith("@")]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_file())
def test_generated_lines_read_as_tmux_reads_them(servers: BothServers, tmp_path: Path,
                                                 text: str) -> None:
    conf = tmp_path / "generated.conf"
    conf.write_text(text)
    seen = {}
    for name in servers.NAMES:
        loaded = servers.answers(name, ["source-file", str(conf)])
        seen[name] = (loaded, _user_options(servers, name))
        for line in seen[name][1]:  # each example starts from none
            servers.run(name, "set", "-gu", line.split()[0])
    assert seen["termhost"] == seen["tmux"], text


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=" \t\x1c\xa0é-@x1;{}\\~$'\"#%=ab\n", max_size=24))
def test_the_plain_line_shortcut_reads_as_the_grammar_does(text: str) -> None:
    """parse_commands splits a line of plain words without the grammar (a script's
    thousands of `set -g @x N`): wherever it does, the grammar reads the same words."""
    from termhost.mux.lexer import _SIMPLE, LexError, _format_true, _Parser

    if not text or not _SIMPLE.fullmatch(text):
        return
    try:
        grammar = _Parser(text, {}, None, _format_true).lines()
    except LexError as error:
        raise AssertionError(f"the grammar refuses {text!r}: {error}") from None
    assert parse_commands(text, {}) == grammar


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([
    "set -g @x 1", "  bind x kill-pane\t", "", "   ", "# comment", "a=1", "set @y $a",
    "%if 1", "%if 0", "%else", "%endif", "x \\", "{", "}", "bind y { set @z 2", "neww ; splitw",
    "display 'a b'", "set -g @w ~/x", "%hidden h=2",
]), max_size=12), st.booleans())
def test_a_files_plain_lines_read_as_the_grammar_reads_them(lines: list[str],
                                                            newline: bool) -> None:
    """A file's lines of plain words skip the grammar (`_Parser.plain_line`): the
    commands and their line numbers, or the error and its line, are the grammar's."""
    from termhost.mux.lexer import LexError, _format_true, _Parser

    text = "\n".join(lines) + ("\n" if newline else "")
    seen = []
    for shortcut in (True, False):
        try:
            seen.append(_Parser(text, {}, None, _format_true, shortcut=shortcut).lines())
        except LexError as error:
            seen.append([(error.line, str(error))])
    assert seen[0] == seen[1], text
