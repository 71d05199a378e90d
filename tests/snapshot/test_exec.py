"""`termhost exec` both ways: the installed command's thin path (termhost.front, which asks
the server with show-snapshot -e and becomes the snapshot's shell) and the full command
line (termhost.cli and cmd/exec.py, which the thin path leaves usage errors and a missing
server to). Both ask the server, the one authority on targets, so both give the same
answers, even when a session is renamed or killed between two calls."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import termhost as package
from tests.conftest import DEADLINE, pid_exists, wait_until

ROOT = Path(package.__file__).resolve().parents[1]
SCRIPTS = Path(sysconfig.get_path("scripts"))

BASHRC = """\
case $- in *i*) ;; *) return;; esac
export FROM_RC='from rc'
alias ll='echo listing'
shout() { echo "SHOUT: $*"; }
"""

FULL = ("import sys; from termhost.cli import main; "
        "status = main(sys.argv[1:]); sys.stdout.flush(); sys.exit(status)")
"""The full command line, whatever the thin path would have done."""


class Termhost:
    """A private server directory, HOME (with a bash rc file) and state directory, and
    the two ways in."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.home = tmp / "home"
        self.home.mkdir()
        (self.home / ".bashrc").write_text(BASHRC)
        self.env = {**os.environ, "TERMHOST_TMPDIR": str(tmp), "HOME": str(self.home),
                    "SHELL": "/bin/bash", "XDG_STATE_HOME": str(tmp / "state"),
                    "PATH": f"{SCRIPTS}{os.pathsep}{os.environ.get('PATH', '')}"}
        self.env.pop("TERMHOST", None)
        self.socket = tmp / f"termhost-{os.geteuid()}" / "default"

    def run(self, argv: list[str], stdin: str = "", **env: str
            ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(argv, env={**self.env, **env}, input=stdin, capture_output=True,
                              text=True, timeout=DEADLINE * 3, check=False, cwd=self.tmp)

    def thin(self, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
        """The installed `termhost`."""
        return self.run([str(SCRIPTS / "termhost"), *args], stdin, **env)

    def full(self, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
        return self.run([sys.executable, "-c", FULL, *args], stdin, **env)

    def both(self, *args: str, stdin: str = "", **env: str) -> tuple[int, str, str]:
        """What both ways answer, held equal."""
        thin, full = (way(*args, stdin=stdin, **env) for way in (self.thin, self.full))
        seen = [(done.returncode, done.stdout, done.stderr) for done in (thin, full)]
        assert seen[0] == seen[1], args
        return seen[0]

    def python(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = self.full(*args)
        if check:
            assert done.returncode == 0, (args, done.stderr)
        return done

    def new_session(self, name: str, home: Path | None = None) -> None:
        """A session whose shell has HOME `home`, when given (set in the session's
        environment with -e, as in tmux, where a client's own HOME does not reach the
        panes)."""
        home_arg = ["-e", f"HOME={home}"] if home else []
        self.python("new-session", "-d", "-s", name, *home_arg, "sleep 1000")

    def ready(self, name: str) -> None:
        self.python("snapshot", "-t", name, "--wait")


@pytest.fixture
def termhost(tmp_path: Path) -> Iterator[Termhost]:
    cli = Termhost(tmp_path)
    cli.new_session("work")
    cli.ready("work")
    yield cli
    cli.python("kill-server", check=False)


def test_every_way_of_naming_a_session_runs_in_its_snapshot(termhost: Termhost) -> None:
    uses = 'll; shout hi; echo "$FROM_RC"; pwd'
    expected = (0, f"listing\nSHOUT: hi\nfrom rc\n{termhost.tmp}\n", "")
    for args in (
        ["exec", "-t", "work", "--", uses],
        ["exec", "-twork", "--", uses],
        ["exec", "-t", "=work", "--", uses],
        ["exec", "-t", "wo", "--", uses],  # a prefix, as tmux's session targets take
        ["exec", "-t", "$0", "--", uses],
        ["exec", "-t", "work:0.0", "--", uses],
        ["exec", "--", uses],  # the most recent session
        ["exec", uses],
        ["-L", "default", "exec", "-t", "work", "--", uses],
        ["-S", str(termhost.socket), "-f", "/dev/null", "exec", "-t", "work", "--", uses],
    ):
        assert termhost.both(*args) == expected, args
    assert termhost.both("exec", "-t", "work", "--cwd", "/", "--", "pwd") == (0, "/\n", "")
    assert termhost.both("exec", "-t", "work", "--cwd=/", "pwd") == (0, "/\n", "")
    assert termhost.both("exec", "-t", "work", "echo", "a b", "it's") == (0, "a b it's\n", "")
    # The command's own options follow it, as ssh's do.
    assert termhost.both("exec", "-t", "work", "echo", "-n", "hi") == (0, "hi", "")


def test_errors_are_one_line_and_the_same_both_ways(termhost: Termhost) -> None:
    nowhere = termhost.tmp / "nowhere"
    assert termhost.both("exec", "-t", "nosuch", "--", "true") == (
        1, "", "termhost exec: can't find session: nosuch\n")
    assert termhost.both("exec", "-t", "work", "--cwd", str(nowhere), "--", "true") == (
        1, "", f"termhost exec: {nowhere}: No such file or directory\n")
    status, _, said = termhost.both("exec", "-t", "work")
    assert (status, said) == (2, "termhost exec: no command to run (try 'termhost exec --help')\n")
    status, _, said = termhost.both("exec", "--bogus", "true")
    assert status == 2 and said.startswith("termhost exec: ") and "--bogus" in said
    assert termhost.both("-L", "other", "exec", "-t", "work", "--", "true") == (
        1, "", f"termhost: no server running on {termhost.socket.parent / 'other'}\n")


def test_rename_kill_and_a_dead_server_never_leave_a_stale_answer(termhost: Termhost) -> None:
    termhost.python("rename-session", "-t", "work", "play")
    assert termhost.both("exec", "-t", "play", "--", "echo ok") == (0, "ok\n", "")
    assert termhost.both("exec", "-t", "work", "--", "echo ok") == (
        1, "", "termhost exec: can't find session: work\n")

    termhost.new_session("spare")
    termhost.ready("spare")
    termhost.python("kill-session", "-t", "play")
    assert termhost.both("exec", "-t", "play", "--", "true")[0] == 1
    assert termhost.both("exec", "-t", "$0", "--", "true") == (
        1, "", "termhost exec: can't find session: $0\n")
    assert termhost.both("exec", "-t", "spare", "--", "echo ok") == (0, "ok\n", "")

    # A server killed outright: no answer from a file it left.
    server = int(termhost.python("display", "-p", "#{pid}").stdout)
    os.kill(server, signal.SIGKILL)
    wait_until(lambda: not pid_exists(server), what="the server to die")
    status, _, said = termhost.both("exec", "-t", "spare", "--", "echo ok")
    assert status == 1 and "spare" not in said, said


def test_in_a_pane_its_session_is_the_default(termhost: Termhost) -> None:
    other = termhost.tmp / "other"
    other.mkdir()
    (other / ".bashrc").write_text(BASHRC.replace("from rc", "from other"))
    termhost.new_session("other", home=other)
    termhost.ready("other")
    server = termhost.python("display", "-p", "#{pid}").stdout.strip()
    in_work = {"TERMHOST": f"{termhost.socket},{server},0"}  # as work's panes have it
    show = 'echo "$FROM_RC"'
    assert termhost.both("exec", "--", show) == (0, "from other\n", "")  # the newest
    assert termhost.both("exec", "--", show, **in_work) == (0, "from rc\n", "")
    assert termhost.both("exec", "-t", "other", "--", show, **in_work) == (
        0, "from other\n", "")


def test_environment_input_and_status_are_the_commands(termhost: Termhost) -> None:
    env = termhost.both("exec", "-t", "work", "--", "env | sort", CALLER_ONLY="1",
                        TERM="vt100")[1]
    assert "CALLER_ONLY" not in env and "TERM=vt100\n" in env
    assert "FROM_RC=from rc\n" in env
    assert termhost.both("exec", "-t", "work", "--", "cat", stdin="typed\n") == (
        0, "typed\n", "")
    assert termhost.both("exec", "-t", "work", "--", "exit 7") == (7, "", "")


def test_the_thin_path_runs_exec_without_the_full_command_line(termhost: Termhost) -> None:
    """Started as the installed command starts it: the import log shows neither
    termhost.cli nor anything heavy, and the command ran."""
    done = termhost.run([sys.executable, "-S", "-X", "importtime", str(SCRIPTS / "termhost-py"),
                         "exec", "-t", "work", "--", "echo ran"])
    assert (done.returncode, done.stdout) == (0, "ran\n"), done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "termhost.front" in imported
    assert not imported & {"termhost.cli", "termhost.mux", "argparse", "json", "shlex", "re"}


WORDS = st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"),
                         max_size=12), min_size=2, max_size=4)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=WORDS)
def test_several_words_are_joined_as_shlex_join_joins_them(
    termhost: Termhost, words: list[str]
) -> None:
    argv = [str(SCRIPTS / "termhost"), "exec", "-t", "work", "--", "printf", "%s\\0", *words]
    done = subprocess.run(argv, env=termhost.env, capture_output=True, timeout=DEADLINE,
                          check=False)
    assert done.returncode == 0, (shlex.join(words), done.stdout, done.stderr)
    assert done.stdout.decode().split("\0")[:-1] == words


def test_the_installed_termhost_is_bin_termhost_and_reaches_termhost_py() -> None:
    installed = SCRIPTS / "termhost"
    assert installed.read_bytes() == (ROOT / "bin" / "termhost").read_bytes(), (
        f"{installed} is not bin/termhost: install again (pip install -e .)")
    assert os.access(SCRIPTS / "termhost-py", os.X_OK)
    done = subprocess.run([str(installed), "-V"], capture_output=True, text=True,
                          timeout=DEADLINE, check=False)
    assert done.stdout.startswith("termhost ") and done.returncode == 0, done.stderr
