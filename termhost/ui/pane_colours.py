"""A pane's default colours: window-style, and window-active-style for the active pane.

As tmux's tty_default_colours: a cell the program left in the terminal's default
foreground (background) is drawn in the style's instead; only the two colours are taken,
not the attributes. The active pane takes window-active-style's colour where that is not
`default`, else window-style's. A style holding a format (`#{?pane_active,...}`) is
expanded for the pane; one that does not parse (select-pane -P stores what it is given,
unchecked, as tmux 3.3a) leaves the colours as they are.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from termhost.mux.format_scope import format_target
from termhost.mux.formats import expand
from termhost.mux.style import StyleError, parse_style

if TYPE_CHECKING:
    from termhost.mux.model import Session, Window
    from termhost.mux.pane import Pane
    from termhost.mux.server import Server

__all__ = ["DEFAULT_COLOURS", "default_colours"]

DEFAULT_COLOURS = ("default", "default")
"""The terminal's own: nothing to change in the cells."""


def default_colours(server: Server, session: Session, window: Window, pane: Pane
                    ) -> tuple[str, str]:
    """(fg, bg) that `pane`'s default-coloured cells are drawn in."""
    fg, bg = _colours(server, session, window, pane, "window-style")
    if pane is window.active:
        active_fg, active_bg = _colours(server, session, window, pane, "window-active-style")
        fg = fg if active_fg == "default" else active_fg
        bg = bg if active_bg == "default" else active_bg
    return fg, bg


def _colours(server: Server, session: Session, window: Window, pane: Pane,
             option: str) -> tuple[str, str]:
    text = server.pane_option(window, pane, option)
    if "#{" in text:
        values, scope = format_target(server, session, window, pane)
        text = expand(text, values, scope=scope)
    return _parsed(text)


@functools.lru_cache(maxsize=256)
def _parsed(text: str) -> tuple[str, str]:
    try:
        style = parse_style(text)
    except StyleError:
        return DEFAULT_COLOURS
    return (("default" if style.fg == "terminal" else style.fg),
            ("default" if style.bg == "terminal" else style.bg))
