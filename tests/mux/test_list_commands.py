"""list-commands, read off the one table of verbs, as tmux 3.3a prints it; and every verb
in that table is one of tmux's, by name and aliases, but termhost's own two."""

from __future__ import annotations

from termhost.mux.verbs import VERBS
from tests.conftest import BothServers

OWN = {name for name, verb in VERBS.items() if verb.own}
"""termhost's verbs that tmux has not (snapshots, recording)."""


def test_list_commands_prints_as_tmux_and_names_only_tmux_verbs(both: BothServers) -> None:
    # Verbs whose usage termhost's table gives as tmux does, one that is none, one named
    # by its alias, and a prefix, which list-commands (unlike the command line) does not
    # take for the verb.
    for args in (["kill-server"], ["set-option"], ["show-options"], ["if-shell"],
                 ["nosuch"], ["lsk"], ["list-k"],
                 ["-F", "#{command_list_name}|#{command_list_alias}", "lsk"]):
        assert both.answers("termhost", ["list-commands", *args]) == both.answers(
            "tmux", ["list-commands", *args]), args

    def names(name: str) -> set[tuple[str, ...]]:
        listing = both.run(name, "lscm", "-F", "#{command_list_name} #{command_list_alias}")
        return {tuple(line.split()) for line in listing.stdout.splitlines()}

    assert names("termhost") - names("tmux") == {(name,) for name in OWN}
    assert both.run("termhost", "has-session").returncode == 1  # it left no server behind


def test_list_commands_lists_all_of_tmuxs_verbs_line_for_line(both: BothServers) -> None:
    # tmux 3.3a's whole command table in its order: name, alias, usage (its slips too,
    # display-popup's `[-t target-pane][-T title]`); termhost's own verbs set aside.
    ours = both.run("termhost", "list-commands")
    theirs = both.run("tmux", "list-commands")
    assert (ours.returncode, ours.stderr) == (theirs.returncode, theirs.stderr) == (0, "")
    listed = [line for line in ours.stdout.splitlines() if line.split(" ", 1)[0] not in OWN]
    assert listed == theirs.stdout.splitlines()
    assert len(listed) == 90


def test_a_command_line_may_hold_several_commands_as_tmux_reads_them(both: BothServers) -> None:
    # tmux's client splits its arguments at `;` words and words ending in `;` (the shell
    # passes `\;` as `;`); `\\;` keeps a `;` for bind-key. The rest stops at an error.
    lines = [
        ["start;", "has", "-t", "nosuch"],
        ["new", "-d", "-s", "one", "sleep 1000;", "has", "-t", "one"],
        ["new-window", "-d", "-t", "one:", ";", "list-windows", "-t", "one", "-F", "#I"],
        ["display", "-p", "a", ";", "has", "-t", "nosuch", ";", "display", "-p", "b"],
        ["bind", "a", "new-window", "\\;", "split-window"],
        ["list-keys", "-T", "prefix", "a"],
        ["display", "-p", "semi\\;"],
    ]
    seen = {name: [both.answers(name, line)[:2] for line in lines] for name in both.NAMES}
    for line, ours, theirs in zip(lines, seen["termhost"], seen["tmux"], strict=True):
        assert ours == theirs, line
