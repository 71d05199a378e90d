"""Resurrection with real servers and real kills: sessions built, the server killed with
SIGKILL, the sessions brought back, and compared with what they were."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from termhost.resurrect import records
from tests.conftest import DEADLINE, pid_exists, wait_until

SHAPE = ("#{session_name}:#{window_index}.#{pane_index} #{window_name} #{window_layout} "
         "#{window_zoomed_flag} #{window_active} #{pane_active} #{pane_current_path}")
"""What must be equal before a crash and after the resurrection."""


class Termhost:
    """A private server, state directory and HOME, driven through the CLI."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.state = tmp / "state"
        self.env = {**os.environ, "TERMHOST_TMPDIR": str(tmp), "XDG_STATE_HOME": str(self.state),
                    "HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp / ".config"),
                    "SHELL": "/bin/sh", "PS1": "$ ", "ENV": ""}
        self.env.pop("TERMHOST", None)
        self.socket = tmp / f"termhost-{os.geteuid()}" / "default"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, "-m", "termhost", *args], env=self.env,
                              capture_output=True, text=True, timeout=DEADLINE * 3,
                              check=False, cwd=self.tmp)
        if check:
            assert done.returncode == 0, (args, done.stderr)
        return done

    @property
    def records(self) -> Path:
        return records.directory(self.env, self.socket)

    def record(self, name: str) -> dict[str, object]:
        data: dict[str, object] = json.loads((self.records / f"{name}.json").read_text())
        return data

    def shape(self) -> list[str]:
        """SHAPE of every pane, the layout's geometry without its checksum and pane
        ids (the panes are new: tmux numbers its panes as it makes them)."""
        lines = self.run("list-panes", "-a", "-F", SHAPE).stdout.splitlines()
        return sorted(re.sub(r"(\d+x\d+,\d+,\d+),\d+", r"\1",
                             re.sub(r" [0-9a-f]{4},", " ", line)) for line in lines)

    def saved(self, what: str) -> None:
        """Wait until the records say what the server shows: each session's windows
        (index, name, zoom, active pane) and its current window."""
        def described(windows: list[tuple[int, str, bool, int]], current: int) -> str:
            return repr((sorted(windows), current))

        def caught_up() -> bool:
            found, warnings = records.load_all(self.records)
            assert not warnings, warnings
            kept = {r.name: described([(w.index, w.name, w.zoomed, w.active)
                                       for w in r.windows], r.current) for r in found}
            live = {}
            for name in self.run("list-sessions", "-F", "#{session_name}").stdout.split():
                lines = self.run("list-windows", "-t", f"={name}", "-F",
                                 "#{window_index} #{window_zoomed_flag} #{window_active} "
                                 "#{P:#{?pane_active,#{pane_index},}}#{window_name}").stdout
                windows, current = [], -1
                for line in lines.splitlines():
                    index, zoomed, active, rest = line.split(" ", 3)
                    pane = rest[:len(rest) - len(rest.lstrip("0123456789"))]
                    windows.append((int(index), rest[len(pane):], zoomed == "1", int(pane)))
                    current = int(index) if active == "1" else current
                live[name] = described(windows, current)
            return kept == live
        wait_until(caught_up, what=what)

    def crash(self) -> None:
        server = int(self.run("display-message", "-p", "#{pid}").stdout)
        os.kill(server, signal.SIGKILL)
        wait_until(lambda: not pid_exists(server), what="the server to die")


@pytest.fixture
def termhost(tmp_path: Path) -> Iterator[Termhost]:
    cli = Termhost(tmp_path)
    yield cli
    cli.run("kill-server", check=False)


def _build(termhost: Termhost) -> None:
    """2 sessions, 3 windows, 5 panes: splits, a zoomed pane, renamed windows, panes in
    their own directories, and a program (cat -n) in one of them."""
    for name in ("a", "b", "c"):
        (termhost.tmp / name).mkdir()
    run = termhost.run
    run("-f", "/dev/null", "new-session", "-d", "-s", "work", "-x", "100", "-y", "30",
        "-c", str(termhost.tmp / "a"))
    run("split-window", "-t", "work:0", "-h", "-c", str(termhost.tmp / "b"))
    run("split-window", "-t", "work:0.1", "-v", "-c", str(termhost.tmp / "c"))
    run("rename-window", "-t", "work:0", "editor")
    run("resize-pane", "-Z", "-t", "work:0.1")
    run("new-window", "-t", "work:4", "-n", "logs", "-c", str(termhost.tmp / "c"))
    run("select-window", "-t", "work:0")
    run("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", "-c", str(termhost.tmp / "b"))
    run("split-window", "-t", "play", "-c", str(termhost.tmp / "a"))
    run("send-keys", "-t", "play:0.0", "cat -n", "Enter")
    wait_until(lambda: run("display-message", "-p", "-t", "play:0.0",
                           "#{pane_current_command}").stdout.strip() == "cat",
               what="cat to run in play:0.0")
    wait_until(lambda: (termhost.records / "play.json").exists()
               and termhost.record("play")["windows"][0]["panes"][0]["command"] == ["cat", "-n"],
               what="play's record to name cat -n")  # at its next look, within 5 s


def test_a_killed_server_s_sessions_come_back_as_they_were(termhost: Termhost) -> None:
    _build(termhost)
    before = termhost.shape()
    termhost.saved("the records")
    termhost.crash()
    listed = termhost.run("list-sessions").stdout.splitlines()
    assert [line.split(":")[0] for line in listed] == ["play", "work"]
    assert all(line.endswith(" (exited)") for line in listed), listed
    assert termhost.run("ls", "-F", "#{session_name} #{session_exited}").stdout == (
        "play 1\nwork 1\n")

    done = termhost.run("resurrect", "-a")
    assert done.stderr == ""
    assert termhost.shape() == before
    # cat waits behind its banner; Enter runs it, in the pane's directory.
    said = "Press Enter to run: cat -n"
    wait_until(lambda: said in termhost.run("capture-pane", "-p", "-t", "play:0.0").stdout,
               what="the banner")
    termhost.run("send-keys", "-t", "play:0.0", "Enter")
    termhost.run("send-keys", "-t", "play:0.0", "hello", "Enter")
    wait_until(lambda: re.search(r"\b1\s+hello", termhost.run(
        "capture-pane", "-p", "-t", "play:0.0").stdout), what="cat -n's line")


def test_a_crash_during_the_banner_brings_the_same_program_back(termhost: Termhost) -> None:
    _build(termhost)
    termhost.saved("the records")
    termhost.crash()
    termhost.run("resurrect", "-t", "play")
    assert termhost.run("ls", "-F", "#{session_name} #{session_exited}").stdout == (
        "play 0\nwork 1\n")
    wait_until(lambda: "Press Enter" in termhost.run("capture-pane", "-p", "-t",
                                                     "play:0.0").stdout, what="the banner")
    # The record names cat again, not the banner's wrapper.
    wait_until(lambda: termhost.record("play")["saved"] != 0, what="a record")
    termhost.run("select-pane", "-t", "play:0.1")  # a change: the record is written again
    wait_until(lambda: termhost.record("play")["windows"][0]["active"] == 1,
               what="the new record")
    assert termhost.record("play")["windows"][0]["panes"][0]["command"] == ["cat", "-n"]
    termhost.crash()
    termhost.run("resurrect", "-r", "-t", "play")  # -r: at once, no banner
    termhost.run("send-keys", "-t", "play:0.0", "again", "Enter")
    wait_until(lambda: re.search(r"\b1\s+again", termhost.run(
        "capture-pane", "-p", "-t", "play:0.0").stdout), what="cat -n at once")


def test_what_ends_on_purpose_leaves_no_record_and_a_killed_server_leaves_all(
        termhost: Termhost) -> None:
    """kill-session and kill-server end sessions on purpose (tmux's regress scripts count
    `ls` lines after kill-server); SIGTERM, as a shutting-down machine sends it, leaves
    every record."""
    _build(termhost)
    termhost.saved("the records")
    termhost.run("kill-session", "-t", "play")
    wait_until(lambda: not (termhost.records / "play.json").exists(), what="play's record to go")
    server = int(termhost.run("display-message", "-p", "#{pid}").stdout)
    os.kill(server, signal.SIGTERM)
    wait_until(lambda: not pid_exists(server), what="the server to end on SIGTERM")
    assert termhost.run("ls").stdout.startswith("work: 2 windows")
    # kill-session on an exited session forgets it, with no server running.
    termhost.run("kill-session", "-t", "work")
    done = termhost.run("ls", check=False)
    assert (done.returncode, done.stderr) == (
        1, f"termhost: no server running on {termhost.socket}\n")


def test_attach_to_an_exited_session_brings_it_back(termhost: Termhost) -> None:
    """In control mode, which attaches without a terminal."""
    _build(termhost)
    before = termhost.shape()
    termhost.saved("the records")
    termhost.crash()
    done = subprocess.run([sys.executable, "-m", "termhost", "-C", "attach", "-t", "work"],
                          env=termhost.env, input="list-windows -F '#{window_name}'\n",
                          capture_output=True, text=True, timeout=DEADLINE * 3, check=False)
    assert done.returncode == 0, done.stderr
    assert "editor\nlogs\n" in done.stdout
    assert [line for line in termhost.shape() if line.startswith("work:")] == [
        line for line in before if line.startswith("work:")]


def test_records_are_private_and_never_hold_what_panes_show(termhost: Termhost) -> None:
    _build(termhost)
    termhost.run("send-keys", "-t", "work:4", "echo SECRET-$((6*7))", "Enter")
    wait_until(lambda: "SECRET-42" in termhost.run("capture-pane", "-p", "-t",
                                                    "work:4").stdout, what="the secret")
    termhost.saved("the records")
    assert stat.S_IMODE(termhost.records.stat().st_mode) == 0o700
    assert stat.S_IMODE(termhost.records.parent.stat().st_mode) == 0o700
    for path in termhost.records.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert "SECRET-42" not in path.read_text()


def test_resurrect_off_keeps_no_record(termhost: Termhost) -> None:
    _build(termhost)
    termhost.saved("the records")
    termhost.run("set-option", "-g", "resurrect", "off")
    wait_until(lambda: not list(termhost.records.iterdir()), what="every record to go")


def test_bad_records_warn_and_the_rest_come_back(termhost: Termhost) -> None:
    _build(termhost)
    termhost.saved("the records")
    termhost.crash()
    (termhost.records / "newer.json").write_text('{"version": 99}\n')
    (termhost.records / "torn.json").write_text('{"version": 1, "name": "to')
    record = termhost.record("work")
    record["windows"][1]["panes"][0]["cwd"] = str(termhost.tmp / "gone")  # type: ignore[index]
    (termhost.records / "work.json").write_text(json.dumps(record))
    listed = termhost.run("ls")
    assert listed.stdout.count("(exited)") == 2
    warnings = listed.stderr.splitlines()
    assert len(warnings) == 2 and all(line.startswith("session record ") for line in warnings)
    assert "newer termhost" in warnings[0] and "not valid JSON" in warnings[1]
    done = termhost.run("resurrect", "-a")
    assert f"{termhost.tmp / 'gone'}: no such directory; a pane starts in {termhost.tmp}" in (
        done.stderr)
    assert termhost.run("display-message", "-p", "-t", "work:4",
                        "#{pane_current_path}").stdout.strip() == str(termhost.tmp)
    assert termhost.run("resurrect", "-t", "nosuch", check=False).stderr == (
        "no exited session: nosuch\n")


def test_every_record_a_kill_leaves_parses(termhost: Termhost) -> None:
    """SIGKILL at random moments while panes split and close: each time, every record
    on disk parses and names a session of the shape it had at some moment."""
    rng = random.Random(19)
    termhost.run("-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", "120", "-y", "40")
    for _ in range(12):
        for _ in range(rng.randrange(1, 6)):
            termhost.run("split-window", "-t", "s", "-d", check=False)
            if rng.random() < 0.3:
                termhost.run("kill-pane", "-t", "s:0.1", check=False)
        termhost.crash()
        found, warnings = records.load_all(termhost.records)
        assert not warnings, warnings
        assert [record.name for record in found] in ([], ["s"])
        for record in found:
            for window in record.windows:
                assert window.layout.count(",") >= 3 and window.panes
        if found:
            termhost.run("resurrect", "-a")
        else:
            termhost.run("new-session", "-d", "-s", "s", "-x", "120", "-y", "40")


def test_records_past_their_age_are_dropped_as_a_server_starts(termhost: Termhost) -> None:
    """resurrect-max-age (30 days): this socket's records and every other socket's (one
    in a temporary directory that is gone would never be started again)."""
    def stored(where: Path, name: str, days_ago: float) -> None:
        record = records.SessionRecord(name, [records.WindowRecord(
            0, "w", "b25f,80x24,0,0,0", [records.PaneRecord(str(termhost.tmp))])])
        records.save(where, record)
        path = where / f"{name}.json"
        data = json.loads(path.read_text())
        data["saved"] -= days_ago * 86400
        path.write_text(json.dumps(data))

    elsewhere = records.directory(termhost.env, termhost.tmp / "gone" / "default")
    stored(termhost.records, "old", 31)
    stored(termhost.records, "recent", 29)
    stored(elsewhere, "old-elsewhere", 40)
    termhost.run("-f", "/dev/null", "new-session", "-d", "-s", "live")
    wait_until(lambda: (termhost.records / "live.json").exists(), what="live's record")
    assert sorted(path.name for path in termhost.records.glob("*.json")) == [
        "live.json", "recent.json"]
    assert not elsewhere.exists()
    assert termhost.run("ls", "-F", "#{session_name} #{session_exited}").stdout == (
        "live 0\nrecent 1\n")


RC_FILES = {
    "bash": (".bashrc", """\
case $- in *i*) ;; *) return;; esac
echo ran >> "$HOME/rc.log"
export FROM_RC='from the rc file'
shout() { echo "SHOUT: $*"; }
PS1='$ '
"""),
    "zsh": (".zshrc", """\
echo ran >> "$HOME/rc.log"
export FROM_RC='from the rc file'
shout() { echo "SHOUT: $*"; }
PS1='$ '
"""),
    "fish": (".config/fish/config.fish", """\
echo ran >> "$HOME/rc.log"
set -gx FROM_RC 'from the rc file'
function shout; echo "SHOUT: $argv"; end
function fish_prompt; echo '$ '; end
"""),
}


@pytest.mark.parametrize("shell", sorted(RC_FILES))
def test_a_resurrected_shell_starts_in_the_session_s_environment(termhost: Termhost,
                                                                 shell: str) -> None:
    """The session's snapshot is kept beside its record: the shells come back with what
    the rc file exported and defined, and the rc file does not run again (not in the
    panes, not in a capture)."""
    rc, text = RC_FILES[shell]
    (termhost.tmp / rc).parent.mkdir(parents=True, exist_ok=True)
    (termhost.tmp / rc).write_text(text)
    program = shutil.which(shell)
    assert program is not None, f"{shell} is needed (CI installs it)"
    termhost.env["SHELL"] = program
    termhost.run("-f", "/dev/null", "new-session", "-d", "-s", "env", "-x", "80", "-y", "24")
    termhost.run("split-window", "-t", "env")
    termhost.run("snapshot", "-t", "env", "--wait")
    wait_until(lambda: list(termhost.records.glob("env.snapshot")), what="the kept snapshot")
    termhost.saved("the record")
    termhost.crash()
    runs = (termhost.tmp / "rc.log").read_text().count("ran")
    termhost.run("resurrect", "-t", "env")
    for pane in ("env:0.0", "env:0.1"):
        termhost.run("send-keys", "-t", pane, 'echo "[$FROM_RC]"; shout back', "Enter")
        wait_until(lambda pane=pane: "SHOUT: back" in termhost.run(  # type: ignore[misc]
            "capture-pane", "-p", "-t", pane).stdout, what=f"shout in {pane}")
        assert "[from the rc file]" in termhost.run("capture-pane", "-p", "-t", pane).stdout
    assert (termhost.tmp / "rc.log").read_text().count("ran") == runs
    assert termhost.run("show-snapshot", "-t", "env").stdout.count("FROM_RC") == 1
    # Its record says shell, not the command that started it from the snapshot.
    termhost.run("select-pane", "-t", "env:0.0")
    wait_until(lambda: termhost.record("env")["windows"][0]["active"] == 0, what="the record")
    assert [pane["command"] for pane in termhost.record("env")["windows"][0]["panes"]] == [
        None, None]


def test_scrollback_comes_back_when_asked_for_and_copy_mode_finds_it(
        termhost: Termhost) -> None:
    _build(termhost)
    termhost.run("set-option", "-g", "resurrect-scrollback", "1000")
    termhost.run("send-keys", "-t", "work:4", "seq -f 'line %04g' 1 1500", "Enter")
    kept = termhost.records / "work.scrollback"
    wait_until(lambda: kept.exists() and "line 1500" in kept.read_text(),
               timeout=DEADLINE * 2, what="the scrollback kept")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    termhost.crash()
    termhost.run("resurrect", "-t", "work")
    def shown() -> str:
        return termhost.run("capture-pane", "-p", "-S", "-3000", "-t", "work:4").stdout
    wait_until(lambda: "line 1500" in shown(), what="the scrollback shown again")
    assert "line 0700" in shown() and "line 0400" not in shown()
    termhost.run("copy-mode", "-t", "work:4")
    termhost.run("send-keys", "-t", "work:4", "-X", "search-backward", "line 0700")
    assert int(termhost.run("display-message", "-p", "-t", "work:4",
                            "#{scroll_position}").stdout) > 700


def test_without_resurrect_scrollback_nothing_the_panes_show_is_kept(
        termhost: Termhost) -> None:
    _build(termhost)
    termhost.run("send-keys", "-t", "work:4", "echo KEPT-$((6*7))", "Enter")
    wait_until(lambda: "KEPT-42" in termhost.run("capture-pane", "-p", "-t",
                                                  "work:4").stdout, what="the output")
    termhost.saved("the records")
    termhost.run("select-window", "-t", "work:4")
    wait_until(lambda: termhost.record("work")["current"] == 4, what="a newer record")
    for path in termhost.state.rglob("*"):
        if path.is_file():
            assert b"KEPT-42" not in path.read_bytes(), path


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a record to another user")
def test_a_record_of_another_user_is_refused(termhost: Termhost) -> None:
    _build(termhost)
    termhost.saved("the records")
    termhost.crash()
    os.chown(termhost.records / "play.json", 65534, 65534)  # nobody's
    listed = termhost.run("ls")
    assert listed.stdout.splitlines() == [
        line for line in listed.stdout.splitlines() if line.startswith("work:")]
    assert "play.json ignored: owned by another user" in listed.stderr
    assert termhost.run("resurrect", "-t", "play", check=False).stderr == (
        "no exited session: play\n")


def test_resurrect_a_with_nothing_exited_does_nothing_quietly(termhost: Termhost) -> None:
    """What a login's `termhost resurrect -a` (the shipped systemd unit, an rc line)
    relies on: with no server and nothing exited it succeeds, says nothing, and leaves
    no server behind."""
    done = termhost.run("resurrect", "-a")
    assert (done.stdout, done.stderr) == ("", "")
    assert termhost.run("has-session", check=False).stderr.startswith(
        "termhost: no server running")
    unit = Path(records.__file__).with_name("termhost-resurrect.service").read_text()
    assert "ExecStart=" in unit and unit.split("ExecStart=", 1)[1].split("\n")[0].endswith(
        "termhost resurrect -a")


def test_an_exited_name_wins_over_a_live_session_it_is_a_prefix_of(termhost: Termhost) -> None:
    """`work` exited and `work2` live: -t work means the exited one (resurrected by
    attach, forgotten by kill-session), never work2 by prefix, as tmux would take it."""
    _build(termhost)
    termhost.saved("the records")
    termhost.crash()
    termhost.run("new-session", "-d", "-s", "work2")
    done = subprocess.run([sys.executable, "-m", "termhost", "-C", "attach", "-t", "work"],
                          env=termhost.env, input="display-message -p '#{session_name}'\n",
                          capture_output=True, text=True, timeout=DEADLINE * 3, check=False)
    assert "\nwork\n" in done.stdout, done.stdout
    termhost.run("kill-session", "-t", "work")  # live now: killed, its record gone
    termhost.run("new-session", "-d", "-s", "play2")
    termhost.run("kill-session", "-t", "play")  # exited: forgotten, play2 untouched
    assert termhost.run("ls", "-F", "#{session_name} #{session_exited}").stdout == (
        "play2 0\nwork2 0\n")


def test_kill_server_ends_every_session_on_purpose(termhost: Termhost) -> None:
    """As tmux: after kill-server, `ls` has nothing of the old server's to list."""
    _build(termhost)
    termhost.saved("the records")
    termhost.run("kill-server")
    wait_until(lambda: not list(termhost.records.glob("*.json")), what="the records to go")
    done = termhost.run("ls", check=False)
    assert (done.returncode, done.stdout) == (1, "")
