"""tmux styles: `status-style bg=green,fg=black` and the `#[...]` inside formats.

A style is tmux's `struct style`: the colours and attributes of a grid cell, and the
marks format_draw.py reads (alignment, fill, the window list's parts, mouse ranges,
push-default/pop-default). `parse_style` is tmux 3.3a's style_parse term by term: terms
split on spaces, commas and newlines, case ignored, `default` meaning the base style given
(the one an option or a `push-default` set) and `fg=default` that base's colour; an
invalid term refuses the whole style, leaving it as it was, as tmux does.

Colours keep the emulator's spelling (terminal/cell.py: "default", "red", "brightred",
"rrggbb"), so a drawn style is a `Cell`; `terminal` (the terminal's own default, which no
`default` replaces) draws as "default". The 256 palette and X11 names become RGB.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from termhost.mux.colour_names import colour_rgb
from termhost.terminal.cell import Cell

__all__ = ["ANSI_NAMES", "ATTRIBUTES", "Style", "StyleError", "colour_string", "parse_colour",
           "parse_style", "style_cell"]

Align = Literal["default", "left", "centre", "right", "absolute-centre"]
ListPart = Literal["off", "on", "focus", "left-marker", "right-marker"]
RangeKind = Literal["none", "left", "right", "window"]
DefaultType = Literal["base", "push", "pop"]

ATTRIBUTES = ("acs", "bright", "dim", "underscore", "blink", "reverse", "hidden", "italics",
              "strikethrough", "double-underscore", "curly-underscore", "dotted-underscore",
              "dashed-underscore", "overline")
"""tmux's attribute names (attributes_fromstring), `bold` being another name for bright."""

ANSI_NAMES = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
"""tmux's names of the eight colours, in SGR order."""
_DELIMITERS = re.compile(r"[ ,\n]+")


class StyleError(ValueError):
    """A style tmux refuses; the message is tmux's (`invalid style: ...`)."""


@dataclass(frozen=True)
class Style:
    fg: str = "default"
    bg: str = "default"
    us: str = "default"
    """The underline colour (`us=`)."""
    attributes: frozenset[str] = frozenset()
    fill: str | None = None
    """`fill=`: the colour the whole line is cleared to first; None for none."""
    align: Align = "default"
    list: ListPart = "off"
    range: RangeKind = "none"
    range_argument: int = 0
    """A `range=window|N`'s window index."""
    default_type: DefaultType = "base"
    ignore: bool = False


def parse_colour(text: str) -> str | None:
    """tmux's colour_fromstring in the emulator's spelling; None for a colour tmux refuses.
    `default` is "default" and `terminal` "terminal"."""
    lowered = text.lower()
    if lowered in ("default", "8"):
        return "default"
    if lowered in ("terminal", "9"):
        return "terminal"
    if lowered in ANSI_NAMES:
        return lowered
    if len(text) == 1 and text in "01234567":
        return ANSI_NAMES[int(text)]
    if lowered.startswith("bright") and lowered[6:] in ANSI_NAMES:
        return lowered
    if len(text) == 2 and text[0] == "9" and text[1] in "01234567":
        return "bright" + ANSI_NAMES[int(text[1])]
    rgb = colour_rgb(text)
    return None if rgb is None else f"{rgb:06x}"


def colour_string(text: str) -> str | None:
    """A colour option's value as tmux keeps and shows it (colour_tostring of
    colour_fromstring): `colour81` for `color81`, `#89b4fa` for `#89B4FA`, an X11 name
    as its `#rrggbb`; None for a colour tmux refuses."""
    colour = parse_colour(text)
    if colour is None or not re.fullmatch(r"[0-9a-f]{6}", colour):
        return colour
    lowered = text.lower()
    for prefix in ("colour", "color"):
        if lowered.startswith(prefix):
            return f"colour{int(text[len(prefix):])}"
    return f"#{colour}"


def _attribute_mask(text: str) -> frozenset[str] | None:
    """attributes_fromstring: names split on spaces, commas and `|`; None if one is
    unknown."""
    names: set[str] = set()
    for word in re.split(r"[ ,|]+", text.lower()):
        if not word:
            continue
        if word == "bold":
            word = "bright"
        if word not in ATTRIBUTES:
            return None
        names.add(word)
    return frozenset(names) if names else None


def _term(style: Style, term: str, base: Style) -> Style | None:
    """One term applied to `style`, or None when tmux refuses it."""
    lowered = term.lower()
    if lowered == "default":
        return replace(style, fg=base.fg, bg=base.bg, us=base.us, attributes=base.attributes)
    simple: dict[str, dict[str, object]] = {
        "ignore": {"ignore": True}, "noignore": {"ignore": False},
        "push-default": {"default_type": "push"}, "pop-default": {"default_type": "pop"},
        "nolist": {"list": "off"}, "norange": {"range": "none", "range_argument": 0},
        "noalign": {"align": "default"}, "none": {"attributes": frozenset()},
    }
    if lowered in simple:
        return replace(style, **simple[lowered])  # type: ignore[arg-type]
    name, equals, value = lowered.partition("=")
    if equals and name == "list":
        if value not in ("on", "focus", "left-marker", "right-marker"):
            return None
        return replace(style, list=value)  # type: ignore[arg-type]
    if equals and name == "range" and value:
        kind, bar, argument = value.partition("|")
        if kind in ("left", "right") and not bar:
            return replace(style, range=kind, range_argument=0)  # type: ignore[arg-type]
        if kind == "window" and argument.isdigit() and int(argument) <= 0xFFFFFFFF:
            return replace(style, range="window", range_argument=int(argument))
        return None
    if equals and name == "align" and value:
        if value not in ("left", "centre", "right", "absolute-centre"):
            return None
        return replace(style, align=value)  # type: ignore[arg-type]
    if equals and name in ("fill", "fg", "bg", "us") and value:
        colour = parse_colour(term[len(name) + 1:])
        if colour is None:
            return None
        if name == "fill":
            return replace(style, fill=None if colour == "default" else colour)
        inherited = colour == "default"
        if name == "fg":
            return replace(style, fg=base.fg if inherited else colour)
        if name == "bg":
            return replace(style, bg=base.bg if inherited else colour)
        return replace(style, us=base.us if inherited else colour)
    if lowered.startswith("no") and len(lowered) > 2:
        removed = _attribute_mask(lowered[2:])
        return None if removed is None else replace(style,
                                                    attributes=style.attributes - removed)
    added = _attribute_mask(lowered)
    return None if added is None else replace(style, attributes=style.attributes | added)


def parse_style(text: str, base: Style = Style(), current: Style | None = None) -> Style:
    """`text` applied to `current` (else `base`), as tmux's style_parse; StyleError, with
    tmux's message, when any term is invalid."""
    style = base if current is None else current
    for term in _DELIMITERS.split(text):
        if not term:
            continue
        if len(term) > 255:
            raise StyleError(f"invalid style: {text}")
        changed = _term(style, term, base)
        if changed is None:
            raise StyleError(f"invalid style: {text}")
        style = changed
    return style


_UNDERLINES = {"underscore": 1, "double-underscore": 2, "curly-underscore": 3,
               "dotted-underscore": 4, "dashed-underscore": 5}


def style_cell(style: Style, data: str = " ") -> Cell:
    """A cell drawn in `style`: its colours and the attributes a cell can hold (hidden,
    overline and acs have no place in one and are dropped)."""
    attributes = style.attributes
    underline = max((_UNDERLINES[name] for name in attributes if name in _UNDERLINES),
                    default=0)
    return Cell(
        data,
        "default" if style.fg == "terminal" else style.fg,
        "default" if style.bg == "terminal" else style.bg,
        bold="bright" in attributes,
        italics="italics" in attributes,
        underscore=underline != 0,
        strikethrough="strikethrough" in attributes,
        reverse="reverse" in attributes,
        blink="blink" in attributes,
        faint="dim" in attributes,
        underline=underline,
        underline_color="default" if style.us == "terminal" else style.us,
    )
