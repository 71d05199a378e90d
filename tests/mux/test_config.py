"""tmux command files as the config reader splits them: never an exception, an error with
the line tmux names."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.mux.config import parse
from tests.conftest import BothServers

_PIECES = st.sampled_from([
    "set -g mouse on", "bind | split-window -h", "\\", ";", " \\;", "'", '"', "#", "\n",
    "new -d", " ", "a", "\\\\", "neww ; splitw",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES | st.text(max_size=4), max_size=40).map("".join))
def test_any_file_parses_with_errors_on_its_lines(text: str) -> None:
    commands, errors = parse(text)
    lines = max(1, len(text.splitlines()))
    assert all(1 <= number <= lines + 1 for number, _ in commands + errors)  # + 1: the end
    assert all(argv for _, argv in commands)
    assert not (commands and errors)  # a file with an error has no commands


def test_commands_split_as_tmux_reads_them() -> None:
    # A command's line is where it ends, and a comment counts its line's end early (so
    # the first two share line 2, and so a command group: tmux 3.3a's reading); a quote
    # left open goes on to the end of the file.
    commands, errors = parse("set -g mouse on # a comment\nbind a neww \\; splitw\n"
                             "set -g status-left 'a \\\n  b'\nset -g x 'open\n")
    assert commands == [(2, ["set", "-g", "mouse", "on"]),
                        (2, ["bind", "a", "neww", ";", "splitw"]),
                        (4, ["set", "-g", "status-left", "a   b"]),
                        (5, ["set", "-g", "x", "open\n"])]
    assert errors == []


# --- the language, compared with a live tmux ---------------------------------------------

LANGUAGE = r"""X=5
%hidden Y=six
set -g @a "$HOME/x"
set -g @b '$HOME'
set -g @c ~/x
set -g @d "~/x"
set -g @e $X
set -g @f ${X}y
set -g @g \$X
set -g @h "a\tb"
set -g @i $Y
set -g @j "a$ b"
set -g @k "$NOPE-"
set -g @l ~root/z
set -g @m x~/y
%if "#{==:a,a}"
set -g @n yes
%elif 1
set -g @n elif
%else
set -g @n no
%endif
%if "#{==:a,b}"
set -g @o yes
%elif "1"
set -g @o elif
%else
set -g @o no
%endif
%if "#{==:a,b}"
set -g @o2 yes
%else
%if 1
set -g @o2 nested
%endif
%endif
%if "#{>=:#{version},3.0}"
set -g @p modern
%endif
set -g @w x; set -g @y z
set -g @z "\u00e9\101\e"
set -g @q1 "it's" ; set -g @q2 'say "hi"'
set -g @q3 a"b c"d'e f'
set -g @q4 "a\
b"
set -g @q5 ""
set -g @q6 a#b # and a comment
set -g @q7 \~/x
set -g @q8 a;set -g @q9 b
"""
"""Every rule of the lexer and the directives, in lines a real ~/.tmux.conf has."""


def test_quotes_escapes_expansions_and_directives_read_as_tmux_reads_them(
    both: BothServers, tmp_path: Path
) -> None:
    conf = tmp_path / "language.conf"
    conf.write_text(LANGUAGE)
    both.env["HOME"] = str(tmp_path)
    for variable in ("NOPE", "X", "Y"):
        both.env.pop(variable, None)
    users = {}
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        assert both.run(name, "source-file", str(conf)).returncode == 0
        users[name] = [line for line in both.run(name, "show-options", "-g").stdout.splitlines()
                       if line.startswith("@")]
    assert len(users["tmux"]) == 29
    assert users["termhost"] == users["tmux"]


BLOCKS = """\
bind x { display -p a ; display -p "b c" }
bind y {
  display -p a
}
bind z if -F 1 { display a } { display b }
if -F 1 {
  set -g @b yes # a comment in a block
  set -g @b2 'two words'
}
set -g @c { display -p "q r" }
bind v { if -F 1 { run 'echo $HOME' } }
bind u { }
bind t neww \\; splitw -h
"""
"""`{ }` blocks: over lines, nested, as a binding's whole command or one argument."""


def test_blocks_read_and_print_as_tmux_s(both: BothServers, tmp_path: Path) -> None:
    # (tmux 3.3a prints a block's newline-separated commands joined by `\;\;`, a slip
    # termhost does not copy: `bind y` above has one command so both print it the same.)
    conf = tmp_path / "blocks.conf"
    conf.write_text(BLOCKS)
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        done = both.run(name, "source-file", str(conf))
        assert (done.returncode, done.stderr) == (0, ""), name
    for key in "xyzvut":
        assert both.answers("termhost", ["list-keys", "-T", "prefix", key]) == \
            both.answers("tmux", ["list-keys", "-T", "prefix", key]), key
    for option in ("@b", "@b2", "@c"):
        assert both.answers("termhost", ["show", "-gv", option]) == \
            both.answers("tmux", ["show", "-gv", option]), option


def test_an_unclosed_block_is_an_error_at_the_end_and_the_file_has_no_commands() -> None:
    commands, errors = parse("set -g @a 1\nbind x {\n  display a\n")
    assert (commands, errors) == ([], [(4, "syntax error")])
