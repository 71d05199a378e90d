"""The tape runner: a parsed tape played against a real shell in a PTY, with no terminal.

A tape is a scripted recording, so the session is a real one: the shell runs on a PTY of
the tape's Width x Height, and everything it writes goes, as it arrives, into an emulated
`Terminal` (what Wait and Expect look at, what screenshots and golden text are taken from)
and into the asciicast outputs. The delays are real too (TypingSpeed, Sleep): their timings
are part of the .cast. Nothing needs the user's terminal, so this runs in CI.

Decisions, and where they follow or leave VHS:

- The shell: `Set Shell`, else bash if it is installed, else sh. Not $SHELL: a tape must
  give the same screens on every machine, and the user's shell (and its prompt) varies.
  It starts without rc files, as VHS does (bash `--norc --noprofile`, zsh `-f`, fish
  `--no-config`, anything else as it is), with PS1 `> ` so that the default WaitPattern
  `>$` finds the prompt, TERM xterm-256color, and the tape's Env over the caller's
  environment. bash keeps no history file (HISTFILE is emptied): a tape must not write
  into the user's ~/.bash_history. COLUMNS, LINES and PROMPT_COMMAND are dropped: they
  would lie about the size or change the prompt.
- Everything a tape names is relative to the tape that names it: Output and Screenshot
  files, as the parser already does for Source, and the shell starts in the main tape's
  directory. VHS uses the working directory; here a tape and its fixtures travel together
  and `termhost tape docs/demo.tape` does the same from anywhere.
- Before the first command the runner waits (WaitTimeout) for the prompt (WaitPattern on
  the cursor's line): keys typed before the shell reads them would be echoed twice.
- Settling: Expect, Screenshot, the golden text's screens and the final frame look at the
  screen once output has settled: no output for SETTLE_QUIET seconds, or SETTLE_LIMIT at
  most (a program that never stops drawing, `top`, gets what is there then); making
  pictures, a typed character's screen is taken ECHO_QUIET after its echo. This is a
  heuristic; the deterministic pattern is a Wait for what you expect, then the Expect.
  When there is a .txt Output the runner settles after every command, so such a run is
  SETTLE_QUIET a command slower than one without.
- Wait polls every POLL_INTERVAL. The line is the cursor's, the screen the rows joined by
  newlines; both have trailing blanks (and the screen trailing empty rows) trimmed, as in
  VHS, so that `>$` matches a prompt `> ` waiting at the end. A Wait whose shell has ended
  fails at once rather than at its timeout.
- Hide stops output events; the emulated screen still follows. At Show the .cast gets the
  current screen repainted (a clear, the rows with their colours, the cursor), since what
  a player missed while hidden (a `clear`, a program starting) would leave it showing a
  stale screen: VHS's frames are whole pictures and need no such thing.
- At the end the recording is closed first, so nothing of the shutdown is recorded; then
  every process group in the shell's session gets SIGHUP (as a closing terminal sends),
  the shell has END_GRACE to go, and whatever is left in the session is SIGKILLed: a tape
  leaves no orphans.
- A failure (a Wait timing out, an Expect not matching, a program or shell not found) is
  a `RunError` whose message starts `FILE:LINE:` and, for Wait and Expect, goes on with
  the screen. The .cast keeps what was recorded up to the failure; the other outputs are
  not written.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import os
import re
import shutil
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

from termhost.process import Child, Command, set_window_size, spawn_in_pty
from termhost.process.groups import signal_process_group
from termhost.process.pty_pair import read_master
from termhost.record.asciicast import Header, RecordingError, Writer, writer_for
from termhost.record.tape import Command as TapeCommand
from termhost.record.tape import (
    Copy,
    Expect,
    Hide,
    Key,
    Located,
    Marker,
    Paste,
    Resize,
    Scope,
    Screenshot,
    Scroll,
    Set,
    Show,
    Sleep,
    Tape,
    Type,
    Wait,
)
from termhost.render import Snapshot, format_for_path, render, snapshot
from termhost.render.animation import (
    MOVING_PICTURES,
    Frame,
    blinking,
    rotated,
    write_animation,
)
from termhost.render.raster import Canvas
from termhost.terminal import Terminal
from termhost.terminal.keys import KeyModes, encode_key
from termhost.themes import Theme, ThemeError, asciicast_theme, load_theme

__all__ = [
    "ECHO_QUIET",
    "END_GRACE",
    "GOLDEN_SEPARATOR",
    "POLL_INTERVAL",
    "SETTLE_LIMIT",
    "SETTLE_QUIET",
    "TERM",
    "RunError",
    "RunResult",
    "golden_diff",
    "run_tape",
    "shell_command",
]

TERM = "xterm-256color"
POLL_INTERVAL = 0.01
"""How often Wait looks at the screen: a human cannot tell 10 ms, and polling costs little."""
SETTLE_QUIET = 0.1
"""Seconds without output after which the screen counts as settled."""
ECHO_QUIET = 0.03
"""Seconds without output after a typed character's answer (its echo) came: then the
screen counts as settled, as it would SETTLE_QUIET after the key with no answer."""
SETTLE_LIMIT = 1.0
"""Seconds a settle waits at most for the output to stop."""
END_GRACE = 1.0
"""Seconds the shell has to end after SIGHUP before its session is SIGKILLed."""
GOLDEN_SEPARATOR = "─" * 80
"""The line between two screens of a golden .txt file."""

_READ_SIZE = 65536
_PROMPT = "> "


class RunError(Exception):
    """A tape that failed while running; the message is what the user sees."""


@dataclass(frozen=True)
class RunResult:
    """What a run produced that the caller decides what to do with: the golden text for
    each .txt Output, by path (written, compared, or rewritten by the `run` verb)."""

    goldens: dict[str, str]


def shell_command(shell: str | None, path: str | None) -> list[str]:
    """The shell's argv, without rc files: None is bash if found on `path`, else sh."""
    if shell is None:
        shell = "bash" if shutil.which("bash", path=path) else "sh"
    flags = {
        "bash": ["--norc", "--noprofile"],
        "zsh": ["-f"],
        "fish": [
            "--no-config",
            "--init-command",
            f"function fish_prompt; echo -n '{_PROMPT}'; end",
        ],
    }
    return [shell, *flags.get(os.path.basename(shell), [])]


def golden_diff(path: str, expected: str, actual: str) -> str:
    """A unified diff from the golden file to this run's text ("" when they agree)."""
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=path,
            tofile=f"{path} (this run)",
        )
    )


async def run_tape(tape: Tape, tape_path: str) -> RunResult:
    """Run `tape`, read from `tape_path`; writes the .cast, .svg and .html Outputs and the
    Screenshots, and returns the golden texts. Raises RunError for a failing tape, OSError
    or RecordingError for an output that cannot be written."""
    base = os.path.dirname(tape_path)
    for output in tape.outputs:
        if output.form in ("mp4", "webm") and shutil.which("ffmpeg") is None:
            raise RunError(f"{_where(output)}: Output {output.path}: "
                           f".{output.form} needs ffmpeg, which is not installed "
                           "(.gif and .webp do not)")
    environment = _environment(tape)
    argv = _find_programs(tape, environment.get("PATH"))
    theme = _theme(tape)
    settings = tape.settings
    header = Header(
        settings.width,
        settings.height,
        timestamp=int(time.time()),
        term_type=TERM,
        env={"SHELL": argv[0]},
        theme=asciicast_theme(theme),
    )
    recording = _Recording()
    pictures = [output for output in tape.outputs if output.form in MOVING_PICTURES]
    drawn = pictures or any(isinstance(command, Screenshot) and command.path.lower().endswith(
        ".png") for command in tape.commands)
    canvas = _canvas(tape, theme, base) if drawn else None  # fonts loaded only to draw
    film = _Film(settings.framerate) if pictures else None
    try:
        for output in tape.outputs:
            if output.form == "cast":
                recording.writers.append(writer_for(2, os.path.join(base, output.path), header))
        command = Command(argv[0], argv[1:], env=environment, cwd=base or None)
        terminal = Terminal(settings.width, settings.height)
        child, master = await spawn_in_pty(command, settings.width, settings.height)
        session = _Session(child, master, terminal, recording)
        try:
            goldens = await _Player(session, tape, tape_path, theme, canvas, film).play()
            screen = session.view()  # before the shutdown: vim would leave its screen
        finally:
            try:
                recording.close(session.elapsed())  # first: the shutdown is not recorded
            finally:
                await session.end()
    finally:
        recording.close(0.0)
    for output in tape.outputs:
        if output.form in ("svg", "html"):
            _write(os.path.join(base, output.path), render(screen, output.form, theme))
    if film is not None:
        made = film.frames(settings.playback_speed, settings.loop_offset,
                           settings.cursor_blink)
        for output in pictures:
            assert canvas is not None  # made for the pictures
            if not made:
                raise RunError(f"{_where(output)}: Output {output.path}: nothing was shown "
                               "to draw (every command was hidden: Hide with no Show after)")
            write_animation(os.path.join(base, output.path), made, canvas,
                            kind=output.form, antialias=settings.antialias)
    golden = _golden_text(goldens)
    return RunResult(
        {
            os.path.join(base, output.path): golden
            for output in tape.outputs
            if output.form == "golden"
        }
    )


# Before the shell starts


def _environment(tape: Tape) -> dict[str, str]:
    """The caller's environment, less what would lie about the session, plus the tape's."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("COLUMNS", "LINES", "PROMPT_COMMAND")
    }
    environment.update(TERM=TERM, PS1=_PROMPT, HISTFILE="")
    environment.update(tape.env)
    return environment


def _find_programs(tape: Tape, path: str | None) -> list[str]:
    """The shell's argv, having checked that it and every Require are on the session's PATH."""
    for require in tape.requires:
        if shutil.which(require.program, path=path) is None:
            raise RunError(f"{_where(require)}: Require: {require.program} not found")
    argv = shell_command(tape.settings.shell, path)
    found = shutil.which(argv[0], path=path)
    if found is None:
        raise RunError(f"{_declared(tape, 'Shell')}Set Shell: {argv[0]} not found")
    return [found, *argv[1:]]


def _theme(tape: Tape) -> Theme:
    if isinstance(tape.settings.theme, Theme):
        return tape.settings.theme  # given as JSON, read with the tape
    try:
        return load_theme(tape.settings.theme)
    except ThemeError as error:
        raise RunError(f"{_declared(tape, 'Theme')}Set Theme: {error}") from None


def _canvas(tape: Tape, theme: Theme, base: str) -> Canvas:
    """What draws the tape's pictures: its cells in its look; Width x Height pixels
    unless Columns or Rows gave the cells. A MarginFill image is read from beside the
    tape, now, so that a missing one fails before the shell starts."""
    settings = tape.settings
    fill = settings.margin_fill
    if fill and not fill.startswith("#"):
        fill = os.path.join(base, fill)
    try:
        return Canvas(settings.width, settings.height, theme, settings.look,
                      by_cells=settings.columns is not None or settings.rows is not None,
                      border_radius=settings.border_radius, margin_fill=fill,
                      antialias=settings.antialias is not False)
    except (OSError, ValueError) as error:  # Pillow: UnidentifiedImageError is an OSError
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise RunError(f"{_declared(tape, 'MarginFill')}Set MarginFill: cannot read "
                       f"{fill}: {reason}") from None


def _declared(tape: Tape, setting: str) -> str:
    """`FILE:LINE: ` of the Set that chose `setting`, or "" for a default."""
    for declaration in reversed(tape.declarations):
        if isinstance(declaration, Set) and declaration.setting == setting:
            return f"{_where(declaration)}: "
    return ""


def _where(command: Located) -> str:
    return f"{command.file}:{command.line}"


# The session


class _Recording:
    """The .cast outputs: output events unless hidden, markers, resizes.

    An error writing (a full disk) is kept and raised between commands, never in the
    middle of reading the PTY, where it would end up as a traceback from the event loop.
    """

    def __init__(self) -> None:
        self.writers: list[Writer] = []
        self.hidden = False
        self.error: RecordingError | None = None
        self.closed = False

    def each(self, action: Callable[[Writer], None]) -> None:
        if self.closed or self.error is not None:
            return
        try:
            for writer in self.writers:
                action(writer)
        except RecordingError as error:
            self.error = error

    def output(self, data: bytes, at: float) -> None:
        if not self.hidden:
            self.each(lambda writer: writer.output(data, at))

    def check(self) -> None:
        if self.error is not None:
            raise self.error

    def close(self, at: float) -> None:
        """Close every writer once; the first error (kept or from closing) is raised."""
        if self.closed:
            return
        self.each(lambda writer: writer.close(at))
        self.closed = True
        for writer in self.writers:
            try:
                writer.close(at)  # a no-op for the closed ones; closes the rest after an error
            except RecordingError:
                pass
        self.check()


class _Session:
    """The shell on its PTY: output read as it comes into the terminal and the recording,
    input written without ever blocking the event loop."""

    def __init__(
        self, child: Child, master: int, terminal: Terminal, recording: _Recording
    ) -> None:
        self.child, self.master, self.terminal, self.recording = child, master, terminal, recording
        self.loop = asyncio.get_running_loop()
        self.start = self.loop.time()
        self.last_output = self.start
        self.scrolled = 0
        """Rows the view is up in the scrollback (ScrollUp); 0 shows the screen."""
        self.output_came = asyncio.Event()
        """Set at each output, for a settle waiting for a typed character's echo."""
        self.closed = False
        self._outbox = bytearray()
        self._writing = False
        terminal.screen.reply = self.send
        os.set_blocking(master, False)
        self.loop.add_reader(master, self._readable)

    def elapsed(self) -> float:
        return self.loop.time() - self.start

    def _readable(self) -> None:
        """Drain the PTY: into the terminal and the recording, then let the terminal answer
        the queries it saw (Terminal.catch_up)."""
        while True:
            data = read_master(self.master, _READ_SIZE)
            if data is None:
                break
            if not data:
                self._stop_reading()
                break
            self.last_output = self.loop.time()
            self.output_came.set()
            if self.scrolled:  # as xterm.js, a scrolled view keeps its rows as more come
                stored = len(self.terminal.history)
                self.terminal.feed(data)
                self.scroll_view(len(self.terminal.history) - stored)
            else:
                self.terminal.feed(data)
            self.recording.output(data, self.elapsed())
        self.terminal.catch_up()

    def _stop_reading(self) -> None:
        if not self.closed:
            self.closed = True
            self.loop.remove_reader(self.master)

    def view(self) -> Snapshot:
        """What the terminal shows: the screen, or the scrollback's rows it is scrolled
        up to."""
        return snapshot(self.terminal, scrolled=self.scrolled)

    def scroll_view(self, rows: int) -> None:
        """The view `rows` further up in the scrollback (down when negative), within it
        (none on the alternate screen)."""
        stored = 0 if self.terminal.screen.alternate_screen else len(self.terminal.history)
        self.scrolled = max(0, min(self.scrolled + rows, stored))

    def type(self, data: bytes) -> None:
        """Keys from the tape: the view returns to the screen first, as xterm.js's does
        on input (scrollOnUserInput), then `send`."""
        self.scrolled = 0
        self.send(data)

    def send(self, data: bytes) -> None:
        """Bytes to the shell as typed; what the PTY cannot take now goes when it can."""
        if self.closed:
            return
        self._outbox += data
        self._flush()

    def _flush(self) -> None:
        try:
            while self._outbox:
                written = os.write(self.master, self._outbox)
                del self._outbox[:written]
        except BlockingIOError:
            pass
        except OSError:
            self._outbox.clear()  # the shell is gone: nobody to type at
        if self._outbox and not self._writing:
            self._writing = True
            self.loop.add_writer(self.master, self._flush)
        elif not self._outbox and self._writing:
            self._writing = False
            self.loop.remove_writer(self.master)

    def key_modes(self) -> KeyModes:
        """How the application wants keys: vim's arrows are `ESC O A`, not `ESC [ A`."""
        screen = self.terminal.screen
        return KeyModes(
            application_cursor=screen.application_cursor,
            application_keypad=screen.application_keypad,
            bracketed_paste=screen.bracketed_paste,
        )

    async def settle(self, *, echo: bool = False) -> None:
        """Wait until no output has come for SETTLE_QUIET, or SETTLE_LIMIT has passed.

        The quiet is counted from now at the earliest: keys just sent have had no answer
        yet, and the output before them says nothing about what they will draw. With
        `echo` (a printable character just typed, whose answer is its echo, written at
        once), output that came since is the answer, and ECHO_QUIET after it is enough:
        making pictures, a typed character then costs 30 ms, not 100."""
        start = self.loop.time()
        deadline = start + SETTLE_LIMIT
        while not self.closed:
            now = self.loop.time()
            answered = echo and self.last_output > start
            quiet = max(self.last_output, start) + (ECHO_QUIET if answered else SETTLE_QUIET)
            if now >= quiet or now >= deadline:
                return
            if echo and not answered:  # woken by the echo, not after the whole quiet
                self.output_came.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.output_came.wait(), min(quiet, deadline) - now)
            else:
                await asyncio.sleep(min(quiet, deadline) - now)

    def screen_text(self) -> str:
        """The screen as a golden file holds it: rows without trailing blanks, no trailing
        empty rows."""
        return render(self.view(), "txt").rstrip("\n")

    def scope_text(self, scope: Scope) -> str:
        """What a Wait or Expect searches: the cursor's line, or the screen."""
        if scope == "screen":
            return self.screen_text()
        rows = render(self.view(), "txt").split("\n")
        return rows[min(self.terminal.cursor[1], len(rows) - 1)]  # VHS: the view's row

    def resize(self, cols: int, rows: int) -> None:
        if not self.closed:
            set_window_size(self.master, cols, rows)
        self.terminal.resize(cols, rows)

    async def end(self) -> None:
        """Hang up the shell's whole session, give it END_GRACE, kill what is left, reap."""
        _signal_session(self.child.pid, signal.SIGHUP)
        try:
            await asyncio.wait_for(self.child.exited(), END_GRACE)
        except TimeoutError:
            pass
        _signal_session(self.child.pid, signal.SIGKILL)
        self.child.kill()
        await self.child.wait()
        self._stop_reading()
        if self._writing:
            self.loop.remove_writer(self.master)
        os.close(self.master)


def _signal_session(sid: int, signum: int) -> None:
    """Signal every process group of session `sid` (the shell's, its jobs', a full-screen
    program's): a job in a group of its own would not get a signal sent to the shell's."""
    ours = os.getpgrp()
    for pgid in _session_groups(sid):
        if pgid != ours:
            signal_process_group(pgid, signum)


def _session_groups(sid: int) -> set[int]:
    """The process groups with a process in session `sid`, from /proc (fields 5 and 6 of
    stat, after the command name, which may itself hold spaces and parentheses)."""
    groups: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                stat = file.read()
        except OSError:
            continue  # gone since the listing
        fields = stat[stat.rindex(b")") + 2 :].split()
        if int(fields[3]) == sid:
            groups.add(int(fields[2]))
    return groups


# Playing the commands


class _Film:
    """The frames of a tape's moving pictures, on the tape's own clock, not the wall's:
    each key's screen (once its output has settled) stays up for the typing speed, a
    Sleep for its length, a Wait for no time at all; during a Sleep the screen is looked
    at every frame tick, for what moves on its own. So the same tape gives the same
    frames, and the same bytes, however loaded the machine; a program that draws on its
    own time (a spinner, a progress bar) still moves, on its own time."""

    def __init__(self, framerate: int) -> None:
        self.tick = 1.0 / framerate
        self.clock = 0.0
        self.shots: list[tuple[float, Snapshot]] = []
        self.hidden = False

    def shoot(self, screen: Snapshot) -> None:
        """The screen now, at the tape's clock (kept only if it changed)."""
        if self.hidden:
            return
        if self.shots and self.shots[-1][1] == screen:
            return
        if self.shots and self.shots[-1][0] == self.clock:
            self.shots[-1] = (self.clock, screen)  # the same instant: the later screen
        else:
            self.shots.append((self.clock, screen))

    def advance(self, seconds: float) -> None:
        if not self.hidden:
            self.clock += seconds

    def frames(self, speed: float, loop_offset: float, blink: bool) -> list[Frame]:
        """The shots as frames, the last one a tick long, `speed` times as fast; the
        cursor blinking (`blink`) where a screen stays, on the tape's clock."""
        if not self.shots:
            return []
        ends = [start for start, _ in self.shots[1:]] + [
            max(self.clock, self.shots[-1][0] + self.tick)]
        made = [Frame(screen, end - start)
                for (start, screen), end in zip(self.shots, ends, strict=True)]
        if blink:
            made = blinking(made)
        made = [Frame(frame.screen, frame.duration / speed) for frame in made]
        return rotated(made, loop_offset)


class _Player:
    """One run of a tape's commands against a session."""

    def __init__(self, session: _Session, tape: Tape, tape_path: str, theme: Theme,
                 canvas: Canvas | None, film: _Film | None = None) -> None:
        self.session, self.tape, self.tape_path, self.theme = session, tape, tape_path, theme
        self.canvas = canvas
        self.film = film
        """The moving pictures' frames, when the tape has any to make."""
        self.golden = any(output.form == "golden" for output in tape.outputs)
        self.clipboard = ""
        """What the tape's last Copy put there, for Paste."""

    async def play(self) -> list[str]:
        """Run every command; the screens after each of them when there is a golden Output."""
        await self.wait_for_prompt()
        screens: list[str] = []
        for command in self.tape.commands:
            await self.run(command)
            self.session.recording.check()
            if self.golden:
                await self.session.settle()
                screens.append(self.session.screen_text())
        await self.session.settle()
        return screens

    async def wait_for_prompt(self) -> None:
        """Wait for the shell to read keys: typed before, they would be echoed twice."""
        settings = self.tape.settings
        if await self.poll("line", settings.wait_pattern, settings.wait_timeout):
            return
        failure = _gave_up(self.session, settings.wait_timeout)
        raise RunError(
            f"{self.tape_path}: {failure} waiting for the shell's prompt "
            f"/{settings.wait_pattern.pattern}/ on the line (Set WaitPattern matches another "
            f"prompt); the screen was:\n{self.session.screen_text()}"
        )

    async def poll(self, scope: Scope, regex: re.Pattern[str], timeout: float) -> bool:
        """Whether `regex` came to match within `timeout` seconds."""
        session = self.session
        deadline = session.loop.time() + timeout
        while True:
            if regex.search(session.scope_text(scope)):
                return True
            if session.closed or session.loop.time() >= deadline:
                return False
            await asyncio.sleep(POLL_INTERVAL)

    async def run(self, command: TapeCommand) -> None:
        session = self.session
        match command:
            case Type(text=text, speed=speed) if speed <= 0:
                session.type(text.encode())
                await self.frame(0.0)
            case Type(text=text, speed=speed):
                for character in text:
                    session.type(character.encode())
                    await self.pace(speed, echo=character.isprintable())
            case Key(name=name, count=count, speed=speed):
                for _ in range(count):
                    session.type(encode_key(name, session.key_modes()))
                    await self.pace(speed)
            case Sleep(seconds=seconds) if self.film is not None:
                await self.film_sleep(self.film, seconds)
            case Sleep(seconds=seconds):
                await asyncio.sleep(seconds)
            case Wait(scope=scope, timeout=timeout, regex=regex):
                if not await self.poll(scope, regex, timeout):
                    failure = _gave_up(session, timeout)
                    raise self.failure(command, f"{failure} waiting for", scope, regex)
                await self.frame(0.0)
            case Expect(scope=scope, regex=regex):
                await session.settle()
                if not regex.search(session.scope_text(scope)):
                    raise self.failure(command, "expected", scope, regex)
            case Hide():
                session.recording.hidden = True
                if self.film is not None:
                    self.film.hidden = True
            case Show():
                if session.recording.hidden:
                    session.recording.hidden = False
                    session.recording.output(self.repaint(), session.elapsed())
                if self.film is not None:
                    self.film.hidden = False
                    await self.frame(0.0)
            case Screenshot(path=path):
                await session.settle()
                target = os.path.join(os.path.dirname(command.file), path)
                screen = session.view()
                if path.lower().endswith(".png"):
                    assert self.canvas is not None  # made for the tape's PNG screenshots
                    canvas = self.canvas.fitting(screen.cols, screen.rows)  # after a Resize
                    canvas.paint(screen).save(target, optimize=False)
                else:
                    _write(target, render(screen, format_for_path(path), self.theme))
            case Marker(label=label):
                session.recording.each(lambda writer: writer.marker(label, session.elapsed()))
            case Copy(text=text):
                self.clipboard = text
            case Paste():
                session.type(self.clipboard.encode())  # at once, as VHS pastes
                await self.frame(0.0)
            case Scroll(rows=rows, speed=speed):
                for _ in range(abs(rows)):
                    session.scroll_view(-1 if rows > 0 else 1)
                    if self.film is None:
                        await asyncio.sleep(speed)
                    else:  # no output to wait for: the view moved
                        self.film.shoot(session.view())
                        self.film.advance(speed)
            case Resize(cols=cols, rows=rows):
                session.resize(cols, rows)
                session.recording.each(lambda writer: writer.resize(cols, rows, session.elapsed()))
                await self.frame(0.0)

    async def pace(self, speed: float, *, echo: bool = False) -> None:
        """After a key: its `speed` on the wall's clock, or, making pictures, its screen
        once settled (`echo`: a printable character's) and `speed` on the tape's."""
        if self.film is None:
            await asyncio.sleep(speed)
        else:
            await self.frame(speed, echo=echo)

    async def frame(self, seconds: float, *, echo: bool = False) -> None:
        """Making pictures: the screen once output has settled, up for `seconds`."""
        if self.film is not None:
            await self.session.settle(echo=echo)
            self.film.shoot(self.session.view())
            self.film.advance(seconds)

    async def film_sleep(self, film: _Film, seconds: float) -> None:
        """A Sleep while making pictures: the screen looked at every tick of the tape's
        clock, for what moves on its own, each tick taking its time on the wall's."""
        session = self.session
        await session.settle()
        start = session.loop.time()
        ticks = max(1, round(seconds / film.tick))
        for number in range(ticks):
            film.shoot(session.view())
            film.advance(seconds / ticks)
            due = start + (number + 1) * seconds / ticks
            await asyncio.sleep(max(0.0, due - session.loop.time()))

    def failure(
        self, command: Located, what: str, scope: Scope, regex: re.Pattern[str]
    ) -> RunError:
        """`FILE:LINE: expected /re/ on the line; the screen was:` and the screen."""
        return RunError(
            f"{_where(command)}: {what} /{regex.pattern}/ on the {scope}; the screen was:\n"
            f"{self.session.screen_text()}"
        )

    def repaint(self) -> bytes:
        """The screen as one output event: what a player needs after a Hide to show what the
        terminal shows (see the module's docstring)."""
        terminal = self.session.terminal
        rows = render(snapshot(terminal), "ansi").rstrip("\n").split("\n")
        x, y = terminal.cursor
        cursor = f"\x1b[{y + 1};{min(x, terminal.cols - 1) + 1}H"
        return ("\x1b[0m\x1b[H\x1b[2J" + "\r\n".join(rows) + cursor).encode()


def _gave_up(session: _Session, timeout: float) -> str:
    """Why a Wait stopped waiting."""
    return "the shell ended while" if session.closed else f"timed out after {timeout:g}s"


def _golden_text(screens: list[str]) -> str:
    """The golden file: each screen, a line of `─` between two."""
    return f"\n{GOLDEN_SEPARATOR}\n".join(screens) + "\n"


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
