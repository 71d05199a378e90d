"""termhost's own verbs, the ones tmux does not have: each runs in the client process, a
module per verb with a `main(argv, where) -> int` (asciinema's layout).

They need no server (themes, cat, play, record without -t, tape) or ask it through the
tmux verbs (screenshot, record -t), so they work before any session exists and in CI
without a terminal.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import NamedTuple

__all__ = ["EXIT_FAILURE", "EXIT_USAGE", "VERBS", "ServerSaid", "VerbParser", "Where", "ask"]

VERBS = ("themes", "record", "play", "cat", "tape", "screenshot", "snapshot", "exec")
"""The verbs with a module here (termhost/cmd/VERB.py)."""

EXIT_FAILURE = 1
"""A verb that failed: tmux's status."""
EXIT_USAGE = 2
"""A command line that does not parse."""


class VerbParser(argparse.ArgumentParser):
    """argparse as every termhost verb wants it: a usage error is one line naming the verb
    (its `prog`), exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: {message} (try '{self.prog} --help')\n")
        raise SystemExit(EXIT_USAGE)


class ServerSaid(Exception):
    """A tmux verb failed on the server; the message is the first line it printed."""


class Where(NamedTuple):
    """The global options a verb may need to reach a server: -L, -S, -f, -2. (A NamedTuple,
    not a dataclass: dataclasses import inspect, a tenth of `termhost exec`'s start.)"""

    socket: Path
    config: str | None = None
    force_256: bool = False


def ask(where: Where, *argv: str) -> bytes:
    """What the server prints for one tmux verb; ServerSaid with its error if it fails."""
    from termhost.front import first_line
    from termhost.mux import client  # only for the verbs that need a server

    stdout, stderr = io.BytesIO(), io.BytesIO()
    status = client.run(argv, where.socket, stdout=stdout, stderr=stderr)
    if status != 0:
        raise ServerSaid(first_line(stderr.getvalue(), argv[0], status))
    return stdout.getvalue()
