"""`termhost screenshot`: a live pane's screen as text, ANSI, SVG or HTML.

The server is asked only through tmux verbs (display-message for the pane's size and
cursor, capture-pane -e for its cells), so this needs nothing from the server that tmux
scripts do not have. The screen is rebuilt here in a `Terminal` of the pane's size, and
the renderers then see a `Snapshot` as they do for a tape's Screenshot: one pane gives the
same bytes either way. As everywhere in termhost, a failure is one line on stderr with
exit status 1, a usage error exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from termhost import themes
from termhost.cmd import EXIT_FAILURE, ServerSaid, VerbParser, Where, ask
from termhost.mux import client
from termhost.render import FORMATS, format_for_path, render, snapshot
from termhost.terminal.emulator import Terminal

__all__ = ["main"]


_PROG = "termhost screenshot"

_DESCRIBE = "#{pane_width} #{pane_height} #{cursor_x} #{cursor_y} #{cursor_flag} #{pane_title}"
"""The title last: it may hold spaces, so it is whatever follows the fifth."""


class ScreenshotError(Exception):
    """A screenshot that cannot be taken or written; the message is one line naming why."""


def _parser() -> VerbParser:
    parser = VerbParser(prog=_PROG,
                        description="Render a pane's screen as text, ANSI, SVG or HTML.")
    parser.add_argument("-t", dest="target", metavar="TARGET",
                        help="the pane, as tmux's -t (default: the current pane)")
    parser.add_argument("-o", dest="output", metavar="FILE", type=Path,
                        help="write FILE.txt, .ansi, .svg or .html (default: text on stdout)")
    parser.add_argument("--format", choices=FORMATS,
                        help="the format, whatever -o's extension says")
    parser.add_argument("--theme", metavar="NAME",
                        help="a theme's name or file (default: the server's theme option)")
    parser.add_argument("--frame", action=argparse.BooleanOptionalAction, default=True,
                        help="draw a window with the title around SVG and HTML (default: on)")
    parser.add_argument("--title", metavar="TEXT",
                        help="the title in the frame (default: the pane's title)")
    return parser


@dataclass(frozen=True)
class _Pane:
    """What display-message says of a pane: enough to rebuild its screen."""

    cols: int
    rows: int
    cursor: tuple[int, int]
    cursor_visible: bool
    title: str


def main(argv: Sequence[str], where: Where) -> int:
    """Run `termhost screenshot ARGV...` against the server at `where.socket`; returns the
    exit status."""
    args = _parser().parse_args(list(argv))
    try:
        fmt = args.format or (_format(args.output) if args.output is not None else "txt")
        theme = themes.load_theme(args.theme) if args.theme else None
        pane = _describe(where, args.target)
        terminal = _rebuild(pane, _capture(where, args.target))
        if theme is None and fmt in ("svg", "html"):  # ANSI keeps the reader's own palette
            theme = _server_theme(where)
        title = pane.title if args.title is None else args.title
        text = render(snapshot(terminal, title), fmt, theme, frame=args.frame)
        if args.output is None:
            sys.stdout.buffer.write(text.encode("utf-8"))
            sys.stdout.flush()
        else:
            args.output.write_bytes(text.encode("utf-8"))
        return 0
    except (ScreenshotError, themes.ThemeError, client.ClientError) as error:
        sys.stderr.write(f"{_PROG}: {error}\n")
    except BrokenPipeError:  # `termhost screenshot | head -1`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
    except OSError as error:  # -o names a place that cannot be written
        place = f"{error.filename}: " if error.filename else ""
        sys.stderr.write(f"{_PROG}: {place}{error.strerror or error}\n")
    return EXIT_FAILURE


def _format(output: Path) -> str:
    try:
        return format_for_path(output)
    except ValueError as error:
        raise ScreenshotError(f"{error}; or name one with --format") from None


def _ask(where: Where, *argv: str) -> bytes:
    try:
        return ask(where, *argv)
    except ServerSaid as said:
        raise ScreenshotError(str(said)) from None


def _targeting(target: str | None) -> list[str]:
    return [] if target is None else ["-t", target]


def _describe(where: Where, target: str | None) -> _Pane:
    answer = _ask(where, "display-message", "-p", *_targeting(target), _DESCRIBE)
    fields = answer.decode(errors="replace").removesuffix("\n").split(" ", 5)
    try:
        cols, rows, x, y = (int(field) for field in fields[:4])
        flag, title = fields[4:6]
    except ValueError:
        raise ScreenshotError(f"the server described the pane as {answer!r}") from None
    if cols < 1 or rows < 1:
        raise ScreenshotError(f"the server gave the pane a size of {cols}x{rows}")
    # A server without #{cursor_flag} expands it to nothing: the cursor counts as shown.
    return _Pane(cols, rows, (x, y), flag != "0", title)


def _capture(where: Where, target: str | None) -> bytes:
    """The visible screen, attributes as SGR (-e); -N keeps the trailing blanks, which
    carry a colour when an application paints a bar to the right edge."""
    return _ask(where, "capture-pane", "-p", "-e", "-N", *_targeting(target))


def _rebuild(pane: _Pane, captured: bytes) -> Terminal:
    """The pane's screen in a terminal of its size: each captured line is put in place with
    CUP, so that nothing scrolls; autowrap is off, so a line longer than the pane (it was
    resized between the two questions) is cut rather than pushed onto the next row. SGR
    is never reset between lines: capture-pane -e carries attributes over, as tmux's."""
    terminal = Terminal(pane.cols, pane.rows)
    terminal.feed(b"\x1b[?7l")
    for y, line in enumerate(captured.split(b"\n")[: pane.rows]):
        terminal.feed(b"\x1b[%d;1H" % (y + 1) + line)
    x, y = pane.cursor
    terminal.feed(b"\x1b[0m\x1b[%d;%dH" % (y + 1, x + 1))
    if not pane.cursor_visible:
        terminal.feed(b"\x1b[?25l")
    return terminal


def _server_theme(where: Where) -> themes.Theme | None:
    """The theme the server's `theme` option names; None (the default theme) if the server
    has no such option."""
    try:
        name = _ask(where, "show-options", "-gv", "theme").decode(errors="replace").strip()
    except ScreenshotError:
        return None
    if not name:
        return None
    try:
        return themes.load_theme(name)
    except themes.ThemeError as error:
        raise ScreenshotError(f"{error}, from the server's theme option; --theme NAME "
                              "chooses another") from None
