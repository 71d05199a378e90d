"""Control mode (`termhost -C`, `-CC`) against a live tmux 3.3a doing the same steps: a
control client on real pipes (and one in a real PTY for -CC) whose blocks and
notifications are compared line for line, the command numbers and times (tmux numbers
every command its server runs, since it started) aside."""

from __future__ import annotations

import contextlib
import os
import re
import select
import subprocess
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from termhost.control import ControlError, Notification, Session
from termhost.mux.control import escape_output
from tests.conftest import DEADLINE, BothServers, read_to_eof, wait_until

_GUARD = re.compile(r"^(%begin|%end|%error) \d+ \d+ ([01])$")


def _start(both: BothServers) -> None:
    """The same session in both: `a`, 80x24, its windows' names left as they are made."""
    for name in both.NAMES:
        done = both.run(name, "new-session", "-d", "-s", "a", "-x", "80", "-y", "24", ";",
                        "set-option", "-g", "automatic-rename", "off")
        assert done.returncode == 0, done.stderr


def _client(both: BothServers, name: str, *args: str) -> Session:
    return Session(*(args or ("attach", "-t", "a")), program=both.programs[name],
                   env=both.env)


def _line(notice: Notification) -> str:
    return " ".join([f"%{notice.name}", *notice.args])


def _told(session: Session) -> list[str]:
    """What the server told between the last command's block and the block of a command
    sent once that one was answered: what the last command caused, as both servers
    write it before they read the next line. Panes' output aside (it comes when the
    shells write)."""
    session.cmd("display-message", "-p", "sync")
    return [_line(notice) for notice in session.notifications()
            if notice.name not in ("output", "extended-output")]


@pytest.fixture
def clients(both: BothServers) -> Iterator[dict[str, Session]]:
    """A control client of session `a` in each server."""
    _start(both)
    opened = {name: _client(both, name) for name in both.NAMES}
    try:
        yield opened
    finally:
        for session in opened.values():
            session.close()


STEPS = [
    "split-window", "split-window -h", "kill-pane", "select-layout tiled",
    "select-layout even-vertical", "select-layout -E", "next-layout", "previous-layout",
    "new-window", "split-window", "swap-pane -D", "select-pane -t :.0",
    "select-window -t :0", "rename-window -t @1 renamed", "resize-pane -Z",
    "resize-pane -Z", "resize-pane -D 2", "copy-mode", "send-keys -X cancel",
    "new-window -d", "kill-window -t :2", "new-session -d -s b",
    "rename-session -t b c", "kill-session -t c", "link-window -s :0 -t :7",
    "unlink-window -t :7", "break-pane", "move-window -t :5", "swap-window -t :0",
    "swap-window -d -t :5",
]


def test_each_step_tells_what_tmux_tells(clients: dict[str, Session]) -> None:
    told: dict[str, list[tuple[str, list[str]]]] = {name: [] for name in clients}
    for name, session in clients.items():
        assert _told(session) == ["%session-changed $0 a"]
        for step in STEPS:
            session.send(step)
            told[name].append((step, _told(session)))
    for (step, ours), (_, theirs) in zip(told["termhost"], told["tmux"], strict=True):
        assert ours == theirs, step


def _raw(both: BothServers, name: str, script: str, *args: str,
         end_input: bool = False) -> tuple[int, list[str]]:
    """`NAME -C attach -t a`, given `script` at once (as the regress scripts give it)
    once its first block is read, and its input kept open until it exits: tmux given
    lines before it has run its command (or their end with them) may run them first or
    drop some of what it writes. Unless `end_input`: then the script and its end are
    given at once. Its exit status and what it wrote, panes' output aside, its guards
    without their times."""
    process = subprocess.Popen([*both.programs[name], "-C", *(args or ("attach", "-t", "a"))],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=both.env)
    assert process.stdin is not None and process.stdout is not None
    written = b""
    try:
        if end_input:
            process.stdin.write(script.encode())
            process.stdin.close()
        else:
            written = _until_first_block(process.stdout.fileno())
            with contextlib.suppress(BrokenPipeError):  # it may have ended: no reader
                process.stdin.write(script.encode())
                process.stdin.flush()
        written += read_to_eof(process.stdout.fileno(), DEADLINE * 3)
        status = process.wait(DEADLINE)
    finally:
        process.kill()
        process.stdout.close()
        with contextlib.suppress(BrokenPipeError):
            process.stdin.close()
    lines = [_GUARD.sub(r"\1 \2", line) for line in written.decode().splitlines()
             if not line.startswith("%output")]
    return status, lines


def _until_first_block(fd: int) -> bytes:
    """What a control client writes up to the end of its first block (or its end)."""
    data = b""
    deadline = time.monotonic() + DEADLINE
    while not re.search(rb"^%(end|error) .*\n", data, re.MULTILINE):
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"no first block; read {data!r}")
        if select.select([fd], [], [], left)[0]:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            data += chunk
    return data


def test_a_script_of_lines_at_once_is_answered_as_tmux_answers_it(
        both: BothServers) -> None:
    """Every line read at once: each command in its block (flags 1, the attach's 0, a
    line tmux cannot parse a block saying so), the notifications after them all, with
    the names and panes they have by then, and %exit at the empty line; nothing after
    it runs."""
    _start(both)
    script = ("list-windows\nnew-window\nsplit-window\nrename-window foo\n"
              "select-pane -t :.0\nbogus\ndisplay-message -z\nnew-session -d -s b\n"
              "rename-session -t b c\ndisplay-message -p 'hi there'\n"
              "display-message -p a ; display-message -p b\n\ndisplay-message -p after\n")
    seen = {name: _raw(both, name, script) for name in both.NAMES}
    assert seen["termhost"] == seen["tmux"]
    status, lines = seen["termhost"]
    assert status == 0
    assert lines[:3] == ["%begin 0", "%end 0", "%session-changed $0 a"]
    assert "parse error: unknown command: bogus" in lines
    assert lines[-1] == "%exit"


def test_the_end_of_its_input_detaches_it(both: BothServers) -> None:
    """The lines before the end run, a last line without its newline does not. (tmux
    3.3a, given its input's end with the lines, may not even say its command's block.)"""
    _start(both)
    attached = ["%begin 0", "%end 0", "%session-changed $0 a"]
    assert _raw(both, "termhost", "display-message -p x\n", end_input=True) == (
        0, [*attached, "%begin 1", "x", "%end 1", "%exit"])
    assert _raw(both, "termhost", "display-message -p x", end_input=True) == (
        0, [*attached, "%exit"])


def test_the_numbers_and_times_of_blocks_are_tmuxs(both: BothServers) -> None:
    """A block's %begin and %end (%error) share the time (seconds since the epoch) and
    the number, which grows from command to command, as tmux's cmdq_guard writes them."""
    _start(both)
    before = int(time.time())
    done = subprocess.run([*both.programs["termhost"], "-C", "attach", "-t", "a"],
                          input="display-message -p x\nbogus\nlist-sessions\n", text=True,
                          capture_output=True, env=both.env, timeout=DEADLINE, check=False)
    guards = [line.split() for line in done.stdout.splitlines()
              if line.startswith(("%begin", "%end", "%error"))]
    assert [guard[0] for guard in guards] == ["%begin", "%end"] * 2 + [
        "%begin", "%error", "%begin", "%end"]
    numbers = [int(guard[2]) for guard in guards[::2]]
    assert numbers == sorted(set(numbers))
    for begin, end in zip(guards[::2], guards[1::2], strict=True):
        assert begin[1:] == end[1:]
        assert before <= int(begin[1]) <= int(time.time())


@pytest.mark.parametrize("case", [
    ("attach with no session", "", ("attach",)),
    ("attach to none such", "list-windows\n", ("attach", "-t", "nosuch")),
    ("a command that does not attach", "list-windows\n", ("has-session", "-t", "a")),
    ("the default command", "list-sessions -F '#{session_name}'\n\n", ("new", "-s", "n")),
])
def test_starting_and_leaving_as_tmux(both: BothServers,
                                      case: tuple[str, str, tuple[str, ...]]) -> None:
    """The command it starts with answers in a block (flags 0), an error ends it with
    status 1; a command that does not attach leaves its input unread; the end of its
    input detaches it; %exit last."""
    _, script, args = case
    if args != ("attach",):
        _start(both)
    seen = {name: _raw(both, name, script, *args) for name in both.NAMES}
    assert seen["termhost"] == seen["tmux"]
    assert seen["termhost"][1][-1] == "%exit"


def test_output_is_escaped_as_tmux_escapes_it(both: BothServers) -> None:
    """%output: bytes below a space and backslash as \\ooo, the rest (UTF-8) as it is."""
    _start(both)
    marker = b"\xc3\xa9 end\r\n"
    written = {}
    for name in both.NAMES:
        with _client(both, name) as session:
            session.cmd("send-keys", r"printf 'a\\b\001\033[1m\303\251 %s\n' end", "Enter")
            data = b""
            while marker not in data:  # the printf's, not its echo's
                data += session.wait_for("output").data
            written[name] = data[:data.index(marker) + len(marker)]
    assert written["termhost"] == written["tmux"]
    assert b"a\\b\x01\x1b[1m\xc3\xa9 end\r\n" in written["termhost"]
    assert escape_output(b"a\\b\x01\x1b\x7f\xc3\xa9\r\n") == (
        b"a\\134b\\001\\033\x7f\xc3\xa9\\015\\012")


def _listing(session: Session, *argv: str) -> list[str]:
    return [re.sub(r"client-\d+", "client-PID", line) for line in session.cmd(*argv)]


def test_refresh_client_sizes_flags_and_panes_as_tmux(clients: dict[str, Session]) -> None:
    """-C sizes the client (and so its session) or one window (@ID:WxH, @ID: to stop);
    -f sets its flags (pause-after=N, no-output, wait-exit as a control client's, and
    read-only, which it cannot then drop); -A pauses and continues a pane, telling so
    inside its block; a size out of bounds or not one is refused in tmux's words."""
    steps = [
        ["list-clients"],
        ["refresh-client", "-C", "100x30"], ["list-clients"],
        ["list-windows", "-F", "#{window_width}x#{window_height}"],
        ["refresh-client", "-C", "90,20"], ["display-message", "-p", "#{client_width}"],
        ["refresh-client", "-C", "@0:50x10"],
        ["list-windows", "-F", "#{window_width}x#{window_height}"],
        ["refresh-client", "-C", "@0:"],
        ["list-windows", "-F", "#{window_width}x#{window_height}"],
        ["refresh-client", "-C", "bad"], ["refresh-client", "-C", "0x5"],
        ["refresh-client", "-C", "10001x5"],
        ["refresh-client", "-f", "no-output,wait-exit,pause-after=3,read-only"],
        ["list-clients"],
        ["refresh-client", "-f", "!pause-after,!read-only,!wait-exit"], ["list-clients"],
        ["refresh-client", "-f", "pause-after"], ["list-clients"],
        ["refresh-client", "-A", "%0:pause"], ["refresh-client", "-A", "%0:pause"],
        ["refresh-client", "-A", "%0:continue"], ["refresh-client", "-A", "%0:continue"],
        ["refresh-client", "-A", "%9:pause"], ["refresh-client", "-A", "bad"],
        ["display-message", "-p", "#{client_name}|#{client_tty}|#{client_flags}|"
         "#{client_control_mode}|#{client_width}x#{client_height}|#{client_readonly}"],
    ]
    seen: dict[str, list[list[str]]] = {name: [] for name in clients}
    for name, session in clients.items():
        for step in steps:
            try:
                seen[name].append(_listing(session, *step))
            except ControlError as error:
                seen[name].append(["error", *error.lines])
    for step, ours, theirs in zip(steps, seen["termhost"], seen["tmux"], strict=True):
        assert ours == theirs, step
    assert seen["termhost"][1] == []
    assert seen["termhost"][2] == [
        "client-PID: a [100x xterm] (attached,focused,control-mode,UTF-8)"]


def test_a_paused_pane_says_so_in_the_block(clients: dict[str, Session]) -> None:
    """%pause and %continue are written as refresh-client runs, inside its block; a
    paused pane's output is dropped until it continues."""
    for session in clients.values():
        assert session.cmd("refresh-client", "-A", "%0:pause") == ["%pause %0"]
        assert session.cmd("refresh-client", "-A", "%0:continue") == ["%continue %0"]


@pytest.mark.parametrize("name", BothServers.NAMES)
def test_a_pane_is_paused_for_a_client_that_does_not_keep_up(both: BothServers,
                                                             name: str) -> None:
    """pause-after (0 seconds here): while the client reads nothing, a pane's output
    waits, and output that waited is dropped and the pane paused (%pause), until
    refresh-client -A %PANE:continue. What comes meanwhile is %extended-output."""
    _start(both)
    with _client(both, name) as session:
        session.cmd("refresh-client", "-f", "pause-after")
        session.cmd("send-keys", "yes | head -c 4000000; echo DO''NE", "Enter")
        wait_until(lambda: "DONE" in both.run(name, "capture-pane", "-p").stdout,
                   timeout=DEADLINE * 6, what="the flood to end")
        told = []
        for notice in session.notifications(DEADLINE):
            told.append(notice.name)
            if notice.name == "pause":
                assert notice.args == ["%0"]
                break
        assert told[-1] == "pause" and "output" not in told  # pause-after's is extended
        assert session.cmd("refresh-client", "-A", "%0:continue") == ["%continue %0"]


def test_subscriptions_tell_a_format_when_it_changes(clients: dict[str, Session]) -> None:
    """refresh-client -B NAME:WHAT:FORMAT: the session's (WHAT empty), a pane's or every
    window's format told as it changes (tmux looks each second)."""
    told = {}
    for name, session in clients.items():
        session.cmd("refresh-client", "-B", "s::#{session_name}",
                    "-B", "p:%0:#{pane_id} #{pane_width}", "-B", "w:@*:#{window_index}")
        first = {session.wait_for("subscription-changed").args[0] for _ in range(3)}
        session.cmd("rename-session", "renamed")
        again = session.wait_for("subscription-changed")
        told[name] = (first, again)
    assert told["termhost"] == told["tmux"]
    assert told["termhost"][1].args == ["s", "$0", "-", "-", "-", ":", "renamed"]


def test_a_control_client_is_a_client(both: BothServers) -> None:
    """list-clients shows it with its flags, display-message -c speaks for it,
    switch-client -c moves it (it is told %session-changed, the others
    %client-session-changed), and detach-client -t ends it (%exit; the others are told
    %client-detached)."""
    _start(both)
    results = {}
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "b").returncode == 0
        with _client(both, name) as watcher, _client(both, name) as mover:
            moved = f"client-{mover.pid}"  # attached, once its first block is read
            listing = both.run(name, "list-clients", "-F",
                               "#{client_name} #{client_flags} #{client_control_mode}")
            named = both.run(name, "display-message", "-c", moved, "-p", "#{client_name}")
            both.run(name, "switch-client", "-c", moved, "-t", "b")
            mover_told = _told(mover)
            watcher_told = _told(watcher)
            both.run(name, "detach-client", "-t", moved)
            exited = mover.wait_for("exit")
            detached = watcher.wait_for("client-detached")
        results[name] = (
            sorted(re.sub(str(mover.pid), "MOVER", line).split(" ", 1)[1]
                   for line in listing.stdout.splitlines()),
            named.stdout == f"{moved}\n", mover_told,
            [line.replace(moved, "MOVER") for line in watcher_told],
            exited.args, _line(detached).replace(moved, "MOVER"))
    assert results["termhost"] == results["tmux"]
    assert results["termhost"][2] == ["%session-changed $0 a", "%session-changed $1 b"]
    assert results["termhost"][3] == ["%session-changed $0 a", "%client-session-changed "
                                      "MOVER $0 a", "%client-session-changed MOVER $1 b"]
    assert results["termhost"][5] == "%client-detached MOVER"


def test_control_control_in_a_terminal_as_tmux(both: BothServers, tmp_path: Path) -> None:
    """-CC: a DCS (ESC P 1000 p) first, the terminal raw but for CR read as NL and NL
    written as CR NL (the commands typed are not echoed), ST (ESC \\) after %exit, and
    the terminal's modes as they were."""
    _start(both)
    seen = {}
    for name in both.NAMES:
        master, slave = os.openpty()
        before = termios.tcgetattr(slave)
        process = subprocess.Popen([*both.programs[name], "-CC", "attach", "-t", "a"],
                                   stdin=slave, stdout=slave, stderr=slave, env=both.env)
        try:
            text = _pty_until(master, rb"%session-changed \$0 a\r\n")
            os.write(master, b"display-message -p '#{client_control_mode}'\r")
            text += _pty_until(master, rb"%end \d+ \d+ 1\r\n")
            os.write(master, b"\r")
            assert process.wait(DEADLINE) == 0
            text += _pty_rest(master)
            after = termios.tcgetattr(slave)
        finally:
            process.kill()
            os.close(slave)
            os.close(master)
        text = re.sub(rb"%output [^\r]*\r\n", b"", re.sub(rb"\d{10} \d+", b"T N", text))
        seen[name] = (text, after == before)
    assert seen["termhost"] == seen["tmux"]
    text, restored = seen["termhost"]
    assert text.startswith(b"\x1bP1000p%begin T N 0\r\n") and restored
    assert text.endswith(b"%exit\r\n\x1b\\")
    assert b"display-message" not in text and b"\r\n1\r\n" in text


def _pty_until(master: int, wanted: bytes) -> bytes:
    """What a PTY master gives until the pattern `wanted` has come."""
    data = b""
    deadline = time.monotonic() + DEADLINE
    while not re.search(wanted, data):
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"no {wanted!r} from the terminal; read {data!r}")
        if select.select([master], [], [], left)[0]:
            data += os.read(master, 65536)
    return data


def _pty_rest(master: int) -> bytes:
    """What is left on a PTY master once its client has exited: there already (the
    slave stays open here, so no end of file comes)."""
    data = b""
    while select.select([master], [], [], 0)[0]:
        data += os.read(master, 65536)
    return data


def test_termhost_cc_needs_a_terminal(both: BothServers) -> None:
    """-CC on a pipe: the client cannot set the terminal's modes and says so, as tmux."""
    _start(both)
    done = {name: subprocess.run([*both.programs[name], "-CC", "attach", "-t", "a"],
                                 input="", capture_output=True, text=True, env=both.env,
                                 timeout=DEADLINE, check=False) for name in both.NAMES}
    assert done["tmux"].returncode == done["termhost"].returncode == 1
    assert done["termhost"].stderr.removeprefix("termhost: ") == done["tmux"].stderr


def test_the_end_of_the_session_ends_the_client(clients: dict[str, Session],
                                                 both: BothServers) -> None:
    """Its session killed, the client is told %sessions-changed, then %exit."""
    for name, session in clients.items():
        assert both.run(name, "kill-session", "-t", "a").returncode == 0
        assert session.wait_for("exit").args == []
