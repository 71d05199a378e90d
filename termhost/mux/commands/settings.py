"""Option verbs: set-option, set-window-option, show-options."""

from __future__ import annotations

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    find_pane,
)
from termhost.mux.options import OptionError
from termhost.mux.verbs import VERBS


@command("set-option")
async def set_option(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    # Server and session options are global: -g is accepted and implied for them.
    if not args or len(args) > 2:
        raise CommandError(f"usage: set-option {VERBS['set-option'].usage}")
    options = context.server.options
    value = args[1] if len(args) > 1 else ""
    try:
        if options.is_window_option(args[0]) and "g" not in flags:
            _, window, _ = find_pane(context.server, flags.get("t"))
            if "u" in flags:
                window.options.pop(args[0], None)
            else:
                window.options[args[0]] = options.check(args[0], value)
            context.server.refresh_all()
            return Result()
        if "u" in flags:
            options.reset(args[0])
        else:
            options.set(args[0], value)
    except OptionError as error:
        raise CommandError(str(error)) from None
    context.server.refresh_all()
    if args[0] == "window-size":  # sizes set by resize-window follow the clients again
        for session in context.server.sessions.values():
            session.manual_size = False
            context.server.fit_session(session)
    return Result()


@command("set-window-option")
async def set_window_option(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """setw: as set-option, as tmux 3 allows."""
    return await set_option(context, flags, args)


@command("show-options")
async def show_options(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    if len(args) > 1:
        raise CommandError("too many arguments (need at most 1)")
    options = context.server.options
    try:
        shown = [(args[0], options.get(args[0]))] if args else options.items()
    except OptionError as error:
        raise CommandError(str(error)) from None
    lines = [value if "v" in flags else f"{name} {_quoted(value)}" for name, value in shown]
    return Result(stdout="".join(line + "\n" for line in lines))


def _quoted(value: str) -> str:
    return value if value and " " not in value else f'"{value}"'
