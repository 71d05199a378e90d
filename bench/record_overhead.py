"""Recording overhead: a 50 MB flood through `termhost record`, through `asciinema rec`
(2.4.0) and through no recorder, in the same run.

The issue's target is termhost <= asciinema's time. Each recorder runs `cat FILE` (a plain
log from bench/_corpus.py, `--mb` MB) with no terminal (stdin from /dev/null, stdout to
/dev/null), as in CI; the figure is the wall time from launch until the recorder has
exited, so it includes starting Python, the PTY copy and writing the .cast file. "no
recorder" is `cat FILE > /dev/null` on a PTY drained by ../shared/bench/pty_raw.py: the
machine's limit for the same bytes through a PTY.

After each run the .cast is checked: its output events, concatenated, must be the file's
bytes (a recorder that drops output must not look fast). Rounds alternate the three, and
the median of `--repeat` rounds is shown, with each round printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import plain_log

RAW = Path(__file__).resolve().parents[2] / "shared" / "bench" / "pty_raw.py"


def _timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True, timeout=600)
    return time.perf_counter() - start


def _output_of(cast: Path) -> bytes:
    """The output events of a v2 file, concatenated, as `asciinema cat` gives them."""
    out = []
    with cast.open(encoding="utf-8") as lines:
        next(lines)
        for line in lines:
            _, code, text = json.loads(line)
            if code == "o":
                out.append(text)
    return "".join(out).encode("utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    asciinema = bin_dir / "asciinema"
    if not asciinema.exists():
        print("asciinema is not installed: pip install -e '.[test]' (asciinema==2.4.0)")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        data = plain_log(args.mb)
        expected = data.read_bytes().replace(b"\n", b"\r\n")  # the PTY's onlcr
        env = {**os.environ, "HOME": str(work), "ASCIINEMA_CONFIG_HOME": str(work / "cfg"),
               "LC_ALL": "C.UTF-8", "TERMHOST_TMPDIR": str(work),
               "XDG_STATE_HOME": str(work / "state")}
        times: dict[str, list[float]] = {"no recorder": [], "asciinema rec": [],
                                         "termhost record": []}
        for round_ in range(args.repeat):
            raw = _timed([sys.executable, str(RAW), str(data)], env)
            cast_a = work / f"a{round_}.cast"
            ascii_time = _timed([str(asciinema), "rec", "-q", "--stdin", "-c",
                                 f"cat {data}", str(cast_a)], env)
            cast_t = work / f"t{round_}.cast"
            ours = _timed([str(bin_dir / "termhost"), "record", "-o", str(cast_t), "--",
                           "cat", str(data)], env)
            for name, cast in (("asciinema rec", cast_a), ("termhost record", cast_t)):
                verdict = "OK" if _output_of(cast) == expected else "MISMATCH"
                print(f"round {round_ + 1}: {name}: {verdict} ({cast.stat().st_size} bytes)")
            print(f"round {round_ + 1}: no recorder {raw:.2f} s, asciinema {ascii_time:.2f} s,"
                  f" termhost {ours:.2f} s")
            times["no recorder"].append(raw)
            times["asciinema rec"].append(ascii_time)
            times["termhost record"].append(ours)
        medians = {name: statistics.median(values) for name, values in times.items()}
        print(f"\n{args.mb} MB flood, median of {args.repeat} rounds:")
        for name, value in medians.items():
            print(f"  {name:16} {value:6.2f} s  {args.mb / value:6.1f} MB/s")
        ratio = medians["termhost record"] / medians["asciinema rec"]
        verdict = "PASS" if ratio <= 1.0 else "FAIL"
        print(f"termhost/asciinema time: {ratio:.2f}x (target <= 1.0x): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
