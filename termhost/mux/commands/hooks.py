"""Hook verbs, set-hook and show-hooks, and the running of a hook, as tmux 3.3a's.

A hook's commands run as a command line's do, in the context of the event's session
(and window, pane), with `#{hook}`, `#{hook_session_name}`, `#{hook_window_name}` and
the rest for their formats; nothing they run fires hooks of its own (tmux's
CMDQ_STATE_NOHOOKS). An `after-` hook runs once its command has succeeded, and what it
prints goes to that command's client; the events' hooks run in the background.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os

from termhost.mux.commands import CommandError, Context, Result, command, find_pane
from termhost.mux.hooks import SESSION_HOOKS, WINDOW_HOOKS, Hooks, is_hook
from termhost.mux.lexer import LexError, split_commands
from termhost.mux.model import Session, Window
from termhost.mux.options import array_reference
from termhost.mux.pane import Pane
from termhost.mux.printing import command_list
from termhost.mux.verbs import lookup

__all__ = ["fire_hook", "run_hook"]


def _scope(context: Context, flags: dict[str, str], name: str | None = None) -> Hooks:
    """-g the global hooks; else, for a hook `name`, where its kind lives (the target
    window's for a window hook, the session's for a session hook: -w and -p change
    nothing then, as tmux's options_scope_from_name), and for a listing the target
    window's (-w, -p) or session's."""
    server = context.server
    if "g" in flags:
        return server.hooks
    session, window, _ = find_pane(server, flags.get("t"))
    in_window = name in WINDOW_HOOKS if name is not None else "w" in flags or "p" in flags
    return window.hooks if in_window else session.hooks


@command("set-hook")
async def set_hook(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """`hook[N]` set to a command (-a: added after the others), -u unset; -R runs the
    hook now instead. The command is parsed now, and kept as tmux prints it."""
    name, index = array_reference(args[0])
    if not is_hook(name):
        raise CommandError(f"invalid option: {args[0]}")
    if "R" in flags:
        session, window, pane = find_pane(context.server, flags.get("t"))
        result = await run_hook(context, name, session, window, pane)
        return dataclasses.replace(result, status=0)
    scope = _scope(context, flags, name)
    if "u" in flags:
        scope.unset(name, index)
        return Result()
    if len(args) < 2 or not args[1]:
        raise CommandError("empty value")
    try:
        commands = split_commands(args[1], {**os.environ, **context.env})
    except LexError as error:
        raise CommandError(str(error)) from None
    for argv in commands:
        if argv and lookup(argv[0]) is None:
            raise CommandError(f"unknown command: {argv[0]}")
    scope.set(name, command_list(commands), index=index, append="a" in flags)
    return Result()


@command("show-hooks")
async def show_hooks(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The hooks of a scope as tmux lists them: -g every hook name, with its commands as
    `name[N] command` (-w: the window and pane ones); else those the target session
    (window) sets. A hook name shows that one alone."""
    scope = _scope(context, flags, array_reference(args[0])[0] if args else None)
    names: tuple[str, ...] | None = None
    if "g" in flags:
        names = WINDOW_HOOKS if "w" in flags or "p" in flags else SESSION_HOOKS
    if args:
        name, index = array_reference(args[0])
        if not is_hook(name):
            raise CommandError(f"invalid option: {args[0]}")
        if index is not None:  # one element: its command, or nothing after the name;
            # nothing at all from a scope that does not set the hook (tmux's
            # options_get_only finds no option there)
            if "g" not in flags and not scope.sets(name):
                return Result()
            return Result(stdout=f"{name}[{index}] {scope.command_at(name, index)}\n")
        names = (name,) if "g" in flags or scope.commands(name) is not None else ()
    return Result(stdout=hook_lines(scope, names))


def hook_lines(scope: Hooks, names: tuple[str, ...] | None) -> str:
    """show-hooks' (and show-options -H's) lines for `names` of `scope`."""
    return "".join(line + "\n" for line in scope.shown(names))


def listed_hooks(context: Context, flags: dict[str, str]) -> str:
    """show-options -H: the hooks of the same scope, after its options."""
    names = (WINDOW_HOOKS if "w" in flags or "p" in flags else SESSION_HOOKS
             ) if "g" in flags else None
    return hook_lines(_scope(context, flags), names)


def _commands(context: Context, name: str, session: Session,
              window: Window | None) -> list[str]:
    """The hook's commands where it is looked up: the window's (a window hook) or the
    session's, else the global ones."""
    own = window.hooks if name in WINDOW_HOOKS and window is not None else session.hooks
    found = own.commands(name)
    if found is None:
        found = context.server.hooks.commands(name)
    return found or []


async def run_hook(context: Context, name: str, session: Session,
                   window: Window | None = None, pane: Pane | None = None) -> Result:
    """Run hook `name` for an event of `session` (`window`, `pane`): its commands in
    turn, what they print gathered; an error stops that command's line, not the hook."""
    if context.no_hooks:
        return Result()
    commands = _commands(context, name, session, window)
    if not commands:
        return Result()
    from termhost.mux.commands.scripts import run_command_string

    inside = dataclasses.replace(context, no_hooks=True, formats=_formats(name, session,
                                                                          window, pane))
    # the commands target the event's session and pane while they are there (a closed
    # session's hook runs with the current one, as in tmux)
    server = context.server
    alive = server.sessions.get(session.name) is session
    inside.session = session if alive else None
    inside.pane = pane if alive and window in session.windows and pane in (
        window.panes if window is not None else ()) else None
    result = Result()
    for text in commands:
        try:
            done = await run_command_string(inside, text)
        except CommandError as error:
            done = Result(stderr=f"{error}\n", status=1)
        result = Result(stdout=result.stdout + done.stdout, stderr=result.stderr + done.stderr,
                        status=result.status or done.status)
    return result


def _formats(name: str, session: Session, window: Window | None,
             pane: Pane | None) -> dict[str, str]:
    """The #{hook_*} variables, as tmux's notify_insert_hook gives each kind of event:
    a session's (session-*, client-*, alert-*), a session's window (window-linked and
    -unlinked), a window's (window-renamed...), a pane's; an after- hook has #{hook}."""
    formats = {"hook": name}
    if name.startswith("after-"):
        return formats
    if name.startswith("pane-"):
        if pane is not None:
            formats["hook_pane"] = pane.name
        return formats
    if name in WINDOW_HOOKS:
        if window is not None:
            formats.update(hook_window=f"@{window.id}", hook_window_name=window.name)
        return formats
    formats.update(hook_session=f"${session.id}", hook_session_name=session.name)
    if window is not None and name in ("window-linked", "window-unlinked"):
        formats.update(hook_window=f"@{window.id}", hook_window_name=window.name)
    return formats


_RUNNING: set[asyncio.Task[Result]] = set()
"""Event hooks under way: held so that they are not collected before they end."""


def fire_hook(context: Context, name: str, session: Session, window: Window | None = None,
              pane: Pane | None = None) -> None:
    """Run hook `name` in the background, for an event (session-created, pane-exited...)."""
    if _commands(context, name, session, window):
        task = asyncio.get_running_loop().create_task(
            run_hook(context, name, session, window, pane))
        _RUNNING.add(task)
        task.add_done_callback(_RUNNING.discard)
