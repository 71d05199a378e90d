"""A configuration file with an error, in a live tmux 3.3a and in termhost: tmux reads and
builds a whole file before it runs any of it, so a file with a syntax error, or a command
it cannot build (no such command, a flag or argument count its verb refuses, in a `{ }`
block too), runs none of its commands: the first error is said as `FILE:LINE: message`
and the exit status is 1. A command that fails when run only skips the rest of its line
(its command group); the file goes on.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import BothServers

REFUSED = {
    "unknown_command": "set -g @a 1\nnosuchcmd foo\nset -g @b 2\n",
    "unknown_flag": "set -g @a 1\nsplit-window -Z\nnew -d -s x -ZZZ\nbind\n",
    "too_few_arguments": "set -g @a 1\nbind\nnosuch\n",
    "in_a_block": "set -g @a 1\nbind x {\n  display a\n  nosuch\n}\n",
    "unclosed_block": "set -g @a 1\nbind x {\n  display a\n",
    "if_without_endif": "set -g @a 1\n\n%if 1\nset -g @b 2\n",
    "endif_without_if": "set -g @a 1\n%endif\nset -g @b 2\n",
    "unknown_directive": "set -g @a 1\n%bogus\n",
    "stray_brace": "set -g @a 1\nset -g @b a}b\n",
    "open_variable": "set -g @a 1\nset -g @b ${NOPE\n",
    "octal_escape": "set -g @a 1\nset -g @b \\4\n",
    "unicode_escape": 'set -g @a 1\nset -g @b "\\u00zz"\n',
    "no_such_user": "set -g @a 1\nset -g @b ~nosuchuser/x\n",
    "after_a_continued_line": "set -g @a 1 \\\n  2\nnosuch\n",
    "after_a_comment": "set -g @a 1 2 # the line after is said\n",
    "after_a_quoted_newline": 'set -g @a "x\ny"\nnosuch\n',
    "assignments_before_it_stay": "FOO=bar\n%hidden HID=1\nset -g @a \"$FOO$HID\"\nnosuch\n",
}
"""Files tmux refuses whole, each as a ~/.tmux.conf might go wrong; with tmux's reading
of lines kept (a command's line is where it ends; a comment counts its line's end early;
a newline in quotes is not counted)."""

RUN = {
    "open_quote_to_the_end": "set -g @a 1\nset -g @b 'open\nset -g @c 3\n",
    "failing_commands": "set -g @a 1 ; set -g nosuch-opt 1 ; set -g @b 2\nset -g @c 3\n",
    "group_after_a_comment": "set -g nosuch 1 # and the next line shares its group\n"
                             "set -g @a 1\nset -g @b 1\n",
    "unsupported_flag_when_run": "set -g @a 1\nbind x copy-mode -e\n"
                                 "bind -n WheelUpPane copy-mode -e\nset -g @b 1\n",
    "string_commands_built_when_run": 'set -g @a 1\nbind x nosuch\nif -F 1 "nosuch"\n'
                                      "set -g @b 1\n",
    "assignment_alone_drops_its_line": "set -g @a 1 ; X=2\nset -g @b \"$X\"\n",
    "branches": "%if 0\nX=1\n%endif\n%if 0\n%if 1\nY=2\n%endif\n%endif\n"
                'set -g @a "$X$Y" ; %if 1 set -g @b 1 %else set -g @c 1 %endif\n',
}
"""Files tmux runs, errors and all."""


def loaded(servers: BothServers, name: str, *args: str) -> tuple[int, str, list[str], str]:
    """source-file `args` in `name`: its status, everything it said (tmux says a refused
    file's error as output: see below), the user options it left and the global
    environment's FOO and HID."""
    done = servers.run(name, "source-file", *args)
    options = [line for line in servers.run(name, "show-options", "-g").stdout.splitlines()
               if line.startswith("@")]
    environment = (servers.run(name, "show-environment", "-g", "FOO").stdout
                   + servers.run(name, "show-environment", "-gh", "HID").stdout)
    return done.returncode, done.stdout + done.stderr, options, environment


@pytest.fixture
def servers(both: BothServers) -> BothServers:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    return both


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_a_file_tmux_cannot_build_runs_nothing(servers: BothServers, tmp_path: Path,
                                               text: str) -> None:
    conf = tmp_path / "refused.conf"
    conf.write_text(text)
    tmux = loaded(servers, "tmux", str(conf))
    assert tmux[0] == 1 and tmux[1].startswith(f"{conf}:"), tmux
    assert loaded(servers, "termhost", str(conf)) == tmux


@pytest.mark.parametrize("text", RUN.values(), ids=RUN.keys())
def test_a_file_tmux_builds_runs_its_errors_and_all(servers: BothServers, tmp_path: Path,
                                                    text: str) -> None:
    conf = tmp_path / "run.conf"
    conf.write_text(text)
    tmux, termhost = (loaded(servers, name, str(conf)) for name in servers.NAMES)
    assert (termhost[0], termhost[2:]) == (tmux[0], tmux[2:])
    # the errors alike, but for the FILE:LINE: before them (see the last test)
    where = re.compile(rf"^{re.escape(str(conf))}:\d+: ", re.MULTILINE)
    assert where.sub("", termhost[1]) == where.sub("", tmux[1])


def test_other_files_and_the_flags(servers: BothServers, tmp_path: Path) -> None:
    refused, fine = tmp_path / "refused.conf", tmp_path / "fine.conf"
    refused.write_text(REFUSED["unknown_command"])
    fine.write_text("set -g @fine 1\nset -g @more 2 ; set -g @same-line 3\n")
    for args in ([str(tmp_path / "none.conf"), str(refused), str(fine)],  # each its own
                 ["-n", str(refused)], ["-n", str(fine)],  # -n: checked, not run
                 ["-v", str(refused)], ["-v", str(fine)],  # -v: each line built, printed
                 ["-q", str(tmp_path / "none.conf")]):
        assert loaded(servers, "termhost", *args) == loaded(servers, "tmux", *args), args


@pytest.mark.parametrize("text", [REFUSED["unknown_command"], REFUSED["unclosed_block"],
                                  RUN["failing_commands"]], ids=["refused", "block", "run"])
def test_the_file_a_server_starts_with(both: BothServers, tmp_path: Path, text: str) -> None:
    """At start (-f), the same: the session is made all the same, and the errors wait for
    it, shown in view mode over its pane (tmux's cfg_show_causes)."""
    conf = tmp_path / "start.conf"
    conf.write_text(text)
    seen = {}
    for name in both.NAMES:
        started = both.run(name, "new-session", "-d", "-s", "s", "sleep 1000", config=conf)
        options = [line for line in both.run(name, "show-options", "-g").stdout.splitlines()
                   if line.startswith("@")]
        mode = both.run(name, "display-message", "-p", "-t", "s", "#{pane_mode}").stdout
        seen[name] = (started.returncode, started.stdout, started.stderr, options, mode)
    assert seen["tmux"][-1] == "view-mode\n"
    assert seen["termhost"] == seen["tmux"]


@pytest.mark.parametrize("text", [REFUSED["unknown_command"], RUN["failing_commands"]],
                         ids=["refused", "run"])
def test_a_refused_file_is_said_as_output_and_errors_as_they_are(
        servers: BothServers, tmp_path: Path, text: str) -> None:
    conf = tmp_path / "said.conf"
    conf.write_text(text)
    assert servers.answers("termhost", ["source-file", str(conf)]) == servers.answers(
        "tmux", ["source-file", str(conf)])
