"""Exited sessions (those whose server died, kept as resurrection records) as
list-sessions shows them: after the live ones, `(exited)`, `#{session_exited}` 1. With no
server running at all, the command line lists them itself (mux/client.py)."""

from __future__ import annotations

import time
from collections.abc import Mapping

from termhost.mux.formats import expand, format_true
from termhost.resurrect.records import SessionRecord

__all__ = ["listed_without_server", "values"]


def values(record: SessionRecord) -> dict[str, str]:
    """An exited session's format variables: those its record can tell."""
    return {"session_name": record.name, "session_windows": str(len(record.windows)),
            "session_created": str(int(record.created)),
            "session_created_string": time.ctime(record.created), "session_exited": "1",
            "session_attached": "0", "session_grouped": "0", "snapshot_status": "none",
            "session_path": record.cwd}


def listed_without_server(records: list[SessionRecord], flags: Mapping[str, str],
                          default: str) -> str:
    """list-sessions' lines for `records` alone (-F's format, else `default`; -f's
    filter), as the server prints them after its live sessions."""
    template, keep = flags.get("F", default), flags.get("f")
    return "".join(expand(template, values(record)) + "\n" for record in records
                   if keep is None or format_true(expand(keep, values(record))))
