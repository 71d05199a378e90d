"""HTML: the screenshot as text a reader can select and copy, in a page of its own.

A standalone document: one `<pre>` in the theme's colours with a `<span style>` per run
that is not plain, the styles inline so that the `<pre>` can be pasted into another page
and keep its looks. Nothing is fetched: the font is the reader's own monospace.

Colours are resolved against the theme here rather than left to CSS classes, so that the
document alone says what it looks like. A wide character's span is `inline-block` and two
`ch` wide, so that it takes its two cells whatever the font's CJK or emoji advance is.
"""

from __future__ import annotations

from html import escape

from termhost.render.snapshot import Line, Run, Snapshot, colours, text_decoration
from termhost.render.svg import CELL_HEIGHT, FONT_FAMILY, FONT_SIZE, WINDOW_BUTTONS
from termhost.themes import Theme

__all__ = ["render_html"]

_UNDERLINE_STYLES = {2: "double", 3: "wavy", 4: "dotted", 5: "dashed"}


def render_html(snapshot: Snapshot, theme: Theme, *, frame: bool = False) -> str:
    """The screen as an HTML document; `frame` puts a window bar with the title above it."""
    title = escape(snapshot.title or "termhost screenshot", quote=False)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{title}</title>",
        "<style>",
        "body { margin: 0; }",
        f".termhost {{ display: inline-block; background: {theme.background}; "
        f"color: {theme.foreground}; }}",
        f".termhost pre {{ margin: 0; padding: 12px; width: {snapshot.cols}ch; "
        f"font-family: {FONT_FAMILY}; font-size: {FONT_SIZE}px; "
        f"line-height: {CELL_HEIGHT}px; }}",
    ]
    if frame:
        out += [
            f".termhost {{ border: 1px solid {theme.border}; border-radius: 8px; }}",
            ".termhost .bar { position: relative; height: 24px; padding: 12px 12px 0; "
            f"font-family: {FONT_FAMILY}; font-size: {FONT_SIZE}px; text-align: center; }}",
            ".termhost .dot { position: absolute; top: 12px; width: 12px; height: 12px; "
            "border-radius: 50%; }",
            ".termhost .title { opacity: 0.7; }",
        ]
    out += ["</style>", "</head>", "<body>", '<div class="termhost">']
    if frame:
        dots = "".join(
            f'<span class="dot" style="left: {14 + 20 * index}px; background: {colour}">'
            "</span>"
            for index, colour in enumerate(WINDOW_BUTTONS)
        )
        name = escape(snapshot.title, quote=False)
        out.append(f'<div class="bar">{dots}<span class="title">{name}</span></div>')
    rows = "\n".join(_row(line, theme) for line in snapshot.lines)
    out += [f"<pre>{rows}</pre>", "</div>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def _row(line: Line, theme: Theme) -> str:
    runs = list(line)
    while runs and runs[-1].blank:
        runs.pop()
    return "".join(_span(run, theme) for run in runs)


def _span(run: Run, theme: Theme) -> str:
    """`run`'s text, in a span carrying whatever differs from the `<pre>`'s own style."""
    style = run.style
    text = escape(run.text, quote=False)
    rules: list[str] = []
    fg, bg = colours(style, theme)
    if style.cursor:
        fg, bg = bg, theme.cursor
    if fg != theme.foreground:
        rules.append(f"color: {fg}")
    if bg != theme.background:
        rules.append(f"background: {bg}")
    if style.bold:
        rules.append("font-weight: bold")
    if style.italic:
        rules.append("font-style: italic")
    decoration = text_decoration(style)
    if decoration:
        rules.append(f"text-decoration: {decoration}")
    if style.underline in _UNDERLINE_STYLES:
        rules.append(f"text-decoration-style: {_UNDERLINE_STYLES[style.underline]}")
    if style.faint:
        rules.append("opacity: 0.5")
    if run.wide:
        rules.append("display: inline-block; width: 2ch")
    if not rules:
        return text
    return f'<span style="{"; ".join(rules)}">{text}</span>'
