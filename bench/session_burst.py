"""A burst of sessions: what 50 `new-session -d` in a row cost with snapshots on, beside
snapshots off and beside tmux, and how long until all 50 snapshots are ready.

Each session's snapshot is a bash reading the user's startup files. A script that starts
many sessions at once (a test harness, tmuxp, a plugin) used to start as many captures at
once: on two cores they starved each other and new-session itself. The captures are now
bounded and shared (termhost/snapshot/queue.py). Target: new-session's time per session
with snapshots on within 10% of its time with `snapshots off`.

The rc file is Debian's skeleton .bashrc plus a loop that burns `--rc-ms` of CPU when it
runs in a capture, as a version manager's init does (pyenv, nvm, conda: 100-300 ms); it
logs each capture, so the script also says how many ran. Panes run `sleep`, so that the
figures are new-session's and the captures', not 50 interactive shells'. The modes
alternate over `--rounds`; each round is a fresh server, and the per-session figure is
the median of every new-session's wall time (the whole CLI round trip).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from _termhost import PrivateTermhost, wait_until
from _tmux import PrivateTmux

CPU_LOOP = "__th_i=0; while [ $__th_i -lt {count} ]; do __th_i=$((__th_i + 1)); done\n"


def calibrate(milliseconds: int) -> int:
    """Iterations of CPU_LOOP that take about `milliseconds` in this machine's bash."""
    count = 20000
    start = time.perf_counter()
    subprocess.run(["bash", "-c", CPU_LOOP.format(count=count)], check=True)
    per_iteration = (time.perf_counter() - start) / count
    return max(1, round(milliseconds / 1000 / per_iteration))


def write_home(home: Path, rc_ms: int) -> None:
    skel = Path("/etc/skel/.bashrc")
    rc = skel.read_text() if skel.exists() else ""
    rc += ('if [ -n "$TERMHOST_SNAPSHOT" ]; then\n'
           '  echo capture >> "$HOME/captures.log"\n'
           f"  {CPU_LOOP.format(count=calibrate(rc_ms))}"
           "fi\n")
    (home / ".bashrc").write_text(rc)


class Burst(PrivateTermhost):
    """A termhost server whose sessions capture bash with the benchmark's HOME."""

    def __init__(self, name: str, home: Path, snapshots: bool) -> None:
        super().__init__(name)
        self.home = home
        config = self.directory / "burst.conf"
        config.write_text(f"set -g snapshots {'on' if snapshots else 'off'}\n")
        self.base = [*self.base[:-1], str(config)]  # -f this file instead of /dev/null
        self.env |= {"HOME": str(home), "SHELL": shutil.which("bash") or "/bin/bash",
                     "XDG_STATE_HOME": str(self.directory / "state")}


def burst(server: PrivateTermhost | PrivateTmux, sessions: int) -> list[float]:
    """Wall time of each of `sessions` new-session -d in a row."""
    times = []
    for n in range(sessions):
        start = time.perf_counter()
        server.run("new-session", "-d", "-s", f"burst{n}", "sleep 100000")
        times.append(time.perf_counter() - start)
    return times


def all_ready(server: Burst) -> bool:
    statuses = server.run("list-sessions", "-F", "#{snapshot_status}").split()
    if "failed" in statuses:
        raise SystemExit("a snapshot failed: " + server.run("snapshot", "-t", "burst0"))
    return all(status == "ready" for status in statuses)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--rc-ms", type=int, default=300, help="CPU the rc file burns")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"off": [], "on": [], "tmux": []}
    ready: list[float] = []
    captures: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        write_home(home, args.rc_ms)
        log = home / "captures.log"
        for _ in range(args.rounds):
            with Burst("burst-off", home, snapshots=False) as off:
                times["off"] += burst(off, args.sessions)
            log.unlink(missing_ok=True)
            with Burst("burst-on", home, snapshots=True) as on:
                start = time.perf_counter()
                times["on"] += burst(on, args.sessions)
                wait_until(lambda server=on: all_ready(server), "every snapshot ready", 600)
                ready.append(time.perf_counter() - start)
            captures.append(len(log.read_text().splitlines()) if log.exists() else 0)
            with PrivateTmux("burst") as tmux:
                times["tmux"] += burst(tmux, args.sessions)

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:8.1f}"

    print(f"{args.sessions} new-session -d in a row, {args.rounds} rounds, rc file "
          f"{args.rc_ms} ms of CPU per capture")
    print(f"{'':34}{'median ms':>9}")
    print(f"{'termhost, snapshots off':34}{ms(times['off'])}")
    print(f"{'termhost, snapshots on':34}{ms(times['on'])}")
    print(f"{'tmux':34}{ms(times['tmux'])}")
    print(f"all {args.sessions} snapshots ready after (from the first new-session): "
          f"{', '.join(f'{seconds:.2f} s' for seconds in ready)}")
    print(f"captures run per burst: {', '.join(map(str, captures))} "
          f"(the sessions are identical: one is enough)")
    ratio = statistics.median(times["on"]) / statistics.median(times["off"])
    print(f"snapshots on / off: {ratio:.2f}x (target <= 1.10x): "
          f"{'PASS' if ratio <= 1.10 else 'FAIL'}")
    print(f"termhost (snapshots on) / tmux: "
          f"{statistics.median(times['on']) / statistics.median(times['tmux']):.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
