"""A mouse key's event as the commands of its binding see it (tmux's struct mouse_event),
and what becomes of a mouse key no binding takes (tmux's window_pane_key).

The client (ui/mouse_router.py) turns the terminal's reports into tmux's mouse keys
(MouseDown1Pane, MouseDrag1Border, WheelUpStatus...) and hands each binding's commands
the `Mouse` it came from: `-t =` names its pane (or window), send-keys -M passes it on
to the pane's program, copy-mode -M and resize-pane -M start a drag from it. Kept in
mux, apart from the client, because the verbs read it and mux never imports ui.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from termhost.terminal.mouse import MouseEvent, encode_report

if TYPE_CHECKING:
    from termhost.mux.model import Session, Window
    from termhost.mux.pane import Pane

__all__ = ["Mouse", "Where", "forward"]

Where = Literal["pane", "border", "status", "status-left", "status-right", "status-default"]
"""What the mouse is over, as tmux's server_client_check_mouse tells them apart."""


@dataclass(frozen=True)
class Mouse:
    """One mouse key: its name, the report it came from (client coordinates), where it
    was and the cells under it and under the report before it, in the window's
    coordinates (the client's view offset added, the status line's row taken out)."""

    key: str
    event: MouseEvent
    where: Where
    session: Session
    window: Window | None
    """The window under it: the current one, or a window's name in the status line."""
    pane: Pane | None
    """The pane under it (beside or above a border: the pane before the border)."""
    x: int
    y: int
    last_x: int
    last_y: int

    def at(self, pane: Pane, *, last: bool = False) -> tuple[int, int] | None:
        """Where the mouse is (was, `last`) in `pane`'s own cells, None if outside it
        (tmux's cmd_mouse_at)."""
        if self.window is None or pane not in self.window.panes:
            return None
        cell = self.window.cell_of(pane)
        x = (self.last_x if last else self.x) - cell.x
        y = (self.last_y if last else self.y) - cell.y
        if not (0 <= x < cell.width and 0 <= y < cell.height):
            return None
        return x, y

    def relative(self, pane: Pane) -> tuple[int, int]:
        """Where the mouse is relative to `pane`'s top left cell, inside it or not (a
        drag's selection goes on past the pane's edges)."""
        assert self.window is not None
        cell = self.window.cell_of(pane)
        return self.x - cell.x, self.y - cell.y

    def target(self) -> str | None:
        """What `-t =` names: the pane under the mouse, else the window (a window's name
        in the status line); None when there is neither (tmux's `no mouse target`)."""
        if self.pane is not None:
            return self.pane.name
        return f"@{self.window.id}" if self.window is not None else None


def forward(mouse: Mouse, pane: Pane) -> None:
    """A mouse key to `pane` (send-keys -M, or bound to nothing), as tmux's
    window_pane_key: a pane in a mode takes mouse keys through its key table alone; else
    its program gets the report in its own encoding if it asked for such events and
    the mouse is over it (input_key_mouse)."""
    if pane.mode is not None or pane.input_off or pane.closed:
        return
    at = mouse.at(pane)
    if at is None:
        return
    screen = pane.terminal.screen
    data = encode_report(mouse.event.at(*at), screen.mouse_tracking, screen.mouse_encoding)
    if data:
        pane.write(data)

