"""The table of tmux's options (termhost/mux/option_table.py) against the tmux 3.3a installed
here: the names it lists in each scope, the defaults it prints, the values it takes."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from termhost.mux.option_table import TMUX_OPTIONS, TmuxOption

SCOPE_FLAG = {"server": "-s", "session": "-g", "window": "-gw", "pane": "-gw"}
"""The set-option/show-options flags that reach an option's global value."""

TMUX_ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SHELL": "/bin/sh"}
"""What tmux starts with: tmux takes default-shell from SHELL, and editor, mode-keys and
status-keys from EDITOR and VISUAL (none here), so those defaults come out as the table's."""


class Tmux:
    """The `tmux` client of one private server (-L NAME under its own TMUX_TMPDIR)."""

    def __init__(self, name: str, tmpdir: Path) -> None:
        self.command = ["tmux", "-L", name]
        self.env = {**TMUX_ENV, "TMUX_TMPDIR": str(tmpdir)}

    def __call__(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([*self.command, *args], env=self.env, capture_output=True,
                              text=True, timeout=10)
        if check and done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr}")
        return done

    def batch(self, commands: list[list[str]]) -> subprocess.CompletedProcess[str]:
        """`commands` run by one tmux invocation, separated by `;` (`\\;` in a shell); tmux
        runs them in order and stops at the first that fails."""
        args: list[str] = []
        for command in commands:
            args += [";", *command] if args else command
        return self(*args)


@contextmanager
def private_tmux(role: str, tmpdir: Path) -> Iterator[Tmux]:
    """A private tmux server started with -f /dev/null, a detached session running
    `sleep 1000`; killed at the end, whatever the tests did."""
    tmux = Tmux(f"termhost-opttable-{role}-{os.getpid()}", tmpdir)
    try:
        tmux("-f", "/dev/null", "new-session", "-d", "-s", "main", "sleep 1000")
        yield tmux
    finally:
        tmux("kill-server", check=False)


@pytest.fixture(scope="module")
def tmux(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tmux]:
    """A server whose global options stay as tmux starts them: the tests that read defaults
    use it, and none sets a global option on it."""
    with private_tmux("pristine", tmp_path_factory.mktemp("tmux")) as server:
        yield server


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tmux]:
    """A server the tests set global options on (nothing is restored: it is private)."""
    with private_tmux("scratch", tmp_path_factory.mktemp("tmux")) as server:
        yield server


def listed_names(tmux: Tmux, *flags: str) -> set[str]:
    """The option names `show-options FLAGS` lists (an array's elements show as name[0]
    value, name[1] value, ...; an empty array as its bare name)."""
    lines = tmux("show-options", *flags).stdout.splitlines()
    return {line.split(" ", 1)[0].split("[", 1)[0] for line in lines}


def elements(option: TmuxOption) -> list[str]:
    """An array option's default elements, as the table joins them."""
    if not option.default:
        return []
    if "\n" in option.default:
        return option.default.split("\n")
    return re.split(f"[{re.escape(option.separator)}]", option.default)


def printed_values(output: str) -> list[str]:
    """The lines `show-options -v` printed: one for a value, one per element for an array."""
    return output.split("\n")[:-1]


def test_tmux_lists_exactly_the_tables_options_in_each_scope(tmux: Tmux) -> None:
    """`show-options -s`, `-g` and `-gw` list every option of their scope (window and pane
    ones together under -gw) and nothing else; hooks (`show-hooks`) are not among them."""
    for scopes, flag in ((("server",), "-s"), (("session",), "-g"), (("window", "pane"), "-gw")):
        table = {option.name for option in TMUX_OPTIONS if option.scope in scopes}
        assert listed_names(tmux, flag) == table, flag
    hooks = {line.split("[", 1)[0] for flag in ("-g", "-gw")
             for line in tmux("show-hooks", flag).stdout.splitlines()}
    assert "after-new-window" in hooks and "pane-exited" in hooks
    assert not hooks & {option.name for option in TMUX_OPTIONS}
    assert len({option.name for option in TMUX_OPTIONS}) == len(TMUX_OPTIONS)


def test_the_table_is_ordered_by_scope_then_name() -> None:
    """The order the table keeps (by scope, window and pane together, then by name)."""
    rank = {"server": 0, "session": 1, "window": 2, "pane": 2}
    keys = [(rank[option.scope], option.name) for option in TMUX_OPTIONS]
    assert keys == sorted(keys)


def test_pane_options_are_the_ones_a_pane_keeps_for_itself(tmux: Tmux) -> None:
    """`set-option -p` of a pane option sets it on that pane (`show-options -p` lists it);
    of a window-only option, tmux 3.3a does not fail but sets it on the pane's window."""
    pane = tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main",
                "sleep 1000").stdout.strip()
    window = [option for option in TMUX_OPTIONS if option.scope in ("window", "pane")]
    # any valid value: the default, but a colour's default "none" is not one tmux accepts
    tmux.batch([["set-option", "-p", "-t", pane, option.name,
                 "red" if option.kind == "colour" else option.default.split("\n")[0]]
                for option in window])
    assert listed_names(tmux, "-p", "-t", pane) == {
        option.name for option in window if option.scope == "pane"}
    assert listed_names(tmux, "-w", "-t", pane) == {
        option.name for option in window if option.scope == "window"}


def test_defaults_are_what_show_options_v_prints(tmux: Tmux) -> None:
    """`show-options -v` prints an option's raw value (no quoting, unlike plain
    `show-options`) on one line; an array one element per line, and nothing when empty."""
    wrong = {}
    for option in TMUX_OPTIONS:
        printed = tmux("show-options", "-v", SCOPE_FLAG[option.scope], option.name).stdout
        expected = elements(option) if option.array else [option.default]
        if printed_values(printed) != expected:
            wrong[option.name] = printed
    assert wrong == {}


def test_an_array_value_is_split_where_the_table_says(scratch: Tmux) -> None:
    """`set-option` of an array option splits the value into elements at each separator
    character (runs of them count once): a comma for most, a space or comma for some."""
    for option in (option for option in TMUX_OPTIONS if option.array):
        value = "red,blue green" if option.kind == "colour" else "a=1,b=2 c=3,,d"
        flag = SCOPE_FLAG[option.scope]
        printed = scratch.batch([["set-option", flag, option.name, value],
                                 ["show-options", "-v", flag, option.name]]).stdout
        pieces = re.split(f"[{re.escape(option.separator)}]+", value)
        assert printed_values(printed) == pieces, option.name


CHOICES = [option for option in TMUX_OPTIONS if option.kind == "choice"]
NUMBERS = [option for option in TMUX_OPTIONS if option.kind == "number"]


def test_every_choice_is_accepted_and_an_unknown_one_rejected(scratch: Tmux) -> None:
    """A choice option takes each of its values and says `unknown value: X` to another;
    `set-option NAME` with no value toggles between its first two (tmux's order)."""
    scratch.batch([["set-option", SCOPE_FLAG[option.scope], option.name, choice]
                   for option in CHOICES for choice in option.choices])
    toggles: list[list[str]] = []
    expected: list[str] = []
    for option in CHOICES:
        flag = SCOPE_FLAG[option.scope]
        for choice, after in zip(option.choices, [*option.choices[1::-1], *option.choices[2:]],
                                 strict=True):
            toggles += [["set-option", flag, option.name, choice],
                        ["set-option", flag, option.name],
                        ["show-options", "-v", flag, option.name]]
            expected.append(after)
    assert printed_values(scratch.batch(toggles).stdout) == expected
    for option in CHOICES:
        bad = scratch("set-option", SCOPE_FLAG[option.scope], option.name, "not-a-choice",
                      check=False)
        assert (bad.returncode, bad.stderr) == (1, "unknown value: not-a-choice\n"), option.name


def test_every_number_takes_low_to_high_and_nothing_beyond(scratch: Tmux) -> None:
    """A number option takes its bounds; one below is `value is too small: N` (so is -1 for
    those starting at 0), one above `value is too large: N`."""
    scratch.batch([["set-option", SCOPE_FLAG[option.scope], option.name, str(bound)]
                   for option in NUMBERS for bound in (option.low, option.high)])
    for option in NUMBERS:
        flag = SCOPE_FLAG[option.scope]
        for value, error in ((option.low - 1, "too small"), (option.high + 1, "too large")):
            bad = scratch("set-option", flag, option.name, str(value), check=False)
            assert (bad.returncode, bad.stderr) == (1, f"value is {error}: {value}\n"), (
                option.name)


BAD_VALUE_ERRORS = {
    "number": "value is invalid: zzbogus\n",
    "choice": "unknown value: zzbogus\n",
    "flag": "bad value: zzbogus\n",
    "colour": "bad colour: zzbogus\n",
    "key": "bad key: zzbogus\n",
    "style": "invalid style: zzbogus\n",
}
"""What tmux says to a value no option of the kind takes (a string option takes any text, but
for default-shell's and default-size's checks; there is no command kind among options)."""


def test_each_kind_rejects_a_bad_value_in_its_own_words(scratch: Tmux) -> None:
    """The kind of every option that is not a string shows in tmux's error for a bad value."""
    assert {option.kind for option in TMUX_OPTIONS} == {*BAD_VALUE_ERRORS, "string"}
    wrong = {}
    for option in TMUX_OPTIONS:
        if option.kind == "string":
            continue
        bad = scratch("set-option", SCOPE_FLAG[option.scope], option.name, "zzbogus",
                      check=False)
        if (bad.returncode, bad.stderr) != (1, BAD_VALUE_ERRORS[option.kind]):
            wrong[option.name] = bad.stderr
    assert wrong == {}
