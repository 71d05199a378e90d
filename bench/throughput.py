"""Output throughput: how fast a pane consumes `cat BIGFILE`, termhost vs tmux vs the raw PTY.

A pane's emulator sits between the program and the PTY: when a build log or `cat` of a big
file scrolls past, the program can only write as fast as the emulator drains the master, so
the emulator's parse-and-update speed is the program's speed. The project target is that
termhost's emulator keeps up with tmux's: termhost >= 1.0x tmux on both inputs below.

For each of two files from `bench/_corpus.py` (a plain log and the same log with SGR colours
as real tools emit them: basic, 256-colour and truecolor fields, bold, dim, underline; about
100 visible characters a line, `--mb` MB each), the figure is MB/s = file size / wall time
from the launch until the output has been consumed and the child reaped:

  termhost   `cat FILE` on a real 120x40 PTY started with termhost.process.spawn_in_pty; one
             loop reads the master (os.read, 64 KiB) and feeds every chunk to
             `Terminal(120, 40, history_limit=2000)` until EOF/EIO, then reaps the child
  tmux       a private tmux server (own socket, no config, history-limit 2000, 120x40),
             started untimed; timed: `tmux new-window -d 'stty -echo; cat FILE; tmux
             wait-for -S bench-done'` + `tmux wait-for bench-done`. cat can only finish once
             tmux has drained the pane's PTY, so this is tmux's throughput (plus two client
             round trips, a few ms)
  raw PTY    /work/shared/bench/pty_raw.py FILE: a bare Python loop draining a PTY that cat
             writes into, nothing done with the bytes. The physical limit of this machine

Every termhost feed() call (and the final flush) is timed too: the median, p99 and longest
call say how long feeding a flood holds a server's event loop at once (the pane reader
feeds the same 64 KiB reads, and the emulator flushes every PENDING_LIMIT bytes).

A fast emulator that drops output must not look good, so after each run the last non-blank
line of the final screen (termhost's display, tmux's capture-pane) is compared with the
file's last line (OK/MISMATCH), and termhost's scrollback length is printed (2000 once
scrollback exists; until then the build has no `Terminal.history` and it says so). tmux's
`history_size` is printed beside it for reference: tmux trims 10% of the limit at a time
when it is reached, so it reads between 1800 and 2000.

The file is run `--repeat` times (default 3), raw PTY, tmux and termhost in turn each
round, so that a slow spell of the machine hits all three; each round's figures are
printed and the table shows the median round of each (the rates vary by about 30% from
run to run here, tmux's and the raw PTY's included).

With `--tiled4` (bench/_tiled.py) the file is catted in the active one of 4 panes in the
tiled layout of a 120x40 window, with `set -g mouse on` and the status bar on:

  termhost   the emulator alone, as above, at the size termhost's tiled layout gives that
             pane (asked of a private termhost server: 59x19). Mouse and status bar are
             the server's and the client's business, not the emulator's: this side changes
             only by the pane's size
  tmux       a window of 4 tiled panes, the three others `exec sleep 1000`, made before the
             catting pane starts: its script first waits on `tmux wait-for bench-go`, and
             the timed part runs from `wait-for -S bench-go` to `wait-for bench-done`

The log's lines (about 100 characters) wrap in a 59-column pane: the checks compare the
pane's rows with the file's last lines wrapped at the pane's width.

Benchmarks report, they do not gate: the exit status is 0 whatever the PASS/FAIL lines say,
unless something errored. A termhost run that exceeds `--timeout` is stopped (cat killed)
and reported at the rate it reached, marked as a timeout.

Run: `.venv/bin/python bench/throughput.py [--mb 50] [--repeat 3] [--timeout 900] [--tiled4]`.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import _corpus
import _tiled
from _termhost import PrivateTermhost
from _tmux import PrivateTmux

from termhost.process import Command, spawn_in_pty
from termhost.terminal import Terminal

COLS, ROWS = 120, 40
HISTORY_LIMIT = 2000
READ_SIZE = 65536
TARGET_RATIO = 1.0
PTY_RAW = Path("/work/shared/bench/pty_raw.py")
ENV = {"PATH": "/usr/bin:/bin"}


@dataclass
class Run:
    """One measured consumption of a file."""

    seconds: float
    consumed: int
    """Bytes of the file's size that count for the rate (all of it, unless timed out)."""
    last_line: str | None = None
    """Last non-blank line of the final screen (None: not checked)."""
    history: int | None = None
    """Scrollback length afterwards (None: no scrollback in this build)."""
    tail: list[str] | None = None
    """The newest ROWS scrollback lines and the screen, trailing blank rows dropped."""
    tail_from_history: int = 0
    """How many lines of `tail` came from the scrollback."""
    timed_out: bool = False
    call_ms: list[float] | None = None
    """termhost only: the duration of every feed() and the final flush(), sorted."""
    width: int = COLS
    """The pane's columns: the file's lines wrap beyond them."""

    @property
    def mb_per_s(self) -> float:
        return self.consumed / self.seconds / 1e6


def last_non_blank(lines: list[str]) -> str:
    for line in reversed(lines):
        if line.strip():
            return line.rstrip()
    return ""


def without_trailing_blanks(lines: list[str]) -> list[str]:
    stripped = [line.rstrip() for line in lines]
    while stripped and not stripped[-1]:
        stripped.pop()
    return stripped


async def run_termhost(path: Path, timeout: float, cols: int = COLS, rows: int = ROWS) -> Run:
    size = path.stat().st_size
    terminal = Terminal(cols, rows, history_limit=HISTORY_LIMIT)
    read = 0
    timed_out = False
    elapsed = 0.0
    calls: list[float] = []
    start = time.perf_counter()
    deadline = start + timeout
    child, master = await spawn_in_pty(Command("cat", [str(path)], env=ENV), cols, rows)
    try:
        while True:
            try:
                chunk = os.read(master, READ_SIZE)
            except OSError as error:
                if error.errno != errno.EIO:
                    raise
                break  # EIO: the slave side is closed, cat is gone
            if not chunk:
                break
            if timed_out:
                continue  # draining what cat wrote before it was killed
            read += len(chunk)
            called = time.perf_counter()
            terminal.feed(chunk)
            calls.append(time.perf_counter() - called)
            if time.perf_counter() > deadline:
                timed_out = True
                elapsed = time.perf_counter() - start
                child.kill()
        await child.wait()
        # Output still held by lazy feeding counts: the clock stops once it is emulated.
        flush = getattr(terminal, "flush", None)
        if flush is not None:
            called = time.perf_counter()
            flush()
            calls.append(time.perf_counter() - called)
        if not timed_out:
            elapsed = time.perf_counter() - start
    finally:
        os.close(master)
        if child.returncode is None:
            child.kill()
            await child.wait()
    history = getattr(terminal, "history", None)
    newest = [] if history is None else history.lines(max(0, len(history) - rows), len(history))
    # The PTY turns each "\n" into "\r\n": count only the file's bytes towards the rate.
    consumed = size if not timed_out else int(read * size / (size + count_lines(path)))
    return Run(
        seconds=elapsed,
        consumed=consumed,
        last_line=last_non_blank(terminal.display),
        history=None if history is None else len(history),
        tail=[line.rstrip() for line in newest] + without_trailing_blanks(terminal.display),
        tail_from_history=len(newest),
        timed_out=timed_out,
        call_ms=sorted(1e3 * seconds for seconds in calls),
        width=cols,
    )


def count_lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def run_raw(path: Path, timeout: float) -> float | None:
    """MB/s printed by pty_raw.py, or None if it is missing or printed no figure."""
    if not PTY_RAW.exists():
        print(f"{PTY_RAW} not found: no raw PTY figure", file=sys.stderr)
        return None
    result = subprocess.run(
        [sys.executable, str(PTY_RAW), str(path)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    match = re.search(r"=\s*([\d.]+)\s*MB/s", result.stdout)
    if match is None:
        print(f"pty_raw.py printed no MB/s figure: {result.stdout!r}", file=sys.stderr)
        return None
    return float(match.group(1))


class Tmux(PrivateTmux):
    """The private tmux server (120x40, history-limit 2000), catting a file in a new pane;
    with `pane` (`--tiled4`: the size termhost's tiled layout gives the catting pane), in
    the active one of 4 tiled panes, with the mouse and the status bar on."""

    def __init__(self, executable: str, pane: tuple[int, int] | None = None) -> None:
        super().__init__(
            "tp", executable=executable, cols=COLS, rows=ROWS, history_limit=HISTORY_LIMIT
        )
        self.pane = pane
        self.layout = ""
        """The panes of the last tiled window, as `_tiled.describe` gives them."""

    def start(self) -> None:
        super().start()
        if self.pane is not None:
            _tiled.chrome_on(self)

    def measure(self, path: Path, timeout: float) -> Run:
        inner = shlex.join([self.executable, "-L", self.socket, "wait-for", "-S", "bench-done"])
        # The pane stays (sleeping) after signalling, so its screen can be captured.
        script = f"stty -echo; cat {shlex.quote(str(path))}; {inner}; exec sleep 1000"
        if self.pane is not None:
            gate = shlex.join([self.executable, "-L", self.socket, "wait-for", "bench-go"])
            script = f"{gate}; {script}"
        start = time.perf_counter()
        pane = self.run("new-window", "-d", "-P", "-F", "#{pane_id}", script).strip()
        try:
            if self.pane is not None:
                _tiled.tile(self, pane, ["exec sleep 1000"] * 3)
                self.layout = _tiled.describe(self, pane)
                start = time.perf_counter()
                self.run("wait-for", "-S", "bench-go")
            self.run("wait-for", "bench-done", timeout=timeout)
            elapsed = time.perf_counter() - start
            shown = self.run("display-message", "-p", "-t", pane, "#{pane_width}x#{pane_height}")
            cols, rows = (int(n) for n in shown.strip().split("x"))
            expected_size = self.pane or (COLS, ROWS)
            if (cols, rows) != expected_size:
                print(
                    f"warning: tmux pane is {cols}x{rows}, termhost's "
                    f"{expected_size[0]}x{expected_size[1]}",
                    file=sys.stderr,
                )
            # wait-for arrives on another connection than the pane's output: give tmux a
            # moment to parse its last read before the screen is checked.
            expected = _tiled.wrap([_corpus.last_visible_line(path)], cols)[-1]
            for _ in range(20):
                last = last_non_blank(self.run("capture-pane", "-p", "-t", pane).splitlines())
                if last == expected:
                    break
                time.sleep(0.05)
            history = int(self.run("display-message", "-p", "-t", pane, "#{history_size}"))
            captured = self.run("capture-pane", "-p", "-S", f"-{rows}", "-t", pane)
        finally:
            self.run("kill-window" if self.pane is not None else "kill-pane", "-t", pane)
        return Run(
            elapsed,
            path.stat().st_size,
            last_line=last,
            history=history,
            tail=without_trailing_blanks(captured.splitlines()),
            tail_from_history=min(rows, history),
            width=cols,
        )


def tiled_pane() -> tuple[int, int]:
    """The size termhost's tiled layout gives the active one of 4 panes in a COLSxROWS
    window (`--tiled4`), asked of a private termhost server."""
    with PrivateTermhost("tp-tiled", cols=COLS, rows=ROWS) as termhost:
        _tiled.tile(termhost, "idle", ["exec sleep 100000"] * 3)
        shown = termhost.run("display-message", "-p", "-t", "idle", "#{pane_width}x#{pane_height}")
    cols, rows = (int(n) for n in shown.strip().split("x"))
    return cols, rows


def warm(path: Path) -> None:
    """Read the file once, so every method reads it from the page cache."""
    with open(path, "rb") as f:
        while f.read(1 << 20):
            pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--mb", type=float, default=50, help="size of each input file in MB (default 50)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=900,
        help="seconds after which a termhost run is stopped (default 900)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="rounds per file, each running raw PTY, tmux and termhost in turn; the median "
        "round of each is reported (default 3)",
    )
    parser.add_argument("--tiled4", action="store_true", help=_tiled.HELP)
    args = parser.parse_args()
    if args.mb <= 0:
        parser.error("--mb must be positive")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    files = {
        "plain": _corpus.plain_log(args.mb),
        "coloured": _corpus.coloured_log(args.mb),
    }
    executable = shutil.which("tmux")
    pane = tiled_pane() if args.tiled4 else None
    size = pane or (COLS, ROWS)
    tmux = Tmux(executable, pane) if executable else None
    if tmux is None:
        print("tmux is not installed: skipping the tmux reference", file=sys.stderr)
    print(
        f"python {sys.version.split()[0]} ({sys.executable}), {COLS}x{ROWS}, history "
        f"{HISTORY_LIMIT}, {os.cpu_count()} CPUs, tmux {tmux_version(executable)}"
    )
    if pane is not None:
        print(
            f"4 tiled panes, mouse and status on: termhost's emulator at {pane[0]}x{pane[1]}, "
            "the size of the catting pane in termhost's tiled layout"
        )
    for name, path in files.items():
        print(f"{name:<8} {path} ({path.stat().st_size / 1e6:.1f} MB)")
    print()

    results: dict[str, dict[str, Run | float | None]] = {}
    with tmux or nullcontext():
        for name, path in files.items():
            warm(path)
            raws: list[float] = []
            tmux_runs: list[Run] = []
            termhost_runs: list[Run] = []
            for round_ in range(1, args.repeat + 1):
                raw = run_raw(path, args.timeout)
                raws += [raw] if raw is not None else []
                if tmux is not None:
                    tmux_runs.append(tmux.measure(path, args.timeout))
                termhost_runs.append(asyncio.run(run_termhost(path, args.timeout, *size)))
                if tmux is not None and tmux.layout and round_ == 1:
                    print(f"tmux panes: {tmux.layout}")
                versus = f"tmux {tmux_runs[-1].mb_per_s:.1f}" if tmux_runs else "no tmux"
                print(
                    f"round {round_} {name:<8} termhost {termhost_runs[-1].mb_per_s:.1f} MB/s, "
                    f"{versus}, raw PTY {raw if raw is not None else 'n/a'}"
                )
            results[name] = {
                "termhost": median(termhost_runs),
                "tmux": median(tmux_runs) if tmux_runs else None,
                "raw": sorted(raws)[len(raws) // 2] if raws else None,
            }
    print()
    report(files, results)


def median(runs: list[Run]) -> Run:
    """The run with the median rate (the upper one of an even count)."""
    return sorted(runs, key=lambda run: run.mb_per_s)[len(runs) // 2]


def tmux_version(executable: str | None) -> str:
    if executable is None:
        return "(none)"
    result = subprocess.run([executable, "-V"], capture_output=True, text=True, check=False)
    return result.stdout.strip().removeprefix("tmux ") or "(unknown)"


def check_tail(
    who: str, name: str, path: Path, tail: list[str], from_history: int, width: int
) -> None:
    """The newest scrollback lines and the screen must be the file's last lines, in order
    (wrapped at the pane's `width`)."""
    expected = _tiled.wrap(_corpus.tail_visible_lines(path, len(tail)), width)[-len(tail) :]
    verdict = "OK      " if tail == expected else "MISMATCH"
    print(
        f"{verdict}  {who} {name}: newest {from_history} scrollback lines + "
        f"{len(tail) - from_history} screen lines = file's last {len(tail)}"
    )
    for index, (got, want) in enumerate(zip(tail, expected, strict=False)):
        if got != want:
            print(f"            line {index}: {got!r}\n            file:    {want!r}")
            break


def report(files: dict[str, Path], results: dict[str, dict[str, Run | float | None]]) -> None:
    header = (
        f"{'file':<9} {'MB':>6}  {'termhost MB/s':>13}  {'tmux MB/s':>9}  {'raw PTY MB/s':>12}"
        f"  {'termhost/tmux':>13}"
    )
    print(header)
    for name, row in results.items():
        termhost, tmux, raw = row["termhost"], row["tmux"], row["raw"]
        assert isinstance(termhost, Run)
        mark = " (timeout)" if termhost.timed_out else ""
        tmux_rate = f"{tmux.mb_per_s:9.1f}" if isinstance(tmux, Run) else f"{'n/a':>9}"
        raw_rate = f"{raw:12.0f}" if isinstance(raw, float) else f"{'n/a':>12}"
        ratio = f"{termhost.mb_per_s / tmux.mb_per_s:12.3f}x" if isinstance(tmux, Run) else "n/a"
        print(
            f"{name:<9} {files[name].stat().st_size / 1e6:6.1f}  {termhost.mb_per_s:13.2f}  "
            f"{tmux_rate}  {raw_rate}  {ratio:>13}{mark}"
        )

    print()
    for name, row in results.items():
        for who in ("termhost", "tmux"):
            run = row[who]
            if not isinstance(run, Run):
                continue
            expected = _tiled.wrap([_corpus.last_visible_line(files[name])], run.width)[-1]
            if run.timed_out:
                print(f"SKIP      {who} {name}: last screen line not checked (timed out)")
                continue
            verdict = "OK      " if run.last_line == expected else "MISMATCH"
            print(f"{verdict}  {who} {name}: last screen line = file's last line")
            if run.last_line != expected:
                print(f"            screen: {run.last_line!r}\n            file:   {expected!r}")
            if run.tail is not None and run.tail_from_history:
                check_tail(who, name, files[name], run.tail, run.tail_from_history, run.width)
        termhost = row["termhost"]
        assert isinstance(termhost, Run)
        tmux = row["tmux"]
        tmux_history = f" (tmux: {tmux.history})" if isinstance(tmux, Run) else ""
        if termhost.history is None:
            print(
                f"INFO      termhost {name}: scrollback not available in this build{tmux_history}"
            )
        else:
            verdict = "OK      " if termhost.history == HISTORY_LIMIT else "MISMATCH"
            print(
                f"{verdict}  termhost {name}: scrollback {termhost.history} lines, expected "
                f"{HISTORY_LIMIT}{tmux_history}"
            )

    print()
    for name, row in results.items():
        termhost = row["termhost"]
        assert isinstance(termhost, Run)
        if termhost.call_ms:
            calls = termhost.call_ms
            p99 = calls[min(len(calls) - 1, int(len(calls) * 0.99))]
            print(
                f"INFO      termhost {name}: {len(calls)} feed calls, median "
                f"{calls[len(calls) // 2]:.2f} ms, p99 {p99:.2f} ms, longest {calls[-1]:.2f} ms"
                " (how long one call holds the event loop)"
            )

    print()
    for name, row in results.items():
        termhost, tmux = row["termhost"], row["tmux"]
        assert isinstance(termhost, Run)
        what = f"termhost >= {TARGET_RATIO:g}x tmux on the {name} log"
        if not isinstance(tmux, Run):
            print(f"SKIP  {what} (no tmux)")
            continue
        speedup = termhost.mb_per_s / tmux.mb_per_s
        passed = speedup >= TARGET_RATIO and not termhost.timed_out
        print(
            f"{'PASS' if passed else 'FAIL'}  {what} ({speedup:.3f}x: {termhost.mb_per_s:.2f} vs "
            f"{tmux.mb_per_s:.1f} MB/s)"
        )


if __name__ == "__main__":
    main()
