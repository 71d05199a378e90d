"""Resurrection records, on the server's side: each session's record (resurrect/records.py)
kept up to date on disk, so that a server that dies (a crash, kill -9, a reboot) leaves
what it takes to bring its sessions back.

A record is written after a change of structure (a window or pane made, moved or closed,
a layout, a name: `changed`, debounced by DEBOUNCE) and looked at every POLL seconds for
what changes without an event (a pane's working directory, its foreground program, its
title); it is written only when it differs from the last one written. A session that ends
on purpose (kill-session, its last pane exiting, kill-server) loses its record; a server
that is killed (a signal: SIGTERM as the machine shuts down, a crash) freezes them as they
are. `set -g resurrect off` stops it and
removes the records. With `set -g resurrect-scrollback N`, the panes' last N lines are
kept too, at each look, for the sessions whose panes wrote since the last one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from termhost.mux import layout
from termhost.resurrect import records
from termhost.resurrect.programs import unwrap
from termhost.resurrect.records import PaneRecord, SessionRecord, WindowRecord
from termhost.state import PrivateStateError

if TYPE_CHECKING:
    from termhost.mux.model import Session
    from termhost.mux.pane import Pane
    from termhost.mux.server import Server
    from termhost.snapshot.model import Snapshot

__all__ = ["DEBOUNCE", "POLL", "REFRESH", "Resurrection", "record_of"]

DEBOUNCE = 0.2
"""Seconds after a change before the records are looked at: a burst of changes (a
script's splits) is one write."""
POLL = 5.0
"""Seconds between looks for what changes without an event."""
REFRESH = 86400.0
"""Seconds after which a record that has not changed is written again: its time says
the session lived then (resurrect-max-age counts from it)."""


class Resurrection:
    """The records of one server's sessions, in `where` (records.directory)."""

    def __init__(self, server: Server, where: Path) -> None:
        self.server = server
        self.where = where
        self._written: dict[str, tuple[str, float]] = {}
        """Each session's record as last written (but for its time), and when."""
        self._snapshots: dict[str, Snapshot] = {}
        """Each session's snapshot as last kept beside its record."""
        self._wrote: defaultdict[str, int] = defaultdict(lambda: -1)
        """The bytes each session's panes had written when what they show was kept."""
        self._screens: asyncio.Future[None] | None = None
        self._soon: asyncio.TimerHandle | None = None
        self._poll: asyncio.TimerHandle | None = None
        self._frozen = False
        self._warned = False

    def start(self) -> None:
        """Look every POLL seconds, from now on; drop the records past their
        resurrect-max-age, this server's and every other socket's (a socket in a
        temporary directory that is gone is never started again to drop its own)."""
        max_age = self.server.options.number("resurrect-max-age") * 86400
        try:
            others = [path for path in self.where.parent.iterdir() if path != self.where]
        except OSError:
            others = []
        for server_dir in [self.where, *others]:
            records.prune(server_dir, max_age)
            if server_dir != self.where:
                with contextlib.suppress(OSError):
                    server_dir.rmdir()  # only if nothing is left in it
        self._poll = asyncio.get_running_loop().call_later(POLL, self._look_again)

    def changed(self) -> None:
        """Something of a session's structure changed: look soon."""
        if self._soon is None and not self._frozen:
            self._soon = asyncio.get_running_loop().call_later(DEBOUNCE, self.save_changed)

    def save_changed(self) -> None:
        """Write the record of every session whose record differs from the last written."""
        self._soon = None
        if self._frozen:
            return
        keep = self.server.options.get("resurrect") == "on"
        for session in list(self.server.sessions.values()):
            if not keep:
                if records.forget(self.where, session.name):
                    self._written.pop(session.name, None)
                continue
            self._save_snapshot(session)
            record = record_of(self.server, session)
            text = json.dumps(record.to_json(), sort_keys=True)
            last = self._written.get(session.name)
            if last is not None and last[0] == text and time.time() - last[1] < REFRESH:
                continue
            try:
                records.save(self.where, record)
            except (OSError, PrivateStateError) as error:
                if not self._warned:  # once: a full disk should not fill the log too
                    print(f"termhost server: cannot write session records: {error}",
                          file=sys.stderr)
                    self._warned = True
                continue
            self._written[session.name] = (text, time.time())

    def _save_snapshot(self, session: Session) -> None:
        """The session's environment snapshot beside its record, once it is ready (and
        again when a new one is taken)."""
        kept = session.snapshot
        if kept is None or kept.status != "ready" or kept.snapshot is None:
            return
        if self._snapshots.get(session.name) is kept.snapshot:
            return
        try:
            records.save_snapshot(self.where, session.name, kept.snapshot.to_json())
        except (OSError, PrivateStateError):
            return  # the record itself said so, if the disk is the cause
        self._snapshots[session.name] = kept.snapshot

    def renamed(self, old: str) -> None:
        """A session was renamed: the record under its old name goes."""
        self.ended(old)
        self.changed()

    def ended(self, name: str) -> None:
        """The session `name` ended on purpose: no record of it stays."""
        if not self._frozen:
            records.forget(self.where, name)
            self._written.pop(name, None)
            self._snapshots.pop(name, None)
            self._wrote.pop(name, None)

    def freeze(self) -> None:
        """The server is being killed: every record stays as it was last written."""
        self._frozen = True
        for handle in (self._soon, self._poll):
            if handle is not None:
                handle.cancel()

    def _keep_screens(self) -> None:
        """With resurrect-scrollback N, what the panes show (their last N lines, with
        their colours) kept beside each record whose panes wrote since the last time."""
        lines = self.server.options.number("resurrect-scrollback")
        if self._frozen or (self._screens is not None and not self._screens.done()):
            return
        sessions = [session for session in self.server.sessions.values()
                    if self._wrote[session.name] != _output_of(session)] if lines else []
        if sessions:
            self._screens = asyncio.ensure_future(self._capture(sessions, lines))
        elif not lines:
            for name in list(self._wrote):
                records.forget_scrollback(self.where, name)
                del self._wrote[name]

    async def _capture(self, sessions: list[Session], lines: int) -> None:
        from termhost.mux.commands import Context, run_command  # the verbs: after mux

        for session in sessions:
            written = _output_of(session)
            shown = []
            for link in sorted(session.links, key=lambda each: each.index):
                texts = []
                for pane in link.window.panes:
                    result = await run_command(Context(self.server, no_hooks=True), [
                        "capture-pane", "-p", "-e", "-S", f"-{lines}", "-t", pane.name])
                    shown_lines = result.stdout.split("\n") if result.status == 0 else []
                    while shown_lines and not shown_lines[-1].strip():
                        shown_lines.pop()  # the screen's empty rows below the last line
                    texts.append("".join(f"{line}\n" for line in shown_lines))
                shown.append(texts)
            if self._frozen or self.server.sessions.get(session.name) is not session:
                continue
            try:
                records.save_scrollback(self.where, session.name, shown)
            except (OSError, PrivateStateError):
                continue
            self._wrote[session.name] = written

    def _look_again(self) -> None:
        self.save_changed()
        self._keep_screens()
        if not self._frozen:
            self._poll = asyncio.get_running_loop().call_later(POLL, self._look_again)


def _output_of(session: Session) -> int:
    """A measure that changes whenever a pane of `session` writes."""
    return sum(pane.output_bytes for window in session.windows for pane in window.panes)


def record_of(server: Server, session: Session) -> SessionRecord:
    """The record of `session` as it stands (its `saved` time not set)."""
    windows = []
    for link in sorted(session.links, key=lambda each: each.index):
        window = link.window
        panes = []
        for pane in window.panes:
            command, in_shell = foreground(pane)
            panes.append(PaneRecord(pane.current_path() or pane.start_path, command,
                                    pane.terminal.screen.title or "", in_shell))
        windows.append(WindowRecord(
            link.index, window.name, layout.describe(window.layout, lambda pane: pane.id),
            panes, active=window.panes.index(window.active),
            automatic_name=window.automatic_name, zoomed=window.zoomed))
    current = session.current.index if session.current is not None else windows[0].index
    return SessionRecord(session.name, windows, created=session.created, current=current,
                         cwd=session.path, options=dict(session.options))


def foreground(pane: Pane) -> tuple[list[str] | None, bool]:
    """The program in the foreground of the pane's terminal, and whether it runs under
    the pane's shell: the pane's own command when its process is in the foreground (None
    for the shell), else the process group leader's argv. (None, True) when it cannot
    be told (a dead pane)."""
    if pane.child is None or pane.closed:
        return None, True
    try:
        group = os.tcgetpgrp(pane.master)
    except OSError:
        return None, True
    if group != pane.pid:
        return _command_line(group), True
    original = unwrap(pane.start_command)
    if original is None:
        return list(pane.start_command) or None, not pane.start_command
    # A resurrected pane's program: still waiting for Enter or running under its
    # wrapper, or exec'd in its place; else the wrapper has become the shell.
    line = _command_line(pane.pid)
    if line == pane.start_command or (not original[1] and line == original[0]):
        return original
    return None, True


def _command_line(pid: int) -> list[str] | None:
    """The argv of process `pid`; None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            line = file.read().rstrip(b"\0")  # each argument ends in a NUL
    except OSError:
        return None
    return [os.fsdecode(word) for word in line.split(b"\0")] if line else None
