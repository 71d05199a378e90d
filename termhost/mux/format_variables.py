"""The `#{...}` variables of a session, window and pane, as tmux 3.3a's format_defaults
fills them for `display -p`, the `-F` of the list commands and the status line.

The status line expands its formats on every redraw, for every window in its list, and
most of a format asks for a handful of names. So a variable that costs a system call or a
walk (the foreground program and its cwd from /proc, the layout string, the character
under the cursor) is worked out only when a format asks for it, once per expansion:
`FormatVariables` is a mapping whose dearer values are made on first lookup.
"""

from __future__ import annotations

import functools
import os
import pwd
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Protocol

from pyte import modes as mo

from termhost.mux import layout
from termhost.mux.model import Session, Window, Winlink
from termhost.mux.pane import Pane
from termhost.mux.pane_pipe import pipe_of
from termhost.mux.printing import escaped
from termhost.terminal.screen import DECCKM
from termhost.terminal.scrollback import decode_line

if TYPE_CHECKING:
    from termhost.mux.server import Server
    from termhost.terminal.screen import Screen

__all__ = ["ABSENT_WHEN_EMPTY", "CONTROL_FLAGS", "MODE_FORMATS", "TMUX_VERSION", "FormatClient",
           "FormatVariables", "client_name", "client_variables", "server_variables", "variables"]

TMUX_VERSION = "3.3a"
"""The tmux whose language termhost speaks: `#{version}` and `%if` tests compare with it."""


Group = tuple[str, Callable[[], dict[str, str]]]
"""A named group of variables made together (a session's, a window's, a pane's), when
a format first asks for one of them: its names are the same every time it is made."""

_GROUP_NAMES: dict[str, frozenset[str]] = {}
"""The names each group was seen to make: a lookup of a name no group makes (a user
option, #{status-left}) makes none of them."""


class FormatVariables(Mapping[str, str]):
    """Variables by name, some known at once, some made in groups when one of the
    group is first asked for, and some made alone when first asked for. What `update`
    sets wins over what a group makes later."""

    __slots__ = ("_groups", "_later", "_values")

    def __init__(self, values: dict[str, str],
                 later: dict[str, Callable[[], str]] | None = None,
                 groups: list[Group] | None = None) -> None:
        self._values = values
        self._later = later or {}
        self._groups = groups or []

    def _make(self, name: str | None) -> None:
        """Make the groups that may hold `name` (every group for None)."""
        waiting = []
        for index, (group, make) in enumerate(self._groups):
            known = _GROUP_NAMES.get(group)
            if name is not None and known is not None and name not in known:
                waiting.append((group, make))
                continue
            made = make()
            if known is None:
                _GROUP_NAMES[group] = frozenset(made)
            for key, value in made.items():
                self._values.setdefault(key, value)
            if name is not None and name in made:
                waiting += self._groups[index + 1:]
                break
        self._groups = waiting

    def __getitem__(self, name: str) -> str:
        try:
            return self._values[name]
        except KeyError:
            make = self._later.pop(name, None)
        if make is None:
            self._make(name)
            return self._values[name]
        value = self._values[name] = make()
        return value

    def get(self, name: str, default: str | None = None) -> str | None:  # type: ignore[override]
        found = self._values.get(name)
        if found is not None:
            return found
        if name in self._later:
            return self[name]
        if self._groups:
            self._make(name)
        return self._values.get(name, default)

    def __contains__(self, name: object) -> bool:
        if name in self._values or name in self._later:
            return True
        if self._groups and isinstance(name, str):
            self._make(name)
        return name in self._values

    def __iter__(self) -> Iterator[str]:
        self._make(None)
        return iter([*self._values, *self._later])

    def __len__(self) -> int:
        self._make(None)
        return len(self._values) + len(self._later)

    def add(self, group: Group) -> None:
        """A group of names no other group holds (a client's), made when asked for."""
        self._groups.append(group)

    def update(self, values: Mapping[str, str]) -> None:
        """Set (or override) some variables, as copy mode adds its own."""
        for name, value in values.items():
            self._later.pop(name, None)
            self._values[name] = value


class _Size(Protocol):
    @property
    def rows(self) -> int: ...
    @property
    def columns(self) -> int: ...


class FormatClient(Protocol):
    """What the `#{client_*}` variables read of an attached client (ui/app.py's)."""

    tty: str
    term: str
    pid: int
    uid: int
    created: float
    activity: float
    session: Session
    last_session: Session | None
    suspended: bool
    flags: set[str]

    @property
    def size(self) -> _Size: ...

    @property
    def key_table(self) -> str: ...


def client_name(client: FormatClient) -> str:
    """#{client_name}, as tmux names a client: its terminal, else (a control client on a
    pipe) `client-PID`."""
    return client.tty or f"client-{client.pid}"


CONTROL_FLAGS = ("no-output", "wait-exit", "pause-after")
"""The -f flags only a control client has (tmux's server_client_control_flags);
pause-after is kept as `pause-after=N`, N its age in seconds."""


def _client_flags(client: FormatClient) -> str:
    """#{client_flags}, in tmux's order (server_client_get_flags)."""
    flags = client.flags
    control = "control-mode" in flags
    shown = ["attached", "focused", *(["control-mode"] if control else []),
             *(["ignore-size"] if "ignore-size" in flags else [])]
    if control:
        shown += [flag for flag in ("no-output", "wait-exit") if flag in flags]
        shown += sorted(flag for flag in flags if flag.startswith("pause-after="))
    shown += [flag for flag in ("read-only", "active-pane") if flag in flags]
    return ",".join([*shown, *(["suspended"] if client.suspended else []), "UTF-8"])


def client_variables(client: FormatClient) -> dict[str, str]:
    """An attached client's variables, as tmux's format_defaults_client: its terminal
    (the whole of it, the status line's row included), session and key table. A control
    client has no height, as tmux's (its terminal never starts)."""
    table = client.key_table
    control = "control-mode" in client.flags
    return {
        "client_name": client_name(client),
        "client_tty": client.tty,
        "client_session": client.session.name,
        "client_last_session": client.last_session.name if client.last_session else "",
        "client_width": str(client.size.columns),
        "client_height": "" if control else str(client.size.rows),
        "client_termname": client.term,
        "client_termtype": "",
        "client_flags": _client_flags(client),
        "client_utf8": "1",
        "client_readonly": "1" if "read-only" in client.flags else "0",
        "client_control_mode": "1" if control else "0",
        "client_prefix": "1" if table == "prefix" else "0",
        "client_key_table": table,
        "client_pid": str(client.pid),
        "client_uid": str(client.uid),
        "client_user": _user(client.uid),
        "client_created": str(int(client.created)),
        "client_activity": str(int(client.activity)),
        "client_cell_width": "" if control else "16",
        "client_cell_height": "" if control else "32",
    }


def _dead_field(pane: Pane, field: str) -> str:
    """#{pane_dead_status} / #{pane_dead_signal}: empty while alive or when not that way."""
    value = getattr(pane.exit_status, field, None)
    return "" if value is None else str(value)


def _character_at(screen: Screen, x: int, y: int) -> str:
    """#{cursor_character}: the glyph under the cursor (a blank cell is a space)."""
    line = screen.buffer.get(y)
    if line is None or x >= screen.columns:
        return " "
    return line[x].data or " "


_STARTED = time.time()
"""When the server (the process this runs in) started: #{start_time}."""

_NO_SAVED_CURSOR = str(2**32 - 1)
"""tmux's alternate_saved_x/y outside the alternate screen (UINT_MAX)."""

_MOUSE_FLAGS = (("mouse_standard_flag", 1000), ("mouse_button_flag", 1002),
                ("mouse_all_flag", 1003))
_MOUSE_ENCODING_FLAGS = (("mouse_utf8_flag", 1005), ("mouse_sgr_flag", 1006))


@functools.cache
def _user(uid: int) -> str:
    """A uid's user name (#{user}, #{client_user}); looked up once, not on every format
    the status line expands."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return ""


def _alerts(session: Session) -> str:
    """#{session_alerts}: each window with an alert, its index and `#` / `!`."""
    return ",".join(f"{link.index}{'#' if link.window.activity else ''}"
                    f"{'!' if link.window.bell else ''}"
                    for link in session.links if link.window.activity or link.window.bell)


_GRID_LINE_BYTES, _GRID_CELL_BYTES = 32, 5
"""The sizes of tmux 3.3a's struct grid_line and (packed) grid_cell_entry on a 64-bit
machine, as #{history_bytes} and #{history_all_bytes} count them."""


def _allocated(used: int, width: int) -> int:
    """How many cells tmux's grid_expand_line gives a line whose last written cell is
    `used`: a quarter of the width, a half, or all of it, whichever first holds it."""
    if used == 0:
        return 0
    if used < width // 4:
        return width // 4
    if used < width // 2:
        return width // 2
    return max(used, width)


def _history_cells(pane: Pane) -> tuple[int, int]:
    """How many lines the pane's grid has (history and screen) and how many cells they
    hold, each line as far as its last non-blank cell, grown as tmux grows it."""
    terminal = pane.terminal
    screen = terminal.screen
    width = screen.columns
    cells = sum(_allocated(len("".join(c.data for c in decode_line(line)).rstrip()), width)
                for line in terminal.history.raw())
    for y in range(screen.lines):
        row = screen.buffer.get(y)
        if row:
            cells += _allocated(len("".join(row[x].data for x in range(width)).rstrip()), width)
    return len(terminal.history) + screen.lines, cells


def _history_bytes(pane: Pane) -> str:
    """#{history_bytes}: what the pane's grid would take in tmux's memory."""
    lines, cells = _history_cells(pane)
    return str(lines * _GRID_LINE_BYTES + cells * _GRID_CELL_BYTES)


def _history_all_bytes(pane: Pane) -> str:
    """#{history_all_bytes}: lines, their bytes, cells, their bytes, extended cells (kept
    as 0: termhost keeps no separate table of them) and their bytes."""
    lines, cells = _history_cells(pane)
    return f"{lines},{lines * _GRID_LINE_BYTES},{cells},{cells * _GRID_CELL_BYTES},0,0"


MODE_FORMATS = {
    "buffer_mode_format": "#{t/p:buffer_created}: #{buffer_sample}",
    "client_mode_format": "#{t/p:client_activity}: session #{session_name}",
    "tree_mode_format": (
        "#{?pane_format,#{?pane_marked,#[reverse],}#{pane_current_command}#{?pane_active,*,}"
        "#{?pane_marked,M,}#{?#{&&:#{pane_title},#{!=:#{pane_title},#{host_short}}},"
        ": \"#{pane_title}\",},#{?window_format,#{?window_marked_flag,#[reverse],}"
        "#{window_name}#{window_flags}#{?#{&&:#{==:#{window_panes},1},#{&&:#{pane_title},"
        "#{!=:#{pane_title},#{host_short}}}},: \"#{pane_title}\",},#{session_windows} windows"
        "#{?session_grouped, (group #{session_group}: #{session_group_list}),}"
        "#{?session_attached, (attached),}}}"),
}
"""The default line formats of choose-buffer, choose-client and choose-tree, which tmux
offers as variables."""

ABSENT_WHEN_EMPTY = frozenset({
    "pane_dead_signal", "pane_dead_status", "pane_dead_time", "pane_mode",
    "session_attached_list", "window_active_clients_list", "session_group",
    "session_group_attached", "session_group_attached_list", "session_group_list",
    "session_group_many_attached", "session_group_size"})
"""Variables whose tmux callback gives nothing (not an empty string) when they do not
apply: `display -a` leaves them out then, as tmux's format_each does."""


def _stack_index(session: Session, link: Winlink) -> str:
    """#{window_stack_index}: where the place is in the session's last-window stack."""
    stack = [each for each in (session.current, session.last) if each is not None]
    return str(stack.index(link)) if link in stack else "0"


def server_variables(server: Server | None) -> dict[str, str]:
    """What any format knows, with or without a session: the server's own variables."""
    host = socket.gethostname()
    sessions = server.sessions.values() if server is not None else ()
    return {
        "pid": str(os.getpid()),
        "socket_path": str(server.path) if server is not None else "",
        "host": host,
        "host_short": host.split(".", 1)[0],
        "version": TMUX_VERSION,
        "start_time": str(int(_STARTED)),
        "uid": str(os.getuid()),
        "user": _user(os.getuid()),
        "next_session_id": f"${max((s.id for s in sessions), default=-1) + 1}",
        "config_files": ",".join(server.config_files) if server is not None else "",
        **MODE_FORMATS,
    }


def variables(
    session: Session,
    window: Window | None = None,
    server: Server | None = None,
    pane: Pane | None = None,
    link: Winlink | None = None,
) -> FormatVariables:
    """The `#{...}` variables for a session, a window (the current) and a pane (its
    active); `link` is the window's place in the session, where it is linked twice
    (else the one a target naming the window means: Session.link_of)."""
    window = window or session.active_window
    pane = pane or window.active
    if link is None or link.window is not window:
        link = session.link_of(window) or Winlink(-1, window)  # -1: not linked (yet)
    clients = server.clients if server is not None else []
    marked = server.marked_pane() if server is not None else None

    def session_group() -> dict[str, str]:
        group = session.group.sessions if session.group is not None else [session]
        group_attached = [client for client in clients if client.session in group]
        attached = [client for client in clients if client.session is session]
        return {
            "session_name": session.name,
            "session_id": f"${session.id}",
            "session_windows": str(len(session.links)),
            "session_created": str(int(session.created)),
            "session_attached": str(len(attached)),
            "session_exited": "0",
            "session_path": session.path,
            "session_activity": str(int(session.activity_time)),
            "session_last_attached": str(int(session.last_attached)),
            "session_alerts": _alerts(session),
            "session_attached_list": ",".join(client.tty for client in attached),
            "session_many_attached": "1" if len(attached) > 1 else "0",
            "session_grouped": "1" if session.group is not None else "0",
            "session_group": session.group.name if session.group is not None else "",
            "session_group_size": str(len(group)) if session.group is not None else "",
            "session_group_list": ",".join(s.name for s in group) if session.group else "",
            "session_group_attached": str(len(group_attached)) if session.group else "",
            "session_group_attached_list": ",".join(c.tty for c in group_attached),
            "session_group_many_attached": (
                ("1" if len(group_attached) > 1 else "0") if session.group else ""),
            "session_marked": "1" if marked is not None and marked[0] is session else "0",
            "session_format": "0",
            "session_stack": ",".join(str(each.index) for each in (session.current, session.last)
                                      if each is not None),
            "active_window_index": str(session.current.index if session.current else 0),
            "last_window_index": str(max((each.index for each in session.links), default=0)),
        }

    def window_group() -> dict[str, str]:
        places = sorted(((s, each) for s in (server.sessions.values() if server else [session])
                         for each in s.links if each.window is window),
                        key=lambda place: place[1].order)  # its winlinks, in tmux's order
        linked = [s for s, _ in places] or [session]
        group = session.group.sessions if session.group is not None else [session]
        active_in = [s for s, each in places if each is s.current]
        showing = [client for client in clients
                   if client.session is not None and client.session.active_window is window]
        return {
            "window_index": str(link.index),
            "window_id": f"@{window.id}",
            "window_active": "1" if link is session.current else "0",
            "window_panes": str(len(window.panes)),
            "window_flags": session.window_flags(
                link, marked=marked is not None and marked[1] is window).replace("#", "##"),
            "window_raw_flags": session.window_flags(
                link, marked=marked is not None and marked[1] is window),
            "window_format": "0",
            "window_activity": str(int(window.activity_time)),
            "window_active_clients": str(len(showing)),
            "window_active_clients_list": ",".join(client.tty for client in showing),
            "window_active_sessions": str(len(active_in)),
            "window_active_sessions_list": ",".join(s.name for s in active_in),
            "window_linked": "1" if len(places) != len(group) else "0",  # session_is_linked
            "window_linked_sessions": str(len(linked)),
            "window_linked_sessions_list": ",".join(s.name for s in linked),
            "window_stack_index": _stack_index(session, link),
            "window_cell_width": "16",
            "window_cell_height": "32",
            "window_zoomed_flag": "1" if window.zoomed else "0",
            "window_last_flag": "1" if link is session.last else "0",
            "window_bell_flag": "1" if window.bell else "0",
            "window_activity_flag": "1" if window.activity else "0",
            "window_silence_flag": "0",
            "window_marked_flag": "1" if marked is not None and marked[1] is window else "0",
            "window_start_flag": "1" if session.links and link is session.links[0] else "0",
            "window_end_flag": "1" if session.links and link is session.links[-1] else "0",
            "window_width": str(window.layout.width),
            "window_height": str(window.layout.height),
        }

    def pane_group() -> dict[str, str]:
        cell = window.cell_of(pane)
        screen = pane.terminal.screen
        left, top = window.layout.x, window.layout.y
        saved = screen.saved_alternate_cursor
        return {
            "pane_index": str(window.panes.index(pane)),
            "pane_id": pane.name,
            "pane_pid": str(pane.pid),
            "pane_active": "1" if pane is window.active else "0",
            "pane_left": str(cell.x),
            "pane_top": str(cell.y),
            "pane_right": str(cell.x + cell.width - 1),
            "pane_bottom": str(cell.y + cell.height - 1),
            "pane_dead": "1" if pane.dead else "0",
            "pane_dead_status": _dead_field(pane, "code"),
            "pane_dead_signal": _dead_field(pane, "signal"),
            "pane_dead_time": str(int(pane.died_at)) if pane.died_at is not None else "",
            "pane_format": "1",
            "pane_at_left": "1" if cell.x == left else "0",
            "pane_at_top": "1" if cell.y == top else "0",
            "pane_at_right": "1" if cell.x + cell.width == left + window.layout.width else "0",
            "pane_at_bottom": "1" if cell.y + cell.height == top + window.layout.height else "0",
            "pane_last": "1" if pane is window.last else "0",
            "pane_marked": "1" if marked is not None and marked[2] is pane else "0",
            "pane_marked_set": "1" if marked is not None else "0",
            "pane_input_off": "1" if pane.input_off else "0",
            "pane_pipe": "1" if pipe_of(pane) is not None else "0",
            "pane_path": "",
            "pane_search_string": "",
            "pane_fg": "default",
            "pane_bg": "default",
            "pane_synchronized": "1" if server is not None and server.window_option(
                window, "synchronize-panes") == "on" else "0",
            "pane_tabs": ",".join(str(stop) for stop in sorted(screen.tabstops)),
            "scroll_region_upper": str(screen.region.top),
            "scroll_region_lower": str(screen.region.bottom),
            "alternate_saved_x": str(saved[0]) if saved is not None else _NO_SAVED_CURSOR,
            "alternate_saved_y": str(saved[1]) if saved is not None else _NO_SAVED_CURSOR,
            "insert_flag": "1" if mo.IRM in screen.mode else "0",
            "keypad_cursor_flag": "1" if DECCKM in screen.mode else "0",
            "keypad_flag": "1" if screen.application_keypad else "0",
            "origin_flag": "1" if mo.DECOM in screen.mode else "0",
            "wrap_flag": "1" if screen.autowrap else "0",
            **{name: "1" if screen.mouse_tracking == mode else "0" for name, mode in _MOUSE_FLAGS},
            "mouse_any_flag": "1" if screen.mouse_tracking else "0",
            **{name: "1" if screen.mouse_encoding == mode else "0"
               for name, mode in _MOUSE_ENCODING_FLAGS},
            "pane_title": screen.title or socket.gethostname(),
            "pane_tty": pane.tty,
            "pane_width": str(pane.terminal.cols),
            "pane_height": str(pane.terminal.rows),
            "cursor_x": str(screen.cursor.x),
            "cursor_y": str(screen.cursor.y),
            "cursor_flag": "1" if screen.cursor_visible else "0",
            "snapshot_status": session.snapshot.status if session.snapshot is not None else "",
            "history_size": str(len(pane.terminal.history)),
            "history_limit": str(pane.terminal.history.limit),
            "alternate_on": "1" if screen.alternate_screen else "0",
            "pane_in_mode": "0" if pane.mode is None else "1",
            "pane_mode": "" if pane.mode is None else pane.mode.name,
        }

    later: dict[str, Callable[[], str]] = {
        "window_name": ((lambda: server.window_name(window)) if server is not None
                        else (lambda: window.name)),
        "pane_current_command": pane.current_command,
        "pane_current_path": pane.current_path,
        "pane_start_command": lambda: " ".join(escaped(word) for word in pane.start_command),
        "window_layout": lambda: layout.describe(window.layout, lambda p: p.id),
        "window_visible_layout": lambda: layout.describe(
            layout.Cell("pane", window.layout.width, window.layout.height, pane=window.active)
            if window.zoomed else window.layout, lambda p: p.id),
        "pane_start_path": lambda: pane.start_path or pane.current_path(),
        "cursor_character": lambda: _character_at(
            pane.terminal.screen, pane.terminal.screen.cursor.x, pane.terminal.screen.cursor.y),
        "history_bytes": lambda: _history_bytes(pane),
        "history_all_bytes": lambda: _history_all_bytes(pane),
    }
    found = FormatVariables({}, later, [("server", lambda: server_variables(server)),
                                        ("session", session_group), ("window", window_group),
                                        ("pane", pane_group)])
    if pane.mode is not None:
        found.update(pane.mode.variables())
    return found
