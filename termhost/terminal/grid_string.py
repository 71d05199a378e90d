"""A row of cells as text with the SGR that draws it, as tmux 3.3a's grid_string_cells
writes it for capture-pane -e (and -C).

Scripts and plugins parse this output (tmux-resurrect keeps panes with it, tests compare
it), so it follows tmux's encoding rather than the shortest one: a sequence only where
something changed since the previous cell, carried from one line to the next; a removed
attribute restarts from `0` and then writes both colours again; attributes, foreground
and background as separate sequences (`\\e[1;4m\\e[39m\\e[49m`); 256 colours as `38;5;N`
and true colour as `38;2;R;G;B`; no reset at the end of a line.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyte import graphics

from termhost.terminal.cell import BLANK, WIDE_STUB, Cell
from termhost.terminal.sgr import colour_params

__all__ = ["string_cells"]

_PALETTE = {}
for _number in range(255, 15, -1):  # the lowest index wins where the palette repeats
    _PALETTE[graphics.FG_BG_256[_number]] = _number
"""The emulator keeps a 256-colour cell as the RGB of xterm's palette entry: the index
back, so it is written as 38;5;N. (A true colour equal to an entry reads as the entry.)"""

_ATTRIBUTES = (("bright", "1"), ("dim", "2"), ("italics", "3"), ("underscore", "4"),
               ("blink", "5"), ("reverse", "7"), ("strikethrough", "9"),
               ("underscore-2", "4:2"), ("underscore-3", "4:3"), ("underscore-4", "4:4"),
               ("underscore-5", "4:5"))
"""tmux's attribute codes in its order (4:N for the underline styles)."""


def _attributes(cell: Cell) -> frozenset[str]:
    found = {name for name, on in (("bright", cell.bold), ("dim", cell.faint),
                                   ("italics", cell.italics), ("blink", cell.blink),
                                   ("reverse", cell.reverse),
                                   ("strikethrough", cell.strikethrough)) if on}
    if cell.underline >= 2:
        found.add(f"underscore-{cell.underline}")
    elif cell.underscore or cell.underline == 1:
        found.add("underscore")
    return frozenset(found)


def _colour(colour: str, base: int) -> tuple[int, ...]:
    """grid_string_cells_fg/_bg: `base` 30 or 40. A palette colour by its index, the
    rest as the emulator's own SGR writes them (sgr.colour_params), default as 39/49."""
    if colour in _PALETTE:
        return (base + 8, 5, _PALETTE[colour])
    params = colour_params(colour, base) if colour != "default" else []
    return tuple(int(param) for param in params) if params else (base + 9,)


def _code(last: Cell, cell: Cell, escape: str) -> str:
    """grid_string_cells_code: what takes the terminal from `last`'s look to `cell`'s."""
    now, before = _attributes(cell), _attributes(last)
    codes: list[str] = []
    if before - now:
        codes.append("0")
        before = frozenset()
    codes += [code for name, code in _ATTRIBUTES if name in now and name not in before]
    out = escape + ";".join(codes) + "m" if codes else ""
    reset = bool(codes) and codes[0] == "0"
    for colour, previous, base in ((cell.fg, last.fg, 30), (cell.bg, last.bg, 40)):
        params = _colour(colour, base)
        if reset or params != _colour(previous, base):
            out += escape + ";".join(map(str, params)) + "m"
    return out


def string_cells(cells: Sequence[Cell], last: Cell, *, codes: bool, escape_c0: bool,
                 trim: bool) -> tuple[str, Cell]:
    """One line of capture-pane: its cells' text (each after the SGR that changes the look
    from the cell before, with `codes`), and the look the line ends in, for the next.
    `escape_c0` (-C) writes ESC as `\\033` and a backslash as `\\\\`; `trim` drops the spaces
    the text ends in, after the last sequence too, as tmux does."""
    escape = "\\033[" if escape_c0 else "\x1b["
    out: list[str] = []
    for cell in cells:
        if cell.data == WIDE_STUB:
            continue  # the right half of a wide character (tmux's padding cell)
        if codes:
            out.append(_code(last, cell, escape))
            last = cell
        out.append("\\\\" if escape_c0 and cell.data == "\\" else cell.data)
    text = "".join(out)
    return (text.rstrip(" ") if trim else text), last


START = BLANK
"""The look a capture starts from: tmux's default cell."""
