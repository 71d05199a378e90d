"""One prompt_toolkit Application per attached client, running inside the server.

The client is a thin relay (client.py): its keystrokes arrive here as INPUT frames and
are parsed and dispatched by `AttachedClient.feed` (the Application's own input is an
idle pipe); what the Application and the painter draw leaves as OUTPUT frames.

The Application shows the session's current window: the borders between its panes and
a status bar. The panes themselves are drawn by the client's `Painter` (painter.py),
changed cells only, at most `FRAME_RATE` times a second in a flood. Keys go to the
active pane, re-encoded for its modes (DECCKM...), without a prompt_toolkit redraw; the
prefix `C-b` starts tmux's default bindings.
"""

from __future__ import annotations

import asyncio
import codecs
import functools
import shlex
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO, cast

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point, Size
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    Dimension,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.styles import Style

from termhost.mux import model
from termhost.mux.commands import Context, run_command
from termhost.mux.layout import Cell
from termhost.mux.model import DOWN, LEFT, RIGHT, UP, Session
from termhost.mux.pane import Pane
from termhost.terminal.keys import KeyModes, encode_key, encode_paste
from termhost.ui import copy_view
from termhost.ui.copy_mode import CopyMode
from termhost.ui.painter import Painter, Placement, TrackingOutput
from termhost.ui.prompt import Prompt, ask, confirm
from termhost.ui.viewer import TextView

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["AttachedClient"]

PREFIX = "C-b"
_PREFIX_TYPED = "\x02"
"""What the terminal sends for the prefix key."""
FRAME_RATE = 60
"""Pane paints per second at most: a flood costs 60 paints a second, not one per read."""
ESCAPE_TIME = 0.01
"""Seconds after which an ESC that starts no sequence is the Escape key (tmux's
escape-time; tmux waits 500 ms, which makes vi users wait)."""
INTERACTIVE_BYTES = 4096
"""Output since the last paint below which a pane is painted at once (see `refresh`)."""
STATUS_INTERVAL = 15
"""Seconds between status bar redraws (its clock), as tmux's status-interval."""
DISPLAY_PANES_TIME = 1.0
"""Seconds display-panes shows the numbers, as tmux's display-panes-time."""
DISPLAY_TIME = 0.75
"""Seconds a message stays in the status line, as tmux's display-time."""
_SPECIAL_KEYS = {
    Keys.Up: "Up", Keys.Down: "Down", Keys.Left: "Left", Keys.Right: "Right",
    Keys.Home: "Home", Keys.End: "End", Keys.PageUp: "PageUp", Keys.PageDown: "PageDown",
    Keys.Insert: "IC", Keys.Delete: "DC", Keys.BackTab: "BTab",
    Keys.ControlUp: "C-Up", Keys.ControlDown: "C-Down", Keys.ControlLeft: "C-Left",
    Keys.ControlRight: "C-Right",
    **{getattr(Keys, f"F{n}"): f"F{n}" for n in range(1, 13)},
}
STYLE = Style.from_dict({
    "status": "bg:ansigreen fg:ansiblack",
    "status.prompt": "bg:ansiyellow fg:ansiblack",
    "border": "fg:ansibrightblack",
    "border.active": "fg:ansigreen",
    "outside": "fg:ansibrightblack",
})


def _key_name(press: KeyPress) -> str:
    """The tmux name of a parsed key: "d", "C-b", "Up"..."""
    key = press.key
    if not isinstance(key, Keys):
        return key
    if key in _SPECIAL_KEYS:
        return _SPECIAL_KEYS[key]
    value = key.value
    if value.startswith("c-") and len(value) == 3:
        return "C-" + value[2]
    return value


def _pane_numbers(placements: list[Placement], window: model.Window) -> str:
    """display-panes' overlay: each pane's index in the middle of it, the active one's
    in red, the others' in blue (tmux's display-panes colours)."""
    out = []
    panes = window.panes
    for placement in placements:
        label = f" {panes.index(placement.pane)} "
        if placement.width < len(label) or placement.height < 1:
            continue
        x = placement.x + (placement.width - len(label)) // 2
        y = placement.y + placement.height // 2
        colour = "41" if placement.pane is window.active else "44"
        out.append(f"\x1b[{y + 1};{x + 1}H\x1b[0;1;97;{colour}m{label}\x1b[0m")
    return "".join(out)


def _with_meta(pressed: list[KeyPress]) -> list[tuple[KeyPress, str]]:
    """Each key with its tmux name. Escape followed, in the same read, by a character
    is that character with Meta (Alt), tmux's `M-x`: a terminal sends Alt+x as ESC x,
    and ESC x is what a pane gets for it."""
    keys: list[tuple[KeyPress, str]] = []
    for press in pressed:
        if keys and keys[-1][0].key is Keys.Escape and not isinstance(press.key, Keys):
            keys[-1] = (KeyPress(press.key, "\x1b" + press.data), f"M-{press.key}")
        else:
            keys.append((press, _key_name(press)))
    return keys


def _modes(pane: Pane) -> KeyModes:
    screen = pane.terminal.screen
    return KeyModes(
        application_cursor=screen.application_cursor,
        application_keypad=screen.application_keypad,
        bracketed_paste=screen.bracketed_paste,
    )


class _FrameWriter:
    """A text stream for Vt100_Output whose flush sends an OUTPUT frame."""

    encoding = "utf-8"

    def __init__(self, send: Callable[[bytes], None]) -> None:
        self._send = send
        self._parts: list[str] = []

    def write(self, text: str) -> int:
        self._parts.append(text)
        return len(text)

    def flush(self) -> None:
        if self._parts:
            data = "".join(self._parts).encode("utf-8", "replace")
            self._parts.clear()
            self._send(data)

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        raise OSError("an attached client has no local terminal")


class PaneArea(UIControl):
    """A pane's place in prompt_toolkit's layout: blank, for the `Painter` draws the
    pane there itself (prompt_toolkit's diff then never writes inside it)."""

    def __init__(self, pane: Pane) -> None:
        self.pane = pane

    def is_focusable(self) -> bool:
        return False

    def create_content(self, width: int, height: int) -> UIContent:
        return UIContent(get_line=lambda y: [], line_count=height, show_cursor=False)


class AttachedClient:
    """The Application for one client attached to `session`."""

    def __init__(
        self, server: Server, session: Session, send: Callable[[bytes], None], size: Size
    ) -> None:
        self.server = server
        self.session = session
        self.size = size
        self.tty = ""
        """The client's terminal (#{client_tty})."""
        self._view: TextView | None = None
        """Shown in place of the window while open (C-b ?)."""
        self.detach_reason = f"detached (from session {session.name})"
        self._detaching = False
        self._input_cm = create_pipe_input()
        self.input: PipeInput = self._input_cm.__enter__()
        self._writer = _FrameWriter(send)
        self._output = TrackingOutput(cast(TextIO, self._writer), lambda: self.size,
                                      term="xterm-256color", enable_cpr=False)
        self.app: Application[None] = Application(
            layout=Layout(Window()), style=STYLE,
            full_screen=True, input=self.input, output=self._output,
            max_render_postpone_time=0, terminal_size_polling_interval=None,
            mouse_support=False, refresh_interval=STATUS_INTERVAL,
        )
        self.app.layout = Layout(self._container())
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self._pressed: list[KeyPress] = []
        self._keys = Vt100Parser(self._pressed.append)
        self._escape_timer: asyncio.TimerHandle | None = None
        self._prefixed = False  # the prefix key was pressed: the next key is a binding
        self._copy: CopyMode | None = None
        """Copy mode (C-b [) over `_copy_pane`, which it shows frozen in its place."""
        self._copy_pane: Pane | None = None
        self._pane_numbers = False
        """display-panes (C-b q): each pane's number shown over it; a digit selects."""
        self._pane_numbers_timer: asyncio.TimerHandle | None = None
        self._prompt: Prompt | None = None
        """An open status-line prompt: it takes every key until it is answered."""
        self._message = ""
        """A message shown in place of the status bar (a failed command's error)."""
        self.painter = Painter(self._output, self._cursor_left_at)
        self.app.after_render += self._after_render
        self._drawn = False  # prompt_toolkit drew its first frame
        self._paint_handle: asyncio.TimerHandle | None = None
        self._last_paint = 0.0
        self._output_at_paint: dict[Pane, int] = {}

    # --- the server's side ------------------------------------------------------------

    async def run(self) -> None:
        """Until detached, the session gone, or the connection lost."""
        try:
            # Output that arrived while the Application was starting is drawn at once.
            loop = asyncio.get_running_loop()

            def soon() -> None:
                if self._detaching:  # asked to leave before it even started
                    loop.call_soon(self.app.exit)
                loop.call_soon(self.relayout)

            await self.app.run_async(pre_run=soon)
        finally:
            self._input_cm.__exit__(None, None, None)

    def feed(self, data: bytes) -> None:
        """Keystrokes from the client's terminal, parsed (prompt_toolkit's VT100 parser)
        and dispatched now. Not through the Application's input and key processor: a
        loop turn and about 0.35 ms per key, where tmux takes 0.4 ms in all."""
        text = self._decoder.decode(data)
        if self._typing_only(text):
            # Plain typing: the parser would hand the pane these very bytes, key by key.
            self._type(text.encode("utf-8", "surrogateescape"))
            return
        if "\x1b" in text:  # maybe the start of a sequence: a lone ESC is a key later
            if self._escape_timer is not None:
                self._escape_timer.cancel()
            loop = asyncio.get_running_loop()
            self._escape_timer = loop.call_later(ESCAPE_TIME, self._flush_keys)
        self._keys.feed(text)
        self._process_keys()

    def _typing_only(self, text: str) -> bool:
        """Keys that all go to the active pane as they are: no escape sequence, no
        prefix, nothing half parsed, no prompt, view or pane numbers open."""
        return (
            bool(text)
            and "\x1b" not in text
            and _PREFIX_TYPED not in text
            and not self._prefixed
            and self._prompt is None
            and self._view is None
            and not self._pane_numbers
            and self._copy is None
            and self._escape_timer is None
            and not self._pressed
            and bool(self.session.windows)
        )

    def _flush_keys(self) -> None:
        self._escape_timer = None
        self._keys.flush()
        self._process_keys()

    def _process_keys(self) -> None:
        pressed = _with_meta(self._pressed)
        self._pressed.clear()  # the parser appends to this very list
        for press, name in pressed:
            if self._detaching:
                break
            self._dispatch(press, name)

    def resize(self, cols: int, rows: int) -> None:
        self.size = Size(rows=rows, columns=cols)
        self.relayout()  # the window may fit it differently now
        self.app._on_resize()

    def refresh(self, pane: Pane | None = None) -> None:
        """`pane` (or some pane) wrote something: paint the panes. Interactive output
        (less than INTERACTIVE_BYTES since the last paint: an echo, a prompt) is painted
        in this turn of the loop; more waits for the next frame slot, so that a flood
        costs at most FRAME_RATE paints a second. An echo in one pane does not wait for
        the frame slot of a flood in another, nor brings it along: the outer terminal
        would have to take the flood's frame before it could show the echo. Requests
        made meanwhile share the paint."""
        if not self._drawn:
            return  # the first frame paints everything
        if pane is not None and (pane not in self._visible_panes() or pane is self._copy_pane):
            return  # in another window, or frozen in copy mode: nothing to show
        loop = asyncio.get_running_loop()
        interactive = self._output_since_paint(pane) < INTERACTIVE_BYTES
        if interactive and pane is not None:
            self._paint(only=pane)  # an echo: now, not a loop turn later
            return
        if self._paint_handle is not None:
            if not interactive or self._paint_handle.when() <= loop.time():
                return  # a paint is due anyway
            self._paint_handle.cancel()
        wait = self._last_paint + 1 / FRAME_RATE - loop.time()
        if wait > 0 and not interactive:
            self._paint_handle = loop.call_at(loop.time() + wait, self._paint)
        else:
            self._paint_handle = loop.call_at(loop.time(), self._paint)

    def _output_since_paint(self, pane: Pane | None) -> int:
        """What `pane` (every visible pane when None) wrote since the last paint."""
        if pane is None:
            return sum(self._output_since_paint(p) for p in self._visible_panes())
        return pane.output_bytes - self._output_at_paint.get(pane, 0)

    def _visible_panes(self) -> list[Pane]:
        return self.session.active_window.panes if self.session.windows else []

    def relayout(self) -> None:
        """Panes or windows came or went: rebuild the layout, then redraw everything.
        Copy mode ends if its pane went, left the window or changed size."""
        pane, mode = self._copy_pane, self._copy
        if pane is not None and mode is not None and (
            pane.closed or pane is not self.session.active_window.active
            or (pane.terminal.cols, pane.terminal.rows) != (mode.width, mode.height)
        ):
            self._copy = self._copy_pane = None
        self.app.layout = Layout(self._container())
        self.painter.forget()
        self.app.invalidate()

    def _after_render(self, _: object) -> None:
        """prompt_toolkit drew the chrome: the panes go on top of it."""
        self._drawn = True
        if self._output.erased:
            self._output.erased = False
            self.painter.forget()
        self._paint()

    def _paint(self, only: Pane | None = None) -> None:
        """Paint the visible panes, or only the pane `only` (an echo): the others'
        output waits for the frame already scheduled for it."""
        if only is None and self._paint_handle is not None:
            self._paint_handle.cancel()
            self._paint_handle = None
        if self._detaching or not self.app.is_running or not self.session.windows:
            return
        if only is not None:
            self._output_at_paint[only] = only.output_bytes
        else:
            self._last_paint = asyncio.get_running_loop().time()
            self._output_at_paint = {pane: pane.output_bytes for pane in self._visible_panes()}
        window = self.session.active_window
        if self._view is not None:  # the view covers the panes
            if only is None:
                self.painter.paint([], None)
            return
        # A window larger than this client (window-size largest, resize-window) shows
        # its top left part, as in tmux.
        cols, rows = self.size.columns, self.size.rows - 1
        placements = [
            Placement(cell.pane, cell.x, cell.y,
                      min(cell.width, cols - cell.x), min(cell.height, rows - cell.y))
            for cell in window.visible_cells()
            if cell.pane is not None and cell.x < cols and cell.y < rows
        ]
        overlay = _pane_numbers(placements, window) if self._pane_numbers else ""
        copying = next((p for p in placements if p.pane is self._copy_pane), None)
        if copying is not None and self._copy is not None:
            # The frozen view in the pane's place; its live output waits underneath.
            placements.remove(copying)
            overlay = copy_view.frame(self._copy, copying) + overlay
        self.painter.paint(placements, window.active, only, overlay)

    def _cursor_left_at(self, point: Point) -> None:
        # prompt_toolkit's renderer moves the cursor relative to where it last left it;
        # the painter moved it since, so it says where. (No public API for this.)
        self.app.renderer._cursor_pos = point

    def detach(self, reason: str | None = None) -> None:
        """End the Application; the first reason given is the one the client prints."""
        if self._detaching:
            return
        self._detaching = True
        if reason:
            self.detach_reason = reason
        if self.app.is_running:
            self.app.exit()

    # --- the layout --------------------------------------------------------------------

    def _container(self) -> AnyContainer:
        window = self.session.active_window if self.session.windows else None
        body: AnyContainer = Window()
        fits = window is not None and (
            window.layout.width <= self.size.columns
            and window.layout.height <= self.size.rows - 1
        )
        if self._view is not None:
            body = Window(FormattedTextControl(self._view_text), style="class:view")
        elif window is not None and fits:
            body = self._cell(window.visible_cells()[0] if window.zoomed else window.layout)
            # A window smaller than this client (window-size smallest): dots outside it.
            if window.layout.width < self.size.columns:
                body = VSplit([body, Window(char="·", style="class:outside")])
            if window.layout.height < self.size.rows - 1:
                body = HSplit([body, Window(char="·", style="class:outside")])
        status = Window(FormattedTextControl(self._status), height=1, style="class:status")
        return HSplit([body, status])

    def _cell(self, cell: Cell[Pane]) -> AnyContainer:
        if cell.kind == "pane":
            pane = cell.pane
            assert pane is not None
            return Window(
                PaneArea(pane),
                width=Dimension.exact(cell.width), height=Dimension.exact(cell.height),
            )
        children = [self._cell(child) for child in cell.children]
        if cell.kind == "row":
            return VSplit(children, padding=1, padding_char="│", padding_style="class:border")
        return HSplit(children, padding=1, padding_char="─", padding_style="class:border")

    def _view_text(self) -> StyleAndTextTuples:
        assert self._view is not None
        rows = self._view.rows(self.size.columns, self.size.rows - 1)
        return [("", "\n".join(rows))]

    def _open_view(self, lines: list[str]) -> None:
        self._view = TextView(lines)
        self.relayout()

    def _status(self) -> StyleAndTextTuples:
        if self._prompt is not None:
            return [("class:status.prompt", self._prompt.line.ljust(self.size.columns))]
        if self._message:
            return [("class:status.prompt", self._message.ljust(self.size.columns))]
        session = self.session
        names = " ".join(
            f"{w.index}:{w.name}{session.window_flags(w)}"
            + (" [sync]" if self.server.window_option(w, "synchronize-panes") == "on" else "")
            for w in session.windows
        )
        right = f'"{socket.gethostname()}" {time.strftime("%H:%M %d-%b-%y")}'
        left = f"[{session.name}] {names}"
        gap = max(1, self.size.columns - len(left) - len(right))
        return [("class:status", left + " " * gap + right)]

    # --- keys ----------------------------------------------------------------------

    def _prefix_table(self) -> dict[str, Callable[[], None]]:
        """The prefix bindings (key name -> action), from the server's table that
        list-keys shows (mux/bindings.py): the defaults' commands are carried out here,
        the client's own way (prompts, views); any other runs as a tmux command."""
        actions: dict[str, Callable[[], None]] = {
            "send-prefix": lambda: self._active().write(b"\x02"),
            "split-window": lambda: self._split(horizontal=False),
            "split-window -h": lambda: self._split(horizontal=True),
            "command-prompt": lambda: self._open(Prompt(":", "", self._command_line)),
            "list-keys -N": lambda: self._open_view(
                self.server.key_table.list_keys(notes=True)),
            "new-window": lambda: self._spawn(
                self.server.new_window(self.session, [], self._env(), None, None, select=True)
            ),
            "detach-client": self.detach,
            "last-window": lambda: self._select_window(self.session.last),
            "next-window": lambda: self._step_window(1),
            "previous-window": lambda: self._step_window(-1),
            "select-pane -t :.+": self._next_pane,
            "resize-pane -Z": lambda: self._run("resize-pane", "-Z"),
            "select-pane -U": lambda: self._select_neighbour(UP),
            "select-pane -D": lambda: self._select_neighbour(DOWN),
            "select-pane -L": lambda: self._select_neighbour(LEFT),
            "select-pane -R": lambda: self._select_neighbour(RIGHT),
            "next-layout": lambda: self._run("next-layout"),
            "display-panes": self.display_panes,
            "copy-mode": self.copy_mode,
            "copy-mode -u": lambda: self.copy_mode(page_up=True),
            "list-buffers": lambda: self._run("list-buffers", view=True),
            **{f"resize-pane -{d}": functools.partial(self._run, "resize-pane", f"-{d}")
               for d in "UDLR"},
        }
        table: dict[str, Callable[[], None]] = {}
        for binding in self.server.key_table:
            command = binding.command
            if command in actions:
                table[binding.key] = actions[command]
            elif command.startswith("select-window -t :="):
                table[binding.key] = self._window_at(int(command.rsplit("=", 1)[1]))
            elif command.startswith("confirm-before"):
                kill_window = command.endswith("kill-window")
                table[binding.key] = (
                    self._confirm_kill_window if kill_window else self._confirm_kill_pane
                )
            elif command.startswith("command-prompt -I"):
                session = "rename-session" in command
                table[binding.key] = (
                    self._ask_session_name if session else self._ask_window_name
                )
            else:  # any other command runs as the command prompt would run it
                table[binding.key] = functools.partial(self._run, *shlex.split(command))
        return table

    def _command_line(self, line: str) -> None:
        """C-b : runs any verb, with the current session as the default target."""
        try:
            argv = shlex.split(line)
        except ValueError as error:
            self.show_message(f"parse error: {error}")
            return
        if argv:
            self._run(*argv)

    # The prompts name their target when they open, as tmux's do: a pane that becomes
    # active meanwhile is not the one killed.

    def _confirm_kill_pane(self) -> None:
        window, pane = self.session.active_window, self._active()
        question = f"kill-pane {window.panes.index(pane)}"
        self._open(confirm(question, lambda: self._run("kill-pane", "-t", pane.name)))

    def _confirm_kill_window(self) -> None:
        window = self.session.active_window
        target = f"@{window.id}"
        self._open(confirm(f"kill-window {window.name}",
                           lambda: self._run("kill-window", "-t", target)))

    def _ask_window_name(self) -> None:
        window = self.session.active_window
        target = f"@{window.id}"
        self._open(ask("rename-window", window.name,
                       lambda name: self._run("rename-window", "-t", target, name)))

    def _ask_session_name(self) -> None:
        target = f"${self.session.id}"
        self._open(ask("rename-session", self.session.name,
                       lambda name: self._run("rename-session", "-t", target, name)))

    def _open(self, prompt: Prompt) -> None:
        self._prompt = prompt
        self.app.invalidate()

    def _run(self, *argv: str, view: bool = False) -> None:
        """A tmux command line on behalf of this client; its error (or the first line it
        prints) goes to the status line for DISPLAY_TIME, as tmux shows it; with `view`
        what it prints is shown in a view over the panes (list-buffers, as tmux)."""

        async def run() -> None:
            context = Context(self.server, self._env(), session=self.session)
            result = await run_command(context, list(argv))
            output = result.stderr if result.status else result.stdout
            if view and not result.status:
                self._open_view(output.splitlines())
            elif output.strip():
                self.show_message(output.strip().splitlines()[0])

        self._spawn(run())  # which redraws the client once the command is done

    def copy_mode(self, *, page_up: bool = False) -> None:
        """copy-mode (C-b [): the active pane's scrollback and screen, frozen, to move
        over, search, select and copy into a paste buffer (-u: a page up at once)."""
        pane = self._active()
        if self._copy is None or self._copy_pane is not pane:
            rows, wrapped = copy_view.snapshot(pane.terminal)
            screen = pane.terminal.screen
            cursor = (min(screen.cursor.x, pane.terminal.cols - 1), screen.cursor.y)
            self._copy = CopyMode(rows, wrapped, pane.terminal.rows, cursor,
                                  keys=self.server.options.get("mode-keys"))
            self._copy_pane = pane
        if page_up:
            self._copy.press("PageUp")
        self._paint()

    def _copy_key(self, name: str) -> None:
        mode = self._copy
        assert mode is not None
        action = mode.press("Space" if name == " " else name)
        if action is not None and action.kind == "copy":
            self.server.buffers.set(action.text.encode("utf-8", "surrogateescape"))
        if action is not None and action.kind in ("copy", "exit"):
            self._leave_copy_mode()
            return
        if action is not None and action.kind == "prompt":
            forward = action.text != "search-backward"
            label = {"search-forward": "(search down) ", "search-backward": "(search up) ",
                     "goto-line": "(goto line) "}.get(action.text, action.text + " ")
            self._open(Prompt(label, "", functools.partial(self._copy_answer, action.text,
                                                           forward)))
            return
        if mode.message:
            self.show_message(mode.message)
        self._paint()

    def _copy_answer(self, prompt: str, forward: bool, answer: str) -> None:
        mode = self._copy
        if mode is None or not answer:
            return
        if prompt == "goto-line":
            if answer.isdigit():
                mode.goto_line(int(answer))
        else:
            mode.search(answer, forward)
        if mode.message:
            self.show_message(mode.message)
        self._paint()

    def _leave_copy_mode(self) -> None:
        self._copy = self._copy_pane = None
        self.relayout()  # the pane as it is now, live again

    def display_panes(self, duration: float = DISPLAY_PANES_TIME) -> None:
        """display-panes: the panes' numbers over them for `duration` seconds, or until a
        key: a digit selects that pane, as tmux's."""
        if self._pane_numbers_timer is not None:
            self._pane_numbers_timer.cancel()
        self._pane_numbers = True
        loop = asyncio.get_running_loop()
        self._pane_numbers_timer = loop.call_later(duration, self._hide_pane_numbers)
        self._paint()

    def _hide_pane_numbers(self) -> None:
        if self._pane_numbers_timer is not None:
            self._pane_numbers_timer.cancel()
            self._pane_numbers_timer = None
        if self._pane_numbers:
            self._pane_numbers = False
            self.relayout()  # the numbers covered pane cells: repaint them

    def show_message(self, message: str) -> None:
        """`message` in the status line for DISPLAY_TIME, as tmux's display-message."""
        self._message = message
        asyncio.get_running_loop().call_later(DISPLAY_TIME, self._clear_message, message)
        self.app.invalidate()

    def _clear_message(self, message: str) -> None:
        if self._message == message:
            self._message = ""
            self.app.invalidate()

    def _dispatch(self, press: KeyPress, name: str) -> None:
        """One key from the client (`name`: tmux's name of it): the prefix, a prefix
        binding, or the pane's."""
        if press.key is Keys.CPRResponse:
            return
        if press.key is Keys.BracketedPaste:
            pane = self._active()
            pane.write(encode_paste(press.data, _modes(pane)))
            return
        if self._pane_numbers:
            self._hide_pane_numbers()
            panes = self.session.active_window.panes
            if name.isdigit() and int(name) < len(panes):
                self._run("select-pane", "-t", panes[int(name)].name)
            return  # any other key just ends the display, as in tmux
        if self._view is not None:
            if self._view.key(name, self.size.rows - 1):
                self._view = None
                self.relayout()
            self.app.invalidate()
            return
        if self._prompt is not None:
            if self._prompt.key(name):
                self._prompt = None
            self.app.invalidate()
            return
        if self._copy is not None and not self._prefixed and name != PREFIX:
            self._copy_key(name)
            return
        if self._prefixed:
            self._prefixed = False
            action = self._prefix_table().get("Space" if name == " " else name)
            if action is not None:
                action()
            return  # tmux ignores an unbound key after the prefix
        if name == PREFIX:
            self._prefixed = True
            return
        self._send_key(press.key, press.data)

    def _next_pane(self) -> None:
        window = self.session.active_window
        panes = window.panes
        window.select(panes[(panes.index(window.active) + 1) % len(panes)])
        self.relayout()

    def _send_key(self, key: Keys | str, data: str) -> None:
        name = _SPECIAL_KEYS.get(key) if isinstance(key, Keys) else None
        for pane in self._typed_into():
            if name is not None:
                pane.write(encode_key(name, _modes(pane)))
            else:
                pane.write(data.encode("utf-8", "surrogateescape"))

    def _type(self, data: bytes) -> None:
        for pane in self._typed_into():
            pane.write(data)

    def _typed_into(self) -> list[Pane]:
        """The panes keys go to: the active one, or with synchronize-panes every live
        pane of the window."""
        window = self.session.active_window
        if self.server.window_option(window, "synchronize-panes") == "on":
            return [pane for pane in window.panes if not pane.dead]
        return [window.active]

    def _active(self) -> Pane:
        return self.session.active_window.active

    def _env(self) -> dict[str, str]:
        return dict(self.server.environ_of(self.session))

    def _split(self, *, horizontal: bool) -> None:
        window = self.session.active_window
        self._spawn(self.server.split_window(
            self.session, window, window.active, [], self._env(), None,
            horizontal=horizontal, size=None, percentage=None, before=False, select=True,
        ))

    def _select_neighbour(self, direction: tuple[int, int]) -> None:
        """C-b arrow: the pane across that border, as select-pane -L/-R/-U/-D."""
        window = self.session.active_window
        window.select(window.neighbour(window.active, direction))
        self.relayout()

    def _window_at(self, index: int) -> Callable[[], None]:
        """C-b 0..9: the window with that index; nothing when there is none, as tmux."""
        return lambda: self._select_window(
            next((w for w in self.session.windows if w.index == index), None)
        )

    def _select_window(self, window: model.Window | None) -> None:
        if window is not None:
            self.session.select(window)
            self.relayout()

    def _step_window(self, step: int) -> None:
        windows = self.session.windows
        current = windows.index(self.session.active_window)
        self._select_window(windows[(current + step) % len(windows)])

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        task.add_done_callback(lambda _: self.relayout())
