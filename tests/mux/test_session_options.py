"""A session's own options, each command run in a live tmux 3.3a and in termhost and the
answers compared: set-option without -g sets the target session's own value of a session
option (or a user option), over the global one; show-options without -g lists the
session's own alone, and with -A what it inherits too, marked `*`; set-option -u takes
the session's own away; formats read the session's value.
"""

from __future__ import annotations

from tests.conftest import BothServers

BEFORE_ANY_SESSION = [
    ["start-server", ";", "show-options"],  # no current session: an error
    ["start-server", ";", "set-option", "status-left", "x"],
    ["start-server", ";", "set-option", "@user", "x"],
]

SCRIPT = [
    ["new-session", "-d", "-s", "s1", "sleep 1000"],
    ["new-session", "-d", "-s", "s2", "sleep 1000"],
    ["set", "-t", "s1", "status-left", "foo"],
    ["show", "-t", "s1"], ["show", "-t", "s2"],
    ["show"],  # the current session: the newest
    ["show", "-t", "s1", "status-left"], ["show", "-t", "s2", "status-left"],
    ["show", "-t", "s2", "-v", "status-left"], ["show", "-gv", "status-left"],
    ["show", "-A", "-t", "s1", "status-left"], ["show", "-A", "-t", "s2", "status-left"],
    ["show", "-Av", "-t", "s2", "status-left"],
    ["display", "-p", "-t", "s1", "#{status-left}"],
    ["display", "-p", "-t", "s2", "#{status-left}"],
    # user options: the session's own over the global one
    ["set", "-t", "s1", "@x", "one"], ["show", "-t", "s1"], ["show", "-t", "s1", "-v", "@x"],
    ["show", "-t", "s2", "@x"], ["display", "-p", "-t", "s1", "#{@x}"],
    ["set", "-g", "@x", "glob"], ["display", "-p", "-t", "s2", "#{@x}"],
    ["display", "-p", "-t", "s1", "#{@x}"],
    ["show", "-t", "s2", "@x"], ["show", "-t", "s2", "-q", "@x"],  # unknown there, but -A
    ["show", "-A", "-t", "s2", "@x"], ["show", "-A", "-t", "s1", "@x"],
    # -a appends to the session's own value (not the inherited one), -o, -u
    ["set", "-a", "-t", "s1", "status-left", "bar"], ["show", "-t", "s1", "status-left"],
    ["set", "-a", "-t", "s2", "status-left", "bar"], ["show", "-t", "s2", "status-left"],
    ["set", "-o", "-t", "s1", "status-left", "x"], ["set", "-o", "-t", "s2", "base-index", "3"],
    ["set", "-u", "-t", "s1", "status-left"], ["show", "-t", "s1"],
    ["set", "-u", "-t", "s1", "nosuchopt"], ["set", "-q", "-t", "s1", "nosuchopt", "x"],
    # a flag toggles from the value it inherits; -w does not make a session option a
    # window's; a server option stays the server's
    ["set", "-t", "s1", "mouse"], ["show", "-t", "s1", "mouse"],
    ["set", "-t", "s1", "history-limit", "5"], ["set", "-w", "-t", "s1", "history-limit", "6"],
    ["show", "-t", "s1"], ["set", "-t", "s1", "escape-time", "5"], ["show", "-s", "escape-time"],
    # no -t: the current session's
    ["set", "status-left", "viaclient"], ["show"], ["set", "-u", "-t", "s1", "@x"],
    # styles, keys, colours, arrays
    ["set", "-t", "s1", "status-style", "bg=red"],
    ["set", "-t", "s1", "-a", "status-style", "fg=blue"], ["show", "-t", "s1", "status-style"],
    ["set", "-t", "s1", "update-environment", "FOO"],
    ["set", "-t", "s1", "-a", "update-environment", "BAR"], ["show", "-t", "s1"],
    ["set", "-t", "s1", "-u", "update-environment[0]"],
    ["show", "-t", "s1", "update-environment"],
    ["set", "-t", "s1", "status-format[1]", "foo"], ["show", "-t", "s1", "status-format"],
    ["show", "-t", "s1", "-A", "status-format"],
    ["set", "-t", "s1", "prefix", "C-a"], ["show", "-t", "s1", "prefix"],
    ["show", "-t", "s1", "-A", "prefix2"],
    ["set", "-t", "s1", "display-panes-colour", "color81"],
    ["show", "-t", "s1", "display-panes-colour"],
    ["display", "-p", "-t", "s1", "#{E:status-style} #{history-limit} #{?mouse,m,nm}"],
    ["display", "-p", "-t", "s2", "#{E:status-style} #{history-limit} #{?mouse,m,nm}"],
    ["set", "-gu", "status-left"], ["show", "-g", "status-left"],
]


def test_session_options_answer_as_tmux_does(both: BothServers) -> None:
    for args in BEFORE_ANY_SESSION:
        answers = {name: both.answers(name, args) for name in both.NAMES}
        assert answers["termhost"] == answers["tmux"], args
        for name in both.NAMES:
            both.stop(name)
    for args in SCRIPT:
        assert both.answers("termhost", args) == both.answers("tmux", args), args


def test_show_options_a_lists_the_own_and_the_inherited(both: BothServers) -> None:
    # Each option once, in name order: the session's own unmarked, the rest marked `*`
    # (the global user options not among them, as tmux 3.3a). The values inherited are
    # the global defaults, some of which termhost chose otherwise: not compared here.
    listed = {}
    for name in both.NAMES:
        for step in (["new-session", "-d", "-s", "s1", "sleep 1000"],
                     ["set", "-g", "@global", "g"], ["set", "-t", "s1", "@own", "o"],
                     ["set", "-t", "s1", "history-limit", "5"],
                     ["set", "-t", "s1", "status-format[1]", "x"]):
            assert both.run(name, *step).returncode == 0, (name, step)
        lines = both.run(name, "show-options", "-A", "-t", "s1").stdout.splitlines()
        listed[name] = [line if not line.split()[0].endswith("*") else line.split()[0]
                        for line in lines]
    assert "history-limit 5" in listed["tmux"]
    assert listed["termhost"] == listed["tmux"]
