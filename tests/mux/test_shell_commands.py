"""if-shell, run-shell and send-prefix, as configuration files and plugins use them
(vim-tmux-navigator's `if-shell "$is_vim"`, tpm's `run`, `bind C-a send-prefix`), each
compared with a live tmux 3.3a where tmux answers the client.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import BothServers, wait_until

COMPARED = [
    ["if-shell", "true", "display -p yes", "display -p no"],
    ["if-shell", "false", "display -p yes", "display -p no"],
    ["if-shell", "false", "display -p yes"],
    ["if-shell", "-F", "#{==:#{session_name},s}", "display -p F-yes", "display -p F-no"],
    ["if-shell", "-F", "", "display -p F-yes", "display -p F-no"],
    ["if-shell", "test #{session_name} = s", "display -p formatted"],
    ["if-shell", "true", "display -p a; display -p b"],
    ["if-shell", "true", "nosuchcommand"],
    ["if-shell", "true"],
    ["run-shell", "-C", "display -p via-C"],
    ["run-shell", "exit 3"],
    ["run-shell", "true"],
]
"""Commands whose stdout, stderr and exit status tmux and termhost must share."""


@pytest.fixture
def pair(both: BothServers) -> BothServers:
    """A private tmux and a private termhost, each with a session `s` running `cat -v`."""
    for name in both.NAMES:
        started = both.run(name, "new-session", "-d", "-s", "s", "-x", "40", "-y", "5", "cat -v")
        assert started.returncode == 0
    return both


def test_if_shell_and_run_shell_answer_as_tmux_does(pair: BothServers) -> None:
    for args in COMPARED:
        ours, theirs = pair.run("termhost", *args), pair.run("tmux", *args)
        assert (ours.returncode, ours.stdout) == (theirs.returncode, theirs.stdout), args
        if args[:2] != ["run-shell", "exit 3"]:  # tmux shows that one in the pane instead
            assert ours.stderr == theirs.stderr, args


def test_run_shell_prints_the_output_and_says_how_it_failed(
    pair: BothServers, tmp_path: Path
) -> None:
    # tmux puts run-shell's output in a view over the pane when a session exists; termhost
    # prints it to the client, as tmux does when none does (a script reads it there).
    done = pair.run("termhost", "run-shell", "-c", str(tmp_path),
                    "pwd; echo #{session_name}; exit 3")
    assert (done.returncode, done.stdout) == (3, f"{tmp_path}\ns\n")
    assert done.stderr == "'pwd; echo s; exit 3' returned 3\n"
    marker = tmp_path / "ran"
    assert pair.run("termhost", "run-shell", "-b", f"sleep 0.2; touch {marker}").returncode == 0
    assert not marker.exists()  # -b: the client did not wait
    wait_until(marker.exists, what="the background command to run")


def test_send_prefix_types_the_prefix_into_the_pane(pair: BothServers) -> None:
    for name in pair.NAMES:
        assert pair.run(name, "send-prefix", "-t", "s").returncode == 0
        assert pair.run(name, "send-keys", "-t", "s", "Enter").returncode == 0
        wait_until(lambda name=name: "^B" in pair.run(name, "capture-pane", "-p", "-t", "s").stdout,
                   what=f"{name}'s pane to show C-b")
    assert (pair.run("termhost", "capture-pane", "-p", "-t", "s").stdout
            == pair.run("tmux", "capture-pane", "-p", "-t", "s").stdout)


def test_a_configuration_decides_with_if_shell(pair: BothServers, tmp_path: Path) -> None:
    conf = tmp_path / "decide.conf"
    conf.write_text('if-shell "test 1 = 1" "set -g @chosen first" "set -g @chosen second"\n'
                    "if-shell -F '#{==:a,b}' 'set -g @formatted yes' 'set -g @formatted no'\n"
                    "if-shell -b true 'set -g @background yes'\n")
    for name in pair.NAMES:
        assert pair.run(name, "source-file", str(conf)).returncode == 0
        wait_until(lambda name=name: pair.run(name, "show", "-gqv", "@background").stdout
                   == "yes\n", what="the background if-shell")
        assert pair.run(name, "show", "-gv", "@chosen").stdout == "first\n"
        assert pair.run(name, "show", "-gv", "@formatted").stdout == "no\n"
