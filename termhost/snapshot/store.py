"""Snapshots on disk: `snapshot.json` and its rendering `snapshot.sh`, in a private directory.

A server keeps its sessions' snapshots under one directory per socket, so that two servers
(-L) never share a file:

    STATE/termhost/snapshots/                 0700 (`root`); STATE is $XDG_STATE_HOME
        %2Ftmp%2Ftermhost-1000%2Fdefault/     a server: its socket path with "%" and "/"
                                              percent-encoded (`server_dir`); 0700,
                                              emptied as a server starts on that socket
            3/                                a session, by id: snapshot.json, snapshot.sh

Snapshots hold secrets (tokens in the environment): their directories and files are
termhost.state's, private and replaced atomically.

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
from collections.abc import Mapping
from pathlib import Path

from termhost import state
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
]

JSON_NAME = "snapshot.json"
SCRIPT_NAME = "snapshot.sh"
FUNCTIONS_PREFIX = "functions."


def root(env: Mapping[str, str]) -> Path:
    """STATE/termhost/snapshots (termhost.state)."""
    return state.state_home(env) / "snapshots"


def server_dir(env: Mapping[str, str], socket: Path) -> Path:
    """The directory of the server listening on `socket` (an absolute path)."""
    return root(env) / state.socket_component(socket)


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
    state.write_private(directory / SCRIPT_NAME, os.fsencode(script))
    data = json.dumps(snapshot.to_json(), indent=1, ensure_ascii=False).encode("utf-8")
    path = directory / JSON_NAME
    state.write_private(path, data + b"\n")
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


def ensure_private_dir(directory: Path) -> None:
    """termhost.state's, for a snapshot directory: its error is a SnapshotError."""
    try:
        state.ensure_private_dir(directory, "snapshot")
    except state.PrivateStateError as error:
        raise SnapshotError(str(error)) from None
