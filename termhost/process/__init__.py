"""The process layer: spawn helper, direct fallback, child handles, PTYs, groups, capture guard.

Everything here starts processes without running Python between fork and exec, and
watches them through pidfds on the event loop.
"""

from __future__ import annotations

from termhost.process.capture import GRACE, CaptureGuard, OutputTooLarge
from termhost.process.child import Child
from termhost.process.command import MAX_ENV_BYTES, Command
from termhost.process.groups import (
    interrupt_process_group,
    interrupt_process_group_by_pid,
    kill_process_group,
    kill_process_group_by_pid,
    terminate_process_group,
    terminate_process_group_by_pid,
)
from termhost.process.helper import HelperProgram, Setup
from termhost.process.launch import spawn, spawn_in_pty
from termhost.process.pty_pair import PtyPair, get_window_size, open_pty, set_window_size
from termhost.process.status import ExitStatus

__all__ = [
    "GRACE",
    "MAX_ENV_BYTES",
    "CaptureGuard",
    "Child",
    "Command",
    "ExitStatus",
    "HelperProgram",
    "OutputTooLarge",
    "PtyPair",
    "Setup",
    "get_window_size",
    "interrupt_process_group",
    "interrupt_process_group_by_pid",
    "kill_process_group",
    "kill_process_group_by_pid",
    "open_pty",
    "set_window_size",
    "spawn",
    "spawn_in_pty",
    "terminate_process_group",
    "terminate_process_group_by_pid",
]
