"""A window's layout: a tree of cells, leaves holding panes, with tmux's arithmetic.

A cell is a leaf (one pane) or a row (children side by side, split with `-h`) or a
column (children stacked, `-v`), children separated by one-cell borders. The numbers
follow tmux 3.3's layout.c and layout-set.c: splitting a cell of size N gives the new
cell (N - 1) / 2 unless a size or percentage is asked for, and the other N - 1 - that;
a split in the direction of the parent adds a sibling instead of nesting; a closed
cell's space (and its border) goes to the previous sibling, or the next one if it was
first, and a container left with one child is replaced by it. Sizes change as tmux's
layout_resize_adjust deals them out (one cell to each child in turn), which window
resizes, resize-pane and the select-layout presets all go through. The tests hold
these against figures read from a real tmux (tests/mux/test_layout_presets.py asks a
live one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

__all__ = [
    "MAIN_PANE_HEIGHT",
    "MAIN_PANE_WIDTH",
    "PRESETS",
    "Cell",
    "Direction",
    "Kind",
    "LayoutError",
    "checksum",
    "close",
    "describe",
    "find_preset",
    "new_cell_size",
    "next_layout",
    "resize",
    "resize_pane",
    "resize_pane_to",
    "select_layout",
    "split",
]

P = TypeVar("P")
Kind = Literal["pane", "row", "column"]


class LayoutError(Exception):
    """A split that does not fit, a layout name that is none; the message is tmux's."""


@dataclass(eq=False)
class Cell(Generic[P]):
    kind: Kind
    width: int
    height: int
    x: int = 0
    y: int = 0
    pane: P | None = None
    children: list[Cell[P]] = field(default_factory=list)
    parent: Cell[P] | None = None

    def leaves(self) -> Iterator[Cell[P]]:
        """Leaf cells in tmux's pane order (left to right, top to bottom)."""
        if self.kind == "pane":
            yield self
        for child in self.children:
            yield from child.leaves()

    def find(self, pane: P) -> Cell[P]:
        for leaf in self.leaves():
            if leaf.pane is pane:
                return leaf
        raise KeyError("pane not in this layout")

    def place(self, x: int, y: int) -> None:
        """Set every cell's position from this one's (after sizes changed)."""
        self.x, self.y = x, y
        offset = 0
        for child in self.children:
            if self.kind == "row":
                child.place(x + offset, y)
                offset += child.width + 1
            else:
                child.place(x, y + offset)
                offset += child.height + 1


def describe(root: Cell[P], pane_id: Callable[[P], int]) -> str:
    """The layout as tmux writes it (#{window_layout}, layout_dump): a checksum, then
    `WxH,X,Y` per cell, a pane's number after its leaf, a row's children in `{}`, a
    column's in `[]`."""
    body = dump(root, pane_id)
    return f"{checksum(body):04x},{body}"


def checksum(body: str) -> int:
    """tmux's layout_checksum of what follows the checksum in a layout string."""
    total = 0
    for char in body.encode():
        total = ((total >> 1) + ((total & 1) << 15) + char) & 0xFFFF
    return total


def dump(cell: Cell[P], pane_id: Callable[[P], int]) -> str:
    """The layout string without its checksum: what tells two layouts apart."""
    head = f"{cell.width}x{cell.height},{cell.x},{cell.y}"
    if cell.kind == "pane":
        assert cell.pane is not None
        return f"{head},{pane_id(cell.pane)}"
    opening, closing = "{}" if cell.kind == "row" else "[]"
    return head + opening + ",".join(dump(child, pane_id) for child in cell.children) + closing


def split(
    cell: Cell[P],
    pane: P,
    *,
    horizontal: bool,
    size: int | None = None,
    percentage: int | None = None,
    before: bool = False,
) -> Cell[P]:
    """Split leaf `cell`: `pane` gets the new leaf (after it, or before with `-b`)."""
    total = cell.width if horizontal else cell.height
    new_size = _new_size(total, size, percentage)
    kind: Kind = "row" if horizontal else "column"
    old_size = total - 1 - new_size
    parent = cell.parent
    if parent is None or parent.kind != kind:
        # Nest: a container takes the leaf's place and holds it and the new leaf.
        container = Cell[P](kind, cell.width, cell.height, cell.x, cell.y, parent=parent)
        if parent is None:
            root = container
        else:
            parent.children[parent.children.index(cell)] = container
            root = _root(parent)
        cell.parent = container
        container.children = [cell]
        parent = container
    else:
        root = _root(parent)
    target = cell
    new = Cell[P]("pane", target.width, target.height, pane=pane, parent=parent)
    if horizontal:
        target.width, new.width = old_size, new_size
    else:
        target.height, new.height = old_size, new_size
    position = parent.children.index(target)
    if before:
        parent.children.insert(position, new)
    else:
        parent.children.insert(position + 1, new)
    if before and size is None and percentage is None:
        # The new leaf first, and as tmux halves a cell, the first gets the larger part.
        if horizontal:
            new.width, target.width = old_size, new_size
        else:
            new.height, target.height = old_size, new_size
    root.place(root.x, root.y)
    return root


def new_cell_size(
    cell: Cell[P],
    *,
    horizontal: bool,
    size: int | None = None,
    percentage: int | None = None,
    before: bool = False,
) -> tuple[int, int]:
    """(width, height) the new leaf of `split` with these arguments will have."""
    total = cell.width if horizontal else cell.height
    new_size = _new_size(total, size, percentage)
    if before and size is None and percentage is None:
        new_size = total - 1 - new_size
    return (new_size, cell.height) if horizontal else (cell.width, new_size)


def _new_size(total: int, size: int | None, percentage: int | None) -> int:
    if percentage is not None:
        new_size = total * percentage // 100
    elif size is not None:
        new_size = size
    else:
        new_size = (total - 1) // 2
    new_size = min(new_size, total - 2)
    if total < 3 or new_size < 1:
        raise LayoutError("no space for new pane")
    return new_size


def close(root: Cell[P], pane: P) -> Cell[P] | None:
    """Remove `pane`'s leaf; its space goes to a neighbour. The new root (None: empty).

    A container left with one child is replaced by that child as it is, even a row
    landing in a row: tmux keeps such nesting, and it matters later, for a border moved
    next to it takes from all of its children in turn.
    """
    leaf = root.find(pane)
    parent = leaf.parent
    if parent is None:
        return None
    origin = (root.x, root.y)
    index = parent.children.index(leaf)
    parent.children.remove(leaf)
    neighbour = parent.children[index - 1] if index > 0 else parent.children[0]
    horizontal = parent.kind == "row"
    _adjust(neighbour, _size(leaf, horizontal) + 1, horizontal=horizontal)
    if len(parent.children) == 1:
        only = parent.children[0]
        grand = parent.parent
        only.parent = grand
        if grand is None:
            root = only
        else:
            grand.children[grand.children.index(parent)] = only
    root.place(*origin)
    return root


def resize(root: Cell[P], width: int, height: int) -> None:
    """The whole layout to width x height, as tmux's layout_resize: the change is dealt
    out one cell at a time over the children, and a shrink stops where every pane is
    down to one cell (the layout is then larger than the window, as in tmux)."""
    for horizontal, wanted in ((True, width), (False, height)):
        change = wanted - _size(root, horizontal)
        change = max(change, -_spare(root, horizontal))
        if change:
            _adjust(root, change, horizontal=horizontal)
    root.place(root.x, root.y)


# --- presets: select-layout, C-b Space ------------------------------------------------

PRESETS = ("even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled")
"""select-layout's names, in the order C-b Space (next-layout) steps through them."""

MAIN_PANE_HEIGHT = 24
"""tmux 3.3's default main-pane-height: the top pane of main-horizontal."""

MAIN_PANE_WIDTH = 80
"""tmux 3.3's default main-pane-width: the left pane of main-vertical."""


def find_preset(name: str) -> str:
    """The preset `name` stands for: its full name or a prefix of only one (tmux accepts
    `even-h`). Anything else is tmux's error (tmux 3.3a goes on to read it as a layout
    string; an ambiguous prefix such as `main` even stops its server)."""
    matches = [preset for preset in PRESETS if preset.startswith(name)]
    if len(matches) != 1:
        raise LayoutError(f"invalid layout: {name}")
    return matches[0]


def next_layout(name: str | None) -> str:
    """The preset after `name` (C-b Space); the first when no preset was applied yet."""
    if name is None:
        return PRESETS[0]
    return PRESETS[(PRESETS.index(find_preset(name)) + 1) % len(PRESETS)]


def select_layout(root: Cell[P], name: str) -> Cell[P]:
    """A new tree arranging the panes of `root` (in their order) as the preset `name`,
    for a window of root's size, placed at root's origin.

    A window too small for the preset gets a larger layout, each pane at least one
    cell: tmux then grows the window to the layout's size. One pane: `root` unchanged.
    """
    arrange = _ARRANGEMENTS[find_preset(name)]
    panes = [leaf.pane for leaf in root.leaves() if leaf.pane is not None]
    if len(panes) <= 1:
        return root
    arranged = arrange(panes, root.width, root.height)
    arranged.place(root.x, root.y)
    return arranged


def _even_horizontal(panes: list[P], width: int, height: int) -> Cell[P]:
    return _even(panes, "row", max(width, _least(len(panes))), height)


def _even_vertical(panes: list[P], width: int, height: int) -> Cell[P]:
    return _even(panes, "column", width, max(height, _least(len(panes))))


def _even(panes: list[P], kind: Kind, width: int, height: int) -> Cell[P]:
    """All the panes side by side (a row) or stacked (a column), spread evenly."""
    container = _node(kind, width, height, [_leaf(pane, width, height) for pane in panes])
    _spread(container)
    return container


def _main_horizontal(panes: list[P], width: int, height: int) -> Cell[P]:
    """The first pane across the top, main-pane-height tall; the others in a row below."""
    main, other = _main_and_other(height, MAIN_PANE_HEIGHT)
    width = max(width, _least(len(panes) - 1))
    return _node("column", width, main + other + 1, [
        _leaf(panes[0], width, main), _others(panes[1:], "row", width, other),
    ])


def _main_vertical(panes: list[P], width: int, height: int) -> Cell[P]:
    """The first pane down the left, main-pane-width wide; the others stacked beside it."""
    main, other = _main_and_other(width, MAIN_PANE_WIDTH)
    height = max(height, _least(len(panes) - 1))
    return _node("row", main + other + 1, height, [
        _leaf(panes[0], main, height), _others(panes[1:], "column", other, height),
    ])


def _main_and_other(window: int, wanted: int) -> tuple[int, int]:
    """The main pane's size and the others' along a window of size `window` (less the
    border between them). A main pane that leaves the others less than one cell gives
    way, down to one cell itself when the window is tiny."""
    room = window - 1
    if wanted + 1 >= room:
        return (1 if room <= 2 else room - 1), 1
    return wanted, room - wanted


def _others(panes: list[P], kind: Kind, width: int, height: int) -> Cell[P]:
    """The panes after the main one: a lone pane is a leaf, more are spread evenly."""
    if len(panes) == 1:
        return _leaf(panes[0], width, height)
    return _even(panes, kind, width, height)


def _tiled(panes: list[P], width: int, height: int) -> Cell[P]:
    """A grid, rows added before columns until there are enough places; the last pane
    alone in its row takes the whole row, and the last row and column take the rest."""
    count = len(panes)
    rows = columns = 1
    while rows * columns < count:
        rows += 1
        if rows * columns < count:
            columns += 1
    tile_width = max(1, (width - (columns - 1)) // columns)
    tile_height = max(1, (height - (rows - 1)) // rows)
    grid = _node(
        "column",
        max(width, (tile_width + 1) * columns - 1),
        max(height, (tile_height + 1) * rows - 1),
        [_tiled_row(panes[at : at + columns], width, tile_width, tile_height)
         for at in range(0, count, columns)],
    )
    used = rows * (tile_height + 1) - 1
    if height > used:
        _adjust(grid.children[-1], height - used, horizontal=False)
    return grid


def _tiled_row(panes: list[P], width: int, tile_width: int, tile_height: int) -> Cell[P]:
    if len(panes) == 1:
        return _leaf(panes[0], width, tile_height)
    row = _node("row", width, tile_height, [_leaf(p, tile_width, tile_height) for p in panes])
    used = len(panes) * (tile_width + 1) - 1
    if width > used:
        _adjust(row.children[-1], width - used, horizontal=True)
    return row


_ARRANGEMENTS = {
    "even-horizontal": _even_horizontal,
    "even-vertical": _even_vertical,
    "main-horizontal": _main_horizontal,
    "main-vertical": _main_vertical,
    "tiled": _tiled,
}


def _least(count: int) -> int:
    """Cells that `count` panes of one cell each take with the borders between them."""
    return 2 * count - 1


def _leaf(pane: P, width: int, height: int) -> Cell[P]:
    return Cell[P]("pane", width, height, pane=pane)


def _node(kind: Kind, width: int, height: int, children: list[Cell[P]]) -> Cell[P]:
    node = Cell[P](kind, width, height, children=children)
    for child in children:
        child.parent = node
    return node


def _spread(container: Cell[P]) -> bool:
    """Children of a row or column made equal along it; the last takes what is left
    (tmux's layout_spread_cell). Whether any changed."""
    horizontal = container.kind == "row"
    count = len(container.children)
    if count <= 1:
        return False
    size = _size(container, horizontal)
    each = (size - (count - 1)) // count
    if each < 1:
        return False
    changed = False
    for child in container.children:
        share = size - (each + 1) * (count - 1) if child is container.children[-1] else each
        if share != _size(child, horizontal):
            _adjust(child, share - _size(child, horizontal), horizontal=horizontal)
            changed = True
    return changed


# --- resize-pane -L -R -U -D, -x -y -------------------------------------------------

Direction = Literal["L", "R", "U", "D"]


def resize_pane(root: Cell[P], pane: P, *, direction: Direction, amount: int = 1) -> None:
    """resize-pane -L/-R/-U/-D `amount`: move a border of `pane`'s cell that way.

    The border moved is the one after the cell (in the nearest row for L and R, the
    nearest column for U and D), or the one before it for the last cell, so -L always
    moves a border left, whether that grows or shrinks the pane. The cells the border
    runs into give up space down to one cell each, the nearest first; when growing and
    nothing after has any left, cells before give instead. A pane with no border that
    way (alone across the window) stays as it is.
    """
    horizontal = direction in ("L", "R")
    change = amount if direction in ("R", "D") else -amount
    _move_border(root.find(pane), change, horizontal=horizontal)
    root.place(root.x, root.y)


def resize_pane_to(
    root: Cell[P], pane: P, *, width: int | None = None, height: int | None = None
) -> None:
    """resize-pane -x `width` -y `height`: the cell holding `pane` in the nearest row
    (column) made that wide (tall), by moving its border as resize_pane does; as far
    as the neighbours have room."""
    leaf = root.find(pane)
    for wanted, horizontal in ((width, True), (height, False)):
        side = _side(leaf, horizontal=horizontal)
        if wanted is None or side is None or side.parent is None:
            continue
        size = _size(side, horizontal)
        last = side is side.parent.children[-1]
        _move_border(leaf, size - wanted if last else wanted - size, horizontal=horizontal)
    root.place(root.x, root.y)


def _side(leaf: Cell[P], *, horizontal: bool) -> Cell[P] | None:
    """The cell, `leaf` or one holding it, that is a child of the nearest row (column):
    the one whose borders move. None: nothing is beside (above, below) the leaf."""
    kind: Kind = "row" if horizontal else "column"
    cell = leaf
    while cell.parent is not None and cell.parent.kind != kind:
        cell = cell.parent
    return None if cell.parent is None else cell


def _move_border(leaf: Cell[P], change: int, *, horizontal: bool) -> None:
    """Grow (change > 0) or shrink the cell before a border by up to |change| cells."""
    cell = _side(leaf, horizontal=horizontal)
    if cell is None or cell.parent is None:
        return
    siblings = cell.parent.children
    if cell is siblings[-1]:
        cell = siblings[-2]  # the last cell has no border after it: move the one before
    step = _push_border if change > 0 else _pull_border
    remaining = abs(change)
    while remaining:
        moved = step(cell, remaining, horizontal=horizontal)
        if not moved:
            break
        remaining -= moved


def _push_border(cell: Cell[P], wanted: int, *, horizontal: bool) -> int:
    """Grow `cell` from the first sibling after it with room, else the nearest before."""
    siblings = _siblings(cell)
    at = siblings.index(cell)
    donor = _first_with_room([*siblings[at + 1 :], *reversed(siblings[:at])], horizontal)
    if donor is None:
        return 0
    moved = min(_spare(donor, horizontal), wanted)
    _adjust(cell, moved, horizontal=horizontal)
    _adjust(donor, -moved, horizontal=horizontal)
    return moved


def _pull_border(cell: Cell[P], wanted: int, *, horizontal: bool) -> int:
    """Shrink `cell` (or, at one cell already, the nearest before it with room) in favour
    of the sibling after it."""
    siblings = _siblings(cell)
    at = siblings.index(cell)
    donor = _first_with_room([cell, *reversed(siblings[:at])], horizontal)
    if donor is None:
        return 0
    moved = min(_spare(donor, horizontal), wanted)
    _adjust(siblings[at + 1], moved, horizontal=horizontal)
    _adjust(donor, -moved, horizontal=horizontal)
    return moved


def _siblings(cell: Cell[P]) -> list[Cell[P]]:
    return [cell] if cell.parent is None else cell.parent.children


def _first_with_room(cells: list[Cell[P]], horizontal: bool) -> Cell[P] | None:
    return next((cell for cell in cells if _spare(cell, horizontal)), None)


# --- tmux's cell arithmetic --------------------------------------------------------

def spread_out(root: Cell[P], pane: P) -> None:
    """select-layout -E: `pane`'s cell and its siblings made the same size, or if they
    are, its parent's and theirs, up the tree, as tmux's layout_spread_out."""
    cell: Cell[P] | None = root.find(pane).parent
    while cell is not None:
        if _spread(cell):
            root.place(root.x, root.y)
            return
        cell = cell.parent


def _size(cell: Cell[P], horizontal: bool) -> int:
    return cell.width if horizontal else cell.height


def _spare(cell: Cell[P], horizontal: bool) -> int:
    """How much `cell` could shrink across (horizontal) or down, each pane keeping one
    cell: the sum over children laid out that way, the least over children across it."""
    if cell.kind == "pane":
        return max(_size(cell, horizontal) - 1, 0)
    spares = [_spare(child, horizontal) for child in cell.children]
    along = (cell.kind == "row") == horizontal
    return sum(spares) if along else min(spares)


def _adjust(cell: Cell[P], change: int, *, horizontal: bool) -> None:
    """Change `cell`'s size by `change` as tmux's layout_resize_adjust: children across
    all change by as much; children along change one cell at a time in turn from the
    first (skipping, when shrinking, those down to one cell) until it is dealt out."""
    if horizontal:
        cell.width += change
    else:
        cell.height += change
    if cell.kind == "pane":
        return
    if (cell.kind == "row") != horizontal:
        for child in cell.children:
            _adjust(child, change, horizontal=horizontal)
        return
    step = 1 if change > 0 else -1
    while change:
        dealt = False
        for child in cell.children:
            if not change:
                break
            if step > 0 or _spare(child, horizontal):
                _adjust(child, step, horizontal=horizontal)
                change -= step
                dealt = True
        if not dealt:
            break


def _root(cell: Cell[P]) -> Cell[P]:
    while cell.parent is not None:
        cell = cell.parent
    return cell
