"""Colours on the client's terminal: how many it shows, pane colours brought down to that,
the theme's colours for termhost's own screen, and the theme's palette lent to the terminal.

A pane's program may ask for any of 16 million colours, but the terminal termhost is attached
from may show only 256 or 16; sent a colour it cannot show, such a terminal ignores it or
shows something unrelated. So, as tmux does, termhost learns the depth from the environment
once, at attach, and brings every colour down to the nearest one the terminal has.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from prompt_toolkit.styles import BaseStyle, Style

from termhost.terminal.sgr import colour_params
from termhost.themes import Theme, _readable_on

__all__ = [
    "PTK_ANSI",
    "TRUE_COLOUR",
    "OverlayStyles",
    "default_style",
    "detect_depth",
    "index_to_16",
    "palette_sequences",
    "reset_palette_sequences",
    "rgb_to_256",
    "sgr_colour",
    "style_sgr",
    "ui_style",
]

TRUE_COLOUR = 1 << 24
"""The depth of a terminal that takes SGR 38;2 / 48;2 (ISO 8613-6 direct colour)."""

_RGB = tuple[int, int, int]


_HEX = re.compile(r"[0-9a-fA-F]{6}")

_CUBE_LEVELS = (0x00, 0x5F, 0x87, 0xAF, 0xD7, 0xFF)
"""Each channel's six values in xterm's 6x6x6 cube (16-231): not evenly spread, since xterm
gives darker colours less resolution."""

_XTERM_16: tuple[_RGB, ...] = (
    (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
    (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
    (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
    (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
)
"""xterm's default colours 0-15. A 16-colour terminal's real palette is unknown (each user
sets their own), so colours are brought down to the nearest of the best-known one; written out
here rather than read from the `default` theme, which a user's file of that name may hide."""


# The terminal's depth


def detect_depth(env: Mapping[str, str], *, force_256: bool = False) -> int:
    """The number of colours the terminal described by `env` shows: 16, 256 or TRUE_COLOUR.

    As tmux decides, from the environment alone (a query would need an answer to wait for):
    COLORTERM=truecolor or 24bit, the convention terminals set for direct colour, or a TERM
    naming a direct-colour terminfo entry (`xterm-direct`) mean true colour; a TERM with 256
    in it (`xterm-256color`, `screen-256color`) means 256. Anything else, an unknown or empty
    TERM included, means 16: a colour the terminal cannot show is lost, while 16 colours show
    on every colour terminal. `force_256` is tmux's -2, for a terminal that shows 256 colours
    without saying so; it never lowers true colour.
    """
    colorterm = env.get("COLORTERM", "").lower()
    term = env.get("TERM", "").lower()
    if colorterm in ("truecolor", "24bit") or "direct" in term:
        return TRUE_COLOUR
    if "256" in term or force_256:
        return 256
    return 16


# Bringing colours down


def _cube_level(value: int) -> int:
    """The cube level nearest to a channel's value: the midpoints between 0, 0x5f, 0x87..."""
    if value < 48:
        return 0
    if value < 114:
        return 1
    return (value - 35) // 40


def _distance(one: _RGB, other: _RGB) -> int:
    return sum((a - b) * (a - b) for a, b in zip(one, other, strict=True))


def rgb_to_256(red: int, green: int, blue: int) -> int:
    """The colour of xterm's 256 (16-255) nearest to this one, as tmux's colour_find_rgb finds
    it: the nearest cube colour channel by channel, the grey nearest to the channels' mean, and
    whichever of the two is nearer (the cube on a tie). Colours 0-15 are never chosen, since
    their values are whatever the user or the terminal made them."""
    rgb = (red, green, blue)
    if not all(0 <= channel <= 255 for channel in rgb):
        raise ValueError(f"colour channels are 0-255, not {rgb}")
    r_level, g_level, b_level = (_cube_level(channel) for channel in rgb)
    cube = _CUBE_LEVELS[r_level], _CUBE_LEVELS[g_level], _CUBE_LEVELS[b_level]
    mean = sum(rgb) // 3
    grey_step = 23 if mean > 238 else max(0, (mean - 3) // 10)  # greys are 8, 18 ... 238
    grey = 8 + 10 * grey_step
    if _distance((grey, grey, grey), rgb) < _distance(cube, rgb):
        return 232 + grey_step
    return 16 + 36 * r_level + 6 * g_level + b_level


def _rgb_of_256(index: int) -> _RGB:
    """xterm's value of colour `index` in 16-255."""
    if index >= 232:
        grey = 8 + 10 * (index - 232)
        return grey, grey, grey
    cube = index - 16
    return _CUBE_LEVELS[cube // 36], _CUBE_LEVELS[cube // 6 % 6], _CUBE_LEVELS[cube % 6]


def _nearest_16(rgb: _RGB) -> int:
    """The nearest of xterm's sixteen colours (the lower index on a tie)."""
    return min(range(16), key=lambda index: _distance(_XTERM_16[index], rgb))


def index_to_16(index: int) -> int:
    """Colour `index` of 256 as one of the sixteen: 0-15 are themselves, a cube colour or grey
    the nearest of xterm's sixteen to the value xterm gives it."""
    if not 0 <= index <= 255:
        raise ValueError(f"colour indexes are 0-255, not {index}")
    return index if index < 16 else _nearest_16(_rgb_of_256(index))


def _sgr_16(index: int, base: int) -> str:
    """Colour 0-15 as SGR 30-37 / 90-97 (`base` 30) or 40-47 / 100-107 (`base` 40)."""
    return str(base + index if index < 8 else base + 60 + index - 8)


def sgr_colour(colour: str, base: int, depth: int) -> list[str]:
    """The SGR parameters that set a pane cell's colour, as pyte holds it (a name, "default"
    or "rrggbb"), on a terminal of `depth` colours: `base` 30 for the foreground, 40 for the
    background; none for "default" or a colour pyte never makes.

    A named colour stays a name at every depth, so that it is shown in the terminal's own
    palette (or the theme's, see `palette_sequences`); only an RGB colour is brought down.
    """
    if depth >= TRUE_COLOUR or not _HEX.fullmatch(colour):
        return colour_params(colour, base)  # names, "default": as they are at any depth
    red, green, blue = (int(colour[i : i + 2], 16) for i in (0, 2, 4))
    if depth >= 256:
        return [str(base + 8), "5", str(rgb_to_256(red, green, blue))]
    return [_sgr_16(_nearest_16((red, green, blue)), base)]


# termhost's own screen

class OverlayStyles(NamedTuple):
    """The SGR sequences the client draws with over the panes, past prompt_toolkit: copy
    mode's (tmux's mode-style, black on yellow, for the selection and the position
    indicator, cyan for matches, magenta for the current one) and the active pane's
    borders and labels; a theme's colours in their place (`style_sgr` of the classes
    `selection`, `match`, `match.current`, `border.active`, `border`)."""

    selected: str = "\x1b[0;30;43m"
    match: str = "\x1b[0;30;46m"
    current: str = "\x1b[0;30;45m"
    active_border: str = "\x1b[0;32m"
    border: str = "\x1b[0;90m"



PTK_ANSI = ("ansiblack", "ansired", "ansigreen", "ansiyellow", "ansiblue", "ansimagenta",
             "ansicyan", "ansigray", "ansibrightblack", "ansibrightred", "ansibrightgreen",
             "ansibrightyellow", "ansibrightblue", "ansibrightmagenta", "ansibrightcyan",
             "ansiwhite")
"""prompt_toolkit's names of the sixteen colours, in their order."""


def _style_colour(colour: str | None, base: int, depth: int) -> list[str]:
    if colour in PTK_ANSI:
        return [_sgr_16(PTK_ANSI.index(colour), base)]
    return sgr_colour(colour, base, depth) if colour else []


def style_sgr(style: BaseStyle, name: str, depth: int) -> str:
    """The SGR sequence (from a reset) for the style class `name`: what copy mode draws
    its selection and matches with, over pane cells prompt_toolkit does not draw."""
    attrs = style.get_attrs_for_style_str(f"class:{name}")
    params = ["0", *(code for flag, code in ((attrs.bold, "1"), (attrs.reverse, "7")) if flag)]
    params += _style_colour(attrs.color, 30, depth) + _style_colour(attrs.bgcolor, 40, depth)
    return "\x1b[" + ";".join(params) + "m"



def ui_style(theme: Theme) -> Style:
    """The prompt_toolkit style of termhost's own screen in `theme`'s colours.

    Search matches take the palette's cyan and purple (tmux's colours for them, in the
    theme's shades); the selection and the matches carry whichever of the theme's foreground
    and background reads better on them, since they replace the colours of the text they mark.
    prompt_toolkit brings the colours down to the terminal's depth itself.
    """

    def marked(backdrop: str) -> str:
        return f"bg:{backdrop} fg:{_readable_on(backdrop, theme.background, theme.foreground)}"

    message = f"bg:{theme.message_background} fg:{theme.message_foreground}"
    return Style.from_dict({
        "status": f"bg:{theme.status_background} fg:{theme.status_foreground}",
        "status.prompt": message,
        "message": message,
        "border": f"fg:{theme.border}",
        "border.active": f"fg:{theme.active_border}",
        "outside": f"fg:{theme.border}",
        "selection": marked(theme.copy_selection),
        "match": marked(theme.palette[6]),
        "match.current": marked(theme.palette[5]),
        "view": f"bg:{theme.background} fg:{theme.foreground}",
    })


def default_style() -> Style:
    """The style without a theme: tmux's look in the terminal's own palette (ANSI names, so
    that whatever colours the user gave their terminal are the ones shown); the text view
    keeps the terminal's own foreground and background."""
    return Style.from_dict({
        "status": "bg:ansigreen fg:ansiblack",
        "status.prompt": "bg:ansiyellow fg:ansiblack",
        "message": "bg:ansiyellow fg:ansiblack",
        "border": "fg:ansibrightblack",
        "border.active": "fg:ansigreen",
        "outside": "fg:ansibrightblack",
        "selection": "bg:ansiyellow fg:ansiblack",
        "match": "bg:ansicyan fg:ansiblack",
        "match.current": "bg:ansimagenta fg:ansiblack",
        "view": "",
    })


# The terminal's palette


def _osc(*params: str) -> str:
    """An OSC control string ended by ST (ESC \\), which every terminal that parses OSC ends
    it on; BEL, the other common ending, is not ECMA-48."""
    return "\x1b]" + ";".join(params) + "\x1b\\"


def _x_colour(colour: str) -> str:
    """`#rrggbb` in XParseColor's form, which OSC 4 and OSC 10-12 take."""
    return f"rgb:{colour[1:3]}/{colour[3:5]}/{colour[5:7]}"


def palette_sequences(theme: Theme) -> str:
    """Set the terminal's colours 0-15 (OSC 4, one colour each, since some terminals take only
    the first pair of a list), default foreground and background (OSC 10, OSC 11) and cursor
    colour (OSC 12) to the theme's, so that panes' named and default colours show in it too."""
    sequences = [_osc("4", str(index), _x_colour(colour))
                 for index, colour in enumerate(theme.palette)]
    sequences += [_osc(code, _x_colour(colour)) for code, colour in
                  (("10", theme.foreground), ("11", theme.background), ("12", theme.cursor))]
    return "".join(sequences)


def reset_palette_sequences() -> str:
    """Give the terminal back its own colours (OSC 104 all of the palette, OSC 110-112 the
    foreground, background and cursor), on detach."""
    return "".join(_osc(code) for code in ("104", "110", "111", "112"))
