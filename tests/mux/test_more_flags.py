"""list-keys -1 -a -P, set-buffer and load-buffer -w -t, show-messages -J -T, and the
pending sequence capture-pane -P shows, compared with a live tmux 3.3a; the clients
each server writes to are real ones, in an outer tmux."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from termhost.terminal import Terminal
from tests.conftest import BothServers, pid_exists, wait_until
from tests.ui.outer_tmux import Outer, agreed, attach_both, status_text


@pytest.fixture
def outer(tmp_path: Path, both: BothServers) -> Iterator[Outer]:
    terminal = Outer(tmp_path, both.env)
    yield terminal
    terminal.kill()


MINE = ["bind", "-T", "mine", "-N", "Mine", "a", "display", "a"]
BINDINGS = [  # each table's keys in tmux's order (by key code), which list-keys keeps
    ["new-session", "-d", "-s", "s", "sleep 1000"],
    ["bind", "-n", "F5", "display", "five"],
    ["bind", "-n", "-N", "Root note", "F6", "display", "six"],
    ["bind", "-n", "-N", "A mouse key's", "DoubleClick1Pane", "select-pane"],
    ["bind", "-T", "mine", "Space", "display", "b"],
    MINE,
    ["bind", "-T", "bare", "x", "display", "x"],
]


@pytest.mark.parametrize("args", [
    ["-N", "-T", "root"], ["-aN", "-T", "root"], ["-1N", "-T", "root"], ["-1aN", "-T", "mine"],
    ["-N", "-T", "mine", "-P", ">> "], ["-aN", "-T", "mine", "-P", "é "], ["-aN", "-T", "bare"],
    ["-N", "-T", "bare"], ["-N", "-T", "copy-mode"], ["-1N"], ["-N", "F6"], ["-aN", "F5"],
    ["-N", "F5"], ["-N", "-P", "pre ", "F6"], ["-N", "C-o"], ["-1N", "C-o"], ["-1", "-T", "mine"],
    ["-P", "x", "-T", "mine"], ["-a", "-T", "bare"], ["-T", "prefix", "F12"], ["-N", "NoSuchKey"],
    ["-N", "-T", "nosuch"]])
def test_list_keys_notes_as_tmux(both: BothServers, args: list[str]) -> None:
    """tmux 3.3a's list-keys -N: the root table then the prefix table's, keys padded to
    the widest key with a note (-a adds those with none, their command as the note, not
    padded further), mouse keys left out, -P written in place of the prefix (spaces as
    wide in front of root keys), -1 one line of each table; -1, -a and -P do nothing
    without -N; a key bound nowhere is `unknown key`, a name of no key `invalid key`."""
    for name in both.NAMES:
        for binding in BINDINGS:
            assert both.run(name, *binding).returncode == 0, (name, binding)
    assert both.answers("termhost", ["list-keys", *args]) == \
        both.answers("tmux", ["list-keys", *args])


def test_list_keys_1_shows_its_line_on_the_current_client(both: BothServers,
                                                           outer: Outer) -> None:
    """With a client attached, -1N puts its line in that client's status line (for
    display-time) and prints nothing, as tmux's status_message_set; the message log
    has it."""
    attach_both(both, outer)
    for name in both.NAMES:
        for step in (["set", "-g", "display-time", "100000"], MINE):
            assert both.run(name, *step).returncode == 0
        assert both.answers(name, ["list-keys", "-1N", "-T", "mine"]) == (0, "", "")
    assert agreed(lambda name: [status_text(outer, name)], "the note in the status line",
                  lambda seen: seen == ["a Mine"])
    for name in both.NAMES:
        log = both.run(name, "show-messages").stdout
        assert re.search(r" /dev/pts/\d+ message: a Mine\n", log), (name, log)


def _clipboard(outer: Outer) -> str:
    """What the outer terminal was last asked to put on the clipboard."""
    return outer.run("show-buffer") if outer.run("list-buffers") else ""


def test_w_puts_the_buffer_on_the_clients_clipboard(both: BothServers, outer: Outer,
                                                    tmp_path: Path) -> None:
    """set-buffer -w and load-buffer -w write the buffer (all of it, after -a) to the
    terminal of the current client, or -t's, as OSC 52 through its Ms (tmux-256color
    has it), which the outer tmux takes as its own paste buffer. A client -t names that
    is not there is no error; without -w nothing is sent."""
    ttys = attach_both(both, outer)
    outer.run("set", "-s", "set-clipboard", "on")  # OSC 52 from its panes: a paste buffer
    loaded = tmp_path / "loaded.txt"
    loaded.write_text("from a file\n", encoding="utf-8")
    for name in both.NAMES:
        for step, sent in ((["set-buffer", "-b", "b", "-w", f"{name} once"], f"{name} once"),
                           (["set-buffer", "-b", "b", "-a", "-w", "-t", ttys[name], " more"],
                            f"{name} once more"),
                           (["set-buffer", "not sent"], None),
                           (["set-buffer", "-w", "-t", "/dev/nosuch", "not sent"], None),
                           (["load-buffer", "-w", str(loaded)], "from a file\n"),
                           (["load-buffer", "-w", "-t", ttys[name], str(loaded)],
                            "from a file\n")):
            assert both.answers(name, step) == (0, "", ""), (name, step)
            if sent is not None:  # the outer terminal reads in order: any unwanted
                wait_until(lambda sent=sent: _clipboard(outer) == sent,  # type: ignore[misc]
                           what=f"{name}'s client to set the clipboard to {sent!r}")
                outer.run("delete-buffer")  # write would have come before, and stays
    assert "not sent" not in outer.run("list-buffers")


def test_show_messages_t_describes_the_terminals(both: BothServers, outer: Outer) -> None:
    """-T: a `Terminal N: TERM for CLIENT, flags=0x..:` line for the client's terminal,
    then tmux 3.3a's capabilities in its order, each with its type and value (from
    terminfo, here tmux-256color's) or `[missing]`. -t a client that is not there, or
    no client at all, fails as tmux's."""
    ttys = attach_both(both, outer)
    seen = {}
    for name in both.NAMES:
        done = both.run(name, "show-messages", "-T", "-t", ttys[name])
        assert done.returncode == 0, done.stderr
        head, *codes = done.stdout.splitlines()
        assert re.fullmatch(rf"Terminal 0: tmux-256color for {ttys[name]}, flags=0x[0-9a-f]+:",
                            head), head
        seen[name] = codes
    assert [line.split(":")[:2] for line in seen["termhost"]] == \
        [line.split(":")[:2] for line in seen["tmux"]]
    from_terminfo = [line for line in seen["tmux"]
                     if re.match(r" *\d+: (acsc|am|bel|clear|cup|Ms|colors|kf1|smcup|Tc):", line)]
    assert len(from_terminfo) == 10
    assert all(line in seen["termhost"] for line in from_terminfo)
    for args in (["-T", "-t", "/dev/nosuch"], ["-J", "-t", "nosuch"]):
        assert both.answers("termhost", ["show-messages", *args]) == \
            both.answers("tmux", ["show-messages", *args])


def test_show_messages_j_lists_the_running_jobs(both: BothServers, outer: Outer) -> None:
    """-J: each job the server runs (run-shell -b here), newest first, with its fd and
    pid, while it runs (the job ends when its process does: `exec`, so that the pid is
    sleep's); after -T's terminals, a blank line between."""
    attach_both(both, outer)
    pids = {}
    for name in both.NAMES:
        for seconds in ("1001", "1002"):
            assert both.run(name, "run-shell", "-b", f"exec sleep {seconds}").returncode == 0
        jobs = wait_until(lambda name=name: [  # type: ignore[misc]
            line for line in both.run(name, "show-messages", "-J").stdout.splitlines()
            if "sleep" in line] if "1002" in both.run(name, "show-messages", "-J").stdout
            else None, what=f"{name}'s jobs")
        assert [re.sub(r"fd=-?\d+, pid=\d+", "fd=F, pid=P", line) for line in jobs] == [
            "Job 0: exec sleep 1002 [fd=F, pid=P, status=0]",
            "Job 1: exec sleep 1001 [fd=F, pid=P, status=0]"], name
        pids[name] = [int(pid) for pid in re.findall(r"pid=(\d+)", "\n".join(jobs))]
        assert all(pid_exists(pid) for pid in pids[name])
        both_lists = both.run(name, "show-messages", "-JT").stdout.splitlines()
        assert both_lists[-3:] == ["", *jobs], name
    for name in both.NAMES:
        for pid in pids[name]:
            os.kill(pid, signal.SIGTERM)
        wait_until(lambda name=name: "sleep" not in both.run(  # type: ignore[misc]
            name, "show-messages", "-J").stdout, what=f"{name}'s jobs to end")


def test_show_messages_needs_a_client(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    for args in (["-J"], ["-T"], ["-JT"]):
        assert both.answers("termhost", ["show-messages", *args]) == \
            both.answers("tmux", ["show-messages", *args]) == (1, "", "no current client\n")


@pytest.mark.parametrize(("chunks", "pending"), [
    (["abc\x1b[31"], "\x1b[31"),
    (["abc\x1b]0;ti", "tle"], "\x1b]0;title"),
    (["a\x1b[3", "1m", "b"], ""),
    (["a\x1b[3", "1mz\x1b[", "4"], "\x1b[4"),
    (["\x1b[3\x1b[31"], "\x1b[3\x1b[31"),
    (["x\x1bP1;2", "more"], "\x1bP1;2more"),
    (["plain"], ""),
])
def test_pending_is_what_came_since_the_ground_state(chunks: list[str], pending: str) -> None:
    """What capture-pane -P shows, as tmux's input_pending (since_ground): the bytes
    since the parser last left the ground state, across reads, a new ESC inside a
    sequence not starting afresh; nothing once a sequence ends."""
    terminal = Terminal(20, 4)
    for chunk in chunks:
        terminal.feed(chunk.encode())
        terminal.flush()  # each chunk parsed apart, as reads arrive
    assert terminal.pending == pending


PENDING = {
    "0": "printf 'abc\\033[31'; exec sleep 1000",
    "1": "printf 'x\\033]0;tit\\\\\\\\le\\303\\251'; exec sleep 1000",
    "2": "printf plain; exec sleep 1000",
}
"""A CSI, and an OSC with a backslash and UTF-8 in it, neither finished; plain text."""


def test_capture_pane_p_shows_the_start_of_a_sequence(both: BothServers) -> None:
    """-P: only what the pane has received of a sequence it has not finished (tmux's
    input_pending), with -C each byte below a space or above ASCII and each backslash
    in octal; printed with a newline, else into a paste buffer, none when there is
    nothing."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "40", "-y", "5",
                        PENDING["0"]).returncode == 0
        for index in "12":
            assert both.run(name, "new-window", "-d", "-t", f"s:{index}",
                            PENDING[index]).returncode == 0
        for index, shown in (("0", "abc"), ("1", "x"), ("2", "plain")):
            wait_until(lambda name=name, index=index, shown=shown: shown in both.run(  # type: ignore[misc]
                name, "capture-pane", "-p", "-t", f"s:{index}").stdout,
                what=f"{name}'s window {index}")
    for args in (["-p", "-t", "s:0"], ["-p", "-C", "-t", "s:0"], ["-p", "-t", "s:1"],
                 ["-p", "-C", "-t", "s:1"], ["-p", "-t", "s:2"], ["-p", "-e", "-t", "s:0"]):
        assert both.answers("termhost", ["capture-pane", "-P", *args]) == \
            both.answers("tmux", ["capture-pane", "-P", *args]), args
    both.after_each([["capture-pane", "-P", "-t", "s:0"], ["capture-pane", "-P", "-t", "s:2"],
                     ["capture-pane", "-P", "-b", "named", "-t", "s:1"]], ["list-buffers"])


def test_display_message_i_needs_an_empty_pane(both: BothServers) -> None:
    """-I sends stdin to an empty pane (`split-window ''`); a pane running a program
    refuses it, in tmux's words, and no message is shown or printed."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    for args in (["-I"], ["-I", "-t", "s"], ["-I", "-p", "text"], ["-I", "-t", "s:9"]):
        assert both.answers("termhost", ["display-message", *args]) == \
            both.answers("tmux", ["display-message", *args]), args


def test_display_message_n_ignores_keys_until_its_delay_ends(both: BothServers,
                                                             outer: Outer) -> None:
    """-N: the message stays for its delay whatever is typed, and what is typed meanwhile
    is dropped, not sent to the pane; then keys reach the pane again (and clear a message
    shown without -N)."""
    attach_both(both, outer)
    for name in both.NAMES:
        assert both.run(name, "respawn-pane", "-k", "-t", "s", "cat").returncode == 0
        assert both.run(name, "display-message", "-N", "-d", "3000", "held").returncode == 0
    assert agreed(lambda name: [status_text(outer, name)], "the -N message",
                  lambda seen: seen == ["held"])
    for name in both.NAMES:
        outer.run("send-keys", "-t", name, "x")
    for name in both.NAMES:  # keys reach the pane again once the message has gone
        wait_until(lambda name=name: status_text(outer, name) != "held",  # type: ignore[misc]
                   what=f"{name}'s -N message to end")
        outer.run("send-keys", "-t", name, "y")
    assert agreed(lambda name: [line for line in both.run(
        name, "capture-pane", "-p", "-t", "s").stdout.splitlines() if line],
        "the pane after typing", lambda seen: seen == ["y"])


def test_display_message_of_a_target_that_is_not_there_expands_for_the_server(
        both: BothServers) -> None:
    # tmux's display-message takes its target CMD_FIND_CANFAIL: no error, no session.
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    for target in ("nosuch", "nosuch:5", "%99", "s:7", "s:0.9"):
        args = ["display-message", "-p", "-t", target, "[#{session_name}#{pane_id}]"]
        assert both.answers("termhost", args) == both.answers("tmux", args), target
