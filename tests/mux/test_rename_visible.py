"""rename-window makes a name visible as tmux 3.3a's window_set_name (utf8_stravis):
backslashes doubled, controls C-style or octal, other scripts kept; compared with a
live tmux."""

from __future__ import annotations

from tests.conftest import BothServers


def test_rename_window_escapes_as_tmux(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    both.after_each([["rename-window", "-t", "s", "a\\b\tc\x01d\x7fe\nf é 名"],
                     ["rename-window", "-t", "s", "hello \\ wazzup 0"]],
                    ["display", "-p", "-t", "s", "#W"])
