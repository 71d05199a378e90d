"""customize-mode on a client: the server's options (server, session, window and pane)
and key bindings (a branch per key table) as a ChooseTree, with tmux's keys to change
them (window-customize.c): Enter or s sets, S and W set the global value, u unsets or
unbinds, d puts back the default, v shows or hides the preview, H hides the global
options.

Every change is the command a user would type (set-option, set-option -u, bind-key,
unbind-key), run through the client's command queue against the mode's pane, so the
mode never writes an option or a binding itself; the tree is built anew from the
server after each one, as tmux's mode_tree_build.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import StyleAndTextTuples

from termhost.mux.bindings import Binding, KeyTables
from termhost.mux.commands.modes import ChooseRequest
from termhost.mux.format_scope import ServerScope, format_target
from termhost.mux.formats import expand, format_true
from termhost.mux.model import Session, Window
from termhost.mux.option_table import TMUX_OPTIONS
from termhost.mux.options import (
    OPTIONS,
    OptionError,
    Scoped,
    array_reference,
    is_user_option,
)
from termhost.mux.pane import Pane
from termhost.mux.printing import command_line
from termhost.ui.choose_tree import ChooseTree, TreeNode
from termhost.ui.tree_view import find_pane, frame

if TYPE_CHECKING:
    from termhost.ui.app import AttachedClient

__all__ = ["CustomizeMode"]

DEFAULT_FORMAT = (
    "#{?is_option,#{?option_is_global,,#[reverse](#{option_scope})#[default] }"
    "#[ignore]#{option_value}#{?option_unit, #{option_unit},},#{key}}")
"""tmux 3.3a's WINDOW_CUSTOMIZE_DEFAULT_FORMAT: an option's row is its scope (when not
global) and value, a key's its name."""

_STYLE = re.compile(r"#\[[^\]]*\]")
"""A style directive: the rows are drawn as plain text, the selection alone styled."""

_GLOBAL = {"server": "server", "session": "global-session", "global-session": "global-session",
           "window": "global-window", "global-window": "global-window"}
_LOCAL = {"server": "server", "session": "session", "global-session": "session",
          "window": "window", "global-window": "window"}
"""The scope a value is set in from an item's scope: S and W set the global one, Enter
and s the one of the mode's session or window (window_customize_set_option)."""

_KINDS = {"server": "server", "session": "session", "window": "window",
          "pane": "window and pane"}

_UNITS = {option.name: option.unit for option in TMUX_OPTIONS if option.unit}


@dataclass(frozen=True)
class _Item:
    """What a row is: an option's value in `scope` ("server", "global-session",
    "session", "global-window", "window"), an element of one (`index`), or a key
    binding of `table` (`field` its Command, Note or Repeat row)."""

    scope: str = ""
    name: str = ""
    index: int | None = None
    array: bool = False
    table: str = ""
    key: str = ""
    field: str = ""


class CustomizeMode:
    """customize-mode's tree, what each row is, and its keys; the Chooser the client
    shows in place of the window."""

    def __init__(self, client: AttachedClient, request: ChooseRequest) -> None:
        self.client, self.request = client, request
        self._hide_global = False
        self._filter = request.filter
        self._items: dict[str, _Item] = {}
        self.tree = ChooseTree.of_nodes(self._nodes(), preview=request.preview)
        self.tree.preview_rows = 12

    def _place(self) -> tuple[Session, Window, Pane]:
        """The session, window and pane the values shown are those of: the mode's pane,
        else the client's own."""
        found = find_pane(self.client.server, self.request.target)
        session, pane = found if found is not None else (
            self.client.session, self.client.session.active_window.active)
        window = next(w for w in session.windows if pane in w.panes)
        return session, window, pane

    # The tree

    def _nodes(self) -> list[TreeNode]:
        """The tree from the server as it is now, -f's filter applied (ignored when it
        would leave nothing, as tmux's)."""
        self._items = {}
        nodes = self._grown(self._filter)
        if self._filter is not None and not any(node.children for node in nodes):
            self._items = {}
            nodes = self._grown(None)
        return nodes

    def _grown(self, keep: str | None) -> list[TreeNode]:
        server = self.client.server
        session, window, pane = self._place()
        # One set of variables for every row, each row's own set over them in turn:
        # the pane's are made once, when a format first asks for them.
        variables, scope = format_target(server, session, window, pane)
        own = Scoped(server.options, session.options)

        def option(section: str, name: str, where: str, value: str) -> Iterator[TreeNode]:
            is_global = where in ("server", "global-session", "global-window")
            if self._hide_global and is_global:
                return
            array = not is_user_option(name) and server.options.is_array(name)
            variables.update({
                "is_option": "1", "is_key": "0", "option_name": name,
                "option_value": "" if array else value,
                "option_is_global": "1" if is_global else "0",
                "option_is_array": "1" if array else "0",
                "option_scope": self._scope_text(where), "option_unit": _UNITS.get(name, "")})
            if keep is not None and not format_true(expand(keep, variables, scope=scope)):
                return
            target = f"{section}:{name}"
            self._items[target] = _Item(where, name, array=array)
            children = []
            if array:
                for shown, element in self._elements(where, name):
                    _, index = array_reference(shown)
                    child = f"{target}[{index}]"
                    self._items[child] = _Item(where, name, index, array=True)
                    variables.update({"option_name": shown, "option_value": element})
                    children.append(TreeNode(child, shown, self._row(variables, scope)))
            yield TreeNode(target, name, None if array else self._row(variables, scope),
                           children)

        server_rows = [row for name in _names("server")
                       for row in option("server", name, "server", server.options.get(name))]
        user = sorted({name for name, _ in server.options.items(("session",))
                       if is_user_option(name)} | {name for name in session.options
                                                   if is_user_option(name)})
        session_rows = [row for name in user + _names("session")
                        for row in option("session", name,
                                          "session" if own.is_set(name) else "global-session",
                                          own.get(name))]
        window_user = sorted(name for name in window.options if is_user_option(name))
        window_rows = [
            row for name in window_user + _names("window", "pane")
            for row in option("window", name,
                              "window" if name in window.options else "global-window",
                              window.options[name] if name in window.options
                              else server.options.get(name))]
        nodes = [TreeNode("server", "Server Options", None, server_rows),
                 TreeNode("session", "Session Options", None, session_rows),
                 TreeNode("window", "Window & Pane Options", None, window_rows)]
        tables = server.key_tables
        for table in tables.names():
            keys = []
            for binding in tables.table(table):
                variables.update({"is_option": "0", "is_key": "1", "key": binding.key,
                                  "key_note": binding.note})
                if keep is not None and not format_true(expand(keep, variables, scope=scope)):
                    continue
                target = f"key:{table}:{binding.key}"
                self._items[target] = _Item(table=table, key=binding.key)
                fields = [("Command", binding.shown),
                          ("Note", binding.note), ("Repeat", "on" if binding.repeat else "off")]
                for field, _ in fields:
                    self._items[f"{target}:{field}"] = _Item(table=table, key=binding.key,
                                                             field=field)
                keys.append(TreeNode(target, self._row(variables, scope), None, [
                    TreeNode(f"{target}:{field}", field, text) for field, text in fields]))
            nodes.append(TreeNode(f"table:{table}", f"Key Table - {table}", None, keys))
        return nodes

    def _row(self, variables: Mapping[str, str], scope: ServerScope) -> str:
        """A row's text: -F's format, else tmux's, expanded for the item, its styles
        left out."""
        return _STYLE.sub("", expand(self.request.format or DEFAULT_FORMAT, variables,
                                     scope=scope))

    def _elements(self, where: str, name: str) -> list[tuple[str, str]]:
        """An array option's elements in `where`, as show-options lists them."""
        server = self.client.server
        session, _, _ = self._place()
        shown = (Scoped(server.options, session.options).inherited(name)
                 if where == "session" else server.options.shown(name))
        return [(each, value) for each, value in shown if value is not None]

    def _scope_text(self, where: str) -> str:
        """#{option_scope}: whose value it is, empty for a global one."""
        session, window, _ = self._place()
        if where == "session":
            return f"session {session.name}"
        if where == "window":
            return f"window {session.index_of(window)}"
        return ""

    def rebuild(self) -> None:
        self.tree.graft(self._nodes())
        self.client.app.invalidate()

    # The preview

    def draw(self, width: int, height: int) -> StyleAndTextTuples:
        return frame(self.tree, width, height, lambda: (self._about(width - 4), 0))

    def _about(self, width: int) -> list[str]:
        """What the preview box says of the selected item, as tmux's
        window_customize_draw_option and _draw_key, wrapped to the box."""
        item = self._items.get(self.tree.preview_target())
        if item is None:
            return []
        lines = self._about_key(item) if item.table else self._about_option(item)
        return [wrapped for line in lines
                for wrapped in (textwrap.wrap(line, max(1, width)) or [""])]

    def _about_key(self, item: _Item) -> list[str]:
        binding = self.client.server.key_tables.binding(item.table, item.key)
        if binding is None:
            return []
        note = binding.note or "There is no note for this key."
        lines = [note if note.endswith(".") else note + ".", "",
                 f"This key is in the {item.table} table.",
                 f"This key {'does' if binding.repeat else 'does not'} repeat.", "",
                 f"Command: {_command(binding)}"]
        default = KeyTables().binding(item.table, item.key)
        if default is not None and _command(default) != _command(binding):
            lines.append(f"The default is: {_command(default)}")
        return lines

    def _about_option(self, item: _Item) -> list[str]:
        name = item.name
        if is_user_option(name):
            return ["This is a user option.", "", f"Option value: {self._value(item)}"]
        option = OPTIONS[name]
        lines = [f"This is a {_KINDS[option.scope]} option."]
        if option.separator:
            lines.append("This is an array option" + (
                "." if item.index is None else f", index {item.index}."))
            if item.index is None:
                return lines
        value = self._value(item)
        unit = f" {_UNITS[name]}" if name in _UNITS else ""
        lines += ["", f"Option value: {value}{unit}"]
        if option.kind == "choice" and option.choices:
            lines.append(f"Available values are: {', '.join(option.choices)}")
        if item.index is None and option.default != value:
            lines.append(f"The default is: {option.default}{unit}")
        if item.scope in ("session", "window"):
            lines += ["", f"Global value: {self.client.server.options.get(name)}{unit}"]
        return lines

    def _value(self, item: _Item) -> str:
        """The item's value in its scope ("" for a user option it has none in)."""
        try:
            return self._value_in(item)
        except OptionError:
            return ""

    def _value_in(self, item: _Item) -> str:
        server = self.client.server
        session, window, _ = self._place()
        if item.index is not None:
            return dict(self._elements(item.scope, item.name)).get(
                f"{item.name}[{item.index}]", "")
        if item.scope == "window" and item.name in window.options:
            return window.options[item.name]
        if item.scope == "session":
            return Scoped(server.options, session.options).get(item.name)
        return server.options.get(item.name)

    # The keys

    def press(self, name: str) -> bool:
        choice = self.tree.press(name)
        if choice is not None:
            if choice.kind == "cancel":
                return True
            name = "Enter"
        item = self._items.get(self.tree.preview_target())
        if name == "v":
            self.tree.previewing = not self.tree.previewing
        elif name == "H":
            self._hide_global = not self._hide_global
            self.rebuild()
        elif name == "f":
            self.client.spawn(self._ask_filter())
        elif item is None:
            return False
        elif item.table:
            if name in ("Enter", "s"):
                self._edit_key(item)
            elif name in ("u", "d"):
                (self._unset if name == "u" else self._reset)(item)
        elif name in ("Enter", "s", "w", "S", "W"):
            self._set(item, _GLOBAL if name in ("S", "W") else _LOCAL)
        elif name == "u":
            self._unset(item)
        elif name == "d":
            self._reset(item)
        return False

    async def _ask_filter(self) -> None:
        """f: a new filter (empty: none), as mode-tree's filter prompt."""
        answer = await self.client.ask("(filter) ", self._filter or "")
        if answer is not None:
            self._filter = answer or None
            self.rebuild()

    def _run(self, line: str) -> None:
        """`line` through the client's command queue against the mode's pane, then
        the tree anew."""
        async def run() -> None:
            await self.client.run_line(line, pane=self._place()[2])
            self.rebuild()

        self.client.spawn(run())

    def _scope_flags(self, where: str) -> list[str]:
        """set-option's flags for a value in `where`."""
        session, window, _ = self._place()
        return {"server": ["-s"], "global-session": ["-g"],
                "session": ["-t", f"${session.id}"], "global-window": ["-g", "-w"],
                "window": ["-w", "-t", f"@{window.id}"]}[where]

    def _set(self, item: _Item, scopes: dict[str, str]) -> None:
        """Enter (S, W): a flag toggled, a choice stepped, anything else asked for,
        in the scope `scopes` maps the item's to (an array's element, in its own)."""
        where = item.scope if item.array else scopes[item.scope]
        flags = ["set-option", *self._scope_flags(where)]
        option = None if is_user_option(item.name) else OPTIONS[item.name]
        current = self._value(_Item(where, item.name, item.index))
        if item.index is None and not item.array and option is not None \
                and option.kind == "choice" and option.choices:
            step = option.choices.index(current) + 1 if current in option.choices else 0
            self._run(command_line([*flags, item.name,
                                    option.choices[step % len(option.choices)]]))
            return
        name = item.name
        if item.array:
            indexes = [array_reference(shown)[1] or 0
                       for shown, _ in self._elements(where, item.name)]
            index = item.index if item.index is not None else max(indexes, default=-1) + 1
            name = f"{item.name}[{index}]"
            shown_index = "+" if item.index is None else str(item.index)
            label = f"({item.name}[{shown_index}]"
        else:
            label = f"({item.name}"
        text = self._scope_text(where)
        label += f", for {text}) " if text else ") " if where == "server" else ", global) "

        async def ask() -> None:
            answer = await self.client.ask(label, current if item.index is not None
                                           or not item.array else "")
            if answer:
                self._run(command_line([*flags, name, answer]))

        self.client.spawn(ask())

    def _confirmed(self, label: str, line: str) -> None:
        """`line` run once a `y` answers `label`, as tmux asks before u and d."""
        async def confirm() -> None:
            if await self.client.ask(label, confirming=True) is not None:
                self._run(line)

        self.client.spawn(confirm())

    def _unset_line(self, item: _Item) -> str:
        """set-option -u of the item in its scope: a global value back to its default,
        any other gone (the global one shows)."""
        name = item.name if item.index is None else f"{item.name}[{item.index}]"
        return command_line(["set-option", "-u", *self._scope_flags(item.scope), name])

    def _unset(self, item: _Item) -> None:
        """u: an option unset or a key unbound, once confirmed."""
        if item.table:
            self._confirmed(f"Unset {item.key}? ",
                            command_line(["unbind-key", "-T", item.table, item.key]))
        else:
            name = item.name if item.index is None else f"{item.name}[{item.index}]"
            self._confirmed(f"Unset {name}? ", self._unset_line(item))

    def _reset(self, item: _Item) -> None:
        """d: once confirmed, an option set to its default in its scope, a key bound to
        its default command (unbound when it has none)."""
        if item.table:
            default = KeyTables().binding(item.table, item.key)
            self._confirmed(f"Reset {item.key} to default? ", command_line(
                ["unbind-key", "-T", item.table, item.key]) if default is None
                else _bind(item.table, default, _command(default)))
            return
        if is_user_option(item.name) or item.array or item.scope in _GLOBAL.values():
            line = self._unset_line(item)
        else:
            line = command_line(["set-option", *self._scope_flags(item.scope), item.name,
                                 OPTIONS[item.name].default])
        self._confirmed(f"Reset {item.name} to default? ", line)

    def _edit_key(self, item: _Item) -> None:
        """Enter on a key's Command or Note row asks for a new one, on its Repeat row
        toggles bind-key -r; the key's own row does nothing, as tmux's."""
        binding = self.client.server.key_tables.binding(item.table, item.key)
        if binding is None or not item.field:
            return
        if item.field == "Repeat":
            self._run(_bind(item.table, binding, _command(binding),
                            repeat=not binding.repeat))
            return

        async def ask() -> None:
            assert binding is not None
            if item.field == "Command":
                answer = await self.client.ask(f"({item.key}) ", _command(binding))
                if answer:
                    self._run(_bind(item.table, binding, f"{{ {answer} }}"))
            else:
                answer = await self.client.ask(f"({item.key}) ", binding.note)
                if answer:
                    self._run(command_line(["bind-key", "-T", item.table, "-N", answer,
                                            item.key]))

        self.client.spawn(ask())


def _names(*scopes: str) -> list[str]:
    """The options of `scopes`, by name, as tmux's table orders them."""
    return sorted(name for name, option in OPTIONS.items() if option.scope in scopes)


def _command(binding: Binding) -> str:
    return binding.shown


def _bind(table: str, binding: Binding, command: str, *, repeat: bool | None = None) -> str:
    """bind-key for `binding`'s key in `table`, its note and repeat kept, to run
    `command` (a command line in list-keys' form, or a `{ }` block)."""
    repeat = binding.repeat if repeat is None else repeat
    flags = ["-r"] if repeat else []
    if binding.note:
        flags += ["-N", binding.note]
    return f"{command_line(['bind-key', *flags, '-T', table, binding.key])} {command}"

