"""A screen as plain immutable data, taken once from a `Terminal`, for the renderers.

The renderers never see pyte: its colour spelling ("brown" for yellow, the "bfightmagenta"
typo in its bright background table), its defaultdict rows and its wide-character stubs stay
here, so a renderer is a pure function of a `Snapshot` and a theme, and a golden file
depends on nothing else.

Three choices make every renderer simpler:

- colours are `None` (the default), an ANSI index 0-15 (which the theme decides) or
  `#rrggbb` (the 256-colour cube and grey ramp arrive from the emulator already resolved
  to xterm's values, and truecolor as it was sent);
- a wide character is a run of its own, two cells wide, so that SVG and HTML can pin it to
  its two cells exactly instead of trusting a font's CJK or emoji advance;
- the cursor's cell is a run of its own marked `cursor`, so a renderer draws the cursor by
  looking at one flag and never splits runs itself.

Control characters in cells (and a title) become U+FFFD: a screenshot file must not carry
escape sequences (.txt), break the SGR stream (.ansi) or be invalid XML (.svg).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from termhost.terminal.cell import BLANK, WIDE_STUB, Cell
from termhost.terminal.emulator import Terminal
from termhost.themes import Theme

__all__ = [
    "PLAIN", "Colour", "Line", "Run", "Snapshot", "Style", "colours", "snapshot", "text_decoration",
]

Colour = int | str | None
"""`None` for the default colour, 0-15 for a palette entry, or `#rrggbb`."""

_NAMES = ("black", "red", "green", "brown", "blue", "magenta", "cyan", "white")
_INDEXES: dict[str, int] = {
    **{name: index for index, name in enumerate(_NAMES)},
    **{f"bright{name}": index + 8 for index, name in enumerate(_NAMES)},
    "bfightmagenta": 13,  # pyte 0.8.2's BG_AIXTERM[105]
}


@dataclass(frozen=True)
class Style:
    """The attributes a run's cells share; `cursor` marks the cell the cursor is on."""

    fg: Colour = None
    bg: Colour = None
    bold: bool = False
    faint: bool = False
    italic: bool = False
    underline: int = 0
    """0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed (SGR 4:n)."""
    strikethrough: bool = False
    reverse: bool = False
    cursor: bool = False


PLAIN = Style()


@dataclass(frozen=True)
class Run:
    """`text` drawn from `column` over `width` cells in one style.

    Either every character of `text` takes one cell (combining marks ride on their base
    character), or `wide` is true and `text` is one character taking two cells.
    """

    column: int
    width: int
    text: str
    style: Style
    wide: bool = False

    @property
    def blank(self) -> bool:
        """Nothing a reader sees: spaces in the default style (a cursor is seen)."""
        return self.style == PLAIN and not self.text.strip(" ")


Line = tuple[Run, ...]
"""One row, its runs covering every column from 0 to `cols` in order."""


@dataclass(frozen=True)
class Snapshot:
    """A `cols` x `rows` screen; `cursor` is (x, y) of its cell, None if it is hidden."""

    cols: int
    rows: int
    lines: tuple[Line, ...]
    cursor: tuple[int, int] | None
    title: str


def snapshot(terminal: Terminal, title: str | None = None, *, scrolled: int = 0) -> Snapshot:
    """The visible screen of `terminal` now; `title` replaces the one the application set.
    `scrolled`: the view that many rows up into the scrollback (a terminal's scrolled
    viewport: the newest stored rows above the screen's first, the cursor moved down with
    the screen, and gone with its row). The alternate screen has no scrollback to scroll
    into, in xterm.js as in tmux."""
    screen = terminal.screen
    cols, rows = terminal.cols, terminal.rows
    history = terminal.history
    scrolled = 0 if screen.alternate_screen else max(0, min(scrolled, len(history)))
    cursor: tuple[int, int] | None = None
    if screen.cursor_visible and min(int(screen.cursor.y), rows - 1) + scrolled < rows:
        x, y = min(int(screen.cursor.x), cols - 1), min(int(screen.cursor.y), rows - 1)
        if x > 0 and screen.buffer[y][x].data == WIDE_STUB:
            x -= 1  # on the right half of a wide character: the character is the cell
        cursor = (x, y + scrolled)
    top = len(history) - scrolled  # the view's first row, when it is a stored one
    stored = [history.cells(index) for index in range(top, top + min(scrolled, rows))]
    cells = [[*row[:cols], *[BLANK] * (cols - len(row))] for row in stored] + [
        [screen.buffer[y][x] for x in range(cols)] for y in range(rows - min(scrolled, rows))]
    lines = tuple(
        _line(row, cursor[0] if cursor is not None and cursor[1] == y else -1)
        for y, row in enumerate(cells)
    )
    name = screen.title if title is None else title
    return Snapshot(cols, rows, lines, cursor, _printable(str(name)))


def _line(cells: list[Cell], cursor: int) -> Line:
    """Cells merged into runs of one style; wide characters and the cursor stand alone."""
    runs: list[Run] = []
    start, text, style = 0, "", PLAIN
    column = 0
    while column < len(cells):
        cell = cells[column]
        # A stub with no wide character before it (one half overwritten) shows as a blank.
        glyph = " " if cell.data == WIDE_STUB else _printable(cell.data)
        wide = glyph != " " and column + 1 < len(cells) and cells[column + 1].data == WIDE_STUB
        cell_style = _style(cell, cursor == column)
        alone = wide or cell_style.cursor
        if text and (alone or cell_style != style):
            runs.append(Run(start, column - start, text, style))
            text = ""
        if alone:
            runs.append(Run(column, 2 if wide else 1, glyph, cell_style, wide=wide))
        else:
            if not text:
                start, style = column, cell_style
            text += glyph
        column += 2 if wide else 1
    if text:
        # The blanks ending a plain row are a run of their own, for renderers to drop.
        kept = text.rstrip(" ") if style == PLAIN else text
        blanks = len(text) - len(kept)
        if kept:
            runs.append(Run(start, len(cells) - start - blanks, kept, style))
        if blanks:
            runs.append(Run(len(cells) - blanks, blanks, " " * blanks, style))
    return tuple(runs)


def colours(style: Style, theme: Theme) -> tuple[str, str]:
    """The (foreground, background) a run is drawn in, as `#rrggbb`, reverse applied.

    Bold does not brighten colours 0-7: most terminals today keep the colour and embolden
    the font, and a screenshot should look like the terminal it came from.
    """

    def resolve(colour: Colour, default: str) -> str:
        if colour is None:
            return default
        if isinstance(colour, int):
            return theme.palette[colour]
        return colour

    fg = resolve(style.fg, theme.foreground)
    bg = resolve(style.bg, theme.background)
    return (bg, fg) if style.reverse else (fg, bg)


def _style(cell: Cell, cursor: bool) -> Style:
    return Style(
        fg=_colour(cell.fg),
        bg=_colour(cell.bg),
        bold=cell.bold,
        faint=cell.faint,
        italic=cell.italics,
        underline=cell.underline or (1 if cell.underscore else 0),
        strikethrough=cell.strikethrough,
        reverse=cell.reverse,
        cursor=cursor,
    )


def _colour(value: str) -> Colour:
    """pyte's spelling to ours; anything unexpected is the default rather than an error."""
    if value in _INDEXES:
        return _INDEXES[value]
    if len(value) == 6 and all(c in "0123456789abcdefABCDEF" for c in value):
        return "#" + value.lower()
    return None


def _printable(text: str) -> str:
    """`text` with control characters, surrogates and U+FFFE/U+FFFF as U+FFFD."""
    return "".join(
        "\ufffd"
        if unicodedata.category(c) in ("Cc", "Cs") or c in "\ufffe\uffff"
        else c
        for c in text
    )


def text_decoration(style: Style) -> str:
    """CSS's and SVG's text-decoration for a style ("underline line-through", "")."""
    return " ".join(name for name, on in (("underline", style.underline),
                                          ("line-through", style.strikethrough)) if on)
