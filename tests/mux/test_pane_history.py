"""What a pane's history keeps, as tmux 3.3a keeps it, compared with a live tmux.

A cleared screen's text: `clear` (ED 2) and ED 0 from the top left scroll the used rows
into the history while scroll-on-clear is on (screen_write_clearscreen), so that
`capture-pane -S -2` still shows the commands before a `clear -x` (libtmux's
test_capture_pane_start). A respawned pane's: respawn-pane and respawn-window clear the
screen only (screen_reinit), the history and its limit stay."""

from __future__ import annotations

import pytest

from tests.conftest import BothServers, wait_until

CASES = {
    "ed2-below-the-text": r"printf 'a\nb\n\033[2Jdone'",
    "ed0-from-the-top-left": r"printf 'a\nb\n\033[H\033[Jdone'",
    "ed0-elsewhere-keeps-nothing": r"printf 'a\nb\n\033[2;1H\033[Jdone'",
    "blank-rows-between": r"printf 'a\n\n\nb\033[2Jdone'",
    "a-wrapped-line": r"printf '%040d\n\n\nb\n\033[H\033[2Jdone' 0",
    "the-cursor-stays": r"printf 'a\nb\033[2J!\ndone'",
}


def _shown(both: BothServers, name: str, window: str) -> tuple[str, str]:
    """What `window` holds, history first, and its #{history_size}, once its program
    has printed `done` after the clear."""
    wait_until(lambda: "done" in both.run(name, "capture-pane", "-p", "-t", window).stdout,
               what=f"{name}'s pane to have cleared its screen")
    capture = both.run(name, "capture-pane", "-p", "-J", "-t", window, "-S", "-").stdout
    size = both.run(name, "display", "-p", "-t", window, "#{history_size}").stdout
    return capture, size


@pytest.mark.parametrize("case", list(CASES))
def test_a_cleared_screen_goes_into_the_history_as_tmuxs(both: BothServers, case: str) -> None:
    seen = {}
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "20", "-y", "6",
                        f"{CASES[case]}; exec cat").returncode == 0
        seen[name] = _shown(both, name, "s")
    assert seen["termhost"] == seen["tmux"]


@pytest.mark.parametrize("settings", [["-g", "scroll-on-clear", "off"],
                                      ["-g", "history-limit", "0"]])
def test_no_history_is_kept_without_scroll_on_clear_or_a_history(
        both: BothServers, settings: list[str]) -> None:
    """scroll-on-clear off, or a grid without history (GRID_HISTORY unset when the
    history-limit is 0): the screen is only cleared."""
    seen = {}
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "keep", "cat").returncode == 0
        assert both.run(name, "set-option", *settings).returncode == 0
        assert both.run(name, "new-window", "-d", "-t", "keep:5",
                        r"printf 'a\nb\n\033[2Jdone'; exec cat").returncode == 0
        seen[name] = _shown(both, name, "keep:5")
    assert seen["termhost"] == seen["tmux"]
    assert seen["tmux"][1] == "0\n"


@pytest.mark.parametrize("respawn", ["respawn-pane", "respawn-window"])
def test_a_respawned_pane_keeps_its_history_and_its_limit(both: BothServers,
                                                         respawn: str) -> None:
    seen = {}
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "20", "-y", "3",
                        "seq 5; echo done; exec cat").returncode == 0
        _shown(both, name, "s")
        assert both.run(name, "set-option", "-g", "history-limit", "1").returncode == 0
        assert both.run(name, respawn, "-k", "-t", "s",
                        "printf 'again\\ndone'; exec cat").returncode == 0
        wait_until(lambda name=name: "again" in both.run(name, "capture-pane", "-p").stdout,
                   what=f"{name}'s pane to have started again")
        limit = both.run(name, "display", "-p", "#{history_limit}").stdout
        seen[name] = (*_shown(both, name, "s"), limit)
    assert seen["termhost"] == seen["tmux"]
    assert seen["tmux"][2] == "2000\n"
