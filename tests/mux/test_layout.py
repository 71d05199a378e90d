"""Layout arithmetic, against figures read from tmux 3.3a for the same splits."""

from __future__ import annotations

from termhost.mux.layout import Cell, close, split


def shape(root: Cell[str]) -> list[str]:
    return [f"{c.pane} {c.x},{c.y} {c.width}x{c.height}" for c in root.leaves()]


def test_splits_and_a_close_as_tmux_does_them() -> None:
    # tmux: new -x 80 -y 24; splitw -h; splitw -v; splitw -h -p 30; splitw -v -l 5; killp %2
    root = Cell[str]("pane", 80, 24, pane="%0")
    root = split(root, "%1", horizontal=True)
    assert shape(root) == ["%0 0,0 40x24", "%1 41,0 39x24"]
    root = split(root.find("%1"), "%2", horizontal=False)
    assert shape(root) == ["%0 0,0 40x24", "%1 41,0 39x12", "%2 41,13 39x11"]
    root = split(root.find("%2"), "%3", horizontal=True, percentage=30)
    assert shape(root)[2:] == ["%2 41,13 27x11", "%3 69,13 11x11"]
    root = split(root.find("%3"), "%4", horizontal=False, size=5)
    assert shape(root)[3:] == ["%3 69,13 11x5", "%4 69,19 11x5"]
    closed = close(root, "%2")
    assert closed is not None
    assert shape(closed) == [
        "%0 0,0 40x24", "%1 41,0 39x12", "%3 41,13 39x5", "%4 41,19 39x5",
    ]
    # selectp -t %0; splitw -v -b
    root = split(closed.find("%0"), "%5", horizontal=False, before=True)
    assert shape(root)[:2] == ["%5 0,0 40x12", "%0 0,13 40x11"]


def test_a_split_along_the_parent_adds_a_sibling() -> None:
    # tmux: new -x 81 -y 25; splitw -h; splitw -h; splitw -t %0 -v
    root = Cell[str]("pane", 81, 25, pane="%0")
    root = split(root, "%1", horizontal=True)
    root = split(root.find("%1"), "%2", horizontal=True)
    assert [(c.x, c.width) for c in root.leaves()] == [(0, 40), (41, 20), (62, 19)]
    assert len(root.children) == 3
    root = split(root.find("%0"), "%3", horizontal=False)
    assert [(c.pane, c.y, c.height) for c in root.leaves()] == [
        ("%0", 0, 12), ("%3", 13, 12), ("%1", 0, 25), ("%2", 0, 25),
    ]


def test_closing_down_to_one_pane_gives_it_the_whole_window() -> None:
    root = Cell[str]("pane", 80, 24, pane="a")
    root = split(root, "b", horizontal=True)
    root = split(root.find("b"), "c", horizontal=False)
    root = close(root, "b")  # type: ignore[assignment]
    root = close(root, "a")  # type: ignore[assignment]
    assert shape(root) == ["c 0,0 80x24"]
    assert root.parent is None
    assert close(root, "c") is None
