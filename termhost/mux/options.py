"""Server options (`set-option -g`, `show-options -g`): a typed table with tmux's defaults.

Only options that termhost applies are in the table; anything else is `invalid option:
NAME`, as tmux says, rather than a setting that silently does nothing. An option applies
to what is created after it is set (a pane's history limit, its shell, TERM; a window's
index). User options (`@name`, which plugins and themes keep their settings in) take any
value and are kept as given.
"""

from __future__ import annotations

from dataclasses import dataclass

from termhost.terminal.keys import UnknownKey, parse_key
from termhost.themes import find_theme_file

__all__ = ["OPTIONS", "Option", "OptionError", "Options", "is_user_option"]


class OptionError(ValueError):
    """A bad option name or value; the message is tmux's."""


@dataclass(frozen=True)
class Option:
    name: str
    default: str
    kind: str
    """"number" (with `low`..`high`), "choice" (one of `choices`), "key" (a tmux key
    name), "theme" (a theme's name, see `termhost themes`) or "string"."""
    low: int = 0
    high: int = 2**31 - 1
    choices: tuple[str, ...] = ()
    window: bool = False
    """A window option: set without -g it applies to the target window only (its
    global value is every other window's), as tmux's window options."""
    scope: str = "session"
    """Where tmux keeps it, which decides the listing it is in: "server" (show -s),
    "session" (show -g), "window" or "pane" (show -gw)."""


OPTIONS = {
    option.name: option
    for option in (
        Option("history-limit", "2000", "number", 0, 2**31 - 1),
        Option("base-index", "0", "number", 0, 2**31 - 1),
        Option("default-shell", "", "string"),
        Option("default-terminal", "tmux-256color", "string"),
        Option("remain-on-exit", "off", "choice", choices=("off", "on", "failed"),
               scope="pane"),
        Option("window-size", "latest", "choice",
               choices=("largest", "smallest", "manual", "latest"), scope="window"),
        Option("synchronize-panes", "off", "choice", choices=("off", "on"), window=True,
               scope="pane"),
        Option("automatic-rename", "on", "choice", choices=("off", "on"), window=True,
               scope="window"),
        Option("mode-keys", "emacs", "choice", choices=("emacs", "vi"), scope="window"),
        Option("prefix", "C-b", "key"),
        Option("mouse", "off", "choice", choices=("off", "on")),
        Option("escape-time", "10", "number", 0, 2**31 - 1, scope="server"),
        Option("status", "on", "choice", choices=("off", "on")),
        Option("status-left", "[#{session_name}] ", "string"),
        Option("status-right", '"#{=21:pane_title}" %H:%M %d-%b-%y', "string"),
        Option("status-interval", "15", "number", 0, 2**31 - 1),
        Option("display-time", "750", "number", 0, 2**31 - 1),
        Option("set-clipboard", "external", "choice", choices=("off", "external", "on"),
               scope="server"),
        Option("set-titles", "off", "choice", choices=("off", "on")),
        Option("set-titles-string", '#S:#I:#W - "#T"', "string"),
        Option("monitor-activity", "off", "choice", choices=("off", "on"), window=True,
               scope="window"),
        Option("monitor-bell", "on", "choice", choices=("off", "on"), window=True,
               scope="window"),
        Option("pane-border-status", "off", "choice", choices=("off", "top", "bottom"),
               window=True, scope="window"),
        Option("pane-border-format", "#{pane_index} #{pane_title}", "string", window=True,
               scope="window"),
        # termhost's own: for the whole server.
        Option("theme", "default", "theme", scope="server"),
        Option("focus-events", "off", "choice", choices=("off", "on"), scope="server"),
        Option("snapshots", "on", "choice", choices=("off", "on"), scope="server"),
        Option("snapshot-timeout", "10", "number", 1, 3600, scope="server"),
    )
}


_FLAG_WORDS = {"yes": "on", "1": "on", "no": "off", "0": "off"}
"""What tmux also takes for on and off."""


def is_user_option(name: str) -> bool:
    """`@name`: a user option, which any value may be given."""
    return name.startswith("@") and len(name) > 1


class Options:
    """The global options of one server, and its global user options."""

    def __init__(self) -> None:
        self._values = {name: option.default for name, option in OPTIONS.items()}
        self._user: dict[str, str] = {}

    def _option(self, name: str) -> Option:
        option = OPTIONS.get(name)
        if option is None:
            raise OptionError(f"invalid option: {name}")
        return option

    def check(self, name: str, value: str) -> str:
        """`value` as stored for option `name` (on/off words made on/off), or the
        OptionError tmux would give."""
        if is_user_option(name):
            return value
        option = self._option(name)
        in_range = value.isdigit() and option.low <= int(value) <= option.high
        if option.kind == "number" and not in_range:
            raise OptionError(f"value is invalid: {value}")
        if option.kind == "key":
            try:
                parse_key(value)
            except UnknownKey:
                raise OptionError(f"bad key: {value}") from None
        if option.kind == "theme" and value != "default" and find_theme_file(value) is None:
            raise OptionError(f"unknown theme: {value} (termhost themes lists them)")
        if option.kind == "choice":
            value = _FLAG_WORDS.get(value, value) if "on" in option.choices else value
            if value not in option.choices:
                word = "bad" if self.is_flag(name) else "unknown"
                raise OptionError(f"{word} value: {value}")
        return value

    def is_flag(self, name: str) -> bool:
        """An on/off option (tmux's flag type): set-option with no value toggles it."""
        return not is_user_option(name) and self._option(name).choices == ("off", "on")

    def set(self, name: str, value: str) -> None:
        checked = self.check(name, value)
        if is_user_option(name):
            self._user[name] = checked
        else:
            self._values[name] = checked

    def is_set(self, name: str) -> bool:
        """Whether `name` has a global value (set -o refuses to set it again): a table
        option always has one, its default at least."""
        return name in self._user if is_user_option(name) else name in OPTIONS

    def is_string(self, name: str) -> bool:
        """A value that `set -a` appends to and show-options quotes."""
        return is_user_option(name) or self._option(name).kind in ("string", "theme")

    def is_window_option(self, name: str) -> bool:
        return not is_user_option(name) and self._option(name).window

    def reset(self, name: str) -> None:
        """set-option -u: back to the default (a user option goes)."""
        if is_user_option(name):
            self._user.pop(name, None)
        else:
            self._values[name] = self._option(name).default

    def get(self, name: str) -> str:
        if is_user_option(name):
            if name not in self._user:
                raise OptionError(f"invalid option: {name}")
            return self._user[name]
        if name not in OPTIONS:
            raise OptionError(f"invalid option: {name}")
        return self._values[name]

    def number(self, name: str) -> int:
        return int(self.get(name))

    def items(self, scopes: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
        """The options of `scopes` (every one when None) by name, as show-options lists
        them; the user options with the session ones, before them, as `@` sorts first."""
        listed = sorted((name, value) for name, value in self._values.items()
                        if scopes is None or OPTIONS[name].scope in scopes)
        if scopes is None or "session" in scopes:
            listed = sorted(self._user.items()) + listed
        return listed
