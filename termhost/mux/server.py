"""The termhost server: one per socket, holding the sessions and running client commands.

Started on demand by the first command that needs it (see client.py), in its own session
with its output in a log file, it serves the protocol of protocol.py: each connection
says HELLO, sends its environment, cwd and one command line, and gets the output and
the exit status back. A peer of another uid, a bad HELLO or a malformed frame drops that
connection only. The server exits when its last session ends, or on `kill-server`.

Built and run by the composition root, termhost/serve.py, which gives it the clients'
factory (the TUI's): mux/ never imports ui/.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import time
import traceback
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from termhost.mux import alerts, layout
from termhost.mux.access import AccessList
from termhost.mux.bindings import KeyTables
from termhost.mux.buffers import PasteBuffers
from termhost.mux.channels import Channel
from termhost.mux.commands import Context, Result, run_command
from termhost.mux.commands.hooks import fire_hook
from termhost.mux.commands.locking import note_activity
from termhost.mux.control import ControlClient, ControlConnection, window_size
from termhost.mux.control_notify import ControlHub
from termhost.mux.copy_mode import CopyMode
from termhost.mux.environment import Environment, merged
from termhost.mux.format_scope import FormatJobs
from termhost.mux.hooks import Hooks
from termhost.mux.layout import Cell
from termhost.mux.lexer import split_arguments
from termhost.mux.messages import MessageLog, command_message
from termhost.mux.model import Session, SessionGroup, Window, Winlink
from termhost.mux.options import Options, Scoped
from termhost.mux.pane import Pane
from termhost.mux.paths import (
    PANE_ID_VARIABLE,
    PANE_VARIABLE,
    PaneVariable,
    pane_variable,
    peer_allowed,
    peer_credentials,
)
from termhost.mux.prompt_history import PromptHistories
from termhost.mux.protocol import (
    FORCE_256_VARIABLE,
    PROTOCOL_VERSION,
    Frame,
    FrameDecoder,
    FrameType,
    ProtocolError,
    decode_argv,
    decode_environ,
    decode_hello,
    decode_size,
    encode_exit,
    encode_frame,
    encode_hello,
    version_mismatch,
)
from termhost.mux.resurrection import Resurrection
from termhost.mux.snapshots import SessionSnapshot
from termhost.mux.tty_input import TtyInput
from termhost.mux.tty_output import TtyOutput, open_tty
from termhost.mux.verbs import lookup
from termhost.resurrect import records
from termhost.snapshot import store as snapshot_store
from termhost.snapshot.model import Snapshot
from termhost.snapshot.queue import CaptureQueue

if TYPE_CHECKING:
    from termhost.mux.attached import Client, ClientFactory

__all__ = ["Server"]
_HANDSHAKE_TIMEOUT = 10.0




_NOT_INHERITED = ("TMUX", PANE_VARIABLE, PANE_ID_VARIABLE)
"""What a server started from inside a pane must not hand on to its own panes."""


class Server:
    """The sessions, and the loop that serves clients until nothing is left."""

    def __init__(self, path: Path, listener: socket.socket, client_factory: ClientFactory
                 ) -> None:
        self.path = path
        self.listener = listener
        self.client_factory = client_factory
        """Makes the client of a connection that attaches (the TUI's: termhost/serve.py)."""
        self.sessions: dict[str, Session] = {}
        self.groups: dict[str, SessionGroup] = {}
        """Session groups by name (new-session -t), while they have a session."""
        self.environment = Environment(
            {key: value for key, value in os.environ.items() if key not in _NOT_INHERITED})
        """The global environment: the server's own when it started (the starting
        client's), less the variables that name the server a client was in."""
        self.options = Options()
        self.access = AccessList()
        """Who besides the owner and root may connect (server-access)."""
        self.clients: list[Client] = []
        self._ids = {"session": 0, "window": 0, "pane": 0}
        self._done = asyncio.Event()
        self._commands_running = 0
        self.key_tables = KeyTables()
        self.buffers = PasteBuffers()
        self.hooks = Hooks()
        """The global hooks (set-hook -g), sessions' and windows' over them."""
        self._pipes: set[asyncio.Task[None]] = set()
        """copy-pipe's commands still running (the loop keeps only weak references)."""
        self.marked: Pane | None = None
        """The marked pane (select-pane -m), the one `{marked}` and `~` name; one at a
        time, as tmux's server-wide mark."""
        self.messages = MessageLog()
        """What show-messages lists: the clients' commands and status-line messages."""
        self.prompt_history = PromptHistories(
            lambda: self.options.number("prompt-history-limit"))
        """The prompts' lines, by prompt type, shared by every client as tmux's."""
        self.format_jobs = FormatJobs()
        """The `#()` commands formats have run, with their output (mux/format_scope.py)."""
        """The prefix bindings, as bind-key and unbind-key left them."""
        self.channels: dict[str, Channel] = {}
        """wait-for's channels, by name."""
        self.config_files: list[str] = []
        """The -f file the server ran as it started (#{config_files})."""
        self.config_causes: list[str] = []
        """What the -f file's commands said went wrong, until a session shows them
        (tmux's cfg_causes): in view mode over its active pane."""
        self._configured = asyncio.Event()
        """The -f file has been run: the first client's commands wait for it, as tmux's
        do, while other clients (a command the file itself runs) go ahead."""
        self._first_client = True
        self.resurrection = Resurrection(self, records.directory(os.environ, path))
        """The sessions' resurrection records (mux/resurrection.py)."""
        self.adopted_snapshots: dict[str, Snapshot] = {}
        """Snapshots for sessions about to be made, by name, taken instead of a capture
        (a resurrected session's, from its record)."""
        self.snapshots = snapshot_store.server_dir(os.environ, path)
        """Where the sessions' snapshots go (termhost.snapshot.store): emptied as the
        server starts and as it ends, so that no dead server's snapshot is ever used."""
        self.captures = CaptureQueue()
        self.control = ControlHub(self)
        """What clients in control mode are told of (mux/control_notify.py)."""
        """Every session's capture goes through it: a few at a time, identical ones shared."""

    async def load_config(self, path: str | None) -> None:
        """The -f file's tmux commands, run as the starting client's (whose environment
        and directory the server inherited), once the server takes connections: a
        command in it may be a client of this very server (`if 'termhost run true'`)."""
        try:
            if path is not None:
                self.config_files.append(path)
                context = Context(self, dict(os.environ), os.getcwd())
                result = await run_command(context, ["source-file", path])
                self.config_causes += result.stderr.splitlines()
        finally:
            self._configured.set()
        if self.sessions:
            self.show_config_causes(min(self.sessions.values(), key=lambda s: s.name))

    def show_config_causes(self, session: Session) -> None:
        """The configuration's errors in view mode over the session's active pane, as
        tmux shows them to the first session made once the file has been read."""
        if not self.config_causes or not self._configured.is_set() or not session.windows:
            return
        self.show_in_view_mode(session.active_window.active, list(self.config_causes))
        self.config_causes = []
        self.refresh(session)

    def show_in_view_mode(self, pane: Pane, lines: list[str]) -> None:
        """`lines` in `pane`'s view mode, after those it shows already, as tmux's
        window_copy_add: what a command run from a key binding or the command prompt
        printed, a configuration's errors. Every client showing the pane sees it."""
        if isinstance(pane.mode, CopyMode) and pane.mode.name == "view-mode":
            lines = pane.mode.text + lines
        window = next((each for each in self.windows() if pane in each.panes), None)
        keys = (self.window_option(window, "mode-keys") if window is not None
                else self.options.get("mode-keys"))
        pane.mode = CopyMode.of_text(lines, pane.terminal.cols, pane.terminal.rows,
                                     keys=keys, table=self.key_tables.mode_commands(keys))
        if window is not None:
            self.refresh_window(window)

    def marked_pane(self) -> tuple[Session, Window, Pane] | None:
        """Where the marked pane is, if it is still there."""
        for session in self.sessions.values():
            for window in session.windows:
                if self.marked in window.panes:
                    return session, window, self.marked
        return None

    def windows(self) -> list[Window]:
        """Every window of the server, once each however often it is linked."""
        seen: dict[int, Window] = {}
        for session in self.sessions.values():
            for window in session.windows:
                seen.setdefault(window.id, window)
        return list(seen.values())

    def sessions_of(self, window: Window) -> list[Session]:
        """The sessions `window` is linked to (tmux's window_linked_sessions)."""
        return [session for session in self.sessions.values() if session.has(window)]

    def log_message(self, text: str | Callable[[], str]) -> None:
        """Into the message log (show-messages), as many as message-limit kept; `text`
        may be what makes it, when read."""
        self.messages.add(text, self.options.number("message-limit"))

    def _exit_if_empty(self, may_leave_empty: bool) -> None:
        """tmux's exit-empty: after a command that may start a server without making a
        session (a verb declared `may_leave_empty`: start-server, list-keys,
        source-file), a server left with no session and no other command under way
        ends. Other commands (has-session while a new-session starts the server) never
        end it: its sessions are on their way."""
        empty = not self.sessions and not self.clients and not self._commands_running
        if empty and may_leave_empty:
            self._done.set()

    def _next(self, kind: str) -> int:
        value = self._ids[kind]
        self._ids[kind] += 1
        return value

    async def serve(self, config: str | None = None) -> None:
        """Accept clients until `shutdown()`, running the `config` file first."""
        shutil.rmtree(self.snapshots, ignore_errors=True)
        server = await asyncio.start_unix_server(self._client, sock=self.listener)
        loading = asyncio.create_task(self.load_config(config))
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            loop.add_signal_handler(signum, self.shutdown)
        self.resurrection.start()
        try:
            await self._done.wait()
        finally:
            loading.cancel()
            server.close()
            shutil.rmtree(self.snapshots, ignore_errors=True)
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
            # Last, once the socket is gone: a capture still running gets its grace to
            # clean up (its traps run) before the server exits.
            await self.captures.close()

    def where_from(self, env: Mapping[str, str]) -> tuple[Session | None, Pane | None]:
        """The session and pane a command runs in when it runs in one of our panes, as
        tmux reads $TMUX and $TMUX_PANE: the pane by $TERMHOST_PANE wherever it is now
        (join-pane may have moved it), else the session $TERMHOST names."""
        inside = pane_variable(env)
        if inside is None or inside.socket != self.path or inside.server_pid != os.getpid():
            return None, None
        name = env.get(PANE_ID_VARIABLE)
        for session in self.sessions.values():
            for window in session.windows:
                for pane in window.panes:
                    if pane.name == name:
                        return session, pane
        session_id = inside.session_id
        return next((s for s in self.sessions.values() if s.id == session_id), None), None

    def environ_of(self, session: Session) -> dict[str, str]:
        """The environment new panes of `session` start with: the global and session
        environments merged, as tmux's (mux/environment.py)."""
        return merged(self.environment, session.environment)

    def refresh(
        self, session: Session, *, layout_changed: bool = True, pane: Pane | None = None
    ) -> None:
        """Redraw the clients attached to `session`: all of it, or only the panes (after
        output of `pane`)."""
        if layout_changed:
            self.control.changed()
            self.resurrection.changed()
        for client in self.clients:
            if client.session is session:
                if layout_changed:
                    client.relayout()
                else:
                    client.refresh(pane)

    def refresh_window(self, window: Window) -> None:
        """Redraw the clients of every session `window` is linked to."""
        for session in self.sessions_of(window):
            self.refresh(session)

    def refresh_all(self, *, sizes: bool = True) -> None:
        """Redraw every client (an option that shows changed; the status bar may have come
        or gone, which changes the room the windows have); `sizes` False for a change
        that cannot move a window's edges (a user option, which formats may show)."""
        for session in self.sessions.values():
            if sizes:
                self.fit_session(session)
                for window in session.windows:
                    self.fit_window(session, window)  # pane-border-status may have changed
            self.refresh(session)

    def default_shell(self, env: Mapping[str, str]) -> str:
        """The shell a pane runs when given no command, and the one a session's snapshot
        captures: default-shell, else the client's $SHELL, else /bin/sh."""
        return self.options.get("default-shell") or env.get("SHELL") or "/bin/sh"

    def window_name(self, window: Window) -> str:
        """#{window_name}: the active pane's program (`[tmux]` while the pane is in a
        mode, as tmux's automatic-rename-format has it) while automatic-rename is on and
        no name was given (tmux's automatic rename), else the window's name. The name
        shown is kept in `window.name`, which a target by name (`work:vim`) matches."""
        if window.automatic_name and self.window_option(window, "automatic-rename") == "on":
            program = "[tmux]" if window.active.mode is not None else None
            window.name = program or window.active.current_command() or window.name
        return window.name

    def session_option(self, session: Session, name: str) -> str:
        """A session option's value for `session`: its own, else the global one."""
        return Scoped(self.options, session.options).get(name)

    def window_option(self, window: Window, name: str) -> str:
        """A window option's value for `window`: its own, else the global one."""
        return window.options.get(name) or self.options.get(name)

    def pane_option(self, window: Window, pane: Pane, name: str) -> str:
        """A pane option's value for `pane` of `window`: its own (set -p), else the
        window's, else the global one."""
        return pane.options.get(name) or self.window_option(window, name)

    def fit_window(self, session: Session, window: Window) -> None:
        """The window's layout (and so its panes, TIOCSWINSZ) to the session's size, with
        the rows pane-border-status takes from the panes along its edge."""
        root = window.layout
        labels = self.window_option(window, "pane-border-status")
        cols, rows = window_size(self, session, window) or (session.cols, session.rows)
        if (root.width, root.height, window.labels) != (cols, rows, labels):
            layout.resize(root, cols, rows)
            root.place(0, 0)
            window.labels = labels
            window.fit_panes()

    def resize_session(self, session: Session, cols: int, rows: int) -> None:
        """Every window's layout and every pane (TIOCSWINSZ) to cols x rows."""
        if (session.cols, session.rows) == (cols, rows):
            return
        session.cols, session.rows = cols, rows
        for window in session.windows:
            self.fit_window(session, window)
        self.refresh(session)

    def client_active(self, client: Client) -> None:
        """A client attached, resized or typed: it is the latest (first in `clients`),
        and its session's size follows the `window-size` option."""
        if self.clients and self.clients[0] is not client:
            self.clients.remove(client)
            self.clients.insert(0, client)
        self.fit_session(client.session)

    def fit_session(self, session: Session) -> None:
        """The session's size from its attached clients (less the status line): the
        latest one's, the smallest or the largest of each dimension, as `window-size`
        says; `manual` (or resize-window) keeps it as it is."""
        mode = self.options.get("window-size")
        sizes = [
            (client.size.columns, client.body_rows)
            for client in self.clients
            if client.session is session and not client.suspended
            and "ignore-size" not in client.flags
            and not (isinstance(client, ControlClient) and not client.sized)
        ]
        if not sizes or mode == "manual" or session.manual_size:
            return
        if mode == "latest":
            cols, rows = sizes[0]
        else:
            pick = min if mode == "smallest" else max
            cols, rows = pick(c for c, _ in sizes), pick(r for _, r in sizes)
        self.resize_session(session, cols, rows)

    def shutdown(self, *, on_purpose: bool = False) -> None:
        """Every pane killed, then the server exits. Killed by a signal (SIGTERM as the
        machine shuts down, SIGHUP, SIGINT), the sessions' resurrection records stay, so
        they can come back; ended `on_purpose` (kill-server), the sessions end as
        kill-session ends one, and no record stays, as tmux's scripts expect (`ls`
        after kill-server lists no session of the old server's)."""
        if not on_purpose:
            self.resurrection.freeze()
        for session in list(self.sessions.values()):
            self.kill_session(session)
        self._done.set()

    # --- the model ---------------------------------------------------------------------

    async def new_session(
        self,
        name: str | None,
        cols: int,
        rows: int,
        args: Sequence[str],
        client_env: Mapping[str, str],
        cwd: str | None,
        window_name: str | None,
        extra: Mapping[str, str] | None = None,
        *,
        update_environment: bool = True,
        group: SessionGroup | None = None,
    ) -> Session:
        """A session with one window running `args` (one string: through `sh -c`), or in
        `group` (new-session -t) the group's windows, at their indices, the first
        current; named `GROUP-ID` when not given a name, as tmux names it. Its
        environment takes update-environment's variables from the creating client's
        `client_env` (unless not `update_environment`: new-session -E), and `extra`
        (new-session -e)."""
        session_id = self._next("session")
        if name is None:
            name = f"{group.name}-{session_id}" if group is not None else str(session_id)
        while name in self.sessions:  # an automatic name taken by an explicit one
            name = str(self._next("session"))
        session = Session(session_id, name, cols, rows, path=cwd or os.getcwd())
        if update_environment:
            session.environment.update_from(
                self.options.get("update-environment").split(), client_env)
        for key, value in (extra or {}).items():
            session.environment.set(key, value)
        env = self.environ_of(session)
        if group is not None and group.sessions:
            group.copy_links(group.sessions[0], session)
            session.current, session.last = session.links[0], None
            self.fit_session(session)
        else:
            await self.new_window(session, args, env, cwd, window_name, select=True)
        if group is not None:
            group.sessions.append(session)
            for member in group.sessions:
                member.group = group
            self.groups[group.name] = group
        self.sessions[name] = session
        session.snapshot = SessionSnapshot(
            self.default_shell(env), cwd, env, self.snapshots, session.id, session.name,
            timeout=self.options.number("snapshot-timeout"), captures=self.captures)
        session.snapshot.register()
        adopted = self.adopted_snapshots.pop(session.name, None)
        if adopted is not None:
            session.snapshot.adopt(adopted)
        elif self.options.get("snapshots") == "on":
            session.snapshot.start()
        self.hook("session-created", session)
        return session

    async def new_window(
        self,
        session: Session,
        args: Sequence[str],
        env: dict[str, str],
        cwd: str | None,
        name: str | None,
        *,
        select: bool,
        index: int | None = None,
    ) -> Window:
        """A window at `index` (else the session's lowest free index from base-index),
        its pane running `args`."""
        labels = self.options.get("pane-border-status")
        rows = session.rows - (labels != "off" and session.rows >= 2)  # the label line's
        pane = await self._start_pane(session, args, env, cwd, session.cols, rows)
        if index is None:
            index = session.free_index(int(self.session_option(session, "base-index")))
        layout = Cell[Pane]("pane", session.cols, session.rows, pane=pane)
        window = Window(self._next("window"), name or pane.current_command(), layout, pane,
                        automatic_name=name is None, labels=labels)
        session.add(window, index, select=select)
        self._watch(window, pane)
        self.synchronize_group(session)
        self.refresh(session)
        self.hook("window-linked", session, window)
        return window

    def _watch(self, window: Window, pane: Pane) -> None:
        """Wire a pane into `window`: its end re-cuts the window, its output redraws the
        clients of every session the window is linked to (looked up when it happens: a
        window moves and links)."""
        pane.on_close = lambda closed: self._pane_closed(window, closed)
        self.control.watch(window, pane)
        pane.on_output = lambda wrote: self._pane_wrote(window, wrote)
        pane.yield_to_typing = lambda: any(
            session.typed_recently() for session in self.sessions_of(window))
        pane.terminal.screen.scroll_on_clear = lambda: self.pane_option(
            window, pane, "scroll-on-clear") == "on"

    def _pane_wrote(self, window: Window, pane: Pane) -> None:
        """Show what `pane` wrote, and act on its alerts: flags in the status bars, the
        bell rung on the clients' terminals, the clipboard set."""
        holders = self.sessions_of(window)
        for session in holders:
            self.refresh(session, layout_changed=False, pane=pane)
        found = alerts.look(self, holders, window, pane)
        for session in holders:
            if found.flags_changed:
                self.refresh(session)
            if found.rang:
                self.to_terminals("\a", session)
        for data in found.copied:
            self.buffers.set(data)
            self.to_terminals(alerts.clipboard_sequence(data))

    def copy_text(self, text: str, pipe: str | None = None) -> None:
        """Copy mode copied `text`: a new paste buffer and, unless set-clipboard is off,
        the clipboard of the terminals (OSC 52), as tmux does; with `pipe` (copy-pipe's
        command, "" for the copy-command option's) also that command's stdin."""
        data = text.encode("utf-8", "surrogateescape")
        self.buffers.set(data)
        if self.options.get("set-clipboard") != "off":
            self.to_terminals(alerts.clipboard_sequence(data))
        command = pipe or (self.options.get("copy-command") if pipe is not None else "")
        if command:
            task = asyncio.get_running_loop().create_task(_pipe_to(command, data))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    def to_terminals(self, text: str, session: Session | None = None) -> None:
        """Write `text` to the terminals of the attached clients (of `session` only)."""
        for client in self.clients:
            if session is None or client.session is session:
                client.write_terminal(text)

    async def split_window(
        self,
        session: Session,
        window: Window,
        target: Pane,
        args: Sequence[str],
        env: dict[str, str],
        cwd: str | None,
        *,
        horizontal: bool,
        size: int | None,
        percentage: int | None,
        before: bool,
        select: bool,
        full: bool = False,
        empty: bool = False,
    ) -> Pane:
        """A new pane beside (-h) or below (-v) `target`, the layout re-cut as tmux's;
        `full` (-f): beside or below the whole window, spanning its height or width;
        `empty`: a pane with no process (split-window -I, split-window '').

        Raises LayoutError (no space) before anything starts.
        """
        cols, rows = layout.new_cell_size(
            window.layout if full else window.layout.find(target), horizontal=horizontal,
            size=size, percentage=percentage, before=before,
        )
        pane = await self._start_pane(session, args, env, cwd, cols, rows, empty=empty)
        if target not in window.panes:  # gone while the pane started (kept dead: still there)
            pane.kill()
            raise layout.LayoutError(f"pane {target.name} closed during the split")
        self._split_with(session, window, target, pane, horizontal=horizontal, size=size,
                         percentage=percentage, before=before, select=select, full=full)
        return pane

    def _split_with(
        self, session: Session, window: Window, target: Pane, pane: Pane, *,
        horizontal: bool, size: int | None, percentage: int | None, before: bool,
        select: bool, full: bool = False,
    ) -> None:
        """`pane` (new, or moved by join-pane) into a split of `target`'s cell, or with
        `full` of the whole layout (whose panes then share what is left)."""
        window.zoomed = False  # a split unzooms, as in tmux
        whole = window.layout
        size_before = whole.width, whole.height
        window.layout = layout.split(
            whole if full else window.layout.find(target), pane, horizontal=horizontal,
            size=size, percentage=percentage, before=before,
        )
        if full:  # the old layout, now one child, shrunk into the size split left it
            left = whole.width, whole.height
            whole.width, whole.height = size_before
            layout.resize(whole, *left)
        self._watch(window, pane)
        window.fit_panes()
        if select:
            window.select(pane)
        self.refresh_window(window)

    async def _start_pane(
        self,
        session: Session,
        args: Sequence[str],
        env: dict[str, str],
        cwd: str | None,
        cols: int,
        rows: int,
        *,
        again: Pane | None = None,
        empty: bool = False,
    ) -> Pane:
        """A pane running `args` (one string: through the default shell's `-c`, as tmux
        3.3a's spawn runs it, so `bash -c 'vim x'` execs vim and the window is named
        vim; none: the user's shell, or what `again` ran, keeping its id: respawn-pane);
        `empty`: a pane that runs nothing (Pane.empty), `args` kept for respawn-pane."""
        if len(args) == 1:
            argv = [self.default_shell(env), "-c", args[0]]
        elif args:
            argv = list(args)
        elif again is not None:
            argv = list(again.argv)
        else:
            argv = [self.default_shell(env)]
        pane_id = again.id if again is not None else self._next("pane")
        history_limit = int(self.session_option(session, "history-limit"))
        if empty:
            pane = Pane.empty(pane_id, argv, cwd=cwd, cols=cols, rows=rows,
                              history_limit=history_limit)
            pane.start_command = list(args)
            return pane
        env = {
            **env,
            "TERM": self.session_option(session, "default-terminal"),
            PANE_VARIABLE: str(PaneVariable(self.path, os.getpid(), session.id)),
            PANE_ID_VARIABLE: f"%{pane_id}",
        }
        pane = await Pane.start(pane_id, argv, env=env, cwd=cwd, cols=cols, rows=rows,
                                history_limit=history_limit)
        pane.start_command = list(args) if args or again is None else again.start_command
        return pane

    async def respawn_window(
        self, session: Session, window: Window, args: Sequence[str], env: dict[str, str],
        cwd: str | None,
    ) -> Pane:
        """respawn-window: every pane but the first killed, the first given the whole
        window and started again (`args`, or what it ran), as tmux's spawn_window with
        SPAWN_RESPAWN."""
        keep = window.panes[0]
        for pane in window.panes[1:]:
            pane.on_close = None  # gone now, not when its process is
            pane.kill()
            self._take_out(window, pane)
        window.zoomed = False
        return await self.respawn_pane(session, window, keep, args, env, cwd)

    async def respawn_pane(
        self, session: Session, window: Window, pane: Pane, args: Sequence[str],
        env: dict[str, str], cwd: str | None,
    ) -> Pane:
        """respawn-pane: a new process in `pane`'s place (its id, its cell), the old one
        killed if it still runs; with no `args`, what it ran before. The pane keeps its
        history and history-limit, as tmux's screen_reinit clears only the screen."""
        cell = window.cell_of(pane)
        new = await self._start_pane(session, args, env, cwd, cell.width, cell.height,
                                     again=pane)
        pane.on_close = None  # replaced, not closed: its cell stays
        pane.kill()
        new.options = pane.options  # the same pane to tmux: its options stay
        kept, history = pane.terminal.history, new.terminal.history
        history.limit = kept.limit
        history.replace([*kept.raw(), *history.raw()])
        cell = window.layout.find(pane)  # the layout may have changed meanwhile
        cell.pane = new
        if window.active is pane:
            window.active = new
        if window.last is pane:
            window.last = new
        self._watch(window, new)
        window.fit_panes()
        self.refresh_window(window)
        return new

    def break_pane(
        self, session: Session, window: Window, pane: Pane, to: Session, index: int | None,
        name: str | None, *, select: bool,
    ) -> None:
        """break-pane: `pane` leaves its window for a new one of its own in `to` (at
        `index`, else the lowest free one); not the only pane of a window (the
        verb moves the window then)."""
        assert len(window.panes) > 1, "break-pane moves a window of one pane"
        if window.active is pane:  # as tmux's: the window's active pane goes, then its cell
            window.active = window.last if window.last not in (None, pane) else next(
                each for each in window.panes if each is not pane)
            window.last = None
            self.control.sync()
        self._take_out(window, pane)
        if index is None:
            index = to.free_index(int(self.session_option(to, "base-index")))
        cell = Cell[Pane]("pane", to.cols, to.rows, pane=pane)
        new = Window(self._next("window"), name or pane.current_command(), cell, pane,
                     automatic_name=name is None)
        link = to.add(new, index, select=False)
        self.synchronize_group(to)
        self._watch(new, pane)
        self.fit_window(to, new)
        new.fit_panes()
        self.control.window_renamed(new)  # tmux's break-pane names it, and tells so
        self.hook("window-linked", to, new)
        if select:  # once linked, as tmux tells of the two
            to.select(link)
        self.refresh(to)

    def link_window(self, window: Window, to: Session, index: int, *, select: bool
                    ) -> Winlink:
        """link-window: `window` also at `index` of `to` (free: the caller makes room),
        as tmux's server_link_window. Its size is the clients' to choose (with none, it
        keeps the one it has, as tmux)."""
        link = to.add(window, index, select=False)
        self.synchronize_group(to)
        self.fit_session(to)
        self.hook("window-linked", to, window)
        if select:  # after it is linked, as tmux tells of the two
            to.select(link)
        self.refresh(to)
        return link

    def move_window(self, session: Session, link: Winlink, to: Session, index: int, *,
                    select: bool) -> None:
        """move-window to another session: the window at `link` leaves `session` (which
        ends with its last window) for index `index` of `to`, as tmux's
        server_link_window then server_unlink_window."""
        self.link_window(link.window, to, index, select=select)
        self.unlink_window(session, link.window, link)

    def join_pane(
        self, session: Session, window: Window, pane: Pane,
        to: Session, into: Window, target: Pane, *,
        horizontal: bool, size: int | None, percentage: int | None, before: bool,
        select: bool, full: bool = False,
    ) -> None:
        """join-pane (move-pane): `pane` leaves its window and splits `target`'s cell (or
        with `full` the whole window), as split-window would with a new pane. Raises
        LayoutError (no space) before anything moves."""
        layout.new_cell_size(into.layout if full else into.layout.find(target),
                             horizontal=horizontal, size=size, percentage=percentage,
                             before=before)
        self._take_out(window, pane)
        if select:
            into_link = to.link_of(into)
            if into_link is not None:
                to.select(into_link)
        self._split_with(to, into, target, pane, horizontal=horizontal, size=size,
                         percentage=percentage, before=before, select=select, full=full)

    def swap_panes(
        self, session: Session, window: Window, pane: Pane,
        other_session: Session, other_window: Window, other: Pane, *, keep_active: bool,
    ) -> None:
        """swap-pane: `pane` and `other` trade cells (and windows). The active pane
        follows `other` (the target) unless `keep_active` (-d): then whichever place
        was active stays active, with the pane now there, as tmux's."""
        cell, other_cell = window.layout.find(pane), other_window.layout.find(other)
        cell.pane, other_cell.pane = other, pane
        if window is not other_window:  # each window's active place keeps its pane
            for win, gone, came in ((window, pane, other), (other_window, other, pane)):
                if win.active is gone:
                    win.active = came
                if win.last is gone:
                    win.last = None
        else:
            if keep_active:
                if window.active is pane:
                    window.active = other
                elif window.active is other:
                    window.active = pane
            else:
                window.select(other)
        window.zoomed = other_window.zoomed = False
        self._watch(window, other)
        self._watch(other_window, pane)
        window.fit_panes()
        other_window.fit_panes()
        self.refresh_window(window)
        if other_window is not window:
            self.refresh_window(other_window)

    def rotate_window(self, session: Session, window: Window, *, down: bool) -> None:
        """rotate-window: every pane moves one place on (-D) or back (-U) in pane
        order; the active place stays active, with the pane now there, as tmux's."""
        cells = [leaf for leaf in window.layout.leaves() if leaf.pane is not None]
        panes = window.panes  # the same order
        place = panes.index(window.active)
        panes = panes[-1:] + panes[:-1] if down else panes[1:] + panes[:1]
        for cell, pane in zip(cells, panes, strict=True):
            cell.pane = pane
        window.active, window.last = panes[place], None
        window.zoomed = False
        window.fit_panes()
        self.refresh_window(window)

    def hook(self, name: str, session: Session, window: Window | None = None,
             pane: Pane | None = None) -> None:
        """An event happened: the control clients hear of it, and its hook runs, in the
        background (commands/hooks.py)."""
        self.control.event(name, session, window)
        self.resurrection.changed()
        fire_hook(Context(self), name, session, window, pane)

    def client_session_changed(self, client: Client) -> None:
        """`client` attached to, or switched to, the session it shows now."""
        self.control.client_session_changed(client)

    def rename_session(self, session: Session, name: str) -> None:
        del self.sessions[session.name]
        old, session.name = session.name, name
        self.resurrection.renamed(old)
        self.sessions[name] = session
        if session.snapshot is not None:
            session.snapshot.rename(name)
        self.hook("session-renamed", session)

    def kill_session(self, session: Session) -> None:
        """Every pane of the session killed, but those of a window linked to another
        session too, which only leaves this one (tmux's session_destroy); the session
        goes with its last window."""
        self._leave_group(session)  # the group's windows stay with the others
        for window in list(session.windows):
            if len(self.sessions_of(window)) > 1:
                self.unlink_window(session, window)
            else:
                self.kill_window(window)

    def kill_window(self, window: Window) -> None:
        """kill-window: every pane killed, so the window leaves every session it is in."""
        for pane in window.panes:
            pane.kill()

    def unlink_window(self, session: Session, window: Window,
                      link: Winlink | None = None) -> None:
        """`window` (at `link`, else at every place) leaves `session` and lives on where
        else it is linked, as tmux's server_unlink_window; the session ends with its last
        window."""
        for place in [link] if link is not None else [
                each for each in session.links if each.window is window]:
            session.unlink(place)
        self.synchronize_group(session)
        self.refresh(session)
        if not session.links:
            self.hook("session-closed", session)
        self.hook("window-unlinked", session, window)
        self._end_if_empty(session)

    def _stays_dead(self, window: Window, pane: Pane) -> bool:
        """remain-on-exit: whether a pane whose process ended stays, marked dead."""
        remain = self.pane_option(window, pane, "remain-on-exit")
        status = pane.exit_status
        if pane.killed or status is None or remain == "off":
            return False
        return remain == "on" or status.returncode != 0

    def _pane_closed(self, window: Window, pane: Pane) -> None:
        holders = self.sessions_of(window)
        if self._stays_dead(window, pane):
            pane.show_dead()
            for session in holders:
                self.refresh(session, layout_changed=False)
            if holders:
                self.hook("pane-died", holders[0], window, pane)
            return
        if not pane.killed and holders:
            self.hook("pane-exited", holders[0], window, pane)
        self._take_out(window, pane)

    def _take_out(self, window: Window, pane: Pane) -> None:
        """Remove `pane` from `window` (closed, or moving elsewhere): its space goes to
        a neighbour; the window goes with its last pane from every session it is in,
        a session with its last window."""
        holders = self.sessions_of(window)
        remaining = layout.close(window.layout, pane)
        if remaining is not None:
            window.layout = remaining
            window.zoomed = False
            self.control.sync()  # tmux tells of the layout before the active pane
            if window.last is pane:
                window.last = None
            if window.active is pane:
                window.active = window.last or window.panes[0]
                window.last = None
            self.control.sync()
            window.fit_panes()
            for session in holders:
                self.refresh(session)
            return
        for session in holders:
            if session.has(window):  # not gone with a group's already
                self.unlink_window(session, window)

    def synchronize_group(self, session: Session) -> None:
        """The windows of `session` made those of every session in its group, as tmux's
        session_group_synchronize_from: after any window is made, linked, unlinked or
        moved in it."""
        group = session.group
        if group is None or not session.links:
            return  # an empty session ends, and the others keep their windows
        for member in group.sessions:
            if member is not session:
                group.copy_links(session, member)
                self.fit_session(member)
                self.refresh(member)

    def _leave_group(self, session: Session) -> None:
        group = session.group
        if group is None:
            return
        session.group = None
        if session in group.sessions:
            group.sessions.remove(session)
        if not group.sessions and self.groups.get(group.name) is group:
            del self.groups[group.name]

    def _end_if_empty(self, session: Session) -> None:
        if not session.links:
            for client in list(self.clients):
                if client.session is session:
                    client.detach("exited")
        if not session.links and self.sessions.get(session.name) is session:
            del self.sessions[session.name]
            self.resurrection.ended(session.name)
            self._leave_group(session)
            if session.snapshot is not None:
                session.snapshot.discard()
            if not self.sessions:
                self._done.set()  # the last session ended: so does the server

    # --- clients -------------------------------------------------------------------

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            sock = writer.get_extra_info("socket")
            if sock is None:
                return
            if not peer_allowed(sock, self.access):
                await _refuse(reader, writer, "access not allowed")
                return
            await self._converse(reader, writer)
        except (
            TimeoutError, ProtocolError, ConnectionError, asyncio.IncompleteReadError,
            StopAsyncIteration,  # gone before it said HELLO
        ):
            pass  # that client is dropped; the server carries on
        finally:
            writer.close()

    async def _converse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        decoder = FrameDecoder()
        frames = _frames(reader, decoder)
        hello = await asyncio.wait_for(anext(frames), _HANDSHAKE_TIMEOUT)
        version = decode_hello(hello)
        writer.write(encode_hello())
        if version != PROTOCOL_VERSION:
            writer.write(encode_frame(FrameType.ERROR, version_mismatch(
                PROTOCOL_VERSION, version).encode()))
            await writer.drain()
            return
        context = Context(self, command_line=True)
        sock = writer.get_extra_info("socket")
        context.read_only = sock is not None and self.access.read_only(
            peer_credentials(sock)[1])
        # tmux's name of a client without a terminal, in the message log:
        peer = f"client-{peer_credentials(sock)[0]}" if sock is not None else "client"
        first, self._first_client = self._first_client, False
        async for frame in frames:
            if frame.type is FrameType.ENVIRON:
                env = decode_environ(frame.payload)
                context.force_256 = env.pop(FORCE_256_VARIABLE, None) is not None
                context.env = env
                context.session, context.pane = self.where_from(env)
            elif frame.type is FrameType.CWD:
                context.cwd = os.fsdecode(frame.payload) or None
            elif frame.type is FrameType.TTY:
                context.tty = os.fsdecode(frame.payload)
            elif frame.type is FrameType.TTY_OUTPUT:
                context.tty_output = True
            elif frame.type is FrameType.RESIZE:
                context.size = decode_size(frame.payload)
            elif frame.type is FrameType.CONTROL:
                context.control = 2 if frame.payload == b"2" else 1
            elif frame.type is FrameType.COMMAND:
                context.stdin = _stdin_reader(frames, writer)
                self._commands_running += 1
                commands = split_arguments(decode_argv(frame.payload)) or [[]]
                control = ControlConnection(self, context, writer) if context.control else None
                try:
                    if first:
                        await self._configured.wait()
                    result = await (control.run_commands(commands) if control is not None
                                    else self._run_sequence(context, commands,
                                                            context.tty or peer))
                finally:
                    self._commands_running -= 1
                if control is not None:  # in control mode (-C) to its %exit
                    await control.serve(result, frames)
                    verb = lookup(commands[0][0]) if commands[0] else None
                    self._exit_if_empty(verb is not None and verb.may_leave_empty)
                    return
                if result.attach is not None and not result.stderr:
                    await self._attached(result.attach, context, frames, writer,
                                         result.client_flags)
                    return
                if result.stdout:
                    writer.write(encode_frame(FrameType.STDOUT, result.stdout.encode(
                        "utf-8", "surrogateescape")))  # a snapshot's values: any bytes
                if result.stderr:
                    writer.write(encode_frame(FrameType.STDERR, result.stderr.encode()))
                writer.write(encode_frame(FrameType.EXIT, encode_exit(result.status)))
                await writer.drain()
                verb = lookup(commands[0][0]) if commands[0] else None
                self._exit_if_empty(verb is not None and verb.may_leave_empty)
                return
            else:
                raise ProtocolError(f"unexpected {frame.type.name} frame")

    async def _run_sequence(self, context: Context, commands: list[list[str]],
                            client_name: str) -> Result:
        """A client's commands in turn (`new -d ; has -t x`), their output together, up
        to the first that fails or attaches, as tmux runs a command line's list; each
        logged as it runs (show-messages)."""
        outcome = Result()
        if context.read_only and not all(_read_only_may_run(argv) for argv in commands):
            return Result(stderr="client is read-only\n", status=1)
        for argv in commands:
            if argv:
                self.log_message(command_message(client_name, argv))
            result = await run_command(context, argv)
            result.stdout = outcome.stdout + result.stdout
            result.stderr = outcome.stderr + result.stderr
            outcome = result
            if result.status or result.attach is not None:
                break
        return outcome

    async def _attached(
        self,
        session: Session,
        context: Context,
        frames: AsyncIterator[Frame],
        writer: asyncio.StreamWriter,
        flags: frozenset[str] = frozenset(),
    ) -> None:
        """Serve an attached client until it detaches or its session ends; `flags` are
        what it is (read-only, ignore-size)."""
        assert context.size is not None
        cols, rows = context.size

        def relay(data: bytes) -> None:
            if not writer.is_closing():
                writer.write(encode_frame(FrameType.OUTPUT, data))

        fd = open_tty(context.tty) if context.tty_output else None
        direct = TtyOutput(fd, relay) if fd is not None else None
        send = direct.write if direct is not None else relay
        client = self.client_factory(self, session, send, cols, rows, env=context.env,
                                     force_256=context.force_256)
        client.tty = context.tty
        client.flags = set(flags)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            client.pid, client.uid = peer_credentials(sock)
            if self.access.read_only(client.uid):
                client.flags.add("read-only")  # tmux's server_acl_join
        self.clients.append(client)
        self.client_active(client)
        session.last_attached = session.activity_time = time.time()
        self.hook("client-attached", session)
        self.client_session_changed(client)
        note_activity(self, session)  # lock-after-time counts from here

        def typed(data: bytes) -> None:
            client.session.note_typing()
            note_activity(self, client.session)
            client.activity = time.time()
            if self.clients[0] is not client:
                self.client_active(client)
            try:
                client.feed(data)
            except Exception:  # a bug in a key's handling must not wreck the client
                traceback.print_exc()  # into the server's log
                client.show_message("termhost: internal error (see the server log)")

        keys = TtyInput.open(context.tty, typed, client.detach) if context.tty else None
        if keys is not None:
            writer.write(encode_frame(FrameType.TTY_INPUT))

        def hand_over(lock_command: str | None) -> None:
            """suspend-client, lock-*: the terminal's keys are not ours until WAKEUP,
            and what waits to be written goes before the frame that says so."""
            if keys is not None:
                keys.pause()
            if direct is not None:
                direct.hand_over()
            writer.write(encode_frame(FrameType.SUSPEND) if lock_command is None
                         else encode_frame(FrameType.LOCK, os.fsencode(lock_command)))

        client.hand_over = hand_over

        async def take_frames() -> None:
            try:
                async for frame in frames:
                    if frame.type is FrameType.INPUT:
                        typed(frame.payload)
                    elif frame.type is FrameType.TTY_INPUT and keys is not None:
                        if not client.suspended:
                            keys.start()  # the client relayed its last keys
                    elif frame.type is FrameType.WAKEUP:
                        if keys is not None:
                            keys.start()
                        client.wake()
                        note_activity(self, client.session)
                    elif frame.type is FrameType.RESIZE:
                        client.resize(*decode_size(frame.payload))
                        self.client_active(client)
                    elif frame.type is FrameType.DETACH:
                        client.detach()
            finally:
                client.detach("lost")  # the connection ended, or sent garbage

        reading = asyncio.ensure_future(take_frames())
        try:
            await client.run()
        finally:
            reading.cancel()
            if keys is not None:
                keys.close()  # before DETACH: the client takes its terminal back
            if direct is not None:
                direct.close()  # before DETACH: the client prints the rest in order
            self.clients.remove(client)
            self.fit_session(client.session)
            if client.session.windows:
                self.hook("client-detached", client.session)
            self.control.client_detached(client)
        if client.detach_command is not None:
            shell = self.default_shell(context.env)
            writer.write(encode_frame(FrameType.EXEC,
                                      f"{shell}\0{client.detach_command}".encode()))
        else:
            kind = FrameType.DETACH_HUP if client.detach_hangup else FrameType.DETACH
            writer.write(encode_frame(kind, client.detach_reason.encode()))
        writer.write(encode_frame(FrameType.EXIT, encode_exit(0)))
        await writer.drain()


def _read_only_may_run(argv: list[str]) -> bool:
    """Whether a read-only client may run `argv`: a verb of tmux's CMD_READONLY, or one
    that is no verb at all (refused on its own, as tmux's parser refuses it first)."""
    verb = lookup(argv[0]) if argv else None
    return verb is None or verb.read_only


async def _refuse(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                  message: str) -> None:
    """Tell a peer the access list keeps out why, as tmux's client exits with a message
    (and status 0): after its handshake, in answer to its command, so that nothing it
    sent is left unread (which would reset the connection before it reads the answer)."""
    frames = _frames(reader, FrameDecoder())
    await asyncio.wait_for(anext(frames), _HANDSHAKE_TIMEOUT)
    writer.write(encode_hello())
    async for frame in frames:
        if frame.type is FrameType.COMMAND:
            break
    writer.write(encode_frame(FrameType.STDERR, f"{message}\n".encode()))
    writer.write(encode_frame(FrameType.EXIT, encode_exit(0)))
    await writer.drain()


async def _pipe_to(command: str, data: bytes) -> None:
    """copy-pipe: `command` run by /bin/sh with `data` as its stdin, its output dropped,
    as tmux's job_run."""
    try:
        process = await asyncio.create_subprocess_exec(
            "/bin/sh", "-c", command, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True)
    except OSError:
        return
    await process.communicate(data)


def _stdin_reader(frames: AsyncIterator[Frame],
                  writer: asyncio.StreamWriter) -> Callable[[], AsyncIterator[bytes]]:
    """A command-line client's stdin for its command (Context.stdin): asked for once
    with READ_STDIN, then its STDIN frames as they come, to the empty one at its end.
    The command runs while the connection's frames are not otherwise read, so they
    are taken here; a second reader gets nothing, as tmux reads a client's stdin once."""
    asked = False

    async def read() -> AsyncIterator[bytes]:
        nonlocal asked
        if asked:
            return
        asked = True
        writer.write(encode_frame(FrameType.READ_STDIN))
        await writer.drain()
        async for frame in frames:
            if frame.type is not FrameType.STDIN:
                raise ProtocolError(f"a {frame.type.name} frame while reading stdin")
            if not frame.payload:
                return
            yield frame.payload

    return read


async def _frames(reader: asyncio.StreamReader, decoder: FrameDecoder) -> AsyncIterator[Frame]:
    while True:
        data = await reader.read(65536)
        if not data:
            return
        for frame in decoder.feed(data):
            yield frame

