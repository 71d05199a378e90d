"""`termhost exec` through bin/termhost, the sh front that runs it without Python when the
session's snapshot is ready and hands everything else to termhost-py untouched.

Two fronts are used. To see which way a command went, a copy of bin/termhost sits beside a
stand-in termhost-py that only prints its arguments: what the front runs itself shows the
command's output, what it hands on shows `python` and the arguments. To see that both
ways give the same answers, bin/termhost runs beside the real termhost-py (found on PATH).
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import DEADLINE, pid_exists, wait_until

FRONT = Path(__file__).resolve().parents[2] / "bin" / "termhost"
SCRIPTS = Path(sysconfig.get_path("scripts"))

BASHRC = """\
case $- in *i*) ;; *) return;; esac
export FROM_RC='from rc'
alias ll='echo listing'
shout() { echo "SHOUT: $*"; }
"""

STAND_IN = """\
#!/bin/sh
printf '%s\\n' python "$@"
exit 3
"""


class Termhost:
    """A private server directory, HOME (with a bash rc file) and state directory, and
    three ways in: the Python command line, the routing front and the real front."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.home = tmp / "home"
        self.home.mkdir()
        (self.home / ".bashrc").write_text(BASHRC)
        self.env = {**os.environ, "TERMHOST_TMPDIR": str(tmp), "HOME": str(self.home),
                    "SHELL": "/bin/bash", "XDG_STATE_HOME": str(tmp / "state"),
                    "PATH": f"{SCRIPTS}{os.pathsep}{os.environ.get('PATH', '')}"}
        self.env.pop("TERMHOST", None)
        bin_dir = tmp / "bin"
        bin_dir.mkdir()
        self.routing_front = bin_dir / "termhost"
        shutil.copy(FRONT, self.routing_front)
        (bin_dir / "termhost-py").write_text(STAND_IN)
        (bin_dir / "termhost-py").chmod(0o755)

    def run(self, argv: list[str], stdin: str = "", **env: str
            ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(argv, env={**self.env, **env}, input=stdin, capture_output=True,
                              text=True, timeout=DEADLINE * 3, check=False, cwd=self.tmp)

    def python(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = self.run([sys.executable, "-m", "termhost", *args])
        if check:
            assert done.returncode == 0, (args, done.stderr)
        return done

    def routed(self, *args: str, **env: str) -> tuple[str, str]:
        """Which way the front sent `termhost ARGS`: ("front", output) when it ran the
        command itself, ("python", arguments) when it handed them on."""
        done = self.run([str(self.routing_front), *args], **env)
        if done.stdout.startswith("python\n"):
            assert done.returncode == 3
            return "python", done.stdout.removeprefix("python\n")
        assert done.returncode == 0, (args, done.stderr)
        return "front", done.stdout

    def front(self, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
        return self.run([str(FRONT), *args], stdin, **env)

    def new_session(self, name: str, home: Path | None = None) -> None:
        """A session whose shell (captured with the session's environment) has HOME
        `home`, when given: set in the session environment with -e, as in tmux, where a
        client's own HOME does not reach the panes."""
        home_arg = ["-e", f"HOME={home}"] if home else []
        done = self.run([sys.executable, "-m", "termhost", "new-session", "-d", "-s", name,
                         *home_arg, "sleep 1000"])
        assert done.returncode == 0, done.stderr

    def ready(self, name: str) -> None:
        self.python("snapshot", "-t", name, "--wait")

    def index(self) -> Path:
        return next((self.tmp / "state" / "termhost" / "snapshots").iterdir())


@pytest.fixture
def termhost(tmp_path: Path) -> Iterator[Termhost]:
    cli = Termhost(tmp_path)
    cli.new_session("work")
    cli.ready("work")
    yield cli
    cli.python("kill-server", check=False)


def test_a_ready_snapshot_runs_without_python_for_every_way_of_naming_it(
    termhost: Termhost,
) -> None:
    socket = termhost.tmp / f"termhost-{os.geteuid()}" / "default"
    uses = 'll; shout hi; echo "$FROM_RC"; pwd'
    expected = f"listing\nSHOUT: hi\nfrom rc\n{termhost.tmp}\n"
    for args in (
        ["exec", "-t", "work", "--", uses],
        ["exec", "-twork", "--", uses],
        ["exec", "-t", "=work", "--", uses],
        ["exec", "-t", "$0", "--", uses],
        ["exec", "-t", "work:0.0", "--", uses],
        ["exec", "--", uses],  # the most recent session
        ["-L", "default", "exec", "-t", "work", "--", uses],
        ["-S", str(socket), "-f", "/dev/null", "exec", "-t", "work", "--", uses],
    ):
        assert termhost.routed(*args) == ("front", expected), args
    assert termhost.routed("exec", "-t", "work", "--cwd", "/", "--", "pwd") == ("front", "/\n")
    assert termhost.routed("exec", "-t", "work", "--cwd=/", "pwd") == ("front", "/\n")
    assert termhost.routed("exec", "-t", "work", "echo", "a b", "it's") == (
        "front", "a b it's\n")


def test_what_the_front_cannot_settle_goes_to_python_untouched(termhost: Termhost) -> None:
    hanging = termhost.tmp / "hanging"
    hanging.mkdir()
    (hanging / ".bashrc").write_text("sleep 100\n")
    termhost.new_session("slow", home=hanging)
    for args in (
        ["ls"],
        ["-V"],
        [],
        ["exec", "-h"],
        ["exec", "-t", "work"],  # no command: a usage error is Python's to give
        ["exec", "-t", "wo", "--", "true"],  # a prefix of a name
        ["exec", "-t", "nosuch", "--", "true"],
        ["exec", "-t", "work", "echo", "-n", "hi"],  # an option where argparse wants one
        ["exec", "-t", "work", "--cwd", str(termhost.tmp / "nowhere"), "--", "true"],
        ["exec", "--", "true"],  # the most recent session's snapshot is still being taken
        ["exec", "-t", "slow", "--", "true"],
        ["-S", "relative/socket", "exec", "--", "true"],
        ["-L", "other", "exec", "-t", "work", "--", "true"],
        ["exec", "-t", "wo", "--", "it's \"quoted\"", "", "two\nlines"],
    ):
        way, said = termhost.routed(*args)
        assert (way, said) == ("python", "".join(f"{arg}\n" for arg in args)), args
    # A pending snapshot of another session does not stop this one's.
    assert termhost.routed("exec", "-t", "work", "--", "echo ok") == ("front", "ok\n")


def test_rename_kill_and_a_dead_server_never_leave_a_stale_answer(termhost: Termhost) -> None:
    termhost.python("rename-session", "-t", "work", "play")
    assert termhost.routed("exec", "-t", "play", "--", "echo ok") == ("front", "ok\n")
    assert termhost.routed("exec", "-t", "work", "--", "echo ok")[0] == "python"

    termhost.new_session("spare")
    termhost.ready("spare")
    termhost.python("kill-session", "-t", "play")
    wait_until(lambda: termhost.routed("exec", "-t", "play", "--", "true")[0] == "python",
               what="the killed session's snapshot to be withdrawn")
    assert termhost.routed("exec", "-t", "$0", "--", "true")[0] == "python"
    assert termhost.routed("exec", "-t", "spare", "--", "echo ok") == ("front", "ok\n")

    # A server killed outright leaves its files; the front sees the server is gone...
    server = int(termhost.python("display", "-p", "#{pid}").stdout)
    os.kill(server, signal.SIGKILL)
    wait_until(lambda: not pid_exists(server), what="the server to die")
    assert termhost.routed("exec", "-t", "spare", "--", "echo ok")[0] == "python"
    # ...and the next server on that socket starts from an empty directory.
    stale = termhost.index()
    termhost.python("kill-server", check=False)
    (termhost.tmp / f"termhost-{os.geteuid()}" / "default").unlink(missing_ok=True)
    termhost.new_session("fresh")
    termhost.ready("fresh")
    assert sorted(path.name for path in stale.iterdir()) == ["0", "=fresh"]


def test_in_a_pane_its_session_is_the_default_both_ways(termhost: Termhost) -> None:
    other = termhost.tmp / "other"
    other.mkdir()
    (other / ".bashrc").write_text(BASHRC.replace("from rc", "from other"))
    termhost.new_session("other", home=other)
    termhost.ready("other")
    server = termhost.python("display", "-p", "#{pid}").stdout.strip()
    socket = termhost.tmp / f"termhost-{os.geteuid()}" / "default"
    in_work = {"TERMHOST": f"{socket},{server},0"}  # as work's panes have it
    show = 'echo "$FROM_RC"'
    assert termhost.routed("exec", "--", show) == ("front", "from other\n")  # the newest
    assert termhost.routed("exec", "--", show, **in_work) == ("front", "from rc\n")
    assert termhost.routed("exec", "-t", "other", "--", show, **in_work) == (
        "front", "from other\n")
    python = termhost.run([sys.executable, "-m", "termhost", "exec", "--", show], **in_work)
    assert python.stdout == "from rc\n"
    # A $TERMHOST of a server that is gone is no answer: Python asks the live one.
    assert termhost.routed("exec", "--", show, TERMHOST=f"{socket},1,0")[0] == "python"


def test_both_ways_give_the_same_answers(termhost: Termhost) -> None:
    """The real front and termhost-py: environment, input, status and errors."""
    for way in (termhost.front, lambda *args, **kw: termhost.run(
            [sys.executable, "-m", "termhost", *args], **kw)):
        env = way("exec", "-t", "work", "--", "env | sort", CALLER_ONLY="1", TERM="vt100")
        assert "CALLER_ONLY" not in env.stdout and "TERM=vt100\n" in env.stdout
        assert "FROM_RC=from rc\n" in env.stdout
        assert way("exec", "-t", "work", "--", "cat", stdin="typed\n").stdout == "typed\n"
        assert way("exec", "-t", "work", "--", "exit 7").returncode == 7
        missing = way("exec", "-t", "nosuch", "--", "true")
        assert (missing.returncode, missing.stderr) == (
            1, "termhost exec: can't find session: nosuch\n")
    fast = termhost.front("exec", "-t", "work", "--", "env | sort")
    slow = termhost.python("exec", "-t", "work", "--", "env | sort")
    assert fast.stdout == slow.stdout


WORDS = st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"),
                         max_size=12), min_size=2, max_size=4)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=WORDS)
def test_several_words_are_joined_as_shlex_join_joins_them(
    termhost: Termhost, words: list[str]
) -> None:
    argv = [str(termhost.routing_front), "exec", "-t", "work", "--", "printf", "%s\\0", *words]
    done = subprocess.run(argv, env=termhost.env, capture_output=True, timeout=DEADLINE,
                          check=False)
    assert done.returncode == 0, (shlex.join(words), done.stdout, done.stderr)  # not handed on
    assert done.stdout.decode().split("\0")[:-1] == words


def test_the_installed_termhost_is_the_front_and_reaches_termhost_py() -> None:
    installed = SCRIPTS / "termhost"
    assert installed.read_bytes() == FRONT.read_bytes(), (
        f"{installed} is not bin/termhost: install again (pip install -e .)")
    assert os.access(SCRIPTS / "termhost-py", os.X_OK)
    done = subprocess.run([str(installed), "-V"], capture_output=True, text=True,
                          timeout=DEADLINE, check=False)
    assert done.stdout.startswith("termhost ") and done.returncode == 0, done.stderr
