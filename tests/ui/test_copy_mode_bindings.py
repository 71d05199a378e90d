"""A configuration's copy-mode bindings in a real client, compared with a tmux 3.3a
client in an outer tmux: a key rebound to another copy-mode command (v to
begin-selection, as most configs do), copy-pipe-and-cancel with its command (the text
piped to it), a mouse key bound, and a binding to a command of tmux's (select-pane)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import Outer, attach_both


def test_copy_mode_tables_as_a_config_sets_them(both: BothServers, outer: Outer,
                                                tmp_path: Path) -> None:
    attach_both(both, outer)
    for name in both.NAMES:
        piped = tmp_path / f"{name}.txt"
        for step in (
                ["setw", "-g", "mode-keys", "vi"],
                ["bind", "-T", "copy-mode-vi", "v", "send", "-X", "begin-selection"],
                ["bind", "-T", "copy-mode-vi", "y", "send-keys", "-X", "copy-pipe-and-cancel",
                 f"cat > '{piped}'"],
                ["bind", "-T", "copy-mode-vi", "MouseDragEnd1Pane", "send-keys", "-X",
                 "copy-pipe-and-cancel", "cat > /dev/null"],
                ["bind", "-T", "copy-mode-vi", "C-h", "select-pane", "-L"],
                ["split-window", "-h", "-t", "s", "printf 'hello world\\n'; exec sleep 1000"]):
            assert both.run(name, *step).returncode == 0, (name, step)
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "capture-pane", "-p", "-t", "s:0.1").stdout.startswith("hello world"),
            what=f"{name}'s pane to print")
        for key in ("C-b", "[", "k", "0", "v", "e", "y"):  # one at a time, as typed
            outer.run("send-keys", "-t", name, key)
            if key == "[":
                wait_until(lambda name=name: both.run(  # type: ignore[misc]
                    name, "display", "-p", "-t", "s:0.1", "#{pane_in_mode}").stdout == "1\n",
                    what=f"{name}'s copy mode")
        wait_until(lambda piped=piped: piped.exists() and piped.read_text() == "hello",
                   what=f"{name}'s copy-pipe to write the selection")
        assert both.run(name, "display", "-p", "-t", "s:0.1", "#{pane_in_mode}").stdout == "0\n"
        outer.run("send-keys", "-t", name, "C-b", "[")
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "s:0.1", "#{pane_in_mode}").stdout == "1\n",
            what=f"{name}'s copy mode again")
        outer.run("send-keys", "-t", name, "C-h")  # bound in copy-mode-vi to select-pane -L
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-t", "s", "#{pane_index}").stdout == "0\n",
            what=f"{name}'s left pane selected from copy mode")
    assert both.run("tmux", "list-keys", "-T", "copy-mode-vi", "y").stdout.replace(
        "tmux.txt", "X") == both.run("termhost", "list-keys", "-T", "copy-mode-vi",
                                      "y").stdout.replace("termhost.txt", "X")
