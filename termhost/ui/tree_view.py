"""choose-tree on a client: the server's sessions described for the ChooseTree model,
and the tree and its preview drawn in place of the window.

The model (choose_tree.py) never sees the server; this is where the two meet, so that the
model stays data in and rows out.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import StyleAndTextTuples

from termhost.mux.model import Session
from termhost.mux.pane import Pane
from termhost.ui.choose_tree import ChooseTree, TreePane, TreeSession, TreeWindow

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["describe", "draw", "find_pane", "frame"]


def describe(server: Server) -> list[TreeSession]:
    """Every session, window and pane of the server, as the tree shows them."""
    host = socket.gethostname()
    attached = {client.session for client in server.clients}
    return [
        TreeSession(session.id, session.name, attached=session in attached, windows=[
            TreeWindow(window.id, link.index, server.window_name(window),
                       session.window_flags(link),
                       current=link is session.current, panes=[
                           TreePane(pane.id, index, pane.current_command(),
                                    title="" if pane.terminal.screen.title in ("", host)
                                    else pane.terminal.screen.title,
                                    active=pane is window.active)
                           for index, pane in enumerate(window.panes)])
            for link in session.links for window in [link.window]])
        for session in server.sessions.values()
    ]


def find_pane(server: Server, target: str) -> tuple[Session, Pane] | None:
    """The pane a tree row names (`%N`), with its session."""
    for session in server.sessions.values():
        for window in session.windows:
            for pane in window.panes:
                if pane.name == target:
                    return session, pane
    return None


def draw(tree: ChooseTree, server: Server, width: int, height: int) -> StyleAndTextTuples:
    """The tree over the top of the window and, below it, the screen of the pane its
    selected row leads to, as tmux lays choose-tree out."""

    def screen() -> tuple[list[str], int]:
        found = find_pane(server, tree.preview_target())
        if found is None:
            return [], 0
        shown = found[1].terminal.screen
        return list(shown.display), shown.cursor.y

    return frame(tree, width, height, screen)


def frame(tree: ChooseTree, width: int, height: int,
          preview: Callable[[], tuple[list[str], int]]) -> StyleAndTextTuples:
    """The tree's rows over the top of `width` x `height` cells and, when there is room
    for it, the preview box under them, around the lines (and the cursor's row, which
    the box keeps in view) `preview` gives for the selected row."""
    tree_rows = tree.tree_height(height)
    fragments: StyleAndTextTuples = []
    for style, text in tree.rows(width, tree_rows):
        fragments += [("class:selection" if style else "", text), ("", "\n")]
    if height > tree_rows:
        lines, cursor = preview()
        for row in tree.preview(lines, width, height - tree_rows, cursor=cursor):
            fragments += [("class:border", row), ("", "\n")]
    return fragments[:-1]
