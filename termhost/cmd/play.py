"""`termhost play FILE`: a recording replayed in this terminal at its pace, or one screen of it.

Playback writes what the program wrote, when it wrote it (scaled by -s, pauses cut to -i),
straight to stdout: the user's own terminal is the emulator, as with asciinema. The timing and
the keys' meaning are `termhost.record.player`; this module is only the I/O around them.

With a terminal on stdin, keys are read in raw mode, which is undone however play ends (q, the
end, an error, SIGTERM), since a terminal left raw looks broken to the user. Without one, as
in CI, keys are not read and the recording just plays. Resize events are not shown: a player
cannot resize the user's terminal (asciinema 2 ignores them too).

`--screen AT` needs no terminal at all: it runs the output up to AT through termhost's own
emulator, resizes included, and prints that screen as text (or ANSI, SVG, HTML), which is
what a test of a recording wants to compare.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import signal
import sys
import termios
import time
import tty
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import BinaryIO

from termhost import themes
from termhost.cmd import EXIT_FAILURE, VerbParser, Where
from termhost.record.asciicast import (
    Event,
    EventCode,
    Header,
    RecordingError,
    open_reader,
    output_bytes,
)
from termhost.record.player import (
    At,
    Player,
    UnknownMarker,
    events_until,
    parse_at,
    parse_size,
    timeline,
)
from termhost.render import FORMATS, render, snapshot
from termhost.terminal import Terminal

__all__ = ["main"]


_PROG = "termhost play"


def _positive(text: str) -> float:
    """A number of seconds or a speed: zero or less would never play (or divide by zero)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} should be a positive number")
    return value


def _at(text: str) -> At:
    try:
        return parse_at(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _parser() -> VerbParser:
    parser = VerbParser(
        prog=_PROG,
        description="Play a recording in this terminal: space pauses or resumes, "
                    "'.' steps while paused, ']' jumps to the next marker, q quits.",
    )
    parser.add_argument("file", metavar="FILE", help="an asciicast file (v2 or v3)")
    parser.add_argument("-s", "--speed", type=_positive, default=1.0, metavar="SPEED",
                        help="play SPEED times as fast (default 1)")
    parser.add_argument("-i", "--idle-time-limit", dest="idle", type=_positive,
                        metavar="IDLE",
                        help="cut every pause to IDLE seconds at most (default: the file's "
                             "idle_time_limit, else none)")
    parser.add_argument("--loop", action="store_true", help="play again from the start, "
                        "until q")
    parser.add_argument("--pause-on-markers", action="store_true",
                        help="pause at each marker (space resumes)")
    parser.add_argument("--screen", type=_at, metavar="AT",
                        help="print the screen at AT instead of playing: recorded seconds "
                             "(12.5, 12.5s, 1m3s) or a marker (marker:LABEL, marker:N)")
    parser.add_argument("--format", choices=FORMATS, help="with --screen: the format "
                        "(default txt)")
    parser.add_argument("--gif", metavar="PATH", dest="picture",
                        help="write the recording as a moving picture instead of playing "
                             "it: PATH.gif, .webp, .mp4, .webm (ffmpeg), or PATH/ for a "
                             "PNG a frame")
    parser.add_argument("--webp", metavar="PATH", dest="picture", help=argparse.SUPPRESS)
    parser.add_argument("--fps", type=_whole, default=50, metavar="N",
                        help="with --gif: frames a second at most (default 50)")
    parser.add_argument("--font-size", type=_whole, default=14, metavar="PX",
                        help="with --gif: the font's size in pixels (default 14, as agg)")
    parser.add_argument("--font-family", metavar="NAMES",
                        help="with --gif: the first installed of these families (\"Fira "
                             "Code, Menlo\"; default: DejaVu Sans Mono, shipped)")
    parser.add_argument("--antialias", action=argparse.BooleanOptionalAction, default=None,
                        help="with --gif: anti-aliased text (default: crisp in a .gif, where "
                             "shades cost twice the bytes; anti-aliased in the others)")
    parser.add_argument("--theme", metavar="NAME",
                        help="with --screen or --gif: the colours (ansi, svg, html, pictures)")
    return parser


def _whole(text: str) -> int:
    """A frame rate or a font size: a whole number from 1 to 1000."""
    if not (text.isdecimal() and text.isascii() and 1 <= int(text) <= 1000):
        raise argparse.ArgumentTypeError(f"{text!r} should be a whole number from 1 to 1000")
    return int(text)


class _Terminated(Exception):
    """SIGTERM, raised in the main thread so that the terminal is restored on the way out."""


def main(argv: Sequence[str], where: Where | None = None) -> int:
    """Run `termhost play ...`; returns the exit status (`where`, the server, is not needed)."""
    parser = _parser()
    args = parser.parse_args(list(argv))
    if args.picture is not None and args.screen is not None:
        parser.error("--gif and --screen: one or the other")
    if args.picture is not None and _kind_of(args.picture) is None:
        parser.error(f"--gif {args.picture}: the picture must be .gif, .webp, .mp4, .webm "
                     "or a DIRECTORY/")
    if args.screen is None and args.picture is None and (args.format is not None
                                                         or args.theme is not None):
        parser.error("--format and --theme go with --screen")
    if args.picture is None and (args.antialias is not None or args.font_family is not None):
        parser.error("--antialias and --font-family go with --gif")
    try:
        header, events = _read(args.file)
        if args.picture is not None:
            idle = args.idle if args.idle is not None else header.idle_time_limit
            return _picture(args, header, events, idle)
        if args.screen is not None:
            theme = themes.load_theme(args.theme) if args.theme is not None else None
            sys.stdout.write(render(snapshot(_screen(args.file, header, events, args.screen)),
                                    args.format or "txt", theme))
            return 0
        idle = args.idle if args.idle is not None else header.idle_time_limit
        return _play(events, args.speed, idle, args.loop, args.pause_on_markers)
    except (RecordingError, themes.ThemeError) as error:
        sys.stderr.write(f"{_PROG}: {error}\n")
    except UnknownMarker as error:
        sys.stderr.write(f"{_PROG}: no marker {_quoted(error.wanted)} in {args.file} "
                         f"({_marker_list(error.labels)})\n")
    except BrokenPipeError:  # `termhost play demo.cast | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return 0
    except KeyboardInterrupt:  # C-c with no terminal on stdin to read it as a key: still a quit
        return 0
    except _Terminated:
        return 128 + signal.SIGTERM
    return EXIT_FAILURE


def _kind_of(path: str) -> str | None:
    """The picture `path` asks for; Pillow is imported only for a picture."""
    from termhost.render.animation import kind_of

    return kind_of(path)


def _picture(args: argparse.Namespace, header: Header, events: list[Event],
             idle: float | None) -> int:
    """The recording as a GIF, WebP or frames (agg's job), paced as it would play: -s and
    -i count, and the last screen stays up for the recording's end."""
    from termhost.record.frames import frames
    from termhost.render.animation import MissingProgram, write_animation
    from termhost.render.geometry import Look
    from termhost.render.raster import Canvas
    from termhost.render.typeface import find_face

    theme = themes.load_theme(args.theme or "default")
    made = frames(events, header.cols, header.rows, framerate=args.fps, idle_limit=idle,
                  speed=args.speed)
    face = None
    if args.font_family is not None:
        face = find_face(args.font_family)
        if face is None:
            sys.stderr.write(f"{_PROG}: --font-family {args.font_family}: none of it is "
                             "installed (fc-list lists what is)\n")
            return EXIT_FAILURE
    look = Look(font_size=args.font_size, padding=max(1, args.font_size // 2), face=face)
    canvas = Canvas(header.cols, header.rows, theme, look, by_cells=True)
    try:
        write_animation(args.picture, made, canvas, antialias=args.antialias)
    except MissingProgram as error:
        sys.stderr.write(f"{_PROG}: {error}\n")
        return EXIT_FAILURE
    except OSError as error:
        sys.stderr.write(f"{_PROG}: cannot write {args.picture}: "
                         f"{error.strerror or error}\n")
        return EXIT_FAILURE
    return 0


def _read(path: str) -> tuple[Header, list[Event]]:
    """All of a recording, read before playing so that a bad line fails at once rather than
    halfway through a playback."""
    with open_reader(path) as reader:
        return reader.header, list(reader)


def _quoted(label: str) -> str:
    return f'"{label}"'


def _marker_list(labels: Sequence[str]) -> str:
    if not labels:
        return "it has none"
    return "markers: " + ", ".join(label or _quoted(label) for label in labels)


def _screen(path: str, header: Header, events: Sequence[Event], at: At) -> Terminal:
    """The terminal after the output up to `at`, at the size the recording had there.

    A time past the end shows the final screen, and says so on stderr: a script asking for a
    late time usually wants the last screen, but a typo should not pass unnoticed.
    """
    terminal = Terminal(header.cols, header.rows)
    shown = events_until(events, at)
    for event in shown:
        if event.code is EventCode.OUTPUT:
            terminal.feed(event.data.encode("utf-8", "replace"))
        elif event.code is EventCode.RESIZE and (size := parse_size(event.data)) is not None:
            terminal.resize(*size)
    end = events[-1].time if events else 0.0
    if at.seconds is not None and at.seconds > end:
        sys.stderr.write(f"{_PROG}: {path} ends at {end:g}s, before {at.seconds:g}s: "
                         "this is the final screen\n")
    return terminal


def _play(
    events: Sequence[Event], speed: float, idle: float | None, loop: bool, pause_on_markers: bool
) -> int:
    """Write each output when it is due, waiting on the keyboard (if any) in between."""
    keys = sys.stdin.fileno() if sys.stdin is not None and sys.stdin.isatty() else None
    # Without a keyboard nothing could resume a pause.
    player = Player(timeline(events, speed, idle), pause_on_markers=pause_on_markers and
                    keys is not None)
    out = sys.stdout.buffer
    with _raw(keys):
        player.start(time.monotonic())
        while not player.quit:
            now = time.monotonic()
            _show(out, player.play(now))
            if player.finished:
                if not loop or not events:
                    break
                player.start(now)
                continue
            delay = player.wait(now)
            if keys is None:
                time.sleep(delay or 0.0)  # the playback's own pace, not a synchronisation
                continue
            ready, _, _ = select.select([keys], [], [], delay)
            if not ready:
                continue
            typed = os.read(keys, 1024)
            if not typed:  # the keyboard is gone: nobody is watching
                break
            for key in typed.decode("latin-1"):
                _show(out, player.press(key, time.monotonic()))
    return 0


def _show(out: BinaryIO, events: Sequence[Event]) -> None:
    """The events' output, flushed at once: it is due now, not when a buffer fills."""
    data = output_bytes(events)
    if data:
        out.write(data)
        out.flush()


@contextlib.contextmanager
def _raw(fd: int | None) -> Iterator[None]:
    """Raw mode on `fd` (if any) for the duration, restored on any exit; SIGTERM becomes an
    exception so that exit goes through here too."""
    if fd is None:
        yield
        return
    saved = termios.tcgetattr(fd)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        tty.setraw(fd, termios.TCSANOW)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        signal.signal(signal.SIGTERM, previous)


def _terminate(number: int, frame: FrameType | None) -> None:
    raise _Terminated
