"""choose-tree's flags and template as a tmux user gives them: a tmux 3.3a client and a
termhost client side by side in an outer tmux, the same commands and keys sent to both,
and the trees they draw compared row by row (down to the preview box's title: tmux
previews a window as boxes of its panes, termhost as its active pane's screen)."""

from __future__ import annotations

import pytest

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import Outer, agreed
from tests.ui.test_choose_modes import _attach, keys, listed, run, screen

SESSIONS = [["split-window", "-d", "-t", "s:1", "cat"],
            ["new-session", "-d", "-s", "b", "-n", "zz", "cat"],
            ["new-session", "-d", "-s", "a", "-n", "cat", "cat"]]
"""Besides session s (windows w0, vim and notes): vim split in two, sessions b and a."""


def tree(rows: list[str]) -> list[str]:
    """The tree's rows and the preview box's top line (its title), or with no preview
    every row."""
    top = next((i for i, row in enumerate(rows) if row.startswith("┌")), len(rows) - 1)
    return rows[:top + 1]


def drawn(both: BothServers, outer: Outer, what: str) -> list[str]:
    """Both clients' trees once tmux's is drawn and termhost's agrees with it."""
    return agreed(lambda name: tree(screen(outer, name)), what, listed)


@pytest.mark.parametrize("flags", [
    ["-O", "name", "-r"],
    ["-w", "-O", "TIME", "-F", "#{session_name}/#{window_name}", "-N",
     "-K", "#{?#{e|<:#{line},2},x,}"],
    ["-s", "-f", "#{m:*o*,#{window_name}}"],
    ["-w", "-f", "#{m:*zzz*,#{window_name}}"],
    ["-G", "-f", "#{pane_index}"],
    ["-F", "#{?session_format,S,#{?window_format,W,P}}#{pane_index}"],
], ids=["name reversed", "time, format, no preview, key format", "sessions filtered",
        "no matches", "groups, panes filtered", "kinds of row"])
def test_choose_tree_flags_draw_as_tmuxs(both: BothServers, outer: Outer,
                                         flags: list[str]) -> None:
    """-O (index, name or time, any case) sorting sessions, windows and panes, -r
    reversing all three; -F each row's text (#{session_format}, #{window_format},
    #{pane_format} true for its kind); -f a filter on panes, their windows and sessions
    kept with them (all of them, and "no matches", when it keeps none); -N no preview;
    -K each row's key; -G accepted (no session groups: every session is listed)."""
    _attach(both, outer, *SESSIONS)
    run(both, "choose-tree", "-Z", *flags)
    drawn(both, outer, f"choose-tree {' '.join(flags)} drawn as tmux's")


def test_t_selects_its_pane_and_o_and_r_resort(both: BothServers, outer: Outer) -> None:
    """-t target-pane: the tree is for that pane, its row selected (libtmux's
    `choose-tree -t %PANE`); O steps the sort order (index, name, time) and r reverses
    it, the selection kept on the same item."""
    _attach(both, outer, *SESSIONS, ["select-window", "-t", "s:2"])
    run(both, "choose-tree", "-Z", "-t", "%2")
    shown = drawn(both, outer, "the tree for pane %2, window notes's")
    assert "┌ 2 (sort: index)" in shown[-1]
    keys(outer, both, "O")
    drawn(both, outer, "sorted by name")
    keys(outer, both, "r")
    shown = drawn(both, outer, "sorted by name, reversed")
    assert "(sort: name, reversed)" in shown[-1]


@pytest.mark.parametrize(("flags", "pressed", "chosen"), [
    (["-s"], ["Down"], "=b:"),
    (["-w"], ["Down", "Down"], "=s:1."),
    ([], ["Down", "Down", "Down", "Down"], "=s:1.%3"),
], ids=["session", "window", "pane"])
def test_enter_runs_the_template_with_the_chosen_target(
        both: BothServers, outer: Outer, flags: list[str], pressed: list[str],
        chosen: str) -> None:
    """The template runs on Enter, its `%%` the chosen item as tmux names it: `=S:` a
    session, `=S:I.` a window, `=S:I.%P` a pane."""
    _attach(both, outer, *SESSIONS)
    run(both, "choose-tree", "-Z", *flags, "set -g @chosen '%%'")
    drawn(both, outer, "the tree")
    keys(outer, both, "Home", *pressed, "Enter")
    for name in both.NAMES:
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "show", "-gv", "@chosen").stdout == chosen + "\n",
            what=f"{name}'s template run for {chosen}")


def test_swap_window_template_swaps_the_clients_window_with_the_chosen(
        both: BothServers, outer: Outer) -> None:
    """`choose-tree -Zw "swap-window -t '%%'"`: the template runs for the client, not
    against the chosen item, so the client's window swaps with the chosen one."""
    _attach(both, outer, *SESSIONS)
    run(both, "choose-tree", "-Zw", "swap-window -t '%%'")
    drawn(both, outer, "the windows")
    keys(outer, both, "Home", "Down", "Down", "Down", "Enter")  # window 2, notes
    windows = {}
    for name in both.NAMES:
        wait_until(lambda name=name: "s:0 notes" in both.run(  # type: ignore[misc]
            name, "list-windows", "-a", "-F", "#S:#I #W").stdout,
            what=f"{name}'s windows swapped")
        windows[name] = both.run(name, "list-windows", "-a", "-F", "#S:#I #W").stdout
    assert windows["termhost"] == windows["tmux"]


def test_with_no_client_it_succeeds_and_a_bad_target_fails(both: BothServers) -> None:
    """libtmux's `choose-tree -t %PANE -F ... -f ... -O name -r -Z` on a server no
    client is attached to: exit 0 (tmux's pane goes into tree mode, unseen); a target
    that is not there: `can't find pane`, exit 1."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "x", "cat").returncode == 0
    for argv in (["choose-tree", "-t", "%0", "-F", "#{session_name}", "-f",
                  "#{?session_attached,1,0}", "-O", "name", "-r", "-Z"],
                 ["choose-tree"], ["choose-tree", "-t", "nope"]):
        done = {name: both.run(name, *argv) for name in both.NAMES}
        assert (done["termhost"].returncode, done["termhost"].stderr) == (
            done["tmux"].returncode, done["tmux"].stderr), argv
