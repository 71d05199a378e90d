"""The mouse on an attached client (`set -g mouse on`): the terminal's reports made
tmux's mouse keys, as tmux 3.3a's server_client_check_mouse makes them.

A report becomes a key named for what happened (MouseDown, MouseUp, MouseDrag,
MouseDragEnd, WheelUp, WheelDown, DoubleClick, TripleClick, with the button) and where
(Pane, Border, Status for a window's name, StatusLeft, StatusRight, StatusDefault), C-,
M- and S- before it for the modifiers held. The client looks it up in its key tables like
any key (the default bindings are tmux's: bindings.py), with the `Mouse` (mux/mouse.py)
its commands act on; a key bound nowhere goes to the pane under the mouse.

A drag is one MouseDrag key per motion until the button is released, which makes a
MouseDragEnd key; unless a command took the drag over (copy-mode -M, send -X
begin-selection, resize-pane -M): then the motions go to it (`drag_update`), as tmux's
mouse_drag_update, and no key is made for them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from termhost.mux import layout
from termhost.mux.copy_mode import CopyMode
from termhost.mux.model import Window
from termhost.mux.mouse import Mouse, Where
from termhost.mux.pane import Pane
from termhost.terminal.mouse import MouseEvent
from termhost.ui.status import status_line

if TYPE_CHECKING:
    from termhost.ui.app import AttachedClient

__all__ = ["CLICK_TIME", "DRAGGING", "MouseRouter"]

CLICK_TIME = 0.3
"""Seconds within which a second press of the same button is a double click, a third a
triple click (tmux's KEYC_CLICK_TIMEOUT)."""
DRAGGING = "Dragging"
"""A motion of a drag that a command took over (tmux's KEYC_DRAGGING): no key."""

_WHERE: dict[Where, str] = {"pane": "Pane", "border": "Border", "status": "Status",
                            "status-left": "StatusLeft", "status-right": "StatusRight",
                            "status-default": "StatusDefault"}
_RANGES: dict[str, Where] = {"left": "status-left", "right": "status-right",
                             "window": "status"}


class MouseRouter:
    """One client's mouse: its reports made keys, and the drag under way."""

    def __init__(self, client: AttachedClient) -> None:
        self.client = client
        self.drag_update: Callable[[Mouse], None] | None = None
        """What a drag's motions do, once a command took it over."""
        self._dragging = 0
        """The button of the drag under way, plus one (tmux's mouse_drag_flag)."""
        self._last: MouseEvent | None = None
        """The report before (tmux's lx, ly, lb)."""
        self._clicks: tuple[str, MouseEvent] | None = None
        """A press just made: the next of the same button is a `double` (then `triple`)
        click, until CLICK_TIME passes."""
        self._click_timer: asyncio.TimerHandle | None = None

    def handle(self, event: MouseEvent) -> None:
        """One report from the client's terminal."""
        found = self._key(event)
        self._last = event
        if found is None:
            return
        if found.key == DRAGGING:
            if self.drag_update is not None:
                self.drag_update(found)
            return
        self.client.mouse_key(found.key, found)

    def _key(self, event: MouseEvent) -> Mouse | None:
        """The key `event` makes, with what it is over (its `key` DRAGGING for a drag's
        motion a command took over); None for none."""
        last = self._last or event
        x, y, button = event.x, event.y, event.button
        if event.kind == "motion" and event.button is None:
            return None  # plain motion (1003): tmux's MouseMove keys, bound to nothing
        if event.kind in ("wheel-left", "wheel-right"):
            return None
        if event.drag:
            kind = "drag"
            if self._dragging:
                if (x, y) == (last.x, last.y):
                    return None
            else:  # what the drag starts on: where the button went down
                x, y, button = last.x, last.y, last.button
        elif event.kind in ("wheel-up", "wheel-down"):
            kind = event.kind
        elif event.kind == "release":
            kind = "up"
            button = button if button is not None else last.button
        else:
            kind = self._click(event)
        mouse = self._where(x, y, event)
        if mouse is None:
            return None
        number = str((button or 0) + 1)
        if kind not in ("drag", "wheel-up", "wheel-down") and self._dragging:
            dragged, self._dragging = self._dragging, 0
            self.drag_update = None
            return self._named(f"MouseDragEnd{dragged}", mouse)
        if kind == "drag":
            if self.drag_update is not None:
                return replace(mouse, key=DRAGGING)
            self._dragging = int(number)
            return self._named(f"MouseDrag{number}", mouse)
        if kind in ("wheel-up", "wheel-down"):
            return self._named("WheelUp" if kind == "wheel-up" else "WheelDown", mouse)
        return self._named({"up": "MouseUp", "down": "MouseDown", "double": "DoubleClick",
                            "triple": "TripleClick"}[kind] + number, mouse)

    @staticmethod
    def _named(name: str, mouse: Mouse) -> Mouse:
        """`mouse` with its key's full name: the modifiers first, as tmux writes them,
        then `name` and where it is."""
        event = mouse.event
        modifiers = ("C-" if event.ctrl else "") + ("M-" if event.meta else "") + (
            "S-" if event.shift else "")
        return replace(mouse, key=modifiers + name + _WHERE[mouse.where])

    def _click(self, event: MouseEvent) -> str:
        """A press: `down`, or the `double` or `triple` click it makes (tmux's click
        timer: the same button again within CLICK_TIME of the press before)."""
        pending, self._clicks = self._clicks, None
        if self._click_timer is not None:
            self._click_timer.cancel()
            self._click_timer = None
        kind = "down"
        if pending is not None and _same_button(pending[1], event):
            kind = "double" if pending[0] == "double" else "triple"
        if kind != "triple":
            self._clicks = ("triple" if kind == "double" else "double", event)
            self._click_timer = asyncio.get_running_loop().call_later(
                CLICK_TIME, self._click_over)
        return kind

    def _click_over(self) -> None:
        self._clicks, self._click_timer = None, None

    def _where(self, x: int, y: int, event: MouseEvent) -> Mouse | None:
        """What is at client cell (x, y): a part of the status line, a border or a pane;
        None for nothing (beyond the window, a part of the status line no range names).
        The Mouse's cells are `event`'s and the report's before, in the window's
        coordinates."""
        client = self.client
        session = client.session
        if not session.windows:
            return None
        last = self._last or event
        view = client.view()

        def mouse(where: Where, window: Window | None, pane: Pane | None) -> Mouse:
            return Mouse("", event, where, session, window, pane, event.x + view.x,
                         event.y + view.y, last.x + view.x, last.y + view.y)

        if client.server.options.get("status") == "on" and y >= client.body_rows:
            _, ranges = status_line(client.server, session, client.size.columns,
                                    client=client, extra=client.view_variables())
            found = next((each for each in ranges if each.start <= x < each.end), None)
            if found is None:
                return mouse("status-default", None, None)
            where = _RANGES.get(found.kind)
            if where is None:
                return None
            link = session.link_at(found.argument) if where == "status" else None
            if where == "status" and link is None:
                return None
            return mouse(where, link.window if link is not None else None, None)
        if x > view.width or y > view.height:
            return None
        px, py = x + view.x, y + view.y
        window = session.active_window
        cells = [cell for cell in window.visible_cells() if cell.pane is not None]
        if not window.zoomed:
            for cell in cells:
                if (cell.x + cell.width == px and cell.y <= 1 + py
                        and cell.y + cell.height >= py) or (
                        cell.y + cell.height == py and cell.x <= 1 + px
                        and cell.x + cell.width >= px):
                    return mouse("border", window, cell.pane)
        for cell in cells:
            if cell.x <= px <= cell.x + cell.width and cell.y <= py <= cell.y + cell.height:
                return mouse("pane", window, cell.pane)
        return None

    # --- drags a command took over --------------------------------------------------

    def start_copy_drag(self, mouse: Mouse) -> None:
        """copy-mode -M, send -X begin-selection: the selection from where the button
        went down to the mouse, as it moves (tmux's window_copy_start_drag)."""
        pane = mouse.pane
        mode = pane.mode if pane is not None else None
        if pane is None or not isinstance(mode, CopyMode):
            return
        start = mouse.at(pane, last=True)
        if start is None:
            return
        mode.mouse_down(*start)
        server, session = self.client.server, mouse.session

        def update(moved: Mouse) -> None:
            if pane.mode is mode:
                mode.mouse_drag(*moved.relative(pane))
                server.refresh(session)

        self.drag_update = update
        update(mouse)

    def start_border_drag(self, mouse: Mouse) -> None:
        """resize-pane -M: the border under the mouse moves with it, by each motion's
        change (tmux's cmd_resize_pane_mouse_update)."""
        server, session = self.client.server, mouse.session

        def update(moved: Mouse) -> None:
            window = moved.window
            if window is None:
                self.drag_update = None
                return
            lx, ly, x, y = moved.last_x, moved.last_y, moved.x, moved.y
            changed = False
            for cell in [cell for cell in window.visible_cells() if cell.pane is not None]:
                assert cell.pane is not None
                if cell.x + cell.width == lx and cell.y <= 1 + ly \
                        and cell.y + cell.height >= ly and x != lx:
                    layout.resize_pane(window.layout, cell.pane, direction="R" if x > lx
                                       else "L", amount=abs(x - lx))
                    changed = True
                if cell.y + cell.height == ly and cell.x <= 1 + lx \
                        and cell.x + cell.width >= lx and y != ly:
                    layout.resize_pane(window.layout, cell.pane, direction="D" if y > ly
                                       else "U", amount=abs(y - ly))
                    changed = True
            if changed:
                window.fit_panes()
                server.refresh(session)

        self.drag_update = update
        update(mouse)


def _same_button(one: MouseEvent, other: MouseEvent) -> bool:
    """The same button with the same modifiers (tmux compares the whole button code)."""
    return (one.button, one.shift, one.meta, one.ctrl) == (
        other.button, other.shift, other.meta, other.ctrl)
