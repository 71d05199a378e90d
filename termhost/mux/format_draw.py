"""An expanded format drawn into one line of cells, as tmux 3.3a's format_draw.

The status line is `status-format` expanded and then drawn: `#[...]` styles change the
colours as the text goes, `align=` sends text to the left, centre, right or absolute
centre of the line, `list=` marks the window list (with its focus, the current window,
kept in sight when the list is cut, and `<`/`>` markers where it was cut), `range=` marks
what a mouse click on a part means, and `fill=` clears the line first. Every part is
drawn on its own, then trimmed and placed in tmux's order, so a long status-left or a
list of many windows gives way exactly as in tmux. A `#` drawn as text follows tmux's
rule for runs of `#` before `[`: `##[` is a literal `#[`, `###[` a `#` and a style.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import NamedTuple

from termhost.mux.format_text import format_skip
from termhost.mux.style import Style, StyleError, parse_style, style_cell
from termhost.terminal.cell import WIDE_STUB, Cell
from termhost.terminal.screen import char_width

__all__ = ["StatusRange", "format_draw"]


class StatusRange(NamedTuple):
    """A part of the drawn line a mouse key names: `left` (StatusLeft), `right`
    (StatusRight) or `window` (Status, for the window `argument`), `start` to `end`
    (exclusive) in line columns."""

    kind: str
    argument: int
    start: int
    end: int


class _Part(IntEnum):
    LEFT = 0
    CENTRE = 1
    RIGHT = 2
    ABSOLUTE_CENTRE = 3
    LIST = 4
    LIST_LEFT = 5
    LIST_RIGHT = 6
    AFTER = 7


_BY_ALIGN = {"default": _Part.LEFT, "left": _Part.LEFT, "centre": _Part.CENTRE,
             "right": _Part.RIGHT, "absolute-centre": _Part.ABSOLUTE_CENTRE}


@dataclass
class _Range:
    part: _Part
    kind: str
    argument: int
    start: int
    end: int = 0


@dataclass
class _Canvas:
    """The output line and the ranges, as the parts are put on it."""

    cells: list[Cell]
    parts: list[list[Cell]]
    ranges: list[_Range] = field(default_factory=list)

    def put(self, part: _Part, offset: int, start: int, width: int) -> None:
        """format_draw_put: `width` cells of `part` from `start`, at column `offset`; the
        part's ranges move with it, cut to what was put."""
        source = self.parts[part]
        for i in range(max(0, width)):
            column = offset + i
            if not 0 <= column < len(self.cells) or start + i >= len(source):
                continue
            cell = source[start + i]
            if cell.data == WIDE_STUB and i == 0:
                cell = cell._replace(data=" ")  # the right half of a character cut off
            elif i == width - 1 and start + i + 1 < len(source) \
                    and source[start + i + 1].data == WIDE_STUB:
                cell = cell._replace(data=" ")  # a wide character without its right half
            self.cells[column] = cell
        kept = []
        for found in self.ranges:
            if found.part != part:
                kept.append(found)
                continue
            if found.end <= start or found.start >= start + width:
                continue
            found.start, found.end = max(found.start, start), min(found.end, start + width)
            if found.start == found.end:
                continue
            found.start += offset - start
            found.end += offset - start
            kept.append(found)
        self.ranges = kept

    def put_list(self, offset: int, width: int, focus: tuple[int, int]) -> None:
        """format_draw_put_list: the list, cut around its focus, with the markers."""
        listed = len(self.parts[_Part.LIST])
        if width >= listed:
            self.put(_Part.LIST, offset, 0, width)
            return
        centre = focus[0] + (focus[1] - focus[0]) // 2
        start = 0 if centre < width // 2 else centre - width // 2
        if start + width > listed:
            start = listed - width
        left, right = len(self.parts[_Part.LIST_LEFT]), len(self.parts[_Part.LIST_RIGHT])
        if start != 0 and width > left:
            self._marker(_Part.LIST_LEFT, offset)
            offset, start, width = offset + left, start + left, width - left
        if start + width < listed and width > right:
            self._marker(_Part.LIST_RIGHT, offset + width - right)
            width -= right
        self.put(_Part.LIST, offset, start, width)

    def _marker(self, part: _Part, offset: int) -> None:
        for i, cell in enumerate(self.parts[part]):
            if 0 <= offset + i < len(self.cells):
                self.cells[offset + i] = cell


def _trim(widths: dict[_Part, int], order: tuple[_Part, ...], available: int) -> None:
    """Take one cell at a time from the first part in `order` that has any, until all
    of `widths` fit in `available`."""
    while sum(widths.values()) > available:
        for part in order:
            if widths[part] > 0:
                widths[part] -= 1
                break
        else:
            return


def _draw_none(canvas: _Canvas, available: int) -> None:
    """format_draw_none: no window list."""
    width = {part: len(canvas.parts[part]) for part in (_Part.LEFT, _Part.CENTRE, _Part.RIGHT)}
    _trim(width, (_Part.CENTRE, _Part.RIGHT, _Part.LEFT), available)
    left, centre, right = width[_Part.LEFT], width[_Part.CENTRE], width[_Part.RIGHT]
    canvas.put(_Part.LEFT, 0, 0, left)
    canvas.put(_Part.RIGHT, available - right, len(canvas.parts[_Part.RIGHT]) - right, right)
    canvas.put(_Part.CENTRE, left + ((available - right) - left) // 2 - centre // 2,
               len(canvas.parts[_Part.CENTRE]) // 2 - centre // 2, centre)
    _draw_absolute_centre(canvas, available)


def _draw_absolute_centre(canvas: _Canvas, available: int) -> None:
    width = min(len(canvas.parts[_Part.ABSOLUTE_CENTRE]), available)
    canvas.put(_Part.ABSOLUTE_CENTRE, (available - width) // 2, 0, width)


def _widths(canvas: _Canvas) -> dict[_Part, int]:
    return {part: len(canvas.parts[part]) for part in (
        _Part.LEFT, _Part.CENTRE, _Part.RIGHT, _Part.LIST, _Part.AFTER)}


_TRIM_LIST_SIDE = (_Part.CENTRE, _Part.LIST, _Part.RIGHT, _Part.AFTER, _Part.LEFT)
_TRIM_LIST_CENTRE = (_Part.LIST, _Part.AFTER, _Part.CENTRE, _Part.RIGHT, _Part.LEFT)
"""The order tmux trims the parts in, first to last, with the list on a side (left or
right) and in the centre."""


class _Fitted(NamedTuple):
    """The widths of the parts a list's line is drawn from, trimmed to fit."""

    left: int
    centre: int
    right: int
    listed: int
    after: int


def _fit_with_list(canvas: _Canvas, order: tuple[_Part, ...], into: _Part,
                   available: int) -> _Fitted | None:
    """The first steps format_draw_left, _centre and _right share: the parts trimmed in
    `order` until they fit, and the left part drawn. None when the list was trimmed
    away: what came after it then joins `into`, the part it was aligned with, and the
    line is drawn as if it had no list."""
    width = _widths(canvas)
    _trim(width, order, available)
    fitted = _Fitted(width[_Part.LEFT], width[_Part.CENTRE], width[_Part.RIGHT],
                     width[_Part.LIST], width[_Part.AFTER])
    if fitted.listed == 0:
        canvas.parts[into] = canvas.parts[into] + canvas.parts[_Part.AFTER][:fitted.after]
        _draw_none(canvas, available)
        return None
    canvas.put(_Part.LEFT, 0, 0, fitted.left)
    return fitted


def _draw_left(canvas: _Canvas, available: int, focus: tuple[int, int] | None) -> None:
    """format_draw_left: the list after the left part."""
    fitted = _fit_with_list(canvas, _TRIM_LIST_SIDE, _Part.LEFT, available)
    if fitted is None:
        return
    left, centre, right, listed, after = fitted
    canvas.put(_Part.RIGHT, available - right, len(canvas.parts[_Part.RIGHT]) - right, right)
    canvas.put(_Part.AFTER, left + listed, 0, after)
    middle = left + listed + after
    canvas.put(_Part.CENTRE, middle + ((available - right) - middle) // 2 - centre // 2,
               len(canvas.parts[_Part.CENTRE]) // 2 - centre // 2, centre)
    canvas.put_list(left, listed, focus or (0, 0))
    _draw_absolute_centre(canvas, available)


def _draw_centre(canvas: _Canvas, available: int, focus: tuple[int, int] | None) -> None:
    """format_draw_centre: the list in the middle, between left and right."""
    fitted = _fit_with_list(canvas, _TRIM_LIST_CENTRE, _Part.CENTRE, available)
    if fitted is None:
        return
    left, centre, right, listed, after = fitted
    canvas.put(_Part.RIGHT, available - right, len(canvas.parts[_Part.RIGHT]) - right, right)
    middle = left + ((available - right) - left) // 2
    canvas.put(_Part.CENTRE, middle - listed // 2 - centre, 0, centre)
    canvas.put(_Part.AFTER, middle - listed // 2 + listed, 0, after)
    half = len(canvas.parts[_Part.LIST]) // 2
    canvas.put_list(middle - listed // 2, listed, focus or (half, half))
    _draw_absolute_centre(canvas, available)


def _draw_right(canvas: _Canvas, available: int, focus: tuple[int, int] | None) -> None:
    """format_draw_right: the list after the right part, at the end of the line."""
    fitted = _fit_with_list(canvas, _TRIM_LIST_SIDE, _Part.RIGHT, available)
    if fitted is None:
        return
    left, centre, right, listed, after = fitted
    canvas.put(_Part.AFTER, available - after, len(canvas.parts[_Part.AFTER]) - after, after)
    canvas.put(_Part.RIGHT, available - right - listed - after, 0, right)
    end = available - right - listed - after
    canvas.put(_Part.CENTRE, left + (end - left) // 2 - centre // 2,
               len(canvas.parts[_Part.CENTRE]) // 2 - centre // 2, centre)
    canvas.put_list(available - listed - after, listed, focus or (0, 0))
    _draw_absolute_centre(canvas, available)


def _draw_list_absolute_centre(canvas: _Canvas, available: int,
                               focus: tuple[int, int] | None) -> None:
    """format_draw_absolute_centre: the list (with the absolute-centre part before it and
    what follows it after) in the middle of the whole line, over the rest."""
    width = {part: len(canvas.parts[part]) for part in (_Part.LEFT, _Part.CENTRE, _Part.RIGHT)}
    _trim(width, (_Part.CENTRE, _Part.RIGHT, _Part.LEFT), available)
    over = {part: len(canvas.parts[part])
            for part in (_Part.LIST, _Part.AFTER, _Part.ABSOLUTE_CENTRE)}
    _trim(over, (_Part.LIST, _Part.AFTER, _Part.ABSOLUTE_CENTRE), available)
    left, centre, right = width[_Part.LEFT], width[_Part.CENTRE], width[_Part.RIGHT]
    listed, after, absolute = over[_Part.LIST], over[_Part.AFTER], over[_Part.ABSOLUTE_CENTRE]
    canvas.put(_Part.LEFT, 0, 0, left)
    canvas.put(_Part.RIGHT, available - right, len(canvas.parts[_Part.RIGHT]) - right, right)
    middle = left + ((available - right) - left) // 2
    canvas.put(_Part.CENTRE, middle - centre, 0, centre)
    half = len(canvas.parts[_Part.LIST]) // 2
    offset = (available - listed - absolute) // 2
    canvas.put(_Part.ABSOLUTE_CENTRE, offset, 0, absolute)
    canvas.put_list(offset + absolute, listed, focus or (half, half))
    canvas.put(_Part.AFTER, offset + absolute + listed, 0, after)


def _hashes(text: str, index: int) -> tuple[int, int, bool, bool]:
    """A run of `#` at `index` not itself starting a style: (the index after what it
    consumed, how many `#` it draws, whether a literal `[` follows them, whether a `[`
    ended the run: then nothing is drawn under `ignore`)."""
    end = index
    while end < len(text) and text[end] == "#":
        end += 1
    count = end - index
    even = count % 2 == 0
    if end >= len(text) or text[end] != "[":
        return end, count // 2 if even else count // 2 + 1, False, False
    if even:  # `##[`: every # escaped, then a literal [
        return end + 1, count // 2, True, True
    return end - 1, count // 2, False, True  # `###[`: #s, then the style at the last #


def format_draw(expanded: str, base: Style, available: int,
                line: list[Cell] | None = None) -> tuple[list[Cell], list[StatusRange]]:
    """`expanded` (a format already expanded) drawn `available` columns wide over `line`
    (else blanks in `base`), in `base` where no style says otherwise; and the mouse
    ranges it marked."""
    cells = list(line) if line is not None else [style_cell(base)] * available
    parts: list[list[Cell]] = [[] for _ in _Part]
    canvas = _Canvas(cells, parts)
    current = _Part.LEFT
    by_align = dict(_BY_ALIGN)
    style = base
    current_default = base
    focus_start = focus_end = -1
    list_state = -1
    list_align = "default"
    fill: str | None = None
    open_range: _Range | None = None
    index = 0

    def draw(data: str, count: int = 1) -> None:
        for _ in range(count):
            parts[current].append(style_cell(style, data))

    while index < len(expanded):
        char = expanded[index]
        if char == "#" and expanded[index + 1:index + 2] not in ("[", ""):
            index, count, bracket, before_style = _hashes(expanded, index)
            if before_style and style.ignore:
                continue
            draw("#", count)
            if bracket:
                draw("[")
            continue
        if char != "#" or expanded[index + 1:index + 2] != "[" or style.ignore:
            index += 1
            if ord(char) < 0x20 or ord(char) == 0x7F:
                continue  # tmux draws nothing for a control character
            width = char_width(char)
            if width == 0 and parts[current]:  # combining: joins the character before
                at = -2 if parts[current][-1].data == WIDE_STUB and len(parts[current]) > 1 \
                    else -1
                joined = parts[current][at]
                parts[current][at] = joined._replace(data=joined.data + char)
            if width <= 0:
                continue
            draw(char)
            if width == 2:
                draw(WIDE_STUB)
            continue
        end = format_skip(expanded, index + 2, "]")
        if end is None:  # no closing ]: tmux draws nothing of the format
            return cells, []
        saved = style
        try:
            style = parse_style(expanded[index + 2:end], current_default, style)
        except StyleError:
            index = end + 1
            continue
        index = end + 1
        if style.fill is not None:
            fill = style.fill
        if style.default_type == "push":
            current_default = Style(saved.fg, saved.bg, saved.us, saved.attributes)
            style = replace(style, default_type="base")
        elif style.default_type == "pop":
            current_default = base
            style = replace(style, default_type="base")
        if style.list == "on":
            if list_state != 0:
                open_range = None
                list_state = 0
                list_align = style.align
            if focus_start != -1 and focus_end == -1:
                focus_end = len(parts[_Part.LIST])
            current = _Part.LIST
        elif style.list == "focus":
            if list_state == 0 and focus_start == -1:
                focus_start = len(parts[_Part.LIST])
        elif style.list == "off":
            if list_state == 0:
                open_range = None
                if focus_start != -1 and focus_end == -1:
                    focus_end = len(parts[_Part.LIST])
                by_align[list_align] = _Part.AFTER
                if list_align == "left":
                    by_align["default"] = _Part.AFTER
                list_state = 1
            current = by_align[style.align]
        else:
            marker = _Part.LIST_LEFT if style.list == "left-marker" else _Part.LIST_RIGHT
            if list_state == 0 and not parts[marker]:
                open_range = None
                if focus_start != -1 and focus_end == -1:
                    focus_start = focus_end = -1
                current = marker
        if open_range is not None and (open_range.kind, open_range.argument) != (
                style.range, style.range_argument):
            if len(parts[current]) != open_range.start:
                open_range.end = len(parts[current]) + 1
                canvas.ranges.append(open_range)
            open_range = None
        if open_range is None and style.range != "none":
            open_range = _Range(current, style.range, style.range_argument,
                                len(parts[current]))

    if fill is not None:
        cells[:] = [style_cell(Style(bg=fill))] * available
    focus = (focus_start, focus_end) if focus_start != -1 and focus_end != -1 else None
    if list_align == "default":
        _draw_none(canvas, available)
    elif list_align == "left":
        _draw_left(canvas, available, focus)
    elif list_align == "centre":
        _draw_centre(canvas, available, focus)
    elif list_align == "right":
        _draw_right(canvas, available, focus)
    else:
        _draw_list_absolute_centre(canvas, available, focus)
    return canvas.cells, [StatusRange(r.kind, r.argument, r.start, r.end)
                          for r in canvas.ranges]

