"""Verbs of what a client draws over its panes: display-menu and display-popup, as tmux
3.3a's cmd-display-menu.c (which holds both).

Each finds its client (-c, else the current one: `no current client` when none is
attached), works out the box's place as tmux does (-x/-y as a number, a position
word or a format of the popup_* variables), hands the client what to show and waits
until it closes, as tmux's command does; the CLI that ran it returns then. The overlays
themselves are ui's (ui/menu.py, ui/popup.py), reached through the client's
`open_menu` and `open_popup`, never imported here: mux stays headless.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    args_percentage,
    assignments,
    command,
    find_pane,
    working_directory,
)
from termhost.mux.commands.clients import find_client
from termhost.mux.format_scope import format_target
from termhost.mux.format_variables import client_variables
from termhost.mux.formats import expand
from termhost.mux.model import Session, Window
from termhost.mux.option_table import TMUX_OPTIONS
from termhost.mux.pane import Pane
from termhost.mux.paths import PANE_VARIABLE, PaneVariable
from termhost.mux.style import Style, StyleError, parse_style
from termhost.mux.verbs import flag_count, flag_values

if TYPE_CHECKING:
    from termhost.mux.attached import Client

_X_WORDS = {"C": "#{popup_centre_x}", "R": "#{popup_pane_right}",
            "P": "#{popup_pane_left}", "M": "#{popup_mouse_centre_x}",
            "W": "#{popup_window_status_line_x}"}
_Y_WORDS = {"C": "#{popup_centre_y}", "P": "#{popup_pane_bottom}",
            "M": "#{popup_mouse_top}", "S": "#{popup_status_line_y}",
            "W": "#{popup_window_status_line_y}"}
"""-x and -y's position words as the formats tmux 3.3a puts in their place. (`R` is
the right of the target pane, as tmux does it, not of the terminal as its manual says.)"""
_BORDER_LINES = next(option.choices for option in TMUX_OPTIONS
                     if option.name == "popup-border-lines")


@dataclass
class _Target:
    """Who the overlay is for and what it is about: the client, and the pane (-t) its
    formats are expanded for and its commands target."""

    client: Client
    session: Session
    window: Window
    pane: Pane

    @classmethod
    def of(cls, context: Context, flags: dict[str, str]) -> _Target:
        client = find_client(context, flags.get("c"))
        target = flags.get("t") or f"${client.session.id}"
        session, window, pane = find_pane(context.server, target)
        return cls(client, session, window, pane)

    def expand(self, context: Context, template: str, extra: dict[str, str] | None = None
               ) -> str:
        values, scope = format_target(context.server, self.session, self.window, self.pane,
                                      owner=self.client)
        values.add(("client", functools.partial(client_variables, self.client)))
        values.update(extra or {})
        return expand(template, values, scope=scope)

    def place(self, context: Context, flags: dict[str, str], width: int, height: int
              ) -> tuple[int, int]:
        """The top left cell of a `width` x `height` box, as tmux's
        cmd_display_menu_get_position: -x is its left column and -y its bottom row (the
        row below it), each a number or a format; kept on the terminal. The mouse's
        places (M) come from the mouse key whose binding opened it, the window's in the
        status line (W) from the client's status line."""
        cols, rows = self.client.size.columns, self.client.size.rows
        cell = self.window.cell_of(self.pane)
        values = {
            "popup_width": str(width), "popup_height": str(height),
            "popup_centre_x": str((cols - 1) // 2 - width // 2),
            "popup_centre_y": str((rows - 1) // 2 + height // 2),
            "popup_pane_top": str(min(cell.y + height, rows - height)),
            "popup_pane_bottom": str(cell.y + cell.height),
            "popup_pane_left": str(cell.x),
            "popup_pane_right": str(max(0, cell.x + cell.width - width)),
        }
        if context.server.options.get("status") == "on":  # the status line's row
            values["popup_status_line_y"] = str(rows - 1)
            start = self.client.status_window_start(self.session.index_of(self.window))
            if start is not None:
                values["popup_window_status_line_x"] = str(start)
                values["popup_window_status_line_y"] = str(rows - 1)
        mouse = context.mouse
        if mouse is not None:  # the menu at the mouse, from a mouse key's binding
            x, y = mouse.event.x, mouse.event.y
            values.update({
                "popup_mouse_x": str(x), "popup_mouse_y": str(y),
                "popup_mouse_centre_x": str(max(x - width // 2, 0)),
                "popup_mouse_centre_y": str(y - height // 2 if y - height // 2 + height < rows
                                            else rows - height),
                "popup_mouse_top": str(y + height if y + 2 * height < rows
                                       else rows - height),
                "popup_mouse_bottom": str(max(y - height, 0)),
            })
        x = _number(self.expand(context, _X_WORDS.get(flags.get("x", "C"), flags.get("x", "")),
                                values))
        x = cols - width if x + width >= cols else max(x, 0)
        y = _number(self.expand(context, _Y_WORDS.get(flags.get("y", "C"), flags.get("y", "")),
                                values))
        y = 0 if y < height else y - height
        y = rows - height if y + height >= rows else y
        return x, y


def _number(text: str) -> int:
    """strtol's reading of an expanded position: its leading digits, else 0."""
    digits = text.strip()
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    end = 0
    while end < len(digits) and digits[end].isdigit():
        end += 1
    return sign * int(digits[:end]) if end else 0


@command("display-menu")
async def display_menu(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A menu on the client: name, key, command for each item ("" alone a separator);
    the chosen item's command runs for the target pane once the menu has closed. A
    menu larger than the terminal is not shown, as tmux's. Opened by a mouse key, the
    mouse chooses (ui/menu.py), -O keeping it open when the button is released."""
    target = _Target.of(context, flags)
    items: list[tuple[str, str, str]] = []
    index = 0
    while index < len(args):
        name = args[index]
        if not name:
            if items:  # a separator never starts a menu
                items.append(("", "", ""))
            index += 1
            continue
        if index + 2 >= len(args):
            raise CommandError("not enough arguments")
        key, text = args[index + 1], args[index + 2]
        index += 3
        name = target.expand(context, name)
        if name:  # an item whose name expands to nothing is left out
            items.append((name, key, target.expand(context, text)))
    if not items:
        return Result()
    client = target.client
    selected = _style(context.server.window_option(target.window, "mode-style"))
    closed = client.open_menu(items, target.expand(context, flags.get("T", "")), selected,
                              lambda width, height: target.place(context, flags, width,
                                                                 height),
                              mouse=context.mouse is not None, stay_open="O" in flags)
    chosen = await closed if closed is not None else None
    if chosen:  # as a binding's: for -t's pane, its error on the client's status line
        client.spawn(client.run_line(chosen, pane=target.pane))
    return Result()


def _style(text: str, base: Style | None = None) -> Style:
    """An option's or a flag's style over `base`; one tmux refuses leaves `base`, as an
    invalid -s or -S is ignored."""
    base = base or Style()
    try:
        return parse_style(text, base)
    except StyleError:
        return base


def _colours(option: str, given: str | None) -> Style:
    """A popup's (its border's) colours, as tmux's popup_display makes them: the
    option's style, or -s's (-S's) in its place where it parses, read from the default
    colours with `default` meaning the option's; the colours alone."""
    style = _style(option)
    if given is not None:
        try:
            style = parse_style(given, style, Style())
        except StyleError:
            pass
    return Style(fg=style.fg, bg=style.bg)


def _size(text: str | None, whole: int, what: str) -> int:
    """-w / -h: cells, or a percentage of the terminal's, 1 to all of it."""
    if text is None:
        return whole // 2
    size = args_percentage(text, whole, what)
    if size < 1:
        raise CommandError(f"{what} too small")
    if size > whole:
        raise CommandError(f"{what} too large")
    return size


@command("display-popup")
async def display_popup(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A popup on the client running the shell command (else the default shell); -E
    closes it when the command exits (-EE when it succeeds); the command's exit status
    is this one's, as tmux's; -C closes the client's popup (or menu). -s and -S colour
    it and its border over popup-style and popup-border-style."""
    target = _Target.of(context, flags)
    client = target.client
    if "C" in flags:
        client.close_overlay()
        return Result()
    cols, rows = client.size.columns, client.size.rows
    height = _size(flags.get("h"), rows, "height")
    width = _size(flags.get("w"), cols, "width")
    server = context.server
    lines: str | None = server.window_option(target.window, "popup-border-lines")
    if "b" in flags:
        if flags["b"] not in _BORDER_LINES:
            raise CommandError(f"popup-border-lines unknown value: {flags['b']}")
        lines = flags["b"]
    if "B" in flags or lines == "none":
        lines = None
    inside = (width, height) if lines is None else (width - 2, height - 2)
    if min(inside) < 1:
        return Result()  # no room inside the border: tmux shows nothing either
    x, y = target.place(context, flags, width, height)
    colours = _colours(server.window_option(target.window, "popup-style"), flags.get("s"))
    border = _colours(server.window_option(target.window, "popup-border-style"),
                      flags.get("S"))
    env = {**server.environ_of(target.session),
           "TERM": server.options.get("default-terminal"),
           PANE_VARIABLE: str(PaneVariable(server.path, os.getpid(), target.session.id))}
    env.update(assignments(flag_values(flags, "e")))
    shell = server.default_shell(env)
    if len(args) == 1:
        argv = [shell, "-c", args[0]]
    elif args:
        argv = list(args)
    else:
        argv = [shell]
    cwd = working_directory(context, {"c": flags["d"]} if "d" in flags else {},
                            target.session, target.window, target.pane)
    pane = await Pane.start(-1, argv, env=env, cwd=cwd, cols=inside[0], rows=inside[1],
                            history_limit=0)
    closed = client.open_popup(pane, (x, y, width, height), lines, border,
                               target.expand(context, flags.get("T", "")),
                               min(flag_count(flags, "E"), 2), colours)
    return Result(status=await closed if closed is not None else 0)
