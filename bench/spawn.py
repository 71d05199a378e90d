"""Launch latency of a pane's process: spawn helper vs direct spawn vs a bare interpreter.

termhost never runs Python between fork and exec (the server is threaded), so a pane is
started through the spawn helper (`termhost/process/_helper.py`): posix_spawn a fresh
`python -I -S _helper.py ...`, send it the environment over a socket, and let it do the
in-child setup (new session, controlling terminal, signal reset, parent-death signal)
before it execs the target. That costs one extra interpreter start per pane. The project
target is that this stays cheap: the helper's median launch of `/bin/true` must be at
most 25 ms, and at most 1.6x the median start of a bare interpreter (`python -I -S -c
pass`, empty environment), i.e. the helper's own work on top of the interpreter start
(imports, socket exchange, setup, exec) must stay small.

Each sample is the wall-clock time from the launch call until the child has exited and
been reaped (spawn + wait + reap), for:

  helper         `termhost.process.spawn(..., Setup.PIPE)`, launcher "helper"
  helper pty     `termhost.process.spawn_in_pty(...)` (includes opening the PTY)
  direct         `termhost.process.direct.spawn_direct(..., Setup.PIPE)`, launcher "direct"
  bare python    `sys.executable -I -S -c pass`, empty env, also through spawn_direct, so it
                 shares the posix_spawn + pidfd path and differs only in what runs

The methods run round-robin in one event loop, so machine noise hits all of them alike.
As the project's benchmarks always do, it prints tmux's figure from the same run beside
termhost's: `tmux new-window -d /bin/true` on a private server, timed as a whole CLI
round trip (it includes starting the tmux client, so it is a reference, not the same
quantity). Benchmarks report, they do not gate: the exit status is 0 whatever the
PASS/FAIL lines say, unless something errored.

Run: `.venv/bin/python bench/spawn.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import shutil
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from contextlib import nullcontext

from _tmux import PrivateTmux

import termhost.process
from termhost.process import Command, Setup
from termhost.process.direct import spawn_direct

WARMUP_RUNS = 5
TARGET_HELPER_MS = 25.0
TARGET_HELPER_RATIO = 1.6

TRUE = Command("/bin/true", env={"PATH": "/usr/bin:/bin"})
BARE_PYTHON = Command(sys.executable, args=("-I", "-S", "-c", "pass"), env={})

HELPER = "helper (spawn + wait)"
HELPER_PTY = "helper pty (spawn_in_pty + wait)"
DIRECT = "direct (spawn_direct + wait)"
FLOOR = "bare python -I -S -c pass"
TMUX = "tmux new-window (CLI round trip incl. client start)"

Sample = Callable[[], Awaitable[int]]
"""One timed launch; returns the elapsed nanoseconds."""


async def time_helper() -> int:
    start = time.perf_counter_ns()
    child = await termhost.process.spawn(TRUE, Setup.PIPE)
    status = await child.wait()
    elapsed = time.perf_counter_ns() - start
    assert child.launcher == "helper", child
    assert status.code == 0, status
    return elapsed


async def time_helper_pty() -> int:
    start = time.perf_counter_ns()
    child, master = await termhost.process.spawn_in_pty(TRUE)
    try:
        status = await child.wait()
    finally:
        os.close(master)
    elapsed = time.perf_counter_ns() - start
    assert child.launcher == "helper", child
    assert status.code == 0, status
    return elapsed


async def time_direct() -> int:
    start = time.perf_counter_ns()
    child = spawn_direct(TRUE, Setup.PIPE)
    status = await child.wait()
    elapsed = time.perf_counter_ns() - start
    assert child.launcher == "direct", child
    assert status.code == 0, status
    return elapsed


async def time_floor() -> int:
    # The floor goes through termhost's spawn_direct (posix_spawn + pidfd wait), like the
    # other methods, so the only difference from them is the program that runs.
    start = time.perf_counter_ns()
    child = spawn_direct(BARE_PYTHON, Setup.PIPE)
    status = await child.wait()
    elapsed = time.perf_counter_ns() - start
    assert status.code == 0, status
    return elapsed


class Tmux(PrivateTmux):
    """The private tmux server, timing one pane launch as tmux's CLI does it."""

    async def time_new_window(self) -> int:
        # Blocking on purpose: nothing else runs on the loop, and the client's whole
        # round trip (start, connect, pane spawned, reply, exit) is what is measured.
        start = time.perf_counter_ns()
        self.run("new-window", "-d", "/bin/true")
        return time.perf_counter_ns() - start


def p90(values: list[float]) -> float:
    """Nearest-rank 90th percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


async def measure(runs: int, tmux: Tmux | None) -> dict[str, list[float]]:
    """Round-robin the methods (tmux every fourth round), after uncounted warm-ups."""
    methods: dict[str, Sample] = {
        HELPER: time_helper,
        DIRECT: time_direct,
        FLOOR: time_floor,
        HELPER_PTY: time_helper_pty,
    }
    if tmux is not None:
        methods[TMUX] = tmux.time_new_window
    samples: dict[str, list[float]] = {name: [] for name in methods}
    for round_number in range(-WARMUP_RUNS, runs):
        for name, sample in methods.items():
            if name == TMUX and round_number >= 0 and round_number % 4:
                continue  # tmux gets N/4 counted runs (every method warms up alike)
            elapsed_ms = await sample() / 1e6
            if round_number >= 0:
                samples[name].append(elapsed_ms)
    return samples


def report(samples: dict[str, list[float]]) -> None:
    floor = statistics.median(samples[FLOOR])
    width = max(len(name) for name in samples)
    print(f"{'method':<{width}}  {'runs':>5}  {'median ms':>9}  {'p90 ms':>7}  {'/ floor':>7}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(
            f"{name:<{width}}  {len(values):>5}  {median:>9.2f}  {p90(values):>7.2f}"
            f"  {median / floor:>6.2f}x"
        )
    helper = statistics.median(samples[HELPER])
    checks = [
        (
            f"helper median <= {TARGET_HELPER_MS:g} ms",
            helper <= TARGET_HELPER_MS,
            f"{helper:.2f} ms",
        ),
        (
            f"helper median <= {TARGET_HELPER_RATIO:g}x bare python median",
            helper <= TARGET_HELPER_RATIO * floor,
            f"{helper / floor:.2f}x",
        ),
    ]
    print()
    for what, passed, actual in checks:
        print(f"{'PASS' if passed else 'FAIL'}  {what} ({actual})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--runs", type=int, default=200, help="counted runs per method (default 200)"
    )
    args = parser.parse_args()
    if args.runs < 4:
        parser.error("--runs must be at least 4 (tmux gets a quarter of them)")

    executable = shutil.which("tmux")
    tmux = Tmux("spawn", executable=executable, cols=80, rows=24) if executable else None
    if tmux is None:
        print("tmux is not installed: skipping the tmux reference line", file=sys.stderr)
    print(
        f"python {sys.version.split()[0]} ({sys.executable}), {args.runs} runs per method, "
        f"{WARMUP_RUNS} warm-up rounds, {os.cpu_count()} CPUs"
    )
    with tmux or nullcontext():
        samples = asyncio.run(measure(args.runs, tmux))
    print()
    report(samples)


if __name__ == "__main__":
    main()
