"""`termhost exec`: run a command in a session's environment snapshot.

No interactive shell starts and no startup file runs again: the snapshot (exports,
aliases, functions, options) is sourced by a shell of the same kind started without its rc
files, which then runs the command, so `termhost exec -t work -- make test` sees what a
new pane of `work` would, in a fraction of the time. Several words are joined into one
command line (as ssh does), so aliases and functions work as they would typed at the
prompt. The command's output goes straight to this terminal and its exit status is this
verb's (128 + N when signal N ended it).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Sequence

from termhost.cmd import EXIT_FAILURE, ServerSaid, VerbParser, Where, ask
from termhost.snapshot import Snapshot, exec_argv, to_script

__all__ = ["main"]

_PROG = "termhost exec"


def _parser() -> VerbParser:
    parser = VerbParser(prog=_PROG, description="Run a command in a session's environment "
                        "snapshot, without an interactive shell or its startup files.")
    parser.add_argument("-t", dest="target", metavar="SESSION",
                        help="the session (default: the most recent)")
    parser.add_argument("--cwd", metavar="DIR",
                        help="where the command runs (default: the snapshot's directory)")
    parser.add_argument("command", nargs="+", metavar="-- COMMAND", help="what to run")
    return parser


def main(argv: Sequence[str], where: Where) -> int:
    """Run `termhost exec ARGV...`; returns the command's exit status."""
    arguments = list(argv)
    args = _parser().parse_args(arguments)
    words = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not words:
        _parser().error("no command to run")
    command = words[0] if len(words) == 1 else shlex.join(words)
    target = ["-t", args.target] if args.target else []
    try:
        answer = ask(where, "show-snapshot", "-j", "-w", *target)
        snapshot = Snapshot.from_json(json.loads(answer))
        return _run(snapshot, command, args.cwd or snapshot.cwd)
    except (ServerSaid, ValueError) as error:
        sys.stderr.write(f"{_PROG}: {error}\n")
    except OSError as error:
        sys.stderr.write(f"{_PROG}: {error.filename or args.cwd}: {error.strerror or error}\n")
    return EXIT_FAILURE


def _run(snapshot: Snapshot, command: str, cwd: str) -> int:
    """The command in the snapshot's shell; the script it sources lives only as long as
    the command, private (0600), since its values may be secrets."""
    with tempfile.TemporaryDirectory(prefix="termhost-exec-") as private:
        script = os.path.join(private, "snapshot")
        descriptor = os.open(script, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as file:  # values may be any bytes (dash's quoting)
            file.write(to_script(snapshot).encode("utf-8", "surrogateescape"))
        # The session's environment, not this client's: only the terminal is this one's.
        env = {**snapshot.env, **{k: os.environ[k] for k in ("TERM",) if k in os.environ}}
        status = subprocess.run(exec_argv(snapshot, script, command), cwd=cwd, env=env,
                                check=False).returncode
    return 128 - status if status < 0 else status
