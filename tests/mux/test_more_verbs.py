"""respawn-window, show-window-options and source-file's -F -n -v and patterns,
compared with a live tmux 3.3a."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import BothServers, wait_until


def test_respawn_window(both: BothServers) -> None:
    """A live window is refused without -k; with it, one pane again, running anew."""
    for name in both.NAMES:
        for step in (["new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 1000"],
                     ["split-window", "-t", "s", "sleep 1000"],
                     ["split-window", "-h", "-t", "s", "sleep 1000"]):
            assert both.run(name, *step).returncode == 0
    both.after_each([["respawn-window", "-t", "s"],
                     ["respawn-window", "-k", "-t", "s", "printf respawned; exec sleep 1000"]],
                    ["list-panes", "-t", "s", "-F", "#{pane_index} #{pane_width}x#{pane_height}"])
    for name in both.NAMES:
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s").stdout.startswith("respawned"),
            what=f"{name}'s respawned pane")


def test_show_window_options_and_source_file_flags(both: BothServers, tmp_path: Path) -> None:
    conf = tmp_path / "one.conf"
    conf.write_text("set -g @a 1\nset -g @b 'x y'\n", encoding="utf-8")
    (tmp_path / "two.conf").write_text("set -g @c 3\n", encoding="utf-8")
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    both.after_each([
        ["setw", "-t", "s", "remain-on-exit", "on"],
        ["showw", "-t", "s"],
        ["showw", "-gv", "remain-on-exit"],
        ["source-file", "-n", str(conf)],
        ["show", "-gv", "@a"],
        ["source-file", "-v", str(conf)],
        ["source-file", str(tmp_path / "*.conf")],
        ["source-file", "-q", str(tmp_path / "none*.conf")],
        ["source-file", str(tmp_path / "none*.conf")],
        ["source-file", "-F", str(tmp_path / "#{session_name}*.conf")],
    ], ["show", "-g", "@c"])


def test_refresh_client_needs_a_client(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    both.after_each([["refresh-client"], ["refresh-client", "-S"],
                     ["refresh-client", "-t", "/dev/nosuch"]], ["list-clients"])


def test_command_aliases_and_mouse_keys_in_bindings(both: BothServers) -> None:
    """tmux's default command-alias (splitp, choose-session...) on the command line and
    in bindings, which list-keys prints expanded; mouse key names bound; any command in
    a copy-mode table (vim-tmux-navigator's `bind -T copy-mode-vi C-h select-pane -L`)."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    both.after_each([
        ["splitp", "-d", "-t", "s", "sleep 1000"],
        ["bind", "S", "choose-session"],
        ["list-keys", "-T", "prefix", "S"],
        ["bind", "-T", "copy-mode-vi", "MouseDragEnd1Pane", "send-keys", "-X",
         "copy-pipe-and-cancel", "pbcopy"],
        ["bind", "-n", "DoubleClick1Pane", "select-pane"],
        ["bind", "-T", "copy-mode-vi", "C-h", "select-pane", "-L"],
        ["list-keys", "-T", "copy-mode-vi", "MouseDragEnd1Pane"],
        ["list-keys", "-T", "copy-mode-vi", "C-h"],
        ["bind", "x", "MouseDown9Pane"],
    ], ["list-panes", "-t", "s", "-F", "#{pane_index}"])
