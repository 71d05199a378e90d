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
from termhost.snapshot.shells import to_script


@command("show-snapshot")
async def show_snapshot(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The snapshot of the session -t as a script to source (-j: JSON; -s: where the stored
    script is, with the shell and cwd, for termhost exec); -r takes a new one and waits
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
    if "s" in flags:
        text = json.dumps({"shell": snapshot.shell, "kind": snapshot.kind,
                           "cwd": snapshot.cwd, "script": str(kept.script)})
    elif "j" in flags:
        text = json.dumps(snapshot.to_json(), ensure_ascii=False)
    else:
        text = to_script(snapshot)
    return Result(stdout=text if text.endswith("\n") else text + "\n")
