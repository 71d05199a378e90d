"""choose-tree (C-b s) lists the sessions whose server died (resurrection records) after
the live ones, and choosing one brings it back and shows it, in a real client in an
outer tmux. (tmux has no resurrection: nothing to compare with.)"""

from __future__ import annotations

import os
import signal

from termhost.resurrect import records
from tests.conftest import BothServers, pid_exists, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer

WIDTH, HEIGHT = 80, 20


def rows(outer: Outer) -> list[str]:
    return outer.run("capture-pane", "-p", "-t", "termhost").rstrip("\n").split("\n")


def test_an_exited_session_is_a_row_and_choosing_it_brings_it_back(
        both: BothServers, outer: Outer) -> None:
    def run(*args: str) -> str:
        done = both.run("termhost", *args)
        assert done.returncode == 0, (args, done.stderr)
        return done.stdout

    run("new-session", "-d", "-s", "gone", "-x", str(WIDTH), "-y", str(HEIGHT - 1))
    run("split-window", "-t", "gone")
    wait_until(lambda: _kept(both), what="gone's record")
    server = int(run("display-message", "-p", "#{pid}"))
    os.kill(server, signal.SIGKILL)
    wait_until(lambda: not pid_exists(server), what="the server to die")

    run("new-session", "-d", "-s", "s", "-x", str(WIDTH), "-y", str(HEIGHT - 1), "cat")
    outer.show("termhost", CLIENTS["termhost"], WIDTH, HEIGHT)
    wait_until(lambda: "[s]" in rows(outer)[-1], PATIENCE, "the client to draw")
    outer.run("send-keys", "-t", "termhost", "C-b", "s")
    wait_until(lambda: any("gone: 1 windows (exited)" in row for row in rows(outer)),
               PATIENCE, "the exited session's row")
    tree = rows(outer)
    live = next(i for i, row in enumerate(tree) if " s: 1 windows (attached)" in row)
    gone = next(i for i, row in enumerate(tree) if "gone: 1 windows (exited)" in row)
    assert gone > live and tree[gone].startswith("(1)"), tree
    outer.run("send-keys", "-t", "termhost", "1")  # its shortcut chooses it
    wait_until(lambda: "[gone]" in rows(outer)[-1], PATIENCE, "the client to show gone")
    assert both.run("termhost", "list-panes", "-t", "gone", "-F", "#{pane_index}").stdout == (
        "0\n1\n")


def _kept(both: BothServers) -> bool:
    """gone's record is on disk, with its two panes."""
    socket = os.path.join(both.env["TERMHOST_TMPDIR"], f"termhost-{os.geteuid()}", "default")
    found, _ = records.load_all(records.directory(both.env, socket))
    return any(r.name == "gone" and len(r.windows[0].panes) == 2 for r in found)
