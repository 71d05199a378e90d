"""Scrollback memory: bytes per stored history line, termhost vs tmux.

Every pane keeps up to `history-limit` lines of scrollback, and a server holds many panes
for days, so the cost of one stored line decides how much history termhost can afford. The
project target is at most 700 bytes per stored line of about 100 coloured characters.

The input is the first `--lines` (default 10,000) lines of the coloured log from
`bench/_corpus.py` (about 100 visible characters each, with basic, 256-colour and truecolor
SGR fields, bold, dim, underline), each ended with `\\r\\n`.

  termhost   `Terminal(120, 40, history_limit=20000)`; the lines are fed in 64 KiB chunks
             between two tracemalloc snapshots (after a gc.collect(), the input bytes
             allocated before the first one). Figure: the growth of traced memory divided
             by `len(t.history)`. The growth includes the 40 screen rows the input fills,
             so it slightly overstates the per-line cost (by about rows/lines, 0.4%).
  tmux       a private tmux server (own socket, no config, `history-limit 20000`, 120x40);
             a pane runs `stty -echo -onlcr; tmux wait-for go; cat FILE; tmux wait-for -S
             done; sleep`, so the bytes tmux parses are the ones termhost is fed. Figure:
             the server's VmRSS (/proc/PID/status) after the output minus before it (the
             pane already exists and idles), divided by the pane's `history_size`. RSS is
             page-granular and includes whatever the allocator keeps from I/O buffers, so
             it is an upper bound on tmux's cost, not an exact one.

Until the emulator has scrollback (`Terminal.history`, with `len()`), termhost's side says
"scrollback not available in this build" and its target line reads FAIL.

Benchmarks report, they do not gate: the exit status is 0 whatever the PASS/FAIL lines say,
unless something errored.

Run: `.venv/bin/python bench/scrollback_mem.py [--lines 10000]`.
"""

from __future__ import annotations

import argparse
import gc
import shlex
import shutil
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import _corpus
from _tmux import PrivateTmux

from termhost.terminal import Terminal

COLS, ROWS = 120, 40
HISTORY_LIMIT = 20000
READ_SIZE = 65536
TARGET_BYTES_PER_LINE = 700
TOP_SITES = 5


@dataclass
class Measure:
    """Memory grown while the lines went into the scrollback, and how many it stored."""

    grown: int
    history: int | None
    """Stored scrollback lines (None: this build has no scrollback)."""
    sites: list[tuple[str, int]]
    """The biggest allocation sites (file:line, bytes), termhost only."""

    @property
    def per_line(self) -> float | None:
        return None if not self.history else self.grown / self.history


def measure_termhost(lines: list[str]) -> Measure:
    data = "".join(line + "\r\n" for line in lines).encode()
    terminal = Terminal(COLS, ROWS, history_limit=HISTORY_LIMIT)
    ignore = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap*>"),
        tracemalloc.Filter(False, "<unknown>"),
    ]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot().filter_traces(ignore)
        for offset in range(0, len(data), READ_SIZE):
            terminal.feed(data[offset : offset + READ_SIZE])
        gc.collect()
        after = tracemalloc.take_snapshot().filter_traces(ignore)
    finally:
        tracemalloc.stop()
    stats = after.compare_to(before, "lineno")
    grown = sum(stat.size_diff for stat in stats)
    sites = [
        (f"{short(stat.traceback[0].filename)}:{stat.traceback[0].lineno}", stat.size_diff)
        for stat in sorted(stats, key=lambda stat: stat.size_diff, reverse=True)[:TOP_SITES]
    ]
    history = getattr(terminal, "history", None)
    return Measure(grown, None if history is None else len(history), sites)


def short(filename: str) -> str:
    """A source path relative to the repo, site-packages or the stdlib, for the sites."""
    repo = str(Path(__file__).resolve().parent.parent) + "/"
    if filename.startswith(repo):
        return filename[len(repo) :]
    for marker in ("/site-packages/", f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


class Tmux(PrivateTmux):
    """The private tmux server (120x40, history-limit 20000), measured around one pane."""

    def server_rss(self, pid: int) -> int:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError(f"no VmRSS in /proc/{pid}/status")

    def measure(self, path: Path, lines: int) -> tuple[Measure, int, int]:
        """(measure, RSS before, RSS after) for a pane that cats `path`."""
        pid = int(self.run("display-message", "-p", "#{pid}"))
        tmux = shlex.quote(self.executable)
        channel = f"-L {shlex.quote(self.socket)} wait-for"
        script = (
            f"stty -echo -onlcr; {tmux} {channel} go; cat {shlex.quote(str(path))}; "
            f"{tmux} {channel} -S done; exec sleep 1000"
        )
        pane = self.run("new-window", "-d", "-P", "-F", "#{pane_id}", script).strip()
        time.sleep(0.5)  # the pane's shell is now blocked in `wait-for go`
        before = self.server_rss(pid)
        self.run("wait-for", "-S", "go")
        self.run("wait-for", "done", timeout=120)
        # `done` arrives on another connection than the pane's output: wait until the
        # history stops growing (or is as long as the input can make it).
        expected = min(HISTORY_LIMIT, lines - ROWS + 1)
        history, stable = -1, 0
        for _ in range(100):
            size = int(self.run("display-message", "-p", "-t", pane, "#{history_size}"))
            stable = stable + 1 if size == history else 0
            history = size
            if history >= expected or stable >= 3:
                break
            time.sleep(0.05)
        after = self.server_rss(pid)
        return Measure(after - before, history, []), before, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--lines", type=int, default=10_000, help="coloured lines to store (default 10000)"
    )
    args = parser.parse_args()
    if not ROWS < args.lines <= HISTORY_LIMIT:
        parser.error(f"--lines must be more than {ROWS} and at most {HISTORY_LIMIT}")

    lines = _corpus.coloured_lines(args.lines)
    path = _corpus.coloured_log_lines(args.lines, crlf=True)
    visible = sum(len(_corpus.visible(line)) for line in lines) / len(lines)
    print(
        f"python {sys.version.split()[0]} ({sys.executable}), {COLS}x{ROWS}, history limit "
        f"{HISTORY_LIMIT}, {args.lines} lines, {visible:.0f} visible chars/line on average, "
        f"{path.stat().st_size / args.lines:.0f} bytes/line with SGR ({path})"
    )

    executable = shutil.which("tmux")
    tmux = (
        Tmux("sb", executable=executable, cols=COLS, rows=ROWS, history_limit=HISTORY_LIMIT)
        if executable
        else None
    )
    if tmux is None:
        print("tmux is not installed: skipping the tmux reference", file=sys.stderr)
    tmux_result: tuple[Measure, int, int] | None = None
    if tmux is not None:
        with tmux:
            tmux_result = tmux.measure(path, args.lines)
    termhost = measure_termhost(lines)
    print()
    report(args.lines, termhost, tmux_result)


def report(lines: int, termhost: Measure, tmux_result: tuple[Measure, int, int] | None) -> None:
    expected = min(HISTORY_LIMIT, lines - ROWS + 1)
    print(f"{'':<9} {'grown bytes':>12}  {'history lines':>13}  {'bytes/line':>10}")
    if termhost.history is None:
        print(
            f"{'termhost':<9} {termhost.grown:12,}  {'n/a':>13}  {'n/a':>10}"
            "  (scrollback not available in this build)"
        )
    else:
        per_line = termhost.per_line
        shown = f"{per_line:10.0f}" if per_line is not None else f"{'n/a':>10}"
        print(f"{'termhost':<9} {termhost.grown:12,}  {termhost.history:13}  {shown}")
    tmux: Measure | None = None
    if tmux_result is not None:
        tmux, before, after = tmux_result
        per_line = tmux.per_line
        shown = f"{per_line:10.0f}" if per_line is not None else f"{'n/a':>10}"
        print(
            f"{'tmux':<9} {tmux.grown:12,}  {tmux.history:13}  {shown}"
            f"  (server VmRSS {before / 1e6:.1f} -> {after / 1e6:.1f} MB)"
        )
    if termhost.per_line is not None and tmux is not None and tmux.per_line:
        print(f"termhost/tmux: {termhost.per_line / tmux.per_line:.2f}x")

    print(f"\ntermhost's biggest allocation sites while feeding (top {TOP_SITES}):")
    for site, size in termhost.sites:
        print(f"  {size:12,}  {site}")

    print()
    if termhost.history is not None and termhost.history != expected:
        print(f"MISMATCH  termhost stored {termhost.history} history lines, expected {expected}")
    if tmux is not None and tmux.history != expected:
        print(f"MISMATCH  tmux stored {tmux.history} history lines, expected {expected}")
    what = f"termhost <= {TARGET_BYTES_PER_LINE} bytes per stored scrollback line"
    if termhost.per_line is None:
        reason = (
            "scrollback not available in this build"
            if termhost.history is None
            else "the history is empty"
        )
        print(f"FAIL  {what} (not measured: {reason})")
    else:
        passed = termhost.per_line <= TARGET_BYTES_PER_LINE
        print(f"{'PASS' if passed else 'FAIL'}  {what} ({termhost.per_line:.0f} B/line)")


if __name__ == "__main__":
    main()
