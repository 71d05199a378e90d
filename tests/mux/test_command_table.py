"""The command table held against a live tmux 3.3a, a case for each verb: which letters
are flags and which take a value, how many arguments, which verbs start a server, and
the errors a command line meets, as tmux words them; then what termhost says of a flag or
a verb of tmux's it does not implement yet."""

from __future__ import annotations

import string
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from termhost.mux.commands import COMMANDS
from termhost.mux.verbs import VERBS, UsageError, Verb, parse_flags
from tests.conftest import BothServers

TMUX_VERBS = [verb for verb in VERBS.values() if not verb.own]
LETTERS = string.ascii_letters + string.digits
"""What tmux's parser takes for a flag letter (isalnum); anything else is `invalid`."""


def each(verbs: list[Verb]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize("verb", verbs, ids=lambda verb: verb.name)


def words(count: int) -> list[str]:
    return ["x"] * count


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BothServers]:
    """tmux and termhost, each serving a session `s`: every command line reaches a server."""
    both = BothServers(tmp_path_factory.mktemp("table"))
    try:
        for name in both.NAMES:
            assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        yield both
    finally:
        both.kill()


def probes(verb: Verb) -> list[list[str]]:
    """For each letter, a command line tmux refuses whatever the letter is to the verb,
    and says what it is: `unknown flag -L` (no flag), `invalid flag -!` (a flag taking no
    value met `!`), or the usage (a flag took `!` as its value, then came -?). So none
    of them runs."""
    return [[verb.name, f"-{letter}!", "-?"] for letter in LETTERS]


@pytest.fixture(scope="module")
def tmux_says(servers: BothServers) -> dict[str, list[str]]:
    """tmux's refusal of every verb's probes, by verb: one control-mode client (`tmux -C`)
    answers them all, each in its %begin ... %error block."""
    lines = [" ".join(probe) for verb in TMUX_VERBS for probe in probes(verb)]
    done = subprocess.run([*servers.programs["tmux"], "-C", "attach", "-t", "s"],
                          input="".join(line + "\n" for line in lines), env=servers.env,
                          capture_output=True, text=True, timeout=60, check=False)
    answers: list[str] = []
    block: list[str] | None = None
    for line in done.stdout.splitlines():
        if line.startswith("%begin ") and line.endswith(" 1"):
            block = []
        elif line.startswith(("%error ", "%end ")) and block is not None:
            answers.append("\n".join(block).removeprefix("parse error: "))
            block = None
        elif block is not None:
            block.append(line)
    assert len(answers) == len(lines), done.stdout[-500:]
    return {verb.name: answers[i * len(LETTERS):(i + 1) * len(LETTERS)]
            for i, verb in enumerate(TMUX_VERBS)}


def refusal(verb: Verb, args: list[str]) -> str:
    """What termhost's parser says of a command line it refuses."""
    with pytest.raises(UsageError) as refused:
        parse_flags(verb, args)
    return str(refused.value)


def test_the_table_is_tmuxs_ninety_verbs_and_termhosts_own() -> None:
    # tmux 3.3a's list-commands has 90 lines, every one of them implemented, as every
    # verb of termhost's own.
    assert len(TMUX_VERBS) == 90
    for verb in VERBS.values():
        assert verb.name in COMMANDS, verb.name


@each(TMUX_VERBS)
def test_each_letter_is_a_flag_or_not_as_tmux_parses_it(
    verb: Verb, tmux_says: dict[str, list[str]]
) -> None:
    # tmux's getopt template: which letters are flags and which take a value, told
    # apart by tmux's own parser for all 62 letters (undocumented flags too, such as
    # select-pane -P). termhost's extras (run-shell -c, tmux 3.4's) are unknown to tmux.
    for probe, theirs in zip(probes(verb), tmux_says[verb.name], strict=True):
        letter = probe[1][1]
        if letter in verb.extra_flags:
            assert theirs == f"command {verb.name}: unknown flag -{letter}"
        else:
            assert refusal(verb, probe[1:]) == theirs, probe


@each(TMUX_VERBS)
def test_an_unknown_flag_is_refused_as_tmux_refuses_it(verb: Verb, servers: BothServers) -> None:
    # tmux: `command VERB: unknown flag -X` on stderr, exit status 1, nothing run.
    template = verb.flags + verb.extra_flags
    letter = next(letter for letter in "ZQjJ" + LETTERS if letter not in template)
    line = [verb.name, f"-{letter}"]
    assert servers.answers("termhost", line) == servers.answers("tmux", line)


@each([verb for verb in TMUX_VERBS if verb.min_args > 0])
def test_too_few_arguments_are_refused_as_tmux_refuses_them(
    verb: Verb, servers: BothServers
) -> None:
    # tmux: `command VERB: too few arguments (need at least N)`, exit status 1.
    line = [verb.name, *words(verb.min_args - 1)]
    assert servers.answers("termhost", line) == servers.answers("tmux", line)


@each([verb for verb in TMUX_VERBS if verb.max_args != -1])
def test_too_many_arguments_are_refused_as_tmux_refuses_them(
    verb: Verb, servers: BothServers
) -> None:
    # tmux: `command VERB: too many arguments (need at most N)`, exit status 1.
    line = [verb.name, *words(verb.max_args + 1)]
    assert servers.answers("termhost", line) == servers.answers("tmux", line)


@pytest.mark.parametrize("line", [
    ["has-session", "-?"],  # -? asks for the usage: `usage: has-session [-t ...]`
    ["has-session", "--foo"],  # a flag is a letter or a digit: `invalid flag --`
    ["has-session", "-t"],  # a value missing at the end: tmux 3.3a takes the line
    ["has-session", "-ts"],  # a value in the flag's own word
    ["has-session", "-t", "-d"],  # a value may begin with -
    ["has-session", "-"],  # - alone is an argument, not a flag
    ["has-session", "-t", "s", "--", "x"],  # -- ends the flags
    ["has-session", "-t", "s", "x", "-t"],  # so does the first argument
    ["kill-server", "-d-"],  # the letters of a word are read in turn, up to the first wrong
], ids=" ".join)
def test_a_command_line_is_split_as_tmux_splits_it(line: list[str], servers: BothServers) -> None:
    assert servers.answers("termhost", line) == servers.answers("tmux", line)


@each(TMUX_VERBS)
def test_a_verb_starts_a_server_as_tmuxs_do(verb: Verb, tmp_path: Path) -> None:
    # tmux's CMD_STARTSERVER: run with no server, such a verb starts one; any other verb
    # cannot reach one (`no server running on ...`, or `error connecting to ...`).
    tmux = BothServers(tmp_path)
    try:
        done = subprocess.run([*tmux.programs["tmux"], verb.name, *words(verb.min_args)],
                              env=tmux.env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=30, check=False)
    finally:
        tmux.run("tmux", "kill-server")
    unreached = done.stderr.startswith(("no server running on ", "error connecting to "))
    assert verb.starts_server == (not unreached), done.stderr
