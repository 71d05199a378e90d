"""window-style and window-active-style drawn (select-pane -P, set -p): a tmux 3.3a
client and a termhost client side by side in an outer tmux, their screens (text and
colours, capture-pane -e) compared."""

from __future__ import annotations

import re

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer, agreed, screen

WIDTH, HEIGHT = 50, 12
WORDS = "printf '\\033[31mred\\033[0m plain \\033[44mblue\\033[0m\\n'; exec cat"
"""A line with a cell of each kind: a colour of its own, the default colours, its own
background."""


_BORDER = re.compile(r"(?:\x1b\[[0-9;]*m)+│(?:\x1b\[39m)?")
"""The border and the colour changes around it (its colour set, and taken back)."""


def _shown(outer: Outer, name: str) -> list[str]:
    """The client's screen, the border between the panes in no colour: with two panes
    tmux colours half of it as the active one's (pane-border-indicators), termhost all."""
    return [_BORDER.sub("│", row) for row in screen(outer, name)]


def _attach(both: BothServers, outer: Outer, *steps: list[str]) -> None:
    for name in both.NAMES:
        for step in [["new-session", "-d", "-s", "s", "-x", str(WIDTH), "-y",
                      str(HEIGHT - 1), WORDS],
                     ["split-window", "-h", "-t", "s", WORDS],
                     ["set", "-g", "status-right", "RIGHT"], *steps]:
            done = both.run(name, *step)
            assert done.returncode == 0, (name, step, done.stderr)
        outer.show(name, CLIENTS[name], WIDTH, HEIGHT)
        wait_until(lambda name=name: "[s]" in screen(outer, name)[-1],  # type: ignore[misc]
                   PATIENCE, f"{name}'s client to draw")


def test_select_pane_p_colours_the_panes_default_cells(both: BothServers,
                                                        outer: Outer) -> None:
    """tmux's tty_default_colours: select-pane -P bg=red,fg=white draws the pane's
    default-coloured cells, blanks too, in red and white; a cell with a colour of its own
    keeps it; the other pane is as it was."""
    _attach(both, outer)
    agreed(lambda name: _shown(outer, name), "both drawn before")
    for name in both.NAMES:
        assert both.run(name, "select-pane", "-t", "s:0.0", "-P", "bg=red,fg=white"
                        ).returncode == 0
    shown = agreed(lambda name: _shown(outer, name), "the left pane in red",
                   ready=lambda rows: "\x1b[37;41m" in rows[2])
    assert "\x1b[37;41m" not in shown[2].split("│")[1]


def test_the_active_pane_takes_window_active_style(both: BothServers, outer: Outer) -> None:
    """window-style for every pane, window-active-style's colours over it for the active
    one; the colours change over when another pane is selected."""
    _attach(both, outer, ["set", "-g", "window-style", "bg=colour236"],
            ["set", "-g", "window-active-style", "bg=black"])
    agreed(lambda name: _shown(outer, name), "the active pane black, the other grey")
    for name in both.NAMES:
        assert both.run(name, "select-pane", "-t", "s:0.0").returncode == 0
    agreed(lambda name: _shown(outer, name), "the colours changed over")
    for name in both.NAMES:
        assert both.run(name, "set", "-p", "-t", "s:0.1", "window-style",
                        "#{?pane_active,bg=red,bg=blue}").returncode == 0
    agreed(lambda name: _shown(outer, name), "the right pane's own style, a format")
