"""A real-world-style configuration loaded, beside tmux in the same run: a server started
with a 300-line ~/.tmux.conf-style file (-f), until the file's last line has taken effect,
and `source-file` of the same file into a running server.

The file is the test corpus's configurations (tests/data/tmux_configs/: themes, plugin
option blocks, vim-tmux-navigator's if-shell bindings, %if on #{version}, tpm's lines)
without their `run` lines (the plugins they name are not installed), as many whole files
as fit in 300 lines, then user options up to 300, the last one a marker. Each round is a
fresh server of each; the figures are medians over `--rounds`. Target: termhost at most
3x tmux for both.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

from _termhost import PrivateTermhost, wait_until
from _tmux import PrivateServer, PrivateTmux

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "tmux_configs"
LINES = 300


def write_config(path: Path) -> int:
    """The benchmark's file at `path`; how many lines it has."""
    lines: list[str] = []
    for conf in sorted(CORPUS.glob("*.conf")):
        more = [line for line in conf.read_text().splitlines()
                if not line.lstrip().startswith(("run ", "run-shell "))]
        if len(lines) + len(more) < LINES:  # whole files: a %if or { } is never cut
            lines += more
    number = 0
    while len(lines) < LINES - 1:
        lines.append(f"set -g @bench-option-{number} 'value {number}'")
        number += 1
    lines.append("set -g @bench-done yes")
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


def cold_start(server: PrivateServer, config: Path) -> float:
    """Seconds from `new-session -d` with `-f CONFIG` until its last line took effect."""
    assert server.base[-2:] == ["-f", "/dev/null"], server.base
    started = [*server.base[:-1], str(config)]
    start = time.perf_counter()
    subprocess.run([*started, "new-session", "-d", "-s", "cold", "sleep 100000"],
                   env=server.env, check=True, capture_output=True, timeout=60)
    wait_until(lambda: server.run("show", "-gqv", "@bench-done").strip() == "yes",
               "the configuration's last line", timeout=60)
    return time.perf_counter() - start


def sourced(server: PrivateServer, config: Path) -> tuple[float, int]:
    """Seconds `source-file CONFIG` takes in a running server, and its error lines."""
    start = time.perf_counter()
    result = subprocess.run([*server.base, "source-file", str(config)], env=server.env,
                            capture_output=True, text=True, timeout=60, check=False)
    seconds = time.perf_counter() - start
    return seconds, len((result.stdout + result.stderr).strip().splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    figures: dict[str, dict[str, list[float]]] = {}
    errors: dict[str, int] = {}
    for round_number in range(args.rounds):
        for name, make in (("tmux", PrivateTmux), ("termhost", PrivateTermhost)):
            server = make(f"config-{round_number}")
            config = Path(f"/tmp/config-load-{name}.conf")
            count = write_config(config)
            try:
                cold = cold_start(server, config)
                seconds, errors[name] = sourced(server, config)
            finally:
                server.stop()
                config.unlink(missing_ok=True)
            figures.setdefault(name, {}).setdefault("start", []).append(cold)
            figures[name].setdefault("source", []).append(seconds)
    print(f"config_load: a {count}-line configuration, {args.rounds} rounds, medians")
    for what, label in (("start", "server start with -f, until loaded"),
                        ("source", "source-file into a running server")):
        ours = statistics.median(figures["termhost"][what]) * 1000
        theirs = statistics.median(figures["tmux"][what]) * 1000
        print(f"  {label}: termhost {ours:.1f} ms, tmux {theirs:.1f} ms, "
              f"{ours / theirs:.1f}x (target <= 3x)")
    print(f"  error lines from source-file: termhost {errors['termhost']}, "
          f"tmux {errors['tmux']}")


if __name__ == "__main__":
    main()
