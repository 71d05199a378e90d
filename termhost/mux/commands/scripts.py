"""Verbs for scripts: source-file (tmux command files) and wait-for (channels)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence

from termhost.mux import config
from termhost.mux.channels import Channel
from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    run_command,
)
from termhost.mux.verbs import VERBS

_SOURCE_DEPTH = 50
"""Files sourced inside each other at most, as tmux's limit."""


@command("source-file")
async def source_file(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Each file's tmux commands, every one run; errors as FILE:LINE: message."""
    if not args:
        raise CommandError(f"usage: source-file {VERBS['source-file'].usage}")
    if context.depth >= _SOURCE_DEPTH:
        raise CommandError("too many nested files")
    inner = dataclasses.replace(context, depth=context.depth + 1)

    async def run(argv: Sequence[str]) -> tuple[int, str, str]:
        result = await run_command(inner, argv)
        return result.status, result.stdout, result.stderr

    output, errors = "", []
    for path in args:
        path = os.path.join(context.cwd, path) if context.cwd else path
        printed, failed = await config.source(path, run, quiet="q" in flags,
                                              env=context.env or None)
        output += printed
        errors += failed
    return Result(stdout=output, stderr="".join(e + "\n" for e in errors), status=int(bool(errors)))


@command("wait-for")
async def wait_for(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """tmux's channels: wait until `-S` signals one (a signal nobody waits for is kept
    for the next wait), or `-L` lock and `-U` unlock it."""
    if len(args) != 1 or len(flags) > 1:
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
