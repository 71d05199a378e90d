"""Screenshots: a screen a person would recognise, in every format, byte for byte.

Golden files are written by running with UPDATE_GOLDEN=1 and then read by eye; after
that a change to their bytes is a change to what users get and must be deliberate.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.render import FORMATS, format_for_path, render, snapshot
from termhost.render.snapshot import Snapshot
from termhost.render.svg import CELL_HEIGHT, CELL_WIDTH
from termhost.terminal import Terminal
from termhost.terminal.cell import WIDE_STUB
from termhost.themes import load_theme

GOLDEN = Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"

SESSION = (
    b"\x1b]2;build <main> & test\x07"
    b"$ ls --color\r\n"
    b"\x1b[31mred\x1b[0m \x1b[1;92mbold bright\x1b[0m \x1b[44;37m white on blue \x1b[0m\r\n"
    b"\x1b[38;5;3mpal3\x1b[0m \x1b[38;5;208mcube208\x1b[0m \x1b[48;5;240mgrey240\x1b[0m"
    b" \x1b[38;2;255;105;180;48;2;0;64;0mtrue\x1b[0m\r\n"
    b"\x1b[3mitalic\x1b[0m \x1b[4munder\x1b[0m \x1b[4:3mcurly\x1b[0m \x1b[7mreverse\x1b[0m"
    b" \x1b[9mstrike\x1b[0m \x1b[2mfaint\x1b[0m\r\n"
    + "中文 wide 😀 emoji <tag> & \"q\"\r\n".encode()
    + b"\x1b[1;3;4;9;35mall four\x1b[0m \x1b[7;33mrev yellow\x1b[0m\r\n"
    b"$ \xe7\x95\x8c"
)
"""A shell session: colours 16/256/truecolor, every attribute, wide characters, the cursor
after a wide character on the last row."""


def session(data: bytes = SESSION, cols: int = 48, rows: int = 8) -> Snapshot:
    terminal = Terminal(cols, rows)
    terminal.feed(data)
    return snapshot(terminal)


def assert_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(text.encode())
    assert path.exists(), f"{name}: no golden file; run with UPDATE_GOLDEN=1 and read it"
    assert text.encode() == path.read_bytes(), f"{name} differs from its golden file"


def cells(data: bytes = SESSION, cols: int = 48, rows: int = 8) -> list[list[tuple[int, str]]]:
    """Each row's characters with their columns, straight from the emulator."""
    terminal = Terminal(cols, rows)
    terminal.feed(data)
    buffer = terminal.screen.buffer
    return [
        [(x, buffer[y][x].data) for x in range(cols) if buffer[y][x].data != WIDE_STUB]
        for y in range(rows)
    ]


class _PreText(HTMLParser):
    """The text inside the `<pre>`, as a browser shows it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside, self.text = False, ""

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.inside |= tag == "pre"

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.text += data


def pre_text(document: str) -> str:
    """The `<pre>`'s text as a text screenshot has it: the cursor's blank cell is trimmed."""
    parser = _PreText()
    parser.feed(document)
    parser.close()
    return "".join(line.rstrip(" ") + "\n" for line in parser.text.split("\n"))


def svg_rows(document: str) -> dict[int, list[ET.Element]]:
    """The screen's `<text>` elements by row, left to right (the frame's title left out)."""
    root = ET.fromstring(document)
    rows: dict[int, list[ET.Element]] = {}
    for text in root.iter(f"{SVG}text"):
        if "textLength" in text.attrib:
            rows.setdefault(int(text.attrib["y"]) // CELL_HEIGHT, []).append(text)
    return {y: sorted(texts, key=lambda t: int(t.attrib["x"])) for y, texts in rows.items()}


# Golden files


def test_text_is_the_screen_as_a_person_reads_it() -> None:
    assert_golden("session.txt", render(session(), "txt"))


@pytest.mark.parametrize("theme", [None, "default", "dracula"])
def test_ansi(theme: str | None) -> None:
    output = render(session(), "ansi", None if theme is None else load_theme(theme))
    assert_golden(f"session-{theme or 'passthrough'}.ansi", output)


@pytest.mark.parametrize("theme", ["default", "dracula"])
@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_svg_and_html(fmt: str, theme: str) -> None:
    assert_golden(f"session-{theme}.{fmt}", render(session(), fmt, load_theme(theme)))


@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_framed_with_title(fmt: str) -> None:
    output = render(session(), fmt, load_theme("dracula"), frame=True)
    assert "build &lt;main&gt; &amp; test" in output
    assert_golden(f"session-framed-dracula.{fmt}", output)


# What the files say


def test_text_keeps_every_row_and_trims_trailing_blanks() -> None:
    lines = render(session(), "txt").split("\n")
    assert lines[0] == "$ ls --color"
    assert lines[4] == '中文 wide 😀 emoji <tag> & "q"'
    assert lines[6] == "$ 界"
    assert lines[7:] == ["", ""]  # the empty last row, then the end of the file


def test_svg_parses_and_shows_every_character_in_order() -> None:
    for theme in ("default", "dracula"):
        rows = svg_rows(render(session(), "svg", load_theme(theme), frame=True))
        for y, row in enumerate(cells()):
            shown = "".join(text.text or "" for text in rows.get(y, []))
            assert shown.replace(" ", "") == "".join(c for _, c in row).replace(" ", "")


def test_svg_places_wide_characters_on_two_cells() -> None:
    rows = svg_rows(render(session(), "svg", load_theme("default")))
    columns = {c: x for y, row in enumerate(cells()) for x, c in row if y in (4, 6)}
    for y, character in ((4, "中"), (4, "文"), (4, "😀"), (6, "界")):
        (text,) = [t for t in rows[y] if t.text == character]
        assert int(text.attrib["x"]) == columns[character] * CELL_WIDTH
        assert int(text.attrib["textLength"]) == 2 * CELL_WIDTH
    # what follows a wide character starts two cells after it
    after = [t for t in rows[4] if int(t.attrib["x"]) == (columns["😀"] + 2) * CELL_WIDTH]
    assert after and (after[0].text or "").startswith(" emoji")


def test_svg_colours_come_from_the_theme() -> None:
    default, dracula = load_theme("default"), load_theme("dracula")
    for theme in (default, dracula):
        rows = svg_rows(render(session(), "svg", theme))
        fills = {t.text: t.attrib["fill"] for row in rows.values() for t in row}
        assert fills["red"] == theme.palette[1]
        assert fills["pal3"] == theme.palette[3]  # 256-colour index 3 is the theme's yellow
        assert fills["cube208"] == "#ff8700"  # the xterm cube, whatever the theme
        assert fills["true"] == "#ff69b4"
        assert fills["reverse"] == theme.background


def test_svg_draws_attributes() -> None:
    rows = svg_rows(render(session(), "svg", load_theme("default")))
    by_text = {t.text: t.attrib for row in rows.values() for t in row}
    assert by_text["bold bright"]["font-weight"] == "bold"
    assert by_text["italic"]["font-style"] == "italic"
    assert by_text["under"]["text-decoration"] == "underline"
    assert by_text["strike"]["text-decoration"] == "line-through"
    assert by_text["faint"]["opacity"] == "0.5"
    every = by_text["all four"]
    assert (every["font-weight"], every["font-style"], every["text-decoration"]) == (
        "bold", "italic", "underline line-through")


def test_svg_cursor_is_a_block_over_its_character() -> None:
    theme = load_theme("dracula")
    shot = session()
    assert shot.cursor == (4, 6)  # after "$ 界": two cells for the wide character
    root = ET.fromstring(render(shot, "svg", theme))
    row = [r.attrib for r in root.iter(f"{SVG}rect") if r.attrib.get("y") == str(6 * CELL_HEIGHT)]
    assert row == [{"x": str(4 * CELL_WIDTH), "y": str(6 * CELL_HEIGHT),
                    "width": str(CELL_WIDTH), "height": str(CELL_HEIGHT), "fill": theme.cursor}]


def test_a_hidden_cursor_is_not_drawn() -> None:
    theme = load_theme("dracula")
    shot = session(SESSION + b"\x1b[?25l")
    assert shot.cursor is None
    root = ET.fromstring(render(shot, "svg", theme))
    assert not [r for r in root.iter(f"{SVG}rect") if r.attrib.get("y") == str(6 * CELL_HEIGHT)]
    assert not [run for line in shot.lines for run in line if run.style.cursor]


def test_cursor_on_a_wide_character_covers_both_cells() -> None:
    shot = session(b"ab\xe4\xb8\xad\x1b[D", cols=10, rows=2)  # back onto the right half
    assert shot.cursor == (2, 0)
    (run,) = [run for run in shot.lines[0] if run.style.cursor]
    assert (run.text, run.width, run.wide) == ("中", 2, True)


def test_cursor_after_the_last_column_stays_on_the_screen() -> None:
    shot = session(b"abcd", cols=4, rows=2)  # the wrap is pending
    assert shot.cursor == (3, 0)


def test_html_text_is_the_plain_text() -> None:
    shot = session()
    for theme in ("default", "dracula"):
        for frame in (False, True):
            document = render(shot, "html", load_theme(theme), frame=frame)
            assert pre_text(document) == render(shot, "txt")


def test_html_colours_and_wide_characters() -> None:
    theme = load_theme("dracula")
    document = render(session(), "html", theme)
    assert f"background: {theme.background}; color: {theme.foreground}" in document
    assert f'<span style="color: {theme.palette[1]}">red</span>' in document
    assert '<span style="display: inline-block; width: 2ch">中</span>' in document
    assert "http" not in document.replace('xmlns="http://www.w3.org', "")


def test_ansi_passthrough_replays_to_the_same_screen() -> None:
    shot = session(SESSION + b"\x1b[?25l")
    replayed = render(shot, "ansi")[:-1].replace("\n", "\r\n").encode()
    again = session(replayed + b"\x1b[?25l")
    assert again.lines == shot.lines


def test_ansi_with_a_theme_resolves_every_colour() -> None:
    theme = load_theme("dracula")
    output = render(session(), "ansi", theme)
    assert "\x1b[0;38;2;255;85;85;48;2;40;42;54mred" in output  # dracula's red on its bg
    assert "\x1b[31m" not in output and "\x1b[0;31m" not in output


def test_no_remote_resources_or_varying_bits() -> None:
    shot = session()
    for fmt in ("svg", "html"):
        output = render(shot, fmt, load_theme("default"), frame=True)
        assert "@import" not in output and "url(" not in output and " id=" not in output
        assert "https://" not in output


def test_rendering_is_deterministic() -> None:
    for fmt in FORMATS:
        for frame in (False, True):
            first = render(session(), fmt, load_theme("dracula"), frame=frame)
            assert render(session(), fmt, load_theme("dracula"), frame=frame) == first


def test_format_for_path() -> None:
    assert [format_for_path(f"shot.{ext}") for ext in ("svg", "HTML", "htm", "txt", "ansi")] \
        == ["svg", "html", "html", "txt", "ansi"]
    with pytest.raises(ValueError, match=r"shot\.png: cannot tell"):
        format_for_path("shot.png")
    with pytest.raises(ValueError, match="unknown screenshot format 'png'"):
        render(session(), "png")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_output_renders(data: bytes) -> None:
    terminal = Terminal(8, 3)
    terminal.feed(data)
    shot = snapshot(terminal)
    theme = load_theme("default")
    for fmt in FORMATS:
        render(shot, fmt, theme, frame=True)
    ET.fromstring(render(shot, "svg", theme, frame=True))
    assert pre_text(render(shot, "html", theme)) == render(shot, "txt")
    for line in shot.lines:
        assert sum(run.width for run in line) == 8
        assert [run.column for run in line] == [
            sum(run.width for run in line[:index]) for index in range(len(line))
        ]


def test_a_scrolled_snapshot_shows_the_scrollback_above_the_screen() -> None:
    """A view scrolled up (a tape's ScrollUp): the newest stored rows above the screen's
    first, the cursor moved down with its row and gone when its row is; never past the
    oldest row; and none on the alternate screen, which has no scrollback."""
    terminal = Terminal(10, 3)
    terminal.feed(b"".join(b"line%d\r\n" % n for n in range(8)) + b"$ ")

    def rows(scrolled: int) -> list[str]:
        return render(snapshot(terminal, scrolled=scrolled), "txt").rstrip("\n").split("\n")

    assert rows(0) == ["line6", "line7", "$"] and snapshot(terminal).cursor == (2, 2)
    assert rows(1) == ["line5", "line6", "line7"]
    assert snapshot(terminal, scrolled=1).cursor is None
    assert rows(7) == rows(99) == ["line0", "line1", "line2"]
    terminal.feed(b"\x1b[?1049h\x1b[Halt")
    assert rows(2) == rows(0) == ["alt"]
