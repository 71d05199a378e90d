"""SVG: the screenshot for a README or a web page, that looks the same everywhere.

Our own, not rich's `Console.export_svg` (rich 15, read for this): rich measures a run's
`textLength` by its characters rather than its cells, so a run holding CJK or emoji is
squeezed into half its width; it has no cursor; its window chrome cannot be left out
without a template that still reserves the title bar's space; its default template loads
Fira Code from a CDN; and a screen would have to be re-laid out through rich's own width
tables, which need not agree with the emulator's. It would also add rich and three
packages it needs to the runtime dependencies, for what is about a hundred lines here.

The layout is a grid of CELL_WIDTH x CELL_HEIGHT cells in whole pixels, so no coordinate
is a float that could print differently. Every `<text>` has `textLength` set to its cells
and `lengthAdjust="spacingAndGlyphs"`: whatever monospace font the viewer has, a run
fills exactly its cells and the columns stay aligned. A wide character is a `<text>` of
its own (see snapshot.py), pinned to its two cells. Backgrounds are drawn for all rows
before any text, so that no row's background covers the descenders of the row above.

The font is the viewer's own (`ui-monospace, "DejaVu Sans Mono", monospace`), never an
`@import` or web font: the file works offline and fetches nothing. There are no ids, so
there is nothing to collide when two screenshots are inlined in one page; the `<style>`
rule is scoped to the `termhost` class.
"""

from __future__ import annotations

from html import escape

from termhost.render.snapshot import Run, Snapshot, colours, text_decoration
from termhost.themes import Theme

__all__ = [
    "CELL_HEIGHT", "CELL_WIDTH", "FONT_FAMILY", "FONT_SIZE", "WINDOW_BUTTONS", "render_svg",
]

FONT_FAMILY = 'ui-monospace, "DejaVu Sans Mono", monospace'
FONT_SIZE = 15
CELL_WIDTH = 9
"""Pixels: 0.6 of the font size, the advance of most monospace fonts."""
CELL_HEIGHT = 18
_BASELINE = 14
"""From the top of a cell to the baseline of its text."""
_PADDING = 12
_TITLE_BAR = 36
_BUTTONS_WIDTH = 80
"""Pixels from either side of the window the title keeps clear of, for the buttons."""
WINDOW_BUTTONS = ("#ff5f57", "#febc2e", "#28c840")
"""The close, minimise and zoom buttons' colours of a macOS window, as screenshots show them."""


def render_svg(snapshot: Snapshot, theme: Theme, *, frame: bool = False) -> str:
    """The screen as an SVG document; `frame` draws a window around it with the title."""
    grid_width, grid_height = snapshot.cols * CELL_WIDTH, snapshot.rows * CELL_HEIGHT
    if frame:
        left, top = _PADDING, _TITLE_BAR
        width, height = grid_width + 2 * _PADDING, grid_height + _TITLE_BAR + _PADDING
    else:
        left, top, width, height = 0, 0, grid_width, grid_height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="termhost" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" xml:space="preserve">',
    ]
    if snapshot.title:
        out.append(f"<title>{escape(snapshot.title, quote=False)}</title>")
    out.append(
        "<style>\n"
        f".termhost text {{ font-family: {FONT_FAMILY}; font-size: {FONT_SIZE}px; "
        "white-space: pre; }\n"
        "</style>"
    )
    if frame:
        out += _frame(snapshot, theme, width, height)
    else:
        out.append(f'<rect width="{width}" height="{height}" fill="{theme.background}"/>')
    out.append(f'<g transform="translate({left},{top})">')
    out += _backgrounds(snapshot, theme)
    out += _texts(snapshot, theme)
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _frame(snapshot: Snapshot, theme: Theme, width: int, height: int) -> list[str]:
    """A rounded window with three buttons and the title centred over the screen."""
    parts = [
        f'<rect x="0.5" y="0.5" width="{width - 1}" height="{height - 1}" rx="8" '
        f'fill="{theme.background}" stroke="{theme.border}"/>'
    ]
    parts += [
        f'<circle cx="{_PADDING + 8 + 20 * index}" cy="18" r="6" fill="{colour}"/>'
        for index, colour in enumerate(WINDOW_BUTTONS)
    ]
    room = (width - 2 * _BUTTONS_WIDTH) // CELL_WIDTH  # characters, clear of the buttons
    title = snapshot.title
    if len(title) > room:
        title = title[: max(room - 1, 0)] + "…" if room > 0 else ""
    if title:
        parts.append(
            f'<text x="{width / 2:g}" y="23" text-anchor="middle" fill="{theme.foreground}" '
            f'opacity="0.7">{escape(title, quote=False)}</text>'
        )
    return parts


def _backgrounds(snapshot: Snapshot, theme: Theme) -> list[str]:
    """One rect per stretch of a row in one background that is not the screen's own."""
    rects: list[str] = []
    for y, line in enumerate(snapshot.lines):
        stretch: tuple[int, int, str] | None = None  # start, end column, colour
        for run in line:
            fill = _background(run, theme)
            if stretch is not None and (fill != stretch[2] or run.column != stretch[1]):
                rects.append(_rect(y, *stretch))
                stretch = None
            if fill is not None:
                start = run.column if stretch is None else stretch[0]
                stretch = (start, run.column + run.width, fill)
        if stretch is not None:
            rects.append(_rect(y, *stretch))
    return rects


def _background(run: Run, theme: Theme) -> str | None:
    """The fill behind `run`, None where the screen's background shows."""
    if run.style.cursor:
        return theme.cursor
    if run.style.bg is None and not run.style.reverse:
        return None
    return colours(run.style, theme)[1]


def _rect(y: int, start: int, end: int, fill: str) -> str:
    return (
        f'<rect x="{start * CELL_WIDTH}" y="{y * CELL_HEIGHT}" '
        f'width="{(end - start) * CELL_WIDTH}" height="{CELL_HEIGHT}" fill="{fill}"/>'
    )


def _texts(snapshot: Snapshot, theme: Theme) -> list[str]:
    """One `<text>` per run that shows something, its glyphs stretched over its cells."""
    texts: list[str] = []
    for y, line in enumerate(snapshot.lines):
        for run in line:
            style = run.style
            if not run.text.strip(" ") and not (style.underline or style.strikethrough):
                continue
            fg, bg = colours(style, theme)
            attributes = [
                f'x="{run.column * CELL_WIDTH}"',
                f'y="{y * CELL_HEIGHT + _BASELINE}"',
                f'textLength="{run.width * CELL_WIDTH}"',
                'lengthAdjust="spacingAndGlyphs"',
                f'fill="{bg if style.cursor else fg}"',
            ]
            if style.bold:
                attributes.append('font-weight="bold"')
            if style.italic:
                attributes.append('font-style="italic"')
            decoration = text_decoration(style)
            if decoration:
                attributes.append(f'text-decoration="{decoration}"')
            if style.faint:
                attributes.append('opacity="0.5"')
            texts.append(f"<text {' '.join(attributes)}>{escape(run.text, quote=False)}</text>")
    return texts
