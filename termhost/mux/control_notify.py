"""What clients in control mode are told (tmux's control-notify.c): the server's events as
`%`-lines, and what the panes write.

tmux calls a notify function wherever it changes a window's layout, active pane or mode,
a session's current window or a window's name; termhost's verbs change those in many
places, so those are found by comparing how every session, window and pane looks now with
how it looked at the last look (`sync`): at each of the server's events, after each
command a control client runs, and soon after any redraw. The other events (windows
linked and unlinked, sessions made, renamed and closed, clients switching and leaving)
are the server's own, as they happen (Server.hook). As tmux's, a notification's text is
made as it is delivered, after the command that caused it: it says how things are then.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, NamedTuple, Protocol

from termhost.mux import layout
from termhost.mux.format_scope import format_target
from termhost.mux.format_variables import client_name
from termhost.mux.formats import expand
from termhost.mux.model import Session, Window, Winlink
from termhost.mux.pane import Pane

if TYPE_CHECKING:
    from termhost.mux.attached import Client
    from termhost.mux.server import Server
    from termhost.process import ExitStatus

__all__ = ["ControlHub", "Listener", "Notice"]

LAYOUT_CHANGE = ("%layout-change #{window_id} #{window_layout} #{window_visible_layout} "
                 "#{window_raw_flags}")
"""tmux 3.3a's %layout-change line (control_notify_window_layout_changed)."""

NAME_INTERVAL = 0.5
"""Seconds between looks at the automatic window names while a control client listens
(tmux's NAME_INTERVAL)."""

Subject = Session | Window | Pane
Receiver = object
"""The control client a notification is written for (a ControlClient), or None before
its connection has attached."""


class Notice(NamedTuple):
    """An event for the control clients: tmux's notify name and what it happened to."""

    kind: str
    subject: Subject | Client


class Listener(Protocol):
    """A control client's connection, as the hub reaches it (control.py's ControlStream)."""

    def notify(self, notice: Notice) -> None: ...

    def pane_output(self, pane: Pane, window: Window, data: bytes) -> None: ...


class _Look(NamedTuple):
    """How the server looked at the last `sync`: what a notification is owed for."""

    current: dict[int, tuple[Session, Winlink | None]]
    """Each session's current winlink (a window moved to another index is another)."""
    windows: dict[int, tuple[Window, str, int, str]]
    """Each window's layout (zoomed or not), active pane and name."""
    modes: dict[int, tuple[Pane, int]]
    """Each pane's mode (its identity: 0 for none)."""


class _Tap:
    """The hub's PaneTap on each pane: its output to the control clients that see it."""

    def __init__(self, hub: ControlHub, pane: Pane, window: Window) -> None:
        self.hub, self.pane, self.window = hub, pane, window

    def output(self, data: bytes) -> None:
        self.hub.pane_output(self.pane, self.window, data)

    def resized(self, cols: int, rows: int) -> None:
        pass

    def ended(self, status: ExitStatus | None) -> None:
        pass


class ControlHub:
    """The server's control clients' listeners, what is owed them and the command numbers
    of their %begin lines. Does nothing while no control client listens."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.listeners: list[Listener] = []
        self._number = 0
        self._last: _Look | None = None
        self._pending: list[Notice] = []
        self._soon: asyncio.Handle | None = None
        self._names: asyncio.TimerHandle | None = None

    # --- listeners ----------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """A control connection starts: from now on it is told what happens."""
        self.listeners.append(listener)
        if len(self.listeners) == 1:
            self._last = self._look()
            for window in self.server.windows():
                for pane in window.panes:
                    self.watch(window, pane)
            self._names = asyncio.get_running_loop().call_later(NAME_INTERVAL, self._rename)

    def unlisten(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)
        if not self.listeners:
            self._last = None
            self._pending.clear()
            if self._names is not None:
                self._names.cancel()
                self._names = None

    def next_number(self) -> int:
        """The number of the next command block (tmux numbers every command it runs)."""
        self._number += 1
        return self._number

    # --- events -------------------------------------------------------------------------

    def event(self, name: str, session: Session, window: Window | None = None) -> None:
        """One of the server's events (a hook's name): what changed before it is told
        first, then the event itself if control clients hear of it."""
        if not self.listeners:
            return
        self.sync()
        if name in ("window-linked", "window-unlinked") and window is not None:
            self._add(Notice(name, window))
        elif name in ("session-created", "session-closed", "session-renamed"):
            self._add(Notice(name, session))

    def client_session_changed(self, client: Client) -> None:
        """`client` attached to or switched to another session."""
        if self.listeners:
            self.sync()
            self._add(Notice("client-session-changed", client))

    def client_detached(self, client: Client) -> None:
        if self.listeners:
            self.sync()
            self._add(Notice("client-detached", client))

    def window_renamed(self, window: Window) -> None:
        """A verb gave `window` its name (break-pane names the window it makes)."""
        if self.listeners:
            self.sync()
            self._add(Notice("window-renamed", window))

    def layout_changed(self, window: Window) -> None:
        """A verb set the window's layout (select-layout): told once, even when the
        layout came out the same, as tmux tells it."""
        if self.listeners:
            told = len(self._pending)
            self.sync()
            notice = Notice("window-layout-changed", window)
            if notice not in self._pending[told:]:
                self._add(notice)

    def changed(self) -> None:
        """Something may have changed (the server redraws): look soon."""
        if self.listeners and self._soon is None:
            self._soon = asyncio.get_running_loop().call_soon(self.settle)

    def settle(self) -> None:
        """Look now, and deliver what is owed."""
        if self._soon is not None:
            self._soon.cancel()
            self._soon = None
        self.sync()
        pending, self._pending = self._pending, []
        for listener in list(self.listeners):
            for notice in pending:
                listener.notify(notice)

    def _add(self, notice: Notice) -> None:
        self._pending.append(notice)
        self.changed()

    def _rename(self) -> None:
        """tmux's automatic-rename timer: the names the windows' programs give them."""
        self._names = asyncio.get_running_loop().call_later(NAME_INTERVAL, self._rename)
        for window in self.server.windows():
            self.server.window_name(window)
        self.sync()
        if self._pending:
            self.settle()

    # --- what changed -------------------------------------------------------------------

    def _look(self) -> _Look:
        look = _Look({}, {}, {})
        for session in self.server.sessions.values():
            look.current[session.id] = (session, session.current)
        for window in self.server.windows():
            shape = layout.dump(window.layout, _pane_id)
            look.windows[window.id] = (window, f"{shape}{'Z' if window.zoomed else ''}",
                                       window.active.id, window.name)
            for pane in window.panes:
                look.modes[pane.id] = (pane, id(pane.mode) if pane.mode is not None else 0)
        return look

    def sync(self) -> None:
        """Notices for what changed since the last look, in the order tmux's commands
        usually give them: a session's current window, then each window's active pane
        and layout, then the panes' modes, then the windows' names."""
        if not self.listeners:
            return
        now, before = self._look(), self._last
        self._last = now
        if before is None:
            return
        for key, (session, current) in now.current.items():
            old = before.current.get(key)
            if old is not None and old[1] is not current and current is not None:
                self._add(Notice("session-window-changed", session))
        renamed = []
        for key, (window, shape, active, name) in now.windows.items():
            was = before.windows.get(key)
            if was is None:
                continue
            if was[2] != active:
                self._add(Notice("window-pane-changed", window))
            if was[1] != shape:
                self._add(Notice("window-layout-changed", window))
            if was[3] != name:
                renamed.append(window)
        for key, (pane, mode) in now.modes.items():
            old_mode = before.modes.get(key)
            if old_mode is not None and old_mode[1] != mode:
                self._add(Notice("pane-mode-changed", pane))
        for window in renamed:
            self._add(Notice("window-renamed", window))

    # --- the panes' output --------------------------------------------------------------

    def watch(self, window: Window, pane: Pane) -> None:
        """`pane` is in `window` now (the server wires it in): its output goes to the
        control clients whose session has the window."""
        if not self.listeners:
            return
        tap = next((tap for tap in pane.taps if isinstance(tap, _Tap)), None)
        if tap is None:
            pane.taps.append(_Tap(self, pane, window))
        else:
            tap.window = window

    def pane_output(self, pane: Pane, window: Window, data: bytes) -> None:
        for listener in self.listeners:
            listener.pane_output(pane, window, data)

    # --- the text -----------------------------------------------------------------------

    def text(self, notice: Notice, session: Session | None, receiver: Receiver) -> str | None:
        """The line `notice` is for a control client attached to `session` (None: not
        yet attached), as tmux's control_notify_* write it; None: nothing for it."""
        kind, subject = notice
        if isinstance(subject, Pane):
            return f"%pane-mode-changed {subject.name}"
        if isinstance(subject, Session):
            if kind == "session-renamed":
                return f"%session-renamed ${subject.id} {subject.name}"
            if kind == "session-window-changed":
                if subject.current is None:
                    return None
                return f"%session-window-changed ${subject.id} @{subject.current.window.id}"
            return "%sessions-changed"
        if isinstance(subject, Window):
            return self._window_text(kind, subject, session)
        if kind == "client-detached":
            return None if subject is receiver else f"%client-detached {client_name(subject)}"
        if session is None:
            return None
        changed = subject.session
        if subject is receiver:
            return f"%session-changed ${changed.id} {changed.name}"
        return f"%client-session-changed {client_name(subject)} ${changed.id} {changed.name}"

    def _window_text(self, kind: str, window: Window, session: Session | None) -> str | None:
        if kind == "window-pane-changed":
            if not self.server.sessions_of(window):
                return None  # gone meanwhile: tmux kills a window whole, never a pane at a time
            return f"%window-pane-changed @{window.id} {window.active.name}"
        if session is None:
            return None
        here = session.has(window)
        if kind == "window-layout-changed":
            holders = self.server.sessions_of(window)
            if not here or not holders:
                return None
            values, scope = format_target(self.server, holders[0], window)
            return expand(LAYOUT_CHANGE, values, scope=scope)
        prefix = "" if here else "unlinked-"
        if kind == "window-linked":
            return f"%{prefix}window-add @{window.id}"
        if kind == "window-unlinked":
            return f"%{prefix}window-close @{window.id}"
        return f"%{prefix}window-renamed @{window.id} {window.name}"


def _pane_id(pane: Pane) -> int:
    return pane.id
