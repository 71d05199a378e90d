"""`termhost snapshot`: a session's environment snapshot, or a one-shot one of a shell.

`termhost snapshot [-t SESSION]` asks the server (show-snapshot) for the snapshot it took
when the session was created: a script that recreates the environment when sourced, or
JSON. `termhost snapshot --shell PATH` takes one here and now, with no server, for
scripts. A failure is one line on stderr, exit status 1; a usage error, 2.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Sequence

from termhost.cmd import EXIT_FAILURE, ServerSaid, VerbParser, Where, ask
from termhost.snapshot.capture import capture
from termhost.snapshot.errors import SnapshotError
from termhost.snapshot.shells import to_script

__all__ = ["main"]

_PROG = "termhost snapshot"


def _parser() -> VerbParser:
    parser = VerbParser(prog=_PROG, description="Print the environment a session's shell "
                        "built from its startup files, as a script to source or as JSON.")
    parser.add_argument("-t", dest="target", metavar="SESSION",
                        help="the session (default: the one this runs in, else the most recent)")
    parser.add_argument("--format", choices=("sh", "json"), default="sh",
                        help="a script in the shell's language (default), or JSON")
    parser.add_argument("--refresh", action="store_true", help="take a new one first")
    parser.add_argument("--wait", action="store_true",
                        help="wait for one still being taken (else that is an error)")
    parser.add_argument("--shell", metavar="PATH",
                        help="no server: take one of this shell now (bash, zsh, sh, fish)")
    parser.add_argument("--cwd", metavar="DIR", help="with --shell: the directory it starts in")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECS",
                        help="with --shell: give up after SECS (default 10)")
    return parser


def main(argv: Sequence[str], where: Where) -> int:
    """Run `termhost snapshot ARGV...`; returns the exit status."""
    args = _parser().parse_args(list(argv))
    if args.shell is None and (args.cwd is not None):
        _parser().error("--cwd goes with --shell")
    if args.shell is not None and (args.target or args.refresh or args.wait):
        _parser().error("--shell takes a snapshot here: -t, --refresh and --wait ask a server")
    try:
        text = _here(args.shell, args.cwd, args.timeout, args.format) if args.shell else \
            _from_server(where, args.target, args.format, args.refresh, args.wait)
    except (ServerSaid, SnapshotError, OSError) as error:
        sys.stderr.write(f"{_PROG}: {error}\n")
        return EXIT_FAILURE
    sys.stdout.write(text)
    return 0


def _from_server(where: Where, target: str | None, form: str, refresh: bool,
                 wait: bool) -> str:
    argv = ["show-snapshot", *(["-j"] if form == "json" else []), *(["-r"] if refresh else []),
            *(["-w"] if wait else []), *(["-t", target] if target else [])]
    return ask(where, *argv).decode("utf-8", "surrogateescape")


def _here(shell: str, cwd: str | None, timeout: float, form: str) -> str:
    snapshot = asyncio.run(capture(shell, cwd=cwd, env=os.environ, timeout=timeout))
    text = json.dumps(snapshot.to_json(), ensure_ascii=False) if form == "json" else \
        to_script(snapshot)
    return text if text.endswith("\n") else text + "\n"
