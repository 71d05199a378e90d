"""show-snapshot: a session's environment snapshot, for `termhost snapshot` and `termhost
exec` (termhost's own verb: tmux has no snapshots)."""

from __future__ import annotations

import json

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    find_session,
)
from termhost.snapshot.shells import exec_argv, to_script


@command("show-snapshot")
async def show_snapshot(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The snapshot of the session -t as a script to source (-j: JSON; -e: what termhost
    exec runs, see termhost.front.run_in_snapshot); -r takes a new one and waits
    for it, -w waits for one still being taken. One never taken (the snapshots option is
    off) is taken now, and waited for."""
    session = find_session(context.server, flags.get("t"))
    kept = session.snapshot
    if kept is None:
        raise CommandError(f"session {session.name} has no snapshot")
    first = kept.status == "none"
    if "r" in flags or first:
        kept.start(fresh="r" in flags)
    if "r" in flags or "w" in flags or first:
        await kept.wait()
    if kept.status == "pending":
        raise CommandError(f"the snapshot of session {session.name} is still being taken "
                           "(--wait waits for it)")
    if kept.status == "unsupported":
        raise CommandError(kept.error)
    if kept.status == "failed" or kept.snapshot is None:
        raise CommandError(f"the snapshot of session {session.name} failed: {kept.error}")
    snapshot = kept.snapshot
    if "e" in flags:  # the snapshot's directory, then the shell's argv, NUL-separated
        text = "\0".join([snapshot.cwd, *exec_argv(snapshot.kind, snapshot.shell,
                                                      str(kept.script))])
    elif "j" in flags:
        text = json.dumps(snapshot.to_json(), ensure_ascii=False)
    else:
        text = to_script(snapshot)
    return Result(stdout=text if text.endswith("\n") else text + "\n")
