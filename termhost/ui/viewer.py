"""A read-only text view in place of the window: tmux's view mode, as `C-b ?` shows the
key bindings in.

It takes every key of its client while open. Lines move with Up/Down (k/j, C-p/C-n),
pages with PageUp/PageDown (C-b/C-f, Space), g/G (Home/End) go to the top and bottom,
and q, Escape or C-c close it. As in tmux, the first row shows the position,
`[top/last]`, at its right.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TextView"]

_LINE_KEYS = {"Up": -1, "k": -1, "C-p": -1, "Down": 1, "j": 1, "C-n": 1}
_PAGE_KEYS = {"PageUp": -1, "PPage": -1, "C-b": -1, "PageDown": 1, "NPage": 1, "C-f": 1,
              "Space": 1, " ": 1}
_CLOSE_KEYS = {"q", "Escape", "escape", "C-c"}


@dataclass
class TextView:
    lines: list[str]
    top: int = 0
    """The index of the first line shown."""

    def key(self, name: str, height: int) -> bool:
        """Take one key by its tmux name with `height` rows shown; True: close."""
        if name in _CLOSE_KEYS:
            return True
        last = max(0, len(self.lines) - height)
        if name in _LINE_KEYS:
            self.top += _LINE_KEYS[name]
        elif name in _PAGE_KEYS:
            self.top += _PAGE_KEYS[name] * max(1, height - 1)
        elif name in ("g", "Home"):
            self.top = 0
        elif name in ("G", "End"):
            self.top = last
        self.top = min(max(0, self.top), last)
        return False

    def rows(self, width: int, height: int) -> list[str]:
        """What shows in `width` x `height` cells: the lines from `top`, cut to the
        width, the position over the end of the first."""
        shown = [line[:width].ljust(width) for line in self.lines[self.top : self.top + height]]
        shown += [" " * width] * (height - len(shown))
        position = f"[{self.top}/{max(0, len(self.lines) - height)}]"
        if shown and len(position) <= width:
            shown[0] = shown[0][: width - len(position)] + position
        return shown
