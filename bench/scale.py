"""Scale: 50 sessions of 4 idle panes each, made, listed and killed through the CLI.

People keep dozens of sessions open for weeks, most panes sitting at a prompt. What matters
then is what an idle pane costs the server (memory, threads, descriptors), that commands
stay quick with many sessions around, and that killing sessions leaves nothing behind. The
issue's targets: `list-sessions` lists all 50 sessions; every pane's process runs; once the
sessions are killed, every one of those processes is gone. The figures are reported beside
tmux's from the same run.

For each multiplexer, on a private server (own socket, no configuration) that already holds
one idle session (so that it stays up when the measured sessions are killed):

  create       timed as a whole: for each of `--sessions` sessions, `new-session -d -s sNN
               -x 120 -y 40 'sleep 100000'` and `--panes` - 1 times `split-window -t sNN
               'sleep 100000'`, one CLI call each (so it includes starting every client
               process: the per-call cost is a user's cost too). Then, untimed, a deadline-
               bound wait until the server has a child process for every pane
  memory       the server's VmRSS (/proc/PID/status) before the sessions and once every pane
               runs; the difference divided by the number of panes is the memory per idle
               pane. Threads and open descriptors of the server (/proc/PID/status Threads,
               /proc/PID/fd) are counted at the same moments
  list         `list-sessions` run `--lists` times (default 11), each call timed as a whole
               (client start included); the median is reported, and the last output must
               name every session. After each, `has-session` (the last session) is timed alike:
               the floor of any command (client start and one round trip), for comparison
  kill         timed as a whole: `kill-session -t sNN` for each session, then, untimed, a
               deadline-bound wait until the server's children are back to what they were
               before the sessions (a leaked pane process fails the check). The RSS after
               the kill is printed too: what the server gives back

Benchmarks report, they do not gate: the exit status is 0 whatever the PASS/FAIL lines say,
unless something errored.

Run: `.venv/bin/python bench/scale.py [--sessions 50] [--panes 4] [--lists 11]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from _termhost import PrivateTermhost, children, rss_kib, wait_until
from _tmux import PrivateTmux

COLS, ROWS = 120, 40
PANE = "sleep 100000"
PROCESS_TIMEOUT = 60.0


@dataclass
class Snapshot:
    """The server's resources at one moment."""

    rss_kib: int
    threads: int
    fds: int
    children: int


@dataclass
class Result:
    """What one multiplexer did with the sessions."""

    panes: int
    create_s: float
    list_ms: list[float]
    has_ms: list[float]
    """The same number of `has-session` calls: a command's floor (client start, round trip)."""
    listed: int
    kill_s: float
    before: Snapshot
    loaded: Snapshot
    after: Snapshot
    processes_started: bool
    processes_gone: bool

    @property
    def kib_per_pane(self) -> float:
        return (self.loaded.rss_kib - self.before.rss_kib) / self.panes


def snapshot(pid: int) -> Snapshot:
    threads = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            threads = int(line.split()[1])
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return Snapshot(rss_kib(pid), threads, fds, len(children(pid)))


def wait_children(pid: int, count: int, what: str) -> bool:
    """Whether the server's child processes reach `count` within the deadline."""
    try:
        wait_until(lambda: len(children(pid)) == count, what, PROCESS_TIMEOUT)
    except TimeoutError as error:
        print(f"warning: {error} ({len(children(pid))} children, expected {count})")
        return False
    return True


def exercise(run: Callable[..., str], server: int, sessions: int, panes: int, lists: int) -> Result:
    """Create, list and kill the sessions through `run` (one CLI call per command)."""
    names = [f"s{index:02d}" for index in range(sessions)]
    before = snapshot(server)
    start = time.perf_counter()
    for name in names:
        run("new-session", "-d", "-s", name, "-x", str(COLS), "-y", str(ROWS), PANE)
        for _ in range(panes - 1):
            run("split-window", "-t", name, PANE)
    create_s = time.perf_counter() - start
    total = sessions * panes
    started = wait_children(server, before.children + total, f"{total} pane processes")
    loaded = snapshot(server)

    list_ms: list[float] = []
    has_ms: list[float] = []
    output = ""
    for _ in range(lists):
        called = time.perf_counter()
        output = run("list-sessions")
        list_ms.append(1e3 * (time.perf_counter() - called))
        called = time.perf_counter()
        run("has-session", "-t", names[-1])
        has_ms.append(1e3 * (time.perf_counter() - called))
    listed = {line.split(":", 1)[0] for line in output.splitlines()}

    start = time.perf_counter()
    for name in names:
        run("kill-session", "-t", name)
    kill_s = time.perf_counter() - start
    gone = wait_children(server, before.children, "pane processes gone after kill-session")
    return Result(
        panes=total,
        create_s=create_s,
        list_ms=list_ms,
        has_ms=has_ms,
        listed=len(listed & set(names)),
        kill_s=kill_s,
        before=before,
        loaded=loaded,
        after=snapshot(server),
        processes_started=started,
        processes_gone=gone,
    )


def run_termhost(sessions: int, panes: int, lists: int) -> Result:
    with PrivateTermhost("scale", cols=COLS, rows=ROWS) as termhost:
        return exercise(termhost.run, termhost.server_pid(), sessions, panes, lists)


def run_tmux(executable: str, sessions: int, panes: int, lists: int) -> Result:
    with PrivateTmux("scale", executable=executable, cols=COLS, rows=ROWS) as tmux:
        server = int(tmux.run("display-message", "-p", "#{pid}"))
        return exercise(tmux.run, server, sessions, panes, lists)


def tmux_version(executable: str) -> str:
    result = subprocess.run([executable, "-V"], capture_output=True, text=True, check=False)
    return result.stdout.strip().removeprefix("tmux ") or "(unknown)"


def report(results: dict[str, Result], sessions: int) -> None:
    rows: list[tuple[str, Callable[[Result], float], str]] = [
        ("create all (s)", lambda r: r.create_s, ".2f"),
        ("create per pane (ms)", lambda r: 1e3 * r.create_s / r.panes, ".1f"),
        ("list-sessions median (ms)", lambda r: statistics.median(r.list_ms), ".1f"),
        ("list-sessions max (ms)", lambda r: max(r.list_ms), ".1f"),
        ("has-session median (ms)", lambda r: statistics.median(r.has_ms), ".1f"),
        ("kill all (s)", lambda r: r.kill_s, ".2f"),
        ("server RSS before (MiB)", lambda r: r.before.rss_kib / 1024, ".1f"),
        ("server RSS loaded (MiB)", lambda r: r.loaded.rss_kib / 1024, ".1f"),
        ("server RSS after kill (MiB)", lambda r: r.after.rss_kib / 1024, ".1f"),
        ("RSS per idle pane (KiB)", lambda r: r.kib_per_pane, ".1f"),
        ("server threads before", lambda r: r.before.threads, "d"),
        ("server threads loaded", lambda r: r.loaded.threads, "d"),
        ("server fds before", lambda r: r.before.fds, "d"),
        ("server fds loaded", lambda r: r.loaded.fds, "d"),
        ("server fds after kill", lambda r: r.after.fds, "d"),
    ]
    names = list(results)
    width = max(len(label) for label, _, _ in rows)
    header = f"{'':<{width}}" + "".join(f"  {name:>10}" for name in names)
    if "tmux" in results:
        header += f"  {'termhost/tmux':>13}"
    print(header)
    for label, figure, spec in rows:
        values = [figure(results[name]) for name in names]
        line = f"{label:<{width}}" + "".join(f"  {value:>10{spec}}" for value in values)
        if "tmux" in results:
            tmux = figure(results["tmux"])
            ratio = f"{figure(results['termhost']) / tmux:.2f}x" if tmux else "n/a"
            line += f"  {ratio:>13}"
        print(line)

    print()
    for name, result in results.items():
        checks = [
            (
                f"{name}: list-sessions names all {sessions} sessions",
                result.listed == sessions,
                f"{result.listed} of {sessions}",
            ),
            (
                f"{name}: a process runs for each of the {result.panes} panes",
                result.processes_started,
                f"server children {result.loaded.children - result.before.children}",
            ),
            (
                f"{name}: every pane's process is gone after kill-session",
                result.processes_gone,
                f"server children {result.after.children}, {result.before.children} before",
            ),
        ]
        for what, passed, actual in checks:
            print(f"{'PASS' if passed else 'FAIL'}  {what} ({actual})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sessions", type=int, default=50, help="sessions (default 50)")
    parser.add_argument("--panes", type=int, default=4, help="panes per session (default 4)")
    parser.add_argument(
        "--lists", type=int, default=11, help="timed list-sessions calls (default 11)"
    )
    args = parser.parse_args()
    if args.sessions < 1 or not 1 <= args.panes <= 4 or args.lists < 1:
        parser.error("--sessions and --lists must be positive, --panes 1 to 4")

    executable = shutil.which("tmux")
    if executable is None:
        print("tmux is not installed: skipping the tmux reference", file=sys.stderr)
    print(
        f"python {sys.version.split()[0]} ({sys.executable}), {args.sessions} sessions x "
        f"{args.panes} panes of `{PANE}`, {COLS}x{ROWS}, {os.cpu_count()} CPUs, tmux "
        f"{tmux_version(executable) if executable else '(none)'}"
    )
    print()
    results: dict[str, Result] = {}
    results["termhost"] = run_termhost(args.sessions, args.panes, args.lists)
    if executable is not None:
        results["tmux"] = run_tmux(executable, args.sessions, args.panes, args.lists)
    report(results, args.sessions)


if __name__ == "__main__":
    main()
