"""Resurrection records: one JSON file per session, under
`$XDG_STATE_HOME/termhost/sessions/SOCKET/NAME.json` (termhost.state: 0600 files in 0700
directories, replaced atomically, so a kill at any moment leaves the last good record).

A record holds what it takes to rebuild the session (and beside it, its environment
snapshot, from which the session's shells start again): its name, when it was created,
its options set on it alone, its current window; each window's index, name (and whether
automatic-rename named it), layout (tmux's layout string), zoom and active pane; each
pane's working directory, the program in its foreground (None for the pane's shell) and
title. Never the panes' content, unless `resurrect-scrollback` asks for it (kept in a
file of its own beside the record). Records are versioned: one of a newer version, or one
that does not parse, is refused with a one-line reason and the others still load.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from glob import escape as glob_escape
from pathlib import Path
from typing import Any

from termhost import state

__all__ = [
    "VERSION",
    "PaneRecord",
    "RecordError",
    "SessionRecord",
    "WindowRecord",
    "directory",
    "forget",
    "forget_scrollback",
    "load_all",
    "load_scrollback",
    "load_snapshot",
    "prune",
    "save",
    "save_scrollback",
    "save_snapshot",
    "screen_path",
    "script_path",
]

VERSION = 1
"""The records this termhost writes; it reads those up to it."""

_SUFFIX = ".json"
_SCROLLBACK_SUFFIX = ".scrollback"
"""What the panes showed (resurrect-scrollback), beside the record, only when asked for."""
_SNAPSHOT_SUFFIX = ".snapshot"
"""A session's environment snapshot (its JSON), beside its record: written once per
snapshot, not with every change of the record."""


class RecordError(Exception):
    """A record that cannot be used; one line naming it and why."""


@dataclass
class PaneRecord:
    cwd: str
    command: list[str] | None = None
    """The program in the pane's foreground, or None: the pane's shell. Its argv when a
    shell runs it (`in_shell`); else the pane's own command as it was given (one word: a
    shell command line, as new-window's)."""
    title: str = ""
    in_shell: bool = True
    """The program runs under the pane's shell, which comes back when it ends."""


@dataclass
class WindowRecord:
    index: int
    name: str
    layout: str
    panes: list[PaneRecord]
    active: int = 0
    """The active pane, by its place in `panes`."""
    automatic_name: bool = True
    zoomed: bool = False


@dataclass
class SessionRecord:
    name: str
    windows: list[WindowRecord]
    created: float = 0.0
    current: int = 0
    """The current window's index."""
    cwd: str = ""
    options: dict[str, str] = field(default_factory=dict)
    saved: float = 0.0
    """When it was written (time.time())."""

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, **asdict(self)}

    @classmethod
    def from_json(cls, data: Any) -> SessionRecord:
        """The record `data` holds; RecordError saying what is wrong with it."""
        if not isinstance(data, dict):
            raise RecordError("not a JSON object")
        version = data.get("version")
        if not isinstance(version, int) or version < 1:
            raise RecordError("no version")
        if version > VERSION:
            raise RecordError(f"written by a newer termhost (record version {version}, "
                              f"this one reads up to {VERSION})")
        try:
            windows = [WindowRecord(**{**window, "panes": [PaneRecord(**pane)
                                                           for pane in window["panes"]]})
                       for window in data["windows"]]
            record = cls(
                name=data["name"], windows=windows, created=float(data.get("created", 0)),
                current=int(data.get("current", 0)), cwd=str(data.get("cwd", "")),
                options={str(k): str(v) for k, v in dict(data.get("options", {})).items()},
                saved=float(data.get("saved", 0)))
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"malformed ({type(error).__name__}: {error})") from None
        _check(record)
        return record


def _check(record: SessionRecord) -> None:
    """The types JSON cannot promise, and a session's shape: a name, at least one window,
    each with at least one pane."""
    if not isinstance(record.name, str) or not record.name:
        raise RecordError("no session name")
    if not record.windows:
        raise RecordError("no windows")
    for window in record.windows:
        if not (isinstance(window.index, int) and isinstance(window.name, str)
                and isinstance(window.layout, str) and window.panes
                and isinstance(window.active, int) and 0 <= window.active < len(window.panes)):
            raise RecordError(f"window {window.index!r} is malformed")
        for pane in window.panes:
            if not isinstance(pane.cwd, str) or not isinstance(pane.title, str) or not isinstance(
                    pane.in_shell, bool) or not (
                    pane.command is None or (isinstance(pane.command, list) and pane.command
                                             and all(isinstance(w, str) for w in pane.command))):
                raise RecordError(f"a pane of window {window.index} is malformed")


def directory(env: Mapping[str, str], socket: Path | str) -> Path:
    """The records of the server listening on `socket`."""
    return state.state_home(env) / "sessions" / state.socket_component(socket)


def _path(where: Path, name: str) -> Path:
    return where / (state.socket_component(name) + _SUFFIX)


def _write_json(path: Path, data: Any, indent: int | None = None) -> None:
    """`data` as JSON at `path`, in this server's private directory (and its parent)."""
    state.ensure_private_dir(path.parent.parent, "session record")
    state.ensure_private_dir(path.parent, "session record")
    text = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    state.write_private(path, text.encode("utf-8"))


def _read_json(path: Path) -> Any:
    """The JSON at `path`; None if it is missing, unreadable, not JSON or another
    user's (what it was for then does without it)."""
    try:
        with open(path, "rb") as file:
            if os.fstat(file.fileno()).st_uid != os.geteuid():
                return None
            return json.loads(file.read())
    except (OSError, ValueError):
        return None


def save(where: Path, record: SessionRecord) -> None:
    """Write `record` (its `saved` time set now), replacing the session's last one."""
    record.saved = time.time()
    _write_json(_path(where, record.name), record.to_json(), indent=1)


def save_snapshot(where: Path, name: str, snapshot: Mapping[str, Any]) -> None:
    """Keep the environment snapshot of session `name` (its JSON) beside its record."""
    _write_json(_snapshot_path(where, name), snapshot)


def load_snapshot(where: Path, name: str) -> dict[str, Any] | None:
    """The snapshot kept beside the record of `name` (its JSON); None if there is none
    or it cannot be read (the shells then start as usual)."""
    data = _read_json(_snapshot_path(where, name))
    return data if isinstance(data, dict) else None


def save_scrollback(where: Path, name: str, panes: list[list[str]]) -> None:
    """Keep what the panes of session `name` showed (resurrect-scrollback's lines of
    each, by window then pane, with their SGR) beside its record."""
    _write_json(_scrollback_path(where, name), panes)


def forget_scrollback(where: Path, name: str) -> None:
    """Remove what `save_scrollback` kept of session `name`."""
    try:
        os.unlink(_scrollback_path(where, name))
    except FileNotFoundError:
        pass


def load_scrollback(where: Path, name: str) -> list[list[str]]:
    """What `save_scrollback` kept, by window then pane ([] if nothing, or unreadable)."""
    data = _read_json(_scrollback_path(where, name))
    if not isinstance(data, list) or not all(
            isinstance(panes, list) and all(isinstance(text, str) for text in panes)
            for panes in data):
        return []
    return data


def screen_path(where: Path, name: str, window: int, pane: int) -> Path:
    """Where a resurrected pane reads what it showed, to show it again."""
    return where / f".{state.socket_component(name)}.{window}.{pane}.screen"


def script_path(where: Path, name: str) -> Path:
    """Where a resurrected session's shells read its snapshot from (a script)."""
    return where / f".{state.socket_component(name)}.sh"


def _scrollback_path(where: Path, name: str) -> Path:
    return where / f"{state.socket_component(name)}{_SCROLLBACK_SUFFIX}"


def _snapshot_path(where: Path, name: str) -> Path:
    return where / f"{state.socket_component(name)}{_SNAPSHOT_SUFFIX}"


def forget(where: Path, name: str) -> bool:
    """Remove the record of session `name` (and its snapshot); whether there was one."""
    encoded = state.socket_component(name)
    script = script_path(where, name)
    for path in (_snapshot_path(where, name), script, _scrollback_path(where, name),
                 *where.glob(f".{glob_escape(encoded)}.*.screen")):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
    shutil.rmtree(f"{script}.zdotdir", ignore_errors=True)  # zsh's (shells/zsh.py)
    try:
        os.unlink(_path(where, name))
    except FileNotFoundError:
        return False
    return True


def load_all(where: Path) -> tuple[list[SessionRecord], list[str]]:
    """The records in `where`, by name, and a warning line for each that cannot be used
    (it stays on disk: a newer termhost may read it). Another uid's file is refused."""
    records: list[SessionRecord] = []
    warnings: list[str] = []
    try:
        entries = sorted(os.listdir(where))
    except OSError:
        return [], []
    euid = os.geteuid()
    for entry in entries:
        if not entry.endswith(_SUFFIX) or entry.startswith("."):
            continue
        path = where / entry
        try:
            with open(path, "rb") as file:
                if os.fstat(file.fileno()).st_uid != euid:
                    raise RecordError("owned by another user")
                data = json.loads(file.read())
            records.append(SessionRecord.from_json(data))
        except OSError as error:
            warnings.append(f"session record {path} ignored: {error.strerror or error}")
        except ValueError as error:
            warnings.append(f"session record {path} ignored: not valid JSON ({error})")
        except RecordError as error:
            warnings.append(f"session record {path} ignored: {error}")
    return sorted(records, key=lambda record: record.name), warnings


def prune(where: Path, max_age: float, now: float | None = None) -> list[str]:
    """Remove the records not written for `max_age` seconds; their sessions' names."""
    now = time.time() if now is None else now
    records, _ = load_all(where)
    gone = [record.name for record in records if now - record.saved > max_age]
    for name in gone:
        try:
            forget(where, name)
        except OSError:
            pass  # left for the next time
    return gone
