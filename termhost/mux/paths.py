"""Where the server's Unix socket lives, and who may talk to it.

Whoever can connect to the socket can type into every pane, so it is guarded three ways, as
tmux guards its own: the directory holding it is ours alone (a real directory, owned by our
euid, mode 0700), the socket file is 0600, and every peer's uid is checked as it connects
(SO_PEERCRED: the owner, root, and the users server-access let in). The default location
gets the directory checks (`ensure_socket_dir` in the server, `check_socket_dir` in a
client); an explicit `-S PATH` is the user's choice of place, and only the socket itself
is checked, as in tmux.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
import struct
from collections.abc import Container, Mapping
from pathlib import Path
from typing import NamedTuple

from termhost import sockets

__all__ = [
    "DEFAULT_NAME",
    "PANE_ID_VARIABLE",
    "PANE_VARIABLE",
    "PaneVariable",
    "SocketError",
    "bind_server_socket",
    "check_socket_dir",
    "ensure_socket_dir",
    "pane_variable",
    "peer_allowed",
    "peer_credentials",
    "peer_uid",
    "socket_dir",
    "socket_path",
]

DEFAULT_NAME = sockets.DEFAULT_NAME
PANE_VARIABLE = sockets.PANE_VARIABLE
PANE_ID_VARIABLE = "TERMHOST_PANE"
"""The pane's own id (`%ID`), as tmux's $TMUX_PANE."""

_UCRED = struct.Struct("iII")
"""struct ucred from SO_PEERCRED: pid_t pid, uid_t uid, gid_t gid (uid_t and gid_t unsigned)."""


SocketError = sockets.SocketError


def socket_dir(env: Mapping[str, str] = os.environ) -> Path:
    """BASE/termhost-UID (termhost.sockets.socket_dir); nothing is created here."""
    return Path(sockets.socket_dir(env))


def socket_path(
    name: str | None = None, path: str | None = None, env: Mapping[str, str] = os.environ
) -> Path:
    """The socket for `-L NAME` or `-S PATH` (termhost.sockets.socket_path)."""
    return Path(sockets.socket_path(name, path, env))


class PaneVariable(NamedTuple):
    """$TERMHOST, which every pane's process gets: the server it runs under, and where."""

    socket: Path
    server_pid: int
    session_id: int

    def __str__(self) -> str:
        return f"{self.socket},{self.server_pid},{self.session_id}"


def pane_variable(env: Mapping[str, str] = os.environ) -> PaneVariable | None:
    """$TERMHOST read back, or None when it is unset or not ours."""
    inside = sockets.pane_socket(env)
    return None if inside is None else PaneVariable(Path(inside[0]), inside[1], inside[2])


ensure_socket_dir = sockets.ensure_socket_dir
check_socket_dir = sockets.check_socket_dir


def peer_credentials(sock: socket.socket) -> tuple[int, int]:
    """The pid and uid of the process at the other end of a Unix socket (SO_PEERCRED)."""
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size)
    pid, uid, _gid = _UCRED.unpack(creds)
    return int(pid), int(uid)


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process at the other end of a connected AF_UNIX socket.

    The kernel records it at connect() (or socketpair()), so the peer cannot lie about it.
    """
    return peer_credentials(sock)[1]


def peer_allowed(sock: socket.socket, listed: Container[int] = ()) -> bool:
    """Whether the peer may talk to our server: our own euid, root (who could anyway), or
    a uid the server's access list holds (server-access -a)."""
    uid = peer_uid(sock)
    return uid in (os.geteuid(), 0) or uid in listed


def bind_server_socket(path: Path) -> socket.socket:
    """A listening AF_UNIX stream socket at `path`, mode 0600.

    The mode is set by the umask around bind(), because a chmod after it would leave a
    moment in which others could connect. The umask is process-wide: a file another thread
    creates during that bind() gets mode 0600 too, so bind before starting threads.

    A file already at `path` is a stale socket when connecting to it is refused (a server
    died without unlinking it): it is replaced. A server that answers, or anything that is
    not a socket, is left alone and refused. The live server sees that probe as a client
    that hangs up without a word, which it must take in its stride anyway.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        try:
            _bind_private(sock, path)
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
            _remove_stale_socket(path)
            _bind_private(sock, path)
        sock.listen()
    except OSError as error:
        sock.close()
        raise SocketError(f"cannot create socket {path}: {error.strerror or error}") from None
    except BaseException:
        sock.close()
        raise
    return sock


def _bind_private(sock: socket.socket, path: Path) -> None:
    """bind() with umask 0o177, so the socket is born 0600."""
    old_umask = os.umask(0o177)
    try:
        sock.bind(os.fspath(path))
    finally:
        os.umask(old_umask)


def _remove_stale_socket(path: Path) -> None:
    """Unlink the socket at `path` if nobody listens on it; raise SocketError otherwise."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return  # gone since bind() found it: bind again
    if not stat.S_ISSOCK(info.st_mode):
        raise SocketError(
            f"{path} exists and is not a socket: refusing to delete it; "
            "remove it yourself or choose another path"
        )
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # Non-blocking: a live server with a full backlog gives EAGAIN at once instead of a hang.
    probe.setblocking(False)
    try:
        probe.connect(os.fspath(path))
    except ConnectionRefusedError:
        pass  # stale: the file is there but nobody listens
    except BlockingIOError:
        raise SocketError(f"a server is already listening on {path}") from None
    except OSError as error:
        raise SocketError(f"cannot check the socket at {path}: {error.strerror}") from None
    else:
        raise SocketError(f"a server is already listening on {path}")
    finally:
        probe.close()
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass  # someone else cleared it first: bind again
