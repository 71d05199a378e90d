"""`termhost record`: a program's terminal session to an asciicast file.

    termhost record [-o FILE.cast] [--format v2|v3] [--cols C] [--rows R] [-i SECS]
                    [--input] [--title TITLE] [--theme NAME] [--append | --overwrite]
                    [[--] COMMAND [ARG...]]
    termhost record -t TARGET [-o FILE.cast] [--format v2|v3] [-i SECS] [--title TITLE]
                    [--theme NAME] [--overwrite]
    termhost record --stop -t TARGET

The first form runs COMMAND (default: $SHELL, else /bin/sh), as an argument list, not a
shell string, on a new PTY. When stdin and stdout are a terminal the user sees it and types
to it as usual: C-\\ m adds a marker, C-\\ C-\\ sends a C-\\ to the program. Otherwise (CI)
it runs unattended at --cols x --rows (default 80x24). The exit status is the program's
(128 + N if signal N killed it).

The second records an existing pane of a running server from now on, until the pane ends
or `--stop`: the server writes the file, so the path is made absolute here. `-t` is a
target pane, as everywhere in termhost and tmux, so the title is `--title`.

FILE defaults to `termhost-YYYYMMDD-HHMMSS.cast` in the current directory (asciinema 2
requires a name; a fresh one a second is simpler than asking). A non-empty existing file
is refused unless --overwrite (replace it) or --append (continue it: its format and size,
the new events after its last one). As everywhere in termhost, a failure is one line on
stderr with exit status 1, a usage error exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import stat
import sys
import time
from collections.abc import Mapping, Sequence
from typing import BinaryIO, cast

from termhost import themes
from termhost.cmd import EXIT_FAILURE, VerbParser, Where
from termhost.process import Command, ExitStatus, get_window_size
from termhost.record.asciicast import Header, RecordingError, Writer, open_reader, writer_for
from termhost.record.recorder import Clock, Recorder, UserTerminal, exit_code

__all__ = ["main"]


_PROG = "termhost record"
_DEFAULT_SIZE = (80, 24)
_HINT = "C-\\ m adds a marker, C-\\ C-\\ sends C-\\; exit the program to stop"


class _Failure(Exception):
    """A failure to report as one line (the message, without the verb's name)."""


class _NotStarted(_Failure):
    """The program could not be started: there is no recording to keep."""


def _size(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 10000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size from 1 to 10000")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def _parser() -> VerbParser:
    parser = VerbParser(
        prog=_PROG,
        description="Record a program's terminal session, or a pane's (-t), to an asciicast "
                    "file. With a terminal: C-\\ m adds a marker, C-\\ C-\\ sends C-\\.",
    )
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="the .cast file (default: termhost-YYYYMMDD-HHMMSS.cast here)")
    parser.add_argument("--format", choices=("v2", "v3"),
                        help="asciicast version (default v2, which every player reads)")
    parser.add_argument("--cols", type=_size, help="width (default: the terminal's, else 80)")
    parser.add_argument("--rows", type=_size, help="height (default: the terminal's, else 24)")
    parser.add_argument("-i", "--idle-time-limit", type=_seconds, metavar="SECS",
                        help="players shorten pauses to SECS (times are recorded as they are)")
    parser.add_argument("--input", action="store_true",
                        help="record the keys typed too (they may hold passwords)")
    parser.add_argument("--title", help="the recording's title (-t is a target pane)")
    parser.add_argument("--theme", metavar="NAME",
                        help="a theme's colours in the header, for players (termhost themes)")
    existing = parser.add_mutually_exclusive_group()
    existing.add_argument("--append", action="store_true",
                          help="continue an existing recording")
    existing.add_argument("--overwrite", action="store_true",
                          help="replace an existing recording")
    parser.add_argument("-t", dest="target", metavar="TARGET",
                        help="record this pane of the running server, from now on")
    parser.add_argument("--stop", action="store_true",
                        help="stop recording the pane given with -t")
    parser.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND",
                        help="what to run (default: $SHELL, else /bin/sh)")
    return parser


def main(argv: Sequence[str], where: Where | None = None) -> int:
    """Run `termhost record ARGV...`; returns the exit status (the recorded program's,
    without -t)."""
    parser = _parser()
    args = parser.parse_args(list(argv))
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    try:
        if args.target is not None or args.stop:
            return _pane(parser, args, command, where)
        return _program(args, command)
    except (_Failure, RecordingError, themes.ThemeError) as error:
        sys.stderr.write(f"{_PROG}: {error}\n")
    except OSError as error:
        place = f"{error.filename}: " if error.filename else ""
        sys.stderr.write(f"{_PROG}: {place}{error.strerror or error}\n")
    return EXIT_FAILURE


# --- a program of ours -------------------------------------------------------------------


def _program(args: argparse.Namespace, command: list[str]) -> int:
    path = args.output or time.strftime("termhost-%Y%m%d-%H%M%S.cast")
    interactive = os.isatty(sys.stdin.fileno()) and os.isatty(sys.stdout.fileno())
    cols, rows = _DEFAULT_SIZE
    if interactive:
        try:
            cols, rows = get_window_size(sys.stdout.fileno())
        except OSError:
            pass
    cols, rows = args.cols or cols, args.rows or rows
    env = dict(os.environ)
    env.setdefault("TERM", "xterm-256color")
    argv = command or [env.get("SHELL") or "/bin/sh"]
    terminal = None
    if interactive:
        fixed = args.cols is not None or args.rows is not None
        terminal = UserTerminal(sys.stdin.fileno(), sys.stdout.fileno(), follow_size=not fixed)
    if interactive or args.output is None:
        sys.stderr.write(f"{_PROG}: recording to {path}" +
                         (f" ({_HINT})\n" if interactive else "\n"))
        sys.stderr.flush()
    if args.append and _has_content(path):
        writer, clock, file = _continue(path, args, cols, rows)
    else:
        _refuse_existing(path, args.overwrite)
        header = _header(args, cols, rows, env, " ".join(map(shlex.quote, command)) or None)
        writer = writer_for(3 if args.format == "v3" else 2, path, header)
        clock, file = _clock(0.0), None
    try:
        status = asyncio.run(_record(writer, clock, terminal, args.input,
                                     Command(argv[0], argv[1:], env=env), cols, rows))
    except BaseException as error:
        _discard(writer, clock, file, path,
                 kept=args.append or not isinstance(error, _NotStarted))
        raise
    writer.close(clock())
    if file is not None:
        file.close()
    if interactive:
        sys.stderr.write(f"{_PROG}: recorded {path}\n")
    return exit_code(status)


async def _record(
    writer: Writer, clock: Clock, terminal: UserTerminal | None, record_input: bool,
    command: Command, cols: int, rows: int,
) -> ExitStatus:
    recorder = Recorder(writer, clock, terminal=terminal, record_input=record_input)
    try:
        return await recorder.run(command, cols, rows)
    except OSError as error:
        if recorder.started:
            raise
        place = f"{error.filename}: " if error.filename else ""
        raise _NotStarted(f"{place}{error.strerror or error}") from error


def _clock(offset: float) -> Clock:
    """Seconds since now, plus `offset` (where an appended recording's time continues)."""
    start = time.monotonic()
    return lambda: offset + time.monotonic() - start


def _header(
    args: argparse.Namespace, cols: int, rows: int, env: Mapping[str, str], command: str | None,
) -> Header:
    """The header: SHELL and TERM only of the environment, as the format advises."""
    theme = themes.asciicast_theme(themes.load_theme(args.theme)) if args.theme else None
    return Header(
        cols=cols, rows=rows, timestamp=int(time.time()),
        idle_time_limit=args.idle_time_limit, command=command, title=args.title,
        term_type=env.get("TERM"),
        env={"SHELL": env["SHELL"]} if env.get("SHELL") else {},
        theme=theme,
    )


def _has_content(path: str) -> bool:
    try:
        return os.stat(path).st_size > 0
    except FileNotFoundError:
        return False


def _refuse_existing(path: str, overwrite: bool) -> None:
    """A recording is not lost to a typo: a non-empty file is replaced only if asked.

    Devices (/dev/null, /dev/stdout) and empty files are written as they are.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    if stat.S_ISREG(info.st_mode) and info.st_size > 0 and not overwrite:
        raise _Failure(f"{path} exists; --overwrite replaces it, --append continues it")


def _discard(writer: Writer, clock: Clock, file: BinaryIO | None, path: str, kept: bool) -> None:
    """Close a recording that did not happen; a file it made is removed (not `kept`)."""
    try:
        writer.close(clock())
    except RecordingError:
        pass  # the error that stopped the recording is the one to report
    if file is not None:
        file.close()
    if not kept and os.path.isfile(path):
        os.unlink(path)


# --- --append ----------------------------------------------------------------------------


class _AfterHeader:
    """An existing recording opened to append: the writer's header, which the file has
    already, is dropped, and what follows goes to the end of the file."""

    def __init__(self, file: BinaryIO) -> None:
        self._file = file
        self._header_pending = True
        self.name = file.name

    def write(self, data: bytes) -> int:
        if self._header_pending:
            self._header_pending = False
            return len(data)
        return self._file.write(data)

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _continue(
    path: str, args: argparse.Namespace, cols: int, rows: int,
) -> tuple[Writer, Clock, BinaryIO]:
    """A writer that continues `path`: its version, times after its last event (v2's are
    absolute, v3's relative to the previous event), a resize if the size differs."""
    if args.title is not None or args.theme is not None:
        raise _Failure("--append keeps the recording's header: no --title or --theme")
    with open_reader(path) as reader:
        header, version, last = reader.header, reader.version, 0.0
        for event in reader:
            last = event.time
    if args.format is not None and args.format != f"v{version}":
        raise _Failure(f"{path} is asciicast v{version}; --append keeps its format")
    _cut_partial_line(path)
    file = cast(BinaryIO, open(path, "ab"))  # noqa: SIM115  (closed after the writer)
    try:
        clock = _clock(last if version == 2 else 0.0)
        writer = writer_for(version, cast(BinaryIO, _AfterHeader(file)), header)
        if (cols, rows) != (header.cols, header.rows):
            writer.resize(cols, rows, clock())
    except BaseException:
        file.close()
        raise
    return writer, clock, file


def _cut_partial_line(path: str) -> None:
    """Drop a last line cut short (the recorder was killed mid-write), so that the first
    appended event starts a line of its own."""
    with open(path, "r+b") as file:
        end = file.seek(0, os.SEEK_END)
        position = end
        while position > 0:
            start = max(0, position - 65536)
            file.seek(start)
            block = file.read(position - start)
            newline = block.rfind(b"\n")
            if newline >= 0:
                if start + newline + 1 < end:
                    file.truncate(start + newline + 1)
                return
            position = start


# --- a pane of the server (-t) ------------------------------------------------------------


def _pane(
    parser: VerbParser, args: argparse.Namespace, command: list[str], where: Where | None,
) -> int:
    """Ask the server to record (or stop recording) a pane: `record-pane`, its verb."""
    from termhost.mux import client

    if args.target is None:
        parser.error("--stop needs the pane: --stop -t TARGET")
    given = [name for name, value in (
        ("a command", command), ("--cols", args.cols), ("--rows", args.rows),
        ("--input", args.input), ("--append", args.append),
    ) if value]
    if args.stop:
        given += [name for name, value in (
            ("-o", args.output), ("--format", args.format), ("--title", args.title),
            ("--theme", args.theme), ("-i", args.idle_time_limit),
            ("--overwrite", args.overwrite),
        ) if value]
    if given:
        parser.error(f"-t records the pane as it is: {', '.join(given)} cannot go with it")
    if where is None:
        raise _Failure("no server to ask (run as 'termhost record')")
    verb = ["record-pane", "-t", args.target]
    if args.stop:
        verb.append("-S")
    else:
        path = os.path.abspath(args.output or time.strftime("termhost-%Y%m%d-%H%M%S.cast"))
        _refuse_existing(path, args.overwrite)
        verb += ["-o", path, "-v", "3" if args.format == "v3" else "2"]
        if args.idle_time_limit is not None:
            verb += ["-i", str(args.idle_time_limit)]
        if args.title is not None:
            verb += ["-T", args.title]
        if args.theme is not None:
            theme = args.theme  # a path (as themes.load_theme tells them) from here
            is_path = "/" in theme or theme.endswith(".json")
            verb += ["-P", os.path.abspath(theme) if is_path else theme]
    try:
        return client.run(verb, where.socket, where.config, force_256=where.force_256)
    except client.ClientError as error:
        raise _Failure(str(error)) from None

