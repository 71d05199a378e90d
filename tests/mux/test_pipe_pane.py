"""pipe-pane, as a logging binding (`bind P pipe-pane -o 'cat >>~/#W.log'`) and scripts use
it: compared with a live tmux 3.3a for what the command receives, what -I types, -o's
toggle, #{pane_pipe}, how a pipe closes and which errors it gives.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from termhost.mux.pane_pipe import BACKLOG_LIMIT
from tests.conftest import BothServers, eventually, wait_until
from tests.ui.outer import client, termhost


@pytest.fixture
def pair(both: BothServers) -> BothServers:
    """A private tmux and a private termhost, each with a session `s` running `cat` (the
    tty echoes a typed line, cat prints it again) and a session `keep` that outlives it."""
    for name in both.NAMES:
        for args in (["-s", "keep"], ["-s", "s", "-x", "40", "-y", "6", "cat"]):
            assert both.run(name, "new-session", "-d", *args).returncode == 0
    return both


def _pipe(pair: BothServers, name: str) -> str:
    return pair.run(name, "display", "-p", "-t", "s", "#{pane_pipe}").stdout


def _file_holds(path: Path, data: bytes) -> bool:
    return path.exists() and data in path.read_bytes()


def test_a_cat_pipe_gets_what_the_pane_prints_from_then_on(pair: BothServers,
                                                           tmp_path: Path) -> None:
    """tmux's pipe starts at the pane's current output, so the command gets the bytes the
    program writes after it opened, exactly as written (the tty's CR LF included)."""
    received = {}
    for name in pair.NAMES:
        pair.run(name, "send-keys", "-t", "s", "before", "Enter")
        wait_until(lambda name=name: "before\nbefore" in pair.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s").stdout, what=f"{name}'s pane to echo")
        log = tmp_path / f"{name}.log"
        assert pair.run(name, "pipe-pane", "-t", "s", f"cat > {log}").returncode == 0
        assert _pipe(pair, name) == "1\n"
        pair.run(name, "send-keys", "-t", "s", "after", "Enter")
        wait_until(lambda log=log: _file_holds(log, b"after\r\nafter\r\n"),  # type: ignore[misc]
                   what=f"{name}'s pipe to get the pane's output")
        received[name] = log.read_bytes()
    assert received["termhost"] == received["tmux"] == b"after\r\nafter\r\n"


def test_the_command_expands_formats_and_times_and_runs_in_sh(pair: BothServers,
                                                              tmp_path: Path) -> None:
    """tmux expands the command for the pane with format_expand_time (#W, #{...} and
    strftime's %) and runs it as `sh -c` whatever default-shell is."""
    for name in pair.NAMES:
        pair.run(name, "set", "-g", "default-shell", "/bin/bash")
        out = tmp_path / f"{name}.txt"
        command = f'echo "$0 #S #{{window_index}} #{{pane_index}} 100%%" > {out}'
        assert pair.run(name, "pipe-pane", "-t", "s", command).returncode == 0
        wait_until(lambda out=out: _file_holds(out, b"\n"),  # type: ignore[misc]
                   what=f"{name}'s command to run")
    assert (tmp_path / "termhost.txt").read_text() == (tmp_path / "tmux.txt").read_text()
    assert (tmp_path / "tmux.txt").read_text() == "sh s 0 0 100%\n"


def test_dash_i_types_what_the_command_prints_and_ends_with_it(pair: BothServers) -> None:
    """-I sends the command's stdout to the pane as if typed; the pipe ends when the
    command's output does, and #{pane_pipe} goes back to 0."""
    for name in pair.NAMES:
        assert pair.run(name, "pipe-pane", "-I", "-t", "s", "echo typed").returncode == 0
        wait_until(lambda name=name: "typed\ntyped" in pair.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s").stdout, what=f"{name}'s pane to get it")
        wait_until(lambda name=name: _pipe(pair, name) == "0\n",  # type: ignore[misc]
                   what=f"{name}'s pipe to end with the command")
    assert (pair.run("termhost", "capture-pane", "-p", "-t", "s").stdout
            == pair.run("tmux", "capture-pane", "-p", "-t", "s").stdout)


def test_dash_io_both_reads_the_pane_and_types_into_it(pair: BothServers,
                                                       tmp_path: Path) -> None:
    """-IO: the same command gets the pane's output on its stdin and types its stdout."""
    for name in pair.NAMES:
        got = tmp_path / f"{name}.txt"
        assert pair.run(name, "pipe-pane", "-IO", "-t", "s",
                        f"head -c 4 > {got}; echo back").returncode == 0
        pair.run(name, "send-keys", "-t", "s", "ping")
        wait_until(lambda name=name: "pingback\npingback" in pair.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s").stdout, what=f"{name}'s pane to get it")
        assert got.read_text() == "ping"


def test_dash_o_toggles_and_no_command_closes(pair: BothServers) -> None:
    """tmux closes an open pipe first, every time; with no command (or an empty one) that
    is all, and -o opens none when one was open: one key toggles the pipe."""
    toggle = ["pipe-pane", "-t", "s", "-o", "cat > /dev/null"]
    steps = [toggle, toggle, toggle, ["pipe-pane", "-t", "s"],
             ["pipe-pane", "-t", "s", "cat > /dev/null"], ["pipe-pane", "-t", "s", ""],
             ["pipe-pane", "-t", "s", "cat > /dev/null"],
             ["pipe-pane", "-t", "s", "cat > /dev/null"], ["pipe-pane", "-o", "-t", "s"]]
    pair.after_each(steps, ["display", "-p", "-t", "s", "#{pane_pipe}"])
    assert _pipe(pair, "termhost") == "0\n"


def test_a_closed_or_replaced_pipe_gives_its_command_eof(pair: BothServers,
                                                          tmp_path: Path) -> None:
    """Closing a pipe (pipe-pane alone, or a new pipe in its place) closes the command's
    stdin: a `cat` there ends."""
    for name in pair.NAMES:
        first, second = tmp_path / f"{name}-1", tmp_path / f"{name}-2"
        pair.run(name, "pipe-pane", "-t", "s", f"cat > /dev/null; echo eof > {first}")
        pair.run(name, "pipe-pane", "-t", "s", f"cat > /dev/null; echo eof > {second}")
        wait_until(first.exists, what=f"{name}'s first pipe to end when replaced")
        assert _pipe(pair, name) == "1\n"
        pair.run(name, "pipe-pane", "-t", "s")
        wait_until(second.exists, what=f"{name}'s second pipe to end when closed")
        assert _pipe(pair, name) == "0\n"


def test_the_command_gets_eof_when_the_pane_is_killed(pair: BothServers,
                                                      tmp_path: Path) -> None:
    """A pane's pipe closes with the pane: its command reads EOF."""
    for name in pair.NAMES:
        ended = tmp_path / name
        pair.run(name, "pipe-pane", "-t", "s", f"cat > /dev/null; echo eof > {ended}")
        assert pair.run(name, "kill-pane", "-t", "s").returncode == 0
        wait_until(ended.exists, what=f"{name}'s pipe to end with its pane")


def test_the_command_gets_all_a_pane_wrote_before_it_ended(pair: BothServers,
                                                           tmp_path: Path) -> None:
    """tmux keeps a pane whose program ended until its pipe has drained: a command slower
    than the program still gets every byte (here 1.2 MB, more than a socket holds)."""
    for name in pair.NAMES:
        log = tmp_path / f"{name}.log"
        pair.run(name, "new-window", "-d", "-t", "keep:", "-n", "burst", "read x; seq 150000")
        pair.run(name, "pipe-pane", "-t", "keep:burst", f"sleep 0.5; cat > {log}; echo >> {log}")
        pair.run(name, "send-keys", "-t", "keep:burst", "Enter")
        wait_until(lambda log=log: _file_holds(log, b"\r\n150000\r\n\n"),  # type: ignore[misc]
                   what=f"{name}'s pipe to get the whole burst")
    assert (tmp_path / "termhost.log").read_bytes() == (tmp_path / "tmux.log").read_bytes()


def test_errors_are_tmuxs(pair: BothServers) -> None:
    """Bad targets, a dead pane, and tmux's usage errors: the same message, status 1."""
    for name in pair.NAMES:
        pair.run(name, "set", "-g", "remain-on-exit", "on")
        pair.run(name, "new-window", "-d", "-t", "keep:", "-n", "dead", "exit 3")
        wait_until(lambda name=name: pair.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "keep:dead", "#{pane_dead}").stdout == "1\n",
            what=f"{name}'s pane to die")
    for args in (["-t", "%99", "cat"], ["-t", "nosuch:0", "cat"], ["-t", "s:7", "cat"],
                 ["-t", "s:0.5", "cat"], ["-t", "keep:dead", "cat"], ["-t", "keep:dead"],
                 ["-x", "cat"], ["-t", "s", "cat", "more"]):
        ours, theirs = (pair.answers(name, ["pipe-pane", *args]) for name in
                        ("termhost", "tmux"))
        assert ours == theirs, args
        assert ours[0] == 1, args


def test_a_command_that_does_not_read_never_holds_the_server(pair: BothServers) -> None:
    """termhost's bound where tmux has none: a pipe whose command never reads is closed
    once it falls BACKLOG_LIMIT behind the pane, and so is a -I pipe whose pane's program
    never reads; the server answers all the while."""
    flood = f"read x; yes | head -c {BACKLOG_LIMIT + (4 << 20)}; cat"  # what floods cheapest
    pair.run("termhost", "new-window", "-d", "-t", "keep:", "-n", "flood", flood)
    assert pair.run("termhost", "pipe-pane", "-t", "keep:flood", "exec sleep 1000").returncode == 0
    pair.run("termhost", "send-keys", "-t", "keep:flood", "Enter")
    wait_until(lambda: pair.run("termhost", "display", "-p", "-t", "keep:flood",
                                "#{pane_pipe}").stdout == "0\n",
               timeout=60, what="the pipe to close once its command fell too far behind")
    pair.run("termhost", "send-keys", "-t", "keep:flood", "still here", "Enter")
    wait_until(lambda: "still here" in pair.run("termhost", "capture-pane", "-p", "-t",
                                                 "keep:flood").stdout,
               what="the pane to go on after its pipe closed")
    pair.run("termhost", "new-window", "-d", "-t", "keep:", "-n", "deaf", "sleep 1000")
    assert pair.run("termhost", "pipe-pane", "-I", "-t", "keep:deaf", "yes").returncode == 0
    wait_until(lambda: pair.run("termhost", "display", "-p", "-t", "keep:deaf",
                                "#{pane_pipe}").stdout == "0\n",
               what="the -I pipe to close once the pane's program fell too far behind")


def test_the_classic_binding_toggles_a_log_from_an_attached_client(
        env: dict[str, str], tmp_path: Path) -> None:
    """tmux's `bind P pipe-pane -o 'cat >>~/#W.log'` (here #S): the key opens a log named
    by a format expanded when the key runs, and the same key closes it."""
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "log", "cat")
        await outer.see(lambda s: "[log] 0:" in s[-1], "the status line")
        termhost(env, "bind", "P", "pipe-pane", "-o", f"cat >>{tmp_path}/#S.log")
        outer.type(b"\x02P")
        await eventually(lambda: termhost(env, "display", "-p", "#{pane_pipe}") == "1\n",
                         what="the key to open the pipe")
        outer.type(b"kept\r")
        log = tmp_path / "log.log"
        await eventually(lambda: _file_holds(log, b"kept\r\nkept\r\n"), what="the log")
        outer.type(b"\x02P")
        await eventually(lambda: termhost(env, "display", "-p", "#{pane_pipe}") == "0\n",
                         what="the key to close the pipe")
        outer.type(b"dropped\r")
        await outer.see(lambda s: s[:4] == ["kept", "kept", "dropped", "dropped"],
                        "the pane to echo past the closed pipe")
        assert log.read_bytes() == b"kept\r\nkept\r\n"
        await outer.detach()

    asyncio.run(scenario())
