"""What a client asks of a thing drawn over its panes that takes its keys while it is
open: a popup (popup.py) or a menu (menu.py), tmux's client overlay.

tmux gives a client one overlay at a time, with a draw, a key and a free callback; this
is that interface, so that the client (app.py) holds one and never asks which it is.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from prompt_toolkit.key_binding import KeyPress

from termhost.terminal.mouse import MouseEvent
from termhost.ui.painter import Placement

__all__ = ["Overlay"]


class Overlay(Protocol):
    @property
    def closed(self) -> asyncio.Future[Any]:
        """Done once the overlay closed, however it did: the client then takes it off
        and paints the panes again; the verb that opened it learns the outcome."""

    def placement(self) -> Placement | None:
        """Where a pane of the overlay's own is painted (a popup's program), if any:
        while the overlay is open, that is the only pane the client paints."""

    def draw(self, depth: int) -> str:
        """What is written over the panes (and over `placement`'s pane's edges): the
        box and whatever else is not a pane, in `depth` colours."""

    def press(self, press: KeyPress, name: str) -> None:
        """A key of the client's (`name`: tmux's name of it)."""

    def mouse(self, event: MouseEvent) -> None:
        """A mouse report of the client's terminal, in the client's cells."""

    def close(self) -> None:
        """Closed from outside (display-popup -C, the client going): whoever waits for
        the overlay is told, and anything it started ends."""
