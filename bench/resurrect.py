"""Resurrection: what keeping each session's record costs the server, how long bringing
sessions back takes, and what resurrection costs an idle server, beside tmux in the same
run (tmux keeps no records: its figures are the same work without them).

A private termhost with `--sessions` sessions (20) of 4 panes each (a split window and a
second window, each pane running /bin/sh, so that your rc files are not what is
measured, with `--lines` (10,000) lines of output in its scrollback; resurrect-scrollback
is left at 0), and a private tmux built the same way:

  record write   server CPU per record written: `select-layout` flips every session's
                 layout `--changes` times, each change waited for in the record on disk;
                 the server's CPU (utime + stime) over that, less the same flips with
                 `set -g resurrect off`, divided by the records written. Also the wall
                 time of one write (records.save of such a record: JSON, write, fsync,
                 rename) measured in this process. Target: <= 5 ms per session.
  bring back     kill -9 of the server, then `termhost resurrect -a` until it returns with
                 every session back; beside it, tmux building the same sessions with the
                 same commands (what tmux-resurrect does). Target: <= 2 s.
  idle CPU       the server's CPU over `--seconds` (10) with nothing happening, resurrection
                 on (its look every 5 s included), beside tmux's. Target: < 1% of a core.

Benchmarks report, they do not gate. Run: `.venv/bin/python bench/resurrect.py`.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from _termhost import PrivateTermhost, cpu_seconds, wait_until
from _tmux import PrivateServer, PrivateTmux

from termhost.resurrect import records


def build(server: PrivateServer, sessions: int, lines: int = 0) -> None:
    """`sessions` sessions, each a window split in three and a second window; each pane
    given `lines` lines of output (its scrollback)."""
    for number in range(sessions):
        name = f"s{number}"
        server.run("new-session", "-d", "-s", name, "-x", "120", "-y", "40")
        server.run("split-window", "-t", f"{name}:0")
        server.run("split-window", "-h", "-t", f"{name}:0")
        server.run("new-window", "-d", "-t", name)
        if lines:
            for pane in server.run("list-panes", "-s", "-t", name, "-F", "#{pane_id}").split():
                server.run("send-keys", "-t", pane, f"seq {lines}", "Enter")
                wait_until(lambda p=pane: f"\n{lines}\n" in server.run(
                    "capture-pane", "-p", "-t", p), f"{pane}'s output", 30)


def record_layout(where: Path, name: str) -> str:
    try:
        data = json.loads((where / f"{name}.json").read_text())
    except (OSError, ValueError):
        return ""
    return str(data["windows"][0]["layout"])


def flips(server: PrivateTermhost, where: Path, sessions: int, changes: int,
          watch: bool) -> float:
    """Server CPU seconds over `changes` layout flips of every session (each waited for
    in its record when `watch`)."""
    pid = server.server_pid()
    before = cpu_seconds(pid)
    for change in range(changes):
        layout = ("even-horizontal", "even-vertical")[change % 2]
        for number in range(sessions):
            server.run("select-layout", "-t", f"s{number}:0", layout)
        for number in range(sessions):
            shown = server.run("display-message", "-p", "-t", f"s{number}:0",
                               "#{window_layout}").strip()
            if watch:
                wait_until(lambda n=number, s=shown: record_layout(where, f"s{n}") == s,
                           f"s{number}'s record", 10)
        if not watch:
            time.sleep(0.3)  # the same pause as the debounced writes take; not a sync
    return cpu_seconds(pid) - before


def one_write(where: Path) -> float:
    """Median wall seconds of records.save for a 4-pane record, in this process."""
    panes = [records.PaneRecord("/tmp", None, "", True) for _ in range(3)]
    record = records.SessionRecord("bench", [
        records.WindowRecord(0, "bash", "3f8c,120x40,0,0[120x20,0,0,0,120x19,0,21,1]",
                             panes),
        records.WindowRecord(1, "bash", "b25f,120x40,0,0,3", panes[:1])])
    times = []
    for _ in range(50):
        start = time.perf_counter()
        records.save(where, record)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def idle(pid: int, seconds: float) -> float:
    before = cpu_seconds(pid)
    time.sleep(seconds)  # the measured window: nothing happens in it
    return (cpu_seconds(pid) - before) / seconds * 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--changes", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--lines", type=int, default=10000,
                        help="lines of output (scrollback) in each pane")
    args = parser.parse_args()
    # Panes run sh, for both: what is measured is the multiplexer, not your rc files.
    os.environ["SHELL"] = "/bin/sh"
    termhost, tmux = PrivateTermhost("resurrect"), PrivateTmux("resurrect")
    try:
        termhost.start()
        tmux.start()
        where = records.directory(termhost.env, Path(termhost.env["TERMHOST_TMPDIR"])
                                  / f"termhost-{os.geteuid()}" / termhost.socket)
        build(termhost, args.sessions, args.lines)
        build(tmux, args.sessions, args.lines)
        wait_until(lambda: len(list(where.glob("s*.json"))) == args.sessions,
                   "every session's record", 30)
        with_records = flips(termhost, where, args.sessions, args.changes, watch=True)
        termhost.run("set-option", "-g", "resurrect", "off")
        without = flips(termhost, where, args.sessions, args.changes, watch=False)
        termhost.run("set-option", "-g", "resurrect", "on")
        written = args.sessions * args.changes
        per_write = max(0.0, with_records - without) / written * 1000
        with tempfile.TemporaryDirectory() as scratch:
            wall = one_write(Path(scratch) / "records") * 1000
        print(f"resurrect: {args.sessions} sessions x 4 panes, {args.lines} lines each")
        print(f"  record write: {per_write:.2f} ms of server CPU per record "
              f"({with_records:.2f} s with records, {without:.2f} s without, {written} "
              f"written); one write's wall time {wall:.2f} ms (target <= 5 ms)")
        wait_until(lambda: len(list(where.glob("s*.json"))) == args.sessions,
                   "the records again", 30)
        time.sleep(1)  # the last debounced writes; the records are checked just below
        os.kill(termhost.server_pid(), signal.SIGKILL)
        wait_until(lambda: subprocess.run([*termhost.base, "has-session"], env=termhost.env,
                                          capture_output=True).returncode != 0,
                   "the server to die", 10)
        start = time.perf_counter()
        termhost.run("resurrect", "-a", timeout=120)
        back = time.perf_counter() - start
        count = len(termhost.run("list-sessions", "-F", "#{session_name}").split())
        tmux_server = PrivateTmux("resurrect-rebuild")
        start = time.perf_counter()
        tmux_server.start()
        build(tmux_server, args.sessions)
        theirs = time.perf_counter() - start
        tmux_server.stop()
        print(f"  bring back: {count} sessions in {back:.2f} s; tmux builds them in "
              f"{theirs:.2f} s, {back / theirs:.1f}x (target <= 2 s)")
        ours_idle = idle(termhost.server_pid(), args.seconds)
        tmux_pid = int(tmux.run("display-message", "-p", "#{pid}"))
        theirs_idle = idle(tmux_pid, args.seconds)
        print(f"  idle CPU: termhost {ours_idle:.2f}% of a core with resurrection on, tmux "
              f"{theirs_idle:.2f}% (target < 1%)")
    finally:
        termhost.stop()
        tmux.stop()


if __name__ == "__main__":
    main()
