"""`termhost tape FILE.tape`: play a tape against a real shell, with no terminal (CI).

The engine is termhost.record.runner; this verb decides what becomes of the golden .txt
Outputs. Without an option they are written. `--check` compares each with the file on
disk and prints a unified diff for each difference (exit 1), writing none: a check must
not change what it checks. `--update` writes them, as the default does, and says which
changed, so that a reviewer knows what to look at before committing them. The .cast,
.svg and .html Outputs and the Screenshots are written in every mode.

What the user sees: the tape's syntax errors as `FILE:LINE:COLUMN: message` (every one,
as a compiler lists them) and its failures as `FILE:LINE: ...` with the screen, on stderr,
exit status 1; warnings (what a VHS tape has that termhost ignores) on stderr unless -q;
a usage error is one line, exit status 2. Never a traceback.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence

from termhost.cmd import EXIT_FAILURE, VerbParser, Where
from termhost.record.asciicast import RecordingError
from termhost.record.runner import RunError, golden_diff, run_tape
from termhost.record.tape import TapeError, parse_file

__all__ = ["main"]

EXIT_INTERRUPTED = 130

_PROG = "termhost tape"


def _parser() -> VerbParser:
    parser = VerbParser(
        prog=_PROG,
        description="Run a tape (a scripted terminal session) and write its Outputs.",
    )
    golden = parser.add_mutually_exclusive_group()
    golden.add_argument("--update", action="store_true",
                        help="rewrite the golden .txt Outputs and say which changed")
    golden.add_argument("--check", action="store_true",
                        help="compare the run with the golden .txt Outputs, print a diff "
                             "and exit 1 if they differ; write none")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only errors")
    parser.add_argument("tape", metavar="FILE.tape", help="the tape to run")
    return parser


def main(argv: Sequence[str], where: Where | None = None) -> int:
    """Run `termhost tape ARGV...`; returns the exit status (a tape needs no server: `where`
    is not used)."""
    args = _parser().parse_args(list(argv))
    try:
        tape = parse_file(args.tape)
    except TapeError as error:
        sys.stderr.write("".join(f"{diagnostic}\n" for diagnostic in error.diagnostics))
        return EXIT_FAILURE
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        reason = error.strerror if isinstance(error, OSError) else None
        sys.stderr.write(f"{_PROG}: {args.tape}: {reason or error}\n")
        return EXIT_FAILURE
    if not args.quiet:
        for warning in tape.warnings:
            place = f"{warning.file}:{warning.line}:{warning.column}"
            sys.stderr.write(f"{place}: warning: {warning.message}\n")
    try:
        result = asyncio.run(run_tape(tape, args.tape))
        if args.check:
            return _check(result.goldens)
        return _write(result.goldens, report=args.update and not args.quiet)
    except (RunError, RecordingError) as error:
        sys.stderr.write(f"{error}\n")
    except ValueError as error:  # a value the system refuses, e.g. a NUL in an Env value
        sys.stderr.write(f"{_PROG}: {error}\n")
    except OSError as error:
        place = f"{error.filename}: " if error.filename else ""
        sys.stderr.write(f"{_PROG}: {place}{error.strerror or error}\n")
    except KeyboardInterrupt:
        sys.stderr.write(f"{_PROG}: interrupted\n")
        return EXIT_INTERRUPTED
    return EXIT_FAILURE


def _check(goldens: dict[str, str]) -> int:
    """Diff each golden file against the run: the diffs on stdout, a line each on stderr."""
    status = 0
    for path, text in goldens.items():
        try:
            with open(path, encoding="utf-8", errors="replace") as file:
                expected = file.read()
        except FileNotFoundError:
            sys.stderr.write(f"{_PROG}: {path}: no golden file to check (--update writes it)\n")
            status = EXIT_FAILURE
            continue
        diff = golden_diff(path, expected, text)
        if diff:
            sys.stdout.write(diff)
            sys.stderr.write(f"{_PROG}: {path}: the screens differ (--update rewrites it)\n")
            status = EXIT_FAILURE
    return status


def _write(goldens: dict[str, str], *, report: bool) -> int:
    """Write each golden file; with `report`, say for each whether it changed."""
    for path, text in goldens.items():
        try:
            with open(path, encoding="utf-8", errors="replace") as file:
                changed = file.read() != text
        except FileNotFoundError:
            changed = True
        if changed:
            with open(path, "w", encoding="utf-8") as file:
                file.write(text)
        if report:
            sys.stderr.write(f"{'updated' if changed else 'unchanged'}: {os.path.normpath(path)}\n")
    return 0
