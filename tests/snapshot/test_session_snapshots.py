"""Snapshots as a user meets them: a session's shell captured in the background when the
session starts, `termhost snapshot` to print it, `termhost exec` to run in it."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from termhost.snapshot.queue import default_limit
from tests.conftest import wait_until
from tests.snapshot.rc_log import LOGGING_LINES, RcLog

BASHRC = """\
case $- in *i*) ;; *) return;; esac
echo "welcome to the test machine"
export GREETING='hello
"world" $x'
export ESCAPED=$'\\e[1m'
alias ll='echo listing'
shout() { echo "SHOUT: $*"; }
set -o noclobber
sleep 100 &
echo $! > "$HOME/sleeper.pid"
"""


class Cli:
    """termhost with a private server directory, HOME and state directory."""

    def __init__(self, tmp: Path, shell: str) -> None:
        self.home = tmp / "home"
        self.home.mkdir()
        self.env = {**os.environ, "TERMHOST_TMPDIR": str(tmp), "HOME": str(self.home),
                    "SHELL": shell, "XDG_STATE_HOME": str(tmp / "state"), "SECRET": "s3cr3t-42"}
        self.env.pop("TERMHOST", None)
        self.log = tmp / f"termhost-{os.geteuid()}" / "default.log"

    def __call__(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, "-m", "termhost", *args], env=self.env,
                              capture_output=True, text=True, timeout=60, check=False)
        if check:
            assert done.returncode == 0, (args, done.stderr)
        return done


@pytest.fixture
def bash(tmp_path: Path) -> Iterator[Cli]:
    cli = Cli(tmp_path, "/bin/bash")
    (cli.home / ".bashrc").write_text(BASHRC)
    yield cli
    cli("kill-server", check=False)
    sleeper = cli.home / "sleeper.pid"
    if sleeper.exists():
        try:
            os.kill(int(sleeper.read_text()), 9)
        except ProcessLookupError:
            pass


def test_the_sessions_shell_is_captured_and_exec_runs_in_it(bash: Cli, tmp_path: Path) -> None:
    bash("new-session", "-d", "-s", "work", "-c", str(tmp_path), "sleep 1000")
    script = bash("snapshot", "-t", "work", "--wait").stdout
    assert "welcome" not in script  # the rc file's banner is not data
    assert "alias ll=" in script and "shout" in script and "GREETING" in script
    assert bash("display", "-p", "-t", "work", "#{snapshot_status}").stdout == "ready\n"
    assert bash("ls", "-F", "#{session_name} #{snapshot_status}").stdout == "work ready\n"
    ran = bash("exec", "-t", "work", "--", 'll; shout hi; printf "%s|" "$GREETING"; pwd')
    assert ran.stdout == f'listing\nSHOUT: hi\nhello\n"world" $x|{tmp_path}\n'
    noclobber = bash("exec", "-t", "work", "--", "set -o | grep noclobber")
    assert noclobber.stdout.split() == ["noclobber", "on"]
    escaped = bash("exec", "-t", "work", "--", 'printf %s "$ESCAPED" | od -An -c')
    assert escaped.stdout.split() == ["033", "[", "1", "m"]
    assert bash("exec", "-t", "work", "--", "exit 7", check=False).returncode == 7
    assert bash("exec", "-t", "work", "--cwd", "/", "--", "pwd").stdout == "/\n"
    document = json.loads(bash("snapshot", "-t", "work", "--format", "json").stdout)
    assert {"shell", "cwd", "env", "aliases", "functions", "options", "captured_at",
            "duration_ms"} <= set(document)
    assert document["aliases"]["ll"] == "echo listing" and document["cwd"] == str(tmp_path)
    # The sleeper the rc file started lives on; the files are private.
    assert os.path.exists(f"/proc/{(bash.home / 'sleeper.pid').read_text().strip()}")
    stored = [path for path in (tmp_path / "state" / "termhost").rglob("*")
              if not path.is_symlink()]
    files = [path for path in stored if path.is_file()]
    assert files and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    assert all(stat.S_IMODE(d.stat().st_mode) == 0o700 for d in stored if d.is_dir())
    assert "s3cr3t-42" not in bash.log.read_text()
    bash("kill-session", "-t", "work")
    wait_until(lambda: not any(f.exists() for f in files), what="the snapshot to go")


def test_refresh_takes_a_new_one(bash: Cli) -> None:
    bash("new-session", "-d", "-s", "r", "sleep 1000")
    assert "NEWVAR" not in bash("snapshot", "-t", "r", "--wait").stdout
    with (bash.home / ".bashrc").open("a") as rc:
        rc.write("export NEWVAR=fresh\n")
    assert "NEWVAR" in bash("snapshot", "-t", "r", "--refresh").stdout
    assert bash("exec", "-t", "r", "--", 'echo "$NEWVAR"').stdout == "fresh\n"


def test_with_snapshots_off_one_is_taken_only_when_asked_for(bash: Cli, tmp_path: Path) -> None:
    with (bash.home / ".bashrc").open("a") as rc:
        rc.write('echo read >> "$HOME/reads"\n')
    conf = tmp_path / "off.conf"
    conf.write_text("set -g snapshots off\n")
    bash("-f", str(conf), "new-session", "-d", "-s", "lazy", "sleep 1000")
    assert bash("display", "-p", "-t", "lazy", "#{snapshot_status}").stdout == "none\n"
    assert bash("ls").stdout.endswith(")\n") and "(snapshot" not in bash("ls").stdout
    assert bash("exec", "-t", "lazy", "--", "ll").stdout == "listing\n"  # taken now
    assert bash("display", "-p", "-t", "lazy", "#{snapshot_status}").stdout == "ready\n"
    assert bash("exec", "-t", "lazy", "--", "ll").stdout == "listing\n"  # and kept
    assert (bash.home / "reads").read_text() == "read\n"


def test_a_hanging_rc_file_times_out_and_leaves_nothing(bash: Cli, tmp_path: Path) -> None:
    (bash.home / ".bashrc").write_text('echo $$ >> "$HOME/hung.pids"; sleep 100\n')
    conf = tmp_path / "fast.conf"
    conf.write_text("set -g snapshot-timeout 1\n")
    bash("-f", str(conf), "new-session", "-d", "-s", "h", "sleep 1000")
    assert bash("display", "-p", "-t", "h", "#{snapshot_status}").stdout == "pending\n"
    failed = bash("snapshot", "-t", "h", "--wait", check=False)
    assert failed.returncode == 1
    assert failed.stderr.startswith("termhost snapshot: the snapshot of session h failed: ")
    assert "timed out after 1s" in failed.stderr
    pids = (bash.home / "hung.pids").read_text().split()
    assert len(pids) == 3  # tried three times
    wait_until(lambda: not any(os.path.exists(f"/proc/{pid}") for pid in pids),
               what="every capture's shell killed")
    assert "s3cr3t-42" not in bash.log.read_text()


def test_a_hanging_rc_files_lock_is_removed_by_its_trap_when_the_capture_gives_up(
    bash: Cli, tmp_path: Path
) -> None:
    # As pyenv's rehash takes its lock: noclobber, removed in a trap. Killed outright, the
    # capture would leave it, and every later shell of the user would wait for it.
    lock = bash.home / "rehash.lock"
    (bash.home / ".bashrc").write_text(
        f'echo $$ >> "$HOME/hung.pids"\nset -o noclobber; : > {lock} || exit 1\n'
        f"trap 'rm -f {lock}' EXIT TERM HUP\nsleep 100\n")
    conf = tmp_path / "fast.conf"
    conf.write_text("set -g snapshot-timeout 1\n")
    bash("-f", str(conf), "new-session", "-d", "-s", "h", "sleep 1000")
    assert bash("snapshot", "-t", "h", "--wait", check=False).returncode == 1
    pids = (bash.home / "hung.pids").read_text().split()
    assert len(pids) == 3  # each attempt found the lock gone: the one before removed it
    assert not lock.exists()
    assert not any(os.path.exists(f"/proc/{pid}") for pid in pids)


GATED_RC = f"""\
[ -n "$TERMHOST_SNAPSHOT" ] || return
{LOGGING_LINES[0]}
while [ ! -e "$HOME/go" ]; do sleep 0.05; done
sleep 0.5
{LOGGING_LINES[1]}
"""
"""A capture's rc file that waits for the test to let it go on, then takes 0.5 s."""


def test_a_burst_of_sessions_runs_few_captures_at_once_shares_them_and_never_waits(
    tmp_path: Path,
) -> None:
    cli = Cli(tmp_path, "/bin/bash")
    (cli.home / ".bashrc").write_text(GATED_RC)
    conf = tmp_path / "patient.conf"
    conf.write_text("set -g snapshot-timeout 120\n")
    cwds = [tmp_path / f"project{n}" for n in range(12)]
    for cwd in cwds:
        cwd.mkdir()
    log, limit = RcLog(cli.home), default_limit()
    try:
        cli("-f", str(conf), "new-session", "-d", "-s", "first", "-c", str(cwds[0]),
            "sleep 1000")
        # 24 at once, two in each directory; no capture can finish before "go".
        burst = [subprocess.Popen(
            [sys.executable, "-m", "termhost", "new-session", "-d", "-s", f"s{n}", "-c",
             str(cwds[n % 12]), "sleep 1000"], env=cli.env, stderr=subprocess.PIPE, text=True)
            for n in range(24)]
        for started in burst:
            assert started.wait(timeout=60) == 0, started.communicate()[1]
        statuses = cli("ls", "-F", "#{snapshot_status}").stdout.split()
        assert statuses == ["pending"] * 25  # new-session waited for none of them
        assert len(log.started_in()) <= limit
        (cli.home / "go").touch()
        taken = {}
        for name in ["first", *(f"s{n}" for n in range(24))]:
            shot = cli("snapshot", "-t", name, "--wait", "--format", "json").stdout
            taken[name] = json.loads(shot)["captured_at"]
        assert sorted(log.started_in()) == sorted(map(str, cwds))  # one capture a directory
        assert log.most_at_once() <= limit
        assert all(taken[f"s{n}"] == taken[f"s{n + 12}"] for n in range(12))
        assert taken["first"] == taken["s0"]
    finally:
        (cli.home / "go").touch()
        cli("kill-server", check=False)


def test_another_shell_is_not_supported_and_says_so(tmp_path: Path) -> None:
    cli = Cli(tmp_path, sys.executable)
    try:
        # sleep as an argv: a command string would run through the shell's -c, as tmux's
        cli("new-session", "-d", "-s", "p", "sleep", "1000")
        wait_until(lambda: cli("display", "-p", "-t", "p", "#{snapshot_status}").stdout
                   == "unsupported\n", what="the unsupported status")
        done = cli("exec", "-t", "p", "--", "true", check=False)
        assert (done.returncode, done.stderr) == (
            1, f"termhost exec: snapshots are not supported for {sys.executable}\n")
    finally:
        cli("kill-server", check=False)


def test_a_one_shot_snapshot_needs_no_server(bash: Cli, tmp_path: Path) -> None:
    shot = bash("snapshot", "--shell", "/bin/bash", "--cwd", str(tmp_path), "--format", "json")
    document = json.loads(shot.stdout)
    assert document["cwd"] == str(tmp_path) and "shout" in document["functions"]
    assert not (tmp_path / f"termhost-{os.geteuid()}" / "default").exists()
    bad = bash("snapshot", "--shell", "/bin/bash", "-t", "x", check=False)
    assert bad.returncode == 2
