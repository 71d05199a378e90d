"""resurrect (termhost's own verb): exited sessions, those whose server died, rebuilt from
their resurrection records (resurrect/records.py) with tmux's own commands, as a user
would rebuild them: new-session, new-window and split-window in each pane's directory,
select-layout with the window's layout string, the names, the active panes, the zoom and
the current window.

A pane's shell comes back as a new shell, started from the session's environment
snapshot when one was kept. Any other program is not run again blindly: the pane says
`Press Enter to run: COMMAND` and runs it on Enter, or at once with -r
(resurrect/programs.py). What a pane showed comes back first when resurrect-scrollback
kept it. A directory that is gone is the home directory instead, with a warning; a
record that cannot be read is a warning, and the others still come back.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from termhost import state
from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    find_pane,
    run_command,
)
from termhost.resurrect import records
from termhost.resurrect.programs import shown_first, unshown, wrap
from termhost.resurrect.records import PaneRecord, SessionRecord
from termhost.snapshot.errors import SnapshotError
from termhost.snapshot.model import Snapshot
from termhost.snapshot.shells import interactive_argv, to_script

__all__ = ["bring_back", "exited", "resurrect_session"]

_SIZE = re.compile(r"[0-9a-f]{4},(\d+)x(\d+),")
"""A layout string's start: its checksum and the window's size."""


@dataclass
class _Rebuilt:
    name: str
    default_shell: str
    shell: list[str] = field(default_factory=list)
    """How its shell panes start: the argv that starts one from the session's snapshot,
    or [] for the default shell."""
    shell_env: list[str] = field(default_factory=list)
    """The `-e KEY=VALUE` flags that shell needs."""
    screens: list[list[str]] = field(default_factory=list)
    """What each pane showed (resurrect-scrollback), by window then pane."""
    warnings: list[str] = field(default_factory=list)

    def screen(self, where: Path, window: int, pane: int) -> str | None:
        """The file the pane at (`window`, `pane`) shows first, written now; None when
        nothing of it was kept."""
        shown = self.screens[window] if window < len(self.screens) else []
        text = shown[pane] if pane < len(shown) else ""
        if not text:
            return None
        path = records.screen_path(where, self.name, window, pane)
        state.write_private(path, text.encode("utf-8", "surrogateescape"))
        return str(path)


def _snapshot_shell(context: Context, name: str) -> tuple[list[str], list[str]]:
    """The shell of the session `name`, started from the environment snapshot kept
    beside its record (its script written for it to read, 0600): its argv, and -e flags
    for what it needs set. The snapshot becomes the new session's, so no capture runs its
    rc files again. ([], []) when there is none, or the shell cannot start from one."""
    where = context.server.resurrection.where
    data = records.load_snapshot(where, name)
    if data is None:
        return [], []
    try:
        snapshot = Snapshot.from_json(data)
        script = records.script_path(where, name)
        state.write_private(script, os.fsencode(to_script(snapshot)))
        started = interactive_argv(snapshot.kind, snapshot.shell, str(script))
        for path, text in (started.files if started is not None else {}).items():
            state.ensure_private_dir(Path(path).parent, "session record")
            state.write_private(Path(path), os.fsencode(text))
    except (SnapshotError, state.PrivateStateError, OSError, ValueError, KeyError,
            TypeError):
        return [], []
    context.server.adopted_snapshots[name] = snapshot
    if started is None:
        return [], []
    return started.argv, [f"-e{key}={value}" for key, value in started.env.items()]


def exited(context: Context) -> tuple[list[SessionRecord], list[str]]:
    """The records of this server's sessions that are not live, and the warnings of those
    that cannot be read."""
    found, warnings = records.load_all(context.server.resurrection.where)
    return [record for record in found if record.name not in context.server.sessions], warnings


async def bring_back(context: Context, target: str | None) -> bool:
    """If `target` (NAME or =NAME, with any :WINDOW.PANE after it) names an exited
    session and no live one, resurrect it (attach -t, switch-client -t, choose-tree's
    exited rows); whether it did."""
    name = (target or "").split(":", 1)[0].removeprefix("=")
    if not name or name in context.server.sessions:
        return False
    record = next((each for each in exited(context)[0] if each.name == name), None)
    if record is None:
        return False
    await resurrect_session(context, record)
    return True


@command("resurrect")
async def resurrect(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """-t NAME: the exited session NAME back (by its exact name); -a: every exited
    session; -r: each pane's program run at once rather than on Enter."""
    if ("a" in flags) == ("t" in flags):
        raise CommandError("resurrect needs -t session-name or -a")
    candidates, warnings = exited(context)
    if "t" in flags:
        name = flags["t"].removeprefix("=")
        if name in context.server.sessions:
            raise CommandError(f"session {name} is running: nothing to resurrect")
        chosen = [record for record in candidates if record.name == name]
        if not chosen:
            raise CommandError(f"no exited session: {name}")
    else:
        chosen = candidates
    for record in chosen:
        warnings += await resurrect_session(context, record, run_now="r" in flags)
    return Result(stderr="".join(f"{line}\n" for line in warnings))


async def resurrect_session(context: Context, record: SessionRecord, *,
                            run_now: bool = False) -> list[str]:
    """Rebuild the session of `record`; the warnings (gone directories). CommandError if
    a command of the rebuild fails (the session is then killed, the record kept)."""
    name = record.name
    where = context.server.resurrection.where
    shell, shell_env = _snapshot_shell(context, name)
    rebuilt = _Rebuilt(name, context.server.default_shell(context.env), shell, shell_env,
                       screens=records.load_scrollback(where, name))
    try:
        for number, window in enumerate(record.windows):
            size = _SIZE.match(window.layout)
            first, rest = window.panes[0], window.panes[1:]
            screen = rebuilt.screen(where, number, 0)
            naming = [] if window.automatic_name else ["-n", window.name]
            if number == 0:
                sizing = ["-x", size.group(1), "-y", size.group(2)] if size else []
                made = await _run(context, "new-session", "-d", "-P", "-F",
                                  "#{window_id} #{pane_id} #{window_index}", "-s", name,
                                  *sizing, *naming, *_place(first, rebuilt),
                                  *_program(first, rebuilt, run_now, screen))
                window_id, last, index = made.split()
                if int(index) != window.index:  # another base-index than the record's
                    await _run(context, "move-window", "-s", window_id,
                               "-t", f"={name}:{window.index}")
            else:
                made = await _run(context, "new-window", "-d", "-P", "-F",
                                  "#{window_id} #{pane_id}", "-t", f"={name}:{window.index}",
                                  *naming, *_place(first, rebuilt),
                                  *_program(first, rebuilt, run_now, screen))
                window_id, last = made.split()
            _started(context, first, rebuilt, last, screen)
            for position, pane in enumerate(rest, 1):  # each after the last: in order
                screen = rebuilt.screen(where, number, position)
                last = (await _run(context, "split-window", "-d", "-P", "-F", "#{pane_id}",
                                   "-t", last, *_place(pane, rebuilt),
                                   *_program(pane, rebuilt, run_now, screen))).strip()
                _started(context, pane, rebuilt, last, screen)
            await _run(context, "select-layout", "-t", window_id, window.layout)
            panes = (await _run(context, "list-panes", "-t", window_id, "-F",
                                "#{pane_id}")).split()
            for pane_id, pane in zip(panes, window.panes, strict=False):
                if pane.title:
                    await _run(context, "select-pane", "-t", pane_id, "-T", pane.title)
            await _run(context, "select-pane", "-t", panes[window.active])
            if window.zoomed and len(panes) > 1:
                await _run(context, "resize-pane", "-Z", "-t", panes[window.active])
        for option, value in record.options.items():
            await _run(context, "set-option", "-t", f"={name}", option, value)
        await _run(context, "select-window", "-t", f"={name}:{record.current}")
        context.server.sessions[name].created = record.created  # the same session, back
    except CommandError:
        context.server.adopted_snapshots.pop(name, None)
        if name in context.server.sessions:
            context.server.kill_session(context.server.sessions[name])
        raise
    return rebuilt.warnings


async def _run(context: Context, *argv: str) -> str:
    result = await run_command(context, list(argv))
    if result.status:
        said = result.stderr.strip().splitlines()
        raise CommandError(f"resurrecting: {argv[0]}: {said[0] if said else 'failed'}")
    return result.stdout


def _place(pane: PaneRecord, rebuilt: _Rebuilt) -> list[str]:
    """-c for the pane's directory, or the home directory when it is gone (warned)."""
    if pane.cwd and os.path.isdir(pane.cwd):
        return ["-c", pane.cwd]
    home = os.path.expanduser("~")
    if pane.cwd:
        rebuilt.warnings.append(f"{pane.cwd}: no such directory; a pane starts in {home}")
    return ["-c", home]


def _started(context: Context, pane: PaneRecord, rebuilt: _Rebuilt, pane_id: str,
             screen: str | None) -> None:
    """The pane's start command as its next record should read it: none for a shell
    (started from the snapshot, or after its screen: as the default shell), the program's
    wrapper without the screen's part for a program."""
    started = find_pane(context.server, pane_id)[2]
    if pane.command is None and (rebuilt.shell or screen is not None):
        started.start_command = []
    elif screen is not None:
        started.start_command = unshown(started.start_command)


def _program(pane: PaneRecord, rebuilt: _Rebuilt, run_now: bool,
             screen: str | None) -> list[str]:
    """What the pane runs (-e flags first, if any): its shell (from the session's
    snapshot, else the default shell), or its program, wrapped; after what it showed,
    if that was kept (resurrect/programs.py)."""
    if pane.command is not None:
        argv = wrap(pane.command, pane.in_shell, run_now=run_now)
        return shown_first(screen, argv) if screen is not None else argv
    if screen is None:
        return [*rebuilt.shell_env, *rebuilt.shell]
    return [*rebuilt.shell_env, *shown_first(screen, rebuilt.shell or [rebuilt.default_shell])]
