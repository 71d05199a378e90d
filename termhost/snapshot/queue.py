"""The server's captures, bounded and shared: at most a few run at once, and sessions
that would capture the same thing share one capture and its result.

Each capture is a shell reading the user's startup files, often a second of CPU (pyenv,
nvm, conda init). A script that starts 80 sessions in a row used to start 80 of them at
once on two cores: they all ran past their timeout, were killed, and new-session itself
slowed to a crawl. Here:

- at most `limit` (by default `max(2, CPUs)`) run at a time, server-wide; the rest wait
  in the order they were asked for, and a capture's timeout starts when it runs;
- a request the same as one queued or running (same shell, working directory and
  environment, and the startup files looking the same: path, size, mtime, inode) joins
  it, and a result stays shared for `shared_for` seconds, so a burst of identical
  sessions costs one capture. After that window a session gets a capture of its own, so
  that what the files read besides themselves (the time, another file) is not frozen;
- a capture nobody waits for any more (every session that asked for it ended) is
  cancelled, its group asked to end and then killed by the capture guard.

Callers never wait here unless they await the result: new-session only starts a task.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass

from termhost.snapshot.capture import capture
from termhost.snapshot.model import Snapshot
from termhost.snapshot.shells import kind_of, language

__all__ = ["SHARED_FOR", "CaptureQueue", "default_limit"]

SHARED_FOR = 60.0
"""Seconds a capture's result is handed to identical sessions after it was taken."""

_Key = tuple[str, str | None, tuple[tuple[str, str], ...]]
_Look = tuple[str, int, int, int] | tuple[str]
"""A file as `_look` saw it: path, inode, size and mtime, or the path alone when missing."""
_Fingerprint = tuple[_Look, ...]


def default_limit() -> int:
    """Captures that may run at once: one per CPU this process may use, at least two."""
    return max(2, len(os.sched_getaffinity(0)))


@dataclass
class _Job:
    """One capture, queued or running, and how many requests wait for it."""

    fingerprint: _Fingerprint
    task: asyncio.Task[Snapshot]
    waiters: int = 0


class CaptureQueue:
    """Every capture of one server goes through `capture()`; `close()` ends them all."""

    def __init__(self, limit: int | None = None, *, shared_for: float = SHARED_FOR) -> None:
        self.limit = limit if limit is not None else default_limit()
        self.shared_for = shared_for
        self._slots = asyncio.Semaphore(self.limit)  # FIFO: waiters are served in order
        self._jobs: dict[_Key, _Job] = {}
        """The newest job for each request, queued or running."""
        self._results: dict[_Key, tuple[_Fingerprint, float, Snapshot]] = {}
        self._running: set[asyncio.Task[Snapshot]] = set()
        """Every job's task until it is done, superseded ones too, for `close()`."""

    async def capture(self, shell: str, *, cwd: str | None, env: Mapping[str, str],
                      timeout: float, fresh: bool = False) -> Snapshot:
        """The snapshot of `shell` started in `cwd` with `env`: shared if an identical one
        is under way or was just taken (unless `fresh`), else a capture of its own, run
        when a slot is free. Raises what `termhost.snapshot.capture.capture` raises."""
        loop = asyncio.get_running_loop()
        key: _Key = (shell, cwd, tuple(sorted(env.items())))
        fingerprint = _fingerprint(language(kind_of(shell)).startup_files(env))
        self._forget_old(loop.time())
        kept = self._results.get(key)
        if not fresh and kept is not None and kept[0] == fingerprint:
            return kept[2]
        job = self._jobs.get(key)
        if fresh or job is None or job.fingerprint != fingerprint:
            task = loop.create_task(self._run(key, fingerprint, shell, cwd, dict(env), timeout))
            job = self._jobs[key] = _Job(fingerprint, task)
            self._running.add(task)
            task.add_done_callback(functools.partial(self._finished, key))
        job.waiters += 1
        try:
            return await asyncio.shield(job.task)
        finally:
            job.waiters -= 1
            if not job.waiters:
                # Nobody is left to want it (no-op once done), and nobody may join it while
                # it ends: the next identical request gets a capture of its own.
                job.task.cancel()
                if self._jobs.get(key) is job:
                    del self._jobs[key]

    async def close(self) -> None:
        """Cancel every capture and wait until each has ended (the guard's grace)."""
        running = list(self._running)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)

    async def _run(self, key: _Key, fingerprint: _Fingerprint, shell: str, cwd: str | None,
                   env: dict[str, str], timeout: float) -> Snapshot:
        async with self._slots:
            snapshot = await capture(shell, cwd=cwd, env=env, timeout=timeout)
        self._results[key] = (fingerprint, asyncio.get_running_loop().time(), snapshot)
        return snapshot

    def _finished(self, key: _Key, task: asyncio.Task[Snapshot]) -> None:
        """A job's end, however it came (also cancelled before it ever ran)."""
        self._running.discard(task)
        job = self._jobs.get(key)
        if job is not None and job.task is task:  # not a newer one for the same request
            del self._jobs[key]
        if not task.cancelled():
            task.exception()  # each waiter got it; nobody waiting is not an error

    def _forget_old(self, now: float) -> None:
        for key, (_, taken, _) in list(self._results.items()):
            if now - taken >= self.shared_for:
                del self._results[key]


def _fingerprint(paths: list[str]) -> _Fingerprint:
    """How `paths` look now; a directory also by the files in it, as the shell reads
    every file of /etc/profile.d or fish's conf.d."""
    seen: list[_Look] = []
    for path in paths:
        seen.append(_look(path))
        if os.path.isdir(path):
            try:
                names = sorted(os.listdir(path))
            except OSError:
                continue
            seen += [_look(os.path.join(path, name)) for name in names]
    return tuple(seen)


def _look(path: str) -> _Look:
    try:
        info = os.stat(path)
    except OSError:
        return (path,)
    return (path, info.st_ino, info.st_size, info.st_mtime_ns)
