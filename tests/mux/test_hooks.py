"""Hooks as tmux 3.3a keeps and runs them (set-hook, show-hooks; notify.c and
cmdq_insert_hook behind them), compared with a live tmux: what show-hooks lists, the
messages, an after- hook's output reaching the command's client, and which events run
which hook with which #{hook_*} variables."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import BothServers, wait_until

EVENTS = ["session-created", "session-closed", "session-renamed", "window-renamed",
          "window-linked", "window-unlinked", "pane-exited", "after-new-window",
          "after-split-window", "after-rename-window"]


def test_show_hooks_and_set_hook_messages_are_tmuxs(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    both.after_each([
        ["set-hook", "-g", "after-new-window", "set -g @x done"],
        ["set-hook", "-ga", "after-new-window", "display -p 'hi there'"],
        ["set-hook", "-g", "session-renamed[3]", "rename-window -t s:0 renamed"],
        ["set-hook", "-g", "nosuch", "x"],
        ["set-hook", "-g", "after-split-window", "nosuchcommand"],
        ["set-hook", "-w", "-t", "s:0", "window-renamed", "set -g @w yes"],
        ["set-hook", "-gu", "session-renamed[3]"],
        ["set-hook", "-t", "s", "session-created", "set -g @s yes"],
        # A hook lives where its kind does (options_scope_from_name): -w on a session
        # hook sets the session's, a window hook without -w the window's (libtmux's
        # test_hooks_mixin).
        ["set-hook", "-w", "-t", "@0", "session-renamed[0]", "set -g @r yes"],
        ["set-hook", "-t", "s:0", "pane-exited", "set -g @p yes"],
    ], ["show-hooks", "-g"])
    for args in (["-g"], ["-gw"], [], ["-t", "s"], ["-w", "-t", "s:0"],
                 ["-g", "after-new-window"], ["-g", "nosuch"], ["session-renamed[0]"],
                 ["pane-exited"], ["-w", "pane-exited"], ["-t", "s", "session-renamed"]):
        seen = {name: both.answers(name, ["show-hooks", *args]) for name in both.NAMES}
        assert seen["termhost"] == seen["tmux"], args
    # an after- hook runs after its command, and prints to that command's client
    seen = {name: both.answers(name, ["new-window", "-d"]) for name in both.NAMES}
    assert seen["termhost"] == seen["tmux"] == (0, "hi there\n", "")
    shown = {name: both.run(name, "show", "-gv", "@x").stdout for name in both.NAMES}
    assert shown["termhost"] == shown["tmux"] == "done\n"


@pytest.fixture
def logs(both: BothServers, tmp_path: Path) -> dict[str, Path]:
    found = {name: tmp_path / f"{name}.log" for name in both.NAMES}
    for name, log in found.items():
        # a session of its own keeps the server up (set before the hooks: not logged)
        assert both.run(name, "new-session", "-d", "-s", "keep", "sleep 1000").returncode == 0
        for event in EVENTS:
            line = f"{event} #{{hook}} #{{hook_session_name}} #{{hook_window_name}}"
            assert both.run(name, "set-hook", "-g", event,
                            f"run-shell \"echo '{line}' >> {log}\"").returncode == 0
    return found


def test_events_run_their_hooks_as_in_tmux(both: BothServers, logs: dict[str, Path]) -> None:
    steps = [["new-session", "-d", "-s", "s", "-n", "w0", "sleep 1000"],
             ["new-window", "-d", "-n", "w1", "sleep 1000"],
             ["split-window", "-d", "-t", "s:0", "sleep 1000"],
             ["rename-window", "-t", "s:1", "r1"],
             ["rename-session", "-t", "s", "s2"],
             ["new-window", "-d", "-t", "s2:5", "-n", "short", "read line"],
             # the short window ends once its new-window (and that command's hook) is
             # done: a pane exiting under its own after-new-window hook is a race in tmux
             ["send-keys", "-t", "s2:5", "Enter"]]
    ending = [["kill-window", "-t", "s2:1"], ["kill-session", "-t", "s2"]]

    def windows(name: str) -> str:
        return both.run(name, "list-windows", "-t", "s2", "-F", "#{window_name}").stdout

    for name in both.NAMES:
        for step in steps:
            assert both.run(name, *step).returncode == 0, (name, step)
        # the short window's own exit comes before the kills (pane-exited, then its
        # unlink); a kill-session racing it would take it in tmux's order or termhost's
        wait_until(lambda name=name: "short" not in windows(name),  # type: ignore[misc]
                   what=f"{name}'s short window to have exited")
        for step in ending:
            assert both.run(name, *step).returncode == 0, (name, step)

    def lines(name: str) -> list[str]:
        log = logs[name]
        return sorted(log.read_text().splitlines()) if log.exists() else []

    # run-shell writes the log after its command returns: wait for the last event's line
    # on both, then for nothing more to come from either
    wait_until(lambda: all(any(line.startswith("session-closed") for line in lines(name))
                           for name in both.NAMES),
               what="both servers' session-closed hooks to have run")
    wait_until(lambda: len(lines("tmux")) >= 15, what="all fifteen of tmux's hooks")
    try:
        wait_until(lambda: lines("termhost") == lines("tmux"), timeout=5.0)
    except pytest.fail.Exception:
        pass  # the comparison below shows what differs
    assert lines("termhost") == lines("tmux")


def test_one_element_of_a_hook_no_scope_sets_shows_nothing(both: BothServers) -> None:
    """`show-hooks -w 'session-renamed[0]'` prints `name[0] ` while the scope keeps the
    hook (even with that element unset) and nothing once `set-hook -u` removed the whole
    hook there: tmux's cmd_show_options prints only an option options_get_only finds in
    the scope; -g always has every hook (libtmux's test_hooks_raw_cmd)."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    both.after_each([
        ["show-hooks", "-w", "session-renamed[0]"],
        ["set-hook", "-w", "session-renamed[0]", "set -g status-left-style bg=red"],
        ["set-hook", "-w", "-u", "session-renamed[0]"],
        ["set-hook", "-w", "-u", "session-renamed"],
        ["set-hook", "-u", "-t", "s:0", "pane-exited[1]"],
    ], ["show-hooks", "-w", "session-renamed[0]"])
    for args in (["-g", "session-renamed[0]"], ["pane-exited[1]"], ["-t", "s", "nosuch[0]"],
                 ["-g", "nosuch"]):
        seen = {name: both.answers(name, ["show-hooks", *args]) for name in both.NAMES}
        assert seen["termhost"] == seen["tmux"], args
