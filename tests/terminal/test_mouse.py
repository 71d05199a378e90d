"""Mouse reports: what termhost reads from the user's terminal and what a pane's application gets.

Expected bytes are worked out by hand from xterm's ctlseqs ("Mouse Tracking": button code
0-2, 3 release, +4 shift, +8 meta, +16 ctrl, +32 motion, +64 wheel; X10 bytes add 32 to the
code and 33 to a 0-based coordinate) and agree with tmux's input_key_get_mouse.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.terminal.mouse import (
    MOUSE_OFF,
    MOUSE_ON,
    MouseEvent,
    MouseKind,
    encode_report,
    parse_report,
)

LEFT_PRESS = MouseEvent(0, 0, "press", 0)
LEFT_RELEASE = MouseEvent(0, 0, "release", 0)
RELEASE = MouseEvent(0, 0, "release")
WHEEL_UP = MouseEvent(0, 0, "wheel-up")
DRAG = MouseEvent(1, 1, "motion", 0)
MOTION = MouseEvent(0, 0, "motion")
CTRL_PRESS = MouseEvent(0, 0, "press", 0, ctrl=True)


# Parsing what the outer terminal sends ------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "event"),
    [
        ("\x1b[<0;1;1M", LEFT_PRESS),
        ("\x1b[<0;1;1m", LEFT_RELEASE),
        ("\x1b[<2;10;5M", MouseEvent(9, 4, "press", 2)),
        ("\x1b[<1;10;5m", MouseEvent(9, 4, "release", 1)),
        ("\x1b[<3;1;1m", RELEASE),
        ("\x1b[<32;2;2M", DRAG),
        ("\x1b[<34;2;2M", MouseEvent(1, 1, "motion", 2)),
        ("\x1b[<35;1;1M", MOTION),
        ("\x1b[<64;1;1M", WHEEL_UP),
        ("\x1b[<65;1;1M", MouseEvent(0, 0, "wheel-down")),
        ("\x1b[<66;1;1M", MouseEvent(0, 0, "wheel-left")),
        ("\x1b[<67;1;1M", MouseEvent(0, 0, "wheel-right")),
        ("\x1b[<4;1;1M", MouseEvent(0, 0, "press", 0, shift=True)),
        ("\x1b[<8;1;1M", MouseEvent(0, 0, "press", 0, meta=True)),
        ("\x1b[<16;1;1M", CTRL_PRESS),
        ("\x1b[<28;1;1m", MouseEvent(0, 0, "release", 0, shift=True, meta=True, ctrl=True)),
        ("\x1b[<80;1;1M", MouseEvent(0, 0, "wheel-up", ctrl=True)),
        ("\x1b[<48;1;1M", MouseEvent(0, 0, "motion", 0, ctrl=True)),
        ("\x1b[<0;5001;3000M", MouseEvent(5000, 2999, "press", 0)),
    ],
)
def test_parse_sgr(data: str, event: MouseEvent) -> None:
    assert parse_report(data) == event


@pytest.mark.parametrize(
    ("data", "event"),
    [
        ("\x1b[32;1;1M", LEFT_PRESS),
        ("\x1b[34;10;5M", MouseEvent(9, 4, "press", 2)),
        ("\x1b[35;1;1M", RELEASE),
        ("\x1b[55;1;1M", MouseEvent(0, 0, "release", shift=True, ctrl=True)),
        ("\x1b[64;2;2M", DRAG),
        ("\x1b[67;1;1M", MOTION),
        ("\x1b[96;1;1M", WHEEL_UP),
        ("\x1b[32;300;400M", MouseEvent(299, 399, "press", 0)),
    ],
)
def test_parse_urxvt(data: str, event: MouseEvent) -> None:
    assert parse_report(data) == event


@pytest.mark.parametrize(
    ("data", "event"),
    [
        ("\x1b[M !!", LEFT_PRESS),
        ('\x1b[M"*%', MouseEvent(9, 4, "press", 2)),
        ("\x1b[M#!!", RELEASE),
        ('\x1b[M@""', DRAG),
        ("\x1b[MC!!", MOTION),
        ("\x1b[M`!!", WHEEL_UP),
        ("\x1b[Ma!!", MouseEvent(0, 0, "wheel-down")),
        ("\x1b[M0!!", CTRL_PRESS),
        # Bytes above 0x7F that are not UTF-8 reach the server surrogate-escaped.
        ("\x1b[M \udcff\udcff", MouseEvent(222, 222, "press", 0)),
        # 1005: a coordinate past 94 is one UTF-8 character, read back as its code point.
        ("\x1b[M \x80\u07ff", MouseEvent(95, 2014, "press", 0)),
    ],
)
def test_parse_x10_bytes(data: str, event: MouseEvent) -> None:
    assert parse_report(data) == event


@pytest.mark.parametrize(
    "data",
    [
        "",
        "a",
        "\x1b[A",
        "\x1b[<0;1M",
        "\x1b[<0;1;1",
        "\x1b[<0;1;1;1M",
        "\x1b[<0;1;1x",
        "\x1b[<a;1;1M",
        "\x1b[<-1;1;1M",
        "\x1b[<0;0;1M",  # SGR coordinates are 1-based
        "\x1b[<0;1;0M",
        "\x1b[<128;1;1M",  # buttons 8-11 have no name here
        "\x1b[<96;1;1M",  # wheel while moving
        "\x1b[<64;1;1m",  # wheel release
        "\x1b[<32;1;1m",  # motion release
        "\x1b[<" + "9" * 5000 + ";1;1M",
        "\x1b[<0;1;1M\x1b[<0;1;1M",
        "\x1b[1;1;1M",  # urxvt codes start at 32
        "\x1b[32;1;1m",  # urxvt has no release final
        "\x1b[32;0;1M",
        "\x1b[M !",
        "\x1b[M !!!",
        "\x1b[M\x1f!!",
        "\x1b[M  !",  # coordinate byte 32 is cell -1
        "\x1b[M\x00\x00\x00",
    ],
)
def test_parse_malformed_is_none(data: str) -> None:
    assert parse_report(data) is None


# Encoding for the application in a pane -----------------------------------------------------


@pytest.mark.parametrize(
    ("event", "encoding", "expected"),
    [
        (LEFT_PRESS, 0, b"\x1b[M !!"),
        (LEFT_PRESS, 1005, b"\x1b[M !!"),
        (LEFT_PRESS, 1006, b"\x1b[<0;1;1M"),
        (LEFT_PRESS, 1015, b"\x1b[32;1;1M"),
        (MouseEvent(9, 4, "press", 2), 0, b'\x1b[M"*%'),
        (MouseEvent(9, 4, "press", 2), 1006, b"\x1b[<2;10;5M"),
        (MouseEvent(9, 4, "press", 2), 1015, b"\x1b[34;10;5M"),
        # A release is button 3 except in SGR, which keeps the button and ends in m.
        (LEFT_RELEASE, 0, b"\x1b[M#!!"),
        (LEFT_RELEASE, 1005, b"\x1b[M#!!"),
        (LEFT_RELEASE, 1006, b"\x1b[<0;1;1m"),
        (LEFT_RELEASE, 1015, b"\x1b[35;1;1M"),
        (MouseEvent(0, 0, "release", 2), 1006, b"\x1b[<2;1;1m"),
        (RELEASE, 1006, b"\x1b[<3;1;1m"),
        (RELEASE, 0, b"\x1b[M#!!"),
        (WHEEL_UP, 0, b"\x1b[M`!!"),
        (WHEEL_UP, 1006, b"\x1b[<64;1;1M"),
        (WHEEL_UP, 1015, b"\x1b[96;1;1M"),
        (MouseEvent(0, 0, "wheel-down"), 0, b"\x1b[Ma!!"),
        (MouseEvent(0, 0, "wheel-down"), 1006, b"\x1b[<65;1;1M"),
        (MouseEvent(0, 0, "wheel-right"), 1006, b"\x1b[<67;1;1M"),
        (DRAG, 0, b'\x1b[M@""'),
        (DRAG, 1006, b"\x1b[<32;2;2M"),
        (DRAG, 1015, b"\x1b[64;2;2M"),
        (MOTION, 0, b"\x1b[MC!!"),
        (MOTION, 1006, b"\x1b[<35;1;1M"),
        (MOTION, 1015, b"\x1b[67;1;1M"),
    ],
)
def test_encode_in_each_encoding(event: MouseEvent, encoding: int, expected: bytes) -> None:
    assert encode_report(event, 1003, encoding) == expected


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (MouseEvent(0, 0, "press", 0, shift=True), b"\x1b[<4;1;1M"),
        (MouseEvent(0, 0, "press", 0, meta=True), b"\x1b[<8;1;1M"),
        (CTRL_PRESS, b"\x1b[<16;1;1M"),
        (MouseEvent(0, 0, "press", 1, shift=True, meta=True, ctrl=True), b"\x1b[<29;1;1M"),
        (MouseEvent(0, 0, "release", 0, ctrl=True), b"\x1b[<16;1;1m"),
        (MouseEvent(0, 0, "wheel-up", shift=True), b"\x1b[<68;1;1M"),
        (MouseEvent(0, 0, "wheel-down", ctrl=True), b"\x1b[<81;1;1M"),
        (MouseEvent(0, 0, "motion", 0, meta=True), b"\x1b[<40;1;1M"),
    ],
)
def test_encode_modifiers(event: MouseEvent, expected: bytes) -> None:
    assert encode_report(event, 1003, 1006) == expected


def test_modifiers_in_x10_bytes() -> None:
    shift_ctrl_release = MouseEvent(0, 0, "release", 0, shift=True, ctrl=True)
    assert encode_report(shift_ctrl_release, 1000, 0) == b"\x1b[M7!!"
    assert encode_report(
        MouseEvent(0, 0, "wheel-right", shift=True, meta=True, ctrl=True), 1000, 1005
    ) == (b"\x1b[M\x7f!!")


# Which tracking mode reports what: X10 (9) presses only, unmodified; 1000 adds releases and
# the wheel; 1002 adds motion with a button held; 1003 adds all motion.
_REPORTED = {
    "press": (LEFT_PRESS, {9, 1000, 1002, 1003}),
    "modified press": (CTRL_PRESS, {1000, 1002, 1003}),
    "release": (LEFT_RELEASE, {1000, 1002, 1003}),
    "release, button unknown": (RELEASE, {1000, 1002, 1003}),
    "wheel": (WHEEL_UP, {1000, 1002, 1003}),
    "drag": (DRAG, {1002, 1003}),
    "motion": (MOTION, {1003}),
}


@pytest.mark.parametrize("encoding", [0, 1005, 1006, 1015])
@pytest.mark.parametrize("tracking", [0, 9, 1000, 1002, 1003])
@pytest.mark.parametrize("name", list(_REPORTED))
def test_tracking_mode_decides_what_is_reported(name: str, tracking: int, encoding: int) -> None:
    event, modes = _REPORTED[name]
    report = encode_report(event, tracking, encoding)
    if tracking in modes:
        assert report == encode_report(event, 1003, encoding) != b""
    else:
        assert report == b""


def test_x10_mode_with_sgr_encoding() -> None:
    assert encode_report(MouseEvent(4, 2, "press", 1), 9, 1006) == b"\x1b[<1;5;3M"
    assert encode_report(MouseEvent(4, 2, "release", 1), 9, 1006) == b""


# Coordinates at the limits of each encoding -------------------------------------------------


@pytest.mark.parametrize(
    ("x", "y", "encoding", "expected"),
    [
        (222, 0, 0, b"\x1b[M \xff!"),
        (0, 222, 0, b"\x1b[M !\xff"),
        (223, 0, 0, b""),
        (0, 223, 0, b""),
        (94, 0, 1005, b"\x1b[M \x7f!"),
        (95, 0, 1005, b"\x1b[M \xc2\x80!"),
        (2014, 2014, 1005, b"\x1b[M \xdf\xbf\xdf\xbf"),
        (2015, 0, 1005, b""),
        (0, 2015, 1005, b""),
        (2015, 9999, 1006, b"\x1b[<0;2016;10000M"),
        (2015, 9999, 1015, b"\x1b[32;2016;10000M"),
    ],
)
def test_coordinate_limits(x: int, y: int, encoding: int, expected: bytes) -> None:
    assert encode_report(MouseEvent(x, y, "press", 0), 1000, encoding) == expected


# The event itself ---------------------------------------------------------------------------


def test_at_moves_the_event_and_keeps_the_rest() -> None:
    event = MouseEvent(50, 20, "motion", 2, shift=True)
    assert event.at(3, 4) == MouseEvent(3, 4, "motion", 2, shift=True)
    assert event.at(3, 4).drag


def test_drag_is_motion_with_a_button() -> None:
    assert DRAG.drag
    assert not MOTION.drag
    assert not LEFT_PRESS.drag


@pytest.mark.parametrize(
    "fields",
    [
        {"x": -1, "y": 0, "kind": "press", "button": 0},
        {"x": 0, "y": -1, "kind": "press", "button": 0},
        {"x": 0, "y": 0, "kind": "press", "button": None},
        {"x": 0, "y": 0, "kind": "press", "button": 3},
        {"x": 0, "y": 0, "kind": "wheel-up", "button": 0},
    ],
)
def test_impossible_events_are_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        MouseEvent(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(("tracking", "encoding"), [(1001, 1006), (1000, 1016)])
def test_unknown_modes_are_refused(tracking: int, encoding: int) -> None:
    with pytest.raises(ValueError, match="unknown mouse"):
        encode_report(LEFT_PRESS, tracking, encoding)


def test_outer_terminal_modes() -> None:
    assert MOUSE_ON == "\x1b[?1000h\x1b[?1002h\x1b[?1006h"
    assert MOUSE_OFF == "\x1b[?1006l\x1b[?1002l\x1b[?1000l"


# Properties ---------------------------------------------------------------------------------

_KINDS: list[MouseKind] = [
    "press",
    "release",
    "motion",
    "wheel-up",
    "wheel-down",
    "wheel-left",
    "wheel-right",
]


@st.composite
def events(draw: st.DrawFn, limit: int = 100_000) -> MouseEvent:
    kind = draw(st.sampled_from(_KINDS))
    if kind == "press":
        button: int | None = draw(st.integers(0, 2))
    elif kind in ("release", "motion"):
        button = draw(st.one_of(st.none(), st.integers(0, 2)))
    else:
        button = None
    return MouseEvent(
        draw(st.integers(0, limit)),
        draw(st.integers(0, limit)),
        kind,
        button,
        draw(st.booleans()),
        draw(st.booleans()),
        draw(st.booleans()),
    )


_PREFIXES = st.sampled_from(["", "\x1b[<", "\x1b[", "\x1b[M"])
_REPORT_TEXT = st.text(alphabet="0123456789;<Mm\x1b[ !#`\x7f\udcff\u07ff", max_size=24)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.builds(str.__add__, _PREFIXES, _REPORT_TEXT)))
def test_parse_never_raises(data: str) -> None:
    event = parse_report(data)
    assert event is None or isinstance(event, MouseEvent)


@settings(max_examples=300, deadline=None)
@given(events())
def test_sgr_round_trips_every_event(event: MouseEvent) -> None:
    assert parse_report(encode_report(event, 1003, 1006).decode()) == event


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([(0, 222, "latin-1"), (1005, 2014, "utf-8"), (1015, 100_000, "ascii")]),
    st.data(),
)
def test_other_encodings_round_trip_all_but_the_released_button(
    case: tuple[int, int, str], data: st.DataObject
) -> None:
    encoding, limit, charset = case
    event = data.draw(events(limit))
    expected = replace(event, button=None) if event.kind == "release" else event
    assert parse_report(encode_report(event, 1003, encoding).decode(charset)) == expected
