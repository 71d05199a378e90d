"""Server options (`set-option -g`, `show-options -g`): a typed table with tmux's defaults.

Only options that termhost applies are accepted; anything else is `invalid option: NAME`,
as tmux says, rather than a setting that silently does nothing. An option applies to what
is created after it is set (a pane's history limit, its shell, TERM; a window's index).
"""

from __future__ import annotations

from dataclasses import dataclass

from termhost.terminal.keys import UnknownKey, parse_key
from termhost.themes import find_theme_file

__all__ = ["OPTIONS", "Option", "OptionError", "Options"]


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


OPTIONS = {
    option.name: option
    for option in (
        Option("history-limit", "2000", "number", 0, 2**31 - 1),
        Option("base-index", "0", "number", 0, 2**31 - 1),
        Option("default-shell", "", "string"),
        Option("default-terminal", "tmux-256color", "string"),
        Option("remain-on-exit", "off", "choice", choices=("off", "on", "failed")),
        Option("window-size", "latest", "choice",
               choices=("largest", "smallest", "manual", "latest")),
        Option("synchronize-panes", "off", "choice", choices=("off", "on"), window=True),
        Option("automatic-rename", "on", "choice", choices=("off", "on"), window=True),
        Option("mode-keys", "emacs", "choice", choices=("emacs", "vi")),
        Option("prefix", "C-b", "key"),
        Option("mouse", "off", "choice", choices=("off", "on")),
        Option("escape-time", "10", "number", 0, 2**31 - 1),
        Option("status", "on", "choice", choices=("off", "on")),
        Option("status-left", "[#{session_name}] ", "string"),
        Option("status-right", '"#{=21:pane_title}" %H:%M %d-%b-%y', "string"),
        Option("status-interval", "15", "number", 0, 2**31 - 1),
        Option("display-time", "750", "number", 0, 2**31 - 1),
        Option("set-clipboard", "external", "choice", choices=("off", "external", "on")),
        Option("set-titles", "off", "choice", choices=("off", "on")),
        Option("set-titles-string", '#S:#I:#W - "#T"', "string"),
        Option("monitor-activity", "off", "choice", choices=("off", "on"), window=True),
        Option("monitor-bell", "on", "choice", choices=("off", "on"), window=True),
        Option("pane-border-status", "off", "choice", choices=("off", "top", "bottom"),
               window=True),
        Option("pane-border-format", "#{pane_index} #{pane_title}", "string", window=True),
        Option("theme", "default", "theme"),
        Option("focus-events", "off", "choice", choices=("off", "on")),
        Option("snapshots", "on", "choice", choices=("off", "on")),
        Option("snapshot-timeout", "10", "number", 1, 3600),
    )
}


_FLAG_WORDS = {"yes": "on", "1": "on", "no": "off", "0": "off"}
"""What tmux also takes for on and off."""


class Options:
    """The global options of one server."""

    def __init__(self) -> None:
        self._values = {name: option.default for name, option in OPTIONS.items()}

    def _option(self, name: str) -> Option:
        option = OPTIONS.get(name)
        if option is None:
            raise OptionError(f"invalid option: {name}")
        return option

    def check(self, name: str, value: str) -> str:
        """`value` as stored for option `name` (on/off words made on/off), or the
        OptionError tmux would give."""
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
                raise OptionError(f"unknown value: {value}")
        return value

    def set(self, name: str, value: str) -> None:
        self._values[name] = self.check(name, value)

    def is_window_option(self, name: str) -> bool:
        return self._option(name).window

    def reset(self, name: str) -> None:
        """set-option -u: back to the default."""
        self._values[name] = self._option(name).default

    def get(self, name: str) -> str:
        if name not in OPTIONS:
            raise OptionError(f"invalid option: {name}")
        return self._values[name]

    def number(self, name: str) -> int:
        return int(self.get(name))

    def items(self) -> list[tuple[str, str]]:
        return sorted(self._values.items())
