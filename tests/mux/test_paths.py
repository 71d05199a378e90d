"""The server's socket: where it lives, which directories are refused, who may connect.

Everything is real: directories and sockets under tmp_path, and, as root, a peer process
running as nobody, so SO_PEERCRED reports a uid that is really someone else's.
"""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from termhost.mux.paths import (
    PaneVariable,
    SocketError,
    bind_server_socket,
    check_socket_dir,
    ensure_socket_dir,
    pane_variable,
    peer_allowed,
    peer_uid,
    socket_dir,
    socket_path,
)
from tests.conftest import BASE_ENV, DEADLINE, interpreter_for_nobody

NOBODY = 65534
UID = os.geteuid()
DIR_CHECKS: list[Callable[[Path], None]] = [ensure_socket_dir, check_socket_dir]

needs_root = pytest.mark.skipif(
    UID != 0,
    reason=f"needs root to give a file or a process to uid {NOBODY}; these tests run as uid {UID}",
)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def current_umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


@pytest.fixture
def umask() -> Iterator[Callable[[int], int]]:
    """Set the process umask for one test, restoring the one pytest had."""
    before = current_umask()
    yield os.umask
    os.umask(before)


# --- where the socket lives -------------------------------------------------------------


def test_termhost_tmpdir_comes_first(tmp_path: Path) -> None:
    env = {"TERMHOST_TMPDIR": str(tmp_path / "a"), "XDG_RUNTIME_DIR": str(tmp_path / "b")}
    assert socket_dir(env) == tmp_path / "a" / f"termhost-{UID}"


def test_xdg_runtime_dir_without_termhost_tmpdir(tmp_path: Path) -> None:
    assert socket_dir({"XDG_RUNTIME_DIR": str(tmp_path)}) == tmp_path / f"termhost-{UID}"


def test_empty_variables_count_as_unset(tmp_path: Path) -> None:
    env = {"TERMHOST_TMPDIR": "", "XDG_RUNTIME_DIR": str(tmp_path)}
    assert socket_dir(env) == tmp_path / f"termhost-{UID}"
    unset = {"TERMHOST_TMPDIR": "", "XDG_RUNTIME_DIR": ""}
    assert socket_dir(unset) == Path(f"/tmp/termhost-{UID}")


def test_tmp_when_neither_is_set() -> None:
    assert socket_dir({}) == Path(f"/tmp/termhost-{UID}")


def test_socket_dir_creates_nothing(tmp_path: Path) -> None:
    directory = socket_dir({"TERMHOST_TMPDIR": str(tmp_path)})
    assert not directory.exists()


def test_default_name(tmp_path: Path) -> None:
    env = {"TERMHOST_TMPDIR": str(tmp_path)}
    assert socket_path(env=env) == tmp_path / f"termhost-{UID}" / "default"


def test_custom_name(tmp_path: Path) -> None:
    env = {"TERMHOST_TMPDIR": str(tmp_path)}
    assert socket_path("work", env=env) == tmp_path / f"termhost-{UID}" / "work"


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "/etc/x", "../escape", "nul\0"])
def test_names_that_are_not_plain_file_names_are_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(SocketError, match="invalid socket name") as refused:
        socket_path(name, env={"TERMHOST_TMPDIR": str(tmp_path)})
    assert repr(name) in str(refused.value)
    assert "-S PATH" in str(refused.value)


def test_explicit_path_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert socket_path(path="sockets/mine") == tmp_path / "sockets" / "mine"
    assert socket_path(path="/run/elsewhere/s") == Path("/run/elsewhere/s")


def test_explicit_path_wins_over_name(tmp_path: Path) -> None:
    assert socket_path("work", str(tmp_path / "s")) == tmp_path / "s"


def test_in_a_pane_its_server_is_the_default(tmp_path: Path) -> None:
    inside = PaneVariable(Path("/run/a,b/sock"), 42, 3)  # commas in the path: tmux's $TMUX too
    env = {"TERMHOST_TMPDIR": str(tmp_path), "TERMHOST": str(inside)}
    assert pane_variable(env) == inside
    assert socket_path(env=env) == Path("/run/a,b/sock")
    assert socket_path("work", env=env) == tmp_path / f"termhost-{UID}" / "work"  # -L wins
    for odd in ("", "relative,1,2", "/s,x,2", "/s,1", "/s,1,", "/s,,1"):
        assert pane_variable({"TERMHOST": odd}) is None, odd
        assert socket_path(env={"TERMHOST": odd, "TERMHOST_TMPDIR": str(tmp_path)}) == (
            tmp_path / f"termhost-{UID}" / "default")


def test_empty_explicit_path_is_refused() -> None:
    with pytest.raises(SocketError, match="empty socket path"):
        socket_path(path="")


# --- the directory: ours alone, or refused ------------------------------------------------


def test_directory_is_created_0700_and_ours(tmp_path: Path, umask: Callable[[int], int]) -> None:
    umask(0)  # even with nothing masked, nobody else gets in
    directory = tmp_path / f"termhost-{UID}"
    ensure_socket_dir(directory)
    info = os.lstat(directory)
    assert stat.S_ISDIR(info.st_mode)
    assert mode_of(directory) == 0o700
    assert info.st_uid == UID
    check_socket_dir(directory)


def test_existing_good_directory_is_used(tmp_path: Path) -> None:
    """What a server sees when another one created the directory a moment earlier."""
    directory = tmp_path / f"termhost-{UID}"
    directory.mkdir(mode=0o700)
    (directory / "other").write_text("kept")
    ensure_socket_dir(directory)
    assert (directory / "other").read_text() == "kept"


def test_missing_base_directory_is_an_error(tmp_path: Path) -> None:
    directory = tmp_path / "no-such-base" / f"termhost-{UID}"
    with pytest.raises(SocketError, match="cannot create socket directory") as refused:
        ensure_socket_dir(directory)
    assert str(directory) in str(refused.value)


def test_client_check_does_not_create(tmp_path: Path) -> None:
    directory = tmp_path / f"termhost-{UID}"
    with pytest.raises(SocketError, match="does not exist"):
        check_socket_dir(directory)
    assert not directory.exists()


@pytest.mark.parametrize("check", DIR_CHECKS)
@pytest.mark.parametrize("mode", [0o755, 0o770, 0o701])
def test_directory_others_can_reach_is_refused(
    check: Callable[[Path], None], mode: int, tmp_path: Path
) -> None:
    directory = tmp_path / f"termhost-{UID}"
    directory.mkdir()
    directory.chmod(mode)
    with pytest.raises(SocketError) as refused:
        check(directory)
    assert str(refused.value) == (
        f"socket directory {directory} is accessible by other users (mode {mode:04o}): "
        "remove it or fix it with chmod 700"
    )
    assert mode_of(directory) == mode  # reported, not silently "fixed"


@pytest.mark.parametrize("check", DIR_CHECKS)
def test_symlink_to_a_good_directory_is_refused(
    check: Callable[[Path], None], tmp_path: Path
) -> None:
    target = tmp_path / "planted"
    target.mkdir(mode=0o700)
    directory = tmp_path / f"termhost-{UID}"
    directory.symlink_to(target)
    with pytest.raises(SocketError, match="is a symbolic link") as refused:
        check(directory)
    assert str(directory) in str(refused.value)
    assert directory.is_symlink()


@pytest.mark.parametrize("check", DIR_CHECKS)
def test_regular_file_in_its_place_is_refused(
    check: Callable[[Path], None], tmp_path: Path
) -> None:
    directory = tmp_path / f"termhost-{UID}"
    directory.write_text("not a directory")
    with pytest.raises(SocketError, match="is not a directory") as refused:
        check(directory)
    assert str(directory) in str(refused.value)
    assert directory.read_text() == "not a directory"


@needs_root
@pytest.mark.parametrize("check", DIR_CHECKS)
def test_directory_of_another_user_is_refused(
    check: Callable[[Path], None], tmp_path: Path
) -> None:
    directory = tmp_path / f"termhost-{UID}"
    directory.mkdir(mode=0o700)
    os.chown(directory, NOBODY, NOBODY)
    with pytest.raises(SocketError) as refused:
        check(directory)
    assert str(refused.value) == (
        f"socket directory {directory} is owned by uid {NOBODY}, not by you (uid {UID}): "
        "remove it, or set TERMHOST_TMPDIR to a directory of your own"
    )


# --- the socket file --------------------------------------------------------------------


def connect(path: Path) -> socket.socket:
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(DEADLINE)
    client.connect(os.fspath(path))
    return client


def assert_answers(server: socket.socket, path: Path) -> None:
    """A client connects to `path`, and what it sends arrives through `server`."""
    server.settimeout(DEADLINE)
    with connect(path) as client:
        connection, _ = server.accept()
        with connection:
            connection.settimeout(DEADLINE)
            client.sendall(b"hello")
            assert connection.recv(5) == b"hello"


@pytest.mark.parametrize("mask", [0o000, 0o022, 0o077])
def test_socket_is_0600_whatever_the_umask(
    mask: int, tmp_path: Path, umask: Callable[[int], int]
) -> None:
    umask(mask)
    path = tmp_path / "default"
    with bind_server_socket(path) as server:
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
        assert mode_of(path) == 0o600
        assert current_umask() == mask  # put back after bind
        assert_answers(server, path)


def test_second_server_is_refused_while_the_first_listens(tmp_path: Path) -> None:
    path = tmp_path / "default"
    with bind_server_socket(path) as first:
        with pytest.raises(SocketError) as refused:
            bind_server_socket(path)
        assert str(refused.value) == f"a server is already listening on {path}"
        first.settimeout(DEADLINE)
        probe, _ = first.accept()  # the second server's knock: connected, then gone
        with probe:
            assert probe.recv(1) == b""
        assert_answers(first, path)  # the refusal did not take its socket away


def test_stale_socket_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "default"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(os.fspath(path))  # closed without unlink: the file outlives its server
    with pytest.raises(ConnectionRefusedError):
        connect(path)
    with bind_server_socket(path) as server:
        assert mode_of(path) == 0o600
        assert_answers(server, path)


def test_regular_file_at_the_path_is_not_deleted(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("precious")
    with pytest.raises(SocketError) as refused:
        bind_server_socket(path)
    assert str(refused.value).startswith(f"{path} exists and is not a socket: refusing to delete")
    assert path.read_text() == "precious"


def test_unusable_place_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "no-such-dir" / "default"
    with pytest.raises(SocketError) as refused:
        bind_server_socket(path)
    assert str(refused.value) == f"cannot create socket {path}: No such file or directory"


# --- who is at the other end --------------------------------------------------------------


def test_peer_of_a_socketpair_is_ourselves() -> None:
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with left, right:
        assert peer_uid(left) == UID
        assert peer_uid(right) == UID
        assert peer_allowed(left)


def test_client_of_our_server_is_allowed(tmp_path: Path) -> None:
    path = tmp_path / "default"
    with bind_server_socket(path) as server, connect(path):
        server.settimeout(DEADLINE)
        connection, _ = server.accept()
        with connection:
            assert peer_uid(connection) == UID
            assert peer_allowed(connection)


@pytest.fixture
def public_dir() -> Iterator[Path]:
    """A directory under /tmp that nobody can reach (tmp_path's parents may be 0700)."""
    directory = Path(tempfile.mkdtemp(prefix="termhost-peer-", dir="/tmp"))
    try:
        directory.chmod(0o755)
        yield directory
    finally:
        shutil.rmtree(directory)


def run_as_nobody(script: str, *args: str) -> subprocess.Popen[str]:
    """Start a Python `script` as uid/gid nobody, with no supplementary groups."""
    return subprocess.Popen(
        [interpreter_for_nobody(), "-c", script, *args],
        user=NOBODY,
        group=NOBODY,
        extra_groups=[],
        env=BASE_ENV,
        cwd="/",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


CONNECT_AND_HOLD = """\
import socket, sys
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
client.settimeout(30)
client.connect(sys.argv[1])
print("connected", flush=True)
client.recv(1)  # stay connected until the server closes its end
"""

TRY_TO_CONNECT = """\
import socket, sys
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    client.connect(sys.argv[1])
except OSError as error:
    print(type(error).__name__)
else:
    print("connected")
"""


@needs_root
def test_foreign_peer_is_seen_and_not_allowed(public_dir: Path) -> None:
    path = public_dir / "open"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(os.fspath(path))
        path.chmod(0o666)  # open on purpose, so nobody gets as far as SO_PEERCRED
        server.listen()
        server.settimeout(DEADLINE)
        child = run_as_nobody(CONNECT_AND_HOLD, os.fspath(path))
        try:
            try:
                connection, _ = server.accept()
            except TimeoutError:
                child.kill()
                pytest.fail(f"the process running as nobody never connected: {child.communicate()}")
            with connection:
                assert peer_uid(connection) == NOBODY
                assert not peer_allowed(connection)
            stdout, stderr = child.communicate(timeout=DEADLINE)
            assert (child.returncode, stdout, stderr) == (0, "connected\n", "")
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()


@needs_root
def test_foreign_user_cannot_connect_to_a_server_socket(public_dir: Path) -> None:
    """The 0600 mode keeps others out before SO_PEERCRED is even asked."""
    path = public_dir / "default"
    with bind_server_socket(path):
        child = run_as_nobody(TRY_TO_CONNECT, os.fspath(path))
        stdout, stderr = child.communicate(timeout=DEADLINE)
    assert (child.returncode, stdout, stderr) == (0, "PermissionError\n", "")
