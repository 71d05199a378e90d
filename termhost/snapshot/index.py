"""Where a server keeps its sessions' snapshots, laid out so that `bin/termhost`, the POSIX
sh front of the command line, can run `termhost exec` in one without starting Python.

Python's start alone (30 ms and more) is longer than an interactive shell reading a light
rc file, so the snapshot could never beat the shell it stands in for if every `exec` asked
the server. Instead the server keeps, next to each stored snapshot, the command line that
runs in it, and the front finds it from what it already knows (the socket path and the
`-t` target) with nothing but shell builtins:

    STATE/termhost/snapshots/                 0700 (`ROOT`)
        %2Ftmp%2Ftermhost-1000%2Fdefault/     one per server: its socket path with "%"
                                              and "/" percent-encoded; 0700, emptied when
                                              a server starts on that socket
            3/                                a session, by id ($3): snapshot.json,
                                              snapshot.sh, and `exec` while it is ready
            =work -> 3                        a session by name, moved by rename-session

`exec` is sh for the front to source: `server=PID` (a dead server's files are not used),
`cwd=DIR`, and `set -- ARGV`, the shell's command line to which the command string is
appended as its last argument (`termhost.snapshot.shells.exec_argv`). Whatever the front
cannot settle this way (a prefix of a name, a snapshot still being taken, an error) it
hands to the Python command line, which asks the server: the index is a shortcut, never
the authority.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from termhost.snapshot.store import ensure_private_dir, write_private

__all__ = [
    "EXEC_NAME",
    "ensure_server_dir",
    "link_name",
    "name_link",
    "publish",
    "retract",
    "root",
    "server_dir",
    "unlink_name",
]

EXEC_NAME = "exec"
"""The front's file in a session's directory; present exactly while its snapshot is ready."""


def root(env: Mapping[str, str]) -> Path:
    """STATE/termhost/snapshots, STATE being $XDG_STATE_HOME, else ~/.local/state."""
    base = env.get("XDG_STATE_HOME") or os.path.join(env.get("HOME", "~"), ".local", "state")
    return Path(os.path.expanduser(base)) / "termhost" / "snapshots"


def server_dir(env: Mapping[str, str], socket: Path) -> Path:
    """The directory of the server listening on `socket` (an absolute path).

    Percent-encoding only "%" and "/" keeps the name one path component, unique per
    socket, and cheap for the front to compute with parameter expansion.
    """
    encoded = os.fspath(socket).replace("%", "%25").replace("/", "%2F")
    return root(env) / encoded


def ensure_server_dir(directory: Path) -> None:
    """Create the root and `directory` 0700, each checked to be ours alone: the front
    sources what it finds there."""
    ensure_private_dir(directory.parent)
    ensure_private_dir(directory)


def name_link(directory: Path, name: str) -> Path | None:
    """Where the link for session `name` lives; None for a name that is no file name."""
    if not name or "/" in name or "\0" in name:
        return None
    return directory / f"={name}"


def link_name(directory: Path, session_id: int, name: str, old: str | None = None) -> None:
    """Point `=name` at the session's directory (replacing any link of that name at once),
    and remove `=old` if it still points there."""
    if old is not None:
        unlink_name(directory, session_id, old)
    link = name_link(directory, name)
    if link is None:
        return
    temporary = directory / f".{session_id}.link"
    try:
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(str(session_id))
        temporary.replace(link)
    except OSError:
        temporary.unlink(missing_ok=True)  # the front then asks the server: slower, not wrong


def unlink_name(directory: Path, session_id: int, name: str) -> None:
    """Remove `=name` if it points at this session (a newer session may own it now)."""
    link = name_link(directory, name)
    if link is None:
        return
    try:
        if os.readlink(link) == str(session_id):
            link.unlink()
    except OSError:
        pass


def publish(session_dir: Path, server_pid: int, cwd: str, argv: Sequence[str]) -> None:
    """Write the session's `exec` file: its snapshot is ready for the front."""
    lines = [
        "# termhost exec's command line for this session, read by bin/termhost",
        f"server={server_pid}",
        f"cwd={shlex.quote(cwd)}",
        "set -- " + " ".join(shlex.quote(word) for word in argv),
    ]
    write_private(session_dir / EXEC_NAME, os.fsencode("\n".join(lines) + "\n"))


def retract(session_dir: Path) -> None:
    """Remove the `exec` file: a new snapshot is being taken, or the session ends."""
    (session_dir / EXEC_NAME).unlink(missing_ok=True)
