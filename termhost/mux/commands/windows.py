"""Window verbs: new-window, list-windows, select-window (next-window, previous-window,
last-window), swap-window, move-window, link-window, unlink-window, kill-window,
rename-window, resize-window."""

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
    find_source_link,
    find_winlink,
    listed,
    new_object_info,
    one_name,
    size_arg,
    working_directory,
)
from termhost.mux.format_scope import format_target
from termhost.mux.model import Session, Winlink
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
        session, beside, _ = find_winlink(server, target)
        index: int | None = session.shuffle_up(beside, before="b" in flags)
    else:
        session, index = find_destination(server, target, find_session(server, None))
    name = flags.get("n")
    if "S" in flags and name is not None and index is None:
        named = [link for link in session.links if link.window.name == name]
        if len(named) > 1:
            raise CommandError(f"multiple windows named {name}")
        if named:
            if "d" not in flags:
                _select(context, session, named[0], "")
            return Result()
    cwd = working_directory(context, flags, session)
    select = "d" not in flags
    there = session.link_at(index) if index is not None else None
    if there is not None:
        if "k" not in flags:
            raise CommandError(f"create window failed: index {index} in use")
        select = select or there is session.current  # its place is taken at once
        _kill_place(context, session, there)
    env = server.environ_of(session)
    env.update(assignments(flag_values(flags, "e")))
    window = await server.new_window(session, args, env, cwd, name, select=select,
                                     index=index)
    return Result(stdout=new_object_info(
        flags, NEW_PANE_INFO, server, session, window, window.active))


def _kill_place(context: Context, session: Session, link: Winlink) -> None:
    """-k: the window at `link` goes from there, and is killed unless it is linked
    elsewhere too, as tmux's server_link_window with killflag."""
    session.unlink(link)
    if not context.server.sessions_of(link.window):
        context.server.kill_window(link.window)


_WINDOW_LINE = ("#{window_index}: #{window_name}#{window_raw_flags} (#{window_panes} panes) "
                "[#{window_width}x#{window_height}] ")
"""list-windows' line, as tmux 3.3a's (-a puts the session's name before it)."""


@command("list-windows")
async def list_windows(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target session's windows, -a every session's; -F a format, -f a filter. A
    window linked at several places is listed at each, as tmux's."""
    server = context.server
    if "a" in flags:
        links = [(s, link) for s in sorted(server.sessions.values(), key=lambda s: s.name)
                 for link in s.links]
        default = "#{session_name}:" + _WINDOW_LINE
    else:
        session = find_session(server, flags.get("t"))
        links = [(session, link) for link in session.links]
        default = (_WINDOW_LINE
                   + "[layout #{window_layout}] #{window_id}#{?window_active, (active),}")
    return listed(flags, default, (format_target(server, session, link.window, link=link)
                                   for session, link in links))


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
    session, link, _ = find_winlink(context.server, flags.get("t"))
    if "T" in flags and link is session.current and session.last is not None:
        link = session.last
    return _select(context, session, link, "")


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


def _select(context: Context, session: Session, link: Winlink | None, what: str) -> Result:
    """Make `link` current, or say there is no `what` window, in tmux's words."""
    if link is None:
        raise CommandError(f"no {what} window")
    session.select(link)
    context.server.refresh(session)
    return Result()


@command("swap-window")
async def swap_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The windows at -s (the current one by default) and -t trade places, in one
    session or across two. The current indices stay current (so their new windows
    are); -d makes -t's index current (and -s's in its session), as tmux 3.3a does."""
    server = context.server
    session, source, _ = find_source_link(context, flags)
    other, target, _ = find_winlink(server, flags.get("t"))
    if source.window is target.window:
        return Result()
    source.window, target.window = target.window, source.window
    if "d" in flags:
        other.select(target)
        if other is not session:
            session.select(source)
    for each in {session.id: session, other.id: other}.values():
        server.synchronize_group(each)
        server.fit_session(each)
        server.refresh(each)
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
        for offset, link in enumerate(session.links):
            link.index = int(server.session_option(session, "base-index")) + offset
        server.refresh(session)  # not the group's others: tmux's session_renumber_windows
        return Result()
    session, link, _ = find_source_link(context, flags)
    to, index = _link_destination(context, flags, link)
    if index is None:
        index = to.free_index(int(server.session_option(to, "base-index")))
    server.move_window(session, link, to, index, select="d" not in flags)
    return Result()


@command("link-window")
async def link_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The window -s (the current one) also at the index -t (the lowest free one from
    base-index when none is given; -a after, -b before -t's window, the others shuffled
    up), -k killing a window there first, else `index in use`; -d does not select it."""
    server = context.server
    _, link, _ = find_source_link(context, flags)
    to, index = _link_destination(context, flags, link)
    if index is None:
        index = to.free_index(int(server.session_option(to, "base-index")))
    server.link_window(link.window, to, index, select="d" not in flags)
    return Result()


def _link_destination(context: Context, flags: dict[str, str], link: Winlink
                      ) -> tuple[Session, int | None]:
    """Where move-window and link-window put the window at `link`: -t's session and
    index, made free (-a, -b, -k), as tmux's server_link_window checks it."""
    server = context.server
    if "a" in flags or "b" in flags:
        to, beside, _ = find_winlink(server, flags.get("t"))
        return to, to.shuffle_up(beside, before="b" in flags)
    to, index = find_destination(server, flags.get("t"), find_session(server, None))
    there = to.link_at(index) if index is not None else None
    if there is not None:
        if there.window is link.window:
            raise CommandError(f"same index: {index}")
        if "k" not in flags:
            raise CommandError(f"index in use: {index}")
        _kill_place(context, to, there)
    return to, index


@command("unlink-window")
async def unlink_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The window -t leaves that place; a window only there stays unless -k, which
    destroys it, as tmux's (windows are never left in no session)."""
    server = context.server
    session, link, _ = find_winlink(server, flags.get("t"))
    places = sum(each.window is link.window for s in server.sessions.values()
                 for each in s.links)
    group = len(session.group.sessions) if session.group is not None else 1
    if places == group and "k" not in flags:  # as tmux's session_is_linked
        raise CommandError("window only linked to one session")
    server.unlink_window(session, link.window, link)
    if not server.sessions_of(link.window):
        server.kill_window(link.window)
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
    elif "A" in flags or "a" in flags:  # no client: the session's default-size, as tmux
        width, _, height = server.session_option(session, "default-size").partition("x")
        cols, rows = int(width), int(height)
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
            f"respawn window failed: window {session.name}:{session.index_of(window)} "
            "still active")
    env = context.server.environ_of(session)
    env.update(assignments(flag_values(flags, "e")))
    cwd = working_directory(context, flags, session, window, pane)
    await context.server.respawn_window(session, window, args, env, cwd)
    return Result()
