"""Snapshots: how long capturing a bash environment takes, and how fast `termhost exec --
true` runs in it compared with starting an interactive bash (`bash -ic true`), the thing
it replaces, and with sourcing the snapshot by hand (`bash -c '. SNAPSHOT; true'`), which
leaves exec's own overhead. Targets, in the same run: exec <= 0.5x the interactive
shell's start, and <= 25 ms over sourcing the snapshot.

Two rc files (`--rc`): `typical` is Debian's /etc/skel/.bashrc (history, prompt, colour
aliases, lesspipe), bash-completion when installed, and a few dozen aliases, functions and
exports of the kind people accumulate; `version-manager` adds what a developer's machine
runs on top, a version manager's init in the style of pyenv's and nvm's (a shim directory
on PATH, a few hundred lines of functions sourced, and the command substitutions they run
to find the current version), 100-300 ms here. HOME is a temporary directory holding it,
so the user's own files play no part (`--my-rc` uses yours). The commands run `--repeat`
times, alternating; medians and p90 are shown, and the capture time is the snapshot's own
duration_ms (the shell reading its files, the data parsed and validated).
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
VERSION_MANAGER = """\
# A version manager's init, as pyenv's and nvm's: shims first on PATH, its functions
# sourced, and the version found by asking its own commands (each a process).
export VM_ROOT="$HOME/.vm"
export PATH="$VM_ROOT/shims:$VM_ROOT/bin:$PATH"
. "$VM_ROOT/vm.sh"
for tool in python node ruby go rust java deno bun zig lua perl php erlang elixir; do
    export "VM_${tool}_VERSION=$(vm_current "$tool")"
    export "VM_${tool}_PLATFORM=$(uname -sm | tr ' ' - | tr A-Z a-z)"
done
"""
"""Added to the rc for `--rc version-manager`; vm.sh is `_vm_script`'s."""


def _vm_script(functions: int = 2000) -> str:
    """The version manager's own script: many small functions, and `vm_current`, which
    reads a version file through a pipeline of processes, as such tools' lookups do."""
    body = [f"vm_helper_{n}() {{\n    local v=$1 w=${{2:-}}\n    case $v in\n"
            f"        {n}*) echo \"match $v\" ;;\n        *) [ -n \"$w\" ] && echo \"$w\" ;;\n"
            f"    esac\n}}" for n in range(functions)]
    body.append('vm_current() { cat "$VM_ROOT/version" 2>/dev/null | sed -n 1p | '
                'tr -d " " | cut -c1-32; }')
    return "\n".join(body) + "\n"


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
    parser.add_argument("--rc", choices=("typical", "version-manager"), default="typical",
                        help="the rc file measured (see above)")
    parser.add_argument("--my-rc", action="store_true",
                        help="your own HOME and rc files instead of the generated one")
    args = parser.parse_args()
    termhost = [str(Path(sys.executable).parent / "termhost")]
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        skel = Path("/etc/skel/.bashrc")
        rc = (skel.read_text() if skel.exists() else f"[ -f {COMPLETION} ] && . {COMPLETION}\n"
              ) + EXTRA
        if args.rc == "version-manager":
            (home / ".vm" / "shims").mkdir(parents=True)
            (home / ".vm" / "vm.sh").write_text(_vm_script())
            (home / ".vm" / "version").write_text("3.11.7\n")
            rc += VERSION_MANAGER
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
            script = next(Path(tmp, "state").glob("termhost/snapshots/*/*/snapshot.sh"))
            bash, ours, sourced = [], [], []
            for _ in range(args.repeat):
                bash.append(_time(["bash", "-ic", "true"], env))
                ours.append(_time([*termhost, "exec", "-t", "b", "--", "true"], env))
                sourced.append(_time(["bash", "-c", f". {script}; true"], env))
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
    print(f"{'':28}{'median ms':>10}{'p90 ms':>10}")
    for name, values in (("bash -ic true", bash), ("termhost exec -- true", ours),
                         ("bash -c '. SNAPSHOT; true'", sourced)):
        print(f"{name:28}{statistics.median(values) * 1000:10.1f}"
              f"{p90(values) * 1000:10.1f}")
    ratio = statistics.median(ours) / statistics.median(bash)
    print(f"exec / interactive start: {ratio:.2f}x (target <= 0.5x): "
          f"{'PASS' if ratio <= 0.5 else 'FAIL'}")
    overhead = (statistics.median(ours) - statistics.median(sourced)) * 1000
    print(f"exec's own overhead over sourcing the snapshot: {overhead:.1f} ms "
          f"(target <= 25 ms): {'PASS' if overhead <= 25 else 'FAIL'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
