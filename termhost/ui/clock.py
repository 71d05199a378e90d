"""clock-mode on a client's screen: the clock's face (mux/clock_mode.py) written over the
pane's cells, past prompt_toolkit, as copy mode's frame is (copy_view.py).

The colour is the window's clock-mode-colour, as a background for the big digits'
blocks and a foreground for the small text, brought down to what the client's terminal
shows; the cursor stays hidden, as tmux's clock screen has none.
"""

from __future__ import annotations

import time

from termhost.mux.clock_mode import clock_face, clock_time
from termhost.mux.style import parse_colour
from termhost.ui.colours import sgr_colour
from termhost.ui.painter import Placement

__all__ = ["frame"]

_PLAIN = "\x1b[0m"


def _sgr(colour: str, base: int, depth: int) -> str:
    """The SGR sequence (from a reset) for an option's colour; plain when tmux would
    refuse the colour or it is the default."""
    parsed = parse_colour(colour)
    params = sgr_colour(parsed, base, depth) if parsed not in (None, "default",
                                                               "terminal") else []
    return "\x1b[" + ";".join(["0", *params]) + "m"


def frame(placement: Placement, colour: str, style: str, depth: int,
          now: time.struct_time | None = None) -> str:
    """The writes that show the clock (clock-mode-colour `colour`, clock-mode-style
    `style`, the local time `now`) in the pane's cells. The face is laid out for the
    whole pane, as tmux lays it out on the pane's screen, and cut to what is shown of it."""
    pane = placement.pane
    text = clock_time(now or time.localtime(), style)
    face = clock_face(text, pane.terminal.cols, pane.terminal.rows)
    block = _sgr(colour, 40, depth)
    ink = _sgr(colour, 30, depth)
    out: list[str] = []
    for y, row in enumerate(face.rows[:placement.height]):
        out.append(f"\x1b[{placement.y + y + 1};{placement.x + 1}H")
        current = None
        for char in row[:placement.width]:
            wanted = _PLAIN if char == " " else block if face.big else ink
            if wanted != current:
                out.append(wanted)
                current = wanted
            out.append(" " if face.big else char)
    out.append(_PLAIN)
    return "".join(out)
