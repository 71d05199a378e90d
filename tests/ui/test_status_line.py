"""The status line drawn as tmux 3.3a draws it, read back from a third terminal.

An outer tmux, a terminal nobody here wrote, runs two clients side by side in panes of
the same size: one of a private tmux 3.3a server, one of a termhost server, both set up
with the same commands. The last line each shows (capture-pane -e: text and colours) must
be the same. This pins tmux's status_redraw and format_draw: status-format, the styles
of every status option, status-justify, `#()` jobs, the list cut around the current window with its
`<`/`>` markers, status-left-length, fill, and `#` runs before `[`.
"""

from __future__ import annotations

import pytest

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer


def status_lines(both: BothServers, outer: Outer, steps: list[list[str]], width: int = 60,
                 windows: int = 3) -> dict[str, str]:
    """Both servers given a session `s` of `windows` windows (named one, two, ...; the
    last current, the one before it last) and `steps`, each seen attached in the outer
    terminal: the last line each shows, once they agree (or the deadline passes)."""
    names = ["one", "two", "three", "four", "five", "six", "seven", "eight"][:windows]
    for name in both.NAMES:
        setup = [["new-session", "-d", "-s", "s", "-n", names[0], "-x", str(width), "-y", "5",
                  "sleep 1000"]]
        setup += [["new-window", "-n", window, "sleep 1000"] for window in names[1:]]
        setup += [["set", "-g", "status-right", "RIGHT"], *steps]
        for step in setup:
            done = both.run(name, *step)
            assert done.returncode == 0, (name, step, done.stderr)
        outer.show(name, CLIENTS[name], width, 6)
    seen: dict[str, str] = {}

    def agree() -> bool:
        seen.update({name: outer.last_line(name) for name in both.NAMES})
        return seen["tmux"] != "" and seen["tmux"] == seen["termhost"]

    try:
        wait_until(agree, PATIENCE, "termhost's status line to be tmux's")
    except pytest.fail.Exception:
        pass  # the assertion below shows both
    return seen


CASES = {
    "defaults": [],
    "styles": [["set", "-g", "status-style", "bg=blue,fg=white"],
               ["set", "-g", "status-left", "#[fg=red,bold]L#[default]eft "],
               ["set", "-g", "window-status-current-style", "bg=red,underscore"],
               ["set", "-g", "window-status-last-style", "fg=yellow"]],
    "status-bg over status-style": [["set", "-g", "status-bg", "red"]],
    "status-fg and status-style": [["set", "-g", "status-fg", "white"],
                                   ["set", "-g", "status-style", "bg=blue,fg=red"]],
    "formats": [["set", "-g", "window-status-format", "<#I-#W#F>"],
                ["set", "-g", "window-status-current-format", "[#W]"],
                ["set", "-g", "window-status-separator", "|"]],
    "centre": [["set", "-g", "status-justify", "centre"]],
    "right": [["set", "-g", "status-justify", "right"]],
    "absolute-centre": [["set", "-g", "status-justify", "absolute-centre"],
                        ["set", "-g", "status-left", "a-long-left-part"]],
    "left-length": [["set", "-g", "status-left", "0123456789abcdef"],
                    ["set", "-g", "status-left-length", "5"]],
    "fill and align": [["set", "-g", "status-format[0]",
                        "#[fill=magenta]L#[align=centre]C#[align=right bg=cyan]R"]],
    "hashes": [["set", "-g", "status-format[0]",
                "#[bg=default]a##b###[bg=yellow]c##[d]e####[f] end"]],
}


@pytest.mark.parametrize("steps", CASES.values(), ids=list(CASES))
def test_the_status_line_is_drawn_as_tmux_draws_it(both: BothServers, outer: Outer,
                                                   steps: list[list[str]]) -> None:
    seen = status_lines(both, outer, steps)
    assert seen["termhost"] == seen["tmux"]


def test_a_window_list_too_long_is_cut_around_the_current_window(
    both: BothServers, outer: Outer,
) -> None:
    # tmux's format_draw_put_list: the focus (current window) kept in sight, `<` and `>`
    # where windows were cut off.
    seen = status_lines(both, outer, [["select-window", "-t", ":4"]], width=30, windows=8)
    assert seen["termhost"] == seen["tmux"]
    assert "<" in seen["tmux"] and ">" in seen["tmux"]


def test_a_job_in_the_status_line_is_drawn_when_it_prints(both: BothServers, outer: Outer,
                                                          ) -> None:
    # tmux's format_job_get: the first draw starts the command and shows nothing; its
    # last line (what follows the last newline, at the end) is drawn when it arrives
    right = "#(echo from-a-job)|#(printf 'a\\nlast')"
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-n", "w", "-x", "60", "-y", "5",
                        "sleep 1000", ";", "set", "-g", "status-right", right).returncode == 0
        outer.show(name, CLIENTS[name], 60, 6)
    for name in both.NAMES:
        wait_until(lambda name=name: "from-a-job|last" in outer.last_line(name),  # type: ignore[misc]
                   PATIENCE, f"{name}'s job output")
    assert outer.last_line("termhost") == outer.last_line("tmux")
