"""Snapshots: how long capturing a bash environment takes, and how fast `termhost exec --
true` runs in it compared with starting an interactive bash (`bash -ic true`), the thing
it replaces. Target: exec <= 0.5x the interactive shell's start, in the same run.

The rc file is a typical one: Debian's /etc/skel/.bashrc (history, prompt, colour aliases,
lesspipe), bash-completion when installed, and a few dozen aliases, functions and exports
of the kind people accumulate. HOME is a temporary directory holding it, so the user's own
files play no part. Both commands run `--repeat` times, alternating; medians and p90 are
shown, and the capture time is the snapshot's own duration_ms (the shell reading its
files, the data parsed and validated).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXTRA = "".join(
    [f"alias g{n}='git {word}'\n" for n, word in enumerate(
        ("status", "diff", "log --oneline", "push", "pull", "fetch", "stash", "branch"))]
    + [f"export TOOL_{n}_HOME=/opt/tool{n}\n" for n in range(20)]
    + [f"helper_{n}() {{ local x=$1; echo \"helper {n}: $x\"; }}\n" for n in range(20)]
    + ["export PATH=\"$HOME/bin:$PATH\"\nshopt -s globstar\n"]
)
COMPLETION = "/usr/share/bash-completion/bash_completion"
"""Debian's skeleton loads it (when installed); without the skeleton, the rc file does."""


def _time(argv: list[str], env: dict[str, str]) -> float:
    """Wall time of one run. No timeout: with one, Popen.wait polls with sleeps that
    double from 1 ms, which rounds every figure up to the next of 1, 3, 7, 15, 31 ms."""
    start = time.perf_counter()
    status = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).wait()
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{argv[0]} exited with status {status}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--my-rc", action="store_true",
                        help="your own HOME and rc files instead of the typical one")
    args = parser.parse_args()
    termhost = [str(Path(sys.executable).parent / "termhost")]
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        skel = Path("/etc/skel/.bashrc")
        rc = (skel.read_text() if skel.exists() else f"[ -f {COMPLETION} ] && . {COMPLETION}\n"
              ) + EXTRA
        (home / ".bashrc").write_text(rc)
        if args.my_rc:
            home = Path.home()
            rc = (home / ".bashrc").read_text() if (home / ".bashrc").exists() else ""
        env = {**os.environ, "HOME": str(home), "SHELL": shutil.which("bash") or "/bin/bash",
               "TERMHOST_TMPDIR": tmp, "XDG_STATE_HOME": str(Path(tmp) / "state")}
        env.pop("TERMHOST", None)
        subprocess.run([*termhost, "-f", "/dev/null", "new-session", "-d", "-s", "b",
                        "sleep 1000"], env=env, check=True)
        try:
            shot = json.loads(subprocess.run(
                [*termhost, "snapshot", "-t", "b", "--wait", "--format", "json"], env=env,
                capture_output=True, text=True, check=True).stdout)
            bash, ours = [], []
            for _ in range(args.repeat):
                bash.append(_time(["bash", "-ic", "true"], env))
                ours.append(_time([*termhost, "exec", "-t", "b", "--", "true"], env))
            python = [_time([*termhost, "-V"], env) for _ in range(args.repeat)]
            print(f"termhost -V (Python starting, for scale): "
                  f"{statistics.median(python) * 1000:.1f} ms")
        finally:
            subprocess.run([*termhost, "kill-server"], env=env, check=False)

    def p90(values: list[float]) -> float:
        return sorted(values)[int(len(values) * 0.9) - 1]

    print(f"rc file: {len(rc.splitlines())} lines; snapshot: {len(shot['env'])} variables, "
          f"{len(shot['aliases'])} aliases, {len(shot['functions'])} functions")
    print(f"capture (bash reading its files, parsed and validated): {shot['duration_ms']} ms")
    print(f"{'':24}{'median ms':>10}{'p90 ms':>10}")
    for name, values in (("bash -ic true", bash), ("termhost exec -- true", ours)):
        print(f"{name:24}{statistics.median(values) * 1000:10.1f}{p90(values) * 1000:10.1f}")
    ratio = statistics.median(ours) / statistics.median(bash)
    print(f"exec / interactive start: {ratio:.2f}x (target <= 0.5x): "
          f"{'PASS' if ratio <= 0.5 else 'FAIL'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
