"""The server's side of a format: what `#{...}` may ask beyond a target's own variables.

mux/formats.py is tmux's expansion algorithm and knows no server. tmux's format_find
also looks a name up among the options and the environment, `S:`/`W:`/`P:` loop over
the server's sessions, windows and panes, `C:` searches a pane, and `#()` runs a shell
command. `ServerScope` answers those for one target (session, window, pane), as tmux
3.3a's format tree does; `format_target` gives a target's variables with its scope,
which is what every command and the status line expand against (the pane border labels
and set-titles-string still expand their variables alone).

`#()` jobs (`FormatJobs`) follow tmux's format_job_get: a command starts the first time a
format asks for it, its last line of output is the value from then on, it is started
again at most once a second while formats keep asking, and the status line is redrawn
when output arrives. Jobs belong to the client that asked: a command-line client lives
for one command, so its jobs run and their output is never seen, as with tmux.
"""

from __future__ import annotations

import asyncio
import os
import time
import weakref
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from termhost.mux.environment import Environment, merged
from termhost.mux.format_variables import FormatVariables, server_variables, variables
from termhost.mux.formats import LoopItem, LoopKind, NameKind, search_lines
from termhost.mux.jobs import JOBS
from termhost.mux.model import Session, Window, Winlink
from termhost.mux.option_table import TMUX_OPTIONS
from termhost.mux.options import OptionError, Scoped, array_reference, is_user_option
from termhost.mux.pane import Pane

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["FormatJobs", "Redraw", "ServerScope", "format_target"]

Redraw = Callable[[], None]


@dataclass
class _Job:
    """One `#()` command of one client."""

    output: str | None = None
    """Its last line of output; None before it printed a line."""
    running: bool = False
    started: int = -1
    """The second (since the epoch) it was last started in."""


class FormatJobs:
    """The `#()` commands formats have run, by the client that asked (tmux's
    format_job tree); a client's jobs are forgotten with the client."""

    def __init__(self) -> None:
        self._jobs: weakref.WeakKeyDictionary[object, dict[str, _Job]] = (
            weakref.WeakKeyDictionary())
        self._running: set[asyncio.Task[None]] = set()
        """The jobs' tasks, held until they end (the loop keeps only weak references)."""

    def get(self, owner: object | None, command: str, *, env: Mapping[str, str], cwd: str,
            redraw: Redraw | None) -> str:
        """The last line `command` printed for `owner` ("" before any), starting it when
        it is not running and did not start in this second already; `redraw` is called
        when a line arrives. With no owner the command runs and nobody sees its output."""
        now = int(time.time())
        jobs = self._jobs.setdefault(owner, {}) if owner is not None else {}
        job = jobs.setdefault(command, _Job())
        if not job.running and job.started != now:
            if self._start(job, command, env, cwd, redraw):
                job.started = now
        elif job.running and now - job.started > 1 and job.output is None:
            job.output = f"<'{command}' not ready>"
        return job.output or ""

    def _start(self, job: _Job, command: str, env: Mapping[str, str], cwd: str,
               redraw: Redraw | None) -> bool:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False  # no server loop to run it in (a format expanded offline)
        job.running = True
        task = loop.create_task(self._run(job, command, dict(env), cwd, redraw))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return True

    @staticmethod
    async def _run(job: _Job, command: str, env: dict[str, str], cwd: str,
                   redraw: Redraw | None) -> None:
        """Run `command` through /bin/sh (stderr to /dev/null, as tmux's job_run), keeping
        its last complete line as it goes and what follows the last newline at the end."""
        try:
            process = await asyncio.create_subprocess_exec(
                "/bin/sh", "-c", command, stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
                env=env, cwd=cwd if os.path.isdir(cwd) else "/", start_new_session=True)
        except OSError:
            job.running = False
            return
        assert process.stdout is not None
        pending = b""
        printed = False
        with JOBS.running(command, -1, process.pid):
            while chunk := await process.stdout.read(65536):
                pending += chunk
                if b"\n" in pending:
                    lines = pending.split(b"\n")
                    pending = lines.pop()
                    job.output = lines[-1].decode(errors="replace")
                    printed = True
                    if redraw is not None:
                        redraw()
            await process.wait()
        if pending or not printed:
            job.output = pending.decode(errors="replace")
        job.running = False
        if redraw is not None:
            redraw()


class ServerScope:
    """The FormatScope of one target of one server (mux/formats.py's contract)."""

    def __init__(self, server: Server, session: Session | None = None,
                 window: Window | None = None, pane: Pane | None = None, *,
                 owner: object | None = None, redraw: Redraw | None = None) -> None:
        self.server = server
        self.session = session
        self.window = window if window is not None or session is None else session.active_window
        self.pane = pane if pane is not None or self.window is None else self.window.active
        self.owner = owner
        """Whose `#()` jobs these are: the attached client drawing, None for a command."""
        self.redraw = redraw

    def _inside(self, session: Session, window: Window | None = None,
                pane: Pane | None = None) -> ServerScope:
        return ServerScope(self.server, session, window, pane, owner=self.owner,
                           redraw=self.redraw)

    def option(self, name: str) -> str | None:
        """As tmux's format_find: the pane's own value, the window's own, the session's
        own, the global."""
        base, index = array_reference(name)
        options = Scoped(self.server.options,
                         self.session.options if self.session is not None else {})
        local = next((own[base] for own in self._own() if base in own), None)
        if is_user_option(base):
            if local is not None:
                return local
            try:
                return options.get(base)
            except OptionError:
                return None
        try:
            shown = options.inherited(base, index)
        except OptionError:
            return None
        if options.options.is_array(base):
            if index is None:
                return ""  # tmux 3.3a gives a whole array as nothing
            return (shown[0][1] or "") if shown else ""
        value = local or (shown[0][1] or "")
        if base in _TMUX_FLAGS:  # options_to_string(numeric): a flag as 1 or 0
            return "1" if value == "on" else "0"
        return value

    def _own(self) -> list[dict[str, str]]:
        """The values set on this scope's pane and on its window, the pane's first."""
        own = [self.pane.options] if self.pane is not None else []
        return [*own, self.window.options] if self.window is not None else own

    def environ(self, name: str) -> str | None:
        found = self.session.environment.get(name) if self.session is not None else None
        if found is None:
            found = self.server.environment.get(name)
        return found.value if found is not None else None

    def loop(self, kind: LoopKind) -> Sequence[LoopItem] | None:
        server = self.server
        if kind == "sessions":
            return [LoopItem(variables(session, server=server), False, self._inside(session))
                    for session in sorted(server.sessions.values(), key=lambda s: s.name)]
        session = self.session
        if session is None:
            return None
        if kind == "windows":
            return [LoopItem(variables(session, link.window, server, link=link),
                             link is session.current, self._inside(session, link.window))
                    for link in session.links]
        window = self.window
        if window is None:
            return None
        return [LoopItem(variables(session, window, server, pane), pane is window.active,
                         self._inside(session, window, pane))
                for pane in window.panes]

    def names(self, kind: NameKind) -> Collection[str] | None:
        if kind == "sessions":
            return list(self.server.sessions)
        if self.session is None:
            return None
        return [self.server.window_name(link.window) for link in self.session.links]

    def search(self, pattern: str, regex: bool, ignore_case: bool) -> int | None:
        if self.pane is None:
            return None
        return search_lines(self.pane.terminal.display, pattern, regex=regex,
                            ignore_case=ignore_case)

    def job(self, command: str) -> str:
        env = (self.server.environ_of(self.session) if self.session is not None
               else merged(self.server.environment, Environment()))
        cwd = (self.session.path if self.session is not None and self.session.path
               else env.get("HOME", "/"))
        return self.server.format_jobs.get(self.owner, command, env=env, cwd=cwd,
                                           redraw=self.redraw)

    def now(self) -> float:
        return time.time()


_TMUX_FLAGS = frozenset(option.name for option in TMUX_OPTIONS if option.kind == "flag")
"""tmux's flag options (`status` is a choice in tmux, on/off in termhost: it reads `on`)."""


def format_target(server: Server, session: Session | None = None,
                  window: Window | None = None, pane: Pane | None = None, *,
                  owner: object | None = None, redraw: Redraw | None = None,
                  link: Winlink | None = None) -> tuple[FormatVariables, ServerScope]:
    """The variables of a target (a session, its current window or `window` at `link`,
    that window's active pane or `pane`; the server's own alone with no session) and
    the scope to expand them in."""
    scope = ServerScope(server, session, window, pane, owner=owner, redraw=redraw)
    if session is None:
        return FormatVariables(server_variables(server)), scope
    return variables(session, window, server, pane, link=link), scope
