"""list-commands, read off the one table of verbs, as tmux 3.3a prints it; and every verb
in that table is one of tmux's, by name and aliases, but termhost's own two."""

from __future__ import annotations

from tests.conftest import BothServers

OWN = {"show-snapshot", "record-pane"}
"""termhost's verbs that tmux has not (snapshots, recording)."""


def test_list_commands_prints_as_tmux_and_names_only_tmux_verbs(both: BothServers) -> None:
    # Verbs whose usage termhost's table gives as tmux does, and one that is none.
    for args in (["kill-server"], ["set-option"], ["show-options"], ["if-shell"],
                 ["nosuch"], ["-F", "#{command_list_name}|#{command_list_alias}", "lsk"]):
        assert both.answers("termhost", ["list-commands", *args]) == both.answers(
            "tmux", ["list-commands", *args]), args

    def names(name: str) -> set[tuple[str, ...]]:
        listing = both.run(name, "lscm", "-F", "#{command_list_name} #{command_list_alias}")
        return {tuple(line.split()) for line in listing.stdout.splitlines()}

    assert names("termhost") - names("tmux") == {(name,) for name in OWN}
    assert both.run("termhost", "has-session").returncode == 1  # it left no server behind


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
