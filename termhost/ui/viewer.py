"""A read-only text view in place of the window: tmux's view mode, as `C-b ?` shows the
key bindings in.

It takes every key of its client while open. Lines move with Up/Down (k/j, C-p/C-n),
pages with PageUp/PageDown (C-b/C-f, Space), g/G (Home/End) go to the top and bottom,
and q, Escape or C-c close it. As in tmux, the first row shows the position,
`[top/last]`, at its right.

`/` and `?` search down and up, as in tmux's view mode (which is copy mode): the client
prompts for the text and hands it to `search`; n and N repeat the search the same way and
the other. Search takes a regular expression with smart case, as copy mode's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from termhost.mux.copy_mode import Action, search_expression

__all__ = ["TextView"]

_LINE_KEYS = {"Up": -1, "k": -1, "C-p": -1, "Down": 1, "j": 1, "C-n": 1}
_PAGE_KEYS = {"PageUp": -1, "PPage": -1, "C-b": -1, "PageDown": 1, "NPage": 1, "C-f": 1,
              "Space": 1, " ": 1}
_CLOSE_KEYS = {"q", "Escape", "escape", "C-c"}
_SEARCH_KEYS = {"/": "search-forward", "?": "search-backward"}
"""The prompts a search key asks for, named as copy mode's so one client path serves both."""


@dataclass
class TextView:
    lines: list[str]
    top: int = 0
    """The index of the first line shown."""
    message: str | None = None
    """What to tell the user after the last search, as copy mode's `message`."""
    _text: str = field(default="", init=False, repr=False)
    _pattern: re.Pattern[str] | None = field(default=None, init=False, repr=False)
    _forward: bool = field(default=True, init=False, repr=False)
    _found: int | None = field(default=None, init=False, repr=False)
    """The line the last search stopped on, where n and N go on from: `top` cannot
    reach a match in the last page, so it would not do."""

    def key(self, name: str, height: int) -> bool:
        """Take one key by its tmux name with `height` rows shown; True: close. For
        callers that only need to know when to close; `press` also asks for prompts."""
        action = self.press(name, height)
        return action is not None and action.kind == "exit"

    def press(self, name: str, height: int) -> Action | None:
        """Take one key by its tmux name with `height` rows shown; an Action when the
        client has something to do: "exit", or "prompt" for the text of a search
        (`text` "search-forward" or "search-backward"), then call `search`."""
        self.message = None
        last = self._last(height)
        self.top = min(self.top, last)  # a search may have left it past the last page
        if name in _CLOSE_KEYS:
            return Action("exit")
        if name in _SEARCH_KEYS:
            return Action("prompt", _SEARCH_KEYS[name])
        if name in _LINE_KEYS:
            self.top += _LINE_KEYS[name]
        elif name in _PAGE_KEYS:
            self.top += _PAGE_KEYS[name] * max(1, height - 1)
        elif name in ("g", "Home"):
            self.top = 0
        elif name in ("G", "End"):
            self.top = last
        elif name in ("n", "N") and self._pattern is not None:
            self._next(self._forward == (name == "n"))
        self.top = min(max(0, self.top), last)
        return None

    def search(self, text: str, forward: bool) -> bool:
        """Bring the next line holding `text` to the top (down from the top line, or up
        from the one above it), round the ends if need be; False, and the view left
        alone, when no line holds it (`search_expression`: a regular expression, or
        plain text if it is none; without upper case, either case matches)."""
        self.message = None
        if not text:
            return False
        self._text = text
        self._pattern = search_expression(text)
        self._forward = forward
        self._found = None
        return self._next(forward)

    def rows(self, width: int, height: int) -> list[str]:
        """What shows in `width` x `height` cells: the lines from `top`, cut to the
        width, the position over the end of the first."""
        return ["".join(text for _, text in row) for row in self.styled_rows(width, height)]

    def styled_rows(self, width: int, height: int) -> list[list[tuple[str, str]]]:
        """`rows` as (style class, text) fragments: "match" over the search's matches,
        "position" over the position indicator, "" elsewhere."""
        top = min(self.top, self._last(height))
        position = f"[{top}/{self._last(height)}]"
        shown: list[list[tuple[str, str]]] = []
        for y in range(height):
            line = self.lines[top + y] if top + y < len(self.lines) else ""
            cut = width - len(position) if y == 0 and len(position) <= width else width
            row = self._fragments(line, cut)
            if cut < width:
                row.append(("position", position))
            shown.append(row)
        return shown

    def _fragments(self, line: str, width: int) -> list[tuple[str, str]]:
        """`line` cut and padded to `width`, split at the edges of the matches in it;
        the matches are found in the whole line, so one cut off by the width is
        highlighted as far as it shows."""
        text = line[:width].ljust(width)
        out: list[tuple[str, str]] = []
        at = 0
        matches = self._pattern.finditer(line) if self._pattern is not None else ()
        for match in matches:
            start, end = match.start(), min(match.end(), width)
            if start >= width:
                break
            if start > at:
                out.append(("", text[at:start]))
            out.append(("match", text[start:end]))
            at = end
        if at < width or not out:
            out.append(("", text[at:]))
        return out

    def _last(self, height: int) -> int:
        return max(0, len(self.lines) - height)

    def _next(self, forward: bool) -> bool:
        """Go to the next line with a match from where the search stands; the view
        shows it at the top, or as near the top as the end of the text allows."""
        assert self._pattern is not None
        count = len(self.lines)
        if self._found is None:
            start = self.top if forward else self.top - 1
        else:
            start = self._found + (1 if forward else -1)
        step = 1 if forward else -1
        for n in range(count):
            y = (start + n * step) % count
            if self._pattern.search(self.lines[y]):
                if (y < start) if forward else (y > start):
                    self.message = "Search wrapped"
                self._found = y
                self.top = y
                return True
        self.message = f"Pattern not found: {self._text}"
        return False
