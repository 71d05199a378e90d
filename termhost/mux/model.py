"""Sessions hold windows, windows hold a layout of panes: the server's state.

Ids are never reused while the server lives (`$0 $1`, `@0 @1`, `%0 %1`), as in tmux, so a
script holding one never reaches a newer object by mistake.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from termhost.mux import layout
from termhost.mux.environment import Environment
from termhost.mux.hooks import Hooks
from termhost.mux.layout import Cell
from termhost.mux.pane import Pane

if TYPE_CHECKING:
    from termhost.mux.snapshots import SessionSnapshot

__all__ = ["DOWN", "LEFT", "RIGHT", "UP", "Session", "SessionGroup", "Window", "Winlink"]

LEFT, RIGHT, UP, DOWN = (-1, 0), (1, 0), (0, -1), (0, 1)
"""Directions (dx, dy) for `Window.neighbour`: select-pane -L -R -U -D, C-b arrows."""


@dataclass(eq=False)
class Window:
    """Panes in a layout tree; `active` takes the keys, `last` is the one before it."""

    id: int
    name: str
    layout: Cell[Pane]
    active: Pane
    last: Pane | None = None
    zoomed: bool = False
    """The active pane fills the window (C-b z, resize-pane -Z); the layout is kept."""
    preset: str | None = None
    """The select-layout preset last applied, where next-layout (C-b Space) goes on from."""
    old_layout: str | None = None
    """The layout (#{window_layout}) before the last select-layout: select-layout -o."""
    options: dict[str, str] = field(default_factory=dict)
    """Window options set for this window alone (setw without -g): synchronize-panes."""
    hooks: Hooks = field(default_factory=Hooks)
    """Hooks set on this window (set-hook -w): over the global ones."""
    automatic_name: bool = True
    """The name follows the active pane's program (automatic-rename), until a name is
    given (new-window -n, rename-window), as in tmux."""
    activity: bool = False
    """Output since it was last current (monitor-activity): `#` in the status bar."""
    activity_time: float = field(default_factory=time.time)
    """When a pane of it last wrote (#{window_activity}), as tmux's window_update_activity."""
    bell: bool = False
    """A bell since it was last current (monitor-bell): `!` in the status bar."""
    labels: str = "off"
    """pane-border-status as last applied: with top (bottom), the panes along the top
    (bottom) edge give their first (last) row to the line of labels, as tmux's
    layout_fix_panes does; the layout itself spans the whole window."""

    def arrange(self, preset: str) -> None:
        """select-layout: the panes rearranged as `preset`, at the window's size."""
        width, height = self.layout.width, self.layout.height
        self.layout = layout.select_layout(self.layout, preset)
        layout.resize(self.layout, width, height)  # a too small window: back to its size
        self.layout.place(self.layout.x, self.layout.y)
        self.preset = preset
        self.zoomed = False
        self.fit_panes()

    def apply_layout(self, root: Cell[Pane]) -> None:
        """A layout read from a string (select-layout, layout_custom.py), its panes this
        window's, made the window's size (tmux sizes the window to it, then to its
        clients)."""
        old = self.layout
        self.layout = root
        layout.resize(root, old.width, old.height)
        root.place(old.x, old.y)
        self.zoomed = False
        self.fit_panes()

    @property
    def panes(self) -> list[Pane]:
        """In tmux's order (#{pane_index}): left to right, top to bottom."""
        return [leaf.pane for leaf in self.layout.leaves() if leaf.pane is not None]

    def select(self, pane: Pane) -> None:
        """Make `pane` the active one; another pane than the zoomed one unzooms, as in tmux."""
        if pane is not self.active:
            self.last, self.active = self.active, pane
            if self.zoomed:
                self.zoom(False)
        pane.mark_active()

    def zoom(self, zoomed: bool) -> None:
        """Zoom or unzoom the active pane; a window of one pane is never zoomed."""
        self.zoomed = zoomed and len(self.panes) > 1
        self.fit_panes()

    def visible_cells(self) -> list[Cell[Pane]]:
        """The panes as drawn: every leaf of the layout, or the zoomed one in a cell the
        size of the window; less the row a pane gives to the labels (`labels`)."""
        root = self.layout
        if self.zoomed:
            leaves = [Cell("pane", root.width, root.height, root.x, root.y, pane=self.active)]
        else:
            leaves = [leaf for leaf in root.leaves() if leaf.pane is not None]
        if self.labels == "off":
            return leaves
        return [self._below_labels(leaf) for leaf in leaves]

    def cell_of(self, pane: Pane) -> Cell[Pane]:
        """Where `pane` is drawn (`visible_cells`): its place and size as tmux reports
        them (#{pane_top}, #{pane_height})."""
        for cell in self.visible_cells():
            if cell.pane is pane:
                return cell
        return self._below_labels(self.layout.find(pane))

    def _below_labels(self, leaf: Cell[Pane]) -> Cell[Pane]:
        root = self.layout
        if leaf.height < 2:
            return leaf
        if self.labels == "top" and leaf.y == root.y:
            return Cell("pane", leaf.width, leaf.height - 1, leaf.x, leaf.y + 1, pane=leaf.pane)
        if self.labels == "bottom" and leaf.y + leaf.height == root.y + root.height:
            return Cell("pane", leaf.width, leaf.height - 1, leaf.x, leaf.y, pane=leaf.pane)
        return leaf

    def neighbour(self, pane: Pane, direction: tuple[int, int]) -> Pane:
        """The pane across the border in `direction` (wrapping around at the window's edge),
        the most recently active one when several touch it, as tmux chooses."""
        cell = self.layout.find(pane)
        root = self.layout
        dx, dy = direction
        if dx:
            edge = cell.x + cell.width + 1 if dx > 0 else cell.x - 1
            if dx > 0 and edge > root.x + root.width:
                edge = root.x
            if dx < 0 and cell.x == root.x:
                edge = root.x + root.width
            start, end = cell.y, cell.y + cell.height
        else:
            edge = cell.y + cell.height + 1 if dy > 0 else cell.y - 1
            if dy > 0 and edge > root.y + root.height:
                edge = root.y
            if dy < 0 and cell.y == root.y:
                edge = root.y + root.height
            start, end = cell.x, cell.x + cell.width
        candidates = []
        for other in root.leaves():
            if other is cell or other.pane is None:
                continue
            if dx:
                near = other.x if dx > 0 else other.x + other.width + 1
                low, high = other.y, other.y + other.height - 1
            else:
                near = other.y if dy > 0 else other.y + other.height + 1
                low, high = other.x, other.x + other.width - 1
            if dx < 0 or dy < 0:
                near -= 1
            if near != edge:
                continue
            if (low < start and high > end) or start <= low <= end or start <= high <= end:
                candidates.append(other.pane)
        return max(candidates, key=lambda p: p.active_point, default=pane)

    def fit_panes(self) -> None:
        """Give every pane its cell's size (after a split or a close)."""
        for leaf in self.visible_cells():
            pane = leaf.pane
            if pane is not None and (pane.terminal.cols, pane.terminal.rows) != (
                leaf.width, leaf.height
            ):
                pane.resize(leaf.width, leaf.height)


TYPING_WINDOW = 1.0
"""Seconds after a keystroke during which a flood in the session gives way to echoes."""


@dataclass(eq=False)
class Session:
    """Windows linked at indices (`links`); `current` is the active place, `last` the one
    before."""

    id: int
    name: str
    cols: int
    rows: int
    links: list[Winlink] = field(default_factory=list)
    """Where its windows stand, in index order."""
    created: float = field(default_factory=time.time)
    current: Winlink | None = None
    last: Winlink | None = None
    hooks: Hooks = field(default_factory=Hooks)
    """Hooks set on this session (set-hook without -g): over the global ones."""
    environment: Environment = field(default_factory=Environment)
    """The session environment (set-environment without -g): over the global one, what
    new panes start with; filled through update-environment by the creating client."""
    options: dict[str, str] = field(default_factory=dict)
    """Session options set for this session alone (set-option without -g): over the
    global ones."""
    path: str = ""
    """The directory it was started in (#{session_path})."""
    manual_size: bool = False
    """Set by resize-window -x/-y: the clients' sizes no longer change it."""
    last_typed: float = -TYPING_WINDOW
    """When a client last typed into the session (time.monotonic())."""
    activity_time: float = field(default_factory=time.time)
    """When a client last typed into it, or it was made (#{session_activity})."""
    last_attached: float = 0.0
    """When a client last attached to it (#{session_last_attached}; 0 never)."""
    snapshot: SessionSnapshot | None = None
    """The environment its shell builds from its startup files (mux/snapshots.py)."""
    group: SessionGroup | None = None
    """The sessions it shares its windows with (new-session -t), if any."""

    def note_typing(self) -> None:
        self.last_typed = time.monotonic()
        self.activity_time = time.time()

    def typed_recently(self) -> bool:
        """Someone typed in the last TYPING_WINDOW seconds: echoes come first."""
        return time.monotonic() - self.last_typed < TYPING_WINDOW

    @property
    def windows(self) -> list[Window]:
        """Its windows in index order, each once however often it is linked."""
        seen: dict[int, Window] = {}
        for link in self.links:
            seen.setdefault(link.window.id, link.window)
        return list(seen.values())

    @property
    def active_window(self) -> Window:
        assert self.current is not None, "a session always has a window"
        return self.current.window

    def has(self, window: Window) -> bool:
        """Whether `window` is linked here (tmux's session_has)."""
        return any(link.window is window for link in self.links)

    def link_of(self, window: Window) -> Winlink | None:
        """The place a target naming `window` means here, as tmux's
        cmd_find_best_winlink_with_window: the current one if it shows `window`, else
        its lowest index."""
        if self.current is not None and self.current.window is window:
            return self.current
        return next((link for link in self.links if link.window is window), None)

    def index_of(self, window: Window) -> int:
        """#{window_index} of `window` here (`link_of`'s)."""
        link = self.link_of(window)
        assert link is not None, f"@{window.id} is not linked to ${self.id}"
        return link.index

    def link_at(self, index: int) -> Winlink | None:
        return next((link for link in self.links if link.index == index), None)

    def window_flags(self, link: Winlink, *, marked: bool = False) -> str:
        """tmux's #{window_flags}, in its order: `#` activity, `!` bell, `*` current, `-`
        last, `M` holding the marked pane, `Z` zoomed (the status bar's too)."""
        window = link.window
        mark = "*" if link is self.current else "-" if link is self.last else ""
        alerts = ("#" if window.activity else "") + ("!" if window.bell else "")
        return alerts + mark + ("M" if marked else "") + ("Z" if window.zoomed else "")

    def free_index(self, base: int = 0) -> int:
        """The lowest window index from `base` not in use, as tmux picks for new-window."""
        used = {link.index for link in self.links}
        index = base
        while index in used:
            index += 1
        return index

    def add(self, window: Window, index: int, *, select: bool) -> Winlink:
        """Link `window` at `index` (free: the caller makes room), as tmux's winlink_add."""
        link = Winlink(index, window)
        self.links.append(link)
        self.sort()
        if select or self.current is None:
            self.select(link)
        return link

    def shuffle_up(self, link: Winlink, *, before: bool) -> int:
        """tmux's winlink_shuffle_up (-a, -b): the index after `link` (its own with
        `before`) made free by moving the windows from it to the next free index up by
        one."""
        index = link.index if before else link.index + 1
        used = {each.index: each for each in self.links}
        end = index
        while end in used:
            end += 1
        for moved in range(end - 1, index - 1, -1):
            used[moved].index += 1
        self.sort()
        return index

    def sort(self) -> None:
        """Back into index order after indices changed (swap-window, move-window -r)."""
        self.links.sort(key=lambda link: link.index)

    def select(self, link: Winlink) -> None:
        """Make `link` current: its window's alerts are seen now, so they go. A change
        makes the session active (tmux's session_set_current), which a target naming only
        a window goes by."""
        if link is not self.current:
            self.last, self.current = self.current, link
            self.activity_time = time.time()
        link.window.activity = link.window.bell = False

    def neighbour(self, step: int, *, alerted: bool = False) -> Winlink | None:
        """The link `step` (1 or -1) from the current in index order, round the ends
        (next-window, previous-window); with `alerted`, the nearest with an alert
        (activity or bell). None when there is no other."""
        assert self.current is not None
        count = len(self.links)
        start = self.links.index(self.current)
        for offset in range(1, count):
            link = self.links[(start + step * offset) % count]
            if not alerted or link.window.activity or link.window.bell:
                return link
        return None

    def unlink(self, link: Winlink) -> None:
        """Drop one place of a window (unlink-window, move-window); if it was current, the
        last window becomes current, else the one before it (round the start), as tmux's
        session_detach."""
        if link in self.links:
            self.links.remove(link)
        if self.last is link:
            self.last = None
        if self.current is link:
            self.current = self.last or self.before(link.index)
            self.last = None

    def before(self, index: int) -> Winlink | None:
        """The place before `index`, round the start to the highest (session_previous)."""
        below = [link for link in self.links if link.index < index] or self.links
        return below[-1] if below else None


@dataclass(eq=False)
class SessionGroup:
    """Sessions that share one set of windows at the same indices (new-session -t), as
    tmux's session_group: a window made, moved or gone in one is in all; each keeps a
    current window of its own. Named after the session it was made from, and keeps the
    name when that session is gone."""

    name: str
    sessions: list[Session] = field(default_factory=list)

    def copy_links(self, source: Session, to: Session) -> None:
        """`to` given `source`'s windows at `source`'s indices, as tmux's
        session_group_synchronize1: its current index stays current if it is still
        there, else its last, else the one before (round the start)."""
        if not source.links or to is source:
            return
        current = to.current.index if to.current is not None else (
            source.current.index if source.current is not None else None)
        last = to.last.index if to.last is not None else None
        to.links = [Winlink(link.index, link.window) for link in source.links]
        found = to.link_at(current) if current is not None else None
        if found is None and last is not None:
            found, last = to.link_at(last), None
        if found is None and current is not None:
            found = to.before(current)
        to.current = found or to.links[0]
        to.last = to.link_at(last) if last is not None else None
        if to.last is to.current:
            to.last = None


_LINKS_MADE = itertools.count()


@dataclass(eq=False)
class Winlink:
    """A window's place in a session, as tmux's struct winlink: one window may stand in
    several sessions (link-window, grouped sessions) and twice in one, each place with
    an index of its own; a session's current and last windows are places, not windows."""

    index: int
    window: Window
    order: int = field(default_factory=lambda: next(_LINKS_MADE))
    """When it was made, across the server: a window's places in the order tmux keeps
    them (#{window_linked_sessions_list})."""

