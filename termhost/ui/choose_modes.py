"""The choose modes on a client: choose-tree (and find-window, a filtered choose-tree),
choose-buffer and choose-client, shown in place of the window while they last, and
customize-mode (customize_mode.py), opened the same way.

Each is a ChooseTree (choose_tree.py) over what it lists, with the keys tmux's mode gives
it on top of the tree's own (window-buffer.c: d deletes a buffer, p pastes it;
window-client.c: d and x detach a client, z suspends it; O and r change the sort order).
What an item's row says is its mode's format expanded for it, and -f's filter leaves
items out, as tmux's mode-tree builds its rows: one base (_Mode) holds what the modes
share, the sort order, filter, formats, keys and template, as mode-tree.c does for tmux.
The model stays data in and rows out; this is where it meets the server.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, TypeVar

from prompt_toolkit.formatted_text import StyleAndTextTuples

from termhost.mux import exited_sessions
from termhost.mux.buffers import Buffer, escape
from termhost.mux.commands.buffers import buffer_variables
from termhost.mux.commands.modes import ChooseRequest
from termhost.mux.commands.prompts import template_replace
from termhost.mux.format_scope import ServerScope, format_target
from termhost.mux.format_variables import MODE_FORMATS, client_variables
from termhost.mux.formats import expand, format_true
from termhost.mux.model import Session, Window
from termhost.mux.pane import Pane
from termhost.resurrect import records
from termhost.ui.choose_tree import ChooseTree, ListItem, TreePane, TreeSession, TreeWindow
from termhost.ui.customize_mode import CustomizeMode
from termhost.ui.status import status_bar
from termhost.ui.tree_view import describe, draw, find_pane, frame

if TYPE_CHECKING:
    from termhost.mux.attached import Client
    from termhost.ui.app import AttachedClient

__all__ = ["Chooser", "TreeChooser", "open_chooser"]

_T = TypeVar("_T")


class Chooser(Protocol):
    """A choose mode as the client drives it."""

    def press(self, name: str) -> bool:
        """Take one key by its tmux name; True when the mode is over."""
        ...

    def draw(self, width: int, height: int) -> StyleAndTextTuples:
        """The list and its preview in `width` x `height` cells."""
        ...


def open_chooser(client: AttachedClient, request: ChooseRequest) -> Chooser:
    """The mode `request` asks for, on `client`."""
    if request.kind == "buffer":
        return BufferChooser(client, request)
    if request.kind == "client":
        return ClientChooser(client, request)
    if request.kind == "customize":
        return CustomizeMode(client, request)
    return TreeChooser(client, request)


@dataclass(frozen=True)
class _Entry:
    """One thing a mode lists: its name (the row's, and `%%` in the template), its
    variables, and what each sort order sorts it by."""

    name: str
    values: Mapping[str, str]
    scope: ServerScope
    order: Mapping[str, tuple[object, ...]]


class _Mode:
    """What every choose mode shares, as tmux's mode-tree gives it to each: the sort
    order (-O, O to step it, -r and r to reverse it), -f's filter, -F's format and
    -K's keys expanded with each item's variables, and the template Enter runs."""

    sorts: tuple[str, ...] = ()
    """The sort orders, in the order O steps through them; the first is the default."""
    mode_format = ""
    """The MODE_FORMATS entry an item's text is when -F gives none."""
    tree: ChooseTree

    def __init__(self, client: AttachedClient, request: ChooseRequest) -> None:
        self.client, self.request = client, request
        names = [name.lower() for name in self.sorts]
        wanted = (request.sort or "").lower()
        self._sort = names.index(wanted) if wanted in names else 0
        self._reverse = request.reverse
        self._entries: dict[str, _Entry] = {}
        """Each row's item by its target: what -K's keys are expanded for."""

    def rebuild(self, selected: str | None = None) -> None:
        """The rows anew (a new sort order, an item gone), `selected` selected."""
        raise NotImplementedError

    def _choose(self, target: str) -> None:
        """Enter (or a row's key) on the row naming `target`."""
        raise NotImplementedError

    def _act(self, name: str) -> bool | None:
        """The mode's own key `name`, after the tree's: True when the mode is over,
        None for a key it has no use for."""
        return None

    def _sort_label(self) -> str:
        return self.sorts[self._sort] + (", reversed" if self._reverse else "")

    def _ordered(self, items: Iterable[_T], entry: Callable[[_T], _Entry]) -> list[_T]:
        """`items` in the sort order, reversed with -r (or r)."""
        ordered = sorted(items, key=lambda item: entry(item).order[self.sorts[self._sort]])
        return ordered[::-1] if self._reverse else ordered

    def _kept(self, entry: _Entry) -> bool:
        """-f's filter is true for `entry` (no filter keeps everything)."""
        keep = self.request.filter
        return keep is None or format_true(expand(keep, entry.values, scope=entry.scope))

    def _text(self, entry: _Entry) -> str:
        """The row's text: -F's format, else the mode's, expanded for `entry`."""
        template = self.request.format
        if template is None:
            template = MODE_FORMATS[self.mode_format]
        return expand(template, entry.values, scope=entry.scope)

    def _key(self, line: int, name: str) -> str:
        """Row `line`'s shortcut: -K's format expanded for its item, else tmux's
        default (0-9, then M-a to M-z)."""
        if self.request.key_format is None:
            return ChooseTree.default_key(line)
        entry = self._entries.get(name)
        values = {**(entry.values if entry is not None else {}), "line": str(line)}
        return expand(self.request.key_format, values,
                      scope=entry.scope if entry is not None else None)

    def press(self, name: str) -> bool:
        choice = self.tree.press(name)
        if choice is not None:
            if choice.kind == "choose":
                self._choose(choice.target)
            return True
        if name == "O":
            self._sort = (self._sort + 1) % len(self.sorts)
            self.rebuild()
        elif name == "r":
            self._reverse = not self._reverse
            self.rebuild()
        else:
            return bool(self._act(name))
        return False

    def _run(self, name: str, pane: Pane | None) -> None:
        """The template with `%%` the item's name, run for the client as a key
        binding's command, against `pane`."""
        command = template_replace(self.request.template, name, 1)
        if command:
            self.client.spawn(self.client.run_line(command, pane=pane))


_TREE_FORMATS = {"session": "session_format", "window": "window_format",
                 "pane": "pane_format"}


class TreeChooser(_Mode):
    """choose-tree (and find-window, a filtered choose-tree): the server's tree in
    -O's order, -F's text, -f's filter on panes; Enter runs the template
    (`switch-client -t '%%'`) with `%%` the chosen item as tmux names it (`=s:`,
    `=s:1.`, `=s:1.%5`)."""

    sorts = ("index", "name", "time")
    mode_format = "tree_mode_format"

    def __init__(self, client: AttachedClient, request: ChooseRequest) -> None:
        super().__init__(client, request)
        server = client.server
        found = find_pane(server, request.target)
        session, pane = found if found is not None else (
            client.session, client.session.active_window.active)
        window = next(w for w in session.windows if pane in w.panes)
        keep = None if request.filter is None else (
            lambda pane_id: self._kept(self._entries[f"%{pane_id}"]))
        self.tree = ChooseTree(
            self._described(), session.id, windows=request.collapsed != "sessions",
            panes=request.collapsed == "", current_window=window.id,
            current_pane=pane.id, keep=keep, keys=self._key, sort=self._sort_label(),
            preview=request.preview)

    def _entry(self, kind: str, session: Session, window: Window | None = None,
               pane: Pane | None = None) -> _Entry:
        """The item's variables, #{session_format} (#{window_format}, #{pane_format})
        true for its kind alone, as tmux's format_defaults sets them."""
        server = self.client.server
        values, scope = format_target(server, session, window, pane)
        values.update({name: "1" if of == kind else "0" for of, name in _TREE_FORMATS.items()})
        if kind == "session":
            return _Entry(f"={session.name}:", values, scope, {
                "index": (session.id,), "name": (session.name,),
                "time": (-session.activity_time, session.name)})
        assert window is not None
        name = server.window_name(window)
        if kind == "window":
            index = session.index_of(window)
            return _Entry(f"={session.name}:{index}.", values, scope, {
                "index": (index,), "name": (name,),
                "time": (-window.activity_time, name)})
        assert pane is not None
        index = window.panes.index(pane)
        return _Entry(f"={session.name}:{session.index_of(window)}.{pane.name}", values, scope, {
            "index": (index,), "name": (index,), "time": (pane.active_point,)})

    def _described(self) -> list[TreeSession]:
        """The server's tree in the sort order, each item's entry kept for -f and -K,
        and its text -F's format expanded for it."""
        server = self.client.server
        self._entries = {}
        for session in server.sessions.values():
            self._entries[f"${session.id}"] = self._entry("session", session)
            for window in session.windows:
                self._entries[f"@{window.id}"] = self._entry("window", session, window)
                for pane in window.panes:
                    self._entries[pane.name] = self._entry("pane", session, window, pane)

        def shown(target: str) -> str | None:
            return None if self.request.format is None else self._text(self._entries[target])

        def by(kind: str) -> Callable[[TreeSession | TreeWindow | TreePane], _Entry]:
            return lambda item: self._entries[f"{kind}{item.id}"]

        tree = []
        for row in describe(server):
            windows = [replace(each, text=shown(f"@{each.id}"), panes=self._ordered(
                (replace(leaf, text=shown(f"%{leaf.id}")) for leaf in each.panes), by("%")))
                for each in row.windows]
            tree.append(replace(row, text=shown(f"${row.id}"),
                                windows=self._ordered(windows, by("@"))))
        return self._ordered(tree, by("$")) + self._exited(shown)

    def _exited(self, shown: Callable[[str], str | None]) -> list[TreeSession]:
        """The sessions whose server died, after the live ones, as rows without windows
        (`N windows (exited)`): choosing one brings it back (switch-client resurrects)."""
        server = self.client.server
        found, _ = records.load_all(server.resurrection.where)
        rows = []
        for number, record in enumerate(r for r in found if r.name not in server.sessions):
            key = f"${-1 - number}"  # no id: a key of their own
            values = {**exited_sessions.values(record), "session_format": "1",
                      "window_format": "0", "pane_format": "0"}
            self._entries[key] = _Entry(f"={record.name}:", values, ServerScope(server), {
                "index": (float("inf"), number), "name": (record.name,),
                "time": (float("inf"), record.name)})
            text = shown(key)
            rows.append(TreeSession(-1 - number, record.name, text=(
                f"{len(record.windows)} windows (exited)" if text is None else text)))
        return rows

    def rebuild(self, selected: str | None = None) -> None:
        self.tree.sort = self._sort_label()
        self.tree.regrow(self._described())

    def _choose(self, target: str) -> None:
        """The template runs against the client's own pane, not the chosen one (tmux
        3.3a runs it with no target state), so `swap-window -t '%%'` swaps the
        client's window with the chosen one."""
        entry = self._entries.get(target)
        if entry is not None:
            self._run(entry.name, self.client.session.active_window.active)

    def draw(self, width: int, height: int) -> StyleAndTextTuples:
        return draw(self.tree, self.client.server, width, height)


class _ListChooser(_Mode):
    """What choose-buffer and choose-client share: the items listed, sorted, filtered
    and formatted, rebuilt after every key that changes them, with the selection kept
    on the same item (mode-tree's tag)."""

    def __init__(self, client: AttachedClient, request: ChooseRequest) -> None:
        super().__init__(client, request)
        items, filtered = self._items()
        self.tree = ChooseTree.of_items(items, keys=self._key, sort=self._sort_label(),
                                        filtered=filtered, preview=request.preview)

    def _listed(self) -> list[_Entry]:
        """What the mode lists now, in no particular order."""
        raise NotImplementedError

    def _preview(self, name: str, width: int, height: int) -> list[str]:
        """The preview's lines for the item `name`, `width` x `height` inside the box."""
        raise NotImplementedError

    def _items(self) -> tuple[list[ListItem], str | None]:
        entries = self._ordered(self._listed(), lambda entry: entry)
        self._entries = {entry.name: entry for entry in entries}
        filtered = None
        if self.request.filter is not None:
            kept = [entry for entry in entries if self._kept(entry)]
            filtered = "active" if kept else "no matches"
            entries = kept or entries
        return [ListItem(e.name, e.name, self._text(e)) for e in entries], filtered

    def rebuild(self, selected: str | None = None) -> None:
        items, self.tree.filtered = self._items()
        self.tree.sort = self._sort_label()
        self.tree.replace(items, selected=selected)

    def _choose(self, target: str) -> None:
        self._run(target, self._pane())

    def _pane(self) -> Pane | None:
        """The pane the mode is for: the template runs against it."""
        found = find_pane(self.client.server, self.request.target)
        return found[1] if found is not None else None

    def _below(self) -> str | None:
        """The item below the selected one (None on the last): what is selected once
        the selected item is gone, as mode-tree moves down before a delete."""
        targets = self.tree.targets()
        at = self.tree.selected
        return targets[at + 1] if at + 1 < len(targets) else None

    def draw(self, width: int, height: int) -> StyleAndTextTuples:
        target = self.tree.preview_target()
        return frame(self.tree, width, height, lambda: (
            self._preview(target, width - 4, height - self.tree.tree_height(height) - 2), 0))


class BufferChooser(_ListChooser):
    """choose-buffer: the paste buffers, the most recent first; the preview is the
    buffer's text. Enter or p pastes, d deletes (the mode ends with the last buffer)."""

    sorts = ("time", "name", "size")
    mode_format = "buffer_mode_format"

    def _listed(self) -> list[_Entry]:
        server = self.client.server
        found = find_pane(server, self.request.target)
        session, pane = found if found is not None else (self.client.session, None)
        window = next((w for w in session.windows if pane in w.panes), None)
        entries = []
        for buffer in server.buffers.all():
            values, scope = format_target(server, session, window, pane)
            values.update(buffer_variables(buffer))
            entries.append(_Entry(buffer.name, values, scope, {
                "time": (-buffer.order, buffer.name), "name": (buffer.name,),
                "size": (-len(buffer.data), buffer.name)}))
        return entries

    def _buffer(self, name: str) -> Buffer | None:
        return self.client.server.buffers.get(name) if name else None

    def _preview(self, name: str, width: int, height: int) -> list[str]:
        buffer = self._buffer(name)
        if buffer is None:
            return []
        # Each line escaped as #{buffer_sample} escapes it (tmux's utf8_strvis).
        return [escape(line) for line in buffer.data.split(b"\n")[:height]]

    def _act(self, name: str) -> bool | None:
        current = self.tree.preview_target()
        if name == "d":
            buffer = self._buffer(current)
            below = self._below()
            if buffer is not None:
                self.client.server.buffers.delete(buffer)
            self.rebuild(selected=below)
            return not self.client.server.buffers.all()
        if name == "p":
            self._run(current, self._pane())
            return True
        if name == "P":
            return True  # paste the tagged buffers: termhost tags none
        if name == "D":
            return False  # delete the tagged buffers: none
        return None


class ClientChooser(_ListChooser):
    """choose-client: the attached clients by name; the preview is what the client
    shows (its session's active pane, and its status line). Enter detaches the chosen
    client, d and x detach it, z suspends it (the mode ends with the last client)."""

    sorts = ("name", "size", "creation", "activity")
    mode_format = "client_mode_format"

    def _clients(self) -> list[Client]:
        return [c for c in self.client.server.clients if not c.suspended]

    def _listed(self) -> list[_Entry]:
        server = self.client.server
        entries = []
        for client in self._clients():
            values, scope = format_target(server, client.session, owner=client)
            values.add(("client", functools.partial(client_variables, client)))
            entries.append(_Entry(client.tty, values, scope, {
                "name": (client.tty,),
                "size": (client.size.columns, client.size.rows, client.tty),
                "creation": (-client.created, client.tty),
                "activity": (-client.activity, client.tty)}))
        return entries

    def _chosen(self, name: str) -> Client | None:
        return next((c for c in self._clients() if c.tty == name), None)

    def _preview(self, name: str, width: int, height: int) -> list[str]:
        """The client's active pane, a rule, and its status line, as tmux's
        window_client_draw lays them out in the box."""
        chosen = self._chosen(name)
        if chosen is None or not chosen.session.windows:
            return []
        server = self.client.server
        status = 1 if server.options.get("status") == "on" and height > 1 else 0
        pane_rows = max(0, height - 2 - status)
        screen = chosen.session.active_window.active.terminal.screen
        first = max(0, int(screen.cursor.y) - pane_rows + 1)
        lines = list(screen.display)[first:first + pane_rows]
        lines += [""] * (pane_rows - len(lines)) + [""] * (height - status - 1 - pane_rows)
        lines.append("─" * width)
        if status:
            bar = status_bar(server, chosen.session, chosen.size.columns, client=chosen)
            lines.append("".join(fragment[1] for fragment in bar))
        return lines

    def _act(self, name: str) -> bool | None:
        if name in ("d", "x", "z"):
            chosen = self._chosen(self.tree.preview_target())
            below = self._below()
            if chosen is not None and name == "z":
                chosen.leave_terminal()
            elif chosen is not None:
                chosen.detach()
            self.rebuild(selected=below)
            return not self._clients()
        if name in ("D", "X", "Z"):
            return False  # the tagged clients: termhost tags none
        return None

