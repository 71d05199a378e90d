"""`termhost exec`: run a command in a session's environment snapshot.

No interactive shell starts and no startup file runs again: the script the server stored
when it took the session's snapshot (exports, aliases, functions, options) is sourced by a
shell of the same kind started without its rc files, which then runs the command, so
`termhost exec -t work -- make test` sees what a new pane of `work` would, in a fraction of
the time. Several words are joined into one command line (as ssh does), so aliases and
functions work as they would typed at the prompt. The command's output goes straight to
this terminal and its exit status is this verb's: once the snapshot is found, this process
becomes the shell (execve), so nothing of Python stands between the command and the
terminal, or is left to wind down after it.

Usually this module does not run at all: the thin client (termhost.front) runs `exec`
itself, with the same two steps (`snapshot_query`, `run_in_snapshot`). This is the path for
what it leaves: --help and usage errors in argparse's words, and no server running.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from termhost.cmd import ServerSaid, VerbParser, Where, ask
from termhost.front import exec_failed, run_in_snapshot, snapshot_query

__all__ = ["main"]

_PROG = "termhost exec"


def _parser() -> VerbParser:
    parser = VerbParser(prog=_PROG, description="Run a command in a session's environment "
                        "snapshot, without an interactive shell or its startup files.")
    parser.add_argument("-t", dest="target", metavar="SESSION",
                        help="the session (default: the one this runs in, else the most recent)")
    parser.add_argument("--cwd", metavar="DIR",
                        help="where the command runs (default: the snapshot's directory)")
    parser.add_argument("command", nargs=argparse.REMAINDER, metavar="[--] COMMAND...",
                        help="what to run; its own options follow it")
    return parser


def main(argv: Sequence[str], where: Where) -> int:
    """Run `termhost exec ARGV...`; returns the command's exit status."""
    args = _parser().parse_args(list(argv))
    words = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not words:
        _parser().error("no command to run")
    try:
        record = ask(where, *snapshot_query(args.target))
    except ServerSaid as error:
        return exec_failed(str(error))
    return run_in_snapshot(record, args.cwd, words)
