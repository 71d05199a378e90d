"""Screenshots: a pane's screen, taken from the emulator, rendered as text, ANSI, SVG or HTML.

`snapshot()` copies the screen once into plain data; each renderer is a pure function of
that snapshot and a theme, so a given screen and theme always give the same bytes (no
timestamps, no random ids, attributes in a fixed order) and golden files compare byte for
byte. A format is a module: text.py, ansi.py, svg.py, html.py.
"""

from __future__ import annotations

from pathlib import PurePath

from termhost.render.ansi import render_ansi
from termhost.render.html import render_html
from termhost.render.snapshot import Snapshot, snapshot
from termhost.render.svg import render_svg
from termhost.render.text import render_text
from termhost.themes import Theme, load_theme

__all__ = ["FORMATS", "Snapshot", "format_for_path", "render", "snapshot"]

FORMATS = ("txt", "ansi", "svg", "html")
"""The format names, which are also the file extensions `format_for_path` knows."""


def render(
    screen: Snapshot, fmt: str, theme: Theme | None = None, *, frame: bool = False
) -> str:
    """`screen` in format `fmt` (one of FORMATS).

    `theme` colours SVG and HTML (termhost's "default" when None) and, when given, resolves
    ANSI's colours to 24-bit; text has none. `frame` draws a window with the title around
    SVG and HTML.
    """
    if fmt == "txt":
        return render_text(screen)
    if fmt == "ansi":
        return render_ansi(screen, theme)
    if fmt == "svg":
        return render_svg(screen, theme or load_theme("default"), frame=frame)
    if fmt == "html":
        return render_html(screen, theme or load_theme("default"), frame=frame)
    raise ValueError(f"unknown screenshot format {fmt!r} (known: {', '.join(FORMATS)})")


def format_for_path(path: str | PurePath) -> str:
    """The format a file name asks for by its extension (`shot.svg` -> "svg")."""
    suffix = PurePath(path).suffix.lower().lstrip(".")
    fmt = {"htm": "html", "text": "txt"}.get(suffix, suffix)
    if fmt not in FORMATS:
        raise ValueError(
            f"{PurePath(path).name}: cannot tell the screenshot format from the extension "
            f"(use .txt, .ansi, .svg or .html)"
        )
    return fmt
