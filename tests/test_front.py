"""The thin client (termhost.front): the command line a running server answers with
nothing heavier than posix, sys and _socket loaded, the command table it relays by, and a
client's stdin for the verbs that read "-" (load-buffer -, source-file -), as tmux's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import termhost
from termhost.front import RELAYED
from termhost.mux.verbs import VERBS
from tests.conftest import BothServers

ROOT = Path(termhost.__file__).resolve().parents[1]

HEAVY = {"argparse", "pathlib", "typing", "enum", "asyncio", "dataclasses", "socket",
         "selectors", "re", "json", "termhost.mux", "termhost.cli", "prompt_toolkit", "pyte",
         "os", "struct", "__future__"}
"""What the thin path must not import: each costs a command more than its round trip."""


def test_relayed_verbs_are_the_tables_but_those_that_attach() -> None:
    """Every name and alias of the command table goes to a running server as it is,
    but attach-session and new-session (which attach), and `run`, which may name a tape."""
    table = {word for verb in VERBS.values()
             if verb.name not in ("attach-session", "new-session")
             for word in (verb.name, *verb.aliases)} - {"run"}
    assert table == RELAYED


def test_a_command_to_a_running_server_imports_nothing_heavy(env: dict[str, str]) -> None:
    """Started as bin/termhost's interpreter would be, without site: the round trip
    answers, and leaves none of HEAVY in sys.modules."""
    started = subprocess.run([sys.executable, "-m", "termhost", "-f", "/dev/null", "new", "-d",
                              "-s", "thin", "sleep 1000"], env=env, capture_output=True,
                             text=True, timeout=30, check=False)
    assert started.returncode == 0, started.stderr
    probe = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import termhost.front as front\n"
             "status = front.main(['display', '-p', '#{session_name}'])\n"
             "print(status, ' '.join(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-S", "-c", probe], env=env, capture_output=True,
                          text=True, timeout=30, check=False)
    answer, status_and_modules = done.stdout.split("\n", 1)
    status, modules = status_and_modules.split(" ", 1)
    assert (answer, status, done.stderr) == ("thin", "0", "")
    loaded = set(modules.split())
    assert "termhost.front" in loaded
    assert not loaded & HEAVY, sorted(loaded & HEAVY)


def test_load_buffer_and_source_file_read_the_clients_stdin(both: BothServers) -> None:
    """tmux's file_read of "-": `... | tmux loadb -` makes a buffer of what was piped
    (nothing piped, no buffer), `... | tmux source -` runs it as a file named -, its
    errors as -:LINE."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    steps: list[tuple[list[str], str]] = [
        (["load-buffer", "-"], "piped\ttext\n"),
        (["load-buffer", "-b", "named", "-"], "x" * 100_000),
        (["load-buffer", "-b", "empty", "-"], ""),
        (["list-buffers"], ""),
        (["source-file", "-"], "set -g @from stdin\ndisplay -p 'sourced #{@from}'\n"),
        (["source-file", "-"], "set -g @x 1\nnosuchcommand\n"),
        (["show", "-gv", "@x"], ""),
    ]
    for args, text in steps:
        seen = {name: both.run(name, *args, stdin=text) for name in both.NAMES}
        answers = {name: (done.returncode, done.stdout, done.stderr)
                   for name, done in seen.items()}
        assert answers["termhost"] == answers["tmux"], args


def test_a_verb_reading_stdin_from_a_binding_has_none(both: BothServers) -> None:
    """With no command-line client to read from (run from a key binding, a hook, or
    if-shell's command in the server), "-" is tmux's EBADF, said as tmux says it."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    seen = {name: both.answers(name, ["run-shell", "-C", "load-buffer -"])
            for name in both.NAMES}
    assert seen["termhost"] == seen["tmux"]


def test_the_installed_front_runs_without_site(env: dict[str, str]) -> None:
    """bin/termhost starts termhost-py's interpreter with -S: termhost is found (an
    editable install's project, or site-packages) without `site` and its .pth files,
    which the import log shows never loaded, and the command is answered."""
    scripts = Path(sys.executable).parent
    assert (scripts / "termhost-py").exists(), "install termhost first (pip install -e .)"
    started = subprocess.run([str(scripts / "termhost"), "-f", "/dev/null", "new", "-d", "-s",
                              "front", "sleep 1000"], env=env, capture_output=True, text=True,
                             timeout=30, check=False)
    assert started.returncode == 0, started.stderr
    done = subprocess.run([sys.executable, "-S", "-X", "importtime", str(scripts / "termhost-py"),
                           "display", "-p", "#{session_name}"], env=env, capture_output=True,
                          text=True, timeout=30, check=False)
    assert (done.returncode, done.stdout) == (0, "front\n"), done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "termhost.front" in imported
    assert not {name for name in imported if name == "site" or "editable" in name}


def test_a_cold_detached_new_session_starts_its_server_the_thin_way(
    env: dict[str, str], tmp_path: Path,
) -> None:
    """`new-session -d` with no server running (libtmux's first call) starts the server
    without the full command line: neither termhost.cli, argparse nor asyncio in the
    client, and the session is there once it returns, as tmux's."""
    scripts = Path(sys.executable).parent
    done = subprocess.run([sys.executable, "-S", "-X", "importtime", str(scripts / "termhost-py"),
                           "-f", "/dev/null", "new-session", "-d", "-s", "cold", "sleep 1000"],
                          env=env, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "termhost.starting" in imported
    assert not imported & {"termhost.cli", "argparse", "asyncio", "pathlib", "typing"}
    listed = subprocess.run([sys.executable, "-m", "termhost", "ls", "-F", "#{session_name}"],
                            env=env, capture_output=True, text=True, timeout=30, check=False)
    assert listed.stdout == "cold\n"


def test_a_server_that_exits_as_it_starts_says_why_in_one_line(tmp_path: Path,
                                                               env: dict[str, str]) -> None:
    """A socket path that is a regular file: the server refuses it and exits; the
    command that started it gives the server's own words and where its log is."""
    taken = tmp_path / "taken"
    taken.write_text("not a socket")
    done = subprocess.run([sys.executable, "-m", "termhost", "-S", str(taken), "new", "-d"],
                          env=env, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 1
    assert done.stderr == (
        f"termhost: the server exited as it started: {taken} exists and is not a socket: "
        f"refusing to delete it; remove it yourself or choose another path (see {taken}.log)\n")
    assert taken.read_text() == "not a socket"
