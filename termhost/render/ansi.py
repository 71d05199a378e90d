"""Text with SGR sequences: the screenshot for `cat` in a terminal, or for `less -R`.

Without a theme the colours pass through as the application chose them (SGR 30-37/90-97
for the sixteen, 38;2 for the rest), so the reader's terminal shows them in its own
palette, as it would have shown the application. With a theme every colour, the default
ones included, is resolved to 24-bit SGR and reverse is applied, so the file looks the same
in any terminal; rows then keep their trailing blanks, which carry the theme's background.

Each change of style writes the whole style after a reset (`0;...`), never a difference
from the previous one: longer, but any line can be cut out of the file and still be right.
"""

from __future__ import annotations

from termhost.render.snapshot import Colour, Snapshot, Style, colours
from termhost.themes import Theme

__all__ = ["render_ansi"]

_RESET = "\x1b[0m"


def render_ansi(snapshot: Snapshot, theme: Theme | None = None) -> str:
    """The screen with SGR, one line per row; `theme` resolves every colour (see above)."""
    out: list[str] = []
    for line in snapshot.lines:
        runs = list(line)
        # Trailing blanks that would be written without SGR are padding (the cursor's too:
        # this format has no cursor).
        while theme is None and runs and not runs[-1].text.strip(" ") \
                and not _parameters(runs[-1].style, None):
            runs.pop()
        current = ""
        for run in runs:
            parameters = _parameters(run.style, theme)
            if parameters != current:
                out.append(f"\x1b[{parameters}m" if parameters else _RESET)
                current = parameters
            out.append(run.text)
        if current:
            out.append(_RESET)
        out.append("\n")
    return "".join(out)


def _parameters(style: Style, theme: Theme | None) -> str:
    """The SGR parameters that set `style` after a reset, "" for the plain style."""
    fields = [code for code, on in (("1", style.bold), ("2", style.faint), ("3", style.italic))
              if on]
    if style.underline:
        fields.append("4" if style.underline == 1 else f"4:{style.underline}")
    if style.strikethrough:
        fields.append("9")
    if theme is None:
        if style.reverse:
            fields.append("7")
        fields += _colour(style.fg, 30) + _colour(style.bg, 40)
    else:
        fg, bg = colours(style, theme)
        fields += _colour(fg, 30) + _colour(bg, 40)
    return ";".join(["0", *fields]) if fields else ""


def _colour(colour: Colour, base: int) -> list[str]:
    """SGR fields for a fore- (`base` 30) or background (40) colour."""
    if colour is None:
        return []
    if isinstance(colour, int):
        return [str(base + colour if colour < 8 else base + 60 + colour - 8)]
    return [str(base + 8), "2", *(str(int(colour[i:i + 2], 16)) for i in (1, 3, 5))]
