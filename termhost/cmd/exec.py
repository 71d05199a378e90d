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

Usually this module does not run at all: the installed `termhost` is bin/termhost, which
runs the same command line itself, without Python, when the session's snapshot is ready
(termhost.snapshot.index). This is the path for the rest: a snapshot still being taken
(-w waits for it), a target given by prefix, no server, a usage error. It imports little:
the shells' module for the argv, not the capture machinery.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Sequence

from termhost.cmd import EXIT_FAILURE, ServerSaid, VerbParser, Where, ask
from termhost.snapshot.shells import exec_argv

__all__ = ["main"]

_PROG = "termhost exec"


def _parser() -> VerbParser:
    parser = VerbParser(prog=_PROG, description="Run a command in a session's environment "
                        "snapshot, without an interactive shell or its startup files.")
    parser.add_argument("-t", dest="target", metavar="SESSION",
                        help="the session (default: the one this runs in, else the most recent)")
    parser.add_argument("--cwd", metavar="DIR",
                        help="where the command runs (default: the snapshot's directory)")
    parser.add_argument("command", nargs="+", metavar="-- COMMAND", help="what to run")
    return parser


def main(argv: Sequence[str], where: Where) -> int:
    """Run `termhost exec ARGV...`; returns the command's exit status."""
    args = _parser().parse_args(list(argv))
    words = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not words:
        _parser().error("no command to run")
    command = words[0] if len(words) == 1 else shlex.join(words)
    target = ["-t", args.target] if args.target else []
    try:
        stored = json.loads(ask(where, "show-snapshot", "-s", "-w", *target))
        shell_argv = [*exec_argv(stored["kind"], stored["shell"], stored["script"]), command]
        os.chdir(args.cwd or stored["cwd"])
        # The script exports the session's environment; only the terminal is this one's.
        env = {key: os.environ[key] for key in ("TERM",) if key in os.environ}
        sys.stdout.flush()
        os.execve(shell_argv[0], shell_argv, env)
    except (ServerSaid, ValueError, KeyError) as error:
        sys.stderr.write(f"{_PROG}: {error}\n")
    except OSError as error:
        sys.stderr.write(f"{_PROG}: {error.filename or args.cwd}: {error.strerror or error}\n")
    return EXIT_FAILURE
