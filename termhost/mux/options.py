"""Server options (`set-option -g`, `show-options -g`): a typed table with tmux's defaults,
and a session's own values over them (`Scoped`: set-option without -g).

Every option tmux 3.3a has is accepted, checked by its type and shown (option_table.py),
so that a user's ~/.tmux.conf loads; HONOURED are the ones termhost applies, with its own
table entry (termhost's default where it chose another, such as escape-time). Any other
name is `invalid option: NAME`, as tmux says. An option applies to what is created after
it is set (a pane's history limit, its shell, TERM; a window's index). User options
(`@name`, which plugins and themes keep their settings in) take any value, kept as
given. Array options (terminal-overrides) hold numbered elements, as tmux's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from termhost.mux.option_table import TMUX_OPTIONS, TmuxOption
from termhost.terminal.keys import UnknownKey, parse_key
from termhost.themes import find_theme_file

__all__ = [
    "HONOURED", "OPTIONS", "Option", "OptionError", "Options", "Scoped", "UnknownOption",
    "is_user_option",
]


class OptionError(ValueError):
    """A bad option name or value; the message is tmux's."""


class UnknownOption(OptionError):
    """No such option (set-option -q and show-options -q say nothing of it)."""


@dataclass(frozen=True)
class Option:
    name: str
    default: str
    kind: str
    """"number" (with `low`..`high`), "choice" (one of `choices`), "key" (a tmux key
    name), "theme" (a theme's name, see `termhost themes`), "colour", "style" or
    "string"."""
    low: int = 0
    high: int = 2**31 - 1
    choices: tuple[str, ...] = ()
    window: bool = False
    """A window option: set without -g it applies to the target window only (its
    global value is every other window's), as tmux's window options."""
    scope: str = "session"
    """Where tmux keeps it, which decides the listing it is in: "server" (show -s),
    "session" (show -g), "window" or "pane" (show -gw)."""
    separator: str = ""
    """An array option's: the characters a value set whole is split on."""


_HONOURED = {
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
        # termhost's own: resurrection records (mux/resurrection.py).
        Option("resurrect", "on", "choice", choices=("off", "on"), scope="server"),
        Option("resurrect-max-age", "30", "number", 1, 36500, scope="server"),
        Option("resurrect-scrollback", "0", "number", 0, 2**31 - 1, scope="server"),
    )
}

_TMUX_KINDS = {"number": "number", "key": "key", "choice": "choice", "flag": "choice",
               "style": "style", "colour": "colour"}
"""option_table's kinds as this table checks them; a style that holds a format is
checked when drawn."""


def _from_tmux(option: TmuxOption) -> Option:
    kind = _TMUX_KINDS.get(option.kind, "string")
    return Option(option.name, option.default, kind, option.low, option.high,
                  ("off", "on") if option.kind == "flag" else option.choices,
                  scope=option.scope, separator=option.separator if option.array else "")


_TMUX = {option.name: option for option in TMUX_OPTIONS}
OPTIONS = {
    **{name: _from_tmux(option) for name, option in _TMUX.items()},
    **{name: replace(option, scope=_TMUX[name].scope) if name in _TMUX else option
       for name, option in _HONOURED.items()},
}
"""Every option by name: tmux's, with termhost's own entry for those it honours."""
HONOURED = frozenset(_HONOURED)
"""The options termhost applies; the others are kept and shown, and change nothing."""

_FLAG_WORDS = {"yes": "on", "1": "on", "no": "off", "0": "off"}
"""What tmux also takes for on and off."""


def array_reference(word: str) -> tuple[str, int | None]:
    """`name` and None, or an array's element `name[N]` as the name and N."""
    name, bracket, rest = word.partition("[")
    if bracket and rest.endswith("]") and rest[:-1].isdigit():
        return name, int(rest[:-1])
    return word, None


def is_user_option(name: str) -> bool:
    """`@name`: a user option, which any value may be given."""
    return name.startswith("@") and len(name) > 1


class Options:
    """The global options of one server, and its global user options."""

    def __init__(self) -> None:
        self._values = {name: option.default for name, option in OPTIONS.items()
                        if not option.separator}
        self._arrays = {name: dict(enumerate(_elements(option.default, option.separator)))
                        for name, option in OPTIONS.items() if option.separator}
        """Array options: their elements by index (tmux's arrays may have gaps)."""
        self._user: dict[str, str] = {}

    def _option(self, name: str) -> Option:
        option = OPTIONS.get(name)
        if option is None:
            raise UnknownOption(f"invalid option: {name}")
        return option

    @staticmethod
    def resolve(name: str) -> str:
        """An option's full name from what was typed, as tmux's options_match: the name
        itself, else the one option it begins (`mode-k`); several are ambiguous."""
        if is_user_option(name) or name in OPTIONS:
            return name
        found = [option for option in OPTIONS if option.startswith(name)]
        if len(found) == 1:
            return found[0]
        if found:
            raise OptionError(f"ambiguous option: {name}")
        raise UnknownOption(f"invalid option: {name}")

    def check(self, name: str, value: str) -> str:
        """`value` as stored for option `name` (on/off words made on/off), or the
        OptionError tmux would give."""
        if is_user_option(name):
            return value
        option = self._option(name)
        if option.kind == "number":
            _check_number(value, option)
        if option.kind == "key":
            try:
                parse_key(value)
            except UnknownKey:
                raise OptionError(f"bad key: {value}") from None
        if option.kind == "theme" and value != "default" and find_theme_file(value) is None:
            raise OptionError(f"unknown theme: {value} (termhost themes lists them)")
        if option.kind == "style" and "#{" not in value:  # a format is checked when drawn
            from termhost.mux.style import StyleError, parse_style
            try:
                parse_style(value)
            except StyleError as error:
                raise OptionError(str(error)) from None
        if option.kind == "colour":
            from termhost.mux.style import colour_string

            colour = colour_string(value)
            if colour is None:
                raise OptionError(f"bad colour: {value}")
            value = colour
        if option.kind == "choice":
            value = _FLAG_WORDS.get(value, value) if "on" in option.choices else value
            if value not in option.choices:
                word = "bad" if self.is_flag(name) else "unknown"
                raise OptionError(f"{word} value: {value}")
        return value

    def is_choice(self, name: str) -> bool:
        """A flag or a choice: set-option with no value toggles it (`toggled`)."""
        return not is_user_option(name) and self._option(name).kind == "choice"

    def toggled(self, name: str, current: str) -> str:
        """What set-option with no value makes a flag or choice that is `current`, as
        tmux's: the first of its values and the second swap, any later one stays."""
        choices = self._option(name).choices
        position = choices.index(current)
        return choices[1 - position] if position < 2 else current

    def is_flag(self, name: str) -> bool:
        """An on/off option (tmux's flag type): a bad value is `bad value`, not
        `unknown value`."""
        return not is_user_option(name) and self._option(name).choices == ("off", "on")

    def set(self, name: str, value: str, *, index: int | None = None,
            append: bool = False) -> None:
        """Set `name` to `value`; an array's element `index`, or, given the whole array,
        its elements split from `value`, after the ones it has with `append`."""
        if name in self._arrays:
            elements = self._arrays[name]
            if index is not None:
                elements[index] = value
                return
            if not append:
                elements.clear()
            start = max(elements, default=-1) + 1
            for offset, element in enumerate(_elements(value, OPTIONS[name].separator)):
                elements[start + offset] = element
            return
        if index is not None:
            raise OptionError(f"not an array: {name}[{index}]")
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
        return is_user_option(name) or self._option(name).kind in ("string", "style", "theme")

    def appended(self, name: str, value: str) -> str:
        """`value` added to what `name` holds (set -a): a style after a comma."""
        current = self.get(name) if self.is_set(name) else ""
        style = not is_user_option(name) and self._option(name).kind == "style"
        return f"{current},{value}" if style and current else current + value

    def is_array(self, name: str) -> bool:
        return name in self._arrays

    def scope(self, name: str) -> str:
        """Where tmux keeps option `name`: server, session, window or pane."""
        return self._option(name).scope

    def is_window_option(self, name: str) -> bool:
        """A window or pane option (tmux's scopes): set without -g, it is the target
        window's own, whether or not termhost applies it per window yet."""
        return not is_user_option(name) and self._option(name).scope in ("window", "pane")

    def reset(self, name: str, index: int | None = None) -> None:
        """set-option -u: back to the default (a user option, an array's element go)."""
        option = None if is_user_option(name) else self._option(name)
        if option is None:
            self._user.pop(name, None)
        elif option.separator and index is not None:
            self._arrays[name].pop(index, None)
        elif option.separator:
            self._arrays[name] = dict(enumerate(_elements(option.default, option.separator)))
        else:
            self._values[name] = option.default

    def get(self, name: str) -> str:
        """The value; an array's elements joined by its separator."""
        if is_user_option(name):
            if name not in self._user:
                raise UnknownOption(f"invalid option: {name}")
            return self._user[name]
        option = self._option(name)
        if option.separator:
            return option.separator[0].join(self._arrays[name][i] for i in sorted(
                self._arrays[name]))
        return self._values[name]

    def shown(self, name: str, index: int | None = None) -> list[tuple[str, str | None]]:
        """What show-options lists for `name`: the name and value, an array's elements
        as `name[i]` (the bare name, with no value, when it has none)."""
        if is_user_option(name) or not self._option(name).separator:
            if index is not None:
                raise OptionError(f"not an array: {name}")
            return [(name, self.get(name))]
        elements = self._arrays[name]
        if index is not None:
            return [(f"{name}[{index}]", elements[index])] if index in elements else []
        if not elements:
            return [(name, None)]
        return [(f"{name}[{i}]", elements[i]) for i in sorted(elements)]

    def number(self, name: str) -> int:
        return int(self.get(name))

    def items(self, scopes: tuple[str, ...] | None = None) -> list[tuple[str, str | None]]:
        """The options of `scopes` (every one when None) by name, as show-options lists
        them (see `shown`); the user options with the session ones, before them, as `@`
        sorts first."""
        listed: list[tuple[str, str | None]] = []
        for name in sorted(OPTIONS):
            if scopes is None or OPTIONS[name].scope in scopes:
                listed += self.shown(name)
        if scopes is None or "session" in scopes:
            listed = [*sorted(self._user.items()), *listed]
        return listed


class Scoped:
    """A session's own options over the server's global ones, as tmux's options have a
    parent: `own` holds what was set on the session alone (set-option without -g), an
    array's elements as `name[N]`; anything it does not set, it inherits."""

    def __init__(self, options: Options, own: dict[str, str]) -> None:
        self.options, self.own = options, own

    def _elements(self, name: str) -> dict[int, str]:
        found: dict[int, str] = {}
        for key, value in self.own.items():
            base, index = array_reference(key)
            if base == name and index is not None:
                found[index] = value
        return found

    def is_set(self, name: str) -> bool:
        """Whether `name` has a value of its own here (set -o refuses to set it again)."""
        return name in self.own or bool(self._elements(name))

    def get(self, name: str) -> str:
        """The value here: its own, else the global one; an array's elements joined."""
        if name in self.own:
            return self.own[name]
        elements = self._elements(name)
        if not elements:
            return self.options.get(name)
        return OPTIONS[name].separator[0].join(elements[i] for i in sorted(elements))

    def number(self, name: str) -> int:
        return int(self.get(name))

    def appended(self, name: str, value: str) -> str:
        """`value` added to the value of its own (set -a: not to the one inherited)."""
        current = self.own.get(name, "")
        style = not is_user_option(name) and OPTIONS[name].kind == "style"
        return f"{current},{value}" if style and current else current + value

    def set(self, name: str, value: str, *, index: int | None = None,
            append: bool = False) -> None:
        """As Options.set, on the values of its own."""
        if not self.options.is_array(name):
            if index is not None:
                raise OptionError(f"not an array: {name}[{index}]")
            self.own[name] = self.options.check(name, value)
            return
        if index is not None:
            self.own[f"{name}[{index}]"] = value
            return
        elements = self._elements(name)
        if not append:
            self.reset(name)
            elements = {}
        start = max(elements, default=-1) + 1
        for offset, element in enumerate(_elements(value, OPTIONS[name].separator)):
            self.own[f"{name}[{start + offset}]"] = element

    def reset(self, name: str, index: int | None = None) -> None:
        """set-option -u: its own value (an array's element) goes; the global one shows."""
        if index is not None:
            self.own.pop(f"{name}[{index}]", None)
            return
        self.own.pop(name, None)
        for element in self._elements(name):
            self.own.pop(f"{name}[{element}]", None)

    def shown(self, name: str, index: int | None = None) -> list[tuple[str, str | None]]:
        """What show-options lists for `name` here: its own value, nothing without one."""
        if not self.options.is_array(name):
            if index is not None:
                raise OptionError(f"not an array: {name}")
            return [(name, self.own[name])] if name in self.own else []
        elements = self._elements(name)
        if index is not None:
            return [(f"{name}[{index}]", elements[index])] if index in elements else []
        return [(f"{name}[{i}]", elements[i]) for i in sorted(elements)]

    def inherited(self, name: str, index: int | None = None) -> list[tuple[str, str | None]]:
        """`shown`, or what it inherits when it has no value of its own."""
        return (self.shown(name, index) if self.is_set(name)
                else self.options.shown(name, index))

    def items(self, scopes: tuple[str, ...]) -> list[tuple[str, str | None]]:
        """Its own options of `scopes` and its user options, as show-options lists them
        (by name, so the user options first)."""
        names = sorted({array_reference(key)[0] for key in self.own})
        return [item for name in names
                if is_user_option(name) or self.options.scope(name) in scopes
                for item in self.shown(name)]


def _check_number(value: str, option: Option) -> None:
    """tmux's errors for a number option's value: not a number, or out of its range."""
    try:
        number = int(value, 10) if value.strip() == value and value else None
    except ValueError:
        number = None
    if number is None:
        raise OptionError(f"value is invalid: {value}")
    if number < option.low:
        raise OptionError(f"value is too small: {value}")
    if number > option.high:
        raise OptionError(f"value is too large: {value}")


def _elements(value: str, separators: str) -> list[str]:
    """An array's elements from a value set whole: split on any of `separators`,
    empties dropped; or on newlines where it has some (how option_table joins elements
    that hold the separators themselves, status-format's)."""
    if "\n" in value:
        return [part for part in value.split("\n") if part]
    for separator in separators[1:]:
        value = value.replace(separator, separators[0])
    return [part for part in value.split(separators[0]) if part]
