"""The status line, as tmux 3.3a's status_redraw draws it: `status-format[0]` expanded
for the client's session, then drawn (mux/format_draw.py) in `status-style`.

Everything a tmux user styles the line with goes through this one format: status-left and
status-right (with their -style and -length), window-status-format and
window-status-current-format with their styles, window-status-separator, status-justify,
and the `#[...]` styles in any of them. The drawn line also carries the ranges a mouse
click is looked up in (`window_at`).

termhost keeps one thing of its own: while `status-style` is tmux's default, the line
takes the colours of the theme (`class:status`), as it always did; a status-style the
user set is drawn as tmux draws it. On a terminal without automatic margins
(terminal-overrides `am@`), the bottom right cell is left alone, as tmux's tty_cell does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import StyleAndTextTuples

from termhost.mux.format_draw import StatusRange, format_draw
from termhost.mux.format_scope import Redraw, format_target
from termhost.mux.formats import expand
from termhost.mux.model import Session, Winlink
from termhost.mux.option_table import TMUX_OPTIONS
from termhost.mux.options import Scoped
from termhost.mux.style import ANSI_NAMES, Style, StyleError, parse_colour, parse_style
from termhost.terminal.cell import WIDE_STUB, Cell
from termhost.ui.colours import PTK_ANSI

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["cell_style", "status_bar", "status_line", "window_at"]

_THEME = "theme"
"""The colour of a status line drawn in the theme's colours: no colour of its own, so
that `class:status` shows through."""

_DEFAULT_STATUS_STYLE = next(option.default for option in TMUX_OPTIONS
                             if option.name == "status-style")


def _base(options: Scoped) -> Style:
    """The line's own style: status-style, then status-fg and status-bg over it where
    they are not `default`, as tmux's status_redraw sets its default cell."""
    value = options.get("status-style")
    fg, bg = (parse_colour(options.get(name)) for name in ("status-fg", "status-bg"))
    if value == _DEFAULT_STATUS_STYLE and fg == bg == "default":
        return Style(fg=_THEME, bg=_THEME)
    try:
        style = parse_style(value)
    except StyleError:
        style = Style(fg=_THEME, bg=_THEME)
    return replace(style, fg=style.fg if fg in (None, "default") else fg,
                   bg=style.bg if bg in (None, "default") else bg)


def status_line(server: Server, session: Session, width: int, *,
                client: object | None = None, redraw: Redraw | None = None,
                extra: Mapping[str, str] | None = None
                ) -> tuple[list[Cell], list[StatusRange]]:
    """The cells of the status line of `client`, attached to `session`, `width` columns
    wide, and its mouse ranges; `redraw` is called when a `#()` in it printed; `extra`
    the client's variables of the window it shows (#{window_offset_x}). The session's
    own options (set-option without -g) over the global ones."""
    options = Scoped(server.options, session.options)
    template = options.inherited("status-format", 0)
    text = template[0][1] if template and template[0][1] is not None else ""
    values, scope = format_target(server, session, owner=client, redraw=redraw)
    values.update(extra or {})
    expanded = expand(text, values, scope=scope, strftime=True)
    return format_draw(expanded, _base(options), width)


_ATTRIBUTES = (("bold", "bold"), ("faint", "dim"), ("italics", "italic"),
               ("underscore", "underline"), ("blink", "blink"), ("reverse", "reverse"),
               ("strikethrough", "strike"))


_NAMED = {**{name: PTK_ANSI[index] for index, name in enumerate(ANSI_NAMES)},
          **{"bright" + name: PTK_ANSI[8 + index] for index, name in enumerate(ANSI_NAMES)}}
"""tmux's names of the sixteen colours as prompt_toolkit's: tmux's `white` is SGR 37,
which prompt_toolkit calls ansigray (its ansiwhite is 97, tmux's brightwhite)."""


def _colour(colour: str) -> str:
    if colour in ("default", "terminal"):
        return "ansidefault"
    return _NAMED.get(colour) or "#" + colour


def cell_style(cell: Cell) -> str:
    """The prompt_toolkit style that draws `cell` on top of `class:status`."""
    parts = ["class:status"]
    if cell.fg != _THEME:
        parts.append("fg:" + _colour(cell.fg))
    if cell.bg != _THEME:
        parts.append("bg:" + _colour(cell.bg))
    parts += [name for flag, name in _ATTRIBUTES if getattr(cell, flag)]
    return " ".join(parts)


def status_bar(server: Server, session: Session, width: int, *, last_cell: bool = True,
               client: object | None = None, redraw: Redraw | None = None,
               extra: Mapping[str, str] | None = None) -> StyleAndTextTuples:
    """The status line as prompt_toolkit fragments; without `last_cell` (a terminal
    without automatic margins, the line at the bottom) the last column is left
    unwritten."""
    cells, _ = status_line(server, session, width, client=client, redraw=redraw,
                           extra=extra)
    if not last_cell and cells:
        cells = cells[:-1]
    fragments: StyleAndTextTuples = []
    for cell in cells:
        if cell.data == WIDE_STUB:
            continue
        style = cell_style(cell)
        if fragments and fragments[-1][0] == style:
            fragments[-1] = (style, fragments[-1][1] + cell.data)
        else:
            fragments.append((style, cell.data))
    if not last_cell:
        fragments.append(("", " "))
    return fragments


def window_at(server: Server, session: Session, width: int, x: int, *,
              client: object | None = None) -> Winlink | None:
    """The window whose range in the status line of `client` covers column `x` (a click
    on it selects it, as tmux's MouseDown1Status)."""
    _, ranges = status_line(server, session, width, client=client)
    for found in ranges:
        if found.kind == "window" and found.start <= x < found.end:
            return session.link_at(found.argument)
    return None
