"""`termhost cat FILE`: what the recorded program wrote, as raw bytes on stdout, at once.

For a terminal to replay without timing, or for `grep` and `less -R` to read. It reads v2
and v3 files, termhost's and asciinema's, and a file whose recorder was killed mid-write: the
reader stops quietly at a cut last line, and all that came before it is printed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from termhost.cmd import EXIT_FAILURE, VerbParser, Where
from termhost.record.asciicast import RecordingError, open_reader, output_bytes

__all__ = ["main"]


_PROG = "termhost cat"


def _parser() -> VerbParser:
    parser = VerbParser(prog=_PROG, description="Print a recording's output, without its timing.")
    parser.add_argument("file", metavar="FILE", help="an asciicast file (v2 or v3)")
    return parser


def main(argv: Sequence[str], where: Where | None = None) -> int:
    """Run `termhost cat FILE`; returns the exit status (`where`, the server, is not needed)."""
    args = _parser().parse_args(list(argv))
    try:
        with open_reader(args.file) as reader:
            data = output_bytes(reader)
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return 0
    except RecordingError as error:
        sys.stderr.write(f"{_PROG}: {error}\n")
    except BrokenPipeError:  # `termhost cat demo.cast | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return 0
    return EXIT_FAILURE
