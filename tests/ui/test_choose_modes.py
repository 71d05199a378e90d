"""choose-buffer, choose-client and find-window as a tmux user drives them: a tmux 3.3a
client and a termhost client side by side in an outer tmux, the same keys and commands
sent to both, and the lists they draw compared row by row (times and terminal names,
which differ between the two servers, written the same way)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from termhost.mux.commands.modes import find_window_filter
from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer, agreed

WIDTH, HEIGHT = 80, 24

BUFFERS = [["set-buffer", "-b", "alpha", "hello world"],
           ["set-buffer", "second\nline two"],
           ["set-buffer", "-b", "tabs", "a\tb\\c"]]


def listed(rows: list[str]) -> bool:
    """A list is drawn over the window."""
    return rows[0].startswith("(0)")


def closed(rows: list[str]) -> bool:
    return not listed(rows)


def _attach(both: BothServers, outer: Outer, *steps: list[str]) -> None:
    """Session s (windows w0, w1 and w2, each a pane running cat) on both servers,
    `steps` run, and a client of each in the outer terminal, window w0 current."""
    for name in both.NAMES:
        setup = [["new-session", "-d", "-s", "s", "-n", "w0", "-x", str(WIDTH),
                  "-y", str(HEIGHT - 1), "cat"],
                 ["new-window", "-d", "-n", "vim", "cat"],
                 ["new-window", "-d", "-n", "notes", "cat"],
                 ["set", "-g", "status-right", "RIGHT"], *steps]
        for step in setup:
            done = both.run(name, *step)
            assert done.returncode == 0, (name, step, done.stderr)
        outer.show(name, CLIENTS[name], WIDTH, HEIGHT)
        wait_until(lambda name=name: "[s]" in screen(outer, name)[-1],  # type: ignore[misc]
                   PATIENCE, f"{name}'s client to draw")


def screen(outer: Outer, name: str) -> list[str]:
    """The client's rows as text, with the times (HH:MM) and terminal names
    (/dev/pts/N, and the box rule after one) written the same for both servers."""
    rows = outer.run("capture-pane", "-p", "-t", name).rstrip("\n").split("\n")
    rows = [re.sub(r"\b\d\d:\d\d\b", "HH:MM", row.rstrip()) for row in rows]
    return [re.sub(r"/dev/pts/\d+( \(sort: [a-z, ]+\) ─*)?", "TTY", row) for row in rows]


def same(both: BothServers, outer: Outer, what: str, ready: Callable[[list[str]], bool],
         rows: slice = slice(None)) -> list[str]:
    """Both clients' rows (`rows` of them) once tmux's are `ready` and termhost's agree;
    the assertion shows both if they never do."""
    return agreed(lambda name: screen(outer, name)[rows], what, ready)


def keys(outer: Outer, both: BothServers, *pressed: str) -> None:
    for name in both.NAMES:
        outer.run("send-keys", "-t", name, *pressed)


def run(both: BothServers, *command: str) -> None:
    for name in both.NAMES:
        done = both.run(name, *command)
        assert done.returncode == 0, (name, command, done.stderr)


def test_c_b_equals_lists_the_buffers_and_enter_pastes_one(both: BothServers,
                                                           outer: Outer) -> None:
    """C-b = (choose-buffer -Z): a row a buffer, most recent first, in
    #{buffer_mode_format}; the preview box titled with the buffer's name and the sort
    order, its text escaped as tmux's; Enter pastes the chosen buffer into the pane."""
    _attach(both, outer, *BUFFERS)
    keys(outer, both, "C-b", "=")
    shown = same(both, outer, "the buffers listed as tmux lists them", listed)
    assert shown[0] == "(0) tabs: HH:MM: a\\tb\\\\c"
    keys(outer, both, "Down", "Down")
    same(both, outer, "the third buffer selected",
         lambda rows: any("alpha (sort: time)" in row for row in rows))
    keys(outer, both, "Enter")
    for name in both.NAMES:
        wait_until(lambda name=name: "hello world" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s").stdout, what=f"{name}'s paste")
    same(both, outer, "the pane shown again, the buffer pasted", closed)


@pytest.mark.parametrize("flags", [
    ["-O", "size", "-r", "-f", "#{m:*zzz*,#{buffer_name}}"],
    ["-N", "-O", "NAME", "-F", "#{buffer_size} bytes"],
    ["-f", "#{m:*alp*,#{buffer_name}}"],
    ["-K", "#{?#{e|<:#{line},1},x,y}"],
], ids=["sort reversed, no matches", "no preview, format", "filter", "key format"])
def test_choose_buffer_flags(both: BothServers, outer: Outer, flags: list[str]) -> None:
    """-O (time, name or size, any case), -r, -f (a filter; everything, and "no
    matches", when it leaves nothing), -F, -N (no preview), -K (each row's key, from
    #{line})."""
    _attach(both, outer, *BUFFERS)
    run(both, "choose-buffer", *flags)
    same(both, outer, f"choose-buffer {' '.join(flags)} drawn as tmux's", listed)


def test_keys_choose_by_key_format_and_d_deletes(both: BothServers, outer: Outer) -> None:
    """A row's key chooses it (the first row of that key); d deletes the selected buffer
    and selects the one below it; the list closes with the last buffer."""
    _attach(both, outer, *BUFFERS)
    run(both, "choose-buffer", "-K", "#{?#{e|<:#{line},1},x,y}")
    same(both, outer, "the keys drawn", listed)
    keys(outer, both, "y")
    for name in both.NAMES:
        wait_until(lambda name=name: "line two" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s").stdout, what=f"{name}'s paste of row 1")
    run(both, "choose-buffer")
    same(both, outer, "the list", listed)
    keys(outer, both, "d")
    same(both, outer, "the first buffer deleted",
         lambda rows: rows[0].startswith("(0) buffer0"))
    assert both.run("termhost", "list-buffers", "-F", "#{buffer_name}").stdout == (
        both.run("tmux", "list-buffers", "-F", "#{buffer_name}").stdout)
    keys(outer, both, "Down", "d")
    same(both, outer, "the last buffer deleted, the first selected",
         lambda rows: not rows[1].startswith("(1)"))
    keys(outer, both, "d")
    same(both, outer, "the list closed with the last buffer", closed)


def test_c_b_capital_d_lists_the_clients_and_enter_detaches(both: BothServers,
                                                            outer: Outer) -> None:
    """C-b D (choose-client -Z): a row a client in #{client_mode_format}, the preview
    its pane, a rule and its status line; Enter detaches the chosen client (the
    template `detach-client -t '%%'`)."""
    _attach(both, outer)
    keys(outer, both, "C-b", "D")
    shown = same(both, outer, "the clients listed as tmux lists them", listed)
    assert shown[0] == "(0) TTY: HH:MM: session s"
    keys(outer, both, "Enter")
    for name in both.NAMES:
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-clients").stdout == "", what=f"{name}'s client detached")


def test_c_b_f_finds_windows_by_name_title_or_content(both: BothServers,
                                                      outer: Outer) -> None:
    """C-b f (find-window -Z at a prompt): the tree of sessions and windows filtered by
    find-window's format (content, name or title matching `*TEXT*`), the preview's
    title saying the filter is on; "no matches" and the whole tree when none match.
    Only the tree and the title are compared: tmux previews a window as boxes of its
    panes, termhost as the active pane's screen."""
    _attach(both, outer, ["send-keys", "-t", "s:2", "a needle here", "Enter"])
    keys(outer, both, "C-b", "f")
    for name in both.NAMES:
        wait_until(lambda name=name: screen(outer, name)[-1].startswith(  # type: ignore[misc]
            "(find-window)"), what=f"{name}'s prompt")
    keys(outer, both, "vim", "Enter")
    shown = same(both, outer, "the windows named like vim", listed, slice(0, 12))
    assert shown[:2] == ["(0) - s: 3 windows (attached)", "(1) └─> 1: vim"]
    assert "(filter: active)" in shown[11]
    keys(outer, both, "q")
    run(both, "find-window", "-C", "needle")
    shown = same(both, outer, "the windows whose panes hold needle",
                 lambda rows: rows[1].endswith("notes"), slice(0, 12))
    assert shown[1] == "(1) └─> 2: notes"
    keys(outer, both, "1")
    for name in both.NAMES:
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "s", "#W").stdout == "notes\n",
            what=f"{name} showing the chosen window")
    run(both, "find-window", "-N", "needle")
    shown = same(both, outer, "no window named like needle",
                 lambda rows: "no matches" in rows[11], slice(0, 12))
    assert "(filter: no matches)" in shown[11]


def test_find_window_builds_tmuxs_filter() -> None:
    """cmd-find-window.c's filter: -C content (#{C:}), -N the window's name, -T the
    pane's title, all three by default; -r and -i as the match's /r and /i."""
    assert find_window_filter({}, "x") == (
        "#{||:#{C:x},#{||:#{m:*x*,#{window_name}},#{m:*x*,#{pane_title}}}}")
    assert find_window_filter({"N": "", "T": "", "i": ""}, "x") == (
        "#{||:#{m/i:*x*,#{window_name}},#{m/i:*x*,#{pane_title}}}")
    assert find_window_filter({"C": "", "r": "", "i": ""}, "a.b") == "#{C/ri:a.b}"
