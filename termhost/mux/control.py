"""Control mode (`termhost -C`), the server's side, as tmux 3.3a's control.c: a client
that reads commands as lines and writes each one's output between `%begin` and `%end`
(or `%error`), with notifications and the panes' output (`%output`) between blocks.

Three parts: `ControlStream` is what the connection is written through, in order and at
the pace the client reads (what it cannot take waits, and a pane that waits too long is
paused or the client let go, as tmux's); `ControlClient` is the attached client the
verbs see (mux.Client), which draws nothing; `ControlConnection` serves a connection from
its command line to its `%exit`. What the client is told of is control_notify.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
import traceback
from collections import ChainMap, deque
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from termhost.mux.commands import Context, Parsed, Result, parse_command, run_command
from termhost.mux.control_notify import Notice
from termhost.mux.format_scope import ServerScope, format_target
from termhost.mux.format_variables import FormatVariables, client_name
from termhost.mux.formats import expand
from termhost.mux.lexer import LexError, split_commands
from termhost.mux.messages import command_message
from termhost.mux.model import Session, Window
from termhost.mux.options import Scoped
from termhost.mux.pane import Pane
from termhost.mux.paths import peer_credentials
from termhost.mux.protocol import Frame, FrameType, encode_exit, encode_frame
from termhost.mux.verbs import UsageError

if TYPE_CHECKING:
    from termhost.mux.commands.modes import ChooseRequest
    from termhost.mux.mouse import Mouse
    from termhost.mux.server import Server
    from termhost.mux.style import Style

__all__ = ["ControlClient", "ControlConnection", "ControlStream", "escape_output",
           "window_size"]

BUFFER_HIGH = 8192
BUFFER_LOW = 512
"""The connection's write watermarks (tmux's CONTROL_BUFFER_HIGH and _LOW): output
waits in the stream while more than BUFFER_HIGH bytes are unwritten."""
OUTPUT_CHUNK = BUFFER_HIGH // 3
"""The most of a pane's bytes one %output line carries (each may take 4 escaped)."""
MAXIMUM_AGE = 300_000
"""Milliseconds a pane's output may wait before a client without pause-after is let go
(`too far behind`), as tmux's CONTROL_MAXIMUM_AGE."""
SUBSCRIPTION_INTERVAL = 1.0
"""Seconds between looks at a client's subscriptions (refresh-client -B), as tmux's."""
DCS_START = b"\033P1000p"
"""What a -CC client's terminal is sent first (its end, ST, the client writes itself)."""

_ESCAPED = re.compile(rb"[\x00-\x1f\\]")


def escape_output(data: bytes) -> bytes:
    """A pane's bytes as %output carries them (tmux's control_append_data): each byte
    below a space, and backslash, as `\\ooo` in octal; the rest, UTF-8 included, as
    they are."""
    return _ESCAPED.sub(lambda match: b"\\%03o" % match[0][0], data)


def _now() -> int:
    return int(time.monotonic() * 1000)


class _Block(NamedTuple):
    """Output of one pane waiting to be written, and when it came (ms)."""

    pane: Pane
    data: bytearray
    since: int


class _Size(NamedTuple):
    columns: int
    rows: int


class ControlStream:
    """A control connection's output, in order: lines written now (a command's block,
    %pause) and notifications and panes' output, which wait while the client runs
    commands (`busy`, so that none lands in a block: tmux delivers them after the
    commands it has read) and while the connection is full."""

    def __init__(self, writer: asyncio.StreamWriter, text: Callable[[Notice], str | None]
                 ) -> None:
        self._writer = writer
        self._text = text
        self.client: ControlClient | None = None
        self.busy = False
        self._queue: deque[bytes | _Block] = deque()
        self._held: list[Notice | str | _Block] = []
        self._draining: asyncio.Task[None] | None = None
        self._pending = bytearray()
        """Written, not yet framed (`write_raw`)."""
        self.off: set[int] = set()
        """Panes whose output this client turned off (refresh-client -A %N:off)."""
        self.paused: set[int] = set()
        """Panes paused (pause-after, refresh-client -A %N:pause) until continued."""
        self.exit_message = ""
        """Why the client was let go, for its %exit line (tmux's exit_message)."""
        with contextlib.suppress(AttributeError, NotImplementedError):
            writer.transport.set_write_buffer_limits(high=BUFFER_HIGH, low=BUFFER_LOW)

    def write_raw(self, data: bytes) -> None:
        """`data` out, in one frame with whatever else is written before the event loop
        next turns (a command's %begin, its lines and its %end): a frame and a send per
        line would cost a command more than its own work."""
        if self._writer.is_closing():
            return
        if not self._pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self._pending += data

    def flush(self) -> None:
        """What `write_raw` holds, out now (before anything written to the connection
        other than through this stream)."""
        if self._pending and not self._writer.is_closing():
            self._writer.write(encode_frame(FrameType.OUTPUT, bytes(self._pending)))
        self._pending.clear()

    def write(self, line: str) -> None:
        """A line now (tmux's control_write), after what already waits to be written."""
        data = line.encode("utf-8", "surrogateescape") + b"\n"
        if self._queue or self._full():
            self._queue.append(data)
            self._pump()
        else:  # nothing waits: a command's block goes straight into the next frame
            self.write_raw(data)

    def notify(self, notice: Notice | str) -> None:
        """A notification (a line, or a Notice whose line is made as it is written):
        written once the client's commands are done, saying how things are then."""
        if self.busy:
            self._held.append(notice)
            return
        line = notice if isinstance(notice, str) else self._text(notice)
        if line is not None:
            self.write(line)

    def release(self) -> None:
        """The client's commands are done: what waited for them is written."""
        self.busy = False
        held, self._held = self._held, []
        for item in held:
            if isinstance(item, _Block):
                self._queue.append(item)
            else:
                self.notify(item)
        self._pump()

    def pane_output(self, pane: Pane, window: Window, data: bytes) -> None:
        """Output of a pane of the client's session (tmux's control_write_output)."""
        client = self.client
        if client is None or not client.session.has(window) or "no-output" in client.flags:
            return
        if pane.id in self.off or pane.id in self.paused:
            return
        queue: list[Notice | str | _Block] | deque[bytes | _Block] = (
            self._held if self.busy else self._queue)
        last = queue[-1] if queue else None
        if isinstance(last, _Block) and last.pane is pane:
            last.data.extend(data)
        else:
            queue.append(_Block(pane, bytearray(data), _now()))
        if not self._too_old(pane):
            self._pump()

    def _too_old(self, pane: Pane) -> bool:
        """Whether the pane's oldest waiting output is older than the client allows (tmux's
        control_check_age): then the pane is paused (pause-after), or the client let go."""
        client = self.client
        first = next((item for item in (*self._queue, *self._held)
                      if isinstance(item, _Block) and item.pane is pane), None)
        if client is None or first is None:
            return False
        age = _now() - first.since
        if age <= 0:
            return False
        pause_after = client.pause_after
        if pause_after is not None:
            if age < pause_after:
                return False
            self.pause(pane)
        else:
            if age < MAXIMUM_AGE:
                return False
            self.exit_message = "too far behind"
            self._discard(lambda block: True)
            client.detach()
        return True

    def pause(self, pane: Pane) -> None:
        """The pane's output stops, and what waits of it is dropped (%pause)."""
        if pane.id not in self.paused:
            self.paused.add(pane.id)
            self._discard(lambda block: block.pane is pane)
            self.write(f"%pause {pane.name}")

    def resume(self, pane: Pane) -> None:
        """A paused pane's output goes on from what it writes next (%continue)."""
        if pane.id in self.paused:
            self.paused.discard(pane.id)
            self.write(f"%continue {pane.name}")

    def _discard(self, which: Callable[[_Block], bool]) -> None:
        self._queue = deque(item for item in self._queue
                            if not (isinstance(item, _Block) and which(item)))
        self._held = [item for item in self._held
                      if not (isinstance(item, _Block) and which(item))]

    def backlogged(self) -> bool:
        """Whether it holds enough to write that the event loop should turn (a script of
        commands runs without waiting: its output, the panes' and other clients' would
        wait for all of it)."""
        return len(self._pending) >= BUFFER_LOW * 4 or bool(self._queue)

    def _full(self) -> bool:
        return (not self._writer.is_closing()
                and self._writer.transport.get_write_buffer_size() + len(self._pending)
                >= BUFFER_HIGH)

    def _pump(self) -> None:
        """Write what waits, as much as the connection takes (tmux's write callback)."""
        while self._queue and not self._full():
            item = self._queue[0]
            if isinstance(item, bytes):
                self._queue.popleft()
                self.write_raw(item)
                continue
            if self._too_old(item.pane):
                continue
            self.write_raw(self._output_line(item))
        if self._queue and self._draining is None and not self._writer.is_closing():
            self._draining = asyncio.get_running_loop().create_task(self._drain())

    def _output_line(self, block: _Block) -> bytes:
        """A %output line (%extended-output with pause-after) of the block's first
        bytes; the block is done with once it has none left."""
        data = bytes(block.data[:OUTPUT_CHUNK])
        del block.data[:OUTPUT_CHUNK]
        if not block.data:
            self._queue.popleft()
        client = self.client
        if client is not None and client.pause_after is not None:
            head = f"%extended-output {block.pane.name} {max(0, _now() - block.since)} : "
        else:
            head = f"%output {block.pane.name} "
        return head.encode() + escape_output(data) + b"\n"

    async def finish(self) -> None:
        """Everything written so far, out to the connection: before the last frame."""
        while self._queue and not self._writer.is_closing():
            self.flush()
            try:
                await self._writer.drain()
            except ConnectionError:
                return
            self._pump()
        self.flush()

    async def _drain(self) -> None:
        self.flush()
        try:
            await self._writer.drain()
        except ConnectionError:
            return
        finally:
            self._draining = None
        self._pump()


class _Subscription(NamedTuple):
    """refresh-client -B: a format watched for one target (tmux's control_sub)."""

    kind: str
    """session, pane, panes, window or windows."""
    id: int
    template: str
    last: dict[tuple[int, int], str]
    """The value last told, by (window or pane id, window index)."""


class ControlClient:
    """A client attached in control mode: it draws nothing and takes no keys; its
    commands come as lines (`feed`) and run in turn (`run`), each in a block."""

    def __init__(self, server: Server, session: Session, stream: ControlStream, *,
                 env: Mapping[str, str], cwd: str | None, tty: str = "", pid: int = 0,
                 uid: int | None = None) -> None:
        self.server = server
        self.session = session
        self.stream = stream
        stream.client = self
        self.tty = tty
        self.term = env.get("TERM", "")
        self.pid = pid
        self.uid = os.getuid() if uid is None else uid
        self.created = self.activity = time.time()
        self.last_session: Session | None = None
        self.suspended = False
        self.flags: set[str] = {"control-mode"}
        self.size = _Size(80, 24)
        """Its size (#{client_width}): tmux's 80x24 until refresh-client -C sets one,
        which only then counts for the session's (`sized`)."""
        self.sized = False
        self.window_sizes: dict[int, tuple[int, int]] = {}
        """Sizes it gave single windows (refresh-client -C @ID:WxH)."""
        self.detach_reason = ""
        self.detach_hangup = False
        self.detach_command: str | None = None
        self.hand_over: Callable[[str | None], None] = lambda lock_command: None
        self._env = dict(env)
        self.environ: Mapping[str, str] = self._env
        self._cwd = cwd
        self._table: str | None = None
        self._input = bytearray()
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._leaving = False
        self._done = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        """The task running `run`, while it does."""
        self._running = False
        """Whether a line is under way in it."""
        self.may_exit = asyncio.Event()
        """wait-exit: set by an empty line (or the end of the input) after %exit."""
        self._tasks: set[asyncio.Future[Any]] = set()
        self.subscriptions: dict[str, _Subscription] = {}
        self._subscribing: asyncio.TimerHandle | None = None

    # --- what it is -------------------------------------------------------------------

    @property
    def name(self) -> str:
        return client_name(self)

    @property
    def pause_after(self) -> int | None:
        """pause-after's age in milliseconds, if set."""
        for flag in self.flags:
            if flag.startswith("pause-after="):
                return int(flag.partition("=")[2]) * 1000
        return None

    @property
    def body_rows(self) -> int:
        return self.size.rows  # no status line in control mode

    @property
    def prompting(self) -> bool:
        return False

    @property
    def key_table(self) -> str:
        return self._table or Scoped(self.server.options, self.session.options).get(
            "key-table")

    def env(self) -> dict[str, str]:
        return dict(self._env)

    def active(self) -> Pane:
        return self.session.active_window.active

    # --- input ----------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """What the client sent: its lines are commands; an empty line detaches it
        (after the lines before it), as tmux's control_read_callback."""
        self._input += data
        while (end := self._input.find(b"\n")) >= 0:
            line = bytes(self._input[:end])
            del self._input[:end + 1]
            if not line:
                if self._leaving:
                    self.may_exit.set()  # wait-exit's empty line, after %exit
                else:
                    self._leave()
            elif not self._leaving:
                self._lines.put_nowait(line.decode("utf-8", "surrogateescape"))

    def end_of_input(self) -> None:
        """The client's input ended: no more commands, nor a wait for wait-exit."""
        self.may_exit.set()
        self._leave()

    def _leave(self) -> None:
        """No more commands: it detaches once those before have run."""
        if not self._leaving:
            self._leaving = True
            self._lines.put_nowait(None)

    async def run(self) -> None:
        """Run its lines in turn until it detaches; the notifications and output that
        came meanwhile are written once no line is left to run. A line runs in this
        task itself (a task per line would cost each command more than its own work);
        a detach while one runs cancels it (`detach`)."""
        self._runner = asyncio.current_task()
        try:
            while not self._done.is_set():
                line = await self._lines.get()
                if line is None:
                    break
                self.stream.busy = True
                self._running = True
                try:
                    await self.run_line(line)
                except asyncio.CancelledError:
                    if not self._done.is_set() or self._runner is None:
                        raise
                    self._runner.uncancel()  # the detach's cancel, not the server's
                    break
                finally:
                    self._running = False
                if self._lines.empty():
                    self.server.control.settle()
                    self.stream.release()
                elif self.stream.backlogged():
                    await asyncio.sleep(0)  # lines that never wait: let the rest run too
        finally:
            self._runner = None
            self._done.set()
            if self._subscribing is not None:
                self._subscribing.cancel()
            for task in self._tasks:
                task.cancel()

    async def run_line(self, line: str, *, pane: Pane | None = None) -> None:
        """A line of commands, each in its block; a line tmux cannot parse is one block
        saying why, and none of it runs; after a command that fails, the rest of the
        line does not run."""
        self.activity = time.time()
        try:
            commands = [parse_command(self.server, argv)
                        for argv in split_commands(line, ChainMap(self._env, os.environ))]
        except (LexError, UsageError) as error:
            number, now = self.server.control.next_number(), int(time.time())
            self.stream.write(f"%begin {now} {number} 1")
            self.stream.write(f"parse error: {error}")
            self.stream.write(f"%error {now} {number} 1")
            return
        context = Context(self.server, self.env(), self._cwd, session=self.session,
                          pane=pane, client=self, control=1)
        for command in commands:
            context.session = self.session
            result = await run_block(self.server, self.stream, context, command, 1, self.name)
            if result.attach is not None and not result.status:
                self.set_flags(result.client_flags)
                self.switch_to(f"${result.attach.id}")
            if result.status:
                break

    # --- what the verbs do to it ----------------------------------------------------

    def set_flags(self, flags: frozenset[str]) -> None:
        """attach's -f and -r flags, over those it has (clients.set_client_flags)."""
        if any(flag.startswith("pause-after=") for flag in flags):
            self.flags -= {flag for flag in self.flags if flag.startswith("pause-after=")}
        self.flags |= flags

    def resize(self, cols: int, rows: int) -> None:
        """refresh-client -C: its size, which counts for its session's from now on."""
        self.size = _Size(cols, rows)
        self.sized = True
        self.server.fit_session(self.session)

    def refresh(self, pane: Pane | None = None) -> None:
        pass

    def relayout(self) -> None:
        pass

    def refresh_status(self) -> None:
        pass

    def detach(self, reason: str | None = None) -> None:
        if not self._done.is_set():
            self.detach_reason = reason or ""
            self._done.set()
            self._lines.put_nowait(None)  # wakes `run` if it waits for a line
            runner = self._runner
            if self._running and runner is not None and runner is not asyncio.current_task():
                runner.cancel()  # the line under way stops at its next wait

    def leave_terminal(self, lock_command: str | None = None) -> None:
        pass  # no terminal to leave

    def wake(self) -> None:
        pass

    def write_terminal(self, text: str) -> None:
        pass

    def show_message(self, message: str, milliseconds: int | None = None, *,
                     ignore_keys: bool = False) -> None:
        pass  # no status line to show it on, as tmux's control clients

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def ask(self, label: str, text: str = "", *, kind: str = "command",
                  one_key: str = "", numeric: bool = False, confirming: bool = False,
                  on_change: Callable[[str], None] | None = None) -> str | None:
        return None  # no prompt to answer in

    def switch_to(self, target: str) -> None:
        """Show the session, window (and pane) `target` names (`$N`, `@N`, `%N`)."""
        for session in self.server.sessions.values():
            if target == f"${session.id}":
                self._switch_session(session)
                return
            for window in session.windows:
                pane = next((each for each in window.panes if each.name == target), None)
                if target == f"@{window.id}" or pane is not None:
                    if pane is not None:
                        window.select(pane)
                    link = session.link_of(window)
                    if link is not None:
                        session.select(link)
                    self._switch_session(session)
                    return

    def step_session(self, step: int) -> None:
        sessions = sorted(self.server.sessions.values(), key=lambda s: s.name)
        current = sessions.index(self.session)
        self.switch_to(f"${sessions[(current + step) % len(sessions)].id}")

    def _switch_session(self, session: Session) -> None:
        old, self.session = self.session, session
        session.last_attached = time.time()
        self.server.client_session_changed(self)
        if old is not session:
            self.last_session = old
            self.server.client_active(self)
            self.server.fit_session(old)

    def switch_key_table(self, table: str | None) -> None:
        self._table = table

    def display_panes(self, duration: float = 1.0, *, select: bool = True) -> None:
        pass

    def choose(self, request: ChooseRequest) -> None:
        pass

    def open_menu(self, items: list[tuple[str, str, str]], title: str, selected: Style,
                  place: Callable[[int, int], tuple[int, int]], *, mouse: bool,
                  stay_open: bool) -> asyncio.Future[str | None] | None:
        return None

    def status_window_start(self, index: int) -> int | None:
        return None  # no status line

    def open_popup(self, pane: Pane, box: tuple[int, int, int, int], lines: str | None,
                   border_style: Style, title: str, close_on_exit: int, style: Style
                   ) -> asyncio.Future[int] | None:
        return None

    def close_overlay(self) -> None:
        pass

    def pan(self, direction: str, adjustment: int) -> None:
        pass  # a control client draws no window

    def request_clipboard(self, pane: Pane | None) -> None:
        pass  # nor has a terminal to ask

    def start_copy_drag(self, mouse: Mouse) -> None:
        pass  # nor a mouse

    def start_border_drag(self, mouse: Mouse) -> None:
        pass

    # --- subscriptions (refresh-client -B) -------------------------------------------

    def subscribe(self, value: str) -> None:
        """NAME:WHAT:FORMAT watches FORMAT for the session (WHAT empty), a pane (%N),
        every pane (%*), a window (@N) or every window (@*); a NAME alone stops."""
        name, colon, rest = value.partition(":")
        if not colon:
            self.subscriptions.pop(name, None)
            return
        what, colon, template = rest.partition(":")
        if not colon:
            return
        kind, number = "session", -1
        if what in ("%*", "@*"):
            kind = "panes" if what == "%*" else "windows"
        elif what[:1] in ("%", "@") and what[1:].isdigit():
            kind, number = ("pane" if what[0] == "%" else "window"), int(what[1:])
        self.subscriptions[name] = _Subscription(kind, number, template, {})
        if self._subscribing is None:
            self._subscribing = asyncio.get_running_loop().call_later(
                SUBSCRIPTION_INTERVAL, self._check_subscriptions)

    def _check_subscriptions(self) -> None:
        """Each subscription's format, told when its value changed (tmux's
        control_check_subs_timer), as a notification."""
        self._subscribing = asyncio.get_running_loop().call_later(
            SUBSCRIPTION_INTERVAL, self._check_subscriptions)
        session = self.session
        if not session.windows:
            return
        for name, subscription in list(self.subscriptions.items()):
            for key, where, (values, scope) in self._targets(subscription, session):
                value = expand(subscription.template, values, scope=scope)
                if subscription.last.get(key) != value:
                    subscription.last[key] = value
                    self.stream.notify(f"%subscription-changed {name} ${session.id} "
                                       f"{where} : {value}")

    def _targets(self, subscription: _Subscription, session: Session) -> list[
            tuple[tuple[int, int], str, tuple[FormatVariables, ServerScope]]]:
        """What a subscription watches in `session`: (key, the line's target words,
        the format's variables and scope) for each."""
        server = self.server
        if subscription.kind == "session":
            return [((-1, -1), "- - -", format_target(server, session))]
        found = []
        for link in session.links:
            window = link.window
            if subscription.kind in ("window", "windows"):
                if subscription.kind == "window" and window.id != subscription.id:
                    continue
                found.append(((window.id, link.index), f"@{window.id} {link.index} -",
                              format_target(server, session, window, link=link)))
                continue
            for pane in window.panes:
                if subscription.kind == "pane" and pane.id != subscription.id:
                    continue
                found.append(((pane.id, link.index),
                              f"@{window.id} {link.index} {pane.name}",
                              format_target(server, session, window, pane, link=link)))
        return found


def window_size(server: Server, session: Session, window: Window) -> tuple[int, int] | None:
    """The size a control client of `session` gave `window` (refresh-client -C
    @ID:WxH), which it takes instead of the session's; None if none did."""
    for client in server.clients:
        if isinstance(client, ControlClient) and client.session is session:
            size = client.window_sizes.get(window.id)
            if size is not None:
                return size
    return None


async def run_block(server: Server, stream: ControlStream, context: Context,
                    command: list[str] | Parsed, flags: int, client: str) -> Result:
    """One command in its block: %begin, what it printed and said, %end (%error if it
    failed), numbered and timed as tmux's cmdq_guard; `flags` 1 for a command the
    client sent, 0 for the one it was started with."""
    number, now = server.control.next_number(), int(time.time())
    stream.write(f"%begin {now} {number} {flags}")
    server.log_message(command_message(
        client, command.argv if isinstance(command, Parsed) else command))
    try:
        result = await run_command(context, command)
    except Exception:  # a bug in a verb must not leave the block open
        traceback.print_exc()  # into the server's log
        result = Result(stderr="termhost: internal error (see the server log)\n", status=1)
    server.control.sync()  # what it changed is told apart from what the next one does
    for text in (result.stdout, result.stderr):
        if text:
            for line in text.removesuffix("\n").split("\n"):
                stream.write(line)
    stream.write(f"%{'error' if result.status else 'end'} {now} {number} {flags}")
    return result


class ControlConnection:
    """A connection in control mode, from its command line (`run_commands`) to its
    `%exit` (`serve`): attached in between if its command attached."""

    def __init__(self, server: Server, context: Context,
                 writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.context = context
        self.writer = writer
        self.stream = ControlStream(writer, self._text)
        self.client: ControlClient | None = None
        sock = writer.get_extra_info("socket")
        self.pid, self.uid = peer_credentials(sock) if sock is not None else (0, os.getuid())

    def _text(self, notice: Notice) -> str | None:
        client = self.client
        return self.server.control.text(notice, client.session if client else None, client)

    async def run_commands(self, commands: list[list[str]]) -> Result:
        """The command line it was started with, each command in its block (flags 0),
        until one fails or attaches."""
        if self.context.control == 2:
            self.stream.write_raw(DCS_START)
        self.server.control.listen(self.stream)
        self.stream.busy = True
        name = self.context.tty or f"client-{self.pid}"
        result = Result()
        for argv in commands:
            result = await run_block(self.server, self.stream, self.context, argv, 0, name)
            if result.status or result.attach is not None:
                break
        return result

    async def serve(self, result: Result, frames: AsyncIterator[Frame]) -> None:
        """Attached (if `result` attaches) until it detaches, then `%exit`, and with
        wait-exit an empty line from the client before the connection ends."""
        server = self.server
        reading: asyncio.Future[None] | None = None
        try:
            if result.attach is not None and not result.status:
                reading = await self._attached(result, frames)
            server.control.settle()
        finally:
            server.control.unlisten(self.stream)
        try:
            self.stream.release()
            reason = self.stream.exit_message
            self.stream.write(f"%exit {reason}" if reason else "%exit")
            client = self.client
            if client is not None and "wait-exit" in client.flags:
                await client.may_exit.wait()
        finally:
            if reading is not None:
                reading.cancel()
        await self.stream.finish()
        self.writer.write(encode_frame(FrameType.EXIT, encode_exit(
            1 if result.status else 0)))
        with contextlib.suppress(ConnectionError):
            await self.writer.drain()

    async def _attached(self, result: Result, frames: AsyncIterator[Frame]
                        ) -> asyncio.Future[None]:
        """The client attached until it detaches; what reads its frames still runs
        (wait-exit reads on), for the caller to end."""
        server, context = self.server, self.context
        assert result.attach is not None
        session = result.attach
        client = self.client = ControlClient(
            server, session, self.stream, env=context.env, cwd=context.cwd,
            tty=context.tty, pid=self.pid, uid=self.uid)
        client.set_flags(result.client_flags)
        server.clients.append(client)
        server.client_active(client)
        session.last_attached = session.activity_time = time.time()
        server.hook("client-attached", session)
        server.client_session_changed(client)
        server.control.settle()
        self.stream.release()

        async def take_frames() -> None:
            try:
                async for frame in frames:
                    if frame.type is FrameType.INPUT:
                        client.feed(frame.payload)
                    elif frame.type is FrameType.DETACH:
                        client.end_of_input()
            finally:
                client.end_of_input()  # the connection ended, or sent garbage

        reading = asyncio.ensure_future(take_frames())
        try:
            await client.run()
        except BaseException:
            reading.cancel()
            raise
        finally:
            if client in server.clients:
                server.clients.remove(client)
            server.fit_session(client.session)
            if client.session.windows:
                server.hook("client-detached", client.session)
            server.control.client_detached(client)
        return reading
