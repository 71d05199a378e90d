"""Sessions hold windows, windows hold panes: the server's state, with tmux's ids.

Ids are never reused while the server lives (`$0 $1`, `@0 @1`, `%0 %1`), as in tmux, so a
script holding one never reaches a newer object by mistake. A window has a single pane for
now (layouts come with split-window).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from termhost.mux.pane import Pane

__all__ = ["Session", "Window"]


@dataclass(eq=False)
class Window:
    id: int
    index: int
    name: str
    pane: Pane

    @property
    def panes(self) -> list[Pane]:
        return [self.pane]


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
