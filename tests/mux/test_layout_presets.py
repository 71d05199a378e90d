"""select-layout, resize-pane and window resizes, against a live tmux 3.3a.

Every case is a short tmux session: a detached window of some size, splits, then the
commands under test. The same steps replay on our tree, and tmux's answer must come
back exactly: every pane's place and size (list-panes, in pane order) and the whole
tree with each cell's geometry (#{window_layout}, pane ids read as pane indexes), which
also shows the layout's size when it outgrows a window too small for it.
"""

from __future__ import annotations

import itertools
import re
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from termhost.mux.layout import (
    PRESETS,
    Cell,
    Direction,
    LayoutError,
    close,
    find_preset,
    next_layout,
    resize,
    resize_pane,
    resize_pane_to,
    select_layout,
    split,
)
from tests.conftest import BASE_ENV, DEADLINE

PANES = "#{pane_index} #{pane_left} #{pane_top} #{pane_width} #{pane_height} #{pane_id}"
END = "end-of-case"
WINDOW_VERBS = ("selectl", "next-layout", "resizew")
"""Steps on the whole window; every other step names its pane (`-t N`)."""


@dataclass(frozen=True)
class Case:
    """A window `cols` x `rows` made by the `start` commands (splits, kills), then the
    `steps` under test, which keep the panes: cases with the same start share one
    window, put back as it was after each (panes are slow to start, layouts are not).
    In both, `-t N` names pane N."""

    cols: int
    rows: int
    start: tuple[str, ...]
    steps: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.cols}x{self.rows}: {'; '.join(self.start)} | {'; '.join(self.steps)}"


@dataclass(frozen=True)
class Arrangement:
    """What a person would check: each pane's `index left top width height`, and the
    tree as #{window_layout} writes it (without the checksum) with pane indexes."""

    panes: tuple[str, ...]
    tree: str


Start = tuple[int, int, tuple[str, ...]]


class TmuxLayouts:
    """A private tmux server (its own socket, no config); a holder session keeps it up
    between cases."""

    def __init__(self) -> None:
        program = shutil.which("tmux")
        if program is None:
            pytest.fail("tmux is not installed: the tests need it (.ci/run apt-get installs it)")
        self._home = Path(tempfile.mkdtemp(prefix="termhost-layout-"))
        # The socket in our own directory: it goes with the directory at the end.
        self.command = [program, "-S", str(self._home / "socket"), "-f", "/dev/null"]
        self._env = {**BASE_ENV, "HOME": str(self._home)}  # no TMUX: never the user's server
        self._sessions = itertools.count()
        self.run("new-session", "-d", "-s", "holder", "sleep 1000000")

    def close(self) -> None:
        try:
            self.run("kill-server")
        finally:
            shutil.rmtree(self._home, ignore_errors=True)

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.command, *args], env=self._env, capture_output=True,
                              text=True, timeout=DEADLINE, check=False)

    def arrangements(self, cases: list[Case]) -> list[Arrangement]:
        """Each case's arrangement: one window per start, its layout saved, then every
        case on it followed by select-layout with the saved layout."""
        sessions = {start: f"case-{next(self._sessions)}"
                    for start in dict.fromkeys((c.cols, c.rows, c.start) for c in cases)}
        saved = self._source([line for start, session in sessions.items()
                              for line in _opened(start, session)])
        layouts = dict(zip(sessions.values(), saved.splitlines(), strict=True))
        lines: list[list[str]] = []
        for case in cases:
            session = sessions[case.cols, case.rows, case.start]
            lines += [_tmux_words(step, session) for step in case.steps]
            lines += [["list-panes", "-t", session, "-F", PANES],
                      ["display", "-p", "-t", session, f"{END} #{{window_layout}}"],
                      ["resize-window", "-t", session, "-x", str(case.cols),
                       "-y", str(case.rows)],
                      ["select-layout", "-t", session, layouts[session]]]
        lines += [["kill-session", "-t", session] for session in sessions.values()]
        return _read_arrangements(self._source(lines))

    def _source(self, lines: list[list[str]]) -> str:
        """Run commands from a file: one tmux client for the lot (fast, and no limit on a
        command line's length). Their output; any error fails the test."""
        script = self._home / "cases.conf"
        script.write_text("".join(shlex.join(words) + "\n" for words in lines))
        done = self.run("source-file", str(script))
        assert (done.returncode, done.stderr) == (0, ""), done.stderr
        return done.stdout


def _opened(start: Start, session: str) -> list[list[str]]:
    """The commands making a start's window and printing its layout."""
    cols, rows, steps = start
    return [
        ["new-session", "-d", "-s", session, "-x", str(cols), "-y", str(rows), "sleep 1000000"],
        *(_tmux_words(step, session) for step in steps),
        ["display", "-p", "-t", session, "#{window_layout}"],
    ]


def _tmux_words(step: str, session: str) -> list[str]:
    """A step as tmux takes it: pane N of the case's window, a program for a new pane."""
    words = step.split()
    if words[0] in WINDOW_VERBS:
        return [words[0], "-t", session, *words[1:]]
    at = words.index("-t")
    words[at + 1] = f"{session}:0.{words[at + 1]}"
    if words[0] == "splitw":
        words.append("sleep 1000000")
    return words


def _read_arrangements(output: str) -> list[Arrangement]:
    arrangements = []
    lines: list[str] = []
    for line in output.splitlines():
        if line.startswith(END):
            arrangements.append(_arrangement_shown(lines, line.split(" ", 1)[1]))
            lines = []
        else:
            lines.append(line)
    return arrangements


def _arrangement_shown(lines: list[str], window_layout: str) -> Arrangement:
    """list-panes lines (with each pane's id last) and #{window_layout}, ids as indexes."""
    panes = [line.rsplit(" ", 1) for line in lines]
    indexes = {pane_id[1:]: shown.split()[0] for shown, pane_id in panes}
    tree = window_layout.split(",", 1)[1]  # the checksum goes
    tree = re.sub(r"(\d+x\d+,\d+,\d+),(\d+)", lambda m: f"{m[1]},{indexes[m[2]]}", tree)
    return Arrangement(tuple(shown for shown, _ in panes), tree)


@pytest.fixture(scope="module")
def tmux() -> Iterator[TmuxLayouts]:
    server = TmuxLayouts()
    try:
        yield server
    finally:
        server.close()


# --- the same steps on our tree ---------------------------------------------------------


def replay(case: Case) -> Arrangement:
    root = Cell[int]("pane", case.cols, case.rows, pane=0)
    created = itertools.count(1)
    for step in (*case.start, *case.steps):
        root = _apply(root, step.split(), created)
    return arrangement(root)


def _apply(root: Cell[int], words: list[str], created: Iterator[int]) -> Cell[int]:
    verb, flags, values = words[0], set(), {}
    rest = iter(words[1:])
    for word in rest:
        if word in ("-t", "-x", "-y"):
            values[word] = next(rest)
        elif word.startswith("-"):
            flags.add(word)
        else:
            values["argument"] = word
    panes = [leaf.pane for leaf in root.leaves() if leaf.pane is not None]
    target = panes[int(values.get("-t", "0"))]
    if verb == "splitw":
        return split(root.find(target), next(created), horizontal="-h" in flags,
                     before="-b" in flags)
    if verb == "killp":
        remaining = close(root, target)
        assert remaining is not None
        return remaining
    if verb == "selectl":
        return select_layout(root, values["argument"])
    if verb == "resizew":
        resize(root, int(values["-x"]), int(values["-y"]))
    elif "-x" in values or "-y" in values:
        width, height = values.get("-x"), values.get("-y")
        resize_pane_to(root, target, width=None if width is None else int(width),
                       height=None if height is None else int(height))
    else:
        direction: Direction = next(d for d in ("L", "R", "U", "D") if f"-{d}" in flags)
        resize_pane(root, target, direction=direction, amount=int(values["argument"]))
    return root


def arrangement(root: Cell[int]) -> Arrangement:
    indexes = {leaf.pane: index for index, leaf in enumerate(root.leaves())}
    panes = tuple(f"{indexes[leaf.pane]} {leaf.x} {leaf.y} {leaf.width} {leaf.height}"
                  for leaf in root.leaves())
    return Arrangement(panes, _tree(root, indexes))


def _tree(cell: Cell[int], indexes: dict[int | None, int]) -> str:
    geometry = f"{cell.width}x{cell.height},{cell.x},{cell.y}"
    if cell.kind == "pane":
        return f"{geometry},{indexes[cell.pane]}"
    opening, closing = "{}" if cell.kind == "row" else "[]"
    return geometry + opening + ",".join(_tree(c, indexes) for c in cell.children) + closing


def assert_as_tmux(tmux: TmuxLayouts, cases: list[Case]) -> None:
    for case, theirs in zip(cases, tmux.arrangements(cases), strict=True):
        assert replay(case) == theirs, f"not as tmux after {case}"


def grown(cols: int, rows: int, count: int) -> tuple[str, ...]:
    """Splits a user might make to get `count` panes: the biggest pane, along its longer
    side (a cell is about twice as tall as wide). Fewer if the window has no room."""
    steps: list[str] = []
    for _ in range(count - 1):
        root = replay(Case(cols, rows, tuple(steps)))
        shapes = [tuple(map(int, shown.split()[1:])) for shown in root.panes]
        index = max(range(len(shapes)), key=lambda i: shapes[i][2] * shapes[i][3])
        width, height = shapes[index][2:]
        step = f"splitw -{'h' if width >= 2 * height else 'v'} -t {index}"
        try:
            replay(Case(cols, rows, (*steps, step)))
        except LayoutError:
            break
        steps.append(step)
    return tuple(steps)


SIZES = [(80, 24), (81, 25), (120, 50), (37, 13), (200, 61), (12, 7), (5, 30), (30, 5), (2, 20),
         (40, 2)]


# --- select-layout ------------------------------------------------------------------


@pytest.mark.parametrize(("cols", "rows"), SIZES, ids=lambda n: str(n))
def test_each_preset_as_tmux_arranges_it(tmux: TmuxLayouts, cols: int, rows: int) -> None:
    # 1 to 6 panes, windows wide, tall, odd, and too small for six panes in a line.
    cases = [Case(cols, rows, grown(cols, rows, count), (f"selectl {preset}",))
             for count in range(1, 7) for preset in PRESETS]
    assert_as_tmux(tmux, cases)


def test_a_window_too_small_for_the_preset_gets_a_larger_layout(tmux: TmuxLayouts) -> None:
    case = Case(5, 30, grown(5, 30, 6), ("selectl even-horizontal",))
    ours = replay(case)
    assert len(ours.panes) == 6
    assert ours.tree.startswith("11x30,0,0{")  # six panes of one column and five borders
    assert_as_tmux(tmux, [case])


def test_presets_one_after_another_and_after_splits(tmux: TmuxLayouts) -> None:
    assert_as_tmux(tmux, [
        Case(80, 24, grown(80, 24, 5), tuple(f"selectl {p}" for p in (*PRESETS, *PRESETS))),
        Case(120, 50, (*grown(120, 50, 3), "selectl main-horizontal", "splitw -h -t 2",
                       "splitw -v -t 0", "selectl tiled", "splitw -v -t 4"),
             ("selectl main-vertical",)),
        Case(81, 25, ("splitw -h -t 0", "splitw -v -b -t 0", "selectl even-h", "killp -t 1"),
             ("selectl even-v",)),
    ])


def test_next_layout_steps_as_c_b_space(tmux: TmuxLayouts) -> None:
    names: list[str] = []
    name = None
    for _ in range(7):
        name = next_layout(name)
        names.append(name)
    assert names == [*PRESETS, *PRESETS[:2]]
    # tmux's next-layout from a new window goes the same way. A window of its own for
    # each count of steps: a shared one would remember the last preset.
    theirs = tmux.arrangements([Case(90 + steps, 30, grown(90 + steps, 30, 4),
                                     ("next-layout",) * steps) for steps in range(1, 8)])
    ours = [replay(Case(90 + steps, 30, grown(90 + steps, 30, 4), (f"selectl {name}",)))
            for steps, name in enumerate(names, 1)]
    assert ours == theirs


def test_a_name_that_is_no_preset_is_refused_with_tmuxs_message(tmux: TmuxLayouts) -> None:
    root = split(Cell[int]("pane", 80, 24, pane=0), 1, horizontal=True)
    # Names tmux 3.3a answers: others (`main`, `x`, `tiledd`) stop its server.
    for name in ("bogus", "e", "even", "even-horizontal-x"):
        with pytest.raises(LayoutError) as refused:
            select_layout(root, name)
        tmux.run("new-session", "-d", "-s", "refused", "-x", "80", "-y", "24", "sleep 1000000")
        try:
            done = tmux.run("select-layout", "-t", "refused", name)
        finally:
            tmux.run("kill-session", "-t", "refused")
        assert done.stderr == f"{refused.value}\n"
    assert find_preset("even-h") == "even-horizontal"
    assert find_preset("t") == "tiled"


# --- resize-pane and the window's size ------------------------------------------------

STARTS = [
    Case(80, 24, ("splitw -h -t 0", "splitw -v -t 1", "splitw -h -t 2", "splitw -v -t 0")),
    Case(81, 25, ("splitw -h -t 0", "splitw -h -t 1", "splitw -h -t 2", "splitw -v -t 3",
                  "splitw -v -t 4")),
    Case(37, 13, ("splitw -v -t 0", "splitw -v -t 1", "splitw -h -t 0", "splitw -h -t 3")),
    Case(120, 50, (*grown(120, 50, 6), "selectl main-horizontal")),
    Case(90, 31, (*grown(90, 31, 5), "selectl tiled")),
    # A row left inside a row by a close: a border next to it takes from both panes.
    Case(80, 24, ("splitw -h -t 0", "splitw -v -t 1", "splitw -h -t 1", "killp -t 3")),
    Case(80, 24, ()),
]


def after(start: Case, *steps: str) -> Case:
    return Case(start.cols, start.rows, start.start, steps)


@pytest.mark.parametrize("start", STARTS, ids=str)
def test_resize_pane_moves_a_border_as_tmux_does(tmux: TmuxLayouts, start: Case) -> None:
    count = len(replay(start).panes)
    cases = [after(start, f"resizep -t {pane} -{way} {amount}")
             for pane in range(count) for way in "LRUD" for amount in (1, 7, 100)]
    cases.append(after(start, *(f"resizep -t {n % count} -{'LRUD'[n % 4]} {n + 2}"
                                for n in range(9))))
    assert_as_tmux(tmux, cases)


@pytest.mark.parametrize("start", STARTS, ids=str)
def test_resize_pane_to_a_size_as_tmux_does(tmux: TmuxLayouts, start: Case) -> None:
    count = len(replay(start).panes)
    sizes = ["-x 1", "-x 10", "-x 33", "-x 500", "-y 1", "-y 6", "-y 19", "-y 500",
             "-x 20 -y 8"]
    assert_as_tmux(tmux, [after(start, f"resizep -t {pane} {size}")
                          for pane in range(count) for size in sizes])


def test_resizing_the_window_deals_the_change_out_as_tmux_does(tmux: TmuxLayouts) -> None:
    cases = [after(start, f"resizew -x {cols} -y {rows}")
             for start in STARTS for cols, rows in ((70, 20), (140, 60), (9, 5), (3, 2))]
    cases.append(after(STARTS[0], "resizew -x 9 -y 5", "resizew -x 100 -y 30"))
    assert_as_tmux(tmux, cases)
