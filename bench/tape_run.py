"""Tape run time for a 20-command tape, as a user or CI runs it: `termhost tape FILE.tape`.

The issue: "Tape run time for a 20-command tape: report it". A tape is a scripted
recording whose delays are real (TypingSpeed, Sleep, the shell's own time), so the figure
is the wall time of the whole command, from starting `python -m termhost tape` to its exit:
interpreter and imports, the shell's start and its first prompt, the commands, the shell's
end and the outputs written. The tape is five rounds of

    Type "echo round N"   Enter   Wait   Expect+Screen /round N/

against bash (the runner's default shell), 80x24, in three variants:

  recording    TypingSpeed 50ms (the default), Output .cast: a typical scripted demo;
               the typing alone is 5 x 13 characters x 50 ms = 3.25 s of it
  golden       TypingSpeed 0, Output .cast and .txt: a CI golden test; the runner settles
               (SETTLE_QUIET without output) after every command to take its screen
  bare         TypingSpeed 0, Output .cast: the runner's own cost, nothing scripted
  pictures     TypingSpeed 50ms, Output .gif and .webp: a README's demo; the frames
               follow the tape's clock, so the typing costs no wall time, but each key's
               screen is taken once settled (30 ms after a character's echo, 0.1 s after
               another key's output), and the pictures are drawn and encoded at the end

Each variant runs `--runs` times (round-robin, so that machine noise hits all alike); the
median, the fastest and the slowest are printed. No other tape runner is installed here to
compare with (VHS needs a browser and ffmpeg). Benchmarks report, they do not gate.

Run: `.venv/bin/python bench/tape_run.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROUNDS = 5
COMMANDS_PER_ROUND = 4

VARIANTS = {
    "recording": ("50ms", ("demo.cast",)),
    "golden": ("0", ("demo.cast", "demo.txt")),
    "bare": ("0", ("demo.cast",)),
    "pictures": ("50ms", ("demo.gif", "demo.webp")),
}


def tape(speed: str, outputs: tuple[str, ...]) -> str:
    lines = [f"Output {output}" for output in outputs] + [f"Set TypingSpeed {speed}"]
    for number in range(1, ROUNDS + 1):
        lines += [f'Type "echo round {number}"', "Enter", "Wait", f"Expect+Screen /round {number}/"]
    return "\n".join(lines) + "\n"


def run_once(path: str) -> float:
    """Seconds for one `termhost tape`; a failing run ends the benchmark."""
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "termhost", "tape", "-q", path],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"tape_run: {path} failed ({result.returncode}): {result.stderr.strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each variant (default 5)")
    args = parser.parse_args()
    samples: dict[str, list[float]] = {name: [] for name in VARIANTS}
    with tempfile.TemporaryDirectory(prefix="tape-run-bench-") as directory:
        paths = {}
        for name, (speed, outputs) in VARIANTS.items():
            os.mkdir(os.path.join(directory, name))
            paths[name] = os.path.join(directory, name, "bench.tape")
            with open(paths[name], "w", encoding="utf-8") as file:
                file.write(tape(speed, outputs))
        for _ in range(args.runs):
            for name, path in paths.items():
                samples[name].append(run_once(path))
    print(f"termhost tape, {ROUNDS * COMMANDS_PER_ROUND}-command tape, bash, {args.runs} runs each")
    print(f"{'variant':<10} {'median':>8} {'min':>8} {'max':>8}")
    for name, times in samples.items():
        print(
            f"{name:<10} {statistics.median(times):>7.2f}s {min(times):>7.2f}s {max(times):>7.2f}s"
        )


if __name__ == "__main__":
    main()
