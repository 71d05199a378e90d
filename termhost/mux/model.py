"""Sessions hold windows, windows hold a layout of panes: the server's state.

Ids are never reused while the server lives (`$0 $1`, `@0 @1`, `%0 %1`), as in tmux, so a
script holding one never reaches a newer object by mistake.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from termhost.mux.layout import Cell
from termhost.mux.pane import Pane

__all__ = ["Session", "Window"]


@dataclass(eq=False)
class Window:
    """Panes in a layout tree; `active` takes the keys, `last` is the one before it."""

    id: int
    index: int
    name: str
    layout: Cell[Pane]
    active: Pane
    last: Pane | None = None

    @property
    def panes(self) -> list[Pane]:
        """In tmux's order (#{pane_index}): left to right, top to bottom."""
        return [leaf.pane for leaf in self.layout.leaves() if leaf.pane is not None]

    def select(self, pane: Pane) -> None:
        if pane is not self.active:
            self.last, self.active = self.active, pane
        pane.mark_active()

    def fit_panes(self) -> None:
        """Give every pane its cell's size (after a split or a close)."""
        for leaf in self.layout.leaves():
            pane = leaf.pane
            if pane is not None and (pane.terminal.cols, pane.terminal.rows) != (
                leaf.width, leaf.height
            ):
                pane.resize(leaf.width, leaf.height)


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
    env: dict[str, str] = field(default_factory=dict)
    """The environment of the client that created it: new panes start with it."""

    @property
    def active_window(self) -> Window:
        assert self.current is not None, "a session always has a window"
        return self.current

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
        if window is not self.current:
            self.last, self.current = self.current, window

    def remove(self, window: Window) -> None:
        """Drop a closed window; the last window (else the first) becomes current."""
        if window in self.windows:
            self.windows.remove(window)
        if self.last is window:
            self.last = None
        if self.current is window:
            self.current = self.last or (self.windows[0] if self.windows else None)
            self.last = None
