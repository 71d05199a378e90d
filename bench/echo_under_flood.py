"""Echo latency while another pane floods, and flood throughput with a client attached.

A pane running a build or `tail -f` of a busy log must not make typing in the pane beside
it sluggish, and a client watching a flood must not slow the program that floods. Both are
about what a multiplexer does with output nobody can read at that speed: tmux parses all
of it but redraws an attached client only as fast as that client's terminal keeps up. The
project targets, termhost's figures beside tmux's from the same run:

1. Echo latency under flood. The reference method is /work/shared/bench/echo_latency.py:
   it starts the multiplexer in a PTY of its own (the "outer terminal", 120x40, emulated by
   pyte), waits 3 s, then types `--keys` keys into a `cat` pane one at a time and times
   each until the outer screen shows it. It runs twice per multiplexer on a private server:
   idle (`new-session -s lat cat`, nothing else running) and flooded: the same, and as soon
   as the session exists (`has-session` polled with a deadline, well within the 3 s),
   `split-window -d -t lat FLOOD` adds a pane that writes as fast as it can (`yes` unless
   `--flood` says otherwise) beside the cat pane, which stays active. The flood's output
   reaches the outer terminal too, through the multiplexer's redraws, and must be emulated
   there before the typed key can show: that is a user's cost as well. Target: termhost's
   flooded p99 <= 3x its idle p99.
2. Flood throughput with a client attached. A `--mb` MB plain log (bench/_corpus.py) is
   catted in a new window, shown on a client attached in a 120x40 PTY that this script
   drains as fast as it can: `new-window -t flood: 'echo start >FIFO; cat FILE; echo done
   >FIFO; exec sleep 100000'`. Timed: from reading "start" on the FIFO until reading
   "done", the same signals for both multiplexers, so neither the CLI round trip nor the
   pane's start is counted (cat can only finish once the multiplexer has drained the
   pane's PTY, so the time is the multiplexer's). The bytes drawn to the client meanwhile
   are counted, and the last line of the pane (capture-pane) must be the file's last line.
   `--repeat` rounds (termhost and tmux in turn), the median round of each is reported.
   Target: termhost >= 1.0x tmux in MB/s.

Benchmarks report, they do not gate: the exit status is 0 whatever the PASS/FAIL lines say,
unless something errored.

Run: `.venv/bin/python bench/echo_under_flood.py [--keys 300] [--flood yes] [--mb 20]
[--repeat 3]`.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import _corpus
from _termhost import PrivateTermhost, PtyClient, wait_until
from _tmux import PrivateTmux

COLS, ROWS = 120, 40
ECHO_LATENCY = Path("/work/shared/bench/echo_latency.py")
SETTLE = 3.0
"""echo_latency.py's wait before the first key: the flood pane must be running by then."""
TARGET_FLOOD_FACTOR = 3.0
TARGET_THROUGHPUT = 1.0
ATTACH_TIMEOUT = 30.0


@dataclass
class Latency:
    """One echo_latency.py run: its figures in ms, and when the flood pane started."""

    line: str
    seen: int
    typed: int
    p50: float
    p90: float
    p99: float
    max: float
    flood_after: float | None = None
    """Seconds from launching echo_latency.py until split-window had returned."""


class Server(Protocol):
    """A private server of either multiplexer (`PrivateTermhost`, `PrivateTmux`)."""

    base: list[str]
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 30) -> str: ...
    def start(self) -> None: ...
    def stop(self) -> None: ...


def succeeds(server: Server, *args: str) -> bool:
    """Whether one command on `server` exits with status 0."""
    result = subprocess.run(
        [*server.base, *args],
        env=server.env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=False,
        timeout=30,
    )
    return result.returncode == 0


LATENCY_LINE = re.compile(
    r"n=(\d+)/(\d+) p50=([\d.]+)ms p90=([\d.]+)ms p99=([\d.]+)ms max=([\d.]+)ms"
)


def echo_latency(server: Server, keys: int, flood: str | None) -> Latency:
    """One echo_latency.py run on `server` (which it starts), the flood pane added if asked."""
    command = [*server.base, "new-session", "-s", "lat", "cat"]
    flood_after: list[float] = []
    failures: list[BaseException] = []
    started = time.monotonic()

    def add_flood() -> None:
        assert flood is not None
        try:
            wait_until(lambda: succeeds(server, "has-session", "-t", "lat"), "session lat", SETTLE)
            server.run("split-window", "-d", "-t", "lat", flood)
            flood_after.append(time.monotonic() - started)
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    thread = threading.Thread(target=add_flood, name="flood") if flood else None
    try:
        process = subprocess.Popen(
            [sys.executable, str(ECHO_LATENCY), str(keys), "--", *command],
            env=server.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        if thread is not None:
            thread.start()
        try:
            # Each key waits for its echo at most 2 s: a bound, not an expectation.
            stdout, stderr = process.communicate(timeout=SETTLE + 30 + 2.1 * keys)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise
        if thread is not None:
            thread.join()
    finally:
        server.stop()
    if failures:
        raise RuntimeError(f"could not add the flood pane: {failures[0]}")
    match = LATENCY_LINE.search(stdout)
    if match is None:
        raise RuntimeError(f"echo_latency.py printed no figures: {stdout!r} {stderr!r}")
    seen, typed = int(match.group(1)), int(match.group(2))
    p50, p90, p99, longest = (float(match.group(index)) for index in range(3, 7))
    return Latency(
        match.group(0), seen, typed, p50, p90, p99, longest,
        flood_after[0] if flood_after else None,
    )  # fmt: skip


@dataclass
class Flood:
    """One timed `cat FILE` in a window shown on an attached client."""

    seconds: float
    size: int
    drawn: int
    """Bytes the multiplexer wrote to the client's terminal meanwhile."""
    last_line: str

    @property
    def mb_per_s(self) -> float:
        return self.size / self.seconds / 1e6


def wait_word(fifo: int, word: bytes, timeout: float) -> None:
    """Wait until the pane has written the line `word` to the FIFO."""
    deadline = time.monotonic() + timeout
    line = b""
    while not line.endswith(b"\n"):
        readable, _, _ = select.select([fifo], [], [], max(0, deadline - time.monotonic()))
        if not readable:
            raise TimeoutError(f"the flood pane did not say {word.decode()} within {timeout:g} s")
        line += os.read(fifo, 1)  # a byte at a time: a line must not swallow the next one
    if line != word + b"\n":
        raise RuntimeError(f"the flood pane said {line!r}, expected {word!r}")


def last_non_blank(text: str) -> str:
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.rstrip()
    return ""


class Watched:
    """A private server with a client attached to its session `flood`, for timed floods."""

    def __init__(self, server: Server, fifo: Path, timeout: float) -> None:
        self.server = server
        self.fifo = fifo
        self.timeout = timeout
        self.client: PtyClient | None = None

    def __enter__(self) -> Watched:
        self.server.start()
        try:
            size = ["-x", str(COLS), "-y", str(ROWS)]
            self.server.run(
                "new-session", "-d", "-s", "flood", *size, "printf READY; exec sleep 100000"
            )
            self.client = PtyClient(
                [*self.server.base, "attach", "-t", "flood"], self.server.env, cols=COLS, rows=ROWS
            )
            self.client.wait_for(self.client.watch(b"READY"), "the pane's READY", ATTACH_TIMEOUT)
            self.client.wait_quiet(0.5, ATTACH_TIMEOUT)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        self.server.stop()

    def measure(self, path: Path, fifo: int) -> Flood:
        assert self.client is not None
        say = f">{shlex.quote(str(self.fifo))}"
        script = (
            f"echo start {say}; cat {shlex.quote(str(path))}; echo done {say}; exec sleep 100000"
        )
        self.server.run("new-window", "-t", "flood:", script)
        wait_word(fifo, b"start", ATTACH_TIMEOUT)
        drawn = self.client.received
        start = time.perf_counter()
        wait_word(fifo, b"done", self.timeout)
        elapsed = time.perf_counter() - start
        drawn = self.client.received - drawn
        expected = _corpus.last_visible_line(path)
        last = ""

        def shows_last_line() -> bool:
            nonlocal last
            last = last_non_blank(self.server.run("capture-pane", "-p", "-t", "flood"))
            return last == expected

        try:
            # The FIFO is another channel than the pane's output: the multiplexer may not
            # have parsed its last read yet.
            wait_until(shows_last_line, "the file's last line on the pane", 5)
        except TimeoutError:
            pass  # reported as a MISMATCH
        self.server.run("kill-window", "-t", "flood")
        return Flood(elapsed, path.stat().st_size, drawn, last)


def floods(
    servers: dict[str, Server], path: Path, repeat: int, timeout: float
) -> dict[str, list[Flood]]:
    """`repeat` rounds, each server in turn, with a client attached to each throughout."""
    runs: dict[str, list[Flood]] = {name: [] for name in servers}
    with tempfile.TemporaryDirectory(prefix="termhost-bench-fifo-") as directory:
        fifo_path = Path(directory) / "done"
        os.mkfifo(fifo_path, 0o600)
        # Read-write, so that opening never blocks and no writer closing means EOF.
        fifo = os.open(fifo_path, os.O_RDWR | os.O_NONBLOCK)
        with ExitStack() as stack:
            stack.callback(os.close, fifo)
            watched = {
                name: stack.enter_context(Watched(server, fifo_path, timeout))
                for name, server in servers.items()
            }
            for round_ in range(1, repeat + 1):
                line = []
                for name, one in watched.items():
                    runs[name].append(one.measure(path, fifo))
                    flood = runs[name][-1]
                    line.append(
                        f"{name} {flood.mb_per_s:.2f} MB/s ({flood.drawn / 1e6:.2f} MB drawn)"
                    )
                print(f"round {round_}: " + ", ".join(line))
    return runs


def median_flood(runs: list[Flood]) -> Flood:
    """The run with the median rate (the upper one of an even count)."""
    return sorted(runs, key=lambda run: run.mb_per_s)[len(runs) // 2]


def tmux_version(executable: str) -> str:
    result = subprocess.run([executable, "-V"], capture_output=True, text=True, check=False)
    return result.stdout.strip().removeprefix("tmux ") or "(unknown)"


def report_latency(latency: dict[str, dict[str, Latency]]) -> None:
    print(
        f"{'':<15} {'keys seen':>9}  {'p50 ms':>7}  {'p90 ms':>7}  {'p99 ms':>7}  {'max ms':>7}"
        f"  {'flood p99 / idle p99':>20}"
    )
    for name, runs in latency.items():
        for kind, run in runs.items():
            factor = f"{run.p99 / runs['idle'].p99:19.2f}x" if kind == "flood" else f"{'':>20}"
            print(
                f"{name + ' ' + kind:<15} {f'{run.seen}/{run.typed}':>9}  {run.p50:7.2f}  "
                f"{run.p90:7.2f}  {run.p99:7.2f}  {run.max:7.2f}  {factor}"
            )
    if "tmux" in latency:
        termhost, tmux = latency["termhost"], latency["tmux"]
        for kind in ("idle", "flood"):
            print(
                f"termhost/tmux {kind + ':':<6} p50 {termhost[kind].p50 / tmux[kind].p50:.2f}x, "
                f"p99 {termhost[kind].p99 / tmux[kind].p99:.2f}x"
            )
    for name, runs in latency.items():
        after = runs["flood"].flood_after
        if after is None or after > SETTLE:
            print(f"warning: {name}'s flood pane started {after} s in, after typing began")


def report_floods(runs: dict[str, list[Flood]], path: Path) -> None:
    expected = _corpus.last_visible_line(path)
    print(f"{'':<9} {'MB/s':>7}  {'s':>6}  {'MB drawn to client':>18}")
    for name, floods_ in runs.items():
        flood = median_flood(floods_)
        print(f"{name:<9} {flood.mb_per_s:7.2f}  {flood.seconds:6.2f}  {flood.drawn / 1e6:18.2f}")
    if "tmux" in runs:
        termhost, tmux = median_flood(runs["termhost"]), median_flood(runs["tmux"])
        print(f"termhost/tmux {termhost.mb_per_s / tmux.mb_per_s:.3f}x")
    for name, floods_ in runs.items():
        for index, flood in enumerate(floods_, 1):
            verdict = "OK      " if flood.last_line == expected else "MISMATCH"
            print(f"{verdict}  {name} round {index}: last pane line = file's last line")
            if flood.last_line != expected:
                print(f"            pane: {flood.last_line!r}\n            file: {expected!r}")


def verdicts(latency: dict[str, dict[str, Latency]], runs: dict[str, list[Flood]]) -> None:
    idle, flooded = latency["termhost"]["idle"], latency["termhost"]["flood"]
    factor = flooded.p99 / idle.p99
    complete = flooded.seen == flooded.typed
    print(
        f"{'PASS' if factor <= TARGET_FLOOD_FACTOR and complete else 'FAIL'}  termhost echo "
        f"p99 under flood <= {TARGET_FLOOD_FACTOR:g}x idle p99 ({factor:.2f}x: {flooded.p99:.2f}"
        f" vs {idle.p99:.2f} ms, {flooded.seen}/{flooded.typed} keys seen)"
    )
    what = f"termhost flood throughput with a client attached >= {TARGET_THROUGHPUT:g}x tmux"
    if "tmux" not in runs:
        print(f"SKIP  {what} (no tmux)")
        return
    termhost, tmux = median_flood(runs["termhost"]), median_flood(runs["tmux"])
    speedup = termhost.mb_per_s / tmux.mb_per_s
    print(
        f"{'PASS' if speedup >= TARGET_THROUGHPUT else 'FAIL'}  {what} ({speedup:.3f}x: "
        f"{termhost.mb_per_s:.2f} vs {tmux.mb_per_s:.2f} MB/s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--keys", type=int, default=300, help="keys typed per latency run (default 300)"
    )
    parser.add_argument("--flood", default="yes", help="the flooding pane's command (default: yes)")
    parser.add_argument(
        "--mb", type=float, default=20, help="size of the catted log in MB (default 20)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="throughput rounds per multiplexer (default 3)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=300,
        help="seconds a cat of the log may take before the run errors (default 300)",
    )
    args = parser.parse_args()
    if args.keys < 1 or args.mb <= 0 or args.repeat < 1:
        parser.error("--keys, --mb and --repeat must be positive")
    if not ECHO_LATENCY.exists():
        sys.exit(f"{ECHO_LATENCY} not found: it is the reference method for the latency")

    executable = shutil.which("tmux")
    if executable is None:
        print("tmux is not installed: skipping the tmux reference", file=sys.stderr)
    path = _corpus.plain_log(args.mb)
    print(
        f"python {sys.version.split()[0]} ({sys.executable}), {COLS}x{ROWS}, {os.cpu_count()} "
        f"CPUs, tmux {tmux_version(executable) if executable else '(none)'}; {args.keys} keys "
        f"per latency run, flood `{args.flood}`; log {path} ({path.stat().st_size / 1e6:.1f} MB)"
    )
    print()

    def servers(name: str) -> dict[str, Server]:
        made: dict[str, Server] = {"termhost": PrivateTermhost(name, cols=COLS, rows=ROWS)}
        if executable is not None:
            made["tmux"] = PrivateTmux(name, executable=executable, cols=COLS, rows=ROWS)
        return made

    latency: dict[str, dict[str, Latency]] = {}
    for name, server in servers("lat-idle").items():
        latency[name] = {"idle": echo_latency(server, args.keys, None)}
        print(f"{name} idle:  {latency[name]['idle'].line}")
    for name, server in servers("lat-flood").items():
        latency[name]["flood"] = echo_latency(server, args.keys, args.flood)
        print(f"{name} flood: {latency[name]['flood'].line}")
    print()
    report_latency(latency)
    print()

    runs = floods(servers("flood"), path, args.repeat, args.timeout)
    print()
    report_floods(runs, path)
    print()
    verdicts(latency, runs)


if __name__ == "__main__":
    main()
