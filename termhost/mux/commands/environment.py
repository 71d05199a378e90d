"""Environment verbs: set-environment and show-environment, over the global environment
(-g) or a session's (mux/environment.py), with tmux 3.3a's flags and messages."""

from __future__ import annotations

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    expand_at,
    find_session,
)
from termhost.mux.environment import Environment, Variable

_SHELL_SPECIAL = '$`"\\'
"""What show-environment -s escapes inside its double quotes, as tmux does."""


def _environment(context: Context, flags: dict[str, str]) -> Environment:
    if "g" in flags:
        return context.server.environment
    try:
        return find_session(context.server, flags.get("t")).environment
    except CommandError:  # tmux looks quietly, then names the whole target
        raise CommandError(f"no such session: {flags.get('t', '')}") from None


@command("set-environment")
async def set_environment(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Set NAME to VALUE (-F: a format), or unset it (-u: the global value shows through
    again), or mark it removed from new processes (-r); -h hides it from them."""
    name = args[0]
    if not name:
        raise CommandError("empty variable name")
    if "=" in name:
        raise CommandError("variable name contains =")
    environment = _environment(context, flags)
    value = args[1] if len(args) > 1 else None
    if "u" in flags or "r" in flags:
        if value is not None:
            raise CommandError(f"can't specify a value with -{'u' if 'u' in flags else 'r'}")
        if "u" in flags:
            environment.unset(name)
        else:
            environment.remove(name)
        return Result()
    if value is None:
        raise CommandError("no value specified")
    if "F" in flags:
        value = expand_at(context, value, flags.get("t"))
    environment.set(name, value, hidden="h" in flags)
    return Result()


@command("show-environment")
async def show_environment(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Every variable (or the one named) as NAME=value, `-NAME` when removed; -s as
    Bourne shell commands; -h the hidden ones instead of the others."""
    environment = _environment(context, flags)
    if args:
        variable = environment.get(args[0])
        if variable is None:
            raise CommandError(f"unknown variable: {args[0]}")
        shown = [variable] if variable.hidden == ("h" in flags) else []
    else:
        shown = [variable for variable in environment if variable.hidden == ("h" in flags)]
    return Result(stdout="".join(_line(variable, shell="s" in flags) + "\n"
                                 for variable in shown))


def _line(variable: Variable, *, shell: bool) -> str:
    if not shell:
        return f"-{variable.name}" if variable.value is None else \
            f"{variable.name}={variable.value}"
    if variable.value is None:
        return f"unset {variable.name};"
    value = "".join("\\" + char if char in _SHELL_SPECIAL else char for char in variable.value)
    return f'{variable.name}="{value}"; export {variable.name};'
