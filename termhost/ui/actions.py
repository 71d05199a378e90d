"""What the prefix keys do on an attached client: the key table's commands, carried out.

The server's key table (mux/bindings.py) holds tmux command lines, as list-keys shows
them. The stock ones are carried out here the client's own way (a view over the panes, a
new pane at once); any other line runs as the command prompt would run it (the prompts,
command-prompt and confirm-before, are verbs: mux/commands/prompts.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from termhost.mux import model
from termhost.mux.model import DOWN, LEFT, RIGHT, UP

if TYPE_CHECKING:
    from termhost.ui.app import AttachedClient

__all__ = ["PrefixActions"]

Action = Callable[[], None]

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
            run = self._stock[command]
        elif command.startswith("select-window -t :="):
            run = self._window_at(int(command.rsplit("=", 1)[1]))
        else:
            run = functools.partial(self._run_line, command)  # as the command prompt would
        return functools.partial(self._log_and_run, f"key {key}: {command}", run)

    def _log_and_run(self, logged: str, run: Action) -> None:
        """A binding's command, into the message log as tmux's server_client_key_callback
        logs it, then carried out."""
        self.client.server.log_message(f"{self.client.tty} {logged}")
        run()

    def _run_line(self, line: str) -> None:
        self.client.run_binding(self.client.run_line(line))

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
