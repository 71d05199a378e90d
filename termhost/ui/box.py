"""The box a popup or a menu is drawn in, as tmux 3.3a's screen_write_box: a border of
one of popup-border-lines' kinds, and a title (a format) over its top line.

Both overlays draw over the panes with the painter's own writes (painter.cells_at), so
the border is cells in a style like any pane's, brought down to the client's colours.
"""

from __future__ import annotations

from typing import NamedTuple

from termhost.mux.format_draw import format_draw
from termhost.mux.style import Style, style_cell
from termhost.terminal.cell import Cell
from termhost.ui.colours import TRUE_COLOUR
from termhost.ui.painter import cells_at

__all__ = ["BOX_LINES", "BoxLines", "box", "separator"]


class BoxLines(NamedTuple):
    """The glyphs of one kind of border line."""

    top_left: str
    top_right: str
    bottom_left: str
    bottom_right: str
    horizontal: str
    vertical: str
    left_join: str
    right_join: str


BOX_LINES = {
    "single": BoxLines("┌", "┐", "└", "┘", "─", "│", "├", "┤"),
    "rounded": BoxLines("╭", "╮", "╰", "╯", "─", "│", "├", "┤"),
    "double": BoxLines("╔", "╗", "╚", "╝", "═", "║", "╠", "╣"),
    "heavy": BoxLines("┏", "┓", "┗", "┛", "━", "┃", "┣", "┫"),
    "simple": BoxLines("+", "+", "+", "+", "-", "|", "+", "+"),
    "padded": BoxLines(*" " * 8),
}
"""popup-border-lines' kinds that draw a border (`none` draws none), as tmux's
screen_write_box_border_set."""


def _row(style: Style, left: str, middle: str, right: str, width: int) -> list[Cell]:
    return ([style_cell(style, left)] + [style_cell(style, middle)] * (width - 2)
            + [style_cell(style, right)])


def box(x: int, y: int, width: int, height: int, lines: BoxLines, style: Style,
        title: str = "", depth: int = TRUE_COLOUR) -> str:
    """The border of the `width` x `height` box whose top left cell is (x, y), in
    `style`, with `title` (an expanded format) drawn over the top line from its third
    cell to its third last, as tmux places a title."""
    top = _row(style, lines.top_left, lines.horizontal, lines.top_right, width)
    if title and width > 4:
        top[2:-2], _ = format_draw(title, style, width - 4, top[2:-2])
    out = [cells_at(top, x, y, depth)]
    side = [style_cell(style, lines.vertical)]
    for row in range(y + 1, y + height - 1):
        out.append(cells_at(side, x, row, depth) + cells_at(side, x + width - 1, row, depth))
    bottom = _row(style, lines.bottom_left, lines.horizontal, lines.bottom_right, width)
    out.append(cells_at(bottom, x, y + height - 1, depth))
    return "".join(out)


def separator(x: int, y: int, width: int, lines: BoxLines, style: Style,
              depth: int = TRUE_COLOUR) -> str:
    """A line across the box at row `y`, joined to its sides (a menu's empty item)."""
    return cells_at(_row(style, lines.left_join, lines.horizontal, lines.right_join, width),
                    x, y, depth)
