"""Environment snapshots of real shells (bash, zsh, dash, fish) built from rc files we write.

HOME, ZDOTDIR, XDG_CONFIG_HOME and ENV point into the test's directory, so each shell
reads only the startup files a test wrote. Captures that must time out run side by side,
so the file stays fast.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import stat
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from termhost.snapshot.capture import capture
from termhost.snapshot.errors import SnapshotError, UnsupportedShell
from termhost.snapshot.model import Snapshot
from termhost.snapshot.shells import exec_argv
from termhost.snapshot.store import SCRIPT_NAME, load, store
from termhost.snapshot.validate import validate
from tests.conftest import DEADLINE, group_members, kill_group_members, pid_exists, wait_until

WEIRD = os.fsdecode(
    b"line one\nit's \"quoted\" $HOME `cmd` \\back\\ \x1b[31mred\x1b[0m caf\xc3\xa9 \xe2\x9c\x93 "
    b"\xff\xfe not utf-8\n"
)
"""A value with everything that breaks naive quoting, ending in a newline."""


@dataclass(frozen=True)
class Shell:
    """How to write one shell's rc file, in its own syntax."""

    kind: str
    path: str
    rc: str
    """The rc file, relative to HOME."""
    pid: str
    """Expands to the shell's own pid."""
    background: str
    """Starts `sleep 100` in the background and expands to its pid (after `;`)."""
    defines: str
    """Exports, an alias `greet`, a function `twice`, and an option where there are any."""
    uses: str
    """A command string using all of `defines`, exiting 7."""


POSIX_DEFINES = """\
export FROM_RC="from rc"
export SAW_GUARD="$TERMHOST_SNAPSHOT"
alias greet='echo hello'
"""

SHELLS = [
    Shell(
        "bash",
        "bash",
        ".bashrc",
        "$$",
        "sleep 100 & echo $!",
        "case $- in *i*) ;; *) return;; esac\n"
        + POSIX_DEFINES
        + "twice() { echo \"$1$1\"; }\nshopt -s extglob\n"
        + "export UID EUID PPID SHELLOPTS BASH_VERSINFO 2>/dev/null\n",
        'greet; twice ab; echo "$FROM_RC"; shopt -q extglob && echo extglob; exit 7',
    ),
    Shell(
        "zsh",
        "zsh",
        ".zshrc",
        "$$",
        "sleep 100 & echo $!",
        POSIX_DEFINES
        + "twice() { echo \"$1$1\"; }\nsetopt extendedglob\nalias -g GG='| cat'\n"
        + "export UID EUID PPID\n",
        'greet GG; twice ab; echo "$FROM_RC"; [[ -o extendedglob ]] && echo extglob; exit 7',
    ),
    Shell(
        "sh",
        "dash",
        ".shrc",
        "$$",
        "sleep 100 & echo $!",
        POSIX_DEFINES + "set -o noclobber\n",
        'greet; echo abab; echo "$FROM_RC"; case $- in *C*) echo extglob;; esac; exit 7',
    ),
    Shell(
        "fish",
        "fish",
        ".config/fish/config.fish",
        "$fish_pid",
        "sleep 100 &; echo $last_pid",
        "set -gx FROM_RC 'from rc'\nset -gx SAW_GUARD $TERMHOST_SNAPSHOT\n"
        + "alias greet 'echo hello'\nfunction twice; echo $argv[1]$argv[1]; end\n",
        'greet; twice ab; echo "$FROM_RC"; echo extglob; exit 7',
    ),
]


def shell_param(shell: Shell) -> object:
    return pytest.param(shell, id=shell.kind)


ALL_SHELLS = [shell_param(shell) for shell in SHELLS]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    (path / ".config" / "fish").mkdir(parents=True)
    return path


@pytest.fixture
def groups() -> Iterator[list[int]]:
    """Capture groups a test learnt of: whatever is left in them is killed at the end."""
    seen: list[int] = []
    yield seen
    for pgid in seen:
        kill_group_members(pgid)


def environment(home: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "ZDOTDIR": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "ENV": str(home / ".shrc"),
        "LANG": "C.UTF-8",
        "WEIRD": WEIRD,
    }


def write_rc(home: Path, shell: Shell, text: str) -> None:
    (home / shell.rc).write_text(text)


def shell_path(shell: Shell) -> str:
    path = shutil.which(shell.path)
    if path is None:  # .ci/run installs zsh and fish: a missing shell is a failure, not a skip
        pytest.fail(f"{shell.path} is not installed (apt-get install zsh fish)")
    return path


def run(
    snapshot: Snapshot, script: Path, command: str, home: Path
) -> subprocess.CompletedProcess[bytes]:
    """Run `command` the way the exec runner will: the snapshot's script, then the command."""
    return subprocess.run(
        [*exec_argv(snapshot.kind, snapshot.shell, str(script)), command],
        env={"PATH": "/usr/bin:/bin", "HOME": str(home)},
        cwd=snapshot.cwd,
        capture_output=True,
        timeout=DEADLINE,
        check=False,
    )


def wait_for_empty_group(pgid: int) -> None:
    """No live process of the capture's group is left (the leader's pid is its id)."""
    wait_until(lambda: not group_members(pgid), what=f"group {pgid} to be empty")


# --- what is captured, and running commands in it ---------------------------------------


@pytest.mark.parametrize("shell", ALL_SHELLS)
def test_rc_state_is_captured_and_a_command_runs_in_it(
    shell: Shell, home: Path, tmp_path: Path
) -> None:
    write_rc(home, shell, f"echo BANNER\necho BANNER >&2\n{shell.defines}")
    snapshot = asyncio.run(capture(shell_path(shell), env=environment(home), cwd=str(home)))

    assert snapshot.kind == shell.kind
    assert snapshot.cwd == str(home)
    assert snapshot.env["FROM_RC"] == "from rc"
    assert snapshot.env["SAW_GUARD"] == "1"  # rc files can tell a capture from a session
    assert "BANNER" not in json.dumps(snapshot.to_json())
    for special in ("_", "PWD", "SHLVL", "UID", "EUID", "PPID", "SHELLOPTS", "BASH_VERSINFO",
                    "TERMHOST_SNAPSHOT"):
        assert special not in snapshot.env
    if shell.kind == "fish":  # aliases are functions in fish
        assert {"greet", "twice"} <= set(snapshot.functions)
    else:
        assert snapshot.aliases["greet"] == "echo hello"
    if shell.kind in ("bash", "zsh"):
        assert "twice" in snapshot.functions
    expected_option = {"bash": "extglob", "zsh": "extendedglob", "sh": "noclobber"}
    if shell.kind in expected_option:
        assert expected_option[shell.kind] in snapshot.options

    script = store(snapshot, tmp_path / "store").with_name(SCRIPT_NAME)
    result = run(snapshot, script, shell.uses, home)
    assert result.stdout.decode() == "hello\nabab\nfrom rc\nextglob\n", result.stderr
    assert result.returncode == 7
    # The command travels as an argument, but sees none, as a `-c` string does.
    count = 'echo "["(count $argv)"]"' if shell.kind == "fish" else 'echo "[$#]"'
    assert run(snapshot, script, count, home).stdout == b"[0]\n"


@pytest.mark.parametrize("shell", ALL_SHELLS)
def test_awkward_values_round_trip_byte_for_byte(shell: Shell, home: Path, tmp_path: Path) -> None:
    write_rc(home, shell, "")
    snapshot = asyncio.run(capture(shell_path(shell), env=environment(home)))
    assert snapshot.env["WEIRD"] == WEIRD

    script = store(snapshot, tmp_path / "store").with_name(SCRIPT_NAME)
    result = run(snapshot, script, 'printf %s "$WEIRD"', home)
    assert result.stdout == os.fsencode(WEIRD), result.stderr

    through_json = Snapshot.from_json(json.loads(json.dumps(snapshot.to_json())))
    assert through_json == snapshot
    assert load(tmp_path / "store" / "snapshot.json") == snapshot


LAZY_FUNCTIONS = {
    # kind: (rc file, how the shell prints a function, whether aliases are on)
    "bash": ("""\
case $- in *i*) ;; *) return;; esac
alias echo='echo A:'
say() { echo "$@"; }
set_caller() { printf -v "$1" '%s' "set by $FUNCNAME"; }
countdown() { if (( $1 > 0 )); then printf '%s ' "$1"; countdown $(( $1 - 1 )); else echo go; fi; }
fails() { return 3; }
""", "declare -f", "shopt -q expand_aliases"),
    "zsh": ("""\
alias echo='echo A:'
say() { echo "$@" }
set_caller() { typeset -g "$1"="set by $0" }
countdown() { if (( $1 > 0 )); then printf '%s ' "$1"; countdown $(( $1 - 1 )); else echo go; fi }
fails() { return 3 }
""", "functions", "[[ -o aliases ]]"),
}


@pytest.mark.parametrize("kind", sorted(LAZY_FUNCTIONS))
def test_functions_are_defined_when_first_called(kind: str, home: Path, tmp_path: Path) -> None:
    shell = next(shell for shell in SHELLS if shell.kind == kind)
    rc, show, aliases_on = LAZY_FUNCTIONS[kind]
    write_rc(home, shell, rc)
    snapshot = asyncio.run(capture(shell_path(shell), env=environment(home)))
    script = store(snapshot, tmp_path / "store").with_name(SCRIPT_NAME)

    result = run(snapshot, script, "\n".join([
        f"{show} countdown | grep -c go",  # a stub until called: no body yet
        "countdown 3",
        f"{show} countdown | grep -c go",
        "say hi",  # the body's alias was expanded once, when the rc file defined it
        'set_caller v; echo "$v"',  # the function runs in this shell, not a subshell
        'fails; echo "status $?"',
        f"{aliases_on} && echo aliases",  # as they were before the stub loaded one
    ]), home)
    assert result.stdout.decode() == (
        "0\n3 2 1 A: go\n1\nA: hi\nA: set by set_caller\nA: status 3\nA: aliases\n"
    ), result.stderr

    # Storing again (a refresh) keeps the previous definitions for an exec that began
    # with them, and no older ones; all private.
    first = {path for path in (tmp_path / "store").iterdir() if path.is_dir()}
    store(snapshot, tmp_path / "store")
    store(snapshot, tmp_path / "store")
    kept = {path for path in (tmp_path / "store").iterdir() if path.is_dir()}
    assert len(kept) == 2 and not kept & first
    for directory in kept:
        assert len(list(directory.iterdir())) == len(snapshot.functions)
        assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in directory.iterdir())
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert run(snapshot, script, "say again", home).stdout == b"A: again\n"


def test_bash_options_the_rc_file_turned_off_stay_off(home: Path, tmp_path: Path) -> None:
    bash = SHELLS[0]  # a bash -c has these on; the rc file turned them off
    write_rc(home, bash, "shopt -u sourcepath patsub_replacement; set +o braceexpand +h\n")
    snapshot = asyncio.run(capture(shell_path(bash), env=environment(home)))
    assert {"sourcepath", "braceexpand", "hashall"} <= set(snapshot.options_off)
    assert "errexit" not in snapshot.options_off
    script = store(snapshot, tmp_path / "store").with_name(SCRIPT_NAME)
    result = run(snapshot, script, "shopt -p sourcepath patsub_replacement; echo {a,b}; "
                 "[[ -o hashall ]] || echo nohash", home)
    assert result.stdout.decode() == (
        "shopt -u sourcepath\nshopt -u patsub_replacement\n{a,b}\nnohash\n"), result.stderr
    through_json = Snapshot.from_json(json.loads(json.dumps(snapshot.to_json())))
    assert through_json.options_off == snapshot.options_off


def test_json_keeps_non_utf8_values_as_base64_beside_readable_text() -> None:
    snapshot = Snapshot(
        shell="/bin/bash", kind="bash", cwd=os.fsdecode(b"/tmp/caf\xe9"),
        env={"OK": "café", "RAW": os.fsdecode(b"a\xffb")}, aliases={}, functions={},
        options=[], captured_at=1.5, duration_ms=3,
    )
    data = snapshot.to_json()
    json.dumps(data).encode("utf-8")  # valid UTF-8 throughout
    assert data["env"] == {"OK": "café", "RAW": "a\ufffdb"}
    assert data["b64"] == {"cwd": "L3RtcC9jYWbp", "env": {"RAW": "Yf9i"}}
    assert Snapshot.from_json(data) == snapshot


# --- rc files that misbehave ------------------------------------------------------------


def test_background_jobs_do_not_delay_the_capture_and_outlive_it(
    home: Path, tmp_path: Path, groups: list[int]
) -> None:
    async def one(shell: Shell) -> tuple[Snapshot, Path, Path]:
        pid_file, job_file = tmp_path / f"{shell.kind}.pid", tmp_path / f"{shell.kind}.job"
        write_rc(home, shell, f"echo {shell.pid} > {pid_file}\n{shell.background} > {job_file}\n")
        snapshot = await capture(shell_path(shell), env=environment(home), timeout=5)
        return snapshot, pid_file, job_file

    async def scenario() -> list[tuple[Snapshot, Path, Path]]:
        return await asyncio.gather(*(one(shell) for shell in SHELLS))

    for snapshot, pid_file, job_file in asyncio.run(scenario()):
        leader, job = int(pid_file.read_text()), int(job_file.read_text())
        groups.append(leader)
        assert snapshot.duration_ms < 3000
        assert pid_exists(job), f"{snapshot.kind}: the rc file's background job was killed"
        os.kill(job, signal.SIGKILL)


HANGS = {
    "foreground sleep": {"posix": "sleep 100", "fish": "sleep 100"},
    "exec sleep": {"posix": "exec sleep 100", "fish": "exec sleep 100"},
}


@pytest.mark.parametrize("hang", list(HANGS))
def test_an_rc_that_hangs_times_out_and_leaves_nothing_behind(
    hang: str, tmp_path: Path, groups: list[int]
) -> None:
    async def one(shell: Shell) -> tuple[SnapshotError, int]:
        home = tmp_path / shell.kind
        (home / ".config" / "fish").mkdir(parents=True)
        pid_file = tmp_path / f"{shell.kind}.pid"
        line = HANGS[hang]["fish" if shell.kind == "fish" else "posix"]
        write_rc(home, shell, f"echo {shell.pid} > {pid_file}\n{shell.background}\n{line}\n")
        with pytest.raises(SnapshotError) as raised:
            await capture(shell_path(shell), env=environment(home), timeout=2)
        return raised.value, int(pid_file.read_text())

    async def scenario() -> list[tuple[SnapshotError, int]]:
        return await asyncio.gather(*(one(shell) for shell in SHELLS))

    for error, leader in asyncio.run(scenario()):
        groups.append(leader)
        assert str(error).startswith("timed out after 2s capturing the environment of /")
        wait_for_empty_group(leader)


LOCKERS = {
    # The rc file itself takes the lock and removes it in a trap.
    "bash rc": ("bash", 'set -o noclobber; : > "$LOCK"; set +o noclobber\n'
                        'trap \'rm -f "$LOCK"\' EXIT TERM HUP\nsleep 100\n'),
    "zsh rc": ("zsh", 'set -o noclobber; : > "$LOCK"; set +o noclobber\n'
                      'trap \'rm -f "$LOCK"\' EXIT TERM HUP\nsleep 100\n'),
    # As `eval "$(pyenv init -)"` does: `pyenv rehash`, a bash script run from the rc file,
    # takes its lock with noclobber and removes it in an EXIT trap only.
    "pyenv-style child": ("bash", "bash -c 'set -o noclobber; : > \"$LOCK\" || exit 1;"
                                  " trap \"rm -f \\\"$LOCK\\\"\" EXIT; sleep 100'\n"),
}


@pytest.mark.parametrize("locker", list(LOCKERS))
def test_a_capture_that_times_out_lets_its_traps_remove_their_lock(
    locker: str, home: Path, tmp_path: Path, groups: list[int]
) -> None:
    """The capture guard asks the group to end (SIGHUP, SIGTERM) before it kills it: a lock
    left behind would make every later shell of the user's wait on it."""
    kind, rc = LOCKERS[locker]
    shell = next(s for s in SHELLS if s.kind == kind)
    lock, pid_file = tmp_path / "rehash.lock", tmp_path / "leader.pid"
    write_rc(home, shell, f"echo $$ > {pid_file}\n{rc}")
    env = {**environment(home), "LOCK": str(lock)}

    async def scenario() -> SnapshotError:
        with pytest.raises(SnapshotError) as raised:
            await capture(shell_path(shell), env=env, timeout=1, grace=DEADLINE)
        return raised.value

    error = asyncio.run(scenario())
    leader = int(pid_file.read_text())
    groups.append(leader)
    assert str(error).startswith("timed out after 1s")
    assert not lock.exists()
    assert not group_members(leader)  # nothing was left to kill: they ended in the grace


def test_an_rc_that_execs_a_shell_fails_at_once_and_leaves_nothing_behind(
    tmp_path: Path, groups: list[int]
) -> None:
    async def one(shell: Shell) -> tuple[SnapshotError, int]:
        home = tmp_path / shell.kind
        (home / ".config" / "fish").mkdir(parents=True)
        pid_file = tmp_path / f"{shell.kind}.pid"
        write_rc(home, shell, f"echo {shell.pid} > {pid_file}\n{shell.background}\nexec sh\n")
        with pytest.raises(SnapshotError) as raised:
            await capture(shell_path(shell), env=environment(home), timeout=5)
        return raised.value, int(pid_file.read_text())

    async def scenario() -> list[tuple[SnapshotError, int]]:
        return await asyncio.gather(*(one(shell) for shell in SHELLS))

    for error, leader in asyncio.run(scenario()):
        groups.append(leader)
        assert str(error).endswith(
            "exited with status 0 before reporting its environment: "
            "does a startup file exit or exec another program?"
        )
        wait_for_empty_group(leader)


@pytest.mark.parametrize("shell", ALL_SHELLS)
def test_read_in_an_rc_file_gets_end_of_file_instead_of_hanging(shell: Shell, home: Path) -> None:
    write_rc(home, shell, "read x\nexport AFTER_READ=yes\n" if shell.kind != "fish"
             else "read x\nset -gx AFTER_READ yes\n")
    snapshot = asyncio.run(capture(shell_path(shell), env=environment(home), timeout=5))
    assert snapshot.env["AFTER_READ"] == "yes"


# --- refusals ---------------------------------------------------------------------------


def test_an_unsupported_shell_is_refused_by_name(home: Path) -> None:
    with pytest.raises(UnsupportedShell) as raised:
        asyncio.run(capture("/usr/bin/python3", env=environment(home)))
    assert str(raised.value) == "snapshots are not supported for /usr/bin/python3"


BROKEN = {
    "bash": {"functions": {"broken": "broken () {\n    if; then\n}"}},
    "zsh": {"functions": {"broken": "broken () {\n\tif; then\n}"}},
    "sh": {"options": ["nosuchoption"]},
    "fish": {"functions": {"broken": 'function broken\n  echo "unterminated\nend'}},
}


@pytest.mark.parametrize("shell", ALL_SHELLS)
def test_a_snapshot_that_does_not_source_fails_validation(shell: Shell) -> None:
    good = Snapshot(
        shell=shell_path(shell), kind=shell.kind, cwd="/", env={"PATH": "/usr/bin:/bin"},
        aliases={}, functions={}, options=[], captured_at=0.0, duration_ms=0,
    )
    asyncio.run(validate(good))
    with pytest.raises(SnapshotError) as raised:
        asyncio.run(validate(replace(good, **BROKEN[shell.kind])))  # type: ignore[arg-type]
    assert str(raised.value).startswith(f"the snapshot of {good.shell} does not source cleanly: ")


# --- storage ----------------------------------------------------------------------------


def test_stored_snapshot_is_0600_in_a_0700_directory(tmp_path: Path) -> None:
    snapshot = Snapshot(
        shell="/bin/sh", kind="sh", cwd="/", env={"TOKEN": "secret"}, aliases={},
        functions={}, options=[], captured_at=0.0, duration_ms=0,
    )
    path = store(snapshot, tmp_path / "snapshots" / "session-1")
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.with_name(SCRIPT_NAME).stat().st_mode) == 0o600
    assert load(path) == snapshot
    assert sorted(p.name for p in path.parent.iterdir()) == ["snapshot.json", "snapshot.sh"]

    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    with pytest.raises(SnapshotError, match="accessible by other users"):
        store(snapshot, shared)
