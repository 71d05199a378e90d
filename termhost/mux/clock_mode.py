"""clock-mode: a pane mode that shows the time in big digits, as tmux's window-clock.c
(`C-b t`); any key leaves it.

The model only, as CopyMode is: what the clock reads (`clock_time`, with
clock-mode-style's 12 or 24 hours) and where its blocks go in a pane of a given size
(`clock_face`); the client paints the face in clock-mode-colour in the pane's place. tmux
draws each character as 5x5 blocks with a column between characters, centred, and falls
back to the plain text when the pane is too small for that.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from termhost.terminal import Terminal

__all__ = ["ClockFace", "ClockMode", "clock_face", "clock_time"]

_GLYPHS: dict[str, tuple[str, ...]] = {
    "0": ("#####", "#   #", "#   #", "#   #", "#####"),
    "1": ("    #", "    #", "    #", "    #", "    #"),
    "2": ("#####", "    #", "#####", "#    ", "#####"),
    "3": ("#####", "    #", "#####", "    #", "#####"),
    "4": ("#   #", "#   #", "#####", "    #", "    #"),
    "5": ("#####", "#    ", "#####", "    #", "#####"),
    "6": ("#####", "#    ", "#####", "#   #", "#####"),
    "7": ("#####", "    #", "    #", "    #", "    #"),
    "8": ("#####", "#   #", "#####", "#   #", "#####"),
    "9": ("#####", "#   #", "#####", "    #", "#####"),
    ":": ("     ", "  #  ", "     ", "  #  ", "     "),
    "A": ("#####", "#   #", "#####", "#   #", "#   #"),
    "P": ("#####", "#   #", "#####", "#    ", "#    "),
    "M": ("#   #", "## ##", "# # #", "#   #", "#   #"),
}
"""The characters the clock draws, as tmux's window_clock_table: `#` a block."""

_CELL = 6
"""Columns each character takes: its five, and one between it and the next."""


@dataclass(eq=False)
class ClockMode:
    """A pane's clock-mode: it holds nothing but its name, for the time is read when the
    clock is drawn; the pane's program runs on underneath, as in any of tmux's modes."""

    name: str = "clock-mode"

    def variables(self) -> dict[str, str]:
        """The mode's own #{...} variables: none (copy mode has its scroll position)."""
        return {}

    def refit(self, terminal: Terminal) -> ClockMode:
        """The pane changed size: the face is laid out afresh each time it is drawn."""
        return self


@dataclass(frozen=True)
class ClockFace:
    """What the clock shows in a pane: `rows` of the pane's width, where with `big` a
    `#` is a block (a blank in the clock's colour) and otherwise each character is the
    time's text in that colour."""

    rows: tuple[str, ...]
    big: bool


def clock_time(now: time.struct_time, style: str) -> str:
    """The time as tmux's clock writes it: `21:05` (clock-mode-style 24), or ` 9:05 PM`
    (12: strftime's `%l:%M ` and AM/PM)."""
    if style == "12":
        hour = now.tm_hour % 12 or 12
        return f"{hour:2d}:{now.tm_min:02d} " + ("PM" if now.tm_hour >= 12 else "AM")
    return f"{now.tm_hour:02d}:{now.tm_min:02d}"


def clock_face(text: str, width: int, height: int) -> ClockFace:
    """`text` laid out in a `width` x `height` pane: big digits in the middle when six
    columns a character and six rows fit, else the plain text in the middle row (nothing
    when not even that fits), as tmux's window_clock_draw_screen."""
    grid = [[" "] * width for _ in range(height)]
    big = width >= _CELL * len(text) and height >= 6
    if big:
        x = width // 2 - 3 * len(text)
        y = height // 2 - 3
        for char in text:
            for j, line in enumerate(_GLYPHS.get(char, ())):
                for i, block in enumerate(line):
                    if block == "#":
                        grid[y + j][x + i] = "#"
            x += _CELL
    elif width >= len(text) and height:
        x = width // 2 - len(text) // 2
        grid[height // 2][x:x + len(text)] = list(text)
    return ClockFace(tuple("".join(row) for row in grid), big)
