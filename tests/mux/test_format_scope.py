"""What a format asks of the server beyond its target's variables (mux/format_scope.py):
options, the environment, the sessions, windows and panes to loop over, the names to
test, a pane's visible lines and `#()` jobs. Each case runs the same commands in a live
tmux 3.3a and in termhost and compares `display -p` (tmux's format_find,
format_loop_*, format_search and format_job_get behind it)."""

from __future__ import annotations

import pytest

from tests.conftest import BothServers, wait_until

SETUP = [
    ["new-session", "-d", "-s", "b", "-n", "one", "-x", "80", "-y", "24",
     "printf 'first line\\nhello world\\n'; exec sleep 1000"],
    ["new-window", "-d", "-t", "b:", "-n", "two", "sleep 1000"],
    ["split-window", "-d", "-t", "b:0", "sleep 1000"],
    ["new-session", "-d", "-s", "a", "-x", "80", "-y", "24", "sleep 1000"],
    ["set", "-g", "@colour", "hello"],
    ["set", "-g", "terminal-overrides", "xterm*:Tc,screen:am@"],
    ["set", "-g", "status-left", "[#S]"],
    ["setw", "-t", "b:1", "synchronize-panes", "on"],
    ["set", "-g", "@window-level", "global"],
    ["setw", "-t", "b:1", "@window-level", "the window's"],
    ["set-environment", "-g", "GLOBAL_ONLY", "g"],
    ["set-environment", "-g", "BOTH", "global"],
    ["set-environment", "-t", "b", "BOTH", "session"],
    ["set-environment", "-g", "REMOVED", "global"],
    ["set-environment", "-t", "b", "-r", "REMOVED"],
]

CASES = {
    # options: a flag reads 1/0, a choice its word, an array only by element
    "options": "#{mouse}|#{status}|#{base-index}|#{status-position}|#{history-limit}",
    "arrays": "[#{terminal-overrides}][#{terminal-overrides[1]}][#{terminal-overrides[7]}]",
    "user options": "#{@colour}|#{@unset}|#{@window-level}",
    "window options": "#{synchronize-panes}|#{@window-level}",
    "expanded options": "#{E:status-left}|#{T:status-left}",
    "environment": "#{GLOBAL_ONLY}|#{BOTH}|#{REMOVED}|#{UNSET_ANYWHERE}",
    "sessions loop": "#{S:#{session_name}:#{session_windows} }",
    "windows loop": "#{W:#{window_index}=#{window_name} ,(#{window_index}) }",
    "panes loop": "#{P:#{pane_index}#{?pane_active,*,} }",
    "nested loops": "#{S:#{session_name}[#{W:#{window_index}}] }",
    "name tests": "#{N/s:a}#{N/s:zzz}#{N:one}#{N:nope}",
    "search": "#{C:hello}|#{C:nothing here}|#{C/i:HELLO}|#{C/r:^first}",
    "a job from the command line": "[#(echo from a job)]",
    "strftime": "%%|#{session_name}",
}


@pytest.fixture
def prepared(both: BothServers) -> BothServers:
    for name in both.NAMES:
        for step in SETUP:
            done = both.run(name, *step)
            assert done.returncode == 0, (name, step, done.stderr)
        wait_until(lambda name=name: "hello world" in both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "b:0.0").stdout, what=f"{name}'s pane output")
    return both


@pytest.mark.parametrize("template", CASES.values(), ids=list(CASES))
def test_a_format_reads_the_server_as_tmux_does(prepared: BothServers, template: str) -> None:
    target = "b:1" if "window" in template else "b:0.0"
    seen = {name: prepared.answers(name, ["display", "-p", "-t", target, template])
            for name in prepared.NAMES}
    assert seen["termhost"] == seen["tmux"]
    assert seen["tmux"][1].strip(), "the case shows nothing: it would pass vacuously"


def test_list_sessions_lists_by_name(prepared: BothServers) -> None:
    # tmux keeps sessions in a tree sorted by name; b was made before a
    listed = {name: prepared.run(name, "ls", "-F", "#{session_name}").stdout
              for name in prepared.NAMES}
    assert listed["termhost"] == listed["tmux"] == "a\nb\n"


def test_if_shell_and_set_f_expand_with_the_server(prepared: BothServers) -> None:
    # -F values and if-shell's format see options and the environment too
    steps = [["set", "-g", "-t", "b", "-F", "@copied", "#{@colour}-#{BOTH}"],
             ["if", "-F", "-t", "b", "#{==:#{@colour},hello}", "set -g @branch yes",
              "set -g @branch no"]]
    for name in prepared.NAMES:
        for step in steps:
            assert prepared.run(name, *step).returncode == 0, (name, step)
    shown = {name: prepared.run(name, "display", "-p", "-t", "b", "#{@copied} #{@branch}").stdout
             for name in prepared.NAMES}
    assert shown["termhost"] == shown["tmux"] == "hello-session yes\n"
