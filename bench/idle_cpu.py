"""Idle cost: the CPU an attached session uses while nothing happens, termhost vs tmux.

A multiplexer runs all day in the background of a laptop. While no program in it writes and
nobody types, it should sleep in the kernel until something arrives: a polling loop (a
timer that wakes to check for work, a redraw on a clock) costs battery for nothing. The
project target is that an attached session with nothing happening uses less than 1% of a
core, server and client together.

For each multiplexer, on a private server (own socket, no configuration), untimed: a
120x40 session whose pane runs `printf READY; exec cat` (cat waits for input forever), and
a client attached to it (`termhost attach -t S`, `tmux attach -t S`) on a 120x40 PTY of
its own whose output a thread of this script drains. Once the client has drawn READY and
then written nothing for `--quiet` seconds, the measured window starts; it lasts
`--seconds` seconds (default 10), nothing is typed or written in it. Figures over the
window:

  % of a core   CPU time (utime + stime from /proc/PID/stat, all threads) of the server
                and of the attached client, divided by the window's wall time. The kernel
                counts in clock ticks (1/SC_CLK_TCK s, 10 ms here), so a figure is exact to
                one tick: 0.1% of a core over 10 s
  wakeups/s     context switches (voluntary + involuntary, all threads, /proc/PID/task/*/
                status) per second: how often the process woke up. A process blocked in
                select()/epoll until work arrives has close to none; a polling loop shows
                up here long before it shows up as CPU time
  bytes         what the client wrote to its terminal in the window (a clock in the status
                line redraws it; tmux's default status line shows the time)

The pane's process (cat) is not counted: it is the same program under both.

With `--tiled4` (bench/_tiled.py) the session has 4 panes in the tiled layout, the three
added ones running `exec cat` too, with `set -g mouse on` and the status bar on; the READY
pane stays the active one. The panes' sizes are printed for both multiplexers.

Benchmarks report, they do not gate: the exit status is 0 whatever the PASS/FAIL lines say,
unless something errored.

Run: `.venv/bin/python bench/idle_cpu.py [--seconds 10] [--quiet 1] [--tiled4]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import _tiled
from _termhost import PrivateTermhost, PtyClient, cpu_seconds
from _tmux import PrivateServer, PrivateTmux

COLS, ROWS = 120, 40
TARGET_PERCENT = 1.0
PANE = "printf READY; exec cat"
READY_TIMEOUT = 30.0


@dataclass
class Usage:
    """What one multiplexer used over the idle window."""

    seconds: float
    server_cpu: float
    client_cpu: float
    server_switches: int
    client_switches: int
    client_bytes: int

    @property
    def total_cpu(self) -> float:
        return self.server_cpu + self.client_cpu

    def percent(self, cpu: float) -> float:
        return 100 * cpu / self.seconds


def context_switches(pid: int) -> int:
    """Voluntary + involuntary context switches of all the threads of a process so far."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = (task / "status").read_text()
        except FileNotFoundError:
            continue  # the thread exited while we looked
        for line in status.splitlines():
            if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                total += int(line.split()[1])
    return total


def measure(server: PrivateServer, pid: int, seconds: float, quiet: float, tiled4: bool) -> Usage:
    """Attach a client to session S, let it settle, and measure `seconds` of idleness of
    the server (process `pid`) and the client."""
    attach = [*server.base, "attach", "-t", "S"]
    markers = _tiled.MOUSE_MARKERS
    with PtyClient(attach, server.env, cols=COLS, rows=ROWS, markers=markers) as client:
        client.wait_for(client.watch(b"READY"), "the pane's READY", READY_TIMEOUT)
        client.wait_quiet(quiet, READY_TIMEOUT)
        if client.process.poll() is not None:
            raise RuntimeError(f"{server.base[0]} attach exited ({client.process.returncode})")
        if tiled4:
            name = _tiled.name_of(server)
            _tiled.check_mouse(name, client)
            print(f"{name} panes, attached: {_tiled.describe(server, 'S')}")
            client.wait_quiet(quiet, READY_TIMEOUT)  # list-panes is a client too
        cpu = cpu_seconds(pid), cpu_seconds(client.pid)
        switches = context_switches(pid), context_switches(client.pid)
        received = client.received
        start = time.monotonic()
        time.sleep(seconds)  # the measured window itself: nothing is waited for
        return Usage(
            seconds=time.monotonic() - start,
            server_cpu=cpu_seconds(pid) - cpu[0],
            client_cpu=cpu_seconds(client.pid) - cpu[1],
            server_switches=context_switches(pid) - switches[0],
            client_switches=context_switches(client.pid) - switches[1],
            client_bytes=client.received - received,
        )


def new_session(server: PrivateServer, tiled4: bool) -> None:
    """Session S, its pane printing READY then waiting in cat; with `tiled4`, three more
    such panes (no READY) beside it, tiled, with the mouse and the status bar on."""
    server.run("new-session", "-d", "-s", "S", "-x", str(COLS), "-y", str(ROWS), PANE)
    if tiled4:
        _tiled.chrome_on(server)
        _tiled.tile(server, "S", ["exec cat"] * 3)


def run_termhost(seconds: float, quiet: float, tiled4: bool) -> Usage:
    with PrivateTermhost("idle", cols=COLS, rows=ROWS) as termhost:
        new_session(termhost, tiled4)
        return measure(termhost, termhost.server_pid(), seconds, quiet, tiled4)


def run_tmux(executable: str, seconds: float, quiet: float, tiled4: bool) -> Usage:
    with PrivateTmux("idle", executable=executable, cols=COLS, rows=ROWS) as tmux:
        new_session(tmux, tiled4)
        server = int(tmux.run("display-message", "-p", "#{pid}"))
        return measure(tmux, server, seconds, quiet, tiled4)


def tmux_version(executable: str) -> str:
    result = subprocess.run([executable, "-V"], capture_output=True, text=True, check=False)
    return result.stdout.strip().removeprefix("tmux ") or "(unknown)"


def ratio(termhost: float, tmux: float) -> str:
    if tmux == 0:
        return "n/a (tmux: 0)" if termhost else "both 0"
    return f"{termhost / tmux:.1f}x"


def report(termhost: Usage, tmux: Usage | None) -> None:
    rows: list[tuple[str, Usage]] = [("termhost", termhost)]
    if tmux is not None:
        rows.append(("tmux", tmux))
    print(
        f"{'':<13} {'window s':>8}  {'server %core':>12}  {'client %core':>12}  "
        f"{'total %core':>11}  {'server wakeups/s':>16}  {'client wakeups/s':>16}  "
        f"{'bytes drawn':>11}"
    )
    for name, usage in rows:
        print(
            f"{name:<13} {usage.seconds:8.1f}  {usage.percent(usage.server_cpu):12.2f}  "
            f"{usage.percent(usage.client_cpu):12.2f}  {usage.percent(usage.total_cpu):11.2f}  "
            f"{usage.server_switches / usage.seconds:16.1f}  "
            f"{usage.client_switches / usage.seconds:16.1f}  {usage.client_bytes:11}"
        )
    if tmux is not None:
        print(
            f"{'termhost/tmux':<13} {'':>8}  "
            f"{ratio(termhost.server_cpu, tmux.server_cpu):>12}  "
            f"{ratio(termhost.client_cpu, tmux.client_cpu):>12}  "
            f"{ratio(termhost.total_cpu, tmux.total_cpu):>11}  "
            f"{ratio(termhost.server_switches, tmux.server_switches):>16}  "
            f"{ratio(termhost.client_switches, tmux.client_switches):>16}"
        )
    print()
    percent = termhost.percent(termhost.total_cpu)
    passed = percent < TARGET_PERCENT
    print(
        f"{'PASS' if passed else 'FAIL'}  termhost attached and idle < {TARGET_PERCENT:g}% of a "
        f"core, server + client ({percent:.2f}%: server {termhost.percent(termhost.server_cpu):.2f}"
        f"%, client {termhost.percent(termhost.client_cpu):.2f}%)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--seconds", type=float, default=10, help="length of the idle window (default 10)"
    )
    parser.add_argument(
        "--quiet",
        type=float,
        default=1,
        help="seconds without client output after attaching before the window (default 1)",
    )
    parser.add_argument("--tiled4", action="store_true", help=_tiled.HELP)
    args = parser.parse_args()
    if args.seconds <= 0 or args.quiet < 0:
        parser.error("--seconds must be positive and --quiet not negative")

    executable = shutil.which("tmux")
    if executable is None:
        print("tmux is not installed: skipping the tmux reference", file=sys.stderr)
    print(
        f"python {sys.version.split()[0]} ({sys.executable}), {COLS}x{ROWS}, "
        f"{args.seconds:g} s idle window, {os.cpu_count()} CPUs, clock tick "
        f"{1000 / os.sysconf('SC_CLK_TCK'):g} ms, tmux "
        f"{tmux_version(executable) if executable else '(none)'}"
        + (", 4 tiled panes, mouse and status on" if args.tiled4 else "")
    )
    print()
    tmux = run_tmux(executable, args.seconds, args.quiet, args.tiled4) if executable else None
    termhost = run_termhost(args.seconds, args.quiet, args.tiled4)
    if args.tiled4:
        print()
    report(termhost, tmux)


if __name__ == "__main__":
    main()
