"""Colours on the client's terminal: the depth read from the environment, colours brought down
to it as tmux brings them, the theme's style for termhost's screen and its palette sequences."""

from __future__ import annotations

import re

import pytest
from prompt_toolkit.styles import Attrs, BaseStyle, Style

from termhost.themes import Theme, list_themes
from termhost.ui.colours import (
    TRUE_COLOUR,
    default_style,
    detect_depth,
    index_to_16,
    palette_sequences,
    reset_palette_sequences,
    rgb_to_256,
    sgr_colour,
    ui_style,
)

THEMES = list_themes()
CLASSES = (
    "status", "status.prompt", "message", "border", "border.active", "outside",
    "selection", "match", "match.current", "view",
)


# detect_depth


@pytest.mark.parametrize(("env", "depth"), [
    ({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, TRUE_COLOUR),
    ({"TERM": "xterm", "COLORTERM": "24bit"}, TRUE_COLOUR),
    ({"COLORTERM": "TrueColor"}, TRUE_COLOUR),
    ({"TERM": "xterm-direct"}, TRUE_COLOUR),
    ({"TERM": "xterm-256color"}, 256),
    ({"TERM": "screen-256color", "COLORTERM": "gnome-terminal"}, 256),
    ({"TERM": "tmux-256color"}, 256),
    ({"TERM": "rxvt-unicode-256color"}, 256),
    ({"TERM": "xterm"}, 16),
    ({"TERM": "screen"}, 16),
    ({"TERM": "linux"}, 16),
    ({"TERM": "vt100"}, 16),
    ({"TERM": "something-unknown"}, 16),
    ({"TERM": ""}, 16),
    ({}, 16),
])
def test_detect_depth(env: dict[str, str], depth: int) -> None:
    assert detect_depth(env) == depth


@pytest.mark.parametrize(("term", "depth"), [
    ("xterm", 256), ("linux", 256), ("", 256), ("xterm-256color", 256),
    ("xterm-direct", TRUE_COLOUR),
])
def test_force_256_raises_16_to_256_and_never_lowers(term: str, depth: int) -> None:
    assert detect_depth({"TERM": term}, force_256=True) == depth


# rgb_to_256: tmux's colour_find_rgb. Cube levels 0, 0x5f, 0x87, 0xaf, 0xd7, 0xff at
# 16 + 36r + 6g + b; greys 8 + 10i at 232 + i; the nearer of the two, the cube on a tie.


@pytest.mark.parametrize(("rgb", "index"), [
    ((0x00, 0x00, 0x00), 16),
    ((0x00, 0x00, 0xFF), 21),
    ((0x00, 0xFF, 0x00), 46),
    ((0x00, 0xFF, 0xFF), 51),
    ((0xFF, 0x00, 0x00), 196),
    ((0xFF, 0x00, 0xFF), 201),
    ((0xFF, 0xFF, 0x00), 226),
    ((0xFF, 0xFF, 0xFF), 231),
    ((0x5F, 0x5F, 0x5F), 59),    # a cube grey hit exactly stays in the cube
    ((0x87, 0xAF, 0xD7), 16 + 36 * 2 + 6 * 3 + 4),
])
def test_rgb_to_256_cube(rgb: tuple[int, int, int], index: int) -> None:
    assert rgb_to_256(*rgb) == index


@pytest.mark.parametrize("step", range(24))
def test_rgb_to_256_greys(step: int) -> None:
    grey = 8 + 10 * step
    assert rgb_to_256(grey, grey, grey) == 232 + step


@pytest.mark.parametrize(("rgb", "index"), [
    ((1, 1, 1), 16),              # cube black (distance 3) beats grey 8 (147)
    ((128, 128, 128), 244),       # grey 128 exactly; the cube's 0x87 is 7 away per channel
    ((240, 240, 240), 255),       # grey 238 (12) beats cube white (675)
    ((250, 250, 250), 231),       # cube white (75) beats grey 238 (432): no grey above 238
    ((0x12, 0x34, 0x56), 23),     # cube (0, 0x5f, 0x5f) 2254 beats grey 48 (2360)
    ((0xCD, 0x00, 0x00), 160),    # xterm's red: cube (0xd7, 0, 0)
    ((47, 114, 115), 16 + 6 * 1 + 2),  # level edges: to 47 is 0, to 114 0x5f, then 0x87
])
def test_rgb_to_256_nearest(rgb: tuple[int, int, int], index: int) -> None:
    assert rgb_to_256(*rgb) == index


def test_rgb_to_256_refuses_a_channel_out_of_range() -> None:
    with pytest.raises(ValueError, match="0-255"):
        rgb_to_256(0, 256, 0)


# index_to_16


@pytest.mark.parametrize("index", range(16))
def test_index_to_16_keeps_the_sixteen(index: int) -> None:
    assert index_to_16(index) == index


@pytest.mark.parametrize(("index", "nearest"), [
    (16, 0), (231, 15), (196, 9), (46, 10), (21, 4), (226, 11), (201, 13), (51, 14),
    (160, 1), (232, 0), (244, 8), (255, 7),
])
def test_index_to_16_nearest(index: int, nearest: int) -> None:
    assert index_to_16(index) == nearest


def test_index_to_16_refuses_an_index_out_of_range() -> None:
    with pytest.raises(ValueError, match="0-255"):
        index_to_16(256)


# sgr_colour


@pytest.mark.parametrize("depth", [16, 256, TRUE_COLOUR])
@pytest.mark.parametrize(("colour", "fg", "bg"), [
    ("default", [], []),
    ("red", ["31"], ["41"]),
    ("brown", ["33"], ["43"]),
    ("white", ["37"], ["47"]),
    ("brightblack", ["90"], ["100"]),
    ("brightbrown", ["93"], ["103"]),
    ("brightwhite", ["97"], ["107"]),
    ("nonsense", [], []),
    ("12345g", [], []),
])
def test_sgr_colour_names_are_the_same_at_every_depth(
    colour: str, fg: list[str], bg: list[str], depth: int
) -> None:
    assert sgr_colour(colour, 30, depth) == fg
    assert sgr_colour(colour, 40, depth) == bg


@pytest.mark.parametrize(("colour", "depth", "fg", "bg"), [
    ("ff8700", TRUE_COLOUR, ["38", "2", "255", "135", "0"], ["48", "2", "255", "135", "0"]),
    ("FF8700", TRUE_COLOUR, ["38", "2", "255", "135", "0"], ["48", "2", "255", "135", "0"]),
    ("ff8700", 256, ["38", "5", "208"], ["48", "5", "208"]),
    ("808080", 256, ["38", "5", "244"], ["48", "5", "244"]),
    ("cd0000", 16, ["31"], ["41"]),
    ("ff0000", 16, ["91"], ["101"]),
    ("101010", 16, ["30"], ["40"]),
    ("7f7f7f", 16, ["90"], ["100"]),
    ("5c5cff", 16, ["94"], ["104"]),
    ("fafafa", 16, ["97"], ["107"]),
])
def test_sgr_colour_brings_rgb_down(colour: str, depth: int, fg: list[str], bg: list[str]) -> None:
    assert sgr_colour(colour, 30, depth) == fg
    assert sgr_colour(colour, 40, depth) == bg


# ui_style and default_style


def _attrs(style: BaseStyle, name: str) -> Attrs:
    return style.get_attrs_for_style_str(f"class:{name}")


APP_STYLE = Style.from_dict({
    "status": "bg:ansigreen fg:ansiblack",
    "status.prompt": "bg:ansiyellow fg:ansiblack",
    "border": "fg:ansibrightblack",
    "border.active": "fg:ansigreen",
    "outside": "fg:ansibrightblack",
})
"""The client's style before themes (app.py's STYLE), which the default style must keep."""


def test_default_style_is_the_app_style_with_the_new_classes() -> None:
    style = default_style()
    for name, _rule in APP_STYLE.style_rules:
        assert _attrs(style, name) == _attrs(APP_STYLE, name)
    assert [name for name, _rule in style.style_rules] == list(CLASSES)
    assert _attrs(style, "selection").bgcolor == "ansiyellow"
    assert _attrs(style, "match.current").bgcolor == "ansimagenta"


@pytest.mark.parametrize("theme", THEMES, ids=[theme.name for theme in THEMES])
def test_ui_style_colours_every_class_from_the_theme(theme: Theme) -> None:
    style = ui_style(theme)
    assert [name for name, _rule in style.style_rules] == list(CLASSES)

    def colours(name: str) -> tuple[str | None, str | None]:
        attrs = _attrs(style, name)
        return ("#" + attrs.color if attrs.color else None,
                "#" + attrs.bgcolor if attrs.bgcolor else None)

    assert colours("status") == (theme.status_foreground, theme.status_background)
    message = (theme.message_foreground, theme.message_background)
    assert colours("status.prompt") == colours("message") == message
    assert colours("border") == colours("outside") == (theme.border, None)
    assert colours("border.active") == (theme.active_border, None)
    assert colours("view") == (theme.foreground, theme.background)
    for name, backdrop in (("selection", theme.copy_selection), ("match", theme.palette[6]),
                           ("match.current", theme.palette[5])):
        fg, bg = colours(name)
        assert bg == backdrop
        assert fg in (theme.foreground, theme.background)


# palette_sequences

_X = r"rgb:[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{2}"
_ST = r"\x1b\\"
_PALETTE = re.compile(
    rf"(?:\x1b\]4;(?:\d|1[0-5]);{_X}{_ST}){{16}}"
    rf"\x1b\]10;{_X}{_ST}\x1b\]11;{_X}{_ST}\x1b\]12;{_X}{_ST}"
)


def _x(colour: str) -> str:
    return f"rgb:{colour[1:3]}/{colour[3:5]}/{colour[5:7]}"


@pytest.mark.parametrize("theme", THEMES, ids=[theme.name for theme in THEMES])
def test_palette_sequences_set_the_theme_colours(theme: Theme) -> None:
    sequences = palette_sequences(theme)
    assert _PALETTE.fullmatch(sequences)
    for index, colour in enumerate(theme.palette):
        assert f"\x1b]4;{index};{_x(colour)}\x1b\\" in sequences
    assert f"\x1b]10;{_x(theme.foreground)}\x1b\\" in sequences
    assert f"\x1b]11;{_x(theme.background)}\x1b\\" in sequences
    assert f"\x1b]12;{_x(theme.cursor)}\x1b\\" in sequences


def test_reset_palette_sequences() -> None:
    assert reset_palette_sequences() == "\x1b]104\x1b\\\x1b]110\x1b\\\x1b]111\x1b\\\x1b]112\x1b\\"
