"""termhost's private state on disk, under `$XDG_STATE_HOME/termhost` (~/.local/state):
where it is, and the one way files there are made.

Snapshots (snapshot/store.py) and resurrection records (resurrect/records.py) hold
secrets (tokens in the environment, what a pane shows), so every directory is ours
alone (0700, owned by our euid, not a symlink) and every file is born 0600 and replaced
atomically (temp file, fsync, rename): a reader, or a server killed mid-write, sees the
old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

__all__ = ["PrivateStateError", "ensure_private_dir", "socket_component", "state_home",
           "write_private"]


class PrivateStateError(Exception):
    """A private directory we refuse or cannot make; one line for the user."""


def state_home(env: Mapping[str, str]) -> Path:
    """STATE/termhost, STATE being $XDG_STATE_HOME, else ~/.local/state."""
    base = env.get("XDG_STATE_HOME") or os.path.join(env.get("HOME", "~"), ".local", "state")
    return Path(os.path.expanduser(base)) / "termhost"


def socket_component(socket: Path | str) -> str:
    """A server's socket path as one file name: "%" and "/" percent-encoded, so that each
    socket (each -L server) has a directory of its own."""
    return os.fspath(socket).replace("%", "%25").replace("/", "%2F")


def write_private(path: Path, data: bytes) -> None:
    """Atomically replace `path` with `data`, mode 0600 from the start (mkstemp's mode)."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(directory)  # the rename itself survives a crash
    finally:
        os.close(directory)


def ensure_private_dir(directory: Path, what: str) -> None:
    """Create `directory` 0700 if missing, then refuse it unless it is ours alone; `what`
    names it in the errors ("snapshot", "session record").

    lstat, not stat: a symlink planted in a shared place would send the secrets wherever
    its maker chose. Parents are created with the umask's mode; only the leaf is checked.
    """
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        directory.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as error:
        raise PrivateStateError(
            f"cannot create {what} directory {directory}: {error.strerror}") from None
    info = os.lstat(directory)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise PrivateStateError(
            f"{what} directory {directory} is not a directory (or is a symbolic link): "
            "remove it and termhost will create it")
    euid = os.geteuid()
    if info.st_uid != euid:
        raise PrivateStateError(
            f"{what} directory {directory} is owned by uid {info.st_uid}, not by you "
            f"(uid {euid}): remove it or choose another directory")
    if info.st_mode & 0o077:
        raise PrivateStateError(
            f"{what} directory {directory} is accessible by other users "
            f"(mode {stat.S_IMODE(info.st_mode):04o}): fix it with chmod 700")
