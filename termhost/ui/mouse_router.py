"""The mouse on an attached client (`set -g mouse on`), as tmux's default mouse bindings
have it.

- A press in a pane selects it; an application that asked for the mouse (DECSET 1000,
  1002, 1003) gets the event, in its own encoding, with the pane's coordinates; so do
  the drags and the release that follow the press, wherever they go.
- Otherwise a drag in a pane selects text in copy mode and the release copies it
  (MouseDrag1Pane, MouseDragEnd1Pane); the wheel scrolls in copy mode on the main screen
  (leaving it again at the bottom, as copy-mode -e) and sends arrow keys to a full-screen
  application on the alternate screen.
- A drag on a border between panes moves it (MouseDrag1Border); a click on a window's
  name in the status line selects the window (MouseDown1Status).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from termhost.mux.pane import Pane
from termhost.terminal.keys import encode_key
from termhost.terminal.mouse import MouseEvent, encode_report
from termhost.ui.copy_view import CopySession
from termhost.ui.key_names import key_modes
from termhost.ui.status import window_at

if TYPE_CHECKING:
    from termhost.ui.app import AttachedClient

__all__ = ["MouseRouter"]

WHEEL_ARROWS = 3
"""Arrow keys sent for one notch of the wheel to an application on the alternate screen
that did not ask for the mouse (xterm's alternateScroll sends as many)."""


@dataclass
class _Border:
    """A border being dragged: the pane before it and the last position of the drag."""

    pane: Pane
    vertical: bool
    """A `│` border (moves left and right), else a `─` one."""
    at: int


@dataclass
class _Press:
    """Where the button went down: the pane and what the press started."""

    pane: Pane
    kind: Literal["app", "select"]
    x: int
    y: int


class MouseRouter:
    """Routes one client's mouse events."""

    def __init__(self, client: AttachedClient) -> None:
        self.client = client
        self._border: _Border | None = None
        self._press: _Press | None = None
        self._wheel_copy: CopySession | None = None
        """Copy mode as the wheel entered it: scrolling back to the bottom leaves it."""

    def handle(self, event: MouseEvent) -> None:
        if event.kind == "press":
            self._pressed(event)
        elif event.kind == "motion" and event.drag:
            self._dragged(event)
        elif event.kind == "release":
            self._released(event)
        elif event.kind in ("wheel-up", "wheel-down"):
            self._wheel(event)

    def _where(self, x: int, y: int) -> tuple[Pane, int, int] | None:
        """The pane under (x, y) and the point in the pane's own cells."""
        client = self.client
        if not client.session.windows:
            return None
        for cell in client.session.active_window.visible_cells():
            if cell.pane is not None and cell.x <= x < cell.x + cell.width \
                    and cell.y <= y < cell.y + cell.height:
                return cell.pane, x - cell.x, y - cell.y
        return None

    def _border_at(self, x: int, y: int) -> _Border | None:
        """The border under (x, y), with the pane before it (left of it, above it)."""
        for cell in self.client.session.active_window.visible_cells():
            if cell.pane is None:
                continue
            if x == cell.x + cell.width and cell.y <= y < cell.y + cell.height:
                return _Border(cell.pane, True, x)
            if y == cell.y + cell.height and cell.x <= x < cell.x + cell.width:
                return _Border(cell.pane, False, y)
        return None

    def _forward(self, pane: Pane, event: MouseEvent, x: int, y: int) -> None:
        screen = pane.terminal.screen
        data = encode_report(event.at(max(0, x), max(0, y)), screen.mouse_tracking,
                             screen.mouse_encoding)
        if data:
            pane.write(data)

    def _pressed(self, event: MouseEvent) -> None:
        client = self.client
        self._press = self._border = None
        if event.y >= client.body_rows:  # the status line
            link = window_at(client.server, client.session, client.size.columns, event.x,
                             client=client)
            if link is not None and event.button == 0:
                client.session.select(link)
                client.relayout()
            return
        found = self._where(event.x, event.y)
        if found is None:
            self._border = self._border_at(event.x, event.y) if event.button == 0 else None
            return
        pane, x, y = found
        window = client.session.active_window
        if pane is not window.active:
            window.select(pane)
            client.relayout()
        if pane.terminal.screen.mouse_tracking and not client.is_copying(pane):
            self._press = _Press(pane, "app", x, y)
            self._forward(pane, event, x, y)
        elif event.button == 0:
            self._press = _Press(pane, "select", x, y)
            if client.copying is not None:
                client.copying.mode.mouse_down(x, y)
                client.repaint()

    def _dragged(self, event: MouseEvent) -> None:
        client = self.client
        border, press = self._border, self._press
        if border is not None:
            position = event.x if border.vertical else event.y
            change = position - border.at
            if change:
                direction = ("R" if change > 0 else "L") if border.vertical else \
                    ("D" if change > 0 else "U")
                client.execute("resize-pane", "-t", border.pane.name, f"-{direction}",
                               str(abs(change)))
                border.at = position
            return
        if press is None:
            return
        cell = client.session.active_window.layout.find(press.pane) \
            if press.pane in client.session.active_window.panes else None
        if cell is None:
            return
        x, y = event.x - cell.x, event.y - cell.y
        if press.kind == "app":
            self._forward(press.pane, event, x, y)
            return
        if client.copying is None:
            client.copy_mode()
            if client.copying is None:
                return
            client.copying.mode.mouse_down(press.x, press.y)
        client.copying.mode.mouse_drag(x, y)
        client.repaint()

    def _released(self, event: MouseEvent) -> None:
        client, press = self.client, self._press
        self._press = self._border = None
        if press is None:
            return
        if press.kind == "app":
            cell = client.session.active_window.layout.find(press.pane) \
                if press.pane in client.session.active_window.panes else None
            if cell is not None:
                self._forward(press.pane, event, event.x - cell.x, event.y - cell.y)
            return
        copying = client.copying
        if copying is not None and copying.pane is press.pane:
            copying.mouse_up()

    def _wheel(self, event: MouseEvent) -> None:
        client = self.client
        found = self._where(event.x, event.y)
        if found is None:
            return
        pane, x, y = found
        window = client.session.active_window
        if pane.terminal.screen.mouse_tracking and not client.is_copying(pane):
            self._forward(pane, event, x, y)
            return
        up = event.kind == "wheel-up"
        if pane.terminal.screen.alternate_screen and not client.is_copying(pane):
            key = encode_key("Up" if up else "Down", key_modes(pane))
            pane.write(key * WHEEL_ARROWS)
            return
        if pane is not window.active:
            window.select(pane)
            client.relayout()
        if client.copying is None:
            if not up:
                return  # already at the bottom of the live screen
            client.copy_mode()
            self._wheel_copy = client.copying
        copying = client.copying
        if copying is None:
            return
        copying.press("WheelUpPane" if up else "WheelDownPane")
        if not up and copying is self._wheel_copy and client.copying is copying \
                and copying.mode.at_bottom:
            self._wheel_copy = None
            client.leave_copy_mode()
