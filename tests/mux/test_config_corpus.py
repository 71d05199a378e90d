"""Real ~/.tmux.conf files work unchanged: each file of tests/data/tmux_configs/ loaded
into a fresh tmux 3.3a and a fresh termhost, by source-file and as the -f file a server
starts with, and what each server says and is left with compared.

The files are written after the configurations a great many people run (tmux-sensible,
tmux-pain-control, tmux-yank, vim-tmux-navigator, catppuccin and nord themes, gpakosz's,
tpm's block, a version-switching file, a dotfiles mix; see the README there), and tmux
loads each without an error. What is compared is what loading a file does: its errors
(none), the options it sets (`show-options -g`, `-gw`, `-s`) and the key bindings it
makes or removes (`list-keys`), each as the server prints it. The servers' own defaults
are not compared: an option or key the file leaves alone is another test's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.conftest import BothServers

CORPUS = sorted((Path(__file__).parents[1] / "data" / "tmux_configs").glob("*.conf"))
"""Every file of the corpus: a file put there is tested."""

_BINDING = re.compile(r"bind-key +(-r +)?-T (\S+) +(\S+) +(.*)")
"""A line of list-keys; its columns are padded to the widest key of every table, which
the defaults decide."""


@pytest.fixture
def servers(both: BothServers, tmp_path: Path) -> BothServers:
    """Both servers' user with tpm installed (its script, doing nothing, at the place
    `run '~/.tmux/plugins/tpm/tpm'` names) and no ~/.tmux.conf of their own."""
    home = tmp_path / "home"
    tpm = home / ".tmux" / "plugins" / "tpm" / "tpm"
    tpm.parent.mkdir(parents=True)
    tpm.write_text("#!/bin/sh\nexit 0\n")
    tpm.chmod(0o755)
    both.env["HOME"] = str(home)
    return both


def options(servers: BothServers, name: str) -> dict[tuple[str, str], str]:
    """Every option `show-options` lists, by scope flag and name: its value as printed."""
    listed = {}
    for scope in ("-g", "-gw", "-s"):
        for line in servers.run(name, "show-options", scope).stdout.splitlines():
            option, _, value = line.partition(" ")
            listed[scope, option] = value
    return listed


def bindings(servers: BothServers, name: str) -> dict[tuple[str, str], str]:
    """Every key binding, by table and key (as printed, escaped): `-r` and its command."""
    listed = {}
    for line in servers.run(name, "list-keys").stdout.splitlines():
        found = _BINDING.fullmatch(line)
        assert found is not None, (name, line)
        repeat, table, key, command = found.groups()
        if name == "tmux":  # tmux 3.3a's ` \;\; ` between a block's lines, deliberately
            command = command.replace(" \\;\\; ", " \\; ")  # not copied: see test_config.py
        listed[table, key] = f"{'-r ' if repeat else ''}{command}"
    return listed


def changed(before: Mapping[tuple[str, str], str], after: Mapping[tuple[str, str], str]
            ) -> set[tuple[str, str]]:
    return {item for item in before.keys() | after.keys() if before.get(item) != after.get(item)}


def same_effect(servers: BothServers, before: dict[str, dict[tuple[str, str], str]],
                after: dict[str, dict[tuple[str, str], str]], what: str) -> int:
    """What the file changed in either server reads the same in both afterwards; how
    many things that is."""
    touched = set().union(*(changed(before[name], after[name]) for name in servers.NAMES))
    left = {name: {item: after[name].get(item) for item in touched} for name in servers.NAMES}
    assert left["termhost"] == left["tmux"], what
    return len(touched)


@pytest.mark.parametrize("conf", CORPUS, ids=lambda path: path.stem)
def test_source_file_of_a_real_configuration_does_what_tmux_does(
    servers: BothServers, conf: Path
) -> None:
    """Pins, for source-file into a running server: no error and exit status 0 for a
    file tmux 3.3a loads without one; each option set as tmux sets and prints it
    (strings escaped, colours and keys normalised, arrays by element); each binding
    made, replaced or removed as tmux does, its key named and its command printed as
    tmux prints them (full verb names, flags in tmux's order, words escaped)."""
    before_options, after_options, before_keys, after_keys = {}, {}, {}, {}
    said = {}
    for name in servers.NAMES:
        assert servers.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        before_options[name], before_keys[name] = options(servers, name), bindings(servers, name)
        said[name] = servers.answers(name, ["source-file", str(conf)])
        after_options[name], after_keys[name] = options(servers, name), bindings(servers, name)
    assert said["tmux"] == (0, "", ""), "the corpus holds files tmux loads without an error"
    assert said["termhost"] == said["tmux"]
    assert same_effect(servers, before_options, after_options, "options") + same_effect(
        servers, before_keys, after_keys, "key bindings"), "the file changed nothing"


@pytest.mark.parametrize("conf", CORPUS, ids=lambda path: path.stem)
def test_a_real_configuration_read_at_start_leaves_what_tmux_leaves(
    servers: BothServers, conf: Path
) -> None:
    """Pins, for the -f file a server starts with: the server starts and makes the
    session, says nothing, and shows no error in view mode over the first pane (tmux's
    cfg_show_causes); and what the file leaves is what tmux's leaves, compared with a
    server started with no file."""
    before_options, after_options, before_keys, after_keys = {}, {}, {}, {}
    for name in servers.NAMES:
        assert servers.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        before_options[name], before_keys[name] = options(servers, name), bindings(servers, name)
        servers.stop(name)
        started = servers.run(name, "new-session", "-d", "-s", "s", "sleep 1000", config=conf)
        assert (started.returncode, started.stdout, started.stderr) == (0, "", ""), name
        assert servers.run(name, "display-message", "-p", "-t", "s",
                           "#{pane_in_mode}").stdout == "0\n", f"{name} showed errors"
        after_options[name], after_keys[name] = options(servers, name), bindings(servers, name)
    assert same_effect(servers, before_options, after_options, "options") + same_effect(
        servers, before_keys, after_keys, "key bindings"), "the file changed nothing"
