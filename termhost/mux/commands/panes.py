"""Pane verbs: send-keys, capture-pane, display-message, split-window, select-pane, last-pane,
resize-pane, respawn-pane, kill-pane, list-panes, and the ones that move panes:
break-pane, join-pane (move-pane), swap-pane, rotate-window."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Mapping
from typing import NamedTuple

from termhost.mux import layout
from termhost.mux.clock_mode import ClockMode
from termhost.mux.commands import (
    NEW_PANE_INFO,
    CommandError,
    Context,
    Result,
    args_percentage,
    assignments,
    client_stdin,
    command,
    find_destination,
    find_pane,
    find_session,
    find_source,
    find_source_link,
    find_winlink,
    listed,
    new_object_info,
    working_directory,
)
from termhost.mux.commands.clients import find_client
from termhost.mux.copy_mode import CopyMode
from termhost.mux.format_scope import format_target
from termhost.mux.format_variables import ABSENT_WHEN_EMPTY, client_variables
from termhost.mux.formats import expand
from termhost.mux.layout import LayoutError
from termhost.mux.model import DOWN, LEFT, RIGHT, UP, Session, Window, Winlink
from termhost.mux.mouse import forward
from termhost.mux.pane import Pane
from termhost.mux.verbs import flag_values
from termhost.mux.visible import stravis
from termhost.terminal.cell import Cell
from termhost.terminal.grid_string import START, string_cells
from termhost.terminal.keys import KeyModes, UnknownKey, encode_keys


@command("send-keys")
async def send_keys(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The keys to the target pane's program (-l: as text, -H: as hexadecimal codes),
    -N times; -R resets its terminal first. With -X, the arguments are a command for the
    pane's mode instead (`send -X cancel`), formats with -F (tmux 3.3a expands no keys).
    A pane whose input is off (select-pane -d) takes none. -M passes the mouse key of
    the binding that runs it on to the pane under the mouse (mux/mouse.py)."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    count = _repeat_count(flags.get("N"))
    if "F" in flags and "X" in flags:
        values, scope = format_target(context.server, session, window, pane)
        args = [expand(arg, values, scope=scope) for arg in args]
    if "R" in flags:
        _reset_terminal(pane)
        context.server.refresh(session)
    if "X" in flags:
        if not isinstance(pane.mode, CopyMode):
            raise CommandError("not in a mode")
        if args:
            _mode_command(context, session, pane, args, count)
        return Result()
    if "M" in flags:  # the mouse key on to the pane under it, as tmux's window_pane_key
        if context.mouse is None or context.mouse.pane is None:
            raise CommandError("no mouse target")
        forward(context.mouse, context.mouse.pane)
        return Result()
    if isinstance(pane.mode, ClockMode):  # a key ends the clock and goes no further
        pane.mode = None
        context.server.refresh(session)
        return Result()
    screen = pane.terminal.screen
    modes = KeyModes(
        application_cursor=screen.application_cursor,
        application_keypad=screen.application_keypad,
        bracketed_paste=screen.bracketed_paste,
    )
    try:
        keys = _hex_keys(args) if "H" in flags else encode_keys(args, modes,
                                                                literal="l" in flags)
    except UnknownKey as error:
        raise CommandError(str(error)) from None
    if not pane.input_off:
        pane.write(keys * count)
    return Result()


def _reset_terminal(pane: Pane) -> None:
    """send-keys -R, as tmux's screen_write_reset: the lines in use scroll into the
    history (its clear of the screen), then the terminal is back to its power-on state
    (RIS: modes, margins, tabs, cursor home), the history kept."""
    terminal = pane.terminal
    terminal.flush()
    screen = terminal.screen
    used = max((y + 1 for y in range(screen.lines)
                if "".join(screen.buffer[y][x].data for x in range(screen.columns)).strip()),
               default=0)
    terminal.feed(b"\x1b[r\x1b[%dH" % screen.lines + b"\n" * used + b"\x1bc")
    terminal.flush()


def _hex_keys(args: list[str]) -> bytes:
    """send-keys -H: each argument a byte in hexadecimal; one that is not (`zz`, `100`)
    is left out, as tmux's cmd_send_keys_inject_string leaves it."""
    codes = bytearray()
    for arg in args:
        try:
            code = int(arg, 16)
        except ValueError:
            continue
        if 0 <= code <= 0xFF:
            codes.append(code)
    return bytes(codes)


def _repeat_count(text: str | None) -> int:
    """-N: how many times, 1 to 2^32-1 as tmux's repeat count, with its messages."""
    if text is None:
        return 1
    if not text.lstrip("-").isdigit():
        raise CommandError("repeat count invalid")
    if int(text) < 1:
        raise CommandError("repeat count too small")
    if int(text) >= 2**32:
        raise CommandError("repeat count too large")
    return int(text)


def _mode_command(context: Context, session: Session, pane: Pane, args: list[str],
                  count: int) -> None:
    """One copy-mode command (`send -X NAME [argument]`) on the pane's mode: a copy goes
    to a paste buffer, and a command that ends the mode ends it on every client."""
    assert isinstance(pane.mode, CopyMode)
    mouse = context.mouse
    if mouse is not None and mouse.event.kind not in ("wheel-up", "wheel-down"):
        if args[0] == "begin-selection" and context.client is not None:
            context.client.start_copy_drag(mouse)  # from a mouse key: a drag from there
            return
        at = mouse.at(pane)
        if at is not None:  # the cursor to the mouse first, as tmux's
            pane.mode.mouse_move(*at)
    action = pane.mode.run(args[0], args[1:], count)
    if action is not None and action.kind == "copy":
        context.server.copy_text(action.text, action.pipe)
    if action is not None and (action.kind == "exit" or (action.kind == "copy"
                                                         and not action.stay)):
        pane.mode = None
    context.server.refresh(session)


@command("copy-mode")
async def copy_mode(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target pane (the current one) into copy mode, -u a page up at once; -q takes
    it out of any mode. -s shows another pane's lines in it; -e leaves it on scrolling
    down to the bottom, -H hides the position. The pane's mode shows on every client,
    as tmux's. -M (from a mouse key) is for the pane under the mouse, on the client
    whose key it is, and starts a drag selecting from it there."""
    session, _, pane = find_pane(context.server, flags.get("t"))
    mouse = context.mouse if "M" in flags else None
    if "M" in flags:
        if mouse is None or mouse.pane is None or context.client is None or \
                context.client.session is not mouse.session:
            return Result()  # no mouse event, or another client's: nothing, as tmux
        session, pane = mouse.session, mouse.pane
    if "q" in flags:
        pane.mode = None
    else:
        entered = not isinstance(pane.mode, CopyMode) or pane.mode.name != "copy-mode"
        keys = context.server.options.get("mode-keys")
        source = find_pane(context.server, flags["s"])[2] if "s" in flags else None
        mode = pane.enter_copy_mode(keys=keys,
                                    table=context.server.key_tables.mode_commands(keys),
                                    source=source, scroll_exit="e" in flags,
                                    hide_position="H" in flags)
        if "u" in flags:
            mode.run("page-up")
        if mouse is not None and entered and context.client is not None:
            context.client.start_copy_drag(mouse)
    context.server.refresh(session)
    return Result()


@command("capture-pane")
async def capture_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The pane's lines (-S/-E: which; -a: the main screen behind the alternate one, -q:
    nothing rather than an error when there is none) as text; -e with the SGR of their
    look, -C with ESC and `\\` escaped, -N keeping trailing spaces, -J joining wrapped
    lines too; printed with -p, else into a paste buffer (-b). -P instead takes the
    start of a sequence the pane's program has not finished writing."""
    _, _, pane = find_pane(context.server, flags.get("t"))
    terminal = pane.terminal
    if "P" in flags:
        return _capture_pending(context, flags, terminal.pending)
    history = terminal.history
    screen = terminal.screen
    if "a" in flags:
        saved = screen.main_behind_alternate
        if saved is None and "q" not in flags:
            raise CommandError("no alternate screen")
        text = "\n" if saved is None else _capture(flags, _Lines(
            top=0, total=terminal.rows, cells=lambda y: _row_cells(saved.rows, y),
            text=lambda y: "".join(cell.data for cell in _row_cells(saved.rows, y)),
            wrapped=lambda y: y in saved.wrapped))
    else:
        top = len(history)  # index of screen line 0
        text = _capture(flags, _Lines(
            top=top, total=top + terminal.rows,
            cells=lambda i: history.cells(i) if i < top else _row_cells(screen.buffer, i - top),
            text=lambda i: history.text(i) if i < top else screen.row_text(i - top),
            wrapped=lambda i: history.wrapped(i) if i < top else i - top in screen.wrapped))
    if "p" not in flags:  # into a paste buffer, as tmux
        context.server.buffers.set(text.encode(), flags.get("b"))
        return Result()
    return Result(stdout=text)


def _capture_pending(context: Context, flags: dict[str, str], pending: str) -> Result:
    """capture-pane -P, as tmux's cmd_capture_pane_pending: -C writes each byte below
    a space or above ASCII, and each backslash, in octal; -p prints it and a newline,
    else it goes into a paste buffer (none made of nothing)."""
    if "C" in flags:
        pending = "".join(chr(byte) if 0x20 <= byte <= 0x7F and byte != 0x5C
                          else f"\\{byte:03o}"
                          for byte in pending.encode("utf-8", "surrogateescape"))
    if "p" in flags:
        return Result(stdout=pending + "\n")
    if pending:
        context.server.buffers.set(pending.encode("utf-8", "surrogateescape"), flags.get("b"))
    return Result()


class _Lines(NamedTuple):
    """The lines capture-pane reads: the scrollback and the screen, or -a's main screen."""

    top: int
    """The index of the screen's first line (-S 0)."""
    total: int
    cells: Callable[[int], list[Cell]]
    """A line's cells up to the last one written (tmux's cellused)."""
    text: Callable[[int], str]
    """Its characters alone (the quicker way when neither -e nor -C is given)."""
    wrapped: Callable[[int], bool]


def _capture(flags: dict[str, str], lines: _Lines) -> str:
    keep_spaces = "N" in flags or "J" in flags
    start = _line(flags.get("S"), lines.top, 0, lines.total)
    end = _line(flags.get("E"), lines.top, lines.total - lines.top - 1, lines.total)
    out: list[str] = []
    joining = False
    look = START  # -e: the look each line starts from is where the one before ended
    for index in range(start, end + 1):
        if "e" in flags or "C" in flags:
            text, look = string_cells(lines.cells(index), look, codes="e" in flags,
                                      escape_c0="C" in flags, trim=not keep_spaces)
        else:
            text = lines.text(index)
            text = text if keep_spaces else text.rstrip(" ")
        if joining:
            out[-1] += text
        else:
            out.append(text)
        joining = "J" in flags and lines.wrapped(index)
    return "".join(line + "\n" for line in out)


def _row_cells(rows: Mapping[int, Mapping[int, Cell]], y: int) -> list[Cell]:
    line = rows.get(y)
    if not line:
        return []
    return [line[x] for x in range(max(line) + 1)]


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
    """-p prints the expanded message (-F's format, else the argument); without it, the
    session's attached clients show it in their status line (with none attached, tmux
    shows it nowhere). -a lists every variable as NAME=VALUE; -v also prints, as `#`
    lines, how the expansion went. -c names the client it is for (its #{client_*}, its
    status line; its session when there is no -t), -d how many milliseconds it stays
    (0: until a key), -N ignoring keys meanwhile. -I shows the client's stdin in the
    target pane, an empty one (split-window -I) alone, until it ends; with no such
    pane there is nothing to do (tmux's target may fail for display)."""
    if "I" in flags:
        try:
            _, _, pane = find_pane(context.server, flags.get("t"))
        except CommandError:
            return Result()
        if not pane.is_empty:
            raise CommandError("pane is not empty")
        return Result(status=await _stdin_into(context, pane))
    if "F" in flags and args:
        raise CommandError("only one of -F or argument must be given")
    client = (find_client(context, flags["c"], quiet=True) if "c" in flags
              else context.client)  # a binding's, a control client's: its own variables
    delay = None
    if "d" in flags:
        if not flags["d"].isdigit():  # strtonum's words, as tmux's args_strtonum
            raise CommandError("delay invalid")
        delay = int(flags["d"])
        if delay > 2**32 - 1:
            raise CommandError("delay too large")
    target = flags.get("t")
    if client is not None and target is None:
        target = f"${client.session.id}"
    found = _found_so_far(context, target)
    if found is None:
        values, scope = format_target(context.server)  # nothing found: the server's
    else:
        session, link, pane = found
        values, scope = format_target(context.server, session, link.window, pane,
                                      owner=client, link=link)
    if client is not None:
        values.add(("client", functools.partial(client_variables, client)))
    if "a" in flags:  # as tmux's format_each: the table sorted, then what was added
        listed = [f"{name}={values[name]}\n" for name in sorted(values)
                  if values[name] or name not in ABSENT_WHEN_EMPTY]
        return Result(stdout="".join(listed) + "command=display-message\n")
    values.update({"command": "display-message"})
    template = flags["F"] if "F" in flags else " ".join(args)
    trace: list[str] = []
    message = expand(template, values, scope=scope, strftime=True,
                     trace=trace.append if "v" in flags else None)
    shown = "".join(f"# {line}\n" for line in trace)
    if "p" in flags:
        return Result(stdout=shown + message + "\n")
    for shown_on in [client] if client is not None else context.server.clients:
        if client is not None or shown_on.session is session:
            shown_on.show_message(message, delay, ignore_keys="N" in flags)
    return Result(stdout=shown)


@command("resize-pane")
async def resize_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """-Z toggles the zoom of the target pane (made active); -x/-y give its cell a size,
    -L/-R/-U/-D move a border of it by `adjustment` (1), as tmux's layout arithmetic.
    -T first, alone: the lines below the cursor trimmed, history lines moving in (not
    in a mode), the adjustment not even read, as tmux's. -M next, alone: from a mouse
    key, the border under the mouse follows its drag; else nothing."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    if "T" in flags:
        if pane.mode is None:
            pane.terminal.screen.trim_below_cursor()
            context.server.refresh(session)
        return Result()
    if "M" in flags:  # a border dragged by the mouse key's client, as tmux's
        mouse, client = context.mouse, context.client
        if mouse is not None and mouse.window is not None and client is not None \
                and client.session is mouse.session:
            client.start_border_drag(mouse)
        return Result()
    if len(args) > 1 or (args and not (args[0].isdigit() and int(args[0]) > 0)):
        raise CommandError(f"adjustment {' '.join(args)} is invalid")
    if "Z" in flags:
        window.select(pane)
        window.zoom(not window.zoomed)
        context.server.refresh(session)
        return Result()
    # -x / -y: cells or N% of the window's width / height (0 is 1), as tmux's
    width = (max(1, args_percentage(flags["x"], window.layout.width, "width"))
             if "x" in flags else None)
    height = (max(1, args_percentage(flags["y"], window.layout.height, "height"))
              if "y" in flags else None)
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


@command("respawn-pane")
async def respawn_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A dead pane (remain-on-exit) runs its command again, or `command`; -k kills a
    live one first, as tmux's."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    if not pane.dead and "k" not in flags:
        where = f"{session.name}:{session.index_of(window)}.{window.panes.index(pane)}"
        raise CommandError(f"respawn pane failed: pane {where} still active")
    cwd = working_directory(context, flags, session, window, pane)
    env = context.server.environ_of(session)
    env.update(assignments(flag_values(flags, "e")))
    await context.server.respawn_pane(session, window, pane, args, env, cwd)
    return Result()


@command("kill-pane")
async def kill_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target pane; -a every other pane of its window instead."""
    _, window, pane = find_pane(context.server, flags.get("t"))
    for killed in [p for p in window.panes if p is not pane] if "a" in flags else [pane]:
        killed.kill()
    return Result()


@command("list-panes")
async def list_panes(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target window's panes; -s every window's of its session, -a every pane of
    the server (tmux prefixes those lines with session:window.)."""
    server = context.server
    if "a" in flags:  # a window linked at several places is listed at each, as tmux's
        links = [(s, link) for s in sorted(server.sessions.values(), key=lambda s: s.name)
                 for link in s.links]
    else:
        session, link, _ = find_winlink(server, flags.get("t"))
        links = [(session, each) for each in session.links] if "s" in flags else [
            (session, link)]
    where = "#{session_name}:#{window_index}." if "a" in flags else (
        "#{window_index}." if "s" in flags else "")
    template = (
        where + "#{pane_index}: [#{pane_width}x#{pane_height}] [history "
        "#{history_size}/#{history_limit}, #{history_bytes} bytes] #{pane_id}"
        "#{?pane_active, (active),}#{?pane_dead, (dead),}"
    )
    return listed(flags, template, (format_target(server, session, link.window, pane, link=link)
                                    for session, link in links for pane in link.window.panes))


@command("split-window")
async def split_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A new pane beside (-h) or below the target, running `shell-command` (else the
    shell); with -I and no command, an empty pane (no process) that shows the client's
    stdin as it comes, the command ending with it (`make | tmux splitw -dI`), as does
    `split-window ''`, with nothing to show."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    shows_stdin = "I" in flags and not args  # with a command, tmux ignores -I
    size, percentage = _split_size(flags)
    cwd = working_directory(context, flags, session, window, pane)
    env = context.server.environ_of(session)
    env.update(assignments(flag_values(flags, "e")))
    window.zoom(False)  # before the split, whether or not it finds room, as tmux's
    try:
        new = await context.server.split_window(
            session, window, pane, args, env, cwd, horizontal="h" in flags, size=size,
            percentage=percentage, before="b" in flags, select="d" not in flags,
            full="f" in flags, empty=shows_stdin or args == [""],
        )
    except LayoutError as error:
        raise CommandError(str(error)) from None
    if "Z" in flags:  # the active pane zoomed: the new one, or with -d the one there was
        window.zoom(True)
        if new is not window.active:  # hidden behind the zoom at the size it started with,
            new.resize(window.layout.width, window.layout.height)  # the window's, as tmux's
        context.server.refresh(session)
    info = new_object_info(flags, NEW_PANE_INFO, context.server, session, window, new)
    return Result(stdout=info, status=await _stdin_into(context, new) if shows_stdin else 0)


async def _stdin_into(context: Context, pane: Pane) -> int:
    """The command-line client's stdin shown in the empty `pane` piece by piece as it
    comes, the command's status once it ends (tmux's window_pane_start_input); nothing
    with no such client (a binding's). A pane killed meanwhile shows no more and the
    status is 1, as tmux's client exits 1 then; the rest is read all the same, since the
    client sends its stdin to the end before it reads the server's answer."""
    pieces = client_stdin(context)
    if pieces is None:
        return 0
    async for piece in pieces:
        if not pane.killed:
            pane.feed(piece)
    return 1 if pane.killed else 0


def _found_so_far(context: Context, target: str | None
                  ) -> tuple[Session, Winlink, Pane] | None:
    """display-message's target, which may fail (tmux's CMD_FIND_CANFAIL): what tmux found
    before the part it could not, `s` of `s:7` (then its current window), `s:1` of
    `s:1.9`; None when not even the session is there."""
    server = context.server
    try:
        return find_winlink(server, target)
    except CommandError:
        if target is None:
            raise
    if ":" not in target:
        return None
    session_part, _, rest = target.partition(":")
    for partial in (f"{session_part}:{rest.partition('.')[0]}", session_part):
        try:
            return find_winlink(server, partial)
        except CommandError:
            continue
    return None


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
    """The target pane (or the one beyond its -L/-R/-U/-D border, -l the last one) made
    active; -Z keeps the window zoomed. -T sets its title (#{pane_title}) until the
    program sets another (OSC 2); -d and -e turn its input off and on; -m marks it (or
    unmarks it if it was marked), -M clears the mark. -P sets its window-style and
    window-active-style (as tmux 3.3a, which keeps -P for the pane options that replaced
    it, and goes on to select the pane), -g prints its window-style and stops."""
    server = context.server
    if "l" in flags:
        return await last_pane(context, {k: v for k, v in flags.items() if k != "l"}, args)
    session, link, pane = find_winlink(server, flags.get("t"))
    window = link.window
    if "T" in flags:
        pane.terminal.screen.title = flags["T"]
        server.refresh(session)
        return Result()
    if "m" in flags or "M" in flags:
        before = server.marked_pane()
        server.marked = None if "M" in flags or server.marked is pane else pane
        for changed in {session, *([before[0]] if before is not None else [])}:
            server.refresh(changed)  # its status line's M flag, where it was and is
        return Result()
    if "P" in flags:  # as tmux 3.3a: both styles, unchecked, then on to the rest
        pane.options["window-style"] = pane.options["window-active-style"] = flags["P"]
        server.refresh(session)
    if "g" in flags:
        return Result(stdout=server.pane_option(window, pane, "window-style") + "\n")
    if "d" in flags or "e" in flags:
        pane.input_off = "d" in flags
        return Result()
    for flag, direction in _DIRECTIONS.items():
        if flag in flags:
            pane = window.neighbour(pane, direction)
    zoomed = window.zoomed
    session.select(link)
    window.select(pane)
    if zoomed and "Z" in flags:
        window.zoom(True)
    server.refresh(session)
    return Result()


@command("last-pane")
async def last_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The pane that was active before this one in the window -t; -Z keeps it zoomed,
    -d and -e turn its input off and on."""
    session, window, _ = find_pane(context.server, flags.get("t"))
    last = window.last if window.last in window.panes else None
    if last is None and len(window.panes) == 2:  # never switched: the other one, as tmux
        last = next(pane for pane in window.panes if pane is not window.active)
    if last is None:
        raise CommandError("no last pane")
    if "d" in flags or "e" in flags:
        last.input_off = "d" in flags
        return Result()
    zoomed = window.zoomed
    window.select(last)
    if zoomed and "Z" in flags:
        window.zoom(True)
    context.server.refresh(session)
    return Result()


@command("break-pane")
async def break_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The pane leaves for a window of its own: in the -t session, at the -t index if
    one is given (it must be free, as tmux says; -a just after -t's window, -b just
    before, the windows from there moving up one), selected unless -d. The only pane of
    its window moves with the window, and -P prints nothing then, as tmux 3.3a."""
    server = context.server
    session, link, pane = find_source_link(context, flags)
    window = link.window
    if "a" in flags or "b" in flags:
        to, beside, _ = find_winlink(server, flags.get("t"))
        index: int | None = to.shuffle_up(beside, before="b" in flags)
    else:
        to, index = find_destination(server, flags.get("t"), session)
    if index is not None and to.link_at(index) is not None:
        raise CommandError(f"index in use: {index}")
    if len(window.panes) == 1:
        if index is None:
            index = to.free_index(int(server.session_option(to, "base-index")))
        server.move_window(session, link, to, index, select="d" not in flags)
        if "n" in flags:
            window.name, window.automatic_name = stravis(flags["n"]), False
        return Result()
    server.break_pane(session, window, pane, to, index, flags.get("n"),
                      select="d" not in flags)
    broken = next(w for w in to.windows if pane in w.panes)
    return Result(stdout=new_object_info(flags, NEW_PANE_INFO, server, to, broken, pane))


@command("join-pane")
async def join_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The -s pane splits the -t pane's cell (below it, -h beside it; -f the whole
    window's), as split-window would with a new pane; its old window closes if it was
    the last pane there."""
    session, window, pane = find_source(context, flags)
    to, into, target = find_pane(context.server, flags.get("t"))
    if pane is target:
        raise CommandError("source and target panes must be different")
    size, percentage = _split_size(flags)
    try:
        context.server.join_pane(
            session, window, pane, to, into, target, horizontal="h" in flags, size=size,
            percentage=percentage, before="b" in flags, select="d" not in flags,
            full="f" in flags,
        )
    except LayoutError as error:
        raise CommandError(f"create pane failed: {error}") from None
    return Result()


@command("move-pane")
async def move_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """movep: join-pane under its other name, as in tmux."""
    return await join_pane(context, flags, args)


@command("swap-pane")
async def swap_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """-s and -t trade places; -U/-D swap the -t pane with the one before/after it
    (wrapping), as C-b { and C-b } do; -Z keeps a zoomed window zoomed."""
    other_session, other_window, other = find_pane(context.server, flags.get("t"))
    if "U" in flags or "D" in flags:
        session, window = other_session, other_window
        panes = window.panes
        step = -1 if "U" in flags else 1
        pane = panes[(panes.index(other) + step) % len(panes)]
    else:
        session, window, pane = find_source(context, flags)
    if pane is other:
        return Result()  # tmux: nothing to do
    zoomed = [each for each in (window, other_window) if each.zoomed and "Z" in flags]
    context.server.swap_panes(session, window, pane, other_session, other_window, other,
                              keep_active="d" in flags)
    _zoom_again(context, zoomed)
    return Result()


def _zoom_again(context: Context, windows: list[Window]) -> None:
    """-Z: the windows that were zoomed zoomed again, on their active panes (tmux's
    window_push_zoom and window_pop_zoom)."""
    for window in windows:
        window.zoom(True)
        context.server.refresh_window(window)


@command("rotate-window")
async def rotate_window(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Every pane one place on (-D) or back (-U); -Z keeps a zoomed window zoomed."""
    session, window, _ = find_pane(context.server, flags.get("t"))
    zoomed = [window] if window.zoomed and "Z" in flags else []
    context.server.rotate_window(session, window, down="D" in flags)
    _zoom_again(context, zoomed)
    return Result()


@command("display-panes")
async def display_panes(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The pane numbers over the panes of the session's attached clients for -d
    milliseconds (1000); a digit typed meanwhile selects that pane, unless -N. -t names
    the client (or, as termhost also takes it, a session); without it, the asking
    client's. It waits until they are hidden again, as tmux's, unless -b."""
    target = flags.get("t")
    client = find_client(context, target, quiet=True) if target is not None else None
    session = (client.session if client is not None
               else context.session if target is None and context.session is not None
               else find_session(context.server, target))
    duration = flags.get("d", "1000")
    if not duration.isdigit():
        raise CommandError(f"duration is invalid: {duration}")
    shown = [client.display_panes(int(duration) / 1000, select="N" not in flags)
             for client in context.server.clients if client.session is session]
    if "b" not in flags:
        await asyncio.gather(*(each for each in shown if each is not None))
    return Result()


@command("clear-history")
async def clear_history(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """The target pane's scrollback emptied; its screen stays (tmux's grid_clear_history)."""
    session, _, pane = find_pane(context.server, flags.get("t"))
    pane.terminal.flush()  # what the program wrote so far scrolls in first
    pane.terminal.history.clear()
    context.server.refresh(session)
    return Result()
