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


@dataclass
class Window:
    id: int
    index: int
    name: str
    pane: Pane

    @property
    def panes(self) -> list[Pane]:
        return [self.pane]


@dataclass
class Session:
    id: int
    name: str
    cols: int
    rows: int
    windows: list[Window] = field(default_factory=list)
    created: float = field(default_factory=time.time)

    @property
    def active_window(self) -> Window:
        return self.windows[-1]
