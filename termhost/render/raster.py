"""Screens as pixels: a `Snapshot` drawn with a real monospace font into a picture laid out
as VHS lays out its own (padding, an optional window bar, rounded corners, a margin), with
Pillow and no browser. PNG screenshots and the frames of GIFs and WebPs come from here.

- The cells are the size termhost.render.geometry gives VHS's terminal (FontSize,
  LetterSpacing, LineHeight), so a tape's picture has the cells its terminal had. The
  glyphs are DejaVu Sans Mono's (shipped beside this module with its licence, so that the
  same screen gives the same bytes on every machine), or those of Set FontFamily's font
  when it is installed (termhost.render.typeface), drawn one per cell at the cell's
  left edge and on a baseline centred in the cell: a row never drifts off the grid. Bold
  and italic have fonts of their own; faint is the colour halfway to the background.
- A character the font lacks (CJK, emoji) is drawn with the font fontconfig names for
  it, if any; a wide character is centred on its two cells.
- The picture is Width x Height pixels, the grid centred in what the padding leaves
  (VHS scales its terminal's canvas to fit; here nothing is scaled, which keeps glyphs
  sharp and the bytes exact). A picture sized by its cells (Set Columns and Rows, or a
  recording) is just large enough for them.
- Rows are drawn once and kept by their contents: a frame of an animation redraws only
  the rows that changed.
- Text is anti-aliased unless `antialias` is off: then each glyph is FreeType's hinted
  one-bit rendering, crisp as a terminal's bitmap font. A GIF wants that (see
  termhost.render.animation): its 256 colours and LZW coding take anti-aliased text at
  about twice the bytes.
"""

from __future__ import annotations

import copy
import functools
from collections import OrderedDict
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from termhost.render.geometry import TTYD_INSET, Look, cell_pixels
from termhost.render.snapshot import Line, Run, Snapshot, colours
from termhost.render.typeface import FONTS, SHIPPED_FILES, fc_match
from termhost.themes import Theme

__all__ = ["BAR_COLOURS", "FONTS", "Canvas", "has_glyph"]

_STYLES = ((False, False), (True, False), (False, True), (True, True))
"""(bold, italic) of a Face's files, in their order."""
BAR_COLOURS = ("#ff4f4d", "#febb00", "#00cc1d")
"""The window bar's three dots, left to right (VHS's Colorful)."""
_RING = "#333333"
"""The window bar's rings (VHS's Rings)."""
_ROW_CACHE = 4096
"""Rows kept drawn: a screen's worth many times over, for the frames of an animation."""


@dataclass(frozen=True)
class _Layout:
    width: int
    height: int
    bar: int
    left: int
    """Where the grid starts, in pixels from the picture's edge."""
    top: int


class Canvas:
    """Pictures of `cols` x `rows` screens in one theme and look. `by_cells`: the picture is
    as large as the cells need (a recording, Set Columns), not Width x Height."""

    def __init__(self, cols: int, rows: int, theme: Theme, look: Look, *,
                 by_cells: bool = False, border_radius: int = 0, margin_fill: str = "",
                 antialias: bool = True) -> None:
        self.cols, self.rows, self.theme, self.look = cols, rows, theme, look
        self.by_cells, self.antialias = by_cells, antialias
        self.cell_width, self.cell_height = cell_pixels(look)
        self.layout = self._layout(by_cells)
        self.border_radius = border_radius
        self.margin_fill = margin_fill
        files = look.face.files if look.face else SHIPPED_FILES
        self._fonts = {style: ImageFont.truetype(files[index], look.font_size)
                       for index, style in enumerate(_STYLES)}
        ascent, descent = self._fonts[False, False].getmetrics()
        self.baseline = (self.cell_height - ascent - descent) // 2 + ascent
        self._rows: OrderedDict[Line, Image.Image] = OrderedDict()
        self._frame = self._window()

    def fitting(self, cols: int, rows: int) -> Canvas:
        """This canvas, or one like it large enough for a `cols` x `rows` screen too (a
        tape's Resize, a recording's resize event): every frame of a moving picture has
        its size. A smaller screen is drawn from the top left."""
        if cols <= self.cols and rows <= self.rows:
            return self
        return Canvas(max(cols, self.cols), max(rows, self.rows), self.theme, self.look,
                      by_cells=self.by_cells, border_radius=self.border_radius,
                      margin_fill=self.margin_fill, antialias=self.antialias)

    def with_antialias(self, antialias: bool) -> Canvas:
        """This canvas, or one like it whose text is (or is not) anti-aliased."""
        if antialias == self.antialias:
            return self
        other = copy.copy(self)  # the fonts and the window are shared, never changed
        other.antialias, other._rows = antialias, OrderedDict()
        return other

    @property
    def size(self) -> tuple[int, int]:
        return self.layout.width, self.layout.height

    def _layout(self, by_cells: bool) -> _Layout:
        look = self.look
        grid_width, grid_height = self.cols * self.cell_width, self.rows * self.cell_height
        frame = 2 * (look.padding + look.margin)
        if by_cells:
            width = grid_width + frame + TTYD_INSET
            height = grid_height + frame + look.bar + TTYD_INSET
        else:
            width = max(look.width, grid_width + frame)
            height = max(look.height, grid_height + frame + look.bar)
        room_width = width - frame
        room_height = height - frame - look.bar
        return _Layout(width, height, look.bar,
                       look.margin + look.padding + (room_width - grid_width) // 2,
                       look.margin + look.bar + look.padding + (room_height - grid_height) // 2)

    # The window, drawn once

    def _window(self) -> Image.Image:
        """The picture without the screen: margin, window with its corners and bar."""
        layout, look, theme = self.layout, self.look, self.theme
        picture = self._margin()
        window = (look.margin, look.margin, layout.width - look.margin - 1,
                  layout.height - look.margin - 1)
        draw = ImageDraw.Draw(picture)
        if self.border_radius:
            draw.rounded_rectangle(window, self.border_radius, fill=theme.background)
        else:
            draw.rectangle(window, fill=theme.background)
        if look.window_bar:
            self._bar(draw, look.window_bar, look.margin, look.margin,
                      layout.width - 2 * look.margin, layout.bar)
        return picture

    def _margin(self) -> Image.Image:
        fill = self.margin_fill or self.theme.background
        if fill.startswith("#"):
            return Image.new("RGB", self.size, fill)
        with Image.open(fill) as image:  # an image's path (VHS's MarginFill)
            return image.convert("RGB").resize(self.size, Image.Resampling.LANCZOS)

    def _bar(self, draw: ImageDraw.ImageDraw, style: str, left: int, top: int, width: int,
             size: int) -> None:
        """VHS's window bar: three dots (Colorful) or rings (Rings), from the left or
        (…Right) from the right."""
        rings = style.startswith("Rings")
        radius = size // 5 if rings else size // 6
        gap = (size - 2 * radius) // 2
        step = 2 * radius + size // 6
        for index in range(3):
            offset = gap + radius + index * step
            x = left + width - offset if style.endswith("Right") else left + offset
            y = top + size // 2
            box = (x - radius, y - radius, x + radius, y + radius)
            if rings:
                inner = (4 * radius) // 5
                draw.ellipse(box, fill=_RING)
                draw.ellipse((x - inner, y - inner, x + inner, y + inner),
                             fill=self.theme.background)
            else:
                draw.ellipse(box, fill=BAR_COLOURS[index])

    # A screen

    def paint(self, screen: Snapshot) -> Image.Image:
        """`screen` in the window: a new RGB picture."""
        picture = self._frame.copy()
        left, top = self.layout.left, self.layout.top
        for y, line in enumerate(screen.lines[: self.rows]):
            picture.paste(self._row(line), (left, top + y * self.cell_height))
        return picture

    def _row(self, line: Line) -> Image.Image:
        drawn = self._rows.get(line)
        if drawn is not None:
            self._rows.move_to_end(line)
            return drawn
        drawn = Image.new("RGB", (self.cols * self.cell_width, self.cell_height),
                          self.theme.background)
        draw = ImageDraw.Draw(drawn)
        draw.fontmode = "L" if self.antialias else "1"
        for run in line:
            self._run(draw, run)
        self._rows[line] = drawn
        if len(self._rows) > _ROW_CACHE:
            self._rows.popitem(last=False)
        return drawn

    def _run(self, draw: ImageDraw.ImageDraw, run: Run) -> None:
        style = run.style
        fg, bg = colours(style, self.theme)
        if style.cursor:
            fg, bg = self.theme.background, self.theme.cursor
        left, width = run.column * self.cell_width, run.width * self.cell_width
        if bg != self.theme.background:
            draw.rectangle((left, 0, left + width - 1, self.cell_height - 1), fill=bg)
        if style.faint:
            fg = _halfway(fg, bg)
        font = self._fonts[style.bold, style.italic]
        characters = [run.text] if run.wide else list(run.text)
        for index, character in enumerate(characters):
            if character == " ":
                continue
            x = left + index * self.cell_width
            face = font if has_glyph(font, character) else _fallback(character, font)
            if run.wide:
                x = left + (width - int(face.getlength(character))) // 2
            draw.text((x, self.baseline), character, font=face, fill=fg, anchor="ls")
        line = max(1, self.look.font_size // 14)
        if style.underline:
            y = min(self.baseline + 2 * line, self.cell_height - line)
            draw.rectangle((left, y, left + width - 1, y + line - 1), fill=fg)
            if style.underline == 2:
                y2 = min(y + 2 * line, self.cell_height - line)
                draw.rectangle((left, y2, left + width - 1, y2 + line - 1), fill=fg)
        if style.strikethrough:
            y = self.baseline - self.look.font_size * 3 // 10
            draw.rectangle((left, y, left + width - 1, y + line - 1), fill=fg)


def _halfway(colour: str, other: str) -> str:
    one, two = _rgb(colour), _rgb(other)
    return "#" + "".join(f"{(a + b) // 2:02x}" for a, b in zip(one, two, strict=True))


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@functools.lru_cache(maxsize=4096)
def has_glyph(font: ImageFont.FreeTypeFont, character: str) -> bool:
    """Whether `font` draws `character` itself, not its missing-glyph box: the box is what
    a private-use code point no font here has comes out as."""
    return _drawn(font, character) != _drawn(font, _NO_SUCH_CHARACTER)


_NO_SUCH_CHARACTER = "\U0010fffd"


@functools.lru_cache(maxsize=4096)
def _drawn(font: ImageFont.FreeTypeFont, character: str) -> bytes:
    size = int(font.size) * 3
    image = Image.new("L", (size, size))
    ImageDraw.Draw(image).text((size // 3, size // 3), character, font=font, fill=255)
    return image.tobytes()


@functools.lru_cache(maxsize=1024)
def _fallback(character: str, font: ImageFont.FreeTypeFont) -> ImageFont.FreeTypeFont:
    """The font fontconfig has for `character` at `font`'s size; `font` itself (its box)
    when there is none."""
    found = fc_match(f"monospace:charset={ord(character):x}", "%{file}")
    try:
        fallback = ImageFont.truetype(found, int(font.size)) if found else font
    except OSError:
        return font
    return fallback if has_glyph(fallback, character) else font
