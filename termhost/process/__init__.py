"""The process layer: spawn helper, direct fallback, child handles, PTYs, groups, capture guard.

Everything here starts processes without running Python between fork and exec, and
watches them through pidfds on the event loop.

The names below are the layer's interface, each imported from its module when first
asked for (PEP 562): a command line that only starts a server (termhost.starting, through
native.py) must not pay for asyncio, which the capture guard and the child handles bring.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs a thin command line; mypy reads the name
if TYPE_CHECKING:
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

_HOMES = {
    "GRACE": "capture", "CaptureGuard": "capture", "OutputTooLarge": "capture",
    "Child": "child", "MAX_ENV_BYTES": "command", "Command": "command",
    "interrupt_process_group": "groups", "interrupt_process_group_by_pid": "groups",
    "kill_process_group": "groups", "kill_process_group_by_pid": "groups",
    "terminate_process_group": "groups", "terminate_process_group_by_pid": "groups",
    "HelperProgram": "helper", "Setup": "helper", "spawn": "launch", "spawn_in_pty": "launch",
    "PtyPair": "pty_pair", "get_window_size": "pty_pair", "open_pty": "pty_pair",
    "set_window_size": "pty_pair", "ExitStatus": "status",
}
"""Each exported name's module in this package."""

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


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = __import__(f"{__name__}.{home}", fromlist=[name])
    value = getattr(module, name)
    globals()[name] = value
    return value
