"""A pane's modes are the pane's, as tmux's are: copy-mode entered and left from the command
line with no client attached (`copy-mode`, `send -X cancel`), the `#{pane_in_mode}` family,
and a configuration's errors shown in view mode over the first session's pane. Each step
is compared with a live tmux 3.3a."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import BothServers

MODE = "#{pane_in_mode}:#{pane_mode}"
COPY_STATE = f"{MODE}:#{{scroll_position}}:#{{selection_present}}:#{{search_present}}"


def test_copy_mode_from_the_command_line_with_no_client(both: BothServers) -> None:
    steps = [
        ["new-session", "-d", "-s", "s", "-x", "40", "-y", "10",
         "seq 1 100; exec sleep 1000"],
        ["send-keys", "-X", "cancel"],  # `not in a mode`, status 1
        ["copy-mode", "-t", "s:nosuch"],
        ["copy-mode"],
        ["copy-mode"],  # already in it: stays where it is
        ["send-keys", "-X", "page-up"],
        ["send-keys", "-X", "-N", "3", "scroll-down"],
        ["send-keys", "-X", "-N", "0", "scroll-down"],
        ["send-keys", "-X", "-N", "x", "scroll-down"],
        ["send-keys", "-X", "begin-selection"],
        ["send-keys", "-X", "no-such-command"],  # ignored, as tmux does
        ["send-keys", "-X", "clear-selection"],
        ["send-keys", "-X", "cancel"],
        ["copy-mode", "-u"],
        ["copy-mode", "-q"],
        ["copy-mode"],
        ["send-keys", "-X", "history-top"],
        ["send-keys", "-X", "search-forward", "50"],
    ]
    both.after_each(steps, ["display", "-p", "-t", "s", COPY_STATE])


def test_a_search_lands_and_scrolls_as_tmux_s(both: BothServers) -> None:
    # tmux's window_copy_scroll_to: a match out of view goes a quarter of the view up from
    # the bottom; emacs keys land past a forward match, vi keys on its start.
    where = "#{scroll_position}:#{copy_cursor_x}:#{copy_cursor_y}"
    for keys in ("emacs", "vi"):
        steps = [
            ["new-session", "-d", "-s", keys, "-x", "40", "-y", "10",
             "printf 'aa hello bb\\n'; seq 1 100; printf 'zz hello yy\\n'; exec sleep 1000"],
            ["set", "-g", "mode-keys", keys],
            ["copy-mode", "-t", keys],
            ["send-keys", "-t", keys, "-X", "history-top"],
            ["send-keys", "-t", keys, "-X", "search-forward", "50"],
            ["send-keys", "-t", keys, "-X", "search-forward", "hello"],
            ["send-keys", "-t", keys, "-X", "search-backward", "20"],
            ["send-keys", "-t", keys, "-X", "search-again"],
            ["send-keys", "-t", keys, "-X", "search-reverse"],
            ["send-keys", "-t", keys, "-X", "search-backward", "hello"],
        ]
        both.after_each(steps, ["display", "-p", "-t", keys, where])


def test_a_copy_from_the_command_line_makes_a_buffer(both: BothServers) -> None:
    steps = [
        ["new-session", "-d", "-s", "s", "-x", "40", "-y", "10",
         "printf 'alpha beta\\n'; exec sleep 1000"],
        ["copy-mode"],
        ["send-keys", "-X", "history-top"],
        ["send-keys", "-X", "begin-selection"],
        ["send-keys", "-X", "next-word-end"],
        ["send-keys", "-X", "copy-selection-and-cancel"],
    ]
    both.after_each(steps, ["display", "-p", "-t", "s", MODE])
    for name in both.NAMES:
        assert both.run(name, "show-buffer").stdout == "alpha", name


def test_a_configurations_errors_wait_in_view_mode_for_the_first_session(
    both: BothServers, tmp_path: Path
) -> None:
    config = tmp_path / "errors.conf"
    config.write_text("if 'true' 'wibble wobble'\nset -g history-limit 50\n")
    for name in both.NAMES:
        done = both.run(name, "-f", str(config), "new-session", "-d", "-s", "s", "sleep 1000")
        assert (done.returncode, done.stderr) == (0, ""), name
        shown = both.run(name, "display", "-p", "-t", "s", MODE).stdout
        assert shown == "1:view-mode\n", name
        assert both.run(name, "show", "-gv", "history-limit").stdout == "50\n", name
        both.run(name, "send-keys", "-t", "s", "-X", "cancel")
        assert both.run(name, "display", "-p", "-t", "s", MODE).stdout == "0:\n", name
