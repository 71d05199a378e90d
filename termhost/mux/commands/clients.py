"""Verbs that act on attached clients: switch-client, choose-tree.

Run from a key binding or the command prompt, they act on the clients of that client's
session; from a script, on the latest client to attach or type (tmux's "current client").
With no client attached there is nothing to act on: tmux's `no current client`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    find_pane,
    find_session,
)

if TYPE_CHECKING:
    from termhost.ui.app import AttachedClient


def _clients(context: Context) -> list[AttachedClient]:
    clients = context.server.clients
    if context.session is not None:
        clients = [client for client in clients if client.session is context.session]
    if not clients:
        raise CommandError("no current client")
    return clients if context.session is not None else clients[:1]


@command("switch-client")
async def switch_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Show another session (-t), or the previous (-p), next (-n) or last (-l) one by
    name, on the current client."""
    for client in _clients(context):
        if "n" in flags or "p" in flags:
            client.step_session(1 if "n" in flags else -1)
        elif "l" in flags:
            if client.last_session is None or client.last_session.name not in \
                    context.server.sessions:
                raise CommandError("can't find last session")
            client.switch_to(f"${client.last_session.id}")
        elif "t" in flags:
            target = flags["t"]
            if target.startswith(("%", "@")) or ":" in target:
                _, window, pane = find_pane(context.server, target)
                client.switch_to(pane.name if "." in target or target[0] == "%"
                                 else f"@{window.id}")
            else:
                client.switch_to(f"${find_session(context.server, target).id}")
        client.relayout()
    return Result()


@command("choose-tree")
async def choose_tree(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The tree of sessions (-s) or windows (-w, the default) to choose from, on the
    current client (-Z, zoomed, is how termhost always shows it)."""
    for client in _clients(context):
        client.choose_tree(windows="s" not in flags)
    return Result()
