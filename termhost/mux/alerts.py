"""What a pane's output tells the rest of the server besides its screen: activity and
bells in windows nobody is looking at (monitor-activity, monitor-bell), and clipboard
writes (OSC 52) the application asked for (set-clipboard on).

Output is emulated lazily (terminal/emulator.py), so a bell or an OSC 52 in a hidden
window is only known once the emulator catches up: the pane flags a read that may hold
one (`Pane.maybe_alert`), and only then is the emulator made to catch up here.
"""

from __future__ import annotations

import base64
import binascii
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from termhost.mux.model import Session, Window
from termhost.mux.pane import Pane

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["Alerts", "clipboard_sequence", "look"]


@dataclass
class Alerts:
    """What one turn of a pane's output changed."""

    flags_changed: bool = False
    """A window's activity or bell flag came on: the status bars need redrawing."""
    rang: bool = False
    """The application rang the bell (monitor-bell on): the clients' terminals ring."""
    copied: list[bytes] = field(default_factory=list)
    """Text the application put on the clipboard (OSC 52, set-clipboard on)."""


def look(server: Server, holders: list[Session], window: Window, pane: Pane) -> Alerts:
    """The alerts in what `pane` of `window` (linked to `holders`) wrote since the last
    look; a window current in none of them is out of sight."""
    alerts = Alerts()
    if not holders:
        return alerts
    window.activity_time = time.time()
    hidden = all(session.active_window is not window for session in holders)
    if hidden and not window.activity and server.window_option(window, "monitor-activity") == "on":
        window.activity = alerts.flags_changed = True
    if not pane.maybe_alert:
        return alerts
    pane.maybe_alert = False
    screen = pane.terminal.screen  # caught up now
    if screen.bell_count > pane.bells_seen:
        pane.bells_seen = screen.bell_count
        if server.window_option(window, "monitor-bell") == "on":
            alerts.rang = True
            if hidden and not window.bell:
                window.bell = alerts.flags_changed = True
    writes, screen.clipboard[:] = list(screen.clipboard), []
    if server.options.get("set-clipboard") == "on":
        for write in writes:
            try:
                alerts.copied.append(base64.b64decode(write.data, validate=True))
            except (binascii.Error, ValueError):
                continue  # a query ("?") or not base64: nothing to copy
    return alerts


def clipboard_sequence(data: bytes) -> str:
    """OSC 52 that puts `data` on the clipboard of the terminal it is written to; over
    SSH too, which is the point: the terminal, not the host, holds the clipboard."""
    return f"\x1b]52;c;{base64.b64encode(data).decode()}\x07"
