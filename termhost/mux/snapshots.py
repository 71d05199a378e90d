"""Each session's environment snapshot, on the server's side: taken once in the background
when the session is created, retried when it fails, kept on disk while the session lives.

The capture itself (a shell reading its startup files inside the capture guard, the data
parsed and validated) is termhost/snapshot's, through the server's one CaptureQueue
(bounded, shared by identical sessions); this module decides when, keeps the state a
client asks about (`#{snapshot_status}`, `termhost snapshot`, `termhost exec`) and the
files: a 0700 directory of 0600 files per session in the server's directory under
`$XDG_STATE_HOME/termhost/snapshots/` (the layout is termhost.snapshot.store's), removed
with the session. Nothing of a snapshot reaches the server's log: values are
secrets.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

from termhost.snapshot.errors import SnapshotError, UnsupportedShell
from termhost.snapshot.model import Snapshot
from termhost.snapshot.queue import CaptureQueue
from termhost.snapshot.store import SCRIPT_NAME, ensure_private_dir, store

__all__ = ["RETRIES", "SessionSnapshot"]

RETRIES = 3
"""Attempts at most for one capture; the waits between them double from BACKOFF."""
BACKOFF = 1.0


class SessionSnapshot:
    """The snapshot of one session: `status` is none (not asked for yet: the snapshots
    option is off), pending, ready, failed or unsupported."""

    def __init__(self, shell: str, cwd: str | None, env: Mapping[str, str], server_dir: Path,
                 session_id: int, name: str, timeout: float, captures: CaptureQueue) -> None:
        """`server_dir` is the server's (store.server_dir): one per socket, so that two
        servers (-L) never share a file; `captures` is the server's queue."""
        self.shell, self.cwd, self.env = shell, cwd, dict(env)
        self.captures = captures
        self.server_dir, self.session_id, self.name = server_dir, session_id, name
        self.directory = server_dir / str(session_id)
        self.timeout = timeout
        self.status = "none"
        self.error = ""
        """The last attempt's error (one line), kept once it failed for good."""
        self.snapshot: Snapshot | None = None
        self._task: asyncio.Task[None] | None = None
        self._done = asyncio.Event()

    def register(self) -> None:
        """Make the session's directory, snapshot or not."""
        try:
            self._ensure_server_dir()
            ensure_private_dir(self.directory)
        except (SnapshotError, OSError):
            pass  # storing a snapshot will fail the same way, and say so

    def start(self, *, fresh: bool = False) -> None:
        """Take it in the background: the session does not wait. `fresh` (--refresh)
        takes a new one rather than share another session's; exec waits for it."""
        if self._task is not None and not self._task.done():
            return
        self.status, self._done = "pending", asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._take(fresh))

    def adopt(self, snapshot: Snapshot) -> None:
        """Take `snapshot` as this session's, ready, without a capture (a resurrected
        session's, from its record: the rc files do not run again). One that cannot be
        stored leaves the snapshot failed, as a capture that could not be would."""
        try:
            self._store(snapshot)
        except (SnapshotError, OSError) as error:
            self.status, self.error = "failed", str(error)
        else:
            self.snapshot, self.status, self.error = snapshot, "ready", ""
        self._done.set()

    @property
    def script(self) -> Path:
        """The stored script that recreates the environment (`termhost exec` sources it)."""
        return self.directory / SCRIPT_NAME

    async def wait(self) -> None:
        await self._done.wait()

    def rename(self, name: str) -> None:
        """rename-session."""
        self.name = name

    def discard(self) -> None:
        """The session ended: the capture stops (its group killed) and the files go."""
        if self._task is not None:
            self._task.cancel()
        shutil.rmtree(self.directory, ignore_errors=True)

    def _ensure_server_dir(self) -> None:
        """The server's directory and the root above it, private."""
        ensure_private_dir(self.server_dir.parent)
        ensure_private_dir(self.server_dir)

    def _store(self, snapshot: Snapshot) -> None:
        self._ensure_server_dir()
        store(snapshot, self.directory)

    async def _take(self, fresh: bool) -> None:
        try:
            for attempt in range(RETRIES):
                try:
                    snapshot = await self.captures.capture(
                        self.shell, cwd=self.cwd, env=self.env, timeout=self.timeout,
                        fresh=fresh)
                    self._store(snapshot)
                except UnsupportedShell as error:
                    self.status, self.error = "unsupported", str(error)
                    return
                except (SnapshotError, OSError) as error:
                    self.error = str(error) if isinstance(error, SnapshotError) else (
                        f"{error.filename or self.directory}: {error.strerror or error}")
                    # The message may quote the shell's output: it stays out of the log.
                    print(f"termhost server: a snapshot of {self.shell} failed "
                          f"(attempt {attempt + 1} of {RETRIES})", file=sys.stderr)
                    if attempt + 1 < RETRIES:
                        await asyncio.sleep(BACKOFF * 2**attempt)
                    continue
                self.snapshot, self.status, self.error = snapshot, "ready", ""
                return
            self.status = "failed"
        finally:
            if self.status == "pending":  # cancelled: the session went
                self.status = "failed"
                self.error = self.error or "the capture was cancelled"
            self._done.set()
