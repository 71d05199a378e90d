"""display-menu on a client: the menu's items, the keys it takes and how it is drawn, as
tmux 3.3a's menu.c.

A pure model with no I/O: the verb (mux/commands/overlays.py) gives it the items with
their formats expanded and learns the command chosen through `closed`, a future, since
tmux's display-menu waits for the menu to close. The client only routes keys here and
writes `draw`'s output over the panes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from prompt_toolkit.key_binding import KeyPress

from termhost.mux.format_draw import format_draw
from termhost.mux.format_text import format_width
from termhost.mux.style import Style, style_cell
from termhost.terminal.mouse import MouseEvent
from termhost.ui.box import BOX_LINES, box, separator
from termhost.ui.colours import TRUE_COLOUR
from termhost.ui.painter import cells_at

__all__ = ["Menu", "MenuItem"]


def _buttons(event: MouseEvent) -> int:
    """tmux's MOUSE_BUTTONS of the report: 3 for a release (SGR's `m`) or a motion with
    no button, the wheel up 0 and down 1, else the button."""
    if event.kind.startswith("wheel"):
        return 0 if event.kind == "wheel-up" else 1
    if event.kind == "release" or event.button is None:
        return 3
    return event.button

_CLOSE = frozenset({"Escape", "escape", "C-c", "C-g", "q"})
_CHOOSE = frozenset({"Enter", "C-m"})
_PAGE = 5
"""Items PageUp and PageDown move by, as tmux's menu."""


@dataclass(frozen=True)
class MenuItem:
    """One argument triple of display-menu: `name` (expanded; "" a separator line, a
    leading `-` disabled), the `key` that chooses it (a tmux key name, "" none) and
    the `command` it runs."""

    name: str
    key: str = ""
    command: str = ""

    @property
    def separator(self) -> bool:
        return not self.name

    @property
    def disabled(self) -> bool:
        return self.name.startswith("-")

    @property
    def selectable(self) -> bool:
        return not self.separator and not self.disabled

    def label(self) -> str:
        """The format drawn for it: its name, and its key in brackets at the right, as
        tmux's menu_add_item builds it (a disabled item shows no key)."""
        if self.disabled:
            return self.name[1:]
        if self.key:
            return f"{self.name}#[default] #[align=right]({self.key})"
        return self.name


class Menu:
    """An open menu: where it is (`x`, `y`: its box's top left) and which item is
    selected (`choice`, -1 none)."""

    def __init__(self, items: list[MenuItem], title: str, selected: Style, *,
                 mouse: bool = False, stay_open: bool = False) -> None:
        self.items = items
        self.title = title
        self.selected = selected
        self.by_mouse = mouse
        """Opened by a mouse key: the mouse chooses (else it only closes the menu), and
        nothing is selected until it moves over an item."""
        self.stay_open = stay_open
        """display-menu -O: the button's release does not close the menu nor choose
        outside it; a press chooses."""
        self.width = max((format_width(item.label()) for item in items), default=0)
        """The widest item: the box is 4 more, a border and a space each side."""
        self.x = self.y = 0
        self.choice = -1 if mouse else next(
            (i for i, item in enumerate(items) if item.selectable), -1)
        self.closed: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        """The command of the item chosen, or None once the menu closed without one."""

    @property
    def size(self) -> tuple[int, int]:
        """The box's width and height."""
        return self.width + 4, len(self.items) + 2

    def close(self, command: str | None = None) -> None:
        if not self.closed.done():
            self.closed.set_result(command)

    def placement(self) -> None:
        return None  # no pane of its own: the panes under it are painted as ever

    def press(self, press: KeyPress, name: str) -> None:
        """A key (`name`, its tmux name): an item's own key chooses it, before the
        menu's keys, as in tmux; Enter the selected one; q, Escape, C-c, C-g close."""
        for item in self.items:
            if item.selectable and item.key and item.key == name:
                self.close(item.command)
                return
        if name in _CLOSE:
            self.close()
        elif name in _CHOOSE:
            selected = self.items[self.choice] if self.choice >= 0 else None
            self.close(selected.command if selected is not None else None)
        elif name in ("Up", "k"):
            self._step(-1)
        elif name in ("Down", "j"):
            self._step(1)
        elif name in ("PageUp", "g"):
            self._page(-_PAGE)
        elif name in ("PageDown", "G"):
            self._page(_PAGE)

    def mouse(self, event: MouseEvent) -> None:
        """A mouse report, as tmux's menu_key_cb takes it. A menu the keyboard opened
        closes on a release or a button other than the left (MENU_NOMOUSE). Otherwise
        outside the items a release closes it (-O: a press does); inside, a motion
        selects the item under the mouse, and a release (-O: a press or a release)
        chooses the item selected (none yet: closes)."""
        buttons = _buttons(event)
        drag, wheel = event.kind == "motion", event.kind.startswith("wheel")
        release = event.kind == "release"
        if not self.by_mouse:
            if buttons != 0:
                self.close()
            return
        width, _ = self.size
        row = event.y - (self.y + 1)
        if event.x < self.x or event.x > self.x + width or not 0 <= row < len(self.items):
            if (release if not self.stay_open else not (release or wheel or drag)):
                self.close()
            else:
                self.choice = -1
            return
        if (release if not self.stay_open else not (wheel or drag)):
            item = self.items[self.choice] if self.choice >= 0 else None
            if item is not None and item.selectable:
                self.close(item.command)
            elif item is None or not self.stay_open:
                self.close()
            return
        self.choice = row

    def _step(self, step: int) -> None:
        """The next selectable item that way, round the ends."""
        count = len(self.items)
        start = self.choice if self.choice >= 0 else (0 if step > 0 else count - 1)
        for offset in range(1, count + 1):
            index = (start + offset * step) % count
            if self.items[index].selectable:
                self.choice = index
                return

    def _page(self, step: int) -> None:
        """`step` items on, stopping at the ends, then on to a selectable one."""
        last = len(self.items) - 1
        index = min(max(self.choice + step, 0), last)
        direction = 1 if step > 0 else -1
        while 0 <= index <= last and not self.items[index].selectable:
            index += direction
        if 0 <= index <= last:
            self.choice = index

    def draw(self, depth: int = TRUE_COLOUR) -> str:
        """The menu over whatever is under it: the box with the title, each item in the
        default colours (disabled ones dim), the selected one in `selected`
        (mode-style), as tmux's screen_write_menu."""
        selected = self.selected
        width, height = self.size
        lines = BOX_LINES["single"]
        plain = Style()
        out = [box(self.x, self.y, width, height, lines, plain, self.title, depth)]
        for index, item in enumerate(self.items):
            y = self.y + 1 + index
            if item.separator:
                out.append(separator(self.x, y, width, lines, plain, depth))
                continue
            # A disabled item's text is dim, not the rest of its row, as tmux draws it.
            label = "#[dim]" + item.label() if item.disabled else item.label()
            base = selected if index == self.choice and item.selectable else plain
            cells, _ = format_draw(label, base, self.width)
            margin = [style_cell(plain)]
            out.append(cells_at(margin + cells + margin, self.x + 1, y, depth))
        return "".join(out)
