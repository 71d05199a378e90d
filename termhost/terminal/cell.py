"""One character cell: the glyph and the attributes SGR and OSC 8 give it.

pyte's `Char` has no room for faint, underline styles or hyperlinks; `Cell` keeps pyte's
fields, in pyte's order and with pyte's colour spelling ("default", "red", "brightred",
"ff8700"), so pyte's own Screen methods, which only use `_replace` and attribute names,
work on it unchanged.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["BLANK", "WIDE_STUB", "Cell"]


class Cell(NamedTuple):
    """A styled cell; `data` is "" for the right half of a wide character."""

    data: str = " "
    fg: str = "default"
    bg: str = "default"
    bold: bool = False
    italics: bool = False
    underscore: bool = False
    strikethrough: bool = False
    reverse: bool = False
    blink: bool = False
    faint: bool = False
    underline: int = 0
    """Underline style (SGR 4:n): 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed."""
    underline_color: str = "default"
    link: str = ""
    """The OSC 8 hyperlink target the cell was written under, "" for none."""


BLANK = Cell()
WIDE_STUB = ""
"""`data` of the cell a wide character's right half occupies."""
