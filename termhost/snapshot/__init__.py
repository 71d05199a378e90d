"""Environment snapshots: what a session's shell builds from its startup files, captured once.

`capture` runs the shell's rc files inside the capture guard and returns a `Snapshot`
(exports, aliases, functions, options, cwd), already proven to source cleanly
(`validate`). `store`/`load` keep it on disk, private; `to_script` renders it in the
shell's own language and `exec_argv` runs a command string after sourcing that script,
without an interactive shell and without re-running the rc files.

`capture` and `validate` live in their modules (termhost.snapshot.capture, .validate) and
are not imported here: they bring asyncio and the process layer, which `termhost exec`,
started for every command it runs, has no use for.
"""

from __future__ import annotations

from termhost.snapshot.model import FORMAT_VERSION, Snapshot, SnapshotError, UnsupportedShell
from termhost.snapshot.shells import GUARD_VARIABLE, exec_argv, kind_of, to_script
from termhost.snapshot.store import JSON_NAME, SCRIPT_NAME, load, store

__all__ = [
    "FORMAT_VERSION",
    "GUARD_VARIABLE",
    "JSON_NAME",
    "SCRIPT_NAME",
    "Snapshot",
    "SnapshotError",
    "UnsupportedShell",
    "exec_argv",
    "kind_of",
    "load",
    "store",
    "to_script",
]
