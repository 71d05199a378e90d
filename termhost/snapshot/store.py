"""Snapshots on disk: `snapshot.json` and its rendering `snapshot.sh`, in a private directory.

A server keeps its sessions' snapshots under one directory per socket, so that two servers
(-L) never share a file:

    STATE/termhost/snapshots/                 0700 (`root`); STATE is $XDG_STATE_HOME
        %2Ftmp%2Ftermhost-1000%2Fdefault/     a server: its socket path with "%" and "/"
                                              percent-encoded (`server_dir`); 0700,
                                              emptied as a server starts on that socket
            3/                                a session, by id: snapshot.json, snapshot.sh

Snapshots hold secrets (tokens in the environment), so the directory is ours alone (0700,
owned by our euid, not a symlink: the same checks `termhost.mux.paths` makes for the
socket directory) and each file is born 0600. Files are replaced atomically (temp file,
fsync, rename), so a reader sees the old snapshot or the new one, never half of one.

The `.sh` rendering is kept next to the JSON because the exec runner needs a file to
source (`exec_argv` takes its path): it is `exec_script`'s, whose bash function stubs
load their definitions from a directory `functions.TAG` beside it (a new TAG each time;
the previous one kept for an exec that began before, older ones removed). The script is written
before the JSON, so a `snapshot.json` in place always has its script beside it. `load`
reads the JSON only.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from termhost.snapshot.errors import SnapshotError
from termhost.snapshot.model import Snapshot
from termhost.snapshot.shells import exec_script

__all__ = [
    "JSON_NAME",
    "SCRIPT_NAME",
    "ensure_private_dir",
    "load",
    "root",
    "server_dir",
    "store",
    "write_private",
]

JSON_NAME = "snapshot.json"
SCRIPT_NAME = "snapshot.sh"
FUNCTIONS_PREFIX = "functions."


def root(env: Mapping[str, str]) -> Path:
    """STATE/termhost/snapshots, STATE being $XDG_STATE_HOME, else ~/.local/state."""
    base = env.get("XDG_STATE_HOME") or os.path.join(env.get("HOME", "~"), ".local", "state")
    return Path(os.path.expanduser(base)) / "termhost" / "snapshots"


def server_dir(env: Mapping[str, str], socket: Path) -> Path:
    """The directory of the server listening on `socket` (an absolute path): percent-
    encoding only "%" and "/" keeps the name one path component, unique per socket."""
    encoded = os.fspath(socket).replace("%", "%25").replace("/", "%2F")
    return root(env) / encoded


def store(snapshot: Snapshot, directory: Path | str) -> Path:
    """Write `snapshot` into `directory` (created 0700 if missing); returns the JSON path."""
    directory = Path(directory)
    ensure_private_dir(directory)
    earlier = sorted(directory.glob(f"{FUNCTIONS_PREFIX}*"), key=_age)
    functions = directory / f"{FUNCTIONS_PREFIX}{secrets.token_hex(4)}"
    script, files = exec_script(snapshot, lambda number: str(functions / str(number)))
    if files:
        functions.mkdir(mode=0o700)
        for number, text in enumerate(files):
            # No fsync: a server empties its directory as it starts, so these never
            # outlive the process that wrote them.
            fd = os.open(functions / str(number), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as file:
                file.write(os.fsencode(text))
    write_private(directory / SCRIPT_NAME, os.fsencode(script))
    data = json.dumps(snapshot.to_json(), indent=1, ensure_ascii=False).encode("utf-8")
    path = directory / JSON_NAME
    write_private(path, data + b"\n")
    # The previous generation stays: an exec that began with the script before this one
    # may still load a function from it. Older ones go.
    for old in earlier[:-1]:
        shutil.rmtree(old, ignore_errors=True)
    return path


def _age(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def load(path: Path | str) -> Snapshot:
    """The snapshot stored at `path` (a `snapshot.json`)."""
    try:
        with open(path, "rb") as file:
            data = json.load(file)
    except OSError as error:
        raise SnapshotError(f"cannot read snapshot {path}: {error.strerror}") from None
    except ValueError as error:
        raise SnapshotError(f"snapshot {path} is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise SnapshotError(f"snapshot {path} is not a JSON object")
    return Snapshot.from_json(data)


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


def ensure_private_dir(directory: Path) -> None:
    """Create `directory` 0700 if missing, then refuse it unless it is ours alone.

    lstat, not stat: a symlink planted in a shared place would send the secrets wherever
    its maker chose. Parents are created with the umask's mode; only the leaf is checked.
    """
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        directory.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as error:
        raise SnapshotError(
            f"cannot create snapshot directory {directory}: {error.strerror}"
        ) from None
    info = os.lstat(directory)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise SnapshotError(
            f"snapshot directory {directory} is not a directory (or is a symbolic link): "
            "remove it and termhost will create it"
        )
    euid = os.geteuid()
    if info.st_uid != euid:
        raise SnapshotError(
            f"snapshot directory {directory} is owned by uid {info.st_uid}, not by you "
            f"(uid {euid}): remove it or choose another directory"
        )
    if info.st_mode & 0o077:
        raise SnapshotError(
            f"snapshot directory {directory} is accessible by other users "
            f"(mode {stat.S_IMODE(info.st_mode):04o}): fix it with chmod 700"
        )
