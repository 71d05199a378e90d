"""The command line as scripts use it, beside tmux and the bare interpreter in one run:
each verb's round trip to a running server (median and p90 over `--rounds` separate
invocations), a server's cold start (`new-session -d` with no server), and a script of
`--script` commands run as separate invocations.

termhost is run as installed (`termhost`, the script beside this interpreter), so the
figure is what a user of this install gets: an editable install (`pip install -e .`)
pays for setuptools' import finder in `site` on every command, a regular one does not.
`python -I -S -c pass` is the floor no Python command line goes under; the target for the
thin client is 1.5x of it.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from _termhost import PrivateTermhost
from _tmux import PrivateServer, PrivateTmux

VERBS = [
    ["has-session", "-t", "bench"],
    ["display-message", "-p", "#{session_name}"],
    ["send-keys", "-t", "bench", ""],
    ["list-panes", "-F", "#{pane_id} #{pane_width}x#{pane_height}"],
]


def timed(argv: Sequence[str], env: dict[str, str] | None) -> float:
    """Seconds one invocation takes, its output read and thrown away."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


def spread(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"{statistics.median(ordered) * 1000:6.1f} ms (p90 {p90 * 1000:6.1f})"


def cold_start(make: type[PrivateServer], round_number: int) -> float:
    """Seconds from `new-session -d` with no server running until it returned."""
    server = make(f"cli-cold-{round_number}")  # type: ignore[call-arg]
    try:
        return timed([*server.base, "new-session", "-d", "-s", "cold", "sleep 100000"],
                     server.env)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--script", type=int, default=200,
                        help="commands in the script run as separate invocations")
    args = parser.parse_args()
    floor = [timed([sys.executable, "-I", "-S", "-c", "pass"], None)
             for _ in range(args.rounds)]
    print(f"cli: {args.rounds} rounds; python -I -S -c pass: {spread(floor)}")
    servers = {"tmux": PrivateTmux("cli"), "termhost": PrivateTermhost("cli")}
    try:
        for server in servers.values():
            server.start()
            server.run("new-session", "-d", "-s", "bench", "sleep 100000")
        for verb in VERBS:
            figures = {name: [timed([*server.base, *verb], server.env)
                              for _ in range(args.rounds)] for name, server in servers.items()}
            ours, theirs = (statistics.median(figures[name]) for name in ("termhost", "tmux"))
            print(f"  {verb[0]:16} termhost {spread(figures['termhost'])}, tmux "
                  f"{spread(figures['tmux'])}: {ours / theirs:.1f}x tmux, "
                  f"{ours / statistics.median(floor):.2f}x the interpreter")
        script = {}
        for name, server in servers.items():
            start = time.perf_counter()
            for number in range(args.script):
                timed([*server.base, "set", "-g", "@bench", str(number)], server.env)
            script[name] = time.perf_counter() - start
        print(f"  a script of {args.script} commands: termhost {script['termhost']:.2f} s, "
              f"tmux {script['tmux']:.2f} s, {script['termhost'] / script['tmux']:.1f}x")
    finally:
        for server in servers.values():
            server.stop()
    cold = {name: [cold_start(make, number) for number in range(max(3, args.rounds // 6))]
            for name, make in (("tmux", PrivateTmux), ("termhost", PrivateTermhost))}
    ours, theirs = (statistics.median(cold[name]) for name in ("termhost", "tmux"))
    print(f"  server cold start (new-session -d): termhost {spread(cold['termhost'])}, "
          f"tmux {spread(cold['tmux'])}: {ours / theirs:.1f}x")


if __name__ == "__main__":
    main()
