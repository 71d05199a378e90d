"""command-prompt and confirm-before as verbs, the message log and the prompt
histories: a tmux 3.3a client and a termhost client side by side in an outer tmux, the
same commands sent to both, their status lines and answers compared."""

from __future__ import annotations

import re
import subprocess

from termhost.mux.commands.prompts import template_replace
from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import Outer, attach_both, shows, status_text


def test_template_replace_is_tmuxs() -> None:
    """cmd_template_replace: each answer takes every %N of its index and the first %% left;
    %%% escapes what the command parser would take."""
    line = template_replace("a %% b %% c %1 %2", "X", 1)
    assert line == "a X b %% c X %2"
    assert template_replace(line, "Y", 2) == "a X b Y c X Y"
    assert template_replace("say %%%", 'it"s $HOME; ~', 1) == 'say it\\"s \\$HOME\\; \\~'
    assert template_replace("100%", "x", 1) == "100%"


def test_command_prompt_asks_each_prompt_and_runs_the_template(both: BothServers,
                                                               outer: Outer) -> None:
    """-p's prompts in turn (a space after each), -I's presets (formats), %% and %N."""
    attach_both(both, outer)
    for name in both.NAMES:
        assert both.run(name, "command-prompt", "-b", "-p", "one,#S>", "-I", "x,#{window_name}",
                        "display '%% %2 %1 %%'").returncode == 0
        shows(outer, name, "one x")
        outer.run("send-keys", "-t", name, "1", "Enter")
        shows(outer, name, "s> w")
        outer.run("send-keys", "-t", name, "2", "Enter")
        shows(outer, name, "x1 w2 x1 w2")


def test_command_prompt_labels_and_waiting(both: BothServers, outer: Outer) -> None:
    """Without -p the prompt is `(VERB) ` of the template, or `:`; without -b the asking
    command returns only once the prompt is answered (or cancelled)."""
    attach_both(both, outer)
    for name in both.NAMES:
        asking = subprocess.Popen([*both.programs[name], "command-prompt", "rename-window '%%'"],
                                  env=both.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            shows(outer, name, "(rename-window)")
            assert asking.poll() is None, f"{name} returned before the answer"
            outer.run("send-keys", "-t", name, "renamed", "Enter")
            assert asking.wait(timeout=30) == 0
        finally:
            asking.kill()
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "s", "#W").stdout == "renamed\n",
            what=f"{name}'s window renamed")
        assert both.run(name, "command-prompt", "-b").returncode == 0
        outer.run("send-keys", "-t", name, "x")
        shows(outer, name, ":x")
        outer.run("send-keys", "-t", name, "C-c")
        assert both.answers(name, ["command-prompt", "-T", "nope"]) == (
            1, "", "unknown type: nope\n")


def test_one_key_and_numeric_prompts(both: BothServers, outer: Outer) -> None:
    """-1 answers with a character, -k with a key's name, -N with the digits typed."""
    attach_both(both, outer)
    for name in both.NAMES:
        both.run(name, "command-prompt", "-b", "-1", "-p", "key:", "display 'k=%%'")
        shows(outer, name, "key:")
        outer.run("send-keys", "-t", name, "z")
        shows(outer, name, "k=z")
        both.run(name, "command-prompt", "-b", "-k", "-p", "key:", "display 'k=%%'")
        shows(outer, name, "key:")
        outer.run("send-keys", "-t", name, "F5")
        shows(outer, name, "k=F5")
        both.run(name, "command-prompt", "-b", "-N", "-p", "num:", "display 'n=%%'")
        shows(outer, name, "num:")
        outer.run("send-keys", "-t", name, "1", "2", "a")
        shows(outer, name, "n=12")


def test_confirm_before(both: BothServers, outer: Outer) -> None:
    """`Confirm 'VERB'? (y/n)` without -p; n does nothing, y runs it; -p is a format."""
    attach_both(both, outer)
    for name in both.NAMES:
        both.run(name, "new-window", "-d", "-t", "s:7", "sleep 1000")
        both.run(name, "confirm-before", "-b", "kill-window -t 7")
        shows(outer, name, "Confirm 'kill-window'? (y/n)")
        outer.run("send-keys", "-t", name, "n")
        wait_until(lambda name=name: "[s]" in status_text(outer, name),  # type: ignore[misc]
                   what=f"{name}'s prompt to close")
        assert both.run(name, "has-session", "-t", "s:7").returncode == 0
        both.run(name, "confirm-before", "-b", "-p", "really #S?", "kill-window -t 7")
        shows(outer, name, "really s?")
        outer.run("send-keys", "-t", name, "y")
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-windows", "-t", "s", "-F", "#I").stdout == "0\n",
            what=f"{name}'s window 7 killed")


def test_c_b_x_kills_the_pane_it_asked_about(both: BothServers, outer: Outer) -> None:
    """The default binding's prompt (a format: `kill-pane #P? (y/n)`), and the command's
    target is the pane current when it asked, as tmux keeps the item's state."""
    attach_both(both, outer)
    for name in both.NAMES:
        both.run(name, "split-window", "-d", "-t", "s", "sleep 1000")
        outer.run("send-keys", "-t", name, "C-b", "x")
        shows(outer, name, "kill-pane 0? (y/n)")
        both.run(name, "select-pane", "-t", "s:0.1")
        outer.run("send-keys", "-t", name, "y")
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-panes", "-t", "s", "-F", "#{pane_index}").stdout == "0\n",
            what=f"{name}'s first pane killed")


def test_show_messages_logs_commands_and_messages(both: BothServers, outer: Outer) -> None:
    """tmux's message log, newest first: `TIME: CLIENT command: LINE` for a command line
    (client-PID without a terminal), `TIME: TTY message: TEXT` for a status message,
    `TIME: TTY key KEY: COMMAND` for a binding; `no current client` without a client."""
    for name in both.NAMES:
        both.run(name, "new-session", "-d", "-s", "lonely", "sleep 1000")
        assert both.answers(name, ["show-messages"]) == (1, "", "no current client\n")
        both.run(name, "kill-server")
    ttys = attach_both(both, outer)
    for name in both.NAMES:
        both.run(name, "display", "hello there")
        shows(outer, name, "hello there")
        outer.run("send-keys", "-t", name, "C-b", "c")
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-windows", "-t", "s", "-F", "#I").stdout == "0\n1\n",
            what=f"{name}'s new window")
        lines = [line for line in both.run(name, "show-messages").stdout.splitlines()
                 if "command: list-windows" not in line]  # the wait's own
        tty = re.escape(ttys[name])
        assert re.fullmatch(r"\d\d:\d\d: client-\d+ command: show-messages", lines[0]), name
        assert re.fullmatch(rf"\d\d:\d\d: {tty} key c: new-window", lines[1]), (name, lines)
        assert re.fullmatch(rf"\d\d:\d\d: {tty} message: hello there", lines[2]), (name, lines)
        assert re.fullmatch(r"\d\d:\d\d: client-\d+ command: display-message \"hello there\"",
                            lines[3]), (name, lines)


def test_prompt_histories(both: BothServers, outer: Outer) -> None:
    """Each answer goes into its type's history (not a one-key answer); show-prompt-history
    lists each type, clear-prompt-history empties them."""
    attach_both(both, outer)
    seen = {}
    for name in both.NAMES:
        for answer in ("first", "second"):
            both.run(name, "command-prompt", "-b", "display '%%'")
            shows(outer, name, "(display)")
            outer.run("send-keys", "-t", name, answer, "Enter")
            shows(outer, name, answer)
        both.run(name, "command-prompt", "-b", "-T", "search", "-p", "find", "display '%%'")
        shows(outer, name, "find")
        outer.run("send-keys", "-t", name, "needle", "Enter")
        shows(outer, name, "needle")
        seen[name] = [both.answers(name, ["show-prompt-history"]),
                      both.answers(name, ["show-prompt-history", "-T", "search"]),
                      both.answers(name, ["clear-prompt-history", "-T", "command"]),
                      both.answers(name, ["show-prompt-history", "-T", "command"]),
                      both.answers(name, ["show-prompt-history", "-T", "x"])]
    assert seen["termhost"] == seen["tmux"]
    assert "1: first\n2: second\n" in seen["tmux"][0][1]


def test_refresh_client_redraws_the_status_line(both: BothServers, outer: Outer) -> None:
    """refresh-client -S (status-line plugins run it) and plain refresh-client, for the
    current client and by its terminal."""
    ttys = attach_both(both, outer)
    for name in both.NAMES:
        assert both.answers(name, ["refresh-client", "-S"]) == (0, "", "")
        assert both.answers(name, ["refresh-client", "-t", ttys[name]]) == (0, "", "")
        assert both.run(name, "set", "-g", "status-left", "[#{session_name}-L] ").returncode == 0
        wait_until(lambda name=name: status_text(outer, name).startswith(  # type: ignore[misc]
            "[s-L]"), what=f"{name}'s new status-left")
