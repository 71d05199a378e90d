"""The default key table: what each key after the prefix does, as a tmux command.

The attached client (termhost/ui/app.py) carries out these bindings, with bind-key and
unbind-key applied (`KeyTable`, one per server); the table is what `list-keys` and
`C-b ?` show, in tmux's `bind-key -T prefix KEY COMMAND` form, so a tmux
user reads them as in tmux. tests/ui/test_attach.py holds the two to the same keys.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["PREFIX_KEY", "PREFIX_TABLE", "Binding", "KeyTable"]

PREFIX_KEY = "C-b"


@dataclass(frozen=True)
class Binding:
    key: str
    """tmux's name of the key pressed after the prefix."""
    command: str
    """What it does, as the tmux command line that does the same."""
    note: str
    """tmux's note for it (`list-keys -N`, `C-b ?`)."""


PREFIX_TABLE: tuple[Binding, ...] = (
    Binding("C-b", "send-prefix",
            "Send the prefix key"),
    Binding('"', "split-window",
            "Split window vertically"),
    Binding("$", 'command-prompt -I "#S" { rename-session "%%" }',
            "Rename current session"),
    Binding("%", "split-window -h",
            "Split window horizontally"),
    Binding("&", 'confirm-before -p "kill-window #W? (y/n)" kill-window',
            "Kill current window"),
    Binding(",", 'command-prompt -I "#W" { rename-window "%%" }',
            "Rename current window"),
    *(Binding(digit, f"select-window -t :={digit}", f"Select window {digit}")
      for digit in "0123456789"),
    Binding(":", "command-prompt",
            "Prompt for a command"),
    Binding("?", "list-keys -N",
            "List key bindings"),
    Binding("c", "new-window",
            "Create a new window"),
    Binding("d", "detach-client",
            "Detach the current client"),
    Binding("l", "last-window",
            "Select the previously current window"),
    Binding("n", "next-window",
            "Select the next window"),
    Binding("o", "select-pane -t :.+",
            "Select the next pane"),
    Binding("p", "previous-window",
            "Select the previous window"),
    Binding("x", 'confirm-before -p "kill-pane #P? (y/n)" kill-pane',
            "Kill the active pane"),
    Binding("z", "resize-pane -Z",
            "Zoom the active pane"),
    Binding("Space", "next-layout",
            "Select next layout"),
    Binding("!", "break-pane",
            "Break pane to a new window"),
    Binding("{", "swap-pane -U",
            "Swap the active pane with the pane above"),
    Binding("}", "swap-pane -D",
            "Swap the active pane with the pane below"),
    Binding("C-o", "rotate-window",
            "Rotate through the panes"),
    Binding("M-o", "rotate-window -D",
            "Rotate through the panes in reverse"),
    Binding("q", "display-panes",
            "Display pane numbers"),
    Binding("[", "copy-mode",
            "Enter copy mode"),
    Binding("PageUp", "copy-mode -u",
            "Enter copy mode and scroll up"),
    Binding("]", "paste-buffer -p",
            "Paste the most recent paste buffer"),
    Binding("#", "list-buffers",
            "List all paste buffers"),
    Binding("-", "delete-buffer",
            "Delete the most recent paste buffer"),
    *(Binding(f"M-{number}", f"select-layout {name}", f"Set the {name} layout")
      for number, name in enumerate(
          ("even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled"),
          start=1)),
    Binding("C-Up", "resize-pane -U",
            "Resize the pane up"),
    Binding("C-Down", "resize-pane -D",
            "Resize the pane down"),
    Binding("C-Left", "resize-pane -L",
            "Resize the pane left"),
    Binding("C-Right", "resize-pane -R",
            "Resize the pane right"),
    Binding("Up", "select-pane -U",
            "Select the pane above the active pane"),
    Binding("Down", "select-pane -D",
            "Select the pane below the active pane"),
    Binding("Left", "select-pane -L",
            "Select the pane to the left of the active pane"),
    Binding("Right", "select-pane -R",
            "Select the pane to the right of the active pane"),
)


class KeyTable:
    """The prefix key table of one server: the defaults, changed by bind-key and
    unbind-key (from a config file or the command prompt), in the order list-keys shows."""

    def __init__(self) -> None:
        self._bindings = {binding.key: binding for binding in PREFIX_TABLE}

    def __iter__(self) -> Iterator[Binding]:
        return iter(self._bindings.values())

    def bind(self, key: str, command: str, note: str = "") -> None:
        self._bindings[key] = Binding(key, command, note or command)

    def unbind(self, key: str) -> None:
        self._bindings.pop(key, None)

    def clear(self) -> None:
        self._bindings.clear()

    def list_keys(self, *, notes: bool = False) -> list[str]:
        """As tmux's list-keys prints the table, columns aligned, one binding a line:
        `bind-key` commands, or (`notes`, list-keys -N) the keys with their notes."""
        width = max((len(binding.key) for binding in self), default=1)
        if notes:
            return [f"{PREFIX_KEY} {binding.key.ljust(width)} {binding.note}" for binding in self]
        return [
            f"bind-key    -T prefix {binding.key.ljust(width)} {binding.command}"
            for binding in self
        ]
