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
import base64
import codecs
import functools
import os
import time
from collections.abc import Callable, Mapping, Sequence
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
from prompt_toolkit.output import ColorDepth
from wcwidth import wcwidth

from termhost.mux import model
from termhost.mux.bindings import mode_command
from termhost.mux.clock_mode import ClockMode
from termhost.mux.commands import Context, run_command, variables
from termhost.mux.commands.modes import ChooseRequest
from termhost.mux.copy_mode import CopyMode
from termhost.mux.formats import expand
from termhost.mux.layout import Cell
from termhost.mux.lexer import LexError, split_commands
from termhost.mux.model import Session
from termhost.mux.mouse import Mouse, forward
from termhost.mux.options import Scoped
from termhost.mux.pane import Pane
from termhost.mux.style import Style
from termhost.mux.terminal_overrides import has_automatic_margins
from termhost.mux.verbs import lookup
from termhost.terminal.keys import encode_key, encode_paste
from termhost.terminal.mouse import (
    MOUSE_ALL_OFF,
    MOUSE_ALL_ON,
    MOUSE_OFF,
    MOUSE_ON,
    parse_report,
)
from termhost.themes import ThemeError, load_theme
from termhost.ui import borders, clock, copy_view
from termhost.ui.box import BOX_LINES
from termhost.ui.choose_modes import Chooser, open_chooser
from termhost.ui.clipboard_query import QUERY as CLIPBOARD_QUERY
from termhost.ui.clipboard_query import QUERY_TIMEOUT as CLIPBOARD_TIMEOUT
from termhost.ui.clipboard_query import Answer, ClipboardQuery
from termhost.ui.colours import (
    TRUE_COLOUR,
    OverlayStyles,
    default_style,
    detect_depth,
    palette_sequences,
    reset_palette_sequences,
    style_sgr,
    ui_style,
)
from termhost.ui.completion import Completions, targets_of
from termhost.ui.copy_view import CopySession
from termhost.ui.key_names import key_bytes, key_modes, with_meta
from termhost.ui.menu import Menu, MenuItem
from termhost.ui.mouse_router import MouseRouter
from termhost.ui.overlay import Overlay
from termhost.ui.painter import Painter, Placement, TrackingOutput
from termhost.ui.pane_colours import default_colours
from termhost.ui.popup import Popup
from termhost.ui.prompt import Prompt
from termhost.ui.status import status_bar, status_line
from termhost.ui.window_view import Pan, View, clipped, pan, view_of

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["AttachedClient"]

FRAME_RATE = 60
"""Pane paints per second at most: a flood costs 60 paints a second, not one per read."""
INTERACTIVE_BYTES = 4096
"""Output since the last paint below which a pane is painted at once (see `refresh`)."""
DISPLAY_PANES_TIME = 1.0
"""Seconds display-panes shows the numbers, as tmux's display-panes-time."""
_COLOR_DEPTHS = {16: ColorDepth.DEPTH_4_BIT, 256: ColorDepth.DEPTH_8_BIT,
                 TRUE_COLOUR: ColorDepth.DEPTH_24_BIT}


@functools.lru_cache(maxsize=8)
def _key_bytes(name: str) -> bytes:
    """What the terminal sends for the key `name`; looked at on every keystroke (is it the
    prefix?), so worked out once."""
    return encode_key(name)


@functools.lru_cache(maxsize=8)
def _key_text(name: str) -> str:
    return _key_bytes(name).decode("utf-8", "surrogateescape")


def _cut(text: str, width: int) -> str:
    """`text` cut to `width` cells: a wide character takes two, so a label with emoji
    cannot run past its border."""
    out, used = [], 0
    for char in text:
        used += max(0, wcwidth(char))
        if used > width:
            break
        out.append(char)
    return "".join(out)


def _read_only_safe(command: str) -> bool:
    """A binding a read-only client may use: every command in it one of tmux's
    CMD_READONLY verbs (detach-client, switch-client...: verbs.Verb.read_only)."""
    try:
        commands = split_commands(command, {})
    except LexError:
        return False
    verbs = [lookup(argv[0]) if argv else None for argv in commands]
    return bool(verbs) and all(verb is not None and verb.read_only for verb in verbs)


def _commands(argv: Sequence[str]) -> list[list[str]]:
    """A command line split at its `;` words: `neww ; splitw` is two commands."""
    commands: list[list[str]] = [[]]
    for word in argv:
        if word == ";":
            commands.append([])
        else:
            commands[-1].append(word)
    return [command for command in commands if command]


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


class _FrameWriter:
    """A text stream for Vt100_Output whose flush sends an OUTPUT frame."""

    encoding = "utf-8"

    def __init__(self, send: Callable[[bytes], None]) -> None:
        self._send = send
        self._parts: list[str] = []
        self.paused = False
        """The client has left its terminal (suspend, lock): what is drawn is dropped."""

    def write(self, text: str) -> int:
        self._parts.append(text)
        return len(text)

    def flush(self) -> None:
        if self.paused:
            self._parts.clear()
        elif self._parts:
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
        self, server: Server, session: Session, send: Callable[[bytes], None], size: Size,
        *, env: Mapping[str, str] | None = None, force_256: bool = False,
    ) -> None:
        self.server = server
        self.depth = detect_depth(env or {}, force_256=force_256)
        """The colours the client's terminal shows (COLORTERM, TERM, termhost -2)."""
        self.term = (env or {}).get("TERM", "")
        """The client's terminal type (#{client_termname}), which terminal-overrides
        patterns are matched against."""
        self.environ: Mapping[str, str] = dict(env or {})
        self._theme = ""
        """The theme the client is drawn in (option theme), once applied."""
        self._overlay_styles = OverlayStyles()
        self._palette_set = False
        self._focused: Pane | None = None
        """The pane last told it has the focus (focus-events)."""
        self._title: str | None = None
        """The title last given to the client's terminal (set-titles)."""
        self.session = session
        self.size = size
        self.tty = ""
        """The client's terminal (#{client_tty})."""
        self.pid = 0
        self.uid = os.getuid()
        """The client process's pid and uid (#{client_pid}), from its connection."""
        self.created = self.activity = time.time()
        """When it attached, and last typed (#{client_created}, #{client_activity})."""
        self._tree: Chooser | None = None
        """A choose mode (C-b s, C-b w, C-b =, C-b D, C-b f), shown in place of the
        window while open."""
        self.detach_reason = f"detached (from session {session.name})"
        self.detach_hangup = False
        self.detach_command: str | None = None
        self._detaching = False
        self.suspended = False
        """Away from its terminal (suspend-client, lock-client) until it wakes."""
        self.hand_over: Callable[[str | None], None] = lambda lock_command: None
        """Tells the client process it has its terminal (SUSPEND, or LOCK with the
        lock-command); set by the server, which holds the connection."""
        self._input_cm = create_pipe_input()
        self.input: PipeInput = self._input_cm.__enter__()
        self._writer = _FrameWriter(send)
        self._output = TrackingOutput(cast(TextIO, self._writer), lambda: self.size,
                                      term="xterm-256color", enable_cpr=False,
                                      default_color_depth=_COLOR_DEPTHS[self.depth])
        self.app: Application[None] = Application(
            layout=Layout(Window()), style=default_style(),
            full_screen=True, input=self.input, output=self._output,
            max_render_postpone_time=0, terminal_size_polling_interval=None,
            mouse_support=False, refresh_interval=server.options.number("status-interval") or None,
        )
        self.app.layout = Layout(self._container())
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self._pressed: list[KeyPress] = []
        self._keys = Vt100Parser(self._pressed.append)
        self._escape_timer: asyncio.TimerHandle | None = None
        self._table: str | None = None
        """The key table the next key is looked up in, when not the session's key-table
        (root): prefix after the prefix key, one switch-client -T chose, or the one a
        repeating binding (bind -r) keeps for repeat-time."""
        self._repeating: asyncio.TimerHandle | None = None
        self._binding: asyncio.Future[None] | None = None
        """A binding's command still running: the keys after it wait (`_held`), as
        tmux's client queue runs a binding's commands before the next key, unless it
        opened something that takes keys (a prompt, a menu, a popup, a list)."""
        self._bindings: set[asyncio.Future[None]] = set()
        """Every binding's command still running (the loop keeps weak references)."""
        self._held: list[tuple[KeyPress, str]] = []
        self.flags: set[str] = set()
        """attach -r / -f: read-only (only keys bound to detach-client or switch-client
        do anything), ignore-size (the session's size is the other clients')."""
        self._driving: CopySession | None = None
        """How this client drives the active pane's mode (Pane.mode, the server's), kept
        while the mode lasts so that a wheel scroll knows the copy mode it started."""
        self.mouse = MouseRouter(self)
        self.panned: Pan | None = None
        self._clipboard = ClipboardQuery()
        """refresh-client -l's query of the terminal's clipboard, while one is out."""
        self._clipboard_timer: asyncio.TimerHandle | None = None
        """refresh-client -L/-R/-U/-D's view of a window larger than the client."""
        self._mouse_on = False
        """The client's terminal reports the mouse (option mouse)."""
        self._mouse_all = False
        """...and every motion, not only drags (DECSET 1003)."""
        self.last_session: Session | None = None
        """The session shown before the last switch (switch-client -l)."""
        self._pane_numbers = False
        """display-panes (C-b q): each pane's number shown over it; a digit selects."""
        self._pane_numbers_select = True
        """...unless display-panes -N: then keys go on as if the numbers were not there."""
        self._pane_numbers_shown: asyncio.Future[None] | None = None
        """Done when the numbers are hidden again: what display-panes (not -b) waits for."""
        self._pane_numbers_timer: asyncio.TimerHandle | None = None
        self._prompt: Prompt | None = None
        """An open status-line prompt: it takes every key until it is answered."""
        self._overlay: Overlay | None = None
        """A popup or a menu over the panes (display-popup, display-menu): it takes
        every key until it closes."""
        self._message = ""
        """A message shown in place of the status bar (a failed command's error)."""
        self._message_ignores_keys = False
        """The message drops the keys typed until its delay ends (display-message -N)."""
        self.painter = Painter(self._output, self._cursor_left_at, self.depth)
        self.app.after_render += self._after_render
        self._drawn = False  # prompt_toolkit drew its first frame
        self._paint_handle: asyncio.TimerHandle | None = None
        self._last_paint = 0.0
        self._last_echo = 0.0
        """When output was last painted at once (an echo) rather than in a frame slot."""
        self._output_at_paint: dict[Pane, int] = {}
        # What the client's terminal is set to goes out before the first frame.
        self._apply_theme()
        self._apply_mouse()

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
            self.close_overlay()  # a popup's program ends with the client, however it went
            self._input_cm.__exit__(None, None, None)

    def option(self, name: str) -> str:
        """A session option as this client's session has it: its own value (set-option
        without -g), else the global one."""
        return Scoped(self.server.options, self.session.options).get(name)

    def number(self, name: str) -> int:
        return int(self.option(name))

    @property
    def key_table(self) -> str:
        """The key table its next key is looked up in (#{client_key_table})."""
        return self._table or self.option("key-table")

    def switch_key_table(self, table: str | None) -> None:
        """switch-client -T: the next key looked up in `table` (None: the default one);
        a repeat under way ends."""
        if self._repeating is not None:
            self._repeating.cancel()
            self._repeating = None
        changed = table != self._table
        self._table = table
        if changed:
            self._status_changed()  # #{client_key_table}, #{client_prefix}

    def _repeat_in(self, table: str) -> None:
        """A repeating binding ran: `table` takes the next key for repeat-time."""
        self.switch_key_table(table)
        milliseconds = self.number("repeat-time")
        self._repeating = asyncio.get_running_loop().call_later(
            milliseconds / 1000, self.switch_key_table, None)

    def _bound(self, name: str, *, table: str | None = None, mouse: Mouse | None = None
               ) -> bool:
        """Look `name` up as tmux's server_client_key_callback does, and run what it is
        bound to: in the current table (with a repeat under way, a key not repeatable
        goes back to the default table); a key a non-default table lacks is tried in
        the default table, and if bound nowhere is dropped. The prefix key (or prefix2)
        in the default table switches to the prefix table. False: not a binding, the key
        goes to the pane (or its mode)."""
        default = self.option("key-table")
        table = table or self.key_table
        first, repeating = table, self._repeating is not None
        read_only = "read-only" in self.flags
        prefixes = (self.option("prefix"), self.option("prefix2"))
        while True:
            if name in prefixes and table != "prefix":  # the prefix first, as tmux's
                self.switch_key_table("prefix")
                return True
            binding = self.server.key_tables.binding(table, name)
            if binding is not None and repeating and not binding.repeat:
                self.switch_key_table(None)
                first = table = default
                repeating = False
                continue
            action = (self._binding_action(name, binding.command, mouse)
                      if binding is not None else None)
            if action is not None and read_only and binding is not None and \
                    not _read_only_safe(binding.command):
                self.switch_key_table(None)
                return True  # a read-only client's keys do nothing else, as tmux's -r
            if action is not None:
                if binding is not None and binding.repeat and \
                        self.number("repeat-time"):
                    self._repeat_in(table)
                else:
                    self.switch_key_table(None)
                action()
                return True
            if table != default or repeating:
                self.switch_key_table(None)
                if repeating:
                    first = default
                table, repeating = default, False
                continue
            break
        if first != table:
            self.switch_key_table(None)
            return True  # tmux: unbound after the prefix (or in a table), it is dropped
        return read_only  # a read-only client types into no pane

    def feed(self, data: bytes) -> None:
        """Keystrokes from the client's terminal, parsed (prompt_toolkit's VT100 parser)
        and dispatched now. Not through the Application's input and key processor: a
        loop turn and about 0.35 ms per key, where tmux takes 0.4 ms in all."""
        text = self._decoder.decode(data)
        if "\x1b]52;" in text or self._clipboard.holding:
            text, answers = self._clipboard.take(text)
            for answer in answers:
                self._clipboard_answered(answer)
        if self._typing_only(text):
            # Plain typing: the parser would hand the pane these very bytes, key by key.
            if not self._key_pressed():
                self._type(text.encode("utf-8", "surrogateescape"))
            return
        if "\x1b" in text:  # maybe the start of a sequence: a lone ESC is a key later
            if self._escape_timer is not None:
                self._escape_timer.cancel()
            loop = asyncio.get_running_loop()
            escape_time = self.server.options.number("escape-time") / 1000
            self._escape_timer = loop.call_later(escape_time, self._flush_keys)
        self._keys.feed(text)
        self._process_keys()

    def request_clipboard(self, pane: Pane | None) -> None:
        """refresh-client -l: the terminal asked for its clipboard (clipboard_query.py);
        the answer goes into a new paste buffer, or to `pane`."""
        if not self._clipboard.ask(pane):
            return
        self.write_terminal(CLIPBOARD_QUERY)
        if self._clipboard_timer is not None:
            self._clipboard_timer.cancel()
        self._clipboard_timer = asyncio.get_running_loop().call_later(
            CLIPBOARD_TIMEOUT, self._clipboard.give_up)

    def _clipboard_answered(self, answer: Answer) -> None:
        if self._clipboard_timer is not None:
            self._clipboard_timer.cancel()
            self._clipboard_timer = None
        if answer.buffer:
            self.server.buffers.set(answer.data)
        encoded = base64.b64encode(answer.data).decode()
        for pane in answer.panes:
            if not pane.closed:  # as tmux's input_reply_clipboard
                pane.write(f"\x1b]52;;{encoded}\x1b\\".encode())

    def _typing_only(self, text: str) -> bool:
        """Keys that all go to the active pane as they are: no escape sequence, no
        prefix (nor prefix2), no binding in the default table (bind -n: C-h for
        vim-tmux-navigator), nothing half parsed, no prompt, view or pane numbers open."""
        prefix2 = self.option("prefix2")
        return (
            bool(text)
            and "\x1b" not in text
            and _key_text(self.option("prefix")) not in text
            and (prefix2 == "None" or _key_text(prefix2) not in text)
            and self._table is None and "read-only" not in self.flags
            and not self._held and (self._binding is None or self._binding.done())
            and not self.server.key_tables.binds_keys(self.option("key-table"))
            and self._prompt is None
            and self._tree is None
            and self._overlay is None
            and not self._pane_numbers
            and bool(self.session.windows) and self.active().mode is None
            and self._escape_timer is None
            and not self._pressed
        )

    def _flush_keys(self) -> None:
        self._escape_timer = None
        self._keys.flush()
        self._process_keys()

    def _process_keys(self) -> None:
        pressed = with_meta(self._pressed)
        self._pressed.clear()  # the parser appends to this very list
        self._held.extend(pressed)
        self._release_keys()

    def _release_keys(self) -> None:
        """Dispatch the keys waiting, in order, until a binding's command is running
        (they go on when it is done, or once it opens something that takes keys)."""
        while self._held and not self._detaching:
            running = self._binding is not None and not self._binding.done()
            if running and not self._taking_keys():
                return
            press, name = self._held.pop(0)
            self._dispatch(press, name)

    def _taking_keys(self) -> bool:
        return (self._prompt is not None or self._overlay is not None
                or self._tree is not None or self._pane_numbers)

    def run_binding(self, work: Any) -> None:
        """A binding's command line, run as `spawn` runs work; the keys after it wait for
        it (for the latest, when one started while another's list took the keys)."""
        task = asyncio.ensure_future(work)
        self._binding = task
        self._bindings.add(task)
        task.add_done_callback(self._bindings.discard)
        task.add_done_callback(lambda _: self._release_keys())
        task.add_done_callback(lambda _: self.relayout())

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
        made meanwhile share the paint. Small writes coming faster than the frame rate
        while nobody types are not echoes: they wait for the frame slot too."""
        if not self._drawn:
            return  # the first frame paints everything
        if pane is not None and (pane not in self._visible_panes() or self.is_copying(pane)):
            return  # in another window, or frozen in copy mode: nothing to show
        loop = asyncio.get_running_loop()
        interactive = self._output_since_paint(pane) < INTERACTIVE_BYTES
        if interactive and pane is not None:
            now = loop.time()
            if self.session.typed_recently() or now - self._last_echo >= 1 / FRAME_RATE:
                self._last_echo = now
                self._paint(only=pane)  # an echo: now, not a loop turn later
                return
            # Panes writing a little at a time, many times a second, with nobody typing
            # (build logs, top): they share the frame slots instead of a paint each.
            interactive = False
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
        """The panes painted: the window's, or only a popup's program while a popup is
        open (tmux does not update the panes under a popup)."""
        placement = self._overlay.placement() if self._overlay is not None else None
        if placement is not None:
            return [placement.pane]
        return self.session.active_window.panes if self.session.windows else []

    def relayout(self) -> None:
        """Panes or windows came or went: rebuild the layout, then redraw everything.
        A pane that changed size refits its mode itself (Pane.resize)."""
        self._apply_theme()
        self._apply_mouse()
        self._move_focus()
        if self._held and self._taking_keys():  # a binding opened a list, a view...
            asyncio.get_running_loop().call_soon(self._release_keys)
        self.app.layout = Layout(self._container())
        self.painter.forget()
        self.app.invalidate()

    def _move_focus(self) -> None:
        """focus-events on: a pane that asked (DECSET 1004) is told when it becomes the
        active pane (CSI I) and when it stops being it (CSI O)."""
        pane = self.active() if self.session.windows else None
        if pane is self._focused:
            return
        if self.server.options.get("focus-events") == "on":
            for whom, sequence in ((self._focused, b"\x1b[O"), (pane, b"\x1b[I")):
                if whom is not None and not whom.closed and whom.terminal.screen.focus_events:
                    whom.write(sequence)
        self._focused = pane

    def _apply_mouse(self) -> None:
        """Mouse reporting on in the client's terminal while the option mouse is on, so
        that without it the terminal's own selection and scrolling work as usual."""
        wanted = self.option("mouse") == "on"
        if wanted != self._mouse_on:
            self._output.write_raw(MOUSE_ON if wanted else MOUSE_OFF)
            self._mouse_on = wanted
        # Every motion while a menu the mouse opened is open, to follow the pointer
        # (tmux's MODE_MOUSE_ALL on a menu's screen).
        every = wanted and isinstance(self._overlay, Menu) and self._overlay.by_mouse
        if every != self._mouse_all:
            self._output.write_raw(MOUSE_ALL_ON if every else MOUSE_ALL_OFF)
            self._mouse_all = every

    def _apply_theme(self) -> None:
        """Draw in the theme the option names, when it changed: the status bar, borders,
        prompts, copy mode; and on a terminal of 256 colours or more the panes' palette
        and default colours (OSC 4/10/11), given back to the terminal on detach."""
        name = self.server.options.get("theme")
        if name == self._theme:
            return
        self._theme = name
        try:
            theme = None if name == "default" else load_theme(name)
        except ThemeError as error:
            self.show_message(str(error))
            theme = None
        style = default_style() if theme is None else ui_style(theme)
        self.app.style = style
        self._overlay_styles = OverlayStyles(*(style_sgr(style, part, self.depth) for part in (
            "selection", "match", "match.current", "border.active", "border")))
        if theme is not None and self.depth >= 256:
            self._output.write_raw(palette_sequences(theme))
            self._palette_set = True
        elif self._palette_set:
            self._output.write_raw(reset_palette_sequences())
            self._palette_set = False

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
        if (self._detaching or self.suspended or not self.app.is_running
                or not self.session.windows):
            return
        if only is not None:
            self._output_at_paint[only] = only.output_bytes
        else:
            self._set_title()
            self._last_paint = asyncio.get_running_loop().time()
            self._output_at_paint = {pane: pane.output_bytes for pane in self._visible_panes()}
        window = self.session.active_window
        if self._tree is not None:  # it covers the panes
            if only is None:
                self.painter.paint([], None)
            return
        placement = self._overlay.placement() if self._overlay is not None else None
        if placement is not None:  # a popup: its program alone, in its box
            assert self._overlay is not None
            self.painter.paint([placement], placement.pane, only,
                               "" if only else self._overlay.draw(self.depth))
            return
        # A window larger than this client (window-size largest, resize-window) shows
        # the part around the cursor, or where refresh-client panned it, as tmux's.
        view = self.view()
        rows = self.size.rows - self._status_shown()
        placements = []
        for cell in window.visible_cells():
            shown = clipped(cell, view) if cell.pane is not None else None
            if cell.pane is None or shown is None or shown[1] >= rows:
                continue
            x, y, width, height, left, top = shown
            placements.append(Placement(
                cell.pane, x, y, width, min(height, rows - y),
                default_colours(self.server, self.session, window, cell.pane), left, top))
        overlay = _pane_numbers(placements, window) if self._pane_numbers else ""
        if only is None:  # an echo's paint stays inside its pane: borders and labels stand
            if self._labels(window) != "off":
                overlay = self._pane_labels(placements, window) + overlay
            overlay = self._borders(placements, window) + overlay
        for copied in [p for p in placements if p.pane.mode is not None]:
            # The mode's view in the pane's place; its live output waits underneath.
            placements.remove(copied)
            mode = copied.pane.mode
            if isinstance(mode, CopyMode):
                overlay = copy_view.frame(mode, copied, self._overlay_styles) + overlay
            else:
                overlay = clock.frame(
                    copied, self.server.window_option(window, "clock-mode-colour"),
                    self.server.window_option(window, "clock-mode-style"),
                    self.depth) + overlay
        if self._overlay is not None:  # a menu, over everything (an echo's paint too)
            overlay += self._overlay.draw(self.depth)
        prompt = self._prompt
        cursor = None if prompt is None else Point(
            x=min(prompt.cursor_column, self.size.columns - 1), y=self.size.rows - 1)
        self.painter.paint(placements, window.active, only, overlay, cursor)

    def _borders(self, placements: list[Placement], window: model.Window) -> str:
        """What prompt_toolkit's straight, one-colour borders lack (borders.py): the
        active pane's in the active border's colour (green by default), as tmux tells
        the active pane apart, and the junction glyphs where borders meet; the line of
        labels (pane-border-status) is no pane's, a border the others end in."""
        view = self.view()
        if len(window.panes) < 2 or (len(placements) < 2 and not view.bigger):
            return ""
        root = window.layout
        bottom = min(root.y + root.height - view.y, self.size.rows - self._status_shown())
        area = (root.x, root.y, min(root.width - view.x, self.size.columns - root.x),
                bottom - root.y)
        active = next(((p.x, p.y, p.width, p.height) for p in placements
                       if p.pane is window.active), None)
        styles = self._overlay_styles
        panes = [(p.x, p.y, p.width, p.height) for p in placements]
        return borders.overlay(panes, active, area, styles.border, styles.active_border,
                               every=view.bigger)

    def view(self) -> View:
        """The part of the current window this client shows (window_view.py); a pan of
        another window, or of one that fits now, is forgotten, as tmux's."""
        window = self.session.active_window
        view = view_of(window, self.size.columns, self.body_rows, self.panned)
        if self.panned is not None and (self.panned.window is not window or not view.bigger):
            self.panned = None
        return view

    def pan(self, direction: str, adjustment: int) -> None:
        """refresh-client -L/-R/-U/-D: the view of a window larger than the client moved
        by `adjustment` cells; -c (`direction` "c"): back to following the cursor."""
        if direction == "c":
            self.panned = None
        elif self.session.windows:
            self.panned = pan(self.panned, self.session.active_window, self.view(),
                              direction, adjustment)
        self.relayout()

    def view_variables(self) -> dict[str, str]:
        """#{window_bigger}, #{window_offset_x} and #{window_offset_y} for this client, as
        tmux's (the offsets empty while the window fits)."""
        if not self.session.windows:
            return {}
        view = self.view()
        return {"window_bigger": "1" if view.bigger else "0",
                "window_offset_x": str(view.x) if view.bigger else "",
                "window_offset_y": str(view.y) if view.bigger else ""}

    def _labels(self, window: model.Window | None) -> str:
        """pane-border-status of `window`: off, top or bottom."""
        if window is None:
            return "off"
        return self.server.window_option(window, "pane-border-status")

    def _pane_labels(self, placements: list[Placement], window: model.Window) -> str:
        """Each pane's pane-border-format on the border above (below) it, the active
        pane's in the active border's colour, as tmux's pane-border-status draws them."""
        top = self._labels(window) == "top"
        template = self.server.window_option(window, "pane-border-format")
        out = []
        for placement in placements:
            y = placement.y - 1 if top else placement.y + placement.height
            if placement.width < 3 or not 0 <= y < self.size.rows - self._status_shown():
                continue
            values = variables(self.session, window, self.server, placement.pane)
            label = "".join(c for c in expand(template, values) if c.isprintable())
            if not label:
                continue  # as tmux: an empty label leaves the border whole
            label = _cut(f" {label} ", placement.width - 2)
            styles = self._overlay_styles
            sgr = styles.active_border if placement.pane is window.active else styles.border
            out.append(f"\x1b[{y + 1};{placement.x + 3}H{sgr}{label}\x1b[0m")
        return "".join(out)

    def _set_title(self) -> None:
        """set-titles on: the terminal's title is set-titles-string (the active pane's
        title by default), set again whenever it changes (OSC 2)."""
        if self.option("set-titles") != "on":
            return
        values = variables(self.session, server=self.server)
        title = expand(self.option("set-titles-string"), values)
        title = "".join(char for char in title if char.isprintable())
        if title != self._title:
            self._title = title
            self._output.write_raw(f"\x1b]2;{title}\x07")

    def _cursor_left_at(self, point: Point) -> None:
        # prompt_toolkit's renderer moves the cursor relative to where it last left it;
        # the painter moved it since, so it says where. (No public API for this.)
        self.app.renderer._cursor_pos = point

    def detach(self, reason: str | None = None) -> None:
        """End the Application; the first reason given is the one the client prints."""
        if self._detaching:
            return
        self._detaching = True
        self._close_prompt()
        if self._overlay is not None:
            self._overlay.close()
        if self._repeating is not None:
            self._repeating.cancel()
        self._pane_numbers_gone()  # a display-panes waiting for them waits no more
        self._held.clear()
        if reason:
            self.detach_reason = reason
        if self.app.is_running:
            self._give_back_terminal()
            self.app.exit()

    def leave_terminal(self, lock_command: str | None = None) -> None:
        """suspend-client (no `lock_command`) and the lock-* verbs: the terminal given
        back as on detach (out of the alternate screen; a lock's command gets a cleared
        one, as tmux's server_lock_client), nothing drawn on it until `wake`, the client
        process told, and the session sized without it (tmux's CLIENT_SUSPENDED)."""
        if self.suspended or self._detaching or not self.app.is_running:
            return
        self.suspended = True
        self._give_back_terminal()
        self.app._running_in_terminal = True  # prompt_toolkit renders nothing meanwhile
        self.app.renderer.reset()  # leaves the alternate screen, shows the cursor
        if lock_command is not None:
            self._output.write_raw("\x1b[?1049h\x1b[H\x1b[2J\x1b[3J")
        self._output.write_raw("\x1b[0m")
        self._output.flush()
        self._writer.paused = True
        self.hand_over(lock_command)
        self.server.fit_session(self.session)

    def wake(self) -> None:
        """The client is back on its terminal (WAKEUP): all of it drawn again, the
        mouse, theme and title set again, as after a resize."""
        if not self.suspended:
            return
        self.suspended = False
        self._writer.paused = False
        self.app._running_in_terminal = False
        self._theme, self._title, self.painter.cursor_shape = "", None, 0
        self._mouse_on = self._mouse_all = self._palette_set = False  # it has none now
        self.activity = time.time()
        self.server.fit_session(self.session)
        self.relayout()

    def _give_back_terminal(self) -> None:
        """What termhost changed in the client's terminal, as it was: the palette, the
        mouse, the cursor's shape."""
        if self._mouse_all:
            self._output.write_raw(MOUSE_ALL_OFF)
            self._mouse_all = False
        if self._mouse_on:
            self._output.write_raw(MOUSE_OFF)
            self._mouse_on = False
        if self.painter.cursor_shape:
            self._output.write_raw("\x1b[0 q")
        if self._palette_set:
            self._output.write_raw(reset_palette_sequences())
            self._palette_set = False
        self._output.flush()

    # --- the layout --------------------------------------------------------------------

    def _container(self) -> AnyContainer:
        window = self.session.active_window if self.session.windows else None
        body: AnyContainer = Window()
        height = 0 if window is None else window.layout.height
        fits = window is not None and (
            window.layout.width <= self.size.columns and height <= self.body_rows
        )
        if self._tree is not None:
            tree = self._tree
            body = Window(FormattedTextControl(lambda: tree.draw(
                self.size.columns, self.body_rows)), style="class:view")
        elif window is not None and fits:
            root = window.layout
            body = self._cell(window, Cell("pane", root.width, root.height, root.x, root.y,
                                           pane=window.active) if window.zoomed else root)
            # A window smaller than this client (window-size smallest): dots outside it.
            if window.layout.width < self.size.columns:
                body = VSplit([body, Window(char="·", style="class:outside")])
            if height < self.body_rows:
                body = HSplit([body, Window(char="·", style="class:outside")])
        if not self._status_shown():
            return body
        # No style of its own: each fragment has its own, so that a cell left unwritten
        # (the bottom right one, terminal-overrides am@) is not painted by the window.
        status = Window(FormattedTextControl(self._status_line), height=1)
        return HSplit([body, status])

    @property
    def body_rows(self) -> int:
        """The rows the window has: all but the status line's, when it is on."""
        return max(1, self.size.rows - (self.server.options.get("status") == "on"))

    def _status_shown(self) -> bool:
        """The status line is drawn: it is on, or (status off) a prompt or a message
        takes the last row for now, over the panes, as in tmux."""
        return (self.server.options.get("status") == "on" or self._prompt is not None
                or bool(self._message))

    def refresh_status(self) -> None:
        """refresh-client -S: the status line drawn again, its formats expanded anew."""
        self._status_changed()

    def _status_changed(self) -> None:
        """A prompt or message came or went: with the status line off, that is a row of
        the panes covered or given back."""
        if self.server.options.get("status") == "on":
            self.app.invalidate()
        else:
            self.relayout()

    def _cell(self, window: model.Window, cell: Cell[Pane]) -> AnyContainer:
        if cell.kind == "pane":
            pane = cell.pane
            assert pane is not None
            drawn = window.cell_of(pane)
            area = Window(
                PaneArea(pane),
                width=Dimension.exact(drawn.width), height=Dimension.exact(drawn.height),
            )
            if drawn.height == cell.height:
                return area
            # pane-border-status: the row the pane gave to the line of labels.
            line = Window(height=1, char="─", style="class:border")
            return HSplit([line, area] if drawn.y > cell.y else [area, line])
        children = [self._cell(window, child) for child in cell.children]
        if cell.kind == "row":
            return VSplit(children, padding=1, padding_char="│", padding_style="class:border")
        return HSplit(children, padding=1, padding_char="─", padding_style="class:border")

    def open_menu(self, items: list[tuple[str, str, str]], title: str, selected: Style,
                  place: Callable[[int, int], tuple[int, int]], *, mouse: bool = False,
                  stay_open: bool = False) -> asyncio.Future[str | None] | None:
        """display-menu: the menu of `items` (name, key, command) over the panes, at
        the place `place` gives for its size; the command chosen comes in the future,
        None when none was. Not shown (None) if it does not fit the terminal, or
        another overlay is open."""
        menu = Menu([MenuItem(*item) for item in items], title, selected, mouse=mouse,
                    stay_open=stay_open)
        width, height = menu.size
        if width > self.size.columns or height > self.size.rows:
            return None
        menu.x, menu.y = place(width, height)
        return menu.closed if self._open_overlay(menu) else None

    def status_window_start(self, index: int) -> int | None:
        _, ranges = status_line(self.server, self.session, self.size.columns, client=self,
                                extra=self.view_variables())
        return next((each.start for each in ranges
                     if each.kind == "window" and each.argument == index), None)

    def open_popup(self, pane: Pane, box: tuple[int, int, int, int], lines: str | None,
                   border_style: Style, title: str, close_on_exit: int, style: Style
                   ) -> asyncio.Future[int] | None:
        """display-popup: `pane`'s program in the box (x, y, width, height) over the
        panes, bordered with `lines` (None: none), its default colours `style`'s; the
        future says how it closed (popup.py). None, and the program ended, if another
        overlay is open."""
        popup = Popup(pane, *box, lines=None if lines is None else BOX_LINES[lines],
                      border_style=border_style, title=title, close_on_exit=close_on_exit,
                      style=style)
        pane.on_output = self.refresh
        if not self._open_overlay(popup):
            popup.close()
            return None
        return popup.closed

    def _open_overlay(self, overlay: Overlay) -> bool:
        """Show a popup or a menu over the panes until it closes; False (and nothing
        shown) if one is open already, as tmux keeps the first."""
        if self._overlay is not None or self._detaching:
            return False
        self._overlay = overlay

        def gone(_: object) -> None:
            if self._overlay is overlay:
                self._overlay = None
                self.relayout()  # the panes it covered, painted again

        overlay.closed.add_done_callback(gone)
        self.relayout()
        return True

    def close_overlay(self) -> None:
        """display-popup -C: close what is open over the panes."""
        if self._overlay is not None:
            self._overlay.close()

    def _status_line(self) -> StyleAndTextTuples:
        if self._prompt is not None:
            shown = "  " + " ".join(self._prompt.shown) if self._prompt.shown else ""
            line = (self._prompt.line + shown)[: self.size.columns]
            return [("class:status.prompt", line.ljust(self.size.columns))]
        if self._message:
            return [("class:message", self._message.ljust(self.size.columns))]
        overrides = [value for _, value in self.server.options.shown("terminal-overrides")
                     if value is not None]
        return status_bar(self.server, self.session, self.size.columns,
                          last_cell=has_automatic_margins(overrides, self.term),
                          client=self, redraw=self.app.invalidate,
                          extra=self.view_variables())

    # --- keys ----------------------------------------------------------------------

    def prefix_bytes(self) -> bytes:
        """What the terminal sends for the prefix key (option prefix, C-b by default)."""
        return _key_bytes(self.option("prefix"))

    def open_prompt(self, prompt: Prompt) -> None:
        """`prompt` in the status line, taking the keys; one open before it is closed
        unanswered, as tmux's status_prompt_set clears the last."""
        self._close_prompt()
        self._prompt = prompt
        self._status_changed()
        asyncio.get_running_loop().call_soon(self._release_keys)  # typed ahead: its keys

    @property
    def prompting(self) -> bool:
        """A prompt is open in the status line."""
        return self._prompt is not None

    def _close_prompt(self) -> None:
        prompt, self._prompt = self._prompt, None
        if prompt is not None:
            prompt.cancel()
            self._status_changed()

    async def ask(self, label: str, text: str = "", *, kind: str = "command",
                  one_key: str = "", numeric: bool = False, confirming: bool = False,
                  on_change: Callable[[str], None] | None = None) -> str | None:
        """The answer to a prompt (command-prompt's, confirm-before's), None when it is
        closed unanswered. `kind` is tmux's prompt type: the history the answer goes into
        (none for a one-key, numeric or confirming prompt) and what Tab completes."""
        answered: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

        def settle(answer: str | None) -> None:
            if not answered.done():
                answered.set_result(answer)

        plain = not (one_key or numeric or confirming)
        server = self.server
        completions = (lambda: Completions.of(targets_of(server.sessions.values()))
                       ) if kind == "command" else None
        self.open_prompt(Prompt(
            label, text, settle, single_key=confirming, one_key=one_key, numeric=numeric,
            on_change=on_change, on_cancel=lambda: settle(None),
            history=server.prompt_history[kind] if plain else None,
            completions=completions if plain else None))
        return await answered

    async def run_line(self, line: str, *, pane: Pane | None = None,
                       mouse: Mouse | None = None) -> None:
        """A command line typed or made for this client (a binding's, a prompt's
        answer), parsed with the session's environment, run as `execute` runs it; with
        `pane`, that pane is its default target (the one current when a prompt opened,
        as tmux's prompts keep their command's target)."""
        try:
            commands = split_commands(line, self.env())
        except LexError as error:
            self.show_message(str(error))
            return
        # A binding's line keeps its commands apart with `\;` (as list-keys prints it),
        # which the lexer gives as `;` words: they separate the commands here.
        await self._run_commands(_commands([word for command in commands
                                            for word in [*command, ";"]][:-1]), pane=pane,
                                  mouse=mouse)

    def execute(self, *argv: str) -> None:
        """A tmux command line on behalf of this client (commands separated by `;` words
        run in turn), as `_run_commands` runs it."""
        self.spawn(self._run_commands(_commands(argv)))  # redrawn when done

    async def _run_commands(self, commands: Sequence[Sequence[str]], *,
                            pane: Pane | None = None, mouse: Mouse | None = None) -> None:
        """Each command in turn through the server's command queue, for this client: what
        it prints in the pane's view mode, its error in the status line for
        display-time, as tmux shows them; the commands after a failed one do not run."""
        context = Context(self.server, self.env(), session=self.session, pane=pane,
                          client=self, mouse=mouse)
        for command in commands:
            result = await run_command(context, command)
            if result.stdout and not self._detaching:  # in view mode, as tmux shows it
                self.server.show_in_view_mode(pane or self.active(),
                                              result.stdout.splitlines())
            if result.status:
                if result.stderr.strip():
                    self.show_message(result.stderr.strip().splitlines()[0])
                break  # as tmux, the commands after a failed one do not run

    def copy_mode(self, *, page_up: bool = False) -> None:
        """copy-mode (C-b [): the active pane's scrollback and screen, frozen, to move
        over, search, select and copy into a paste buffer (-u: a page up at once)."""
        keys = self.server.window_option(self.session.active_window, "mode-keys")
        mode = self.active().enter_copy_mode(keys=keys,
                                             table=self.server.key_tables.mode_commands(keys))
        if page_up:
            mode.run("page-up")
        self.server.refresh(self.session)  # every client of the session shows the mode

    def write_terminal(self, text: str) -> None:
        """Write to the client's terminal now, past prompt_toolkit (a bell, OSC 52)."""
        if not self._detaching:
            self._output.write_raw(text)
            self._output.flush()

    @property
    def copying(self) -> CopySession | None:
        """The copy mode of the active pane, which the keys go to, if it is in one."""
        pane = self.active() if self.session.windows else None
        if pane is None or not isinstance(pane.mode, CopyMode):
            self._driving = None
        elif self._driving is None or self._driving.mode is not pane.mode:
            self._driving = CopySession(pane, pane.mode, self, self.server.copy_text)
        return self._driving

    def is_copying(self, pane: Pane) -> bool:
        return pane.mode is not None

    def repaint(self) -> None:
        self._paint()

    def leave_copy_mode(self) -> None:
        """The active pane's copy mode ends (its keys said so)."""
        if self.session.windows:
            self.active().mode = None
        self.server.refresh(self.session)  # the pane as it is now, live again, everywhere

    def choose_tree(self, *, windows: bool) -> None:
        """C-b s (choose-tree -Zs) and C-b w (-Zw): every session or window to pick one
        from, this client's pane selected."""
        self.choose(ChooseRequest("tree", self.session.active_window.active.name,
                                  "switch-client -t '%%'",
                                  collapsed="windows" if windows else "sessions"))

    def choose(self, request: ChooseRequest) -> None:
        """choose-buffer, choose-client, find-window: their list in place of the window."""
        self._tree = open_chooser(self, request)
        self.relayout()

    def _tree_key(self, tree: Chooser, name: str) -> None:
        if not tree.press(name):
            self.app.invalidate()
            return
        if self._tree is tree:
            self._tree = None
        self.relayout()

    def switch_to(self, target: str) -> None:
        """Show the session, window (and pane) `target` names (`$N`, `@N`, `%N`) on this
        client, as switch-client -t does."""
        for session in self.server.sessions.values():
            for window in session.windows:
                for pane in window.panes:
                    if target in (f"${session.id}", f"@{window.id}", pane.name):
                        if target.startswith("$"):
                            window = session.active_window
                        elif target.startswith("%"):
                            window.select(pane)
                        self._switch_session(session)
                        link = session.link_of(window)
                        if link is not None:
                            session.select(link)
                        return

    def step_session(self, step: int) -> None:
        """C-b ( and ), switch-client -p/-n: the previous or next session by name, as
        tmux orders them."""
        sessions = sorted(self.server.sessions.values(), key=lambda s: s.name)
        current = sessions.index(self.session)
        self.switch_to(f"${sessions[(current + step) % len(sessions)].id}")
        self.relayout()

    def _switch_session(self, session: Session) -> None:
        old, self.session = self.session, session
        self.server.client_session_changed(self)
        if old is not session:
            self.last_session = old
            session.last_attached = time.time()  # tmux's server_client_set_session
            self.server.client_active(self)
            self.server.fit_session(old)

    def display_panes(self, duration: float = DISPLAY_PANES_TIME, *, select: bool = True
                      ) -> asyncio.Future[None] | None:
        """display-panes: the panes' numbers over them for `duration` seconds (0: until
        a key), or until a key: a digit selects that pane, as tmux's; not `select` (-N),
        keys go on as if they were not there, and only the time ends them. What is done
        when they are hidden; None when they are shown already (left as they are, as
        tmux shows one overlay at a time)."""
        if self._pane_numbers:
            return None
        self._pane_numbers, self._pane_numbers_select = True, select
        loop = asyncio.get_running_loop()
        self._pane_numbers_shown = loop.create_future()
        if duration > 0:
            self._pane_numbers_timer = loop.call_later(duration, self._hide_pane_numbers)
        if self._held:  # a binding showed them: the keys after it are theirs
            loop.call_soon(self._release_keys)
        self._paint()
        return self._pane_numbers_shown

    def _pane_numbers_gone(self) -> None:
        if self._pane_numbers_shown is not None and not self._pane_numbers_shown.done():
            self._pane_numbers_shown.set_result(None)

    def _hide_pane_numbers(self) -> None:
        if self._pane_numbers_timer is not None:
            self._pane_numbers_timer.cancel()
            self._pane_numbers_timer = None
        self._pane_numbers_gone()
        if self._pane_numbers:
            self._pane_numbers = False
            self.relayout()  # the numbers covered pane cells: repaint them

    def show_message(self, message: str, milliseconds: int | None = None, *,
                     ignore_keys: bool = False) -> None:
        """`message` in the status line for `milliseconds` (display-time when None; 0:
        until a key is pressed), as tmux's display-message; `ignore_keys` (-N) drops
        the keys typed meanwhile, so that only the delay ends it (not a delay of 0)."""
        self._message = message
        self.server.log_message(f"{self.tty} message: {message}")
        if milliseconds is None:
            milliseconds = self.number("display-time")
        self._message_ignores_keys = ignore_keys and milliseconds != 0
        if milliseconds:
            asyncio.get_running_loop().call_later(milliseconds / 1000, self._clear_message,
                                                  message)
        self._status_changed()

    def _key_pressed(self) -> bool:
        """A key (not a mouse event, nor the terminal's reply to a query) clears the
        message shown, as tmux's status_message_clear; True when the message drops it
        instead (display-message -N), as tmux's message_ignore_keys."""
        if self._message and self._message_ignores_keys:
            return True
        if self._message:
            self._clear_message(self._message)
        return False

    def _clear_message(self, message: str) -> None:
        if self._message == message:
            self._message = ""
            self._message_ignores_keys = False
            self._status_changed()

    def _dispatch(self, press: KeyPress, name: str) -> None:
        """One key from the client (`name`: tmux's name of it): whatever has the keys
        (pane numbers, a prompt, which may be over a view or copy mode, a view, the tree,
        copy mode), else a binding of the root table, the prefix, a prefix binding, or
        the pane's."""
        if press.key is Keys.CPRResponse or (self._message and self._message_ignores_keys):
            return  # a message of display -N drops every key, the mouse's too, as tmux's
        if self._overlay is not None:
            if press.key is not Keys.Vt100MouseEvent:
                self._overlay.press(press, "Space" if name == " " else name)
            elif (event := parse_report(press.data)) is not None:
                self._overlay.mouse(event)
            self._paint()  # a menu's new selection
            return
        if press.key is Keys.BracketedPaste:
            pane = self.active()
            pane.write(encode_paste(press.data, key_modes(pane)))
            return
        name = "Space" if name == " " else name
        if press.key is not Keys.Vt100MouseEvent:
            self._key_pressed()
        if press.key is Keys.Vt100MouseEvent:
            event = parse_report(press.data)
            idle = self._prompt is None and self._tree is None and not self._pane_numbers
            if event is not None and idle and self.option("mouse") == "on":
                self.mouse.handle(event)
            return
        if self._pane_numbers and self._pane_numbers_select:
            self._hide_pane_numbers()
            panes = self.session.active_window.panes
            if name.isdigit() and int(name) < len(panes):
                self.execute("select-pane", "-t", panes[int(name)].name)
            return  # any other key just ends the display, as in tmux
        if self._prompt is not None:
            if self._prompt.key(name):
                self._prompt = None
                self._status_changed()
            else:
                self.app.invalidate()
            self._paint()  # the cursor where the prompt's is now
            return
        if self._tree is not None:
            self._tree_key(self._tree, name)
            return
        prefixes = (self.option("prefix"), self.option("prefix2"))
        if "read-only" in self.flags:
            self._bound(name)
        elif self.copying is not None and name not in prefixes and self._table is None:
            self._copy_mode_key(name)  # copy mode's table stands in for the root table
        elif self._bound(name):
            pass
        elif isinstance(self.active().mode, ClockMode):
            self.leave_copy_mode()  # any key ends the clock, and goes no further
        else:
            self._send_key(press.key, press.data)

    def _binding_action(self, key: str, command: str, mouse: Mouse | None = None
                        ) -> Callable[[], None]:
        """What a key bound to `command` does: the command line, into the message log as
        tmux's server_client_key_callback logs it, then through the command queue as a
        typed one (the default bindings too: no command is special here); a mouse
        key's, for the pane under the mouse, with the mouse's event."""

        def run() -> None:
            self.server.log_message(f"{self.tty} key {key}: {command}")
            self.run_binding(self.run_line(command, pane=mouse.pane if mouse else None,
                                           mouse=mouse))

        return run

    def mouse_key(self, key: str, mouse: Mouse) -> None:
        """A mouse key (mouse_router.py) as tmux's server_client_key_callback takes it:
        looked up in the table of the mode of the pane under the mouse (copy mode's),
        else the client's, then the default one; bound nowhere, it goes to the pane under
        the mouse (mux/mouse.py). A read-only client's mouse does nothing."""
        if "read-only" in self.flags:
            return
        pane, table = mouse.pane, None
        if self._table is None and pane is not None and isinstance(pane.mode, CopyMode):
            window = mouse.window or self.session.active_window
            vi = self.server.window_option(window, "mode-keys") == "vi"
            table = "copy-mode-vi" if vi else "copy-mode"
        if not self._bound(key, table=table, mouse=mouse) and pane is not None:
            forward(mouse, pane)

    def start_copy_drag(self, mouse: Mouse) -> None:
        self.mouse.start_copy_drag(mouse)

    def start_border_drag(self, mouse: Mouse) -> None:
        self.mouse.start_border_drag(mouse)

    def _copy_mode_key(self, name: str) -> None:
        """A key in copy mode: copy mode's own command (`send -X NAME` bindings, which
        the mode runs itself, counts and prompts included), or whatever else its table
        binds the key to (`send -X copy-pipe-and-cancel 'xclip -i'`, `select-pane -L`),
        run as a command line."""
        keys = self.server.window_option(self.session.active_window, "mode-keys")
        binding = self.server.key_tables.binding(
            "copy-mode-vi" if keys == "vi" else "copy-mode", name)
        if binding is not None and mode_command(binding.command) is None:
            self.run_binding(self.run_line(binding.command))
        elif self.copying is not None:
            self.copying.press(name)

    def _send_key(self, key: Keys | str, data: str) -> None:
        for pane in self._typed_into():
            pane.write(key_bytes(pane, key, data))

    def _type(self, data: bytes) -> None:
        for pane in self._typed_into():
            pane.write(data)

    def _typed_into(self) -> list[Pane]:
        """The panes keys go to: the active one, or with synchronize-panes every live
        pane of the window."""
        window = self.session.active_window
        if self.server.window_option(window, "synchronize-panes") == "on":
            return [pane for pane in window.panes if not pane.dead and not pane.input_off]
        return [] if window.active.input_off else [window.active]

    def active(self) -> Pane:
        return self.session.active_window.active

    def env(self) -> dict[str, str]:
        return dict(self.server.environ_of(self.session))

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        task.add_done_callback(lambda _: self.relayout())
