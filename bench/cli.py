"""The command line as scripts use it, beside tmux and the bare interpreter in one run:
each verb's round trip to a running server (median and p90 over `--rounds` separate
invocations), a server's cold start (`new-session -d` with no server), a script of
`--script` commands run as separate invocations, and the same script sent over one
control-mode connection (`-C attach`), timed to its last %end.

termhost is run as installed (`termhost`, the script beside this interpreter), so the
figure is what a user of this install gets; `--wheel` also builds a wheel of this
checkout, installs it in a fresh virtual environment and measures that (a regular
install), beside the editable one. termhost's bytecode is compiled first, as pip does
for a regular install and Python does on an editable one's first run (unless
PYTHONDONTWRITEBYTECODE is set, as in some containers: then every command compiles what
it imports). `python -I -S -c pass` is the floor no Python command line goes under; the
target for the thin client is 1.5x of it.
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from _termhost import PrivateTermhost, termhost_command
from _tmux import PrivateServer, PrivateTmux

ROOT = Path(__file__).resolve().parents[1]

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


def script_lines(count: int) -> list[list[str]]:
    """The script: `count` commands of the kind a plugin sends, each its own."""
    return [["set", "-g", "@bench", str(number)] for number in range(count)]


def controlled(server: PrivateServer, script: list[list[str]]) -> float:
    """Seconds from starting a control-mode client (`-C attach -t bench`) with the whole
    script on its input to the %end (or %error) of its last command."""
    lines = "".join(" ".join(words) + "\n" for words in script).encode()
    start = time.perf_counter()
    client = subprocess.Popen([*server.base, "-C", "attach", "-t", "bench"], env=server.env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert client.stdin is not None and client.stdout is not None
    client.stdin.write(lines)
    client.stdin.flush()
    blocks = 0
    for line in client.stdout:
        if line.startswith((b"%end ", b"%error ")) and not line.endswith(b" 0\n"):
            blocks += 1
            if blocks == len(script):
                break
    elapsed = time.perf_counter() - start
    client.stdin.close()
    client.wait(timeout=30)
    if blocks != len(script):
        raise SystemExit(f"{server.base[0]} -C answered {blocks} of {len(script)} commands")
    return elapsed


def cold_start(make: Callable[[str], PrivateServer], round_number: int) -> float:
    """Seconds from `new-session -d` with no server running until it returned."""
    server = make(f"cli-cold-{round_number}")
    try:
        return timed([*server.base, "new-session", "-d", "-s", "cold", "sleep 100000"],
                     server.env)
    finally:
        server.stop()


def wheel_install(directory: Path) -> list[str]:
    """A regular install of this checkout: its wheel, in a fresh virtual environment
    (dependencies from the package index); the command that runs its termhost."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(directory / "wheel"), str(ROOT)], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(directory / "venv")], check=True)
    wheel = next((directory / "wheel").glob("termhost-*.whl"))
    python = directory / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True)
    return [str(directory / "venv" / "bin" / "termhost")]


def measure(label: str, command: list[str], args: argparse.Namespace,
            floor: list[float]) -> None:
    print(f"termhost {label} ({command[0]}):")
    servers: dict[str, PrivateServer] = {
        "tmux": PrivateTmux("cli"), "termhost": PrivateTermhost("cli", command=command)}
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
        script = script_lines(args.script)
        separate, control = {}, {}
        for name, server in servers.items():
            start = time.perf_counter()
            for words in script:
                timed([*server.base, *words], server.env)
            separate[name] = time.perf_counter() - start
            control[name] = statistics.median(controlled(server, script_lines(args.control))
                                              for _ in range(3))
        print(f"  {args.script} commands as separate invocations: termhost "
              f"{separate['termhost']:.2f} s, tmux {separate['tmux']:.2f} s, "
              f"{separate['termhost'] / separate['tmux']:.1f}x")
        print(f"  {args.control} commands over one control-mode connection: termhost "
              f"{control['termhost'] * 1000:.0f} ms, tmux {control['tmux'] * 1000:.0f} ms, "
              f"{control['termhost'] / control['tmux']:.1f}x (target <= 2x)")
    finally:
        for server in servers.values():
            server.stop()
    makers: dict[str, Callable[[str], PrivateServer]] = {
        "tmux": PrivateTmux, "termhost": lambda name: PrivateTermhost(name, command=command)}
    cold = {name: [cold_start(make, number) for number in range(max(5, args.rounds // 4))]
            for name, make in makers.items()}
    ours, theirs = (statistics.median(cold[name]) for name in ("termhost", "tmux"))
    print(f"  server cold start (new-session -d): termhost {spread(cold['termhost'])}, "
          f"tmux {spread(cold['tmux'])}: {ours / theirs:.1f}x (target <= 150 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--script", type=int, default=1000,
                        help="commands in the script run as separate invocations")
    parser.add_argument("--control", type=int, default=1000,
                        help="commands in the script sent over one control-mode connection")
    parser.add_argument("--wheel", action="store_true",
                        help="also measure a wheel of this checkout in a fresh venv")
    args = parser.parse_args()
    compileall.compile_dir(str(ROOT / "termhost"), quiet=1)
    floor = [timed([sys.executable, "-I", "-S", "-c", "pass"], None)
             for _ in range(args.rounds)]
    print(f"cli: {args.rounds} rounds; python -I -S -c pass: {spread(floor)}; "
          f"target 1.5x: {statistics.median(floor) * 1500:.1f} ms")
    measure("as installed here", termhost_command(), args, floor)
    if args.wheel:
        with tempfile.TemporaryDirectory(prefix="termhost-wheel-") as directory:
            measure("from a wheel", wheel_install(Path(directory)), args, floor)


if __name__ == "__main__":
    main()
