"""The shell commands the server is running for itself, as tmux's job list (all_jobs):
run-shell and if-shell commands and `#()` format jobs, while they run. show-messages -J
lists them.

One list for the process, as tmux's is: the process is one server, and the places that
start jobs (mux/shell.py, format_scope.py) run below any server object.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["JOBS", "Job", "JobList"]


@dataclass(frozen=True, eq=False)
class Job:
    command: str
    fd: int
    """The server's end of the job's output (-1 when asyncio holds it, a `#()` job's)."""
    pid: int


class JobList:
    """The jobs running, newest first, as tmux inserts them at the head of its list."""

    def __init__(self) -> None:
        self._jobs: list[Job] = []

    @contextmanager
    def running(self, command: str, fd: int, pid: int) -> Iterator[Job]:
        """`command` listed while the block runs (until its process has ended)."""
        job = Job(command, fd, pid)
        self._jobs.insert(0, job)
        try:
            yield job
        finally:
            self._jobs.remove(job)

    def summary(self) -> list[str]:
        """One line a job, as tmux's show-messages -J; tmux's status is the wait status
        of a job that ended, so 0 for one still running, which every job listed is."""
        return [f"Job {number}: {job.command} [fd={job.fd}, pid={job.pid}, status=0]"
                for number, job in enumerate(self._jobs)]


JOBS = JobList()
