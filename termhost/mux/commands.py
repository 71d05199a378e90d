"""The tmux verbs the server runs, one small declared unit each (tmux's cmd-*.c).

Each command has its name, aliases, getopt flag string and usage next to the function
that runs it; `run_command` parses the command line as tmux does (`getopt`), resolves
the target, and returns what goes to the client's stdout and stderr and the exit status.
Messages and exit statuses follow tmux: `can't find session: X` and 1, usage errors 1.
"""

from __future__ import annotations

import dataclasses
import getopt
import os
import shlex
import socket
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from termhost.mux import config, layout
from termhost.mux.channels import Channel
from termhost.mux.formats import expand
from termhost.mux.layout import LayoutError
from termhost.mux.model import DOWN, LEFT, RIGHT, UP, Session, Window
from termhost.mux.options import OptionError
from termhost.mux.pane import Pane
from termhost.mux.verbs import VERBS, lookup
from termhost.terminal.keys import KeyModes, UnknownKey, encode_key, encode_keys

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["COMMANDS", "CommandError", "Result", "run_command"]


class CommandError(Exception):
    """A command failed; the message is the one line tmux would print."""


@dataclass
class Result:
    stdout: str = ""
    stderr: str = ""
    status: int = 0
    attach: Session | None = None
    """The connection becomes a client attached to this session."""


@dataclass
class Context:
    """Who asked: the client's environment and working directory."""

    server: Server
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    size: tuple[int, int] | None = None
    """(cols, rows) of the client's terminal when it can attach."""
    tty: str = ""
    """The path of the client's terminal, if it has one."""
    tty_output: bool = False
    """The client's stdout is that terminal: an attached client's output may go there."""
    depth: int = 0
    """How many source-file commands this one runs inside (a file sourcing itself ends)."""
    session: Session | None = None
    """The session of the attached client that asked (a key binding, the command
    prompt): a verb given no -t targets it, as tmux targets the client's session."""


Run = Callable[[Context, dict[str, str], list[str]], Awaitable[Result]]

COMMANDS: dict[str, Run] = {}
"""Implementations by verb name; verbs.py declares each verb's flags and usage."""


def command(name: str) -> Callable[[Run], Run]:
    if name not in VERBS:
        raise KeyError(f"{name} is not declared in verbs.py")

    def register(run: Run) -> Run:
        COMMANDS[name] = run
        return run

    return register


async def run_command(context: Context, argv: Sequence[str]) -> Result:
    """Run one command line; errors become a one-line message and status 1."""
    if not argv:
        return Result(stderr="no command given\n", status=1)
    verb = lookup(argv[0])
    if verb is None:
        return Result(stderr=f"unknown command: {argv[0]}\n", status=1)
    try:
        options, arguments = getopt.getopt(list(argv[1:]), verb.flags)
    except getopt.GetoptError as error:
        return Result(stderr=f"{error.msg}\nusage: {verb.name} {verb.usage}\n", status=1)
    try:
        run = COMMANDS[verb.name]
        flags = {flag[1]: value for flag, value in options}
        if context.session is not None and "t" not in flags and "t:" in verb.flags:
            flags["t"] = f"${context.session.id}"
        return await run(context, flags, arguments)
    except CommandError as error:
        return Result(stderr=f"{error}\n", status=1)


# --- targets and formats ---------------------------------------------------------------


def find_session(server: Server, target: str | None) -> Session:
    """`-t` as a session: `$ID`, `=NAME` (exact), NAME, or a unique NAME prefix."""
    sessions = list(server.sessions.values())
    if not sessions:
        raise CommandError("no sessions")
    if target is None or target == "":
        return max(sessions, key=lambda s: s.created)
    name = target.split(":", 1)[0]
    if name.startswith("$") and name[1:].isdigit():
        for session in sessions:
            if session.id == int(name[1:]):
                return session
    elif name.startswith("="):
        if name[1:] in server.sessions:
            return server.sessions[name[1:]]
    elif name in server.sessions:
        return server.sessions[name]
    else:
        matches = [s for s in sessions if s.name.startswith(name)]
        if len(matches) == 1:
            return matches[0]
    raise CommandError(f"can't find session: {name}")


def find_pane(server: Server, target: str | None) -> tuple[Session, Window, Pane]:
    """`-t` as a pane: `%ID`, `@ID`, or SESSION[:WINDOW[.PANE]] (indexes or names)."""
    if target and target[0] in "%@":
        kind = "pane" if target[0] == "%" else "window"
        for session in server.sessions.values():
            for window in session.windows:
                if target == f"@{window.id}":
                    return session, window, window.active
                for pane in window.panes:
                    if target == pane.name:
                        return session, window, pane
        raise CommandError(f"can't find {kind}: {target}")
    session = find_session(server, target)
    window = session.active_window
    pane = window.active
    if target and ":" in target:
        spec = target.split(":", 1)[1]
        window_part, _, pane_part = spec.partition(".")
        if window_part:
            window = _find_window(session, window_part)
            pane = window.active
        if pane_part:
            panes = window.panes
            if pane_part.isdigit() and int(pane_part) < len(panes):
                pane = panes[int(pane_part)]
            else:
                raise CommandError(f"can't find pane: {pane_part}")
    return session, window, pane


def _find_window(session: Session, spec: str) -> Window:
    for window in session.windows:
        if (spec.isdigit() and window.index == int(spec)) or window.name == spec:
            return window
    raise CommandError(f"can't find window: {spec}")


def _dead_field(pane: Pane, field: str) -> str:
    """#{pane_dead_status} / #{pane_dead_signal}: empty while alive or when not that way."""
    value = getattr(pane.exit_status, field, None)
    return "" if value is None else str(value)


def variables(
    session: Session,
    window: Window | None = None,
    server: Server | None = None,
    pane: Pane | None = None,
) -> dict[str, str]:
    """The `#{...}` variables for a session, a window (the current) and a pane (its active)."""
    window = window or session.active_window
    pane = pane or window.active
    cell = window.layout.find(pane)
    screen = pane.terminal.screen
    clients = server.clients if server is not None else []
    attached = [client for client in clients if client.session is session]
    host = socket.gethostname()
    values = {
        "session_name": session.name,
        "session_id": f"${session.id}",
        "session_windows": str(len(session.windows)),
        "session_created": str(int(session.created)),
        "session_attached": str(len(attached)),
        "window_index": str(window.index),
        "window_id": f"@{window.id}",
        "window_name": window.name,
        "window_active": "1" if window is session.active_window else "0",
        "window_panes": str(len(window.panes)),
        "window_flags": session.window_flags(window),
        "window_zoomed_flag": "1" if window.zoomed else "0",
        "window_width": str(window.layout.width),
        "window_height": str(window.layout.height),
        "pane_index": str(window.panes.index(pane)),
        "pane_id": pane.name,
        "pane_pid": str(pane.pid),
        "pane_active": "1" if pane is window.active else "0",
        "pane_left": str(cell.x),
        "pane_top": str(cell.y),
        "pane_right": str(cell.x + cell.width - 1),
        "pane_bottom": str(cell.y + cell.height - 1),
        "pane_dead": "1" if pane.dead else "0",
        "pane_dead_status": _dead_field(pane, "code"),
        "pane_dead_signal": _dead_field(pane, "signal"),
        "pane_title": screen.title or host,
        "pane_current_command": pane.current_command(),
        "pane_width": str(pane.terminal.cols),
        "pane_height": str(pane.terminal.rows),
        "cursor_x": str(min(screen.cursor.x, pane.terminal.cols - 1)),
        "cursor_y": str(screen.cursor.y),
        "history_size": str(len(pane.terminal.history)),
        "history_limit": str(pane.terminal.history.limit),
        "alternate_on": "1" if screen.alternate_screen else "0",
        "pid": str(os.getpid()),
        "socket_path": str(server.path) if server is not None else "",
        "host": host,
        "host_short": host.split(".", 1)[0],
        "client_tty": attached[0].tty if attached else "",
    }
    return values


# --- the verbs -----------------------------------------------------------------------


@command("new-session")
async def new_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    server = context.server
    if "d" not in flags and not context.size:
        raise CommandError("open terminal failed: not a terminal")
    name = flags.get("s")
    if name is not None and (not name or ":" in name or "." in name):
        raise CommandError(f"invalid session name: {name}")
    if name is not None and name in server.sessions:
        raise CommandError(f"duplicate session: {name}")
    cols = _size(flags.get("x", "80"), "width")
    rows = _size(flags.get("y", "24"), "height")
    cwd = flags.get("c") or context.cwd
    if cwd is not None and not os.path.isdir(cwd):
        raise CommandError(f"bad working directory: {cwd}")
    env = dict(context.env)
    env.pop("TMUX", None)
    for assignment in [flags["e"]] if "e" in flags else []:
        key, equals, value = assignment.partition("=")
        if not equals:
            raise CommandError(f"invalid environment: {assignment}")
        env[key] = value
    if "d" not in flags and context.size:
        cols, rows = context.size[0], max(1, context.size[1] - 1)  # the status line
    session = await server.new_session(name, cols, rows, args, env, cwd, flags.get("n"))
    return Result() if "d" in flags else Result(attach=session)


@command("attach-session")
async def attach_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    if not context.size:
        raise CommandError("open terminal failed: not a terminal")
    return Result(attach=find_session(context.server, flags.get("t")))


@command("detach-client")
async def detach_client(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session = find_session(context.server, flags.get("s")) if "s" in flags else None
    context.server.detach_clients(session)
    return Result()


def _size(text: str, what: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 10000:
        raise CommandError(f"{what} {text} is invalid")
    return int(text)


@command("has-session")
async def has_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    find_session(context.server, flags.get("t"))
    return Result()


@command("list-sessions")
async def list_sessions(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    template = flags.get(
        "F", "#{session_name}: #{session_windows} windows (created #{session_created_string})"
    )
    lines = []
    for session in context.server.sessions.values():
        values = variables(session, server=context.server)
        values["session_created_string"] = time.ctime(session.created)
        lines.append(expand(template, values) + "\n")
    return Result(stdout="".join(lines))


@command("kill-session")
async def kill_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session = find_session(context.server, flags.get("t"))
    context.server.kill_session(session)
    return Result()


@command("kill-server")
async def kill_server(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    context.server.shutdown()
    return Result()


@command("send-keys")
async def send_keys(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    _, _, pane = find_pane(context.server, flags.get("t"))
    screen = pane.terminal.screen
    modes = KeyModes(
        application_cursor=screen.application_cursor,
        application_keypad=screen.application_keypad,
        bracketed_paste=screen.bracketed_paste,
    )
    try:
        pane.write(encode_keys(args, modes, literal="l" in flags))
    except UnknownKey as error:
        raise CommandError(str(error)) from None
    return Result()


@command("capture-pane")
async def capture_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    if "p" not in flags:
        raise CommandError("capture-pane needs -p until paste buffers exist")
    _, _, pane = find_pane(context.server, flags.get("t"))
    terminal = pane.terminal
    history = terminal.history
    screen = terminal.screen
    keep_spaces = "N" in flags or "J" in flags
    rows = [*history.lines()]
    if keep_spaces:
        rows += [screen.row_text(y) for y in range(terminal.rows)]
    else:
        rows += terminal.display
    wrapped = [history.wrapped(i) for i in range(len(history))]
    wrapped += [y in terminal.screen.wrapped for y in range(terminal.rows)]
    top = len(history)  # index of screen line 0
    start = _line(flags.get("S"), top, 0, len(rows))
    end = _line(flags.get("E"), top, terminal.rows - 1, len(rows))
    out: list[str] = []
    joining = False
    for index in range(start, end + 1):
        text = rows[index] if keep_spaces else rows[index].rstrip(" ")
        if joining:
            out[-1] += text
        else:
            out.append(text)
        joining = "J" in flags and wrapped[index]
    return Result(stdout="".join(line + "\n" for line in out))


def _line(value: str | None, top: int, default: int, count: int) -> int:
    """-S/-E: a line number (0 = the first screen line, negative = scrollback) or `-`."""
    if value is None:
        position = top + default
    elif value == "-":
        position = 0 if default == 0 else count - 1
    else:
        try:
            position = top + int(value)
        except ValueError:
            raise CommandError(f"invalid line number: {value}") from None
    return max(0, min(position, count - 1))


@command("display-message")
async def display_message(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session, window, pane = find_pane(context.server, flags.get("t"))
    message = expand(" ".join(args), variables(session, window, context.server, pane))
    return Result(stdout=message + "\n" if "p" in flags else "")


@command("new-window")
async def new_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session = find_session(context.server, flags.get("t"))
    cwd = flags.get("c") or context.cwd
    if cwd is not None and not os.path.isdir(cwd):
        raise CommandError(f"bad working directory: {cwd}")
    env = {key: value for key, value in context.env.items() if key != "TMUX"}
    await context.server.new_window(
        session, args, env, cwd, flags.get("n"), select="d" not in flags
    )
    return Result()


@command("list-windows")
async def list_windows(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session = find_session(context.server, flags.get("t"))
    template = flags.get(
        "F", "#{window_index}: #{window_name}#{window_flags} (#{window_panes} panes) "
        "[#{pane_width}x#{pane_height}] #{window_id}#{?window_active, (active),}"
    )
    return Result(stdout="".join(
        expand(template, variables(session, window, context.server)) + "\n"
        for window in session.windows
    ))


@command("select-window")
async def select_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session, window, _ = find_pane(context.server, flags.get("t"))
    session.select(window)
    context.server.refresh(session)
    return Result()


@command("kill-window")
async def kill_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    _, window, _ = find_pane(context.server, flags.get("t"))
    context.server.kill_window(window)
    return Result()


@command("resize-pane")
async def resize_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """-Z toggles the zoom of the target pane (made active); -x/-y give its cell a size,
    -L/-R/-U/-D move a border of it by `adjustment` (1), as tmux's layout arithmetic."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    if len(args) > 1 or (args and not (args[0].isdigit() and int(args[0]) > 0)):
        raise CommandError(f"adjustment {' '.join(args)} is invalid")
    if "Z" in flags:
        window.select(pane)
        window.zoom(not window.zoomed)
        context.server.refresh(session)
        return Result()
    width = _size(flags["x"], "width") if "x" in flags else None
    height = _size(flags["y"], "height") if "y" in flags else None
    every: tuple[layout.Direction, ...] = ("L", "R", "U", "D")
    directions = [d for d in every if d in flags]
    if width is None and height is None and not directions:
        return Result()
    window.zoom(False)
    if width is not None or height is not None:
        layout.resize_pane_to(window.layout, pane, width=width, height=height)
    for direction in directions:
        layout.resize_pane(window.layout, pane, direction=direction,
                           amount=int(args[0]) if args else 1)
    window.fit_panes()
    context.server.refresh(session)
    return Result()


@command("select-layout")
async def select_layout(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A preset (a unique prefix will do), or with -n/-p the next/previous one."""
    session, window, _ = find_pane(context.server, flags.get("t"))
    if len(args) > 1:
        raise CommandError(f"usage: select-layout {VERBS['select-layout'].usage}")
    try:
        if "n" in flags:
            preset = layout.next_layout(window.preset)
        elif "p" in flags:
            preset = _previous_layout(window.preset)
        elif args:
            preset = layout.find_preset(args[0])
        else:
            preset = window.preset or layout.PRESETS[0]  # tmux re-applies the last
    except LayoutError as error:
        raise CommandError(str(error)) from None
    window.arrange(preset)
    context.server.refresh(session)
    return Result()


def _previous_layout(preset: str | None) -> str:
    presets = layout.PRESETS
    return presets[(presets.index(preset) - 1) % len(presets)] if preset else presets[-1]


@command("next-layout")
async def next_layout(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    return await select_layout(context, {**flags, "n": ""}, [])


@command("previous-layout")
async def previous_layout(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    return await select_layout(context, {**flags, "p": ""}, [])


@command("start-server")
async def start_server(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Nothing more than starting the server (with its -f file); it stays only if that
    made a session, as tmux's."""
    return Result()


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
        printed, failed = await config.source(path, run, quiet="q" in flags)
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


def _key_table(flags: dict[str, str]) -> None:
    """-T prefix is the only table so far; -n (the root table) is refused, not ignored."""
    table = "root" if "n" in flags else flags.get("T", "prefix")
    if table != "prefix":
        raise CommandError(f"key table {table} is not supported yet (only prefix)")


def _key_name(key: str) -> str:
    try:
        encode_key(key, KeyModes())
    except UnknownKey:
        raise CommandError(f"unknown key: {key}") from None
    return key


@command("bind-key")
async def bind_key(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A key after the prefix runs a tmux command (-r, repeat, is taken and ignored)."""
    _key_table(flags)
    if len(args) < 2:
        raise CommandError(f"usage: bind-key {VERBS['bind-key'].usage}")
    if lookup(args[1]) is None:
        raise CommandError(f"unknown command: {args[1]}")
    key = _key_name(args[0])
    context.server.key_table.bind(key, shlex.join(args[1:]), flags.get("N", ""))
    return Result()


@command("unbind-key")
async def unbind_key(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """One key, or with -a every key, no longer bound after the prefix."""
    _key_table(flags)
    if "a" in flags:
        context.server.key_table.clear()
    elif len(args) == 1:
        context.server.key_table.unbind(_key_name(args[0]))
    else:
        raise CommandError(f"usage: unbind-key {VERBS['unbind-key'].usage}")
    return Result()


@command("list-keys")
async def list_keys(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The prefix table (the only one so far) as tmux prints it."""
    table = flags.get("T", "prefix")
    if table != "prefix":
        raise CommandError(f"table {table} doesn't exist")
    lines = context.server.key_table.list_keys(notes="N" in flags)
    return Result(stdout="".join(line + "\n" for line in lines))


@command("resize-window")
async def resize_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """-x/-y a size, -A/-a the largest/smallest attached client's, -L/-R/-U/-D smaller or
    larger by `adjustment` (1): from then on the window keeps that size whatever the
    clients' (tmux makes its window-size manual). Windows share their session's size
    in termhost, so the whole session takes it."""
    server = context.server
    session, _, _ = find_pane(server, flags.get("t"))
    if len(args) > 1 or (args and not args[0].isdigit()):
        raise CommandError(f"adjustment {' '.join(args)} is invalid")
    step = int(args[0]) if args else 1
    cols, rows = session.cols, session.rows
    sizes = [(c.size.columns, max(1, c.size.rows - 1))
             for c in server.clients if c.session is session]
    if sizes and ("A" in flags or "a" in flags):
        pick = max if "A" in flags else min
        cols, rows = pick(c for c, _ in sizes), pick(r for _, r in sizes)
    cols = _size(flags["x"], "width") if "x" in flags else cols
    rows = _size(flags["y"], "height") if "y" in flags else rows
    cols += step * (("R" in flags) - ("L" in flags))
    rows += step * (("D" in flags) - ("U" in flags))
    session.manual_size = True
    server.resize_session(session, max(1, cols), max(1, rows))
    return Result()


@command("respawn-pane")
async def respawn_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A dead pane (remain-on-exit) runs its command again, or `command`; -k kills a
    live one first, as tmux's."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    if not pane.dead and "k" not in flags:
        where = f"{session.name}:{window.index}.{window.panes.index(pane)}"
        raise CommandError(f"respawn pane failed: pane {where} still active")
    cwd = flags.get("c") or context.cwd
    await context.server.respawn_pane(
        session, window, pane, args, context.server.environ_of(session), cwd)
    return Result()


@command("kill-pane")
async def kill_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    _, _, pane = find_pane(context.server, flags.get("t"))
    pane.kill()
    return Result()


@command("rename-session")
async def rename_session(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session = find_session(context.server, flags.get("t"))
    name = _one_name(args, "rename-session")
    if name != session.name and name in context.server.sessions:
        raise CommandError(f"duplicate session: {name}")
    if ":" in name or "." in name:
        raise CommandError(f"invalid session name: {name}")
    context.server.rename_session(session, name)
    context.server.refresh(session)
    return Result()


@command("rename-window")
async def rename_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session, window, _ = find_pane(context.server, flags.get("t"))
    window.name = _one_name(args, "rename-window")
    context.server.refresh(session)
    return Result()


def _one_name(args: list[str], verb: str) -> str:
    if len(args) != 1 or not args[0]:
        raise CommandError(f"usage: {verb} {VERBS[verb].usage}")
    return args[0]


@command("list-panes")
async def list_panes(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session, window, _ = find_pane(context.server, flags.get("t"))
    template = flags.get(
        "F", "#{pane_index}: [#{pane_width}x#{pane_height}] "
        "[history #{history_size}/#{history_limit}] #{pane_id}#{?pane_active, (active),}"
    )
    return Result(stdout="".join(
        expand(template, variables(session, window, context.server, pane)) + "\n"
        for pane in window.panes
    ))


@command("split-window")
async def split_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session, window, pane = find_pane(context.server, flags.get("t"))
    size, percentage = _split_size(flags)
    cwd = flags.get("c") or context.cwd
    if cwd is not None and not os.path.isdir(cwd):
        raise CommandError(f"bad working directory: {cwd}")
    env = {key: value for key, value in context.env.items() if key != "TMUX"}
    try:
        await context.server.split_window(
            session, window, pane, args, env, cwd, horizontal="h" in flags, size=size,
            percentage=percentage, before="b" in flags, select="d" not in flags,
        )
    except LayoutError as error:
        raise CommandError(f"create pane failed: {error}") from None
    return Result()


def _split_size(flags: dict[str, str]) -> tuple[int | None, int | None]:
    """-l N, -l N% or -p N: (size, percentage)."""
    if "p" in flags:
        text, percent = flags["p"], True
    elif "l" in flags:
        text = flags["l"].removesuffix("%")
        percent = flags["l"].endswith("%")
    else:
        return None, None
    if not text.isdigit() or int(text) == 0 or (percent and int(text) > 100):
        raise CommandError(f"size is invalid: {flags.get('l') or flags['p']}")
    return (None, int(text)) if percent else (int(text), None)


_DIRECTIONS = {"L": LEFT, "R": RIGHT, "U": UP, "D": DOWN}


@command("select-pane")
async def select_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    session, window, pane = find_pane(context.server, flags.get("t"))
    for flag, direction in _DIRECTIONS.items():
        if flag in flags:
            pane = window.neighbour(pane, direction)
    session.select(window)
    window.select(pane)
    context.server.refresh(session)
    return Result()


@command("set-option")
async def set_option(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    # Every option is global for now: -g is accepted and implied.
    if not args or len(args) > 2:
        raise CommandError(f"usage: set-option {VERBS['set-option'].usage}")
    options = context.server.options
    try:
        if "u" in flags:
            options.reset(args[0])
        else:
            options.set(args[0], args[1] if len(args) > 1 else "")
    except OptionError as error:
        raise CommandError(str(error)) from None
    if args[0] == "window-size":  # sizes set by resize-window follow the clients again
        for session in context.server.sessions.values():
            session.manual_size = False
            context.server.fit_session(session)
    return Result()


@command("set-window-option")
async def set_window_option(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """setw: as set-option (every option is global for now), as tmux 3 allows."""
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
