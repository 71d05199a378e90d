"""Screens as pixels (render/raster.py): the picture laid out as VHS lays out its own, the
cells where geometry.py puts them, the theme's colours where they belong, and the same
bytes for the same screen. The golden PNG is written with UPDATE_GOLDEN=1 and read by eye;
after that a change to its bytes is a change to what users get."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageFont

from termhost.render.geometry import Look, cell_pixels
from termhost.render.raster import BAR_COLOURS, FONTS, Canvas, has_glyph
from termhost.render.snapshot import snapshot
from termhost.terminal import Terminal
from termhost.themes import Theme, load_theme

from .test_render import SESSION

GOLDEN = Path(__file__).parent / "golden"
THEME = load_theme("dracula")


def _screen(data: bytes, cols: int = 40, rows: int = 8) -> Terminal:
    terminal = Terminal(cols, rows)
    terminal.feed(data)
    return terminal


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


SHIPPED_GLYPHS = SESSION.replace("中文".encode(), "→✓".encode()).replace(
    "界".encode(), "λ".encode()).replace("😀".encode(), "★".encode())
"""test_render's session with characters the shipped font has in place of CJK and emoji,
which come from whatever fonts a machine has (fontconfig): the golden bytes depend on the
shipped font alone."""


def test_the_session_screen_byte_for_byte() -> None:
    """Every attribute, colours of three kinds, wide characters and the cursor, in a
    framed window: the golden PNG, and the same bytes drawn twice."""
    text = SHIPPED_GLYPHS.decode()
    font = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), 16)
    assert all(has_glyph(font, character) for character in text if character.isprintable())
    look = Look(font_size=16, padding=20, margin=12, window_bar="Colorful")
    canvas = Canvas(48, 8, THEME, look, by_cells=True, border_radius=8, margin_fill="#674eff")
    drawn = _png(canvas.paint(snapshot(_screen(SHIPPED_GLYPHS, 48, 8))))
    again = Canvas(48, 8, THEME, look, by_cells=True, border_radius=8, margin_fill="#674eff")
    assert _png(again.paint(snapshot(_screen(SHIPPED_GLYPHS, 48, 8)))) == drawn
    golden = GOLDEN / "session-dracula.png"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_bytes(drawn)
    assert drawn == golden.read_bytes()


def test_a_picture_of_vhs_s_size_holds_the_grid_centred_in_its_padding() -> None:
    """Width x Height pixels exactly; the theme's background in the padding, the margin's
    fill around the window, the bar's dots where VHS draws them."""
    look = Look(width=900, height=500, font_size=20, padding=30, margin=20,
                window_bar="Colorful")
    canvas = Canvas(60, 10, THEME, look, margin_fill="#123456")
    picture = canvas.paint(snapshot(_screen(b"")))
    assert picture.size == (900, 500)
    assert picture.getpixel((5, 5)) == _rgb("#123456")  # the margin
    assert picture.getpixel((20 + 3, 500 - 20 - 3)) == _rgb(THEME.background)  # padding
    # Colorful: dots of radius 30/6 = 5, the first centred 15 pixels in, 15 apart
    for index, colour in enumerate(BAR_COLOURS):
        assert picture.getpixel((20 + 15 + 15 * index, 20 + 15)) == _rgb(colour)
    cell_width, cell_height = cell_pixels(look)
    left, top = canvas.layout.left, canvas.layout.top
    assert (left - 20 - 30) * 2 + 60 * cell_width == 900 - 2 * 50  # centred across
    assert top == 20 + 30 + 30 + (500 - 100 - 30 - 10 * cell_height) // 2


def test_each_cell_is_drawn_at_its_place_in_the_grid() -> None:
    """The same character looks the same in every column (one glyph a cell, at the
    cell's edge); colours fill exactly their cells."""
    look = Look(font_size=18, padding=0)
    canvas = Canvas(10, 2, THEME, look, by_cells=True)
    picture = canvas.paint(snapshot(_screen(b"A  A\x1b[41m  \x1b[0mA\r\n", 10, 2)))
    width, height = cell_pixels(look)
    left, top = canvas.layout.left, canvas.layout.top

    def cell(column: int, row: int = 0) -> bytes:
        x, y = left + column * width, top + row * height
        return picture.crop((x, y, x + width, y + height)).tobytes()

    assert cell(0) == cell(3) == cell(6)
    assert cell(0) != cell(1)
    red = _rgb(THEME.palette[1])
    assert {picture.getpixel((left + column * width + dx, top + dy))
            for column in (4, 5) for dx in (0, width - 1) for dy in (0, height - 1)} == {red}
    assert picture.getpixel((left + 3 * width + width - 1, top)) != red
    assert picture.getpixel((left + 6 * width, top)) != red


def test_the_cursor_is_a_block_in_the_theme_s_cursor_colour() -> None:
    look = Look(font_size=18, padding=0)
    canvas = Canvas(10, 2, THEME, look, by_cells=True)
    picture = canvas.paint(snapshot(_screen(b"ab", 10, 2)))
    width, _ = cell_pixels(look)
    assert picture.getpixel((canvas.layout.left + 2 * width + 1, canvas.layout.top + 1)) == \
        _rgb(THEME.cursor)


def test_a_wide_character_spans_its_two_cells() -> None:
    look = Look(font_size=18, padding=0)
    canvas = Canvas(6, 1, THEME, look, by_cells=True)
    width, height = cell_pixels(look)
    picture = canvas.paint(snapshot(_screen("\x1b[?25l✓✓".encode(), 6, 1)))
    ink = picture.crop((canvas.layout.left, canvas.layout.top,
                        canvas.layout.left + 6 * width, canvas.layout.top + height))
    background = Image.new("RGB", ink.size, THEME.background)
    assert ink.tobytes() != background.tobytes()
    wide = canvas.paint(snapshot(_screen("\x1b[?25l😀".encode(), 6, 1)))
    box = Image.eval(wide.crop((canvas.layout.left, canvas.layout.top,
                                canvas.layout.left + 6 * width,
                                canvas.layout.top + height)).convert("L"),
                     lambda v: 255 if v != _luma(THEME) else 0).getbbox()
    assert box is not None and box[0] < width < box[2] <= 2 * width + 1


def _luma(theme: Theme) -> int:
    return int(Image.new("RGB", (1, 1), theme.background).convert("L").getpixel((0, 0)))  # type: ignore[arg-type]


def test_an_unreadable_margin_image_is_an_os_error(tmp_path: Path) -> None:
    (tmp_path / "not.png").write_text("not an image")
    with pytest.raises(OSError):
        Canvas(10, 2, THEME, Look(), margin_fill=str(tmp_path / "not.png"))


def test_a_character_the_font_lacks_comes_from_fontconfig_s_font_for_it() -> None:
    """※ is not in DejaVu Sans Mono; fontconfig names a font that has it (DejaVu Sans,
    here), and the cell shows that glyph, not the missing-glyph box."""
    mono = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), 18)
    assert not has_glyph(mono, "※")
    look = Look(font_size=18, padding=0)
    canvas = Canvas(4, 1, THEME, look, by_cells=True)
    width, height = cell_pixels(look)

    def first_cell(data: str) -> bytes:
        picture = canvas.paint(snapshot(_screen(f"\x1b[?25l{data}".encode(), 4, 1)))
        left, top = canvas.layout.left, canvas.layout.top
        return picture.crop((left, top, left + width, top + height)).tobytes()

    drawn, box = first_cell("※"), first_cell("\U0010fffd")
    assert drawn != box and drawn != first_cell(" ")
