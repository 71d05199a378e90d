"""choose-tree: the sessions, their windows and the windows' panes as a tree to pick a
target from, as tmux's `C-b s` (sessions) and `C-b w` (windows) show it.

The model only, as CopyMode is: the client describes the server's state as a tree of
TreeSession/TreeWindow/TreePane values (the model never reaches into the server, so it is
tested as data in and rows out), routes keys to `press`, draws `rows` over the top of
the window and `preview` under it, and runs what a `Choice` names.

The rows are tmux 3.3's: a shortcut, the tree's branches, the item's name and its text,

    (0) - work: 2 windows (attached)
    (1) ├─> + 0: bash*
    (2) └─>   1: vim-: "notes.txt"
    (3) + play: 1 windows

and so are the keys (mode-tree.c's), less tagging, sorting and searching. A filter (as
find-window's) leaves out the panes it is false for, and the windows and sessions left
with none. `of_items` makes the same model a flat list (choose-buffer, choose-client).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from wcwidth import wcwidth

__all__ = ["Choice", "ChooseTree", "KeyOf", "ListItem", "TreeNode", "TreePane",
           "TreeSession", "TreeWindow"]


@dataclass(frozen=True)
class TreePane:
    """A pane as the tree shows it; `title` empty when it is the host's name, which
    tmux leaves out."""

    id: int
    index: int
    command: str
    title: str = ""
    active: bool = False
    text: str | None = None
    """The row's text (choose-tree -F's format expanded for it); None: tmux's default."""


@dataclass(frozen=True)
class TreeWindow:
    """A window as the tree shows it; `flags` is #{window_flags} (`*`, `-`, `Z`)."""

    id: int
    index: int
    name: str
    flags: str = ""
    panes: Sequence[TreePane] = ()
    current: bool = False
    text: str | None = None


@dataclass(frozen=True)
class TreeSession:
    """A session as the tree shows it: the client's description of it, so that the
    model needs no server to be built or tested."""

    id: int
    name: str
    attached: bool = False
    windows: Sequence[TreeWindow] = ()
    text: str | None = None


@dataclass(frozen=True)
class ListItem:
    """A row of a flat list: its `name` and `text` (the row reads `name: text`), and the
    `target` choosing it names (a buffer's name, a client's tty)."""

    target: str
    name: str
    text: str


@dataclass(frozen=True)
class TreeNode:
    """A row of a tree of any other kind (customize-mode's options and key bindings):
    its `target` (what the mode acts on, and what keeps it selected and expanded over a
    rebuild), `name`, `text` (None: the row is its name alone, as tmux's mode-tree
    draws an item without text) and the rows under it."""

    target: str
    name: str
    text: str | None = None
    children: Sequence[TreeNode] = ()


KeyOf = Callable[[int, str], str]
"""A row's shortcut key by its line and its item's target ("" for none): choose-buffer's
and choose-client's -K."""


@dataclass(frozen=True)
class Choice:
    """How choose-tree ended: "cancel", or "choose" `target` in tmux's target syntax
    (`$1` a session, `@3` a window, `%5` a pane), what the client then switches to."""

    kind: Literal["cancel", "choose"]
    target: str = ""


@dataclass(eq=False)
class _Item:
    """One node of the tree: what a row shows of it, and what choosing it names."""

    target: str
    name: str
    text: str | None
    preview: str
    """The pane whose screen the preview shows: the active one under this item."""
    children: list[_Item]
    parent: _Item | None = None
    expanded: bool = False


class _Line(NamedTuple):
    item: _Item
    depth: int
    last: bool
    """The last of its siblings: its branch is `└─>`, not `├─>`."""
    flat: bool
    """None of its siblings has children: no `+`/`-` column for them."""


_UP = {"Up", "k", "C-p", "WheelUpPane"}
_DOWN = {"Down", "j", "C-n", "WheelDownPane"}
_PAGE_UP = {"PageUp", "PPage", "C-b"}
_PAGE_DOWN = {"PageDown", "NPage", "C-f"}
_FIRST = {"Home", "g"}
_LAST = {"End", "G"}
_COLLAPSE = {"Left", "h", "-"}
_EXPAND = {"Right", "l", "+"}
_CHOOSE = {"Enter", "C-m"}
_CANCEL = {"q", "Escape", "escape", "C-c", "C-g"}
_EXPAND_ALL = {"M-+"}
_COLLAPSE_ALL = {"M--"}

Keep = Callable[[int], bool]
"""A filter on panes by id: whether the pane stays in the tree."""


def _pane(pane: TreePane) -> _Item:
    text = pane.command + ("*" if pane.active else "")
    if pane.title:
        text += f': "{pane.title}"'
    text = text if pane.text is None else pane.text
    target = f"%{pane.id}"
    return _Item(target, str(pane.index), text, target, [])


def _window(window: TreeWindow, expanded: bool, keep: Keep | None) -> _Item | None:
    """A window's row; its panes are rows under it only when it has more than one, as
    tmux's window_tree_build_window. None when `keep` leaves none of its panes."""
    panes = [_pane(pane) for pane in window.panes]
    text = window.name + window.flags
    if len(window.panes) == 1 and window.panes[0].title:
        text += f': "{window.panes[0].title}"'
    text = text if window.text is None else window.text
    active = next((p for p, pane in zip(panes, window.panes, strict=True) if pane.active),
                  panes[0] if panes else None)
    kept = [p for p, pane in zip(panes, window.panes, strict=True)
            if keep is None or keep(pane.id)]
    if keep is not None and not kept:
        return None
    return _adopt(_Item(f"@{window.id}", str(window.index), text,
                        active.target if active else "", kept if len(panes) > 1 else [],
                        expanded=expanded))


def _session(session: TreeSession, expanded: bool, panes: bool,
             keep: Keep | None) -> _Item | None:
    """A session's row, its windows under it (and expanded to their panes with
    `panes`); None when `keep` leaves none of its windows."""
    windows = [_window(window, panes, keep) for window in session.windows]
    text = f"{len(windows)} windows" + (" (attached)" if session.attached else "")
    text = text if session.text is None else session.text
    current = next((w for w, window in zip(windows, session.windows, strict=True)
                    if window.current and w is not None), None)
    current = current or next((w for w in windows if w is not None), None)
    kept = [window for window in windows if window is not None]
    if keep is not None and not kept:
        return None
    return _adopt(_Item(f"${session.id}", session.name, text,
                        current.preview if current else "", kept, expanded=expanded))


def _roots(sessions: Sequence[TreeSession], expanded: bool, panes: bool,
           keep: Keep | None) -> list[_Item]:
    items = [_session(session, expanded, panes, keep) for session in sessions]
    return [item for item in items if item is not None]


def _default_key(line: int, target: str) -> str:
    return ChooseTree.default_key(line)


def _adopt(item: _Item) -> _Item:
    for child in item.children:
        child.parent = item
    return item


def _width(text: str) -> int:
    return sum(max(0, wcwidth(char)) for char in text)


def _fit(text: str, width: int) -> str:
    """`text` cut or padded to `width` cells: names and pane text can hold wide
    characters, and a row must never run past its width."""
    out: list[str] = []
    used = 0
    for char in text:
        cells = max(0, wcwidth(char))
        if used + cells > width:
            break
        out.append(char)
        used += cells
    return "".join(out) + " " * (width - used)


class ChooseTree:
    """The tree, which rows of it are expanded, the selected row and the scroll offset.

    The selection is kept as an item rather than a row number so that expanding or
    collapsing above it leaves the same item selected, as tmux keeps its tag.
    """

    def __init__(self, sessions: Sequence[TreeSession], current: int, *,
                 windows: bool, panes: bool = False, current_window: int | None = None,
                 current_pane: int | None = None, keep: Keep | None = None,
                 keys: KeyOf | None = None, sort: str | None = None,
                 preview: bool = True) -> None:
        """`current` is the session id of the pane the tree is for: its row is
        selected, or with `windows` (C-b w, every session expanded to its windows) the
        row of its window `current_window` (its current one when None), or with `panes`
        (every window expanded too) the pane `current_pane`'s row if its window has
        rows for its panes. `keep` filters the panes; when it keeps none the whole tree
        is shown, `filtered` "no matches", as tmux's mode_tree_build."""
        self._shape = (windows or panes, panes)
        self._keep = keep
        self.filtered: str | None = None
        """A filter is on: "active", or "no matches" when it left nothing to show."""
        self._roots = self._grown(sessions)
        self.sort = sort
        """The sort order the preview's title names (`sort: time`), if any."""
        self.previewing = preview
        """The preview is shown under the tree (not -N)."""
        self.preview_rows: int | None = None
        """The preview's height when the mode fixes it (customize-mode's 12, tmux's
        window_customize_height); None: tmux's split by thirds."""
        self._keys = keys or _default_key
        self._lines: list[_Line] = []
        self._build()
        wanted = [f"${current}"]
        session = next((s for s in sessions if s.id == current), None)
        window = next((w for w in session.windows if (
            w.current if current_window is None else w.id == current_window)), None) \
            if session else None
        if window is not None and (windows or panes):
            wanted.insert(0, f"@{window.id}")
            if panes and current_pane is not None:
                wanted.insert(0, f"%{current_pane}")
        targets = self.targets()
        self._selected = next((targets.index(t) for t in wanted if t in targets), 0)
        self._offset = 0
        self._height = 1
        """The rows last drawn: what PageUp/PageDown move by, as tmux's tree height."""

    def _grown(self, sessions: Sequence[TreeSession]) -> list[_Item]:
        """The top-level items of `sessions`, filtered, and `filtered` said."""
        expanded, panes = self._shape
        roots = _roots(sessions, expanded, panes, self._keep)
        self.filtered = None if self._keep is None else "active"
        if self._keep is not None and not roots:
            roots, self.filtered = _roots(sessions, expanded, panes, None), "no matches"
        return roots

    def regrow(self, sessions: Sequence[TreeSession]) -> None:
        """The tree anew from `sessions` (in a new sort order): each item keeps whether
        it was expanded and the selected one stays selected, as mode-tree keeps them
        by tag over a rebuild."""
        expanded = {line.item.target: line.item.expanded for line in self._lines}
        kept = self._lines[self._selected].item.target if self._lines else None

        def restore(items: list[_Item]) -> None:
            for item in items:
                item.expanded = expanded.get(item.target, item.expanded)
                restore(item.children)

        self._roots = self._grown(sessions)
        restore(self._roots)
        self._build()
        targets = self.targets()
        self._selected = targets.index(kept) if kept in targets else 0

    @classmethod
    def of_items(cls, items: Sequence[ListItem], *, keys: KeyOf | None = None,
                 sort: str | None = None, filtered: str | None = None,
                 preview: bool = True) -> ChooseTree:
        """A flat list of `items`, the first selected (choose-buffer, choose-client)."""
        tree = cls([], -1, windows=False, keys=keys, sort=sort, preview=preview)
        tree.filtered = filtered
        tree.replace(items)
        return tree

    def replace(self, items: Sequence[ListItem], *, selected: str | None = None) -> None:
        """The list's items anew (after a delete, a new sort order): the item selected
        stays selected, or `selected`'s is, else the first row, as mode-tree keeps its
        tag over a rebuild."""
        keep = selected
        if keep is None and self._lines:
            keep = self._lines[self._selected].item.target
        self._roots = [_Item(item.target, item.name, item.text, item.target, [])
                       for item in items]
        self._build()
        targets = self.targets()
        self._selected = targets.index(keep) if keep is not None and keep in targets else 0

    @classmethod
    def of_nodes(cls, nodes: Sequence[TreeNode], *, keys: KeyOf | None = None,
                 preview: bool = True) -> ChooseTree:
        """A tree of `nodes`, every one collapsed, the first selected."""
        tree = cls([], -1, windows=False, keys=keys, preview=preview)
        tree.graft(nodes)
        return tree

    def graft(self, nodes: Sequence[TreeNode]) -> None:
        """The tree anew from `nodes` (after an edit): what was expanded stays expanded
        and the selected item selected; when it is gone, the row where it was, as
        mode-tree keeps its tags over a rebuild."""
        expanded: set[str] = set()

        def walk(items: list[_Item]) -> None:
            for item in items:
                if item.expanded:
                    expanded.add(item.target)
                walk(item.children)

        def grown(node: TreeNode) -> _Item:
            return _adopt(_Item(node.target, node.name, node.text, node.target,
                                [grown(child) for child in node.children],
                                expanded=node.target in expanded))

        walk(self._roots)
        kept = self._lines[self._selected].item.target if self._lines else None
        self._roots = [grown(node) for node in nodes]
        self._build()
        targets = self.targets()
        self._selected = (targets.index(kept) if kept in targets
                          else max(0, min(self._selected, len(targets) - 1)))

    @staticmethod
    def default_key(line: int) -> str:
        """tmux's default key format: rows 0 to 9 by their digit, then M-a to M-z, the
        rest none."""
        if line < 10:
            return str(line)
        return f"M-{chr(ord('a') + line - 10)}" if line < 36 else ""

    def targets(self) -> list[str]:
        """What each row names, top to bottom."""
        return [line.item.target for line in self._lines]

    @property
    def selected(self) -> int:
        """The selected row, counted from the top of the whole tree."""
        return self._selected

    @property
    def line_count(self) -> int:
        return len(self._lines)

    def press(self, name: str) -> Choice | None:
        """Take one key by its tmux name; a Choice when choose-tree is over."""
        keys = self._row_keys()
        if name in keys:
            self._selected = keys.index(name)
            return self._choose()
        if name in _CANCEL:
            return Choice("cancel")
        if not self._lines:
            return None
        if name in _CHOOSE:
            return self._choose()
        if name in _UP:
            self._move(-1)
        elif name in _DOWN:
            self._move(1)
        elif name in _PAGE_UP:
            self._selected = max(0, self._selected - self._height)
        elif name in _PAGE_DOWN:
            self._selected = min(len(self._lines) - 1, self._selected + self._height)
        elif name in _FIRST:
            self._selected = 0
        elif name in _LAST:
            self._selected = len(self._lines) - 1
        elif name in _COLLAPSE:
            self._collapse()
        elif name in _EXPAND:
            self._expand()
        elif name in _EXPAND_ALL or name in _COLLAPSE_ALL:
            self._expand_all(name in _EXPAND_ALL)
        return None

    def preview_target(self) -> str:
        """The pane (`%N`) whose screen the preview shows: the selected pane, or the
        active pane of the selected window or of the selected session's current window;
        "" for a window or session without panes."""
        if not self._lines:
            return ""
        return self._lines[self._selected].item.preview

    def tree_height(self, height: int) -> int:
        """Of `height` rows, how many the tree takes; the rest (none when too few to
        show anything) is the preview's. tmux's split: two thirds, half when the tree is
        short, all of it in a small window."""
        if not self.previewing:
            return height
        tree = height // 3 * 2
        if self.preview_rows is not None:
            tree = max(0, height - self.preview_rows)
        elif tree > len(self._lines):
            tree = height // 2
        if tree < 10 or height - tree <= 4:
            tree = height
        return tree

    def rows(self, width: int, height: int) -> list[tuple[str, str]]:
        """The tree in `width` x `height` cells: (style class, text) a row, the selected
        one "selected" and scrolled into view. Scrolling moves only as far as it must,
        so the rows do not jump about under the user as the selection moves."""
        self._height = max(1, height)
        count = len(self._lines)
        if self._selected < self._offset:
            self._offset = self._selected
        elif self._selected >= self._offset + height:
            self._offset = self._selected - height + 1
        self._offset = max(0, min(self._offset, count - height))
        keys = self._row_keys()
        keylen = max((len(key) for key in keys if key), default=-3) + 3
        shown: list[tuple[str, str]] = []
        for i in range(self._offset, min(count, self._offset + height)):
            style = "selected" if i == self._selected else ""
            shown.append((style, _fit(self._text(i, keys[i], keylen), width)))
        shown += [("", " " * width)] * (height - len(shown))
        return shown

    def preview(self, pane_lines: list[str], width: int, height: int, *,
                cursor: int = 0) -> list[str]:
        """The preview box in `width` x `height` cells, `pane_lines` (the screen of the
        pane `preview_target` names) inside it; the rows are scrolled, as tmux's, only
        when the cursor's row (`cursor`) would be below the box."""
        if width < 2 or height < 2:
            return [" " * width] * height
        inner = width - 4
        top = "┌" + self._title(width) + "─" * width
        box = [_fit(top, width - 1) + "┐"]
        lines = height - 2
        first = max(0, cursor - lines + 1)
        for y in range(lines):
            text = pane_lines[first + y] if first + y < len(pane_lines) else ""
            body = " " + _fit(text, inner) + " " if inner > 0 else _fit("", width - 2)
            box.append("│" + body + "│")
        box.append("└" + "─" * (width - 2) + "┘")
        return box

    def _title(self, width: int) -> str:
        """The preview box's title, as mode-tree.c writes it on the box: the item's
        name, the sort order and whether a filter is on, when they fit."""
        if not self._lines:
            return ""
        title = f" {self._lines[self._selected].item.name}"
        if self.sort:
            title += f" (sort: {self.sort})"
        if _width(title) > width - 2:
            return ""
        if self.filtered and width - 2 >= _width(title) + 12 + len(self.filtered):
            return title + f" (filter: {self.filtered}) "
        return title + " "

    def _row_keys(self) -> list[str]:
        return [self._keys(i, line.item.target) for i, line in enumerate(self._lines)]

    def _text(self, i: int, key: str, keylen: int) -> str:
        """Row i as mode-tree.c draws it: its key in a column as wide as the widest
        key's, then the tree's branches, the item's name and its text."""
        line = self._lines[i]
        item = line.item
        key = f"({key})" + " " * (keylen - 2 - len(key)) if key else ""
        if line.flat:
            symbol = ""
        elif not item.children:
            symbol = "  "
        else:
            symbol = "- " if item.expanded else "+ "
        start = symbol
        if line.depth:
            parent = item.parent
            parent_last = parent is not None and self._lines[self._index(parent)].last
            start = ("    " if parent_last else "│   ") * (line.depth - 1)
            start += ("└─> " if line.last else "├─> ") + symbol
        text = "" if item.text is None else f": {item.text}"
        return f"{key.ljust(keylen)}{start}{item.name}{text}"

    def _choose(self) -> Choice:
        return Choice("choose", self._lines[self._selected].item.target)

    def _move(self, step: int) -> None:
        """Up and Down go round from one end to the other, as tmux's."""
        self._selected = (self._selected + step) % len(self._lines)

    def _collapse(self) -> None:
        """Left collapses the selected item, or if there is nothing to collapse its
        parent, selecting that; on a collapsed top-level row it moves up, as tmux's."""
        line = self._lines[self._selected]
        item: _Item | None = line.item
        if line.flat or not line.item.expanded:
            item = line.item.parent
        if item is None:
            self._selected = max(0, self._selected - 1)
            return
        item.expanded = False
        self._build()
        self._selected = self._index(item)

    def _expand(self) -> None:
        """Right expands a collapsed item; on an expanded one, or one without children,
        it moves down, as tmux's."""
        line = self._lines[self._selected]
        if line.flat or line.item.expanded or not line.item.children:
            self._selected = min(len(self._lines) - 1, self._selected + 1)
            return
        line.item.expanded = True
        self._build()

    def _expand_all(self, expanded: bool) -> None:
        """M-+ and M-- expand or collapse every top-level item, as mode-tree's; the
        selection stays on its item, or on the top-level one it was under."""
        item = self._lines[self._selected].item
        while not expanded and item.parent is not None:
            item = item.parent
        for root in self._roots:
            root.expanded = expanded and bool(root.children)
        self._build()
        self._selected = self._index(item)

    def _index(self, item: _Item) -> int:
        return next(i for i, line in enumerate(self._lines) if line.item is item)

    def _build(self) -> None:
        """The rows: every item whose ancestors are all expanded, in tree order."""
        self._lines = []

        def add(items: list[_Item], depth: int) -> None:
            flat = not any(item.children for item in items)
            for n, item in enumerate(items):
                self._lines.append(_Line(item, depth, n == len(items) - 1, flat))
                if item.expanded:
                    add(item.children, depth + 1)

        add(self._roots, 0)
