"""Key table verbs: bind-key, unbind-key, list-keys."""

from __future__ import annotations

import shlex

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
)
from termhost.mux.verbs import VERBS, lookup
from termhost.terminal.keys import KeyModes, UnknownKey, encode_key


def _key_table(flags: dict[str, str]) -> None:
    """-T prefix is the only table so far; -n (the root table) is refused, not ignored."""
    table = "root" if "n" in flags else flags.get("T", "prefix")
    if table != "prefix":
        raise CommandError(f"key table {table} is not supported yet (only prefix)")


def _key_name(key: str) -> str:
    try:
        encode_key(key, KeyModes())
    except UnknownKey:
        raise CommandError(f"unknown key: {key}") from None
    return key


@command("bind-key")
async def bind_key(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A key after the prefix runs a tmux command (-r, repeat, is taken and ignored)."""
    _key_table(flags)
    if len(args) < 2:
        raise CommandError(f"usage: bind-key {VERBS['bind-key'].usage}")
    if lookup(args[1]) is None:
        raise CommandError(f"unknown command: {args[1]}")
    key = _key_name(args[0])
    context.server.key_table.bind(key, shlex.join(args[1:]), flags.get("N", ""))
    return Result()


@command("unbind-key")
async def unbind_key(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """One key, or with -a every key, no longer bound after the prefix."""
    _key_table(flags)
    if "a" in flags:
        context.server.key_table.clear()
    elif len(args) == 1:
        context.server.key_table.unbind(_key_name(args[0]))
    else:
        raise CommandError(f"usage: unbind-key {VERBS['unbind-key'].usage}")
    return Result()


@command("list-keys")
async def list_keys(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The prefix table (the only one so far) as tmux prints it."""
    table = flags.get("T", "prefix")
    if table != "prefix":
        raise CommandError(f"table {table} doesn't exist")
    lines = context.server.key_table.list_keys(notes="N" in flags)
    return Result(stdout="".join(line + "\n" for line in lines))
