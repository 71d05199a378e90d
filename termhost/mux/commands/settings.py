"""Option verbs: set-option, set-window-option, show-options, as tmux 3.3a's.

termhost keeps one global value of each option, a session's own of the session options
(options.Scoped), a window's own of the window options and a pane's own of the pane
options (Pane.options); so -s, -w and -p choose what show-options lists, and the
option's own table entry decides where set-option puts it. Without -g, a session option
is the target session's own, and a user option (`@name`) too, or the target window's
with -w, the target pane's with -p.
"""

from __future__ import annotations

from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    expand_at,
    find_pane,
    find_session,
)
from termhost.mux.commands.hooks import listed_hooks
from termhost.mux.model import Session
from termhost.mux.options import (
    OptionError,
    Options,
    Scoped,
    UnknownOption,
    array_reference,
    is_user_option,
)
from termhost.mux.printing import escaped


@command("set-option")
async def set_option(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """-u unsets, -o refuses an option already set, -a appends to a string, -F expands
    formats in the value, -q says nothing of an unknown option; a flag or choice given
    no value toggles (Options.toggled), any other option needs one."""
    options = context.server.options
    name, index = array_reference(args[0])
    unset = "u" in flags or "U" in flags
    value = args[1] if len(args) > 1 else ""
    try:
        name = options.resolve(name)
        if len(args) < 2 and not unset and not options.is_choice(name):
            raise CommandError("empty value")
        own = _local_values(context, name, flags)
        held: Options | Scoped = options
        if own is None:
            held = _local_session(context, name, flags) or options
        if len(args) < 2 and not unset:
            current = own.get(name) if own is not None else None
            value = options.toggled(name, current or held.get(name))
        if "F" in flags:
            value = expand_at(context, value, flags.get("t"))
        if "o" in flags and (name in own if own is not None else held.is_set(name)):
            if "q" in flags:  # quietly left as it is, as tmux's (themes' `set -ogq`)
                return Result()
            raise CommandError(f"already set: {name}")
        if own is not None:
            if unset:
                own.pop(name, None)
            else:
                old = own.get(name, "")
                joined = old + value if "a" in flags and options.is_string(name) else value
                own[name] = options.check(name, joined)
        elif unset:
            held.reset(name, index)
        elif options.is_array(name):
            held.set(name, value, index=index, append="a" in flags)
        else:
            if "a" in flags and options.is_string(name):
                value = held.appended(name, value)
            held.set(name, value, index=index)
    except OptionError as error:
        if "q" in flags and isinstance(error, UnknownOption):
            return Result()
        raise CommandError(str(error)) from None
    context.server.refresh_all(sizes=not is_user_option(name))
    if name == "window-size":  # sizes set by resize-window follow the clients again
        for session in context.server.sessions.values():
            session.manual_size = False
            context.server.fit_session(session)
    return Result()


@command("set-window-option")
async def set_window_option(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """setw: as set-option -w, as tmux 3 allows."""
    return await set_option(context, {**flags, "w": ""}, args)


@command("show-options")
async def show_options(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """One option, or the options of a scope (-s server, -w window, -p pane, else the
    session's), as tmux prints them: strings escaped as a config file would read them
    back; -v the values alone; -q nothing for an unknown option. A window's (pane's)
    own values without -g: an option it does not set shows nothing, or with -A the
    value it inherits, marked `*`; a session's likewise, but a user option it does not
    set is unknown there. -H adds the scope's hooks."""
    options = context.server.options
    inherit = "A" in flags and "g" not in flags
    shown: list[tuple[str, str | None]]
    try:
        if args:
            name, index = array_reference(args[0])
            name = options.resolve(name)
            own = _local_values(context, name, flags, creating=False)
            scoped = _local_session(context, name, flags) if own is None else None
            if own is not None and name in own:
                shown = [(name, own[name])]
            elif own is not None and not inherit:
                shown = []
            elif own is not None and name in (parent := _parent_values(context, flags)):
                shown = _marked([(name, parent[name])], True)
            elif scoped is not None and (scoped.is_set(name) or not inherit):
                if not scoped.is_set(name) and is_user_option(name):
                    raise UnknownOption(f"invalid option: {name}")
                shown = scoped.shown(name, index)
            else:
                shown = _marked(options.shown(name, index), inherit)
        else:
            shown = _listed(context, flags, inherit)
    except OptionError as error:
        if "q" in flags:
            return Result()
        raise CommandError(str(error)) from None
    lines = [value if "v" in flags else f"{name} {_printed(context, name, value)}"
             for name, value in shown if value is not None]
    if "v" not in flags:  # an empty array: its name alone
        lines += [name for name, value in shown if value is None]
    hooks = listed_hooks(context, flags) if "H" in flags and not args else ""
    return Result(stdout="".join(line + "\n" for line in lines) + hooks)


@command("show-window-options")
async def show_window_options(context: Context, flags: dict[str, str],
                              args: list[str]) -> Result:
    """showw: as show-options -w."""
    return await show_options(context, {**flags, "w": ""}, args)


def _listed(context: Context, flags: dict[str, str], inherit: bool
            ) -> list[tuple[str, str | None]]:
    """A whole scope: the server's (-s), the global window and pane options (-gw), a
    window's own (-w), a pane's own (-p, -g or not, as tmux 3.3a), the global session
    options (-g), else the target session's own: with -A, and the options it inherits
    (a pane its window's values, then the global ones; a session not the global user
    options, as tmux)."""
    options = context.server.options
    if "s" in flags:
        return options.items(("server",))
    if "w" not in flags and "p" not in flags:
        return options.items(("session",)) if "g" in flags else _session_listed(
            context, flags, inherit)
    if "g" in flags and "p" not in flags:
        return options.items(("window", "pane"))
    if not context.server.sessions:
        return []
    _, window, pane = find_pane(context.server, flags.get("t"))
    values = pane.options if "p" in flags else window.options
    scopes = ("pane",) if "p" in flags else ("window", "pane")
    own: list[tuple[str, str | None]] = [
        (name, value) for name, value in sorted(values.items())
        if is_user_option(name) or options.scope(name) in scopes]
    if not inherit:
        return own
    local = dict(own)
    parent = window.options if "p" in flags else {}
    inherited = [(name, parent.get(name, value)) for name, value in options.items(scopes)
                 if name not in local]
    return sorted(own + _marked(inherited, True), key=_listing_order)


def _session_listed(context: Context, flags: dict[str, str], inherit: bool
                    ) -> list[tuple[str, str | None]]:
    """The target session's own options; with -A (inherit), and the session options it
    inherits (not the global user options, as tmux's)."""
    options = context.server.options
    own = Scoped(options, _target_session(context, flags).options).items(("session",))
    if not inherit:
        return own
    local = {array_reference(name)[0] for name, _ in own}
    inherited = [(name, value) for name, value in options.items(("session",))
                 if not is_user_option(name) and array_reference(name)[0] not in local]
    return sorted(own + _marked(inherited, True), key=_listing_order)


def _listing_order(item: tuple[str, str | None]) -> tuple[str, int]:
    """show-options' order: by name, an array's elements by index."""
    name, index = array_reference(item[0].rstrip("*"))
    return name, -1 if index is None else index


def _marked(shown: list[tuple[str, str | None]], inherit: bool
            ) -> list[tuple[str, str | None]]:
    """show-options -A: an inherited value's name marked `*`."""
    return [(f"{name}*", value) for name, value in shown] if inherit else shown


def _local_values(context: Context, name: str, flags: dict[str, str], *,
                  creating: bool = True) -> dict[str, str] | None:
    """The own values of the pane or window whose value of `name` this command sets or
    shows, or None for the global one: with -p, a pane option or a user option is the
    target pane's (-g or not, as tmux 3.3a's options_scope_from_flags takes -p first);
    else, without -g, a window option the target window's, a user option given -w too."""
    options = context.server.options
    user = is_user_option(name)
    if "p" in flags and (user or options.scope(name) == "pane") and context.server.sessions:
        return find_pane(context.server, flags.get("t"))[2].options
    if "g" in flags:
        return None
    per_window = options.is_window_option(name) if not user else "w" in flags or "p" in flags
    if not per_window:
        if not user and not creating:
            options.get(name)  # an unknown name is still an error
        return None
    if not context.server.sessions:
        return None  # no window yet (a configuration file): the global one
    _, window, _ = find_pane(context.server, flags.get("t"))
    return window.options


def _parent_values(context: Context, flags: dict[str, str]) -> dict[str, str]:
    """What a pane's own values inherit before the global ones (show -pA): its
    window's own."""
    if "p" not in flags or not context.server.sessions:
        return {}
    return find_pane(context.server, flags.get("t"))[1].options


def _local_session(context: Context, name: str, flags: dict[str, str]) -> Scoped | None:
    """The options of the session whose own value of `name` this command sets or shows,
    or None for the global one: without -g, a session option, or a user option given
    none of -w, -p, -s (as tmux's options_scope_from_name)."""
    if "g" in flags:
        return None
    if is_user_option(name):
        if any(letter in flags for letter in "wps"):
            return None
    elif context.server.options.scope(name) != "session":
        return None
    return Scoped(context.server.options, _target_session(context, flags).options)


def _target_session(context: Context, flags: dict[str, str]) -> Session:
    """-t as a session, in set-option's and show-options' words when there is none."""
    if not context.server.sessions:
        raise CommandError("no current session")
    target = flags.get("t")
    try:
        return find_session(context.server, target)
    except CommandError:
        raise CommandError(f"no such session: {target}") from None


def _is_string(context: Context, name: str) -> bool:
    try:
        return context.server.options.is_string(name)
    except OptionError:
        return False


def _printed(context: Context, name: str, value: str) -> str:
    """A string option's value escaped as tmux escapes it (args_escape); others as is."""
    return escaped(value) if _is_string(context, array_reference(name.rstrip("*"))[0]) else value
