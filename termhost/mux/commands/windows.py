"""Window verbs: new-window, list-windows, select-window (next-window, previous-window,
last-window), swap-window, move-window, kill-window, rename-window, resize-window."""

from __future__ import annotations

from termhost.mux.commands import (
    NEW_PANE_INFO,
    CommandError,
    Context,
    Result,
    assignments,
    command,
    find_destination,
    find_pane,
    find_session,
    find_source,
    listed,
    new_object_info,
    one_name,
    size_arg,
    working_directory,
)
from termhost.mux.format_scope import format_target
from termhost.mux.model import Session, Window
from termhost.mux.verbs import flag_values
from termhost.mux.visible import stravis


@command("new-window")
async def new_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """-t where, as tmux's: SESSION[:INDEX] (without an index, the lowest free one from
    base-index); -a/-b just after/before the target window, the windows from there up
    to the next gap moving up one; -k replaces the window at that index; -S selects the
    window named -n instead, when there is one; -e VAR=value for its environment; -d
    leaves the current window as it is."""
    server = context.server
    target = flags.get("t")
    if "a" in flags or "b" in flags:
        session, beside, _ = find_pane(server, target)
        index: int | None = _shuffle_up(session, beside, before="b" in flags)
    else:
        session, index = find_destination(server, target, find_session(server, None))
    name = flags.get("n")
    if "S" in flags and name is not None and index is None:
        named = [window for window in session.windows if window.name == name]
        if len(named) > 1:
            raise CommandError(f"multiple windows named {name}")
        if named:
            if "d" not in flags:
                _select(context, session, named[0], "")
            return Result()
    cwd = working_directory(context, flags, session)
    select = "d" not in flags
    there = next((w for w in session.windows if w.index == index), None)
    if there is not None:
        if "k" not in flags:
            raise CommandError(f"create window failed: index {index} in use")
        select = select or there is session.current  # its place is taken at once
        session.remove(there)
        server.kill_window(there)
    env = server.environ_of(session)
    env.update(assignments(flag_values(flags, "e")))
    window = await server.new_window(session, args, env, cwd, name, select=select,
                                     index=index)
    return Result(stdout=new_object_info(
        flags, NEW_PANE_INFO, server, session, window, window.active))


def _shuffle_up(session: Session, window: Window, *, before: bool) -> int:
    """tmux's winlink_shuffle_up: the index after `window` (its own with `before`) made
    free by moving the windows from it to the next free index up by one."""
    index = window.index if before else window.index + 1
    used = {w.index: w for w in session.windows}
    end = index
    while end in used:
        end += 1
    for moved in range(end - 1, index - 1, -1):
        used[moved].index += 1
    session.windows.sort(key=lambda w: w.index)
    return index


_WINDOW_LINE = ("#{window_index}: #{window_name}#{window_raw_flags} (#{window_panes} panes) "
                "[#{window_width}x#{window_height}] ")
"""list-windows' line, as tmux 3.3a's (-a puts the session's name before it)."""


@command("list-windows")
async def list_windows(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target session's windows, -a every session's; -F a format, -f a filter."""
    server = context.server
    if "a" in flags:
        windows = [(s, w) for s in sorted(server.sessions.values(), key=lambda s: s.name)
                   for w in s.windows]
        default = "#{session_name}:" + _WINDOW_LINE
    else:
        session = find_session(server, flags.get("t"))
        windows = [(session, window) for window in session.windows]
        default = (_WINDOW_LINE
                   + "[layout #{window_layout}] #{window_id}#{?window_active, (active),}")
    return listed(flags, default, (format_target(server, session, window)
                                   for session, window in windows))


@command("select-window")
async def select_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The window -t; -l the last one, -n the next, -p the previous (of -t's session);
    -T goes to the last window when -t is already current."""
    if "l" in flags or "n" in flags or "p" in flags:
        session = find_session(context.server, flags.get("t"))
        if "l" in flags:
            return _select(context, session, session.last, "last")
        step = 1 if "n" in flags else -1
        return _select(context, session, session.neighbour(step), _STEPS[step])
    session, window, _ = find_pane(context.server, flags.get("t"))
    if "T" in flags and window is session.current and session.last is not None:
        window = session.last
    return _select(context, session, window, "")


@command("next-window")
async def next_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The window after the current, round the end; -a the next with an alert."""
    session = find_session(context.server, flags.get("t"))
    return _select(context, session, session.neighbour(1, alerted="a" in flags), _STEPS[1])


@command("previous-window")
async def previous_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The window before the current, round the start; -a the previous with an alert."""
    session = find_session(context.server, flags.get("t"))
    return _select(context, session, session.neighbour(-1, alerted="a" in flags), _STEPS[-1])


@command("last-window")
async def last_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The window that was current before this one."""
    session = find_session(context.server, flags.get("t"))
    return _select(context, session, session.last, "last")


_STEPS = {1: "next", -1: "previous"}


def _select(context: Context, session: Session, window: Window | None, what: str) -> Result:
    """Make `window` current, or say there is no `what` window, in tmux's words."""
    if window is None:
        raise CommandError(f"no {what} window")
    session.select(window)
    context.server.refresh(session)
    return Result()


@command("swap-window")
async def swap_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The windows -s (the current one by default) and -t trade places. The current
    index stays current (so its new window is); -d makes -t's index current, as tmux
    3.3a does."""
    session, source, _ = find_source(context, flags)
    other, target, _ = find_pane(context.server, flags.get("t"))
    if other is not session:
        raise CommandError("swap-window between sessions is not supported yet")
    current = session.active_window.index
    source.index, target.index = target.index, source.index
    session.windows.sort(key=lambda window: window.index)
    chosen = source.index if "d" in flags else current  # -s now stands at -t's index
    session.select(next(w for w in session.windows if w.index == chosen))
    context.server.refresh(session)
    return Result()


@command("move-window")
async def move_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The window -s (the current one) to the index -t (the lowest free one when none is
    given; -a after, -b before -t's window, the others shuffled up), in -t's session,
    -k killing a window there first, else `index in use`; -r renumbers the session's
    windows in order from base-index instead."""
    server = context.server
    if "r" in flags:
        session = find_session(server, flags.get("t"))
        for offset, window in enumerate(session.windows):
            window.index = server.options.number("base-index") + offset
        server.refresh(session)
        return Result()
    session, window, _ = find_source(context, flags)
    if "a" in flags or "b" in flags:
        to, beside, _ = find_pane(server, flags.get("t"))
        if beside is window:
            return Result()
        index: int | None = _shuffle_up(to, beside, before="b" in flags)
    else:
        to, index = find_destination(server, flags.get("t"), session)
    there = next((w for w in to.windows if w.index == index), None)
    if there is window:
        return Result()
    if there is not None:
        if "k" not in flags:
            raise CommandError(f"index in use: {index}")
        to.remove(there)
        server.kill_window(there)
    if index is None:
        index = to.free_index(server.options.number("base-index"))
    if to is not session:
        server.move_window(session, window, to, index, select="d" not in flags)
        return Result()
    window.index = index
    session.windows.sort(key=lambda w: w.index)
    if "d" not in flags:
        session.select(window)
    server.refresh(session)
    return Result()


@command("kill-window")
async def kill_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target window; -a every other window of its session instead."""
    session, window, _ = find_pane(context.server, flags.get("t"))
    for killed in [w for w in session.windows if w is not window] if "a" in flags else [window]:
        context.server.kill_window(killed)
    return Result()


@command("resize-window")
async def resize_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """-x/-y a size, -A/-a the largest/smallest attached client's, -L/-R/-U/-D smaller or
    larger by `adjustment` (1): from then on the window keeps that size whatever the
    clients' (tmux makes its window-size manual). Windows share their session's size
    in termhost, so the whole session takes it."""
    server = context.server
    session, _, _ = find_pane(server, flags.get("t"))
    if args and not args[0].isdigit():
        raise CommandError(f"adjustment {args[0]} is invalid")
    step = int(args[0]) if args else 1
    cols, rows = session.cols, session.rows
    sizes = [(c.size.columns, c.body_rows)
             for c in server.clients if c.session is session]
    if sizes and ("A" in flags or "a" in flags):
        pick = max if "A" in flags else min
        cols, rows = pick(c for c, _ in sizes), pick(r for _, r in sizes)
    cols = size_arg(flags["x"], "width") if "x" in flags else cols
    rows = size_arg(flags["y"], "height") if "y" in flags else rows
    cols += step * (("R" in flags) - ("L" in flags))
    rows += step * (("D" in flags) - ("U" in flags))
    session.manual_size = True
    server.resize_session(session, max(1, cols), max(1, rows))
    return Result()


@command("rename-window")
async def rename_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session, window, _ = find_pane(context.server, flags.get("t"))
    window.name = stravis(one_name(args, "rename-window"))  # as tmux's window_set_name
    window.automatic_name = False  # a name given stays, as tmux turns automatic-rename off
    context.server.refresh(session)
    context.server.hook("window-renamed", session, window)
    return Result()


@command("respawn-window")
async def respawn_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A window whose panes have all ended (remain-on-exit) runs its first pane's
    command again, or `command`, in one pane; -k kills what still runs first."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    if "k" not in flags and any(not p.dead for p in window.panes):
        raise CommandError(
            f"respawn window failed: window {session.name}:{window.index} still active")
    env = context.server.environ_of(session)
    env.update(assignments(flag_values(flags, "e")))
    cwd = working_directory(context, flags, session, window, pane)
    await context.server.respawn_window(session, window, args, env, cwd)
    return Result()
