"""Verbs of attached clients: list-clients, detach-client, switch-client, refresh-client.

Run from a key binding or the command prompt, they act on the clients of that client's
session; from a script, on the latest client to attach or type (tmux's "current client").
With no client attached there is nothing to act on: tmux's `no current client`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, overload

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    find_pane,
    find_session,
    listed,
)
from termhost.mux.format_scope import ServerScope, format_target
from termhost.mux.format_variables import FormatVariables, client_variables
from termhost.mux.formats import expand
from termhost.mux.jobs import JOBS
from termhost.mux.tty_term import TerminalDescription, describe_terminal

if TYPE_CHECKING:
    from termhost.mux.attached import Client


def _clients(context: Context) -> list[Client]:
    clients = context.server.clients
    if context.session is not None:
        clients = [client for client in clients if client.session is context.session]
    if not clients:
        raise CommandError("no current client")
    return clients if context.session is not None else clients[:1]


@overload
def find_client(context: Context, target: str | None) -> Client: ...
@overload
def find_client(context: Context, target: str | None, *,
                quiet: bool) -> Client | None: ...
def find_client(context: Context, target: str | None, *,
                quiet: bool = False) -> Client | None:
    """-t as a client, as tmux's cmd_find_client: its terminal's path (`/dev/pts/3`, or
    `pts/3`); the current client when none is given. `quiet` (display-message -c, a
    target client that may be missing): None rather than `can't find client` or `no
    current client`."""
    if target is None:
        if context.client is not None:
            return context.client
        try:
            return _clients(context)[0]
        except CommandError:
            if quiet:
                return None
            raise
    for client in context.server.clients:
        if target in (client.tty, client.tty.removeprefix("/dev/")):
            return client
    if quiet:
        return None
    raise CommandError(f"can't find client: {target}")


@command("detach-client")
async def detach_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The current client, or -t's; -s every client of a session; -a every client but
    the current (or -t's) one. -P sends SIGHUP to each one's parent (its shell ends),
    -E runs a shell command in its place."""
    server = context.server
    if "s" in flags:
        session = find_session(server, flags["s"])
        leaving = [client for client in server.clients if client.session is session]
    elif "a" in flags:
        keep = find_client(context, flags.get("t"))
        leaving = [client for client in server.clients if client is not keep]
    else:
        leaving = [find_client(context, flags.get("t"))]
    for client in leaving:
        hang_up(client, "P" in flags, flags.get("E"))
    return Result()


def hang_up(client: Client, hangup: bool, command: str | None = None) -> None:
    """Detach `client`, with SIGHUP to its parent (`hangup`) or to run `command` in its
    place, in tmux's words: `detached and SIGHUP (from session NAME)`."""
    client.detach_hangup, client.detach_command = hangup, command
    client.detach(f"detached and SIGHUP (from session {client.session.name})"
                  if hangup else None)


_LIST_FORMAT = ("#{client_name}: #{session_name} [#{client_width}x#{client_height} "
                "#{client_termname}]#{?#{!=:#{client_uid},#{uid}}, [user "
                "#{?client_user,#{client_user},#{client_uid},}],}#{?client_flags, (,}"
                "#{client_flags}#{?client_flags,),}")
"""tmux 3.3a's list-clients line."""


@command("list-clients")
async def list_clients(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The attached clients (-t: those of one session), most recent first as tmux's
    client list; -F a format (the #{client_*} variables and the session's), -f a filter."""
    server = context.server
    only = find_session(server, flags["t"]) if "t" in flags else None

    def item(client: Client) -> tuple[FormatVariables, ServerScope]:
        values, scope = format_target(server, client.session, owner=client)
        values.update(client_variables(client))
        return values, scope

    return listed(flags, _LIST_FORMAT, (item(client) for client in server.clients
                                        if only is None or client.session is only))


@command("switch-client")
async def switch_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Show another session (-t), or the previous (-p), next (-n) or last (-l) one by
    name, on the current client or -c's; -T instead makes the key table its next key
    is looked up in (`bind -n M-r switch-client -T resize`)."""
    if "T" in flags:
        client = find_client(context, flags.get("c"))
        if not context.server.key_tables.exists(flags["T"]):
            raise CommandError(f"table {flags['T']} doesn't exist")
        client.switch_key_table(flags["T"])
        return Result()
    clients = [find_client(context, flags["c"])] if "c" in flags else (
        [context.client] if context.client is not None else _clients(context))
    for client in clients:
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


@command("refresh-client")
async def refresh_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The client (-t, else the current one) drawn again; -S only its status line (what
    status-line plugins run after they change what it shows)."""
    client = find_client(context, flags.get("t"))
    if "S" in flags:
        client.refresh_status()
    else:
        client.relayout()
    return Result()


_MESSAGE_FORMAT = "#{t/p:message_time}: #{message_text}"
"""tmux 3.3a's show-messages line (SHOW_MESSAGES_TEMPLATE)."""


@command("show-messages")
async def show_messages(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The server's message log, newest first: each client's commands, bindings run and
    status-line messages. -T instead describes the clients' terminals (only -t's, given
    one) and -J lists the running jobs, after a blank line, as tmux 3.3a's. It needs a
    client, as tmux's does (`no current client`)."""
    client = find_client(context, flags.get("t"))
    lines: list[str] = []
    if "T" in flags:
        clients = sorted(context.server.clients, key=lambda each: -each.created)
        for number, shown in enumerate(each for each in clients
                                       if "t" not in flags or each is client):
            term = await terminal_of(context, shown)
            lines += [f"Terminal {number}: {term.name} for {shown.tty}, "
                      f"flags=0x{term.flags:x}:", *term.describe()]
    if "J" in flags:
        jobs = JOBS.summary()
        lines += [""] * bool(lines and jobs) + jobs
    if "T" not in flags and "J" not in flags:
        for message in context.server.messages.newest_first():
            values = {"message_text": message.text, "message_number": str(message.number),
                      "message_time": str(int(message.time))}
            lines.append(expand(_MESSAGE_FORMAT, values))
    return Result(stdout="".join(line + "\n" for line in lines))


async def terminal_of(context: Context, client: Client) -> TerminalDescription:
    """The client's terminal as tmux describes it, with the server's terminal-features
    and terminal-overrides and the terminfo of the client's environment."""
    def elements(name: str) -> list[str]:
        return [value for _, value in context.server.options.shown(name) if value is not None]

    return await describe_terminal(client.term, client.env(), elements("terminal-features"),
                                   elements("terminal-overrides"))
