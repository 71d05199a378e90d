"""termhost.control.Session, the helper for scripts: one control-mode client whose
commands answer with their lines (or ControlError), and whose notifications are kept
for the script to read; the same script run against tmux gets the same answers."""

from __future__ import annotations

import pytest

from termhost.control import ControlError, Notification, Session, quote, unescape
from tests.conftest import BothServers

AWKWARD = ["plain", "two words", "it's", 'say "hi"', "semi;colon", ";", "#{session_name}",
           "$HOME", "~", "%0", "{ brace }", "back\\slash", "", "tab\there", "é"]


@pytest.mark.parametrize("name", BothServers.NAMES)
def test_commands_answer_with_their_lines(both: BothServers, name: str) -> None:
    assert both.run(name, "new-session", "-d", "-s", "work").returncode == 0
    with Session("attach", "-t", "work", program=both.programs[name], env=both.env) as session:
        assert session.started == []
        for word in AWKWARD:  # each reaches the command as one word, as it is
            assert session.cmd("display-message", "-p", "--", word) == [
                "work" if word == "#{session_name}" else word]
        assert session.cmd("list-windows", "-F", "#{window_index}") == ["0"]
        with pytest.raises(ControlError) as refused:
            session.cmd("kill-window", "-t", "nosuch")
        assert refused.value.lines == ["can't find window: nosuch"]
        assert session.cmd("display-message", "-p", "still there") == ["still there"]
    assert session.exited == ""


@pytest.mark.parametrize("name", BothServers.NAMES)
def test_notifications_are_kept_for_the_script(both: BothServers, name: str) -> None:
    assert both.run(name, "new-session", "-d", "-s", "work").returncode == 0
    with Session("attach", "-t", "work", program=both.programs[name], env=both.env) as session:
        session.cmd("new-window", "-n", "second")
        session.cmd("display-message", "-p", "and then")  # the new window's are told by now
        told = [notice for notice in session.notifications() if notice.name != "output"]
        assert told == [Notification("session-changed", ["$0", "work"]),
                        Notification("session-window-changed", ["$0", "@1"]),
                        Notification("window-add", ["@1"])]
        session.cmd("send-keys", "-t", "second", "echo $((6 * 7))", "Enter")
        written = b""
        while b"42\r\n" not in written:
            written += session.wait_for("output").data
    assert session.exited == ""


def test_a_command_that_fails_to_start_says_why(both: BothServers) -> None:
    with pytest.raises(ControlError, match="no sessions"):
        Session("attach", program=both.programs["termhost"], env=both.env)


def test_quote_and_unescape() -> None:
    assert quote("plain") == "plain"
    assert quote("it's here") == "'it'\"'\"'s here'"
    assert quote("%0:off") == "'%0:off'"  # a word of % and more is a directive to tmux
    assert unescape(b"a\\134b\\001\\033[1m\xc3\xa9\\015\\012") == b"a\\b\x01\x1b[1m\xc3\xa9\r\n"
