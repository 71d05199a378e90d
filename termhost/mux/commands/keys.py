"""Key table verbs: bind-key, unbind-key, list-keys."""

from __future__ import annotations

from termhost.mux.bindings import is_mouse_key, key_name
from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    aliased,
    command,
)
from termhost.mux.commands.clients import find_client
from termhost.mux.lexer import LexError, split_commands
from termhost.mux.printing import Block, command_list
from termhost.mux.verbs import VERBS, lookup
from termhost.terminal.keys import KeyModes, UnknownKey, encode_key


def _key_table(flags: dict[str, str]) -> str:
    """-T TABLE (prefix by default; any name, a table of the user's own), -n for the
    root table."""
    return "root" if "n" in flags else flags.get("T", "prefix")


def _key_name(key: str, error: str = "unknown key") -> str:
    """The name tmux gives the key `key` names (`C-d` for `^D`, `Space` for ` `), as
    its key_string_lookup_string then key_string_lookup_key; else `error: KEY`."""
    if is_mouse_key(key):
        return key
    try:
        encode_key(key, KeyModes())
    except UnknownKey:
        raise CommandError(f"{error}: {key}") from None
    return key_name(key)


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
            raise CommandError(str(error)) from None
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
    keys' notes instead (see KeyTables.list_notes for -1, -a and -P, which only -N
    reads, as tmux 3.3a's). -1 shows its line in the current client's status line when
    there is one, as tmux's status_message_set."""
    key = _key_name(args[0], "invalid key") if args else None
    table = flags.get("T")
    tables = context.server.key_tables
    if table is not None and not tables.exists(table):
        raise CommandError(f"table {table} doesn't exist")
    if "N" in flags:
        lines = tables.list_notes(
            table, prefix=context.server.options.get("prefix"), start=flags.get("P"),
            key=key, every="a" in flags, first="1" in flags)
    else:
        lines = tables.list_keys(table, key=key)
    if args and not lines:
        raise CommandError(f"unknown key: {args[0]}")
    client = find_client(context, None, quiet=True) if "1" in flags and "N" in flags else None
    if client is None:
        return Result(stdout="".join(line + "\n" for line in lines))
    for line in lines:
        client.show_message(line)
    return Result()
