"""Signals to whole process groups: a pane's job, a capture's stragglers.

A group that is already gone is success (there is nothing left to stop); anything else,
EPERM above all, is raised, because it means the processes are still there.
"""

from __future__ import annotations

import os
import signal

__all__ = [
    "group_members",
    "interrupt_process_group",
    "interrupt_process_group_by_pid",
    "kill_process_group",
    "kill_process_group_by_pid",
    "signal_process_group",
    "signal_process_group_by_pid",
    "terminate_process_group",
    "terminate_process_group_by_pid",
]


def signal_process_group(pgid: int, signum: int) -> None:
    """killpg(pgid, signum); refuses pgid <= 0, which would reach our own group."""
    if pgid <= 0:
        raise ValueError(f"refusing to signal process group {pgid}: it must be > 0")
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


def kill_process_group(pgid: int) -> None:
    """SIGKILL every process in the group."""
    signal_process_group(pgid, signal.SIGKILL)


def terminate_process_group(pgid: int) -> None:
    """SIGTERM every process in the group."""
    signal_process_group(pgid, signal.SIGTERM)


def interrupt_process_group(pgid: int) -> None:
    """SIGINT every process in the group, as C-c at its terminal would."""
    signal_process_group(pgid, signal.SIGINT)


def signal_process_group_by_pid(pid: int, signum: int) -> None:
    """Signal the group `pid` belongs to; a pid that is gone is fine.

    Refuses when that group is ours: a child that never left our group would take the
    caller down with it.
    """
    if pid <= 0:
        raise ValueError(f"refusing to look up the process group of pid {pid}: it must be > 0")
    try:
        pgid = os.getpgid(pid)
    except ProcessLookupError:
        return
    if pgid == os.getpgrp():
        raise ValueError(f"refusing to signal process group {pgid} of pid {pid}: it is ours")
    signal_process_group(pgid, signum)


def kill_process_group_by_pid(pid: int) -> None:
    """SIGKILL the group `pid` belongs to."""
    signal_process_group_by_pid(pid, signal.SIGKILL)


def terminate_process_group_by_pid(pid: int) -> None:
    """SIGTERM the group `pid` belongs to."""
    signal_process_group_by_pid(pid, signal.SIGTERM)


def interrupt_process_group_by_pid(pid: int) -> None:
    """SIGINT the group `pid` belongs to."""
    signal_process_group_by_pid(pid, signal.SIGINT)


def group_members(pgid: int) -> list[int]:
    """The live processes of group `pgid` (zombies aside), from /proc/*/stat.

    The kernel says when a process ends (a pidfd), not when a group empties: this is how
    a caller that signalled a group learns that everything in it is gone.
    """
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                # The name (field 2) is in parentheses and may hold anything.
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # gone while we looked
        if fields[0] != b"Z" and int(fields[2]) == pgid:
            members.append(int(entry))
    return members
