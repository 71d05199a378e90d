"""Empty panes (split-window -I, split-window '', display-message -I) held against a live
tmux 3.3a: a pane with no process that shows what a command line's stdin gives it."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import BothServers, wait_until

EMPTY_PANE = ("#{pane_id} dead=#{pane_dead} pid=#{pane_pid} tty=[#{pane_tty}] "
              "start=[#{pane_start_command}] path=[#{pane_current_path}] "
              "status=[#{pane_dead_status}] signal=[#{pane_dead_signal}] "
              "time=[#{pane_dead_time}] command=#{pane_current_command} "
              "cursor=#{cursor_flag} #{cursor_x},#{cursor_y} #{pane_width}x#{pane_height}")
"""What tells an empty pane from one with a process, and where its text left the cursor."""


def _session(both: BothServers) -> None:
    """A session `s` of 80x24 in both servers, its first pane a quiet program (a shell's
    prompt would differ between them)."""
    for name in both.NAMES:
        done = both.run(name, "new-session", "-d", "-s", "s", "-x", "80", "-y", "24",
                        "sleep 1000")
        assert done.returncode == 0, (name, done.stderr)


def _same(both: BothServers, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`args` run in both with `stdin`: the same status, output and error; tmux's answer."""
    theirs = both.run("tmux", *args, stdin=stdin)
    ours = both.run("termhost", *args, stdin=stdin)
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        theirs.returncode, theirs.stdout, theirs.stderr), args
    return theirs


def test_split_window_i_makes_an_empty_pane_showing_stdin(both: BothServers) -> None:
    """tmux 3.3a's split-window -I with no command (SPAWN_EMPTY, window_pane_start_input):
    a pane with no process, #{pane_dead} 1, #{pane_pid} 0, no tty, no start command, its
    current command the shell's; stdin shown with LF as CR LF (MODE_CRLF) and no cursor;
    -P prints it; list-panes marks it (dead), with tmux's whole default line."""
    _session(both)
    made = _same(both, "split-window", "-dI", "-t", "s", "-P", "-F", "#{pane_id} #{pane_dead}",
                 stdin="hello\nworld\n")
    assert made.stdout == "%1 1\n"
    _same(both, "display", "-p", "-t", "%1", EMPTY_PANE)
    assert "\nhello\nworld\n" in "\n" + _same(both, "capture-pane", "-p", "-t", "%1").stdout
    _same(both, "list-panes", "-t", "s")


def test_display_i_appends_to_an_empty_pane_and_refuses_others(both: BothServers) -> None:
    """tmux 3.3a's display-message -I: stdin appended to an empty pane (where the text
    before it left the cursor), status 0; a pane with a process: `pane is not empty`,
    status 1; a target that is not there: nothing, status 0 (display's target may fail)."""
    _session(both)
    _same(both, "split-window", "-dI", "-t", "s", stdin="first\n")
    _same(both, "display-message", "-I", "-t", "%1", stdin="more")
    _same(both, "display-message", "-I", "-t", "%1", stdin=" and more\nlast\n")
    _same(both, "capture-pane", "-p", "-t", "%1")
    _same(both, "display", "-p", "-t", "%1", EMPTY_PANE)
    refused = _same(both, "display-message", "-I", "-t", "%0", stdin="lost\n")
    assert (refused.returncode, refused.stderr) == (1, "pane is not empty\n")
    _same(both, "display-message", "-I", "-t", "s:7", stdin="nowhere\n")


def test_split_window_i_with_no_stdin_leaves_the_empty_pane(both: BothServers) -> None:
    """tmux 3.3a: split-window -I whose stdin ends at once still makes the empty pane,
    which stays (it has no process to end, remain-on-exit or not) until killed."""
    _session(both)
    _same(both, "set", "-g", "remain-on-exit", "off")
    _same(both, "split-window", "-dI", "-t", "s")
    _same(both, "list-panes", "-t", "s", "-F", "#{pane_id} #{pane_dead}")
    _same(both, "display", "-p", "-t", "%1", EMPTY_PANE)
    _same(both, "capture-pane", "-p", "-t", "%1")


def test_split_window_with_an_empty_command_makes_an_empty_pane(both: BothServers) -> None:
    """tmux 3.3a's split-window '' (one empty argument) is an empty pane too, with the
    command as given; -I with a command is ignored: that pane runs it, stdin unread."""
    _session(both)
    _same(both, "split-window", "-d", "-t", "s", "-P", "-F",
          "#{pane_dead} #{pane_pid} [#{pane_start_command}]", "")
    _same(both, "split-window", "-dI", "-t", "s", "-P", "-F", "#{pane_dead}",
          "sleep 1000", stdin="not shown\n")
    _same(both, "capture-pane", "-p", "-t", "%2")


def test_an_empty_pane_shows_stdin_as_it_comes(both: BothServers) -> None:
    """tmux 3.3a: `make | tmux splitw -dI` updates the pane as the data arrives, and the
    command ends (status 0) only when its stdin does."""
    _session(both)
    for name in both.NAMES:
        writer = subprocess.Popen([*both.programs[name], "split-window", "-dI", "-t", "s"],
                                  env=both.env, stdin=subprocess.PIPE, text=True)
        assert writer.stdin is not None
        writer.stdin.write("first\n")
        writer.stdin.flush()
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "%1").stdout.startswith("first\n"),
            what=f"{name}'s empty pane to show the first line")
        assert writer.poll() is None, f"{name}'s split-window ended before its stdin"
        writer.stdin.write("second\n")
        writer.stdin.close()
        assert writer.wait(timeout=10) == 0
        assert both.run(name, "capture-pane", "-p", "-t", "%1").stdout.startswith(
            "first\nsecond\n"), name


def test_respawn_pane_starts_a_process_in_an_empty_pane(both: BothServers) -> None:
    """tmux 3.3a's respawn-pane of an empty pane (no -k needed: it has no process): the
    command runs there, on a cleared screen with its cursor, the pane alive."""
    _session(both)
    _same(both, "split-window", "-dI", "-t", "s", stdin="gone soon\n")
    _same(both, "respawn-pane", "-t", "%1", "printf 'started\\n'; exec sleep 2000")
    for name in both.NAMES:
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "%1").stdout.startswith("started\n"),
            what=f"{name}'s respawned pane to start")
    _same(both, "display", "-p", "-t", "%1",
          "#{pane_dead} #{pane_current_command} [#{pane_start_command}] #{cursor_flag}")
    for name in both.NAMES:
        pid = both.run(name, "display", "-p", "-t", "%1", "#{pane_pid}").stdout
        assert int(pid) > 0, name


def test_kill_pane_takes_an_empty_pane_away(both: BothServers) -> None:
    """tmux 3.3a: kill-pane of an empty pane removes it (nothing to signal), its space
    going back to its neighbour; a pane split from an empty one is a pane as any."""
    _session(both)
    _same(both, "split-window", "-dI", "-t", "s", stdin="x\n")
    _same(both, "split-window", "-d", "-t", "%1", "sleep 1000")
    _same(both, "kill-pane", "-t", "%1")
    _same(both, "list-panes", "-t", "s", "-F", "#{pane_id} #{pane_height} #{pane_dead}")


def test_split_window_i_with_no_client_to_read_makes_the_pane_alone(both: BothServers,
                                                                      tmp_path: Path) -> None:
    """With no command-line client to read (the -f file, as a key binding), tmux 3.3a's
    window_pane_start_input reads nothing: the empty pane is made and the command goes
    on. (tmux 3.3a's own server dies on -I in its -f file, so only termhost runs it.)"""
    config = tmp_path / "empty.conf"
    config.write_text('new-session -d -s s -x 80 -y 24 "sleep 1000"\nsplit-window -dI -t s\n')
    started = both.run("termhost", "start-server", config=config, stdin="not read\n")
    assert started.returncode == 0, started.stderr
    panes = both.run("termhost", "list-panes", "-t", "s", "-F", "#{pane_id} #{pane_dead}")
    assert panes.stdout == "%0 0\n%1 1\n"
    assert both.run("termhost", "capture-pane", "-p", "-t", "%1").stdout.strip() == ""
