"""Each session's environment snapshot, on the server's side: taken once in the background
when the session is created, retried when it fails, kept on disk while the session lives.

The capture itself (a shell reading its startup files inside the capture guard, the data
parsed and validated) is termhost/snapshot's; this module decides when, keeps the state a
client asks about (`#{snapshot_status}`, `termhost snapshot`, `termhost exec`) and where the
files go: under `$XDG_STATE_HOME/termhost/snapshots/` (0700), a directory of 0600 files per
session (the JSON and the script), removed with the session. Nothing of a snapshot reaches
the server's log: values are secrets.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

from termhost.snapshot.capture import capture
from termhost.snapshot.errors import SnapshotError, UnsupportedShell
from termhost.snapshot.model import Snapshot
from termhost.snapshot.store import SCRIPT_NAME, store

__all__ = ["RETRIES", "SessionSnapshot", "snapshot_dir"]

RETRIES = 3
"""Attempts at most for one capture; the waits between them double from BACKOFF."""
BACKOFF = 1.0


def snapshot_dir(env: Mapping[str, str]) -> Path:
    """Where snapshots are kept: termhost/snapshots under the XDG state directory."""
    base = env.get("XDG_STATE_HOME") or os.path.join(env.get("HOME", "~"), ".local", "state")
    return Path(os.path.expanduser(base)) / "termhost" / "snapshots"


class SessionSnapshot:
    """The snapshot of one session: `status` is pending, ready, failed or unsupported."""

    def __init__(self, shell: str, cwd: str | None, env: Mapping[str, str], directory: Path,
                 timeout: float) -> None:
        self.shell, self.cwd, self.env, self.directory = shell, cwd, dict(env), directory
        self.timeout = timeout
        self.status = "pending"
        self.error = ""
        """The last attempt's error (one line), kept once it failed for good."""
        self.snapshot: Snapshot | None = None
        self._task: asyncio.Task[None] | None = None
        self._done = asyncio.Event()

    @classmethod
    def for_session(cls, server_path: Path, session_id: int, shell: str, cwd: str | None,
                    env: Mapping[str, str], timeout: float) -> SessionSnapshot:
        """One named after the server's socket and the session, so that two servers (-L)
        never share a file."""
        tag = hashlib.sha256(os.fsencode(server_path)).hexdigest()[:12]
        return cls(shell, cwd, env, snapshot_dir(env) / f"{tag}-{session_id}", timeout)

    def start(self) -> None:
        """Take it in the background (again, for --refresh): the session does not wait."""
        if self._task is not None and not self._task.done():
            return
        self.status, self._done = "pending", asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._take())

    @property
    def script(self) -> Path:
        """The stored script that recreates the environment (`termhost exec` sources it)."""
        return self.directory / SCRIPT_NAME

    async def wait(self) -> None:
        await self._done.wait()

    def discard(self) -> None:
        """The session ended: the capture stops (its group killed) and the files go."""
        if self._task is not None:
            self._task.cancel()
        shutil.rmtree(self.directory, ignore_errors=True)

    async def _take(self) -> None:
        try:
            for attempt in range(RETRIES):
                try:
                    snapshot = await capture(self.shell, cwd=self.cwd, env=self.env,
                                             timeout=self.timeout)
                    self.directory.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                    store(snapshot, self.directory)
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
