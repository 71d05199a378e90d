"""pipe-pane: a pane's output to a shell command, and/or the command's output typed into
the pane (the pipe itself is mux/pane_pipe.py)."""

from __future__ import annotations

from termhost.mux.commands import CommandError, Context, Result, command, find_pane
from termhost.mux.format_scope import format_target
from termhost.mux.formats import expand
from termhost.mux.pane_pipe import PanePipe, pipe_of

__all__ = ["pipe_pane"]


@command("pipe-pane")
async def pipe_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """As tmux's: an open pipe is closed first; no command (or an empty one) stops there,
    and so does -o when a pipe was open, which makes one key toggle a pipe. -O (the
    default) feeds the command the pane's output, -I types what it prints, -IO both. The
    command's formats expand for the pane, strftime's too (`cat >>~/#W-%F.log`)."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    if pane.dead or pane.closed:
        raise CommandError("target pane has exited")
    old = pipe_of(pane)
    if old is not None:
        old.close()
    if not args or not args[0] or ("o" in flags and old is not None):
        return Result()
    values, scope = format_target(context.server, session, window, pane)
    values.update(context.formats)
    shell_command = expand(args[0], values, scope=scope, strftime=True)
    from_command = "I" in flags
    try:
        await PanePipe.open(pane, shell_command, to_command="O" in flags or not from_command,
                            from_command=from_command)
    except (OSError, ValueError) as error:
        raise CommandError(f"fork error: {error}") from None
    return Result()
