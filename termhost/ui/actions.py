"""What the prefix keys do on an attached client: the key table's commands, carried out.

The server's key table (mux/bindings.py) holds tmux command lines, as list-keys shows
them. The stock ones are carried out here the client's own way (a prompt in the status
line, a view over the panes, a new pane at once); any other line runs as the command
prompt would run it. The prompts name their target when they open, as tmux's do: a pane
that becomes active meanwhile is not the one killed.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from termhost.mux import model
from termhost.mux.lexer import LexError, split_commands
from termhost.mux.model import DOWN, LEFT, RIGHT, UP
from termhost.ui.completion import Completions, targets_of
from termhost.ui.prompt import History, Prompt, ask, confirm

if TYPE_CHECKING:
    from termhost.mux.server import Server
    from termhost.ui.app import AttachedClient

__all__ = ["PrefixActions"]

Action = Callable[[], None]

_HISTORIES: weakref.WeakKeyDictionary[Server, History] = weakref.WeakKeyDictionary()
"""The command prompt's history (C-b :, then Up and Down), one per server, shared by its
clients as tmux's is."""


class PrefixActions:
    """The actions of one client's key table."""

    def __init__(self, client: AttachedClient) -> None:
        self.client = client
        self._stock = self._stock_actions()

    def _stock_actions(self) -> dict[str, Action]:
        """The default bindings' commands, carried out the client's own way."""
        client = self.client
        return {
            "send-prefix": lambda: client.active().write(client.prefix_bytes()),
            "split-window": lambda: self._split(horizontal=False),
            "split-window -h": lambda: self._split(horizontal=True),
            "command-prompt": self.command_prompt,
            "list-keys -N": lambda: client.open_view(
                client.server.key_tables.list_keys(notes=True)),
            "new-window": lambda: client.spawn(client.server.new_window(  # in the session's
                client.session, [], client.env(), client.session.path or None, None,  # dir
                select=True)),
            "detach-client": client.detach,
            "last-window": lambda: self._select_window(client.session.last),
            "next-window": lambda: self._step_window(1),
            "previous-window": lambda: self._step_window(-1),
            "select-pane -t :.+": self._next_pane,
            "select-pane -U": lambda: self._select_neighbour(UP),
            "select-pane -D": lambda: self._select_neighbour(DOWN),
            "select-pane -L": lambda: self._select_neighbour(LEFT),
            "select-pane -R": lambda: self._select_neighbour(RIGHT),
            "display-panes": client.display_panes,
            "copy-mode": client.copy_mode,
            "copy-mode -u": lambda: client.copy_mode(page_up=True),
            "list-buffers": lambda: client.execute("list-buffers", view=True),
            "choose-tree -Zs": lambda: client.choose_tree(windows=False),
            "choose-tree -Zw": lambda: client.choose_tree(windows=True),
            "switch-client -p": lambda: client.step_session(-1),
            "switch-client -n": lambda: client.step_session(1),
        }

    def action(self, table: str, key: str) -> Action | None:
        """What `key` does in the server's key table `table`; None when it is unbound.
        Looked up per key, as bind-key may have changed the table since the last one."""
        binding = self.client.server.key_tables.binding(table, key)
        if binding is None:
            return None
        command = binding.command
        if command in self._stock:
            return self._stock[command]
        if command.startswith("select-window -t :="):
            return self._window_at(int(command.rsplit("=", 1)[1]))
        if command.startswith("confirm-before") and command.endswith("kill-window"):
            return self._confirm_kill_window
        if command.startswith("confirm-before") and command.endswith("kill-pane"):
            return self._confirm_kill_pane
        if command.startswith("command-prompt -I") and "rename-session" in command:
            return self._ask_session_name
        if command.startswith("command-prompt -I") and "rename-window" in command:
            return self._ask_window_name
        return functools.partial(self._run_line, command)  # as the command prompt would

    def command_prompt(self) -> None:
        """C-b : runs any verb, with the current session as the default target."""
        server = self.client.server
        history = _HISTORIES.setdefault(server, History())
        self.client.open_prompt(Prompt(
            ":", "", self._run_line, history=history,
            completions=lambda: Completions.of(targets_of(server.sessions.values()))))

    def _run_line(self, line: str) -> None:
        try:
            commands = split_commands(line, self.client.env())
        except LexError as error:
            self.client.show_message(f"syntax error: {error}")
            return
        argv = [word for command in commands for word in [*command, ";"]][:-1]
        if argv:
            self.client.execute(*argv)

    def _confirm_kill_pane(self) -> None:
        client = self.client
        window, pane = client.session.active_window, client.active()
        question = f"kill-pane {window.panes.index(pane)}"
        client.open_prompt(confirm(question, lambda: client.execute("kill-pane", "-t", pane.name)))

    def _confirm_kill_window(self) -> None:
        client = self.client
        window = client.session.active_window
        target = f"@{window.id}"
        client.open_prompt(confirm(f"kill-window {window.name}",
                                   lambda: client.execute("kill-window", "-t", target)))

    def _ask_window_name(self) -> None:
        client = self.client
        window = client.session.active_window
        target = f"@{window.id}"
        client.open_prompt(ask("rename-window", window.name,
                               lambda name: client.execute("rename-window", "-t", target, name)))

    def _ask_session_name(self) -> None:
        client = self.client
        target = f"${client.session.id}"
        client.open_prompt(ask("rename-session", client.session.name,
                               lambda name: client.execute("rename-session", "-t", target, name)))

    def _split(self, *, horizontal: bool) -> None:
        client = self.client
        window = client.session.active_window
        client.spawn(client.server.split_window(
            client.session, window, window.active, [], client.env(),
            client.session.path or None, horizontal=horizontal, size=None, percentage=None,
            before=False, select=True,
        ))

    def _next_pane(self) -> None:
        window = self.client.session.active_window
        panes = window.panes
        window.select(panes[(panes.index(window.active) + 1) % len(panes)])
        self.client.relayout()

    def _select_neighbour(self, direction: tuple[int, int]) -> None:
        """C-b arrow: the pane across that border, as select-pane -L/-R/-U/-D."""
        window = self.client.session.active_window
        window.select(window.neighbour(window.active, direction))
        self.client.relayout()

    def _window_at(self, index: int) -> Action:
        """C-b 0..9: the window with that index; nothing when there is none, as tmux."""
        return lambda: self._select_window(
            next((w for w in self.client.session.windows if w.index == index), None)
        )

    def _select_window(self, window: model.Window | None) -> None:
        if window is not None:
            self.client.session.select(window)
            self.client.relayout()

    def _step_window(self, step: int) -> None:
        windows = self.client.session.windows
        current = windows.index(self.client.session.active_window)
        self._select_window(windows[(current + step) % len(windows)])
