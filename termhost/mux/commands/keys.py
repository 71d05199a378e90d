"""Key table verbs: bind-key, unbind-key, list-keys."""

from __future__ import annotations

import re

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    aliased,
    command,
)
from termhost.mux.lexer import LexError, split_commands
from termhost.mux.printing import Block, command_list
from termhost.mux.verbs import VERBS, lookup
from termhost.terminal.keys import KeyModes, UnknownKey, encode_key

_MOUSE_KEYS = ("WheelUpPane", "WheelDownPane")
"""Mouse keys a table can bind (copy mode scrolls with them) though no terminal types them."""
_MOUSE_KEY = re.compile(
    r"(?:(?:Mouse(?:Down|Up|Drag|DragEnd)|(?:Second|Double|Triple)Click)[123]|Wheel(?:Up|Down))"
    r"(?:Pane|Border|Status|StatusLeft|StatusRight|StatusDefault)")
"""tmux's names of mouse keys (key_string_lookup_string), with their C-, M-, S- prefixes."""


def _key_table(flags: dict[str, str]) -> str:
    """-T TABLE (prefix by default; any name, a table of the user's own), -n for the
    root table."""
    return "root" if "n" in flags else flags.get("T", "prefix")


def _key_name(key: str) -> str:
    if key in _MOUSE_KEYS or _MOUSE_KEY.fullmatch(key.removeprefix("C-").removeprefix(
            "M-").removeprefix("S-")):
        return key
    try:
        encode_key(key, KeyModes())
    except UnknownKey:
        raise CommandError(f"unknown key: {key}") from None
    return key


@command("bind-key")
async def bind_key(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A key in a table runs a tmux command; -r lets it repeat (for repeat-time, the
    next key in that table needs no prefix). In the copy-mode tables it is mostly copy
    mode's own (`send-keys -X NAME [ARGUMENT]`), but may be any command."""
    table = _key_table(flags)
    if len(args) == 1:
        context.server.key_tables.annotate(table, _key_name(args[0]), flags.get("N", ""))
        return Result()
    words = args[1:]
    if len(words) > 1:
        commands = [words]  # `;` words within, as command_line prints them
    elif isinstance(words[0], Block):
        commands = words[0].commands
    else:  # one argument is a command line (`bind x "display hi ; neww"`), as tmux's
        try:  # args_make_commands parses it
            commands = split_commands(words[0], context.env)
        except LexError as error:
            raise CommandError(f"syntax error: {error}") from None
    commands = [aliased(context.server, argv) for argv in commands]
    unknown = next((argv[0] for argv in commands if lookup(argv[0]) is None), None)
    if unknown is not None:
        raise CommandError(f"unknown command: {unknown}")
    key = _key_name(args[0])
    command = command_list(commands)
    context.server.key_tables.bind(table, key, command, flags.get("N", ""), repeat="r" in flags)
    return Result()


@command("unbind-key")
async def unbind_key(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """One key, or with -a every key, no longer bound in the table; -q says nothing of a
    table or key that is not there."""
    table = _key_table(flags)
    tables = context.server.key_tables
    try:
        if len(args) > 1 or (not args and "a" not in flags):
            raise CommandError(f"usage: unbind-key {VERBS['unbind-key'].usage}")
        key = _key_name(args[0]) if args and "a" not in flags else None
        if not tables.exists(table) and "n" not in flags:
            raise CommandError(f"table {table} doesn't exist")
    except CommandError:
        if "q" in flags:
            return Result()
        raise
    if key is None:
        tables.clear(table)
    else:
        tables.unbind(table, key)
    return Result()


@command("list-keys")
async def list_keys(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Every table, or the table -T, as tmux prints it (of one key, given one); -N the
    prefix keys' notes."""
    table = flags.get("T")
    if table is not None and not context.server.key_tables.exists(table):
        raise CommandError(f"table {table} doesn't exist")
    lines = context.server.key_tables.list_keys(
        table, notes="N" in flags, prefix=context.server.options.get("prefix"),
        key=args[0] if args else None)
    if args and not lines:
        return Result(status=1)  # tmux: one key bound nowhere fails, saying nothing
    return Result(stdout="".join(line + "\n" for line in lines))
