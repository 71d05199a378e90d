"""Verbs that give a client's terminal back for a while: suspend-client, lock-client,
lock-session, lock-server (tmux's cmd-suspend-client.c and cmd-lock-server.c); and the
lock of a session left idle for lock-after-time seconds (tmux's session lock timer).

The client leaves its terminal as on detach and, suspended, stops itself (the shell's job
control has the terminal until `fg`), or, locked, runs lock-command in its own process on
its own terminal; then it says it is back and is redrawn (Client.leave_terminal
and wake, the SUSPEND, LOCK and WAKEUP frames). A client already away is left alone, as
tmux leaves a CLIENT_SUSPENDED one; an empty lock-command locks nothing, as in tmux.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING

from termhost.mux.commands import Context, Result, command, find_session
from termhost.mux.commands.clients import find_client
from termhost.mux.model import Session

if TYPE_CHECKING:
    from termhost.mux.attached import Client
    from termhost.mux.server import Server

__all__ = ["note_activity"]


@command("suspend-client")
async def suspend_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The current client (or -t's) stops, its shell's job control taking over."""
    find_client(context, flags.get("t")).leave_terminal()
    return Result()


@command("lock-client")
async def lock_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The current client (or -t's) runs lock-command on its terminal."""
    _lock(context.server, [find_client(context, flags.get("t"))])
    return Result()


@command("lock-session")
async def lock_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Every client of the session (-t, else the current one) runs lock-command."""
    session = find_session(context.server, flags.get("t"))
    _lock(context.server, [c for c in context.server.clients if c.session is session])
    return Result()


@command("lock-server")
async def lock_server(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Every attached client runs lock-command."""
    _lock(context.server, list(context.server.clients))
    return Result()


def _lock(server: Server, clients: Iterable[Client]) -> None:
    lock_command = server.options.get("lock-command")
    if lock_command:
        for client in clients:
            client.leave_terminal(lock_command)


_idle_timers: weakref.WeakKeyDictionary[Session, asyncio.TimerHandle] = (
    weakref.WeakKeyDictionary())
"""The pending lock-after-time check of each session with one."""


def note_activity(server: Server, session: Session) -> None:
    """A client of `session` typed, attached or came back: with lock-after-time set, its
    clients lock that many seconds after the last of these (tmux's
    session_update_activity). One timer a session, looking at session.activity_time
    when it fires, rather than a timer set again on every keystroke."""
    session.activity_time = time.time()
    if session not in _idle_timers and server.options.number("lock-after-time"):
        _idle_check(server, session)


def _idle_check(server: Server, session: Session) -> None:
    _idle_timers.pop(session, None)
    after = server.options.number("lock-after-time")
    clients = [client for client in server.clients if client.session is session]
    if not after or not clients or server.sessions.get(session.name) is not session:
        return  # as tmux's timer: nothing to lock; the next activity looks again
    idle = time.time() - session.activity_time
    if idle >= after:
        _lock(server, clients)
        return
    _idle_timers[session] = asyncio.get_running_loop().call_later(
        after - idle, _idle_check, server, session)
