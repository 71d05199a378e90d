"""server-access: its answers held against a live tmux 3.3a's, and what it does to a real
second user (nobody) connecting to both servers' sockets.

Both servers' sockets are private (the directory 0700, the socket 0600) by design; as a
tmux user must, the tests make the socket reachable themselves: the server is started
with -S in a directory anyone may enter, and its socket is chmod 0777, so that only the
access list stands between nobody and the server."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import BASE_ENV, DEADLINE, BothServers, interpreter_for_nobody, wait_until

NOBODY = 65534

needs_root = pytest.mark.skipif(
    os.geteuid() != 0, reason="needs root to run a client as another user (nobody)")

def _users() -> list[str]:
    """Users other than us the listing can name, in uid order as tmux lists them."""
    names = []
    for name in ("daemon", "bin", "nobody"):
        try:
            if pwd.getpwnam(name).pw_uid not in (0, os.getuid()):
                names.append(name)
        except KeyError:
            pass
    return names


def test_answers_as_tmux(both: BothServers) -> None:
    """tmux 3.3a's checks in its order and its words: -l first (the owner listed unless
    root, users by uid, `(R)`/`(W)`), `missing user argument`, `unknown user: X` (the
    name a format), `X owns the server, can't change access` for the owner and root,
    then `-a and -d cannot be used together`, `-r and -w ...`; -a of one already added,
    -d of one not added; -r and -w add the user if needed; -d takes it away."""
    users = _users()
    me = pwd.getpwuid(os.getuid()).pw_name
    steps = [["server-access", "-l"], ["server-access"], ["server-access", "-a", "nosuch"],
             ["server-access", "-a", ""], ["server-access", "-a", me],
             ["server-access", "-r", "root"], ["server-access", "-ad", users[0]],
             ["server-access", "-rw", users[0]], ["server-access", "-d", users[0]],
             ["server-access", users[0]], ["server-access", "-a", "#{host}"]]
    for user in users:
        steps += [["server-access", "-a", user], ["server-access", "-a", user],
                  ["server-access", "-l"]]
    steps += [["server-access", "-r", users[0]], ["server-access", "-l"],
              ["server-access", "-w", users[0]], ["server-access", "-ar", users[-1]],
              ["server-access", "-d", users[-1]], ["server-access", "-al"],
              ["server-access", "-r", users[-1]], ["server-access", "-l"]]
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s").returncode == 0
    for step in steps:
        assert both.answers("termhost", step) == both.answers("tmux", step), step


@pytest.fixture
def public_dir() -> Iterator[Path]:
    """A directory under /tmp that nobody may enter (tmp_path's parents may be 0700)."""
    directory = Path(tempfile.mkdtemp(prefix="termhost-access-", dir="/tmp"))
    try:
        directory.chmod(0o755)
        yield directory
    finally:
        shutil.rmtree(directory)


class Shared:
    """tmux and termhost, each started by us with its socket opened to everyone."""

    def __init__(self, directory: Path, env: dict[str, str]) -> None:
        self.env = env
        self.sockets = {"tmux": directory / "tmux", "termhost": directory / "termhost"}
        self.programs = {"tmux": ["tmux", "-S", str(self.sockets["tmux"]), "-f", "/dev/null"],
                         "termhost": [sys.executable, "-m", "termhost", "-S",
                                      str(self.sockets["termhost"]), "-f", "/dev/null"]}

    def run(self, name: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.programs[name], *args], env=self.env,
                              capture_output=True, text=True, timeout=30, check=False)

    def as_nobody(self, name: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.nobody_argv(name, *args), user=NOBODY, group=NOBODY,
                              extra_groups=[], env=self.nobody_env(), cwd="/",
                              capture_output=True, text=True, timeout=30, check=False)

    def nobody_argv(self, name: str, *args: str) -> list[str]:
        program = self.programs[name]
        if name == "termhost":
            program = [interpreter_for_nobody(), *program[1:]]
        return [*program, *args]

    @staticmethod
    def nobody_env() -> dict[str, str]:
        root = str(Path(__file__).resolve().parents[2])
        return {**BASE_ENV, "HOME": "/", "TERM": "xterm", "PYTHONPATH": root}


@pytest.fixture
def shared(public_dir: Path, both: BothServers) -> Iterator[Shared]:
    servers = Shared(public_dir, both.env)
    for name in both.NAMES:
        assert servers.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        servers.sockets[name].chmod(0o777)  # as a tmux user must make its socket reachable
    try:
        yield servers
    finally:
        for name in both.NAMES:
            servers.run(name, "kill-server")


def answers(done: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    return done.returncode, done.stdout, done.stderr


@needs_root
def test_other_users_are_kept_out_until_added(shared: Shared) -> None:
    """Not listed: `access not allowed`, status 0, as tmux's; added (-a): its commands run;
    made read-only (-r): only list-clients, attach, detach and switch-client run, a
    command line holding any other verb is refused (`client is read-only`); writable
    again (-w), everything runs; taken away (-d): kept out again."""
    steps: list[tuple[list[str] | None, list[str]]] = [
        (None, ["list-sessions", "-F", "#{session_name}"]),
        (["-a", "nobody"], ["list-sessions", "-F", "#{session_name}"]),
        (["-r", "nobody"], ["list-sessions"]),
        (None, ["new-window", "-d"]),
        (None, ["list-clients"]),
        (None, ["list-clients", ";", "list-sessions"]),
        (None, ["detach-client", "-a"]),
        (None, ["switch-client", "-t", "s"]),
        (["-w", "nobody"], ["list-windows", "-F", "#{window_index}"]),
        (None, ["new-window", "-d"]),
        (["-d", "nobody"], ["list-sessions"]),
    ]
    for change, step in steps:
        seen = {}
        for name in ("tmux", "termhost"):
            if change is not None:
                assert shared.run(name, "server-access", *change).returncode == 0
            seen[name] = answers(shared.as_nobody(name, *step))
        assert seen["termhost"] == seen["tmux"], (change, step)


@needs_root
def test_a_read_only_users_client_attaches_read_only(shared: Shared) -> None:
    """A client nobody attaches is read-only (#{client_readonly}) while the user is
    (-r), writable after -w, and detached by -d: tmux's server_acl_join and -d."""
    for name in ("tmux", "termhost"):
        assert shared.run(name, "server-access", "-r", "nobody").returncode == 0
    primary, secondary = os.openpty()
    os.set_blocking(primary, False)
    children = {}
    try:
        for name in ("tmux", "termhost"):
            children[name] = subprocess.Popen(
                shared.nobody_argv(name, "attach", "-t", "s"), user=NOBODY, group=NOBODY,
                extra_groups=[], env=shared.nobody_env(), cwd="/", stdin=secondary,
                stdout=secondary, stderr=secondary, start_new_session=True)

        def drain() -> None:
            try:
                while os.read(primary, 65536):
                    pass
            except BlockingIOError:
                pass

        def flags(name: str) -> str:
            drain()
            return shared.run(name, "list-clients", "-F",
                              "#{client_uid} #{client_readonly}").stdout

        def flags_are(name: str, expected: str) -> Callable[[], bool]:
            return lambda: flags(name) == expected

        for name in ("tmux", "termhost"):
            assert wait_until(flags_are(name, f"{NOBODY} 1\n"), what=f"{name}'s client")
            shared.run(name, "server-access", "-w", "nobody")
            assert wait_until(flags_are(name, f"{NOBODY} 0\n"), what="writable")
            shared.run(name, "server-access", "-d", "nobody")
            assert wait_until(flags_are(name, ""), what="its client detached")
            drain()
            assert children[name].wait(timeout=DEADLINE) == 0
    finally:
        for child in children.values():
            if child.poll() is None:
                child.kill()
                child.wait()
        os.close(primary)
        os.close(secondary)
