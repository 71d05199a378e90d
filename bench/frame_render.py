"""Frame render time: a 200x60 client of 4 tiled panes that all keep changing.

The issue: "frame render time for a 200x60 client with 4 busy panes, median and p99". A
frame is what the server does to bring a client's terminal up to date with its panes:
`AttachedClient._paint` (termhost/ui/app.py) asks the `Painter` for the changed cells of
every visible pane, encodes them and hands the bytes to the client's connection. Its
duration is measured inside the server, which is the only place it exists:

  server     this script started again as `frame_render.py --serve SOCKET --samples FILE`,
             a process of its own that wraps `AttachedClient._paint` and prompt_toolkit's
             `Renderer.render` (the chrome: borders and status bar) with a timer, then runs
             `termhost.serve.main(["--socket", SOCKET])`, the very entry point a
             client starts a server with (`python -m termhost.serve --socket ...`).
             It is not run inside the benchmark's process: the outer terminal's emulator
             would take the GIL from it, and the figures would be the benchmark's. The
             samples (start on CLOCK_MONOTONIC, duration by perf_counter, full paint or an
             echo's paint of one pane) are written to FILE when the server exits
  session    `new-session -d -s fr -x 200 -y 60 LOAD0`, then as bench/_tiled.py makes it:
             three `split-window -d -t fr LOADn`, `select-layout tiled`, `set -g mouse on`,
             `set -g status on`; the CLI reaches this server through its socket's name
             (`-L`) in a private TERMHOST_TMPDIR
  client     `termhost attach -t fr` on a 200x60 PTY whose output a thread feeds to a
             pyte.Screen(200, 60) (the outer terminal, as /work/shared/bench/echo_latency.py
             has it) as it reads it. pyte is slow: the share of the window it spent feeding
             is printed, since an outer terminal that cannot keep up holds the client back
  window     after `--warmup` s, `--seconds` s (default 10) of the panes' output; figures
             are over the paints that started in it

Loads (`--load`), pane n of 0..3 in colour n, each keeping its pane changing:

  lines      a shell loop: 20 numbered lines, then `sleep 0.02`, forever (about 900 lines
             a second a pane: a busy build log; every frame scrolls every pane)
  flood      the same loop without the sleep: as fast as the shell goes or the
             multiplexer drains the pane (not `yes`: its lines are all the same, so the
             screen of a scrolling pane would not change at all)
  top        `top -d 0.1`: full-screen redraws ten times a second, in place

Each pane runs `exec /bin/sh SCRIPT`, so that both multiplexers run the same shell (tmux
would run a bare command with $SHELL, termhost with /bin/sh).

Reported for termhost: full paints (every visible pane: the frames) and echo paints (one
pane, in the turn its output came: less than 4 KiB since the last paint) per second, the
median, p99 and longest duration of each, in wall time (what the client waits: time the
server was preempted counts, and 4 busy panes compete for the CPUs) and in CPU time of the
server's thread (time.thread_time: the work itself), and the chrome renders alike; the
server's and the client's CPU (% of a core); what reached the outer terminal. tmux has no
figure of the kind: it writes pane changes to its clients as it parses them, not in
frames. For tmux the same session, client and outer terminal give only outer-visible
figures: bytes per second to the client and output bursts per second (reads after >= 1 ms
without output, as the termhost client's are counted too), and the CPU of its server and
client. They are printed in a table of their own, labelled as such: not a render time.
Both clients hand their terminal to the server, which writes to it itself: the clients'
CPU is about nil.

At the end, two snapshots of the outer screen half a second apart must differ in each of the
4 panes' places (every pane changing), and the last row must show the status bar.

Benchmarks report, they do not gate: the exit status is 0 whatever the figures say, unless
something errored.

Run: `.venv/bin/python bench/frame_render.py [--load lines|flood|top] [--seconds 10]
[--warmup 2]`.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _tiled
import pyte
from _termhost import PrivateTermhost, PtyClient, cpu_seconds, wait_until
from _tmux import PrivateServer, PrivateTmux

from termhost.mux.paths import socket_path

COLS, ROWS = 200, 60
BURST_GAP = 0.001
"""Seconds without output after which a read starts a new burst on the outer terminal."""
START_TIMEOUT = 30.0
SNAPSHOT_GAP = 0.5


def load_script(kind: str, pane: int) -> str:
    """The sh script of pane `pane` (0..3) for the load `kind`."""
    colour = f"\\033[1;3{pane + 1}mpane {pane}\\033[0m"
    if kind == "lines":
        burst = " ".join(str(n) for n in range(1, 21))
        return (
            f"n=0; while :; do for j in {burst}; do n=$((n+1)); printf '{colour} line %d: "
            "the quick brown fox jumps over the lazy dog\\n' $n; done; sleep 0.02; done\n"
        )
    if kind == "flood":
        return (
            f"n=0; while :; do n=$((n+1)); printf '{colour} line %d: the quick brown fox "
            "jumps over the lazy dog\\n' $n; done\n"
        )
    if kind == "top":
        return "exec top -d 0.1\n"
    raise ValueError(f"unknown load {kind!r}: lines, flood or top")


def load_commands(kind: str, directory: Path) -> list[str]:
    """The 4 panes' commands: each runs its script with /bin/sh, whatever shell the
    multiplexer runs commands with (termhost: /bin/sh; tmux: $SHELL), so that both run
    the very same loops."""
    commands = []
    for pane in range(4):
        script = directory / f"load-{pane}.sh"
        script.write_text(load_script(kind, pane))
        commands.append(f"exec /bin/sh {shlex.quote(str(script))}")
    return commands


# --- the server's side ----------------------------------------------------------------


def serve(socket: Path, samples: Path) -> int:
    """The termhost server, its paints and renders timed; the samples written at exit."""
    from prompt_toolkit.renderer import Renderer

    from termhost import serve as server_process
    from termhost.mux import paths
    from termhost.ui.app import AttachedClient

    if not hasattr(AttachedClient, "_paint"):
        print("frame_render: termhost.ui.app.AttachedClient has no _paint", file=sys.stderr)
        return 1
    paints: list[tuple[float, float, float, bool]] = []
    renders: list[tuple[float, float, float, bool]] = []
    paint = AttachedClient._paint
    render = Renderer.render

    def timed_paint(self: AttachedClient, *args: Any, **kwargs: Any) -> None:
        only = kwargs.get("only", args[0] if args else None)
        started, counter, cpu = time.monotonic(), time.perf_counter(), time.thread_time()
        paint(self, *args, **kwargs)
        wall, cpu = time.perf_counter() - counter, time.thread_time() - cpu
        paints.append((started, wall, cpu, only is None))

    def timed_render(self: Renderer, *args: Any, **kwargs: Any) -> None:
        started, counter, cpu = time.monotonic(), time.perf_counter(), time.thread_time()
        render(self, *args, **kwargs)
        wall, cpu = time.perf_counter() - counter, time.thread_time() - cpu
        renders.append((started, wall, cpu, True))

    AttachedClient._paint = timed_paint  # type: ignore[method-assign]
    Renderer.render = timed_render  # type: ignore[method-assign]
    paths.ensure_socket_dir(socket.parent)
    try:
        status: int = server_process.main(["--socket", str(socket)])
        return status
    finally:
        samples.write_text(json.dumps({"paints": paints, "renders": renders}))


class TimedTermhost(PrivateTermhost):
    """A private termhost whose server is `serve` in a process of its own, started here."""

    def __init__(self, samples: Path) -> None:
        super().__init__("frame", cols=COLS, rows=ROWS)
        self.samples = samples
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        socket = socket_path(self.socket, env=self.env)
        with open(self.directory / "server.log", "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, __file__, "--serve", str(socket), "--samples", str(self.samples)],
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        process = self.process
        wait_until(lambda: socket.exists() or process.poll() is not None, "the server's socket", 30)
        if process.poll() is not None:
            raise RuntimeError(f"the timed server exited: {self.log()}")

    def log(self) -> str:
        path = self.directory / "server.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def stop(self) -> None:
        log = self.log()
        super().stop()  # kill-server
        if self.process is not None:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                print(f"warning: the timed server did not exit: killed. {log}", file=sys.stderr)
                self.process.kill()
                self.process.wait()
            if self.process.returncode:
                print(f"warning: the timed server exited {self.process.returncode}: {log}")


# --- the outer terminal ----------------------------------------------------------------


class Outer:
    """pyte as the client's terminal, fed from the PTY-draining thread; what it read when."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Lock()
        self.reads: list[tuple[float, int, float, bool]] = []
        """Per read: when it returned, its bytes, seconds pyte took, whether it started
        a burst."""
        self._fed_at = 0.0

    def feed(self, chunk: bytes) -> None:
        arrived = time.monotonic()
        burst = arrived - self._fed_at >= BURST_GAP
        with self.lock:
            counter = time.perf_counter()
            self.stream.feed(chunk)
            spent = time.perf_counter() - counter
        self._fed_at = time.monotonic()
        self.reads.append((arrived, len(chunk), spent, burst))

    def snapshot(self) -> list[str]:
        with self.lock:
            return list(self.screen.display)


# --- one run ---------------------------------------------------------------------------


@dataclass
class Timed:
    """One paint or render in the server."""

    wall: float
    """Seconds from its start to its end: what the client waits, preemption included."""
    cpu: float
    """Seconds of CPU the server's thread spent in it (time.thread_time)."""
    full: bool
    """A paint of every visible pane (not an echo's of one pane); renders: True."""


@dataclass
class Run:
    """What one multiplexer did over the window."""

    name: str
    seconds: float
    server_cpu: float
    client_cpu: float
    reads: list[tuple[float, int, float, bool]]
    layout: str
    changed: list[bool]
    """Per pane: whether its place on the outer screen changed between two snapshots."""
    status_row: str
    mouse: bool
    paints: list[Timed] = field(default_factory=list)
    """termhost: each paint that started in the window."""
    renders: list[Timed] = field(default_factory=list)
    """termhost: each chrome render that started in the window."""

    def per_second(self, count: float) -> float:
        return count / self.seconds

    @property
    def received(self) -> int:
        return sum(size for _, size, _, _ in self.reads)

    @property
    def bursts(self) -> int:
        return sum(1 for _, _, _, burst in self.reads if burst)

    @property
    def pyte_share(self) -> float:
        return sum(spent for _, _, spent, _ in self.reads) / self.seconds


def regions(server: PrivateServer) -> list[tuple[int, int, int, int]]:
    """(left, top, width, height) of each pane of session fr's window."""
    listed = server.run(
        "list-panes",
        "-t",
        "fr",
        "-F",
        "#{pane_left} #{pane_top} #{pane_width} #{pane_height}",
    )
    found = []
    for line in listed.splitlines():
        left, top, width, height = (int(n) for n in line.split())
        found.append((left, top, width, height))
    return found


def region_text(display: list[str], region: tuple[int, int, int, int]) -> list[str]:
    left, top, width, height = region
    return [row[left : left + width] for row in display[top : top + height]]


def measure(
    name: str,
    server: PrivateServer,
    server_pid: Callable[[], int],
    loads: list[str],
    warmup: float,
    seconds: float,
) -> tuple[Run, float, float]:
    """Make the 4-pane session running `loads`, attach, and measure `seconds`; the run
    and its window."""
    size = ["-x", str(COLS), "-y", str(ROWS)]
    server.run("new-session", "-d", "-s", "fr", *size, loads[0])
    _tiled.chrome_on(server)
    _tiled.tile(server, "fr", loads[1:])
    outer = Outer()
    attach = [*server.base, "attach", "-t", "fr"]
    with PtyClient(
        attach,
        server.env,
        cols=COLS,
        rows=ROWS,
        markers=_tiled.MOUSE_MARKERS,
        on_output=outer.feed,
    ) as client:
        wait_until(lambda: client.received > 0, f"{name}'s first frame", START_TIMEOUT)
        time.sleep(warmup)  # the panes' output settles into its pace: measured after
        if client.process.poll() is not None:
            raise RuntimeError(f"{name} attach exited ({client.process.returncode})")
        pid = server_pid()
        cpu = cpu_seconds(pid), cpu_seconds(client.pid)
        reads = len(outer.reads)
        start = time.monotonic()
        time.sleep(seconds)  # the measured window itself: nothing is waited for
        end = time.monotonic()
        server_cpu, client_cpu = cpu_seconds(pid) - cpu[0], cpu_seconds(client.pid) - cpu[1]
        window_reads = outer.reads[reads:]
        places = regions(server)
        before = outer.snapshot()
        time.sleep(SNAPSHOT_GAP)  # what changes on the outer screen in that time
        after = outer.snapshot()
        mouse = any(client.seen[marker].is_set() for marker in _tiled.MOUSE_MARKERS)
        layout = _tiled.describe(server, "fr")
    run = Run(
        name=name,
        seconds=end - start,
        server_cpu=server_cpu,
        client_cpu=client_cpu,
        reads=window_reads,
        layout=layout,
        changed=[region_text(before, r) != region_text(after, r) for r in places],
        status_row=after[-1].rstrip(),
        mouse=mouse,
    )
    return run, start, end


def run_termhost(loads: list[str], warmup: float, seconds: float) -> Run:
    with tempfile.TemporaryDirectory(prefix="termhost-bench-frames-") as directory:
        samples = Path(directory) / "samples.json"
        termhost = TimedTermhost(samples)
        try:
            termhost.start()
            run, start, end = measure(
                "termhost", termhost, termhost.server_pid, loads, warmup, seconds
            )
        finally:
            termhost.stop()
        if not samples.exists():
            raise RuntimeError(f"the timed server wrote no samples: {termhost.log()}")
        recorded = json.loads(samples.read_text())
    run.paints, run.renders = (
        [
            Timed(wall, cpu, full)
            for began, wall, cpu, full in recorded[kind]
            if start <= began < end
        ]
        for kind in ("paints", "renders")
    )
    return run


def run_tmux(executable: str, loads: list[str], warmup: float, seconds: float) -> Run:
    with PrivateTmux("frames", executable=executable, cols=COLS, rows=ROWS) as tmux:

        def pid() -> int:
            return int(tmux.run("display-message", "-p", "#{pid}"))

        run, _, _ = measure("tmux", tmux, pid, loads, warmup, seconds)
    return run


# --- the report ------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of sorted `values`."""
    return values[min(len(values) - 1, int(len(values) * fraction))]


def durations(label: str, timed: list[Timed], window: float) -> str:
    """A row of the server's table: count, rate, then median, p99 and max of the wall time
    and of the CPU time, in ms."""
    if not timed:
        return f"{label:<24} {0:>6}  {0:>7.1f}" + f"  {'-':>7}" * 6
    row = f"{label:<24} {len(timed):>6}  {len(timed) / window:7.1f}"
    for values in ([t.wall for t in timed], [t.cpu for t in timed]):
        ms = sorted(1e3 * value for value in values)
        row += f"  {statistics.median(ms):7.2f}  {percentile(ms, 0.99):7.2f}  {ms[-1]:7.2f}"
    return row


def report(termhost: Run, tmux: Run | None) -> None:
    runs = [termhost] if tmux is None else [termhost, tmux]
    for run in runs:
        print(f"{run.name} panes: {run.layout}")
    print()
    print("termhost, inside the server (AttachedClient._paint; prompt_toolkit's Renderer.render):")
    print(f"{'':<24} {'':>6}  {'':>7}  {'wall time, ms':^25}  {'CPU time, ms':^25}")
    print(f"{'':<24} {'count':>6}  {'per s':>7}" + f"  {'median':>7}  {'p99':>7}  {'max':>7}" * 2)
    full = [timed for timed in termhost.paints if timed.full]
    echo = [timed for timed in termhost.paints if not timed.full]
    print(durations("full paints (frames)", full, termhost.seconds))
    print(durations("echo paints (one pane)", echo, termhost.seconds))
    print(durations("all paints", termhost.paints, termhost.seconds))
    print(durations("chrome renders", termhost.renders, termhost.seconds))
    timed = termhost.paints + termhost.renders
    wall = sum(t.wall for t in timed) / termhost.seconds
    cpu = sum(t.cpu for t in timed) / termhost.seconds
    print(
        f"paints and renders: {100 * wall:.1f}% of the window's wall time, {100 * cpu:.1f}% "
        "of a core"
    )
    print()
    print("outer-visible, both (NOT a render time: what reached the client's 200x60 terminal):")
    print(
        f"{'':<10} {'window s':>8}  {'KB/s to client':>14}  {'bursts/s':>9}  "
        f"{'server %core':>12}  {'client %core':>12}  {'pyte busy %':>11}"
    )
    for run in runs:
        print(
            f"{run.name:<10} {run.seconds:8.1f}  {run.per_second(run.received) / 1e3:14.1f}  "
            f"{run.per_second(run.bursts):9.1f}  {100 * run.server_cpu / run.seconds:12.1f}  "
            f"{100 * run.client_cpu / run.seconds:12.1f}  {100 * run.pyte_share:11.1f}"
        )
    for run in runs:
        if run.pyte_share > 0.9:
            print(
                f"note: pyte was busy {100 * run.pyte_share:.0f}% of {run.name}'s window: the "
                "outer terminal held the client back, and its bursts/s count pyte's pauses"
            )
    if tmux is not None and tmux.received and tmux.bursts:
        print(
            f"termhost/tmux: bytes {termhost.received / tmux.received:.2f}x, "
            f"bursts {termhost.bursts / tmux.bursts:.2f}x"
        )
    print()
    for run in runs:
        changing = sum(run.changed)
        verdict = "OK      " if changing == 4 == len(run.changed) else "MISMATCH"
        places = f"{changing}/{len(run.changed)}"
        print(f"{verdict}  {run.name}: {places} panes changing on the outer screen")
        verdict = "OK      " if run.status_row else "MISMATCH"
        print(f"{verdict}  {run.name}: status bar on the last row: {run.status_row[:60]!r}")
        if not run.mouse:
            print(f"warning: {run.name} never asked the outer terminal for mouse reports")


def tmux_version(executable: str) -> str:
    result = subprocess.run([executable, "-V"], capture_output=True, text=True, check=False)
    return result.stdout.strip().removeprefix("tmux ") or "(unknown)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--load", choices=("lines", "flood", "top"), default="lines", help="(default lines)"
    )
    parser.add_argument(
        "--seconds", type=float, default=10, help="length of the window (default 10)"
    )
    parser.add_argument(
        "--warmup", type=float, default=2, help="seconds attached before the window (default 2)"
    )
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--samples", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        if args.samples is None:
            parser.error("--serve needs --samples")
        sys.exit(serve(args.serve, args.samples))
    if args.seconds <= 0 or args.warmup < 0:
        parser.error("--seconds must be positive and --warmup not negative")

    executable = shutil.which("tmux")
    if executable is None:
        print("tmux is not installed: skipping the tmux reference", file=sys.stderr)
    print(
        f"python {sys.version.split()[0]} ({sys.executable}), client {COLS}x{ROWS}, "
        f"{os.cpu_count()} CPUs, tmux {tmux_version(executable) if executable else '(none)'}; "
        f"4 tiled panes, mouse and status on; load {args.load}; {args.seconds:g} s window "
        f"after {args.warmup:g} s"
    )
    print(f"pane 0: /bin/sh -c {load_script(args.load, 0).strip()!r}")
    print()
    with tempfile.TemporaryDirectory(prefix="termhost-bench-loads-") as directory:
        loads = load_commands(args.load, Path(directory))
        termhost = run_termhost(loads, args.warmup, args.seconds)
        tmux = run_tmux(executable, loads, args.warmup, args.seconds) if executable else None
    report(termhost, tmux)


if __name__ == "__main__":
    main()
