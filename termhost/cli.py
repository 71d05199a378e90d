"""The `termhost` command line: global options, then a tmux-style verb.

Only the global options exist so far; the verbs arrive with the server (see README,
"Status"). Every failure is one line on stderr and an exit status: 1 for a failure,
2 for a usage error, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from termhost import __version__

__all__ = ["main"]

EXIT_FAILURE = 1
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse with tmux's habit: a usage error is one line, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"termhost: {message} (try 'termhost --help')\n")
        raise SystemExit(EXIT_USAGE)


def _parser() -> _Parser:
    parser = _Parser(
        prog="termhost",
        description="A terminal multiplexer and PTY session manager.",
    )
    parser.add_argument(
        "-V", "--version", action="version", version=f"termhost {__version__}",
        help="print the version and exit",
    )
    parser.add_argument("verb", nargs="?", help="a tmux-style command (none exist yet)")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.verb is None:
        sys.stderr.write(
            "termhost: the interactive multiplexer is not built yet; today termhost offers "
            "its process layer as a library (see README.md, Status)\n"
        )
        return EXIT_FAILURE
    sys.stderr.write(f"termhost: unknown command: {args.verb} (try 'termhost --help')\n")
    return EXIT_USAGE
