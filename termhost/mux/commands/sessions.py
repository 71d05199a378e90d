"""Session verbs: new-session, attach-session, detach-client, has-session,
list-sessions, kill-session, kill-server, rename-session, start-server."""

from __future__ import annotations

import time

from termhost.mux import exited_sessions
from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    find_session,
    listed,
    new_object_info,
    one_name,
    size_arg,
    working_directory,
)
from termhost.mux.commands.clients import hang_up, set_client_flags
from termhost.mux.commands.resurrect import bring_back, exited
from termhost.mux.format_scope import ServerScope, format_target
from termhost.mux.format_variables import FormatVariables
from termhost.mux.model import Session, SessionGroup
from termhost.mux.verbs import flag_values
from termhost.resurrect import records


@command("new-session")
async def new_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A session (-s its name, -n its window's, -x/-y its size detached, -c its directory,
    -e its environment, -t a group: the windows of the group it joins), attached unless
    -d; -A attaches to the session -s names when there is one already, as
    attach-session would (-D detaching its other clients, -E leaving its environment as
    it is)."""
    server = context.server
    if context.depth and not context.size:
        flags = {**flags, "d": ""}  # from a file (start-server -f): detached, as in tmux
    if "d" not in flags and not context.size and not context.control:
        raise CommandError("open terminal failed: not a terminal")
    name = flags.get("s")
    if name is not None and (not name or ":" in name or "." in name):
        raise CommandError(f"invalid session name: {name}")
    if "A" in flags and name is not None and name in server.sessions:
        return _attach(context, server.sessions[name],
                       detach_others="D" in flags or "X" in flags,
                       hangup="X" in flags, update="E" not in flags, flags=flags)
    if name is not None and name in server.sessions:
        raise CommandError(f"duplicate session: {name}")
    group = None
    if "t" in flags:
        if args or "n" in flags:
            raise CommandError("command or window name given with target")
        group = _group_of(context, flags["t"])
    default_cols, _, default_rows = server.options.get("default-size").partition("x")
    cols = size_arg(flags.get("x", default_cols), "width")
    rows = size_arg(flags.get("y", default_rows), "height")
    cwd = working_directory(context, flags, None)
    extra: dict[str, str] = {}
    for assignment in flag_values(flags, "e"):
        key, equals, value = assignment.partition("=")
        if not equals:
            raise CommandError(f"invalid environment: {assignment}")
        extra[key] = value
    if "d" not in flags and context.size:
        cols, rows = context.size[0], max(1, context.size[1] - 1)  # the status line
    session = await server.new_session(name, cols, rows, args, context.env, cwd,
                                       flags.get("n"), extra,
                                       update_environment="E" not in flags, group=group)
    if "x" in flags or "y" in flags:  # its own default-size, as tmux sets it
        session.options["default-size"] = f"{cols}x{rows}"
    server.show_config_causes(session)
    info = new_object_info(flags, "#{session_name}:", server, session)
    return Result(stdout=info) if "d" in flags else Result(
        stdout=info, attach=session,
        client_flags=client_flags(flags, control=bool(context.control)))


def _group_of(context: Context, target: str) -> SessionGroup:
    """new-session -t: the group of the session -t names (a new one named after it when
    it has none), else the group of that name, else a new group of that name, as tmux's
    cmd_new_session looks."""
    server = context.server
    try:
        with_session = find_session(server, target)
    except CommandError:
        return server.groups.get(target) or SessionGroup(target)
    return with_session.group or SessionGroup(with_session.name, [with_session])


@command("attach-session")
async def attach_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The client attaches to -t's session: -d detaches its other clients, -E leaves
    its environment as it is, -c sets the directory its new windows start in."""
    session = await _live_or_resurrected(context, flags.get("t"))  # before the terminal
    cwd = working_directory(context, flags, session, fallback=False)
    if cwd is not None:
        session.path = cwd  # where its new windows start
    return _attach(context, session, detach_others="d" in flags or "x" in flags,
                   hangup="x" in flags, update="E" not in flags, flags=flags)


async def _live_or_resurrected(context: Context, target: str | None) -> Session:
    """attach's -t: an exited session of that exact name, resurrected first (before a
    live session the name is only a prefix of), else a live session as tmux finds it."""
    await bring_back(context, target)
    return find_session(context.server, target)


def client_flags(flags: dict[str, str], *, control: bool = False) -> frozenset[str]:
    """attach -r's read-only, and -f's flags (`set_client_flags`)."""
    chosen = {"read-only"} if "r" in flags else set()
    return frozenset(set_client_flags(chosen, flags.get("f", ""), control=control))


def _attach(context: Context, session: Session, *, detach_others: bool,
            update: bool, flags: dict[str, str] | None = None, hangup: bool = False
            ) -> Result:
    """The client attaches to `session`: its environment updated from the client's first
    (update-environment, unless `update` is off: -E), its other clients detached with
    `detach_others` (-d), their parents sent SIGHUP with `hangup` (-x)."""
    if not context.size and not context.control:
        raise CommandError("open terminal failed: not a terminal")
    if update:  # as tmux updates it from each attaching client
        session.environment.update_from(
            context.server.session_option(session, "update-environment").split(), context.env)
    if detach_others:
        for client in list(context.server.clients):
            if client.session is session:
                hang_up(client, hangup)
    return Result(attach=session,
                  client_flags=client_flags(flags or {}, control=bool(context.control)))


@command("has-session")
async def has_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    find_session(context.server, flags.get("t"))
    return Result()


LIST_FORMAT = (
    "#{session_name}: #{session_windows} windows (created #{session_created_string})"
    "#{?session_grouped, (group ,}#{session_group}#{?session_grouped,),}"
    "#{?session_attached, (attached),}"
    "#{?#{!=:#{snapshot_status},none}, (snapshot #{snapshot_status}),}"
    "#{?session_exited, (exited),}"
)
"""tmux's list-sessions line, and then how the session's environment snapshot stands
(nothing when none was asked for: the snapshots option is off), or that it exited (its
server died: `resurrect` brings it back)."""


@command("list-sessions")
async def list_sessions(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Every session, by name as tmux keeps them; -F a format, -f a filter."""
    server = context.server

    def item(session: Session) -> tuple[FormatVariables, ServerScope]:
        values, scope = format_target(server, session)
        values.update({"session_created_string": time.ctime(session.created)})
        return values, scope

    live = [item(session) for session in sorted(server.sessions.values(), key=lambda s: s.name)]
    gone, warnings = exited(context)
    result = listed(flags, LIST_FORMAT, [*live, *((exited_sessions.values(record), None)
                                                   for record in gone)])
    result.stderr = "".join(f"{line}\n" for line in warnings)
    return result



@command("kill-session")
async def kill_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target session; -a every other session instead; -C clears the alerts of its
    windows and kills nothing."""
    server = context.server
    target = (flags.get("t") or "").removeprefix("=")
    if (target and target not in server.sessions and "a" not in flags and "C" not in flags
            and records.forget(server.resurrection.where, target)):
        return Result()  # an exited session of that exact name: forgotten
    session = find_session(server, flags.get("t"))
    if "C" in flags:
        for window in session.windows:
            window.activity = window.bell = False
        server.refresh(session)
    elif "a" in flags:
        for other in [s for s in server.sessions.values() if s is not session]:
            server.kill_session(other)
    else:
        server.kill_session(session)
    return Result()


@command("kill-server")
async def kill_server(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    context.server.shutdown(on_purpose=True)
    return Result()


@command("start-server")
async def start_server(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Nothing more than starting the server (with its -f file); it stays only if that
    made a session, as tmux's."""
    return Result()


@command("rename-session")
async def rename_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session = find_session(context.server, flags.get("t"))
    name = one_name(args, "rename-session")
    if name != session.name and name in context.server.sessions:
        raise CommandError(f"duplicate session: {name}")
    if ":" in name or "." in name:
        raise CommandError(f"invalid session name: {name}")
    context.server.rename_session(session, name)
    context.server.refresh(session)
    return Result()
