"""Option names and show-options' scopes, compared with a live tmux 3.3a: a unique
prefix names an option (`set -g mode-k vi`), several are `ambiguous option`, a style
option refuses a style it cannot parse, a window's own values without -g (nothing when
it sets none, -A the inherited ones marked `*`), -p's pane options, and a hook's
element by index."""

from __future__ import annotations

from tests.conftest import BothServers

STEPS = [
    ["set", "-g", "mode-k", "vi"],
    ["show", "-gv", "mode-keys"],
    ["show", "-g", "status-le"],
    ["show", "-w", "-g", "window-"],
    ["set", "-g", "status-le", "x"],
    ["set", "-gq", "nonesuch", "x"],
    ["set", "-g", "status-style", "fg=notacolour"],
    ["set", "-g", "status-style", "bogus=1"],
    ["set", "-g", "status-style", "#{?client_prefix,fg=red,fg=blue}"],
    ["set", "-g", "message-style", "bg=red,blink"],
    ["show", "-g", "message-style"],
    ["show", "-A", "status-style"],
    ["show", "-w", "-A", "-t", "s", "window-status-format"],
    ["setw", "-t", "s", "remain-on-exit", "on"],
    ["show", "-w", "-t", "s"],
    ["show", "-w", "-t", "s", "remain-on-exit"],
    ["show", "-w", "-t", "s", "synchronize-panes"],
    ["show", "-p", "-t", "s"],
    ["show", "-gp"],
    ["set-hook", "-g", "session-renamed[3]", "display renamed"],
    ["show-hooks", "-g", "session-renamed[3]"],
    ["show-hooks", "-g", "session-renamed[0]"],
]


def test_option_names_and_scopes_as_tmux(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    both.after_each(STEPS, ["show", "-gv", "status-style"])
