"""Where a server's socket is, by the rules of tmux's -L, -S and $TMUX: the one
implementation the thin client (termhost.front) and the rest (mux.paths) share, in plain
strings, so that finding a running server costs a command line no imports.

BASE/termhost-EUID/NAME, BASE being $TERMHOST_TMPDIR, else $XDG_RUNTIME_DIR, else /tmp
(empty variables count as unset); -S PATH instead, made absolute; without either, the
server of the pane the command runs in ($TERMHOST, as tmux reads $TMUX), else "default".

posix rather than os, and string annotations rather than `from __future__`: both imports
cost the thin client more than its round trip.
"""

import posix
import stat
from _socket import AF_UNIX, SOCK_STREAM, socket

TYPE_CHECKING = False  # typing's own import costs the thin path; mypy reads the name
if TYPE_CHECKING:
    from collections.abc import Mapping
    from os import PathLike

DEFAULT_NAME = "default"
"""The socket name when no `-L NAME` is given."""

PANE_VARIABLE = "TERMHOST"
"""What every pane's environment holds as tmux's $TMUX: SOCKET,SERVER_PID,SESSION_ID."""


class SocketError(Exception):
    """A socket location we refuse or cannot use; the message is one line for the user."""


def connect(path: str) -> socket:
    """A connection to the server at `path`: _socket's own socket, since the socket
    module would cost the thin path enum and selectors."""
    sock = socket(AF_UNIX, SOCK_STREAM)
    try:
        sock.connect(path)
    except BaseException:
        sock.close()
        raise
    return sock


def absolute(path: str) -> str:
    """os.path.abspath without os: `path` from the working directory, with "." and ".."
    resolved by name (as abspath does, symbolic links untouched)."""
    if not path.startswith("/"):
        path = f"{posix.getcwd()}/{path}"
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            del parts[-1:]
        elif part and part != ".":
            parts.append(part)
    return "/" + "/".join(parts)


def socket_dir(env: "Mapping[str, str]") -> str:
    """BASE/termhost-EUID; nothing is created here. The base is made absolute, so that
    a server and a client started from different directories agree."""
    base = env.get("TERMHOST_TMPDIR") or env.get("XDG_RUNTIME_DIR") or "/tmp"
    return f"{absolute(base).rstrip('/')}/termhost-{posix.geteuid()}"


def pane_socket(env: "Mapping[str, str]") -> tuple[str, int, int] | None:
    """$TERMHOST read back as (socket, server pid, session id), or None when it is unset
    or not ours. The socket path may hold commas: the pid and the id are the last two."""
    socket, _, rest = env.get(PANE_VARIABLE, "").rpartition(",")
    socket, _, pid = socket.rpartition(",")
    if not socket.startswith("/") or not pid.isdigit() or not rest.isdigit():
        return None
    return socket, int(pid), int(rest)


def socket_path(name: str | None, path: str | None,
                env: "Mapping[str, str]") -> str:
    """The socket for `-L NAME` (a file in `socket_dir`) or `-S PATH`; `-S` wins, as in
    tmux. A NAME is a file name, never a path: one with "/" (or ".", "..", "") would put
    the socket outside the checked directory."""
    if path is not None:
        if not path:
            raise SocketError("empty socket path: give -S a file name")
        return absolute(path)
    if name is None:
        inside = pane_socket(env)
        if inside is not None:
            return inside[0]
        name = DEFAULT_NAME
    if name in ("", ".", "..") or "/" in name or "\0" in name:
        raise SocketError(
            f"invalid socket name {name!r}: -L takes a plain file name (use -S PATH for a path)"
        )
    return f"{socket_dir(env)}/{name}"


def ensure_socket_dir(directory: "str | PathLike[str]") -> None:
    """Create `directory` 0700 if missing, then refuse it unless it is ours alone.

    Another process creating it at the same moment is fine: whoever made it, the checks that
    follow decide whether it may be used.
    """
    try:
        posix.mkdir(directory, 0o700)
    except FileExistsError:
        pass
    except OSError as error:
        raise SocketError(f"cannot create socket directory {directory}: {error.strerror}") from None
    check_socket_dir(directory)


def check_socket_dir(directory: "str | PathLike[str]") -> None:
    """The checks of `ensure_socket_dir` without creating anything (for clients).

    lstat, not stat: a symlink planted in a shared /tmp would send our socket, and whoever
    connects to it, wherever its maker chose.
    """
    try:
        info = posix.lstat(directory)
    except FileNotFoundError:
        raise SocketError(
            f"socket directory {directory} does not exist: no server has been started there"
        ) from None
    except OSError as error:
        raise SocketError(
            f"cannot examine socket directory {directory}: {error.strerror}"
        ) from None
    if stat.S_ISLNK(info.st_mode):
        raise SocketError(
            f"socket directory {directory} is a symbolic link: remove it and termhost will "
            "create the directory itself"
        )
    if not stat.S_ISDIR(info.st_mode):
        raise SocketError(f"socket directory {directory} is not a directory: remove it")
    euid = posix.geteuid()
    if info.st_uid != euid:
        raise SocketError(
            f"socket directory {directory} is owned by uid {info.st_uid}, not by you "
            f"(uid {euid}): remove it, or set TERMHOST_TMPDIR to a directory of your own"
        )
    if info.st_mode & 0o077:
        raise SocketError(
            f"socket directory {directory} is accessible by other users "
            f"(mode {stat.S_IMODE(info.st_mode):04o}): remove it or fix it with chmod 700"
        )
