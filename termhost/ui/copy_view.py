"""Copy mode on a client's screen: the frame that shows a pane's CopyMode in the pane's
place, and the keys and prompts one client drives it with.

The frame is drawn as plain text over the pane's
cells, with tmux's mode-style (black on yellow) for the selection and the position
indicator, cyan for search matches (magenta the current one) and the cursor's cell in
reverse video; the pane's live output goes on underneath and shows again on leaving.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Protocol

from termhost.mux.copy_mode import Action, CopyMode
from termhost.mux.pane import Pane
from termhost.ui.colours import OverlayStyles
from termhost.ui.painter import Placement
from termhost.ui.prompt import Prompt

__all__ = ["CopyHost", "CopySession", "frame"]

_PROMPT_LABELS = {"search-forward": "(search down) ", "search-backward": "(search up) ",
                  "goto-line": "(goto line) "}

_PLAIN = "\x1b[0m"
_CURSOR = "\x1b[0;7m"


def frame(mode: CopyMode, placement: Placement, styles: OverlayStyles) -> str:
    """The writes that show copy mode's view in the pane's cells."""
    rows = mode.rows
    out: list[str] = []
    cursor_x, cursor_y = mode.cursor
    width = min(placement.width, mode.width)
    for y in range(min(placement.height, mode.height)):
        line = mode.top + y
        out.append(f"\x1b[{placement.y + y + 1};{placement.x + 1}H")
        if line >= len(rows):
            out.append(_PLAIN + " " * width)
            continue
        selected = mode.selection_spans(line)
        matches = mode.match_spans(line)
        style = None
        for x in range(width):
            glyph = rows[line][x]
            if glyph == "":
                continue  # the wide character before it covers this cell
            if (x, line) == (cursor_x, cursor_y):
                wanted = _CURSOR
            elif any(start <= x < end for start, end in selected):
                wanted = styles.selected
            elif any(start <= x < end for start, end in matches):
                current = mode.current_match is not None and mode.current_match.covers(x, line)
                wanted = styles.current if current else styles.match
            else:
                wanted = _PLAIN
            if wanted != style:
                out.append(wanted)
                style = wanted
            out.append(glyph)
    indicator = "" if mode.hide_position else mode.position_indicator()
    if indicator and len(indicator) <= width:
        x = placement.x + width - len(indicator)
        out.append(f"\x1b[{placement.y + 1};{x + 1}H{styles.selected}{indicator}")
    out.append(_PLAIN)
    return "".join(out)


class CopyHost(Protocol):
    """What copy mode asks of the client it runs in."""

    def open_prompt(self, prompt: Prompt) -> None: ...
    def show_message(self, message: str) -> None: ...
    def repaint(self) -> None: ...
    def leave_copy_mode(self) -> None: ...


class CopySession:
    """A pane's copy mode (or view mode) as one client drives it: its keys, its prompts
    (search, goto line) and what it copies (`copied`, a paste buffer's new text)."""

    def __init__(self, pane: Pane, mode: CopyMode, host: CopyHost,
                 copied: Callable[[str, str | None], None]) -> None:
        self.pane, self.mode = pane, mode
        self._host, self._copied = host, copied

    def press(self, name: str) -> None:
        self._act(self.mode.press("Space" if name == " " else name))

    def mouse_up(self) -> None:
        """The mouse button released: a drag's selection copied, and copy mode left."""
        self._act(self.mode.mouse_up())

    def _act(self, action: Action | None) -> None:
        if action is not None and action.kind == "copy":
            self._copied(action.text, action.pipe)
        if action is not None and (action.kind == "exit" or (action.kind == "copy"
                                                             and not action.stay)):
            self._host.leave_copy_mode()
            return
        if action is not None and action.kind == "prompt":
            label = _PROMPT_LABELS.get(action.text, action.text + " ")
            self._host.open_prompt(Prompt(label, "", functools.partial(self._answer, action.text)))
            return
        self._shown()

    def _answer(self, prompt: str, answer: str) -> None:
        if not answer:
            return
        if prompt == "goto-line":
            if answer.isdigit():
                self.mode.goto_line(int(answer))
        else:
            self.mode.search(answer, prompt != "search-backward")
        self._shown()

    def _shown(self) -> None:
        if self.mode.message:
            self._host.show_message(self.mode.message)
        self._host.repaint()
