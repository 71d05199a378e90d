"""Key table verbs: bind-key, unbind-key, list-keys."""

from __future__ import annotations

from termhost.mux.bindings import TABLES
from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
)
from termhost.mux.lexer import LexError, split_commands
from termhost.mux.printing import Block, command_list
from termhost.mux.verbs import VERBS, lookup
from termhost.terminal.keys import KeyModes, UnknownKey, encode_key

_MOUSE_KEYS = ("WheelUpPane", "WheelDownPane")
"""Mouse keys a table can bind (copy mode scrolls with them) though no terminal types them."""


def _key_table(flags: dict[str, str]) -> str:
    """-T TABLE (prefix by default), -n for the root table."""
    table = "root" if "n" in flags else flags.get("T", "prefix")
    if table not in TABLES:
        raise CommandError(f"key table {table} is not supported (only {', '.join(TABLES)})")
    return table


def _key_name(key: str) -> str:
    if key in _MOUSE_KEYS:
        return key
    try:
        encode_key(key, KeyModes())
    except UnknownKey:
        raise CommandError(f"unknown key: {key}") from None
    return key


@command("bind-key")
async def bind_key(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A key in a table runs a tmux command (-r, repeat, is taken and ignored). In the
    copy-mode tables the command is copy mode's own, `send-keys -X NAME`."""
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
    unknown = next((argv[0] for argv in commands if lookup(argv[0]) is None), None)
    if unknown is not None:
        raise CommandError(f"unknown command: {unknown}")
    key = _key_name(args[0])
    command = command_list(commands)
    copying = len(commands) == 1 and commands[0][:2] in (["send-keys", "-X"], ["send", "-X"])
    if table.startswith("copy-mode") and not (copying and len(commands[0]) == 3):
        raise CommandError(f"copy mode keys run send-keys -X COMMAND, not: {command}")
    context.server.key_tables.bind(table, key, command, flags.get("N", ""))
    return Result()


@command("unbind-key")
async def unbind_key(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """One key, or with -a every key, no longer bound in the table."""
    table = _key_table(flags)
    if "a" in flags:
        context.server.key_tables.clear(table)
    elif len(args) == 1:
        context.server.key_tables.unbind(table, _key_name(args[0]))
    else:
        raise CommandError(f"usage: unbind-key {VERBS['unbind-key'].usage}")
    return Result()


@command("list-keys")
async def list_keys(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Every table, or the table -T, as tmux prints it (of one key, given one); -N the
    prefix keys' notes."""
    table = flags.get("T")
    if table is not None and table not in TABLES:
        raise CommandError(f"table {table} doesn't exist")
    lines = context.server.key_tables.list_keys(
        table, notes="N" in flags, prefix=context.server.options.get("prefix"),
        key=args[0] if args else None)
    if args and not lines:
        return Result(status=1)  # tmux: one key bound nowhere fails, saying nothing
    return Result(stdout="".join(line + "\n" for line in lines))
