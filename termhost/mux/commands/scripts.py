"""Verbs for scripts: source-file (tmux command files), if-shell and run-shell (shell
commands, and tmux commands run on their outcome), list-commands, wait-for (channels)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import glob
import os
from collections.abc import Coroutine, Sequence
from typing import Any

from termhost.mux import config
from termhost.mux.channels import Channel
from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    aliased,
    command,
    expand_at,
    read_stdin,
    run_command,
)
from termhost.mux.formats import expand
from termhost.mux.lexer import LexError, split_commands
from termhost.mux.shell import run_shell
from termhost.mux.verbs import VERBS, UsageError, lookup, parse_flags

_SOURCE_DEPTH = 50
"""Files sourced inside each other at most, as tmux's limit."""


@command("source-file")
async def source_file(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Each file's tmux commands, checked then run (config.py); a path may be a glob(3)
    pattern (each file it matches, in order), with -F a format first; -n parses without
    running, -v prints each line's commands as FILE:LINE: COMMAND. `$NAME` in a file is
    the global environment's, and its `NAME=value` lines set variables there, as tmux's.

    To a client that asked (a command line, a binding, the prompt), a file refused whole
    is output, as tmux's cfg_print_causes, and its commands' errors are said as they are.
    With no client (the file the server starts with) each error is FILE:LINE: message,
    for the first session to show."""
    if context.depth >= _SOURCE_DEPTH:
        raise CommandError("too many nested files")
    inner = dataclasses.replace(context, depth=context.depth + 1)
    server = context.server

    async def run(argv: Sequence[str]) -> tuple[int, str, str]:
        result = await run_command(inner, argv)
        return result.status, result.stdout, result.stderr

    def assign(name: str, value: str, hidden: bool) -> None:
        server.environment.set(name, value, hidden=hidden)

    client = context.client is not None or context.command_line
    output = ""
    refused: list[str] = []
    errors: list[str] = []
    for path in args:
        if "F" in flags:
            path = expand_at(context, path, None)
        if path == "-":  # `... | tmux source -`: the client's stdin, as a file named -
            text = (await read_stdin(context)).decode("utf-8", "surrogateescape")
            found, stdin_text = ["-"], text
        else:
            pattern = os.path.join(context.cwd, path) if context.cwd else path
            found, stdin_text = sorted(glob.glob(pattern)), None
        if not found and "q" not in flags:
            errors.append(f"{path}: No such file or directory")
        for name in found:
            env = {variable.name: variable.value for variable in server.environment
                   if variable.value is not None}  # with what the files before set
            sourced = await config.source(
                name, run, functools.partial(_refusal, context), client=client,
                quiet="q" in flags, env=env, assign=None if "n" in flags else assign,
                verbose="v" in flags, parse_only="n" in flags, text=stdin_text)
            output += sourced.output
            refused += sourced.refused
            errors += sourced.errors
    if client:
        output += "".join(line + "\n" for line in refused)
    else:
        errors = refused + errors
    return Result(stdout=output, stderr="".join(e + "\n" for e in errors),
                  status=int(bool(errors or refused)))


def _refusal(context: Context, argv: Sequence[str]) -> str | None:
    """Why tmux would not build the command `argv` (a file with one runs nothing): no
    such verb, or flags and arguments it does not take. A flag termhost does not act on
    yet is tmux's all the same: that command fails when run, the rest of the file runs."""
    words = aliased(context.server, argv)
    verb = lookup(words[0])
    if verb is None:
        return f"unknown command: {words[0]}"
    try:
        parse_flags(verb, words[1:])
    except UsageError as error:
        return str(error)
    return None


@command("if-shell")
async def if_shell(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Run the first command if the shell command succeeds (-F: if the format is true),
    else the second if given; -b does not wait. Formats in the shell command expand
    first, as tmux's do."""
    condition = expand_at(context, args[0], flags.get("t"))

    async def decide() -> Result:
        if "F" in flags:
            true = condition not in ("", "0")
        else:
            status, _ = await run_shell(condition, _shell_env(context), context.cwd)
            true = status.returncode == 0
        chosen = args[1] if true else (args[2] if len(args) > 2 else None)
        return await run_command_string(context, chosen) if chosen is not None else Result()

    if "b" in flags:
        _in_background(decide())
        return Result()
    return await decide()


@command("run-shell")
async def run_shell_command(context: Context, flags: dict[str, str], args: list[str]
                            ) -> Result:
    """Run a shell command (formats expanded) and print its output; its exit status is
    the command's, and a failure says so as tmux does (`'CMD' returned N`). -C runs a
    tmux command instead, -b does not wait, -d waits first."""
    delay = flags.get("d")
    if delay is not None:
        try:
            seconds = float(delay)
        except ValueError:
            raise CommandError(f"invalid delay time: {delay}") from None
    text = expand_at(context, args[0], flags.get("t")) if args else ""

    async def run() -> Result:
        if delay is not None:
            await asyncio.sleep(seconds)  # run-shell -d: the delay asked for
        if not text:
            return Result()
        if "C" in flags:
            return await run_command_string(context, text)
        status, output = await run_shell(text, _shell_env(context), flags.get("c", context.cwd))
        if status.returncode == 0:
            return Result(stdout=output)
        if status.returncode > 0:
            code, how = status.returncode, f"returned {status.returncode}"
        else:
            code, how = 128 - status.returncode, f"terminated by signal {-status.returncode}"
        return Result(stdout=output, stderr=f"'{text}' {how}\n", status=code)

    if "b" in flags:
        _in_background(run())
        return Result()
    return await run()


@command("send-prefix")
async def send_prefix(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The prefix key (-2: prefix2) typed into the pane, as if it were not the prefix."""
    prefix = context.server.options.get("prefix2" if "2" in flags else "prefix")
    if prefix.lower() == "none":
        return Result()
    target = flags.get("t")
    return await run_command(context, ["send-keys", *(["-t", target] if target else []),
                                       prefix])


async def run_command_string(context: Context, text: str) -> Result:
    """A command given as one argument (`if-shell`'s, `run-shell -C`'s), parsed as a
    configuration line is, its commands run in turn until one fails."""
    try:
        commands = split_commands(text, {**os.environ, **context.env})
    except LexError as error:
        raise CommandError(str(error)) from None
    result = Result()
    for argv in commands:
        done = await run_command(context, argv)
        result = dataclasses.replace(done, stdout=result.stdout + done.stdout)
        if done.status:
            break
    return result


_BACKGROUND: set[asyncio.Task[Result]] = set()
"""-b commands under way: held so that they are not collected before they end."""


def _in_background(work: Coroutine[Any, Any, Result]) -> None:
    task = asyncio.get_running_loop().create_task(work)
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


def _shell_env(context: Context) -> dict[str, str]:
    """The shell command's environment: the server's, and the client's over it."""
    return {**os.environ, **context.env}


@command("list-commands")
async def list_commands(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Every verb in the table's order (or the one named: by its name or an alias, never
    a prefix), as tmux lists them: name, tmux's alias, usage; -F with
    #{command_list_name}, _alias and _usage."""
    verbs = [verb for verb in VERBS.values() if not args or args[0] in (verb.name, *verb.aliases)]
    template = flags.get("F", _COMMAND_LIST_FORMAT)
    lines = [expand(template, {"command_list_name": verb.name,
                               "command_list_alias": verb.aliases[0] if verb.aliases else "",
                               "command_list_usage": verb.usage})
             for verb in verbs]
    return Result(stdout="".join(line + "\n" for line in lines))


_COMMAND_LIST_FORMAT = ("#{command_list_name}#{?command_list_alias, (#{command_list_alias}),} "
                        "#{command_list_usage}")
"""list-commands' lines, as tmux's default format has them."""


@command("wait-for")
async def wait_for(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """tmux's channels: wait until `-S` signals one (a signal nobody waits for is kept
    for the next wait), or `-L` lock and `-U` unlock it."""
    if len(flags) > 1:
        raise CommandError(f"usage: wait-for {VERBS['wait-for'].usage}")
    channel = context.server.channels.setdefault(args[0], Channel())
    if "S" in flags:
        channel.signal()
    elif "L" in flags:
        await channel.lock()
    elif "U" in flags:
        if not channel.unlock():
            raise CommandError(f"channel {args[0]} not locked")
    else:
        await channel.wait()
    return Result()
