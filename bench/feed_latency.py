"""Small-write latency: feeding one echoed keystroke to a full screen and finding what changed.

Typing is the case users feel: each key the shell echoes arrives as a one-byte write, and
before anything can be redrawn the emulator must parse it and the renderer must learn which
rows changed. Per-feed overhead (call layers, parser setup, whole-screen scans) dominates
there, not throughput. The project target is a median of at most 50 us for one feed of
b"x" plus the changed-rows lookup, on a 120x40 screen full of text.

Setup (untimed): `Terminal(120, 40)`, 39 rows of log text from `bench/_corpus.py` and a
shell prompt on the last row, the cursor after it. Each of `--iterations` samples (after
100 warm-ups) times, with perf_counter_ns:

  feed(b"x")      the echoed key
  changed rows    `t.dirty` (a set of row indexes) if the build has it, then
                  `t.clear_dirty()` (or `t.dirty.clear()` if there is no such method), as
                  a renderer does after drawing; otherwise the rows of `t.display` that differ from
                  the previous frame's (the renderer's cached copy, taken untimed)

then, untimed, feeds b"\\b" to put the cursor back, and reads (and forgets) the rows that
changed, so every sample starts from the same state. The method used is printed, and every
sample checks that the changed rows are exactly the cursor's row.

tmux has no in-process equivalent of this figure. As a reference, the script runs
/work/shared/bench/echo_latency.py (keystroke-to-screen latency, measured from outside
through a PTY and a pyte-emulated outer terminal) for `tmux new-session cat` on a private
server, and for bare `cat` without a multiplexer (the harness's own floor). That is an
end-to-end figure (PTY round trips, tmux's redraw, the outer emulator), not the same quantity
as termhost's; the comparable termhost figure is the end-to-end echo latency of the UI.

Benchmarks report, they do not gate: the exit status is 0 whatever the PASS/FAIL lines say,
unless something errored.

Run: `.venv/bin/python bench/feed_latency.py [--iterations 2000] [--tmux-keys 200]`.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import _corpus
from _tmux import PrivateTmux, environment

from termhost.terminal import Terminal

COLS, ROWS = 120, 40
WARMUP = 100
TARGET_MEDIAN_US = 50.0
PROMPT = "user@host:~/src/termhost$ "
ECHO_LATENCY = Path("/work/shared/bench/echo_latency.py")


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def full_screen() -> Terminal:
    terminal = Terminal(COLS, ROWS)
    text = "\r\n".join(_corpus.plain_lines(ROWS - 1)) + "\r\n" + PROMPT
    terminal.feed(text.encode())
    return terminal


def changed_rows_probe(terminal: Terminal) -> tuple[str, Callable[[], set[int]]]:
    """The way this build tells which rows changed, and a function returning (and resetting)
    the rows changed since its last call."""
    if getattr(terminal, "dirty", None) is not None:
        clear = getattr(terminal, "clear_dirty", None)

        def from_dirty() -> set[int]:
            rows = set(terminal.dirty)
            if clear is not None:
                clear()
            else:
                terminal.dirty.clear()  # a build whose `dirty` is the live set
            return rows

        how = "t.clear_dirty()" if clear is not None else "t.dirty.clear()"
        return f"t.dirty, then {how}", from_dirty

    previous = terminal.display

    def from_display() -> set[int]:
        nonlocal previous
        current = terminal.display
        pairs = enumerate(zip(previous, current, strict=True))
        rows = {row for row, (old, new) in pairs if old != new}
        previous = current
        return rows

    return "t.display compared with the previous frame (no t.dirty in this build)", from_display


def measure(iterations: int) -> tuple[str, list[float], int]:
    """(method, samples in us, samples whose changed rows were not just the cursor row)."""
    terminal = full_screen()
    method, changed_rows = changed_rows_probe(terminal)
    changed_rows()  # forget the set-up writes
    cursor_row = terminal.cursor[1]
    samples: list[float] = []
    wrong = 0
    for i in range(-WARMUP, iterations):
        start = time.perf_counter_ns()
        terminal.feed(b"x")
        rows = changed_rows()
        elapsed = time.perf_counter_ns() - start
        terminal.feed(b"\b")
        changed_rows()
        if i >= 0:
            samples.append(elapsed / 1000)
            wrong += rows != {cursor_row}
    return method, samples, wrong


def echo_latency(keys: int, command: list[str], env: dict[str, str]) -> str:
    """echo_latency.py's summary line for `command`, or what went wrong."""
    try:
        result = subprocess.run(
            [sys.executable, str(ECHO_LATENCY), str(keys), "--", *command],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60 + keys * 2.5,  # it waits up to 2 s for each key it does not see
        )
    except subprocess.TimeoutExpired:
        return "timed out"
    lines = result.stdout.strip().splitlines()
    if result.returncode != 0 or not lines:
        return f"failed (exit {result.returncode}): {result.stderr.strip()[-300:]}"
    return lines[-1]


def tmux_reference(keys: int) -> list[tuple[str, str]]:
    """echo_latency.py for tmux on a private server and for bare cat (its floor)."""
    if not ECHO_LATENCY.exists():
        return [("tmux", f"{ECHO_LATENCY} not found")]
    rows = [("bare cat, no multiplexer", echo_latency(keys, ["cat"], environment()))]
    executable = shutil.which("tmux")
    if executable is None:
        return [*rows, ("tmux", "not installed")]
    # Not started here: echo_latency.py's `tmux new-session cat` client starts the server.
    tmux = PrivateTmux("fl", executable=executable)
    try:
        tmux_line = echo_latency(keys, [*tmux.base, "new-session", "cat"], tmux.env)
        rows.append(("tmux new-session cat", tmux_line))
    finally:
        # echo_latency.py SIGTERMs the tmux client only: the server and its session stay.
        tmux.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--iterations", type=int, default=2000, help="timed feeds (default 2000)")
    parser.add_argument(
        "--tmux-keys",
        type=int,
        default=200,
        help="keys echo_latency.py types for the tmux reference, 0 to skip (default 200)",
    )
    args = parser.parse_args()
    if args.iterations < 100:
        parser.error("--iterations must be at least 100 (the p99 needs them)")

    print(
        f"python {sys.version.split()[0]} ({sys.executable}), {COLS}x{ROWS} full screen, "
        f"{args.iterations} samples after {WARMUP} warm-ups, {os.cpu_count()} CPUs"
    )
    method, samples, wrong = measure(args.iterations)
    print(f"changed rows from: {method}")
    print()
    median = statistics.median(samples)
    label = 'feed(b"x") + changed rows'
    print(f"{label:<28} {'median us':>9}  {'p99 us':>8}  {'min us':>7}")
    print(
        f"{'termhost Terminal':<28} {median:9.1f}  {percentile(samples, 0.99):8.1f}"
        f"  {min(samples):7.1f}"
    )

    if args.tmux_keys > 0:
        print()
        print(
            "tmux reference: end-to-end keystroke echo (echo_latency.py, "
            f"{args.tmux_keys} keys), not the same quantity as the figure above:"
        )
        for name, line in tmux_reference(args.tmux_keys):
            print(f"  {name:<26} {line}")
    else:
        print(
            "\ntmux reference skipped: the tmux comparison for this figure is the end-to-end "
            "echo latency measured in the UI issue"
        )

    print()
    if wrong:
        print(f"MISMATCH  {wrong} of {len(samples)} samples changed rows other than the cursor's")
    else:
        print("OK        every sample changed exactly the cursor's row")
    passed = median <= TARGET_MEDIAN_US
    print(f"{'PASS' if passed else 'FAIL'}  median <= {TARGET_MEDIAN_US:g} us ({median:.1f} us)")


if __name__ == "__main__":
    main()
