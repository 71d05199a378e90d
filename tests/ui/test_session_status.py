"""A session's own options in a real client, compared with a tmux 3.3a client in an
outer tmux: set-option without -g changes the status line of the session it targets, over
the global value, until set-option -u takes it away; and its prefix key."""

from __future__ import annotations

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import Outer, agreed, attach_both, status_text


def test_the_status_line_draws_the_sessions_own_options(both: BothServers,
                                                        outer: Outer) -> None:
    attach_both(both, outer)
    for name in both.NAMES:
        for step in (["set", "-g", "status-right", ""],  # no clock, no title to differ
                     ["set", "-g", "status-left", "<global> "],
                     ["set", "-t", "s", "status-left", "<own #{session_name}> "],
                     ["set", "-t", "s", "status-left-length", "20"],
                     ["set", "-t", "s", "status-style", "bg=blue,fg=white"]):
            assert both.run(name, *step).returncode == 0, (name, step)
    agreed(lambda name: [outer.last_line(name)], "the session's own status-left and style",
           ready=lambda lines: "<own s>" in lines[0])
    for name in both.NAMES:
        assert both.run(name, "set", "-u", "-t", "s", "status-left").returncode == 0
    agreed(lambda name: [status_text(outer, name)], "the global status-left again",
           ready=lambda lines: lines[0].startswith("<global>"))


def test_a_sessions_own_prefix_is_its_clients_prefix(both: BothServers, outer: Outer) -> None:
    attach_both(both, outer)
    for name in both.NAMES:
        assert both.run(name, "set", "-t", "s", "prefix", "C-a").returncode == 0
        outer.run("send-keys", "-t", name, "C-a")  # then c alone: in one burst tmux would
        outer.run("send-keys", "-t", name, "c")  # take c as pasted (assume-paste-time)
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-windows", "-t", "s", "-F", "#I").stdout == "0\n1\n",
            what=f"{name}'s window made through the session's prefix")
