"""VHS's picture sizes in pixels, as the cells of the terminal VHS lays out in them.

VHS (charmbracelet/vhs) sizes its output in pixels: `Set Width 1200`, `Set Height 600`. Its
terminal is xterm.js in a headless browser, under ttyd, and the grid is whatever fits in
what is left of the picture:

- the browser's viewport is the picture less the padding and the margin on each side, and
  less the window bar's height when there is a bar (VHS's Setup);
- ttyd's terminal element has 5 px of padding on each side, so 10 px less each way;
- a cell is as wide as the font's advance, floored, plus LetterSpacing rounded (xterm.js
  rounds it half up, as JavaScript's Math.round), and as tall as the font's ascent plus
  descent rounded up, times LineHeight, floored;
- columns and rows are what fits, floored: at least 2 columns and 1 row (xterm.js's fit).

The font is VHS's first choice, JetBrains Mono, whose metrics (an advance of 0.6 em, and an
ascent plus descent of 1.32 em) are exact fractions here, so 22 px gives a 14 x 30 cell and
VHS's defaults give 76 x 15, the grid of VHS's own default-settings golden screens; or the
`Face` Set FontFamily found installed (termhost.render.typeface), with its own metrics.
Arithmetic is done in fractions: a float product such as 1.32 x 25 rounds up a cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Face", "Look", "PixelSizeError", "cell_pixels", "grid"]

ADVANCE = Fraction(600, 1000)
"""JetBrains Mono's advance width, in em (600 of 1000 units)."""
LINE = Fraction(1320, 1000)
"""JetBrains Mono's ascent plus descent, in em (1020 + 300 of 1000 units)."""
TTYD_INSET = 10
"""ttyd's terminal element's padding, 5 px a side, both sides."""
MIN_COLUMNS, MIN_ROWS = 2, 1
"""The smallest grid xterm.js's fit gives."""


class PixelSizeError(ValueError):
    """A picture with no room for the terminal: VHS's `Dimensions must be at least`."""


@dataclass(frozen=True)
class Face:
    """A font family as pictures use it: its files (regular, bold, italic, bold italic)
    and the metrics its cells follow, in em (the advance of a `W`, ascent plus descent)."""

    family: str
    files: tuple[str, str, str, str]
    advance: Fraction
    line: Fraction


@dataclass(frozen=True)
class Look:
    """The settings that shape VHS's picture, with VHS's defaults."""

    width: int = 1200
    height: int = 600
    font_size: int = 22
    letter_spacing: float = 1.0
    line_height: float = 1.0
    padding: int = 60
    margin: int = 0
    window_bar: str = ""
    """"" for none, else Colorful, ColorfulRight, Rings or RingsRight."""
    window_bar_size: int = 30
    face: Face | None = None
    """Set FontFamily's font, when one of its families is installed; None: cells as
    JetBrains Mono's (VHS's first choice), drawn in the shipped DejaVu Sans Mono."""

    @property
    def bar(self) -> int:
        """The window bar's height in pixels (0 without one)."""
        return self.window_bar_size if self.window_bar else 0


def _js_round(value: Fraction) -> int:
    """JavaScript's Math.round: halves go up."""
    return math.floor(value + Fraction(1, 2))


def cell_pixels(look: Look) -> tuple[int, int]:
    """A cell's width and height in pixels, as xterm.js measures them."""
    size = Fraction(look.font_size)
    advance, line = (look.face.advance, look.face.line) if look.face else (ADVANCE, LINE)
    width = math.floor(advance * size) + _js_round(Fraction(look.letter_spacing))
    height = math.floor(math.ceil(line * size) * Fraction(look.line_height))
    return max(1, width), max(1, height)


def grid(look: Look) -> tuple[int, int]:
    """The columns and rows VHS's terminal has in the picture `look` describes."""
    frame = 2 * look.padding + 2 * look.margin
    if look.width <= frame or look.height <= frame + look.bar:
        raise PixelSizeError(
            f"a {look.width}x{look.height} picture has no room for the terminal: it must be "
            f"more than {frame}x{frame + look.bar} (twice Padding and Margin"
            f"{', plus WindowBarSize' if look.bar else ''})")
    cell_width, cell_height = cell_pixels(look)
    room_width = look.width - frame - TTYD_INSET
    room_height = look.height - frame - look.bar - TTYD_INSET
    return (max(MIN_COLUMNS, room_width // cell_width),
            max(MIN_ROWS, room_height // cell_height))
