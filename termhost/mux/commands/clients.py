"""Verbs of attached clients: list-clients, detach-client, switch-client, refresh-client.

Run from a key binding or the command prompt, they act on the clients of that client's
session; from a script, on the latest client to attach or type (tmux's "current client").
With no client attached there is nothing to act on: tmux's `no current client`.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, cast, overload

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    find_pane,
    find_session,
    listed,
)
from termhost.mux.commands.resurrect import bring_back
from termhost.mux.format_scope import ServerScope, format_target
from termhost.mux.format_variables import (
    CONTROL_FLAGS,
    FormatVariables,
    client_name,
    client_variables,
)
from termhost.mux.formats import expand
from termhost.mux.jobs import JOBS
from termhost.mux.tty_term import TerminalDescription, describe_terminal
from termhost.mux.verbs import flag_values

if TYPE_CHECKING:
    from termhost.mux.attached import Client
    from termhost.mux.control import ControlClient


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
        if target in (client_name(client), client.tty.removeprefix("/dev/") or None):
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
        values.add(("client", functools.partial(client_variables, client)))
        return values, scope

    return listed(flags, _LIST_FORMAT, (item(client) for client in server.clients
                                        if only is None or client.session is only))


@command("switch-client")
async def switch_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Show another session (-t), or the previous (-p), next (-n) or last (-l) one by
    name, on the current client or -c's, its environment updated from the client's
    (update-environment) unless -E; a pane of a zoomed window keeps it zoomed with -Z.
    -T instead makes the key table its next key is looked up in (`bind -n M-r
    switch-client -T resize`). -r first toggles the client read-only (and ignore-size
    with it, as tmux's); -F is taken and does nothing, as in tmux 3.3a."""
    if "r" in flags:
        client = find_client(context, flags.get("c"))
        if "read-only" in client.flags:
            client.flags -= {"read-only", "ignore-size"}
        else:
            client.flags |= {"read-only", "ignore-size"}
        context.server.fit_session(client.session)
    if "T" in flags:
        client = find_client(context, flags.get("c"))
        if not context.server.key_tables.exists(flags["T"]):
            raise CommandError(f"table {flags['T']} doesn't exist")
        client.switch_key_table(flags["T"])
        return Result()
    clients = [find_client(context, flags["c"])] if "c" in flags else (
        [context.client] if context.client is not None else _clients(context))
    if "t" in flags:
        await bring_back(context, flags["t"])  # an exited session's name: back first
    for client in clients:
        _switch(context, client, flags)
        if "E" not in flags:
            session = client.session
            session.environment.update_from(context.server.session_option(
                session, "update-environment").split(), client.environ)
        client.relayout()
    return Result()


def _switch(context: Context, client: Client, flags: dict[str, str]) -> None:
    """The client shows -t's session (window, pane), or -n, -p or -l's."""
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
            zoomed = window.zoomed
            client.switch_to(pane.name if "." in target or target[0] == "%"
                             else f"@{window.id}")
            if zoomed and "Z" in flags:
                window.zoom(True)
        else:
            client.switch_to(f"${find_session(context.server, target).id}")


CLIENT_FLAGS = ("ignore-size", "read-only", "active-pane")
"""The -f flags of an attached client termhost acts on (tmux's server_client_set_flags);
a control client takes format_variables.CONTROL_FLAGS too."""


def set_client_flags(flags: set[str], text: str, *, control: bool) -> set[str]:
    """`flags` with the comma-separated ones of `text` set (a `!` before one clears it;
    a client that is read-only stays so), as tmux's server_client_set_flags; the
    control-mode ones only for a `control` client, `pause-after[=N]` as pause-after=N.
    Others are ignored, as tmux ignores them."""
    flags = set(flags)
    for word in text.split(","):
        name = word.removeprefix("!")
        age = re.match(r"pause-after=(\d+)", name)
        if control and (name == "pause-after" or age is not None):
            flag = f"pause-after={int(age[1]) if age is not None else 0}"
            flags -= {each for each in flags if each.startswith("pause-after=")}
        elif (control and name in CONTROL_FLAGS) or name in CLIENT_FLAGS:
            flag = name
        else:
            continue
        if not word.startswith("!"):
            flags.add(flag)
        elif flag != "read-only":
            flags.discard(flag)
    return flags


_SIZE_LIMITS = range(1, 10001)
"""A size refresh-client -C takes, in each dimension (tmux's WINDOW_MINIMUM to _MAXIMUM)."""


@command("refresh-client")
async def refresh_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The client (-t, else the current one) drawn again; -S only its status line (what
    status-line plugins run after they change what it shows). -L/-R/-U/-D move its view
    of a window larger than it by the adjustment (1 by default), -c makes the view follow
    the cursor again; -l asks its terminal for the clipboard, for a new paste buffer or
    the pane -l names. In tmux 3.3a's order: those first, and alone. -f (-F) sets its flags.
    A control client's (mux/control.py): -C its size, or a window's (@ID:WxH); -A
    %PANE:on|off|pause|continue whether a pane's output reaches it; -B NAME:WHAT:FORMAT
    a format it is told of when its value changes."""
    client = find_client(context, flags.get("t"))
    panning = next((letter for letter in "cLRUD" if letter in flags), None)
    if panning is not None:
        client.pan(panning, _adjustment(args))
        return Result()
    if "l" in flags:
        client.request_clipboard(find_pane(context.server, flags["l"])[2] if flags["l"]
                                 else None)
        return Result()
    control = cast("ControlClient", client) if "control-mode" in client.flags else None
    for letter in "Ff":
        if letter in flags:
            client.flags = set_client_flags(client.flags, flags[letter],
                                            control=control is not None)
            context.server.fit_session(client.session)
    if any(letter in flags for letter in "ABC"):
        if control is None:
            raise CommandError("not a control client")
        if "A" in flags:
            for value in flag_values(flags, "A"):
                _pane_state(context, control, value)
        elif "B" in flags:
            for value in flag_values(flags, "B"):
                control.subscribe(value)
        else:
            _control_size(context, control, flags["C"])
    elif "S" in flags:
        client.refresh_status()
    else:
        client.relayout()
    return Result()


def _adjustment(args: list[str]) -> int:
    """refresh-client's adjustment, 1 to INT_MAX as tmux's strtonum reads it."""
    if not args:
        return 1
    if re.fullmatch(r"\s*[+-]?\d+", args[0]) is None:
        raise CommandError("adjustment invalid")
    value = int(args[0])
    if value < 1:
        raise CommandError("adjustment too small")
    if value > 2**31 - 1:
        raise CommandError("adjustment too large")
    return value


def _pane_state(context: Context, client: ControlClient, value: str) -> None:
    """-A %PANE:STATE (anything else is ignored, as tmux ignores it)."""
    target, colon, state = value.partition(":")
    if not colon or not target.startswith("%") or not target[1:].isdigit():
        return
    try:
        _, _, pane = find_pane(context.server, target)
    except CommandError:
        return
    stream = client.stream
    if state == "on":
        stream.off.discard(pane.id)
    elif state == "off":
        stream.off.add(pane.id)
    elif state == "pause":
        stream.pause(pane)
    elif state == "continue":
        stream.resume(pane)


def _control_size(context: Context, client: ControlClient, value: str) -> None:
    """-C WxH (or W,H): the client's size; @ID:WxH a window's alone, @ID: no more,
    read as tmux's sscanf reads them."""
    window = re.match(r"@(\d+):(\d+)x(\d+)", value)
    if window is not None:
        number, cols, rows = (int(group) for group in window.groups())
        _check_size(cols, rows)
        client.window_sizes[number] = (cols, rows)
        context.server.refresh_all()
        return
    cleared = re.match(r"@(\d+):", value)
    if cleared is not None:
        if client.window_sizes.pop(int(cleared[1]), None) is not None:
            context.server.refresh_all()
        return
    size = re.match(r"(\d+),(\d+)", value) or re.match(r"(\d+)x(\d+)", value)
    if size is None:
        raise CommandError("bad size argument")
    cols, rows = int(size[1]), int(size[2])
    _check_size(cols, rows)
    client.resize(cols, rows)


def _check_size(cols: int, rows: int) -> None:
    if cols not in _SIZE_LIMITS or rows not in _SIZE_LIMITS:
        raise CommandError("size too small or too big")


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
