"""Sessions hold windows, windows hold a layout of panes: the server's state.

Ids are never reused while the server lives (`$0 $1`, `@0 @1`, `%0 %1`), as in tmux, so a
script holding one never reaches a newer object by mistake.
"""

from __future__ import annotations

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

__all__ = ["DOWN", "LEFT", "RIGHT", "UP", "Session", "Window"]

LEFT, RIGHT, UP, DOWN = (-1, 0), (1, 0), (0, -1), (0, 1)
"""Directions (dx, dy) for `Window.neighbour`: select-pane -L -R -U -D, C-b arrows."""


@dataclass(eq=False)
class Window:
    """Panes in a layout tree; `active` takes the keys, `last` is the one before it."""

    id: int
    index: int
    name: str
    layout: Cell[Pane]
    active: Pane
    last: Pane | None = None
    zoomed: bool = False
    """The active pane fills the window (C-b z, resize-pane -Z); the layout is kept."""
    preset: str | None = None
    """The select-layout preset last applied, where next-layout (C-b Space) goes on from."""
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
    """Windows kept in index order; `current` is the active one, `last` the one before."""

    id: int
    name: str
    cols: int
    rows: int
    windows: list[Window] = field(default_factory=list)
    created: float = field(default_factory=time.time)
    current: Window | None = None
    last: Window | None = None
    hooks: Hooks = field(default_factory=Hooks)
    """Hooks set on this session (set-hook without -g): over the global ones."""
    environment: Environment = field(default_factory=Environment)
    """The session environment (set-environment without -g): over the global one, what
    new panes start with; filled through update-environment by the creating client."""
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

    def note_typing(self) -> None:
        self.last_typed = time.monotonic()
        self.activity_time = time.time()

    def typed_recently(self) -> bool:
        """Someone typed in the last TYPING_WINDOW seconds: echoes come first."""
        return time.monotonic() - self.last_typed < TYPING_WINDOW

    @property
    def active_window(self) -> Window:
        assert self.current is not None, "a session always has a window"
        return self.current

    def window_flags(self, window: Window, *, marked: bool = False) -> str:
        """tmux's #{window_flags}, in its order: `#` activity, `!` bell, `*` current, `-`
        last, `M` holding the marked pane, `Z` zoomed (the status bar's too)."""
        mark = "*" if window is self.current else "-" if window is self.last else ""
        alerts = ("#" if window.activity else "") + ("!" if window.bell else "")
        return alerts + mark + ("M" if marked else "") + ("Z" if window.zoomed else "")

    def free_index(self, base: int = 0) -> int:
        """The lowest window index from `base` not in use, as tmux picks for new-window."""
        used = {window.index for window in self.windows}
        index = base
        while index in used:
            index += 1
        return index

    def add(self, window: Window, *, select: bool) -> None:
        self.windows.append(window)
        self.windows.sort(key=lambda w: w.index)
        if select or self.current is None:
            self.select(window)

    def select(self, window: Window) -> None:
        """Make `window` current: its alerts are seen now, so they go."""
        if window is not self.current:
            self.last, self.current = self.current, window
        window.activity = window.bell = False

    def neighbour(self, step: int, *, alerted: bool = False) -> Window | None:
        """The window `step` (1 or -1) from the current in index order, round the ends
        (next-window, previous-window); with `alerted`, the nearest with an alert
        (activity or bell). None when there is no other."""
        count = len(self.windows)
        start = self.windows.index(self.active_window)
        for offset in range(1, count):
            window = self.windows[(start + step * offset) % count]
            if not alerted or window.activity or window.bell:
                return window
        return None

    def remove(self, window: Window) -> None:
        """Drop a closed window; the last window (else the first) becomes current."""
        if window in self.windows:
            self.windows.remove(window)
        if self.last is window:
            self.last = None
        if self.current is window:
            self.current = self.last or (self.windows[0] if self.windows else None)
            self.last = None
