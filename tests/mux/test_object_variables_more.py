"""The rest of tmux 3.3a's format variables that are the same on any machine (the
manual's FORMATS table, format.c's format_cb_* behind each), compared with a live tmux
after the same commands: where a pane sits, the terminal modes its program set, the
window and session stacks, alerts, and the server's own."""

from __future__ import annotations

from tests.conftest import BothServers, wait_until

SETUP = [
    ["new-session", "-d", "-s", "s", "-x", "80", "-y", "24",
     "printf '\\033[4h\\033[?1h\\033[?6h\\033[?7l\\033[?1002h\\033[?1006h\\033[3;9r'; "
     "exec sleep 1000"],
    ["split-window", "-d", "-h", "-t", "s:0", "sleep 1000"],
    ["split-window", "-d", "-t", "s:0.1", "sleep 1000"],
    ["new-window", "-d", "-t", "s:3", "printf '\\033[?1049h'; exec sleep 1000"],
    ["new-window", "-d", "-t", "s:1", "sleep 1000"],
    ["select-window", "-t", "s:1"],
    ["select-window", "-t", "s:0"],
    ["setw", "-t", "s:0", "synchronize-panes", "on"],
    ["new-session", "-d", "-s", "other", "sleep 1000"],
]

NAMES = [
    "active_window_index", "last_window_index", "alternate_on", "alternate_saved_x",
    "alternate_saved_y", "insert_flag", "keypad_cursor_flag", "origin_flag",
    "wrap_flag", "mouse_standard_flag", "mouse_button_flag", "mouse_any_flag",
    "mouse_all_flag", "mouse_utf8_flag", "mouse_sgr_flag", "next_session_id",
    "pane_at_left", "pane_at_right", "pane_at_top", "pane_at_bottom", "pane_bg",
    "pane_fg", "pane_format", "pane_input_off", "pane_marked",
    "pane_marked_set", "pane_path", "pane_pipe", "pane_search_string",
    "pane_synchronized", "pane_tabs", "scroll_region_upper", "scroll_region_lower",
    "pane_dead_time", "session_alerts", "session_attached_list", "session_format",
    "session_grouped", "session_many_attached", "session_marked", "session_stack",
    "version", "window_active_clients", "window_active_clients_list",
    "window_active_sessions", "window_active_sessions_list", "window_cell_height",
    "window_cell_width", "window_format", "window_linked", "window_linked_sessions",
    "window_linked_sessions_list", "window_raw_flags", "window_flags",
    "window_stack_index", "window_visible_layout",
]

FORMAT = "".join(f"{name}=#{{{name}}}\n" for name in NAMES)


def test_the_rest_of_the_variables_read_as_tmux_has_them(both: BothServers) -> None:
    for name in both.NAMES:
        for step in SETUP:
            done = both.run(name, *step)
            assert done.returncode == 0, (name, step, done.stderr)
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "s:0.0", "#{scroll_region_upper}").stdout == "2\n",
            what=f"{name}'s pane to set its modes")
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "s:3", "#{alternate_on}").stdout == "1\n",
            what=f"{name}'s pane to enter the alternate screen")
    for target in ("s:0.0", "s:0.1", "s:0.2", "s:1", "s:3", "other"):
        seen = {name: both.run(name, "display", "-p", "-t", target, FORMAT).stdout.splitlines()
                for name in both.NAMES}
        assert seen["termhost"] == seen["tmux"], target


def test_display_a_lists_the_variables_tmux_lists(both: BothServers) -> None:
    """tmux's `display -a` (format_each): every variable of the target with a value, the
    callbacks that give nothing left out (a live pane's pane_dead_*), `command` last;
    and #{history_bytes} counts the grid as tmux 3.3a's structures do."""
    listed = {}
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "80", "-y", "24",
                        "printf 'one\\ntwo\\n'; exec sleep 1000").returncode == 0
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s").stdout.startswith("one\ntwo\n"),
            what=f"{name}'s pane to print")
        lines = both.run(name, "display", "-a", "-t", "s").stdout.splitlines()
        listed[name] = dict(line.split("=", 1) for line in lines)
        assert lines[-1] == "command=display-message", name
    ours, theirs = listed["termhost"], listed["tmux"]
    assert set(ours) - {"snapshot_status", "session_exited"} == set(theirs)
    for name in ("history_bytes", "history_all_bytes", "config_files", "buffer_mode_format",
                 "tree_mode_format", "session_last_attached", "pane_tabs"):
        assert ours[name] == theirs[name], name
