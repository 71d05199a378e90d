"""SGR (`CSI ... m`, ECMA-48 8.3.117): parameters to cell attributes.

Both spellings of extended colours are read: the `;` form xterm popularised
(`38;5;n`, `38;2;r;g;b`) and the ITU T.416 `:` form (`38:5:n`, `38:2::r:g:b`, with or
without the colour-space id). A malformed extended colour consumes what it claimed and
changes nothing, so the text after it is not corrupted.
"""

from __future__ import annotations

from pyte import graphics

from termhost.terminal.cell import Cell
from termhost.terminal.parser import Params

__all__ = ["apply_sgr", "attribute_params", "colour_params", "sgr_of"]

_FLAGS_ON = {1: "bold", 3: "italics", 5: "blink", 6: "blink", 7: "reverse", 9: "strikethrough"}
_FLAGS_OFF = {23: "italics", 25: "blink", 27: "reverse", 29: "strikethrough"}


def _colour_256(index: int | None) -> str | None:
    if index is None or not 0 <= index <= 255:
        return None
    if index < 8:
        return graphics.FG_ANSI[30 + index]
    if index < 16:
        return graphics.FG_AIXTERM[90 + index - 8]
    return graphics.FG_BG_256[index]


def _colour_rgb(r: int | None, g: int | None, b: int | None) -> str | None:
    if r is None or g is None or b is None or max(r, g, b) > 255:
        return None
    return f"{r:02x}{g:02x}{b:02x}"


def _extended_colour(params: Params, index: int) -> tuple[str | None, int]:
    """Read `38/48/58 ...` at params[index]; returns (colour or None, fields consumed)."""
    field = params[index]
    if len(field) > 1:  # colon form: everything is inside this one field
        kind = field[1]
        if kind == 5 and len(field) >= 3:
            return _colour_256(field[2]), 1
        if kind == 2:
            rgb = field[3:6] if len(field) >= 6 else field[2:5]
            if len(rgb) == 3:
                return _colour_rgb(*rgb), 1
        return None, 1
    kind = params[index + 1][0] if index + 1 < len(params) else None
    if kind == 5:
        value = params[index + 2][0] if index + 2 < len(params) else None
        return _colour_256(value), 3
    if kind == 2:
        if index + 4 < len(params):
            r, g, b = (params[index + k][0] for k in (2, 3, 4))
            return _colour_rgb(r, g, b), 5
        return None, len(params) - index
    return None, 2 if kind is not None else 1


def apply_sgr(attrs: Cell, params: Params, default: Cell) -> Cell:
    """The attributes after `CSI params m`, starting from `attrs`."""
    if not params or params == [[None]] or params == [[0]]:
        return default
    changes: dict[str, object] = {}
    index = 0
    while index < len(params):
        field = params[index]
        code = field[0] if field[0] is not None else 0
        step = 1
        if code == 0:
            changes = dict(default._asdict())
        elif code in _FLAGS_ON:
            changes[_FLAGS_ON[code]] = True
        elif code in _FLAGS_OFF:
            changes[_FLAGS_OFF[code]] = False
        elif code == 2:
            changes["faint"] = True
        elif code == 22:
            changes["bold"] = changes["faint"] = False
        elif code == 4:
            style = field[1] if len(field) > 1 else 1
            if style is not None and 0 <= style <= 5:
                changes["underline"] = style
                changes["underscore"] = style != 0
        elif code == 21:
            changes["underline"], changes["underscore"] = 2, True
        elif code == 24:
            changes["underline"], changes["underscore"] = 0, False
        elif 30 <= code <= 37:
            changes["fg"] = graphics.FG_ANSI[code]
        elif 40 <= code <= 47:
            changes["bg"] = graphics.BG_ANSI[code]
        elif 90 <= code <= 97:
            changes["fg"] = graphics.FG_AIXTERM[code]
        elif 100 <= code <= 107:
            changes["bg"] = graphics.BG_AIXTERM[code]
        elif code == 39:
            changes["fg"] = "default"
        elif code == 49:
            changes["bg"] = "default"
        elif code == 59:
            changes["underline_color"] = "default"
        elif code in (38, 48, 58):
            colour, step = _extended_colour(params, index)
            if colour is not None:
                changes[{38: "fg", 48: "bg", 58: "underline_color"}[code]] = colour
        index += step
    return attrs._replace(**changes)  # type: ignore[arg-type]


# --- writing: a cell's attributes as the SGR that sets them ------------------------------

_NAMED = {
    "black": 0, "red": 1, "green": 2, "brown": 3, "yellow": 3, "blue": 4, "magenta": 5,
    "cyan": 6, "white": 7,
}
"""pyte's colour names (brown is its yellow) and their index among the eight."""


def attribute_params(cell: Cell) -> list[str]:
    """The SGR parameters of a cell's flags, colours aside."""
    return [code for flag, code in (
        (cell.bold, "1"), (cell.faint, "2"), (cell.italics, "3"),
        (cell.underscore or cell.underline, "4"), (cell.blink, "5"), (cell.reverse, "7"),
        (cell.strikethrough, "9"),
    ) if flag]


def colour_params(colour: str, base: int) -> list[str]:
    """The SGR parameters for a colour as the emulator holds it (a name, "default" or
    "rrggbb"): `base` 30 for the foreground, 40 for the background. A name stays a name,
    so that the terminal shows it in its own palette; RGB is true colour."""
    if colour in _NAMED:
        return [str(base + _NAMED[colour])]
    if colour.startswith("bright") and colour[6:] in _NAMED:
        return [str(base + 60 + _NAMED[colour[6:]])]
    if len(colour) == 6:
        try:
            rgb = [str(int(colour[i : i + 2], 16)) for i in (0, 2, 4)]
        except ValueError:
            return []
        return [str(base + 8), "2", *rgb]
    return []


def sgr_of(cell: Cell) -> str:
    """The SGR sequence that sets exactly the cell's attributes, from a reset."""
    params = ["0", *attribute_params(cell), *colour_params(cell.fg, 30),
              *colour_params(cell.bg, 40)]
    return "\x1b[" + ";".join(params) + "m"
