"""server-access: the server's access list (mux/access.py) changed or listed, as tmux 3.3a's
cmd-server-access.c, its checks in its order and its words."""

from __future__ import annotations

import pwd

from termhost.mux.commands import CommandError, Context, Result, command, expand_at


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return "unknown"


@command("server-access")
async def server_access(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """-l lists; -a gives access (writable unless -r), -d takes it away and detaches that
    user's clients; -r and -w make its clients read-only or writable, adding the user
    first if needed. The owner and root are never changed."""
    access = context.server.access
    if "l" in flags:
        return Result(stdout="".join(f"{_user_name(uid)} ({'R' if read_only else 'W'})\n"
                                     for uid, read_only in access.entries() if uid != 0))
    if not args:
        raise CommandError("missing user argument")
    name = expand_at(context, args[0], None)
    try:
        user = pwd.getpwnam(name) if name else None
    except KeyError:
        user = None
    if user is None:
        raise CommandError(f"unknown user: {name}")
    uid = user.pw_uid
    if access.owns(uid):
        raise CommandError(f"{user.pw_name} owns the server, can't change access")
    if "a" in flags and "d" in flags:
        raise CommandError("-a and -d cannot be used together")
    if "r" in flags and "w" in flags:
        raise CommandError("-r and -w cannot be used together")
    if "d" in flags:
        if not access.listed(uid):
            raise CommandError(f"user {user.pw_name} not found")
        for client in list(context.server.clients):
            if client.uid == uid:
                client.detach("access not allowed")
        access.deny(uid)
        return Result()
    if "a" in flags and access.listed(uid):
        raise CommandError(f"user {user.pw_name} is already added")
    if "a" in flags or "r" in flags or "w" in flags:
        access.allow(uid)
    if "r" in flags or "w" in flags:
        access.set_read_only(uid, "r" in flags)
        for client in context.server.clients:
            if client.uid == uid:
                if "r" in flags:
                    client.flags.add("read-only")
                else:
                    client.flags.discard("read-only")
    return Result()
