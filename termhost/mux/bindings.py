"""The default key table: what each key after the prefix does, as a tmux command.

The attached client (termhost/ui/app.py) carries out these bindings, with bind-key and
unbind-key applied (`KeyTable`, one per server); the table is what `list-keys` and
`C-b ?` show, in tmux's `bind-key -T prefix KEY COMMAND` form, so a tmux
user reads them as in tmux. tests/ui/test_attach.py holds the two to the same keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property

from termhost.mux.format_text import text_width
from termhost.mux.lexer import split_commands
from termhost.mux.mouse_bindings import COPY_MODE_MOUSE, ROOT_MOUSE
from termhost.mux.printing import command_list, escaped
from termhost.terminal.keys import UnknownKey, parse_key

__all__ = [
    "COPY_MODE_KEYS", "PREFIX_KEY", "PREFIX_TABLE", "TABLES", "Binding", "KeyTables",
    "copy_mode_commands", "is_mouse_key", "key_name", "mode_command",
]

PREFIX_KEY = "C-b"

_MOUSE_KEY = re.compile(
    r"(?:(?:Mouse(?:Down|Up|Drag|DragEnd)|(?:Second|Double|Triple)Click)[123]|Wheel(?:Up|Down))"
    r"(?:Pane|Border|Status|StatusLeft|StatusRight|StatusDefault)")
"""tmux's names of mouse keys (key_string_lookup_string)."""


def key_name(key: str) -> str:
    """The name tmux gives the key `key` names (key_string_lookup_key of
    key_string_lookup_string): `C-d` for `^D`, `Space` for ` `, `PPage` for `PageUp`;
    a mouse key's, or a name no key has, as it is. Tables hold keys by these names."""
    if is_mouse_key(key):
        return key
    try:
        return parse_key(key).name
    except UnknownKey:
        return key


def is_mouse_key(key: str) -> bool:
    """A mouse key's name, with its C-, M-, S- prefixes (tmux's KEYC_IS_MOUSE): a table
    binds them though no terminal types them, and list-keys -N leaves them out."""
    bare = key.removeprefix("C-").removeprefix("M-").removeprefix("S-")
    return _MOUSE_KEY.fullmatch(bare) is not None


@dataclass(frozen=True)
class Binding:
    key: str
    """tmux's name of the key pressed after the prefix."""
    command: str
    """What it does, as the tmux command line that does the same (lexer.py's language;
    a `\\;` between commands)."""
    note: str
    """tmux's note for it (`list-keys -N`, `C-b ?`); "" for none (bind-key without -N)."""
    repeat: bool = False
    """bind-key -r: for repeat-time after it, the next key is looked up in the same
    table without the prefix again (C-b Up Up Up)."""
    reprinted: bool = False
    """list-keys prints the command as tmux prints it (`shown`), not as written: a
    bind-key's; the default bindings are written so."""

    @cached_property
    def shown(self) -> str:
        """How list-keys prints the command: each verb by its full name, each word
        escaped, as tmux prints them (printing.py). Made when first asked for: a
        configuration's hundred bind-keys should not each print theirs as they load."""
        return command_list(split_commands(self.command, {})) if self.reprinted else self.command


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
    Binding("s", "choose-tree -Zs",
            "Choose a session from a list"),
    Binding("w", "choose-tree -Zw",
            "Choose a window from a list"),
    Binding("(", "switch-client -p",
            "Switch to previous client"),
    Binding(")", "switch-client -n",
            "Switch to next client"),
    Binding("d", "detach-client",
            "Detach the current client"),
    Binding("C", "customize-mode -Z",
            "Customize options"),
    Binding("D", "choose-client -Z",
            "Choose a client from a list"),
    Binding("f", 'command-prompt { find-window -Z "%%" }',
            "Search for a pane"),
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
    Binding("C-z", "suspend-client",
            "Suspend the current client"),
    Binding("M-o", "rotate-window -D",
            "Rotate through the panes in reverse"),
    Binding("q", "display-panes",
            "Display pane numbers"),
    Binding("t", "clock-mode",
            "Show a clock"),
    Binding("[", "copy-mode",
            "Enter copy mode"),
    Binding("PPage", "copy-mode -u",
            "Enter copy mode and scroll up"),
    Binding("]", "paste-buffer -p",
            "Paste the most recent paste buffer"),
    Binding("#", "list-buffers",
            "List all paste buffers"),
    Binding("=", "choose-buffer -Z",
            "Choose a paste buffer from a list"),
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


COPY_MODE_KEYS: dict[str, tuple[str, str]] = {
    "cursor-left": ("h C-h BSpace Left", "C-b Left"),
    "cursor-right": ("l Right", "C-f Right"),
    "cursor-up": ("k Up", "C-p Up"),
    "cursor-down": ("j Down", "C-n Down"),
    "next-word": ("w", ""),
    "next-space": ("W", ""),
    "next-word-end": ("e", "M-f"),
    "next-space-end": ("E", ""),
    "previous-word": ("b", "M-b"),
    "previous-space": ("B", ""),
    "start-of-line": ("0 Home", "C-a Home"),
    "back-to-indentation": ("^", "M-m"),
    "end-of-line": ("$ End", "C-e End"),
    "history-top": ("g", "M-<"),
    "history-bottom": ("G", "M->"),
    "top-line": ("H", "M-R"),
    "middle-line": ("M", "M-r"),
    "bottom-line": ("L", ""),
    "page-up": ("C-b PPage", "M-v PPage"),
    "page-down": ("C-f NPage", "C-v Space NPage"),
    "halfpage-up": ("C-u", "M-Up"),
    "halfpage-down": ("C-d", "M-Down"),
    "scroll-up": ("C-y K C-Up", "C-Up"),
    "scroll-down": ("C-e J C-Down", "C-Down"),
    "scroll-middle": ("z", ""),
    "previous-paragraph": ("{", "M-{"),
    "next-paragraph": ("}", "M-}"),
    "jump-forward": ("f", "f"),
    "jump-backward": ("F", "F"),
    "jump-to-forward": ("t", "t"),
    "jump-to-backward": ("T", "T"),
    "jump-again": (";", ";"),
    "jump-reverse": (",", ","),
    "search-forward": ("/", "C-s"),
    "search-backward": ("?", "C-r"),
    "search-again": ("n", "n"),
    "search-reverse": ("N", "N"),
    "goto-line": (":", "g"),
    "begin-selection": ("Space", "C-Space"),
    "toggle-selection": ("v", ""),
    "select-line": ("V", ""),
    "rectangle-toggle": ("C-v", "R"),
    "other-end": ("o", ""),
    "clear-selection": ("Escape", "C-g"),
    "copy-selection-and-cancel": ("Enter C-j y", "M-w C-w"),
    "cancel": ("q C-c", "q C-c Escape"),
}
"""Copy mode's commands (`send-keys -X NAME`) and the keys that do them in the
copy-mode-vi and copy-mode (emacs) tables, as tmux 3.3 binds them, but for termhost's
toggle-selection on vi `v` and copy on vi `y` (stock tmux: `v` rectangle-toggle, `y`
unbound). Escape in vi only clears the selection, as in tmux; q and C-c leave."""

TABLES = ("root", "prefix", "copy-mode", "copy-mode-vi")
"""The key tables: root keys work without the prefix (bind -n), prefix after it, the
copy-mode tables in copy mode (emacs and vi mode-keys)."""


def _copy_mode_table(vi: bool) -> tuple[Binding, ...]:
    return tuple(
        Binding(key, f"send-keys -X {name}", "")
        for name, (vi_keys, emacs_keys) in COPY_MODE_KEYS.items()
        for key in (vi_keys if vi else emacs_keys).split()
    )


def _mouse_table(bindings: tuple[tuple[str, str], ...]) -> tuple[Binding, ...]:
    return tuple(Binding(key, command, "") for key, command in bindings)


def copy_mode_commands(mode_keys: str) -> dict[str, str]:
    """The stock copy-mode table (`mode_keys` "vi" or "emacs") as key -> command name."""
    table = _copy_mode_table(mode_keys == "vi")
    return {binding.key: binding.command.rsplit(" ", 1)[1] for binding in table}


def mode_command(command: str) -> str | None:
    """The copy-mode command a binding's line is, when it is `send-keys -X NAME` alone."""
    commands = split_commands(command, {})
    if len(commands) == 1 and len(commands[0]) == 3 and commands[0][0] in ("send-keys", "send") \
            and commands[0][1] == "-X":
        return commands[0][2]
    return None


_REPEATING = frozenset({
    "DC", "Up", "Down", "Left", "Right", "M-Up", "M-Down", "M-Left", "M-Right",
    "C-Up", "C-Down", "C-Left", "C-Right", "S-Up", "S-Down", "S-Left", "S-Right"})
"""The prefix keys tmux 3.3a binds with -r."""


class KeyTables:
    """The key tables of one server: the defaults, changed by bind-key and unbind-key
    (from a config file or the command prompt), each in the order list-keys shows. A
    table of the user's own (`bind -T resize h ...`, reached by `switch-client -T
    resize`) exists from its first binding, as tmux's."""

    def __init__(self) -> None:
        stock = {"root": _mouse_table(ROOT_MOUSE), "prefix": PREFIX_TABLE,
                 "copy-mode": _copy_mode_table(False) + _mouse_table(COPY_MODE_MOUSE),
                 "copy-mode-vi": _copy_mode_table(True) + _mouse_table(COPY_MODE_MOUSE)}
        self._tables = {name: {b.key: replace(b, repeat=name == "prefix" and b.key in _REPEATING)
                               for b in bindings} for name, bindings in stock.items()}

    def exists(self, name: str) -> bool:
        return name in self._tables

    def names(self) -> list[str]:
        """The tables with a binding in them, by name (list-keys' order)."""
        return sorted(name for name, bound in self._tables.items() if bound)

    def table(self, name: str) -> Iterator[Binding]:
        return iter(self._tables.get(name, {}).values())

    def binds_keys(self, name: str) -> bool:
        """Whether table `name` binds any key of the keyboard (not only the mouse's):
        typing in the root table goes straight to the pane while it binds none."""
        return any(not is_mouse_key(key) for key in self._tables.get(name, {}))

    def binding(self, table: str, key: str) -> Binding | None:
        """What `key` is bound to, by any of its names (`PageUp` finds `PPage`'s)."""
        bound = self._tables.get(table, {})
        return bound.get(key) or bound.get(key_name(key))

    def bind(self, table: str, key: str, command: str, note: str = "", *,
             repeat: bool = False) -> None:
        self._tables.setdefault(table, {})[key] = Binding(key, command, note, repeat,
                                                          reprinted=True)

    def annotate(self, table: str, key: str, note: str) -> None:
        """`bind-key KEY` with no command, as tmux's key_bindings_add given no commands:
        a bound key gets the note (none given clears it), an unbound key stays unbound."""
        binding = self._tables[table].get(key)
        if binding is not None:
            self._tables[table][key] = replace(binding, note=note)

    def mode_commands(self, mode_keys: str) -> dict[str, str]:
        """The copy-mode table of `mode_keys` (vi or emacs) as bind-key left it, as key ->
        copy-mode command for the keys bound to `send-keys -X COMMAND` alone (copy mode
        runs those itself; any other binding there runs as a command line)."""
        table = "copy-mode-vi" if mode_keys == "vi" else "copy-mode"
        found: dict[str, str] = {}
        for binding in self.table(table):
            name = mode_command(binding.command)
            if name is not None:
                found[binding.key] = name
        return found

    def unbind(self, table: str, key: str) -> None:
        self._tables.get(table, {}).pop(key, None)

    def clear(self, table: str) -> None:
        self._tables.get(table, {}).clear()

    def list_notes(self, table: str | None = None, *, prefix: str = PREFIX_KEY,
                   start: str | None = None, key: str | None = None, every: bool = False,
                   first: bool = False) -> list[str]:
        """As tmux 3.3a's list-keys -N prints notes: the root table's keys, then the
        prefix table's after `prefix` (the option, "None" for none), or `table`'s; a key
        and its note a line, keys padded to the widest key with a note. `start` is -P,
        written before each key in place of the prefix; `every` (-a) the bindings with no
        note too, their command in its place; `first` (-1) one line of each table; `key`
        that key's bindings alone. Mouse keys are left out."""
        def listed(name: str) -> list[Binding]:
            return [binding for binding in self.table(name)
                    if key in (None, binding.key) and not is_mouse_key(binding.key)]

        def width(name: str) -> int:
            return max((len(binding.key) for binding in listed(name) if binding.note),
                       default=0)

        if table is not None:
            tables, keywidth = [(table, start or "")], width(table)
        else:  # the prefix table only when one of its keys has a note, as tmux's
            lead = start if start is not None else "" if prefix == "None" else f"{prefix} "
            keywidth = width("root")
            tables = [("root", " " * text_width(lead))]
            if prefix != "None" and width("prefix"):
                keywidth = max(keywidth, width("prefix"))
                tables.append(("prefix", lead))
        printed = []
        for name, lead in tables:
            lines = [f"{lead}{binding.key.ljust(keywidth + 1)}"
                     f"{binding.note or binding.shown}"
                     for binding in listed(name) if binding.note or every]
            printed += lines[:1] if first else lines
        return printed

    def list_keys(self, table: str | None = None, *, key: str | None = None) -> list[str]:
        """As tmux's list-keys prints tables (all when `table` is None), columns aligned,
        one `bind-key` command a line. Given a `key`, its bindings alone, unaligned, as
        tmux prints them."""
        names = sorted(self._tables) if table is None else [table]
        listed = [(name, binding) for name in names for binding in self.table(name)]
        if key is not None:
            return [f"bind-key {'-r ' if binding.repeat else ''}-T {name} "
                    f"{escaped(binding.key)} {binding.shown}"
                    for name, binding in listed if binding.key == key]
        width = max((len(escaped(binding.key)) for _, binding in listed), default=1)
        name_width = max((len(name) for name, _ in listed), default=1)
        any_repeat = any(binding.repeat for _, binding in listed)
        return [f"bind-key {('-r ' if binding.repeat else '   ') if any_repeat else ''}"
                f"-T {name.ljust(name_width)} {escaped(binding.key).ljust(width)} "
                f"{binding.shown}" for name, binding in listed]
