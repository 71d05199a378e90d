"""A window's layout: a tree of cells, leaves holding panes, with tmux's arithmetic.

A cell is a leaf (one pane) or a row (children side by side, split with `-h`) or a
column (children stacked, `-v`), children separated by one-cell borders. The numbers
follow tmux 3.3's layout.c: splitting a cell of size N gives the new cell (N - 1) / 2
unless a size or percentage is asked for, and the other N - 1 - that; a split in the
direction of the parent adds a sibling instead of nesting; a closed cell's space (and
its border) goes to the next sibling, or the previous one if it was last, and a
container left with one child is replaced by it. tests/mux/test_layout.py holds these
against figures read from a real tmux.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

__all__ = ["Cell", "LayoutError", "close", "new_cell_size", "resize", "split"]

P = TypeVar("P")
Kind = Literal["pane", "row", "column"]


class LayoutError(Exception):
    """A split that does not fit; the message is tmux's."""


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
    if before:  # the new leaf comes first, and the first of the two gets the larger part
        if horizontal:
            new.width, target.width = old_size, new_size
        else:
            new.height, target.height = old_size, new_size
        parent.children.insert(position, new)
    else:
        parent.children.insert(position + 1, new)
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
    if before:
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
    """Remove `pane`'s leaf; its space goes to a neighbour. The new root (None: empty)."""
    leaf = root.find(pane)
    parent = leaf.parent
    if parent is None:
        return None
    origin = (root.x, root.y)
    index = parent.children.index(leaf)
    parent.children.remove(leaf)
    neighbour = parent.children[index] if index < len(parent.children) else parent.children[-1]
    if parent.kind == "row":
        _grow(neighbour, leaf.width + 1, horizontal=True)
    else:
        _grow(neighbour, leaf.height + 1, horizontal=False)
    if len(parent.children) == 1:
        only = parent.children[0]
        grand = parent.parent
        only.parent = grand
        if grand is None:
            root = only
        else:
            grand.children[grand.children.index(parent)] = only
            if only.kind == grand.kind:  # same direction: its children join the grandparent
                at = grand.children.index(only)
                for child in only.children:
                    child.parent = grand
                grand.children[at : at + 1] = only.children
    root.place(*origin)
    return root


def resize(root: Cell[P], width: int, height: int) -> None:
    """The whole layout to width x height: the change goes to the last cells (tmux gives
    it to the last cell too); a cell never gets smaller than one."""
    _grow(root, width - root.width, horizontal=True)
    _grow(root, height - root.height, horizontal=False)
    root.place(root.x, root.y)


def _grow(cell: Cell[P], amount: int, *, horizontal: bool) -> None:
    """Give `cell` `amount` more cells across (its last child along, all children across)."""
    if horizontal:
        cell.width += amount
    else:
        cell.height += amount
    along = (cell.kind == "row") == horizontal
    if cell.kind == "pane":
        return
    if along:
        # From the last child backwards, each down to a size of one at the least.
        for child in reversed(cell.children):
            size = child.width if horizontal else child.height
            step = amount if amount > 0 else max(amount, 1 - size)
            _grow(child, step, horizontal=horizontal)
            amount -= step
            if not amount:
                break
    else:
        for child in cell.children:
            _grow(child, amount, horizontal=horizontal)


def _root(cell: Cell[P]) -> Cell[P]:
    while cell.parent is not None:
        cell = cell.parent
    return cell
