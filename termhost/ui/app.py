"""One prompt_toolkit Application per attached client, running inside the server.

The client is a thin relay (client.py): its keystrokes arrive here as INPUT frames and
are fed to the Application's pipe input; what the Application draws leaves as OUTPUT
frames. The Application shows the session's current window: its panes (each a
`PaneControl` reading the pane's emulated screen) with borders between them, and a
status bar. Keys go to the active pane, re-encoded for its modes (DECCKM...); the prefix
`C-b` starts tmux's default bindings.
"""

from __future__ import annotations

import asyncio
import functools
import socket
import time
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TextIO, cast

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point, Size
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
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
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.styles import Style

from termhost.mux.layout import Cell
from termhost.mux.model import Session
from termhost.mux.pane import Pane
from termhost.terminal.cell import BLANK, WIDE_STUB
from termhost.terminal.cell import Cell as ScreenCell
from termhost.terminal.keys import KeyModes, encode_key

if TYPE_CHECKING:
    from termhost.mux.server import Server

__all__ = ["AttachedClient"]

PREFIX = "c-b"
_SPECIAL_KEYS = {
    Keys.Up: "Up", Keys.Down: "Down", Keys.Left: "Left", Keys.Right: "Right",
    Keys.Home: "Home", Keys.End: "End", Keys.PageUp: "PageUp", Keys.PageDown: "PageDown",
    Keys.Insert: "IC", Keys.Delete: "DC", Keys.BackTab: "BTab",
    **{getattr(Keys, f"F{n}"): f"F{n}" for n in range(1, 13)},
}
STYLE = Style.from_dict({
    "status": "bg:ansigreen fg:ansiblack",
    "border": "fg:ansibrightblack",
    "border.active": "fg:ansigreen",
})


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


class PaneControl(UIControl):
    """Shows a pane's emulated screen, with its colours, and its cursor when active."""

    def __init__(self, pane: Pane, is_active: Callable[[], bool]) -> None:
        self.pane = pane
        self.is_active = is_active

    def is_focusable(self) -> bool:
        return False

    def create_content(self, width: int, height: int) -> UIContent:
        terminal = self.pane.terminal
        screen = terminal.screen
        rows = screen.lines
        cache = _ROWS.setdefault(self.pane, {})
        for y in terminal.dirty:
            cache.pop(y, None)
        terminal.clear_dirty()  # the cache is per pane, shared by every client showing it

        def line(y: int) -> StyleAndTextTuples:
            if y >= rows:
                return []
            fragments = cache.get(y)
            if fragments is None:
                fragments = cache[y] = _fragments(screen.buffer.get(y), screen.columns)
            return fragments

        cursor = Point(min(screen.cursor.x, screen.columns - 1), screen.cursor.y)
        return UIContent(
            get_line=line, line_count=rows,
            cursor_position=cursor,
            show_cursor=self.is_active() and screen.cursor_visible,
        )


_ROWS: weakref.WeakKeyDictionary[Pane, dict[int, StyleAndTextTuples]] = (
    weakref.WeakKeyDictionary()
)
"""Each pane's rows as fragments, dropped as the screen marks rows dirty."""


def _fragments(row: Mapping[int, ScreenCell] | None, columns: int) -> StyleAndTextTuples:
    """A row as runs of equally styled text."""
    if not row:
        return [("", " " * columns)]
    fragments: StyleAndTextTuples = []
    style, text = "", list[str]()
    for x in range(columns):
        cell = row.get(x, BLANK)
        if cell.data == WIDE_STUB:
            continue
        cell_style = _style(cell)
        if cell_style != style and text:
            fragments.append((style, "".join(text)))
            text = []
        style = cell_style
        text.append(cell.data)
    if text:
        fragments.append((style, "".join(text)))
    return fragments


@functools.lru_cache(maxsize=4096)
def _style(cell: ScreenCell) -> str:
    if cell.fg == cell.bg == "default" and not (
        cell.bold or cell.italics or cell.underscore or cell.reverse or cell.strikethrough
        or cell.blink
    ):
        return ""
    parts = []
    if cell.fg != "default":
        parts.append(_colour(cell.fg))
    if cell.bg != "default":
        parts.append("bg:" + _colour(cell.bg))
    for flag, name in (("bold", "bold"), ("italics", "italic"), ("underscore", "underline"),
                       ("reverse", "reverse"), ("strikethrough", "strike"), ("blink", "blink")):
        if getattr(cell, flag):
            parts.append(name)
    return " ".join(parts)


_ANSI = {
    "black": "ansiblack", "red": "ansired", "green": "ansigreen", "brown": "ansiyellow",
    "yellow": "ansiyellow", "blue": "ansiblue", "magenta": "ansimagenta", "cyan": "ansicyan",
    "white": "ansigray",
}


def _colour(name: str) -> str:
    if name in _ANSI:
        return _ANSI[name]
    if name.startswith("bright") and name[6:] in _ANSI:
        base = _ANSI[name[6:]]
        return "ansiwhite" if base == "ansigray" else "ansibright" + base[4:]
    return "#" + name if len(name) == 6 else ""


class AttachedClient:
    """The Application for one client attached to `session`."""

    def __init__(
        self, server: Server, session: Session, send: Callable[[bytes], None], size: Size
    ) -> None:
        self.server = server
        self.session = session
        self.size = size
        self.detach_reason = f"detached (from session {session.name})"
        self._detaching = False
        self._input_cm = create_pipe_input()
        self.input: PipeInput = self._input_cm.__enter__()
        self._writer = _FrameWriter(send)
        output = Vt100_Output(cast(TextIO, self._writer), lambda: self.size,
                              term="xterm-256color", enable_cpr=False)
        self.app: Application[None] = Application(
            layout=Layout(Window()), key_bindings=self._bindings(), style=STYLE,
            full_screen=True, input=self.input, output=output, max_render_postpone_time=0,
            terminal_size_polling_interval=None, mouse_support=False,
        )
        self.app.layout = Layout(self._container())

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
        """Keystrokes from the client's terminal."""
        self.input.send_bytes(data)

    def resize(self, cols: int, rows: int) -> None:
        self.size = Size(rows=rows, columns=cols)
        self.app._on_resize()

    def refresh(self) -> None:
        """A pane wrote something: redraw (prompt_toolkit folds requests made in one turn
        of the loop into one redraw)."""
        self.app.invalidate()

    def relayout(self) -> None:
        """Panes or windows came or went: rebuild the layout, then redraw."""
        self.app.layout = Layout(self._container())
        self.app.invalidate()

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
        body: AnyContainer = (
            self._cell(window.layout, window) if window is not None else Window()
        )
        status = Window(FormattedTextControl(self._status), height=1, style="class:status")
        return HSplit([body, status])

    def _cell(self, cell: Cell[Pane], window: Any) -> AnyContainer:
        if cell.kind == "pane":
            pane = cell.pane
            assert pane is not None
            return Window(
                PaneControl(pane, lambda: window.active is pane),
                width=Dimension.exact(cell.width), height=Dimension.exact(cell.height),
            )
        children = [self._cell(child, window) for child in cell.children]
        if cell.kind == "row":
            return VSplit(children, padding=1, padding_char="│", padding_style="class:border")
        return HSplit(children, padding=1, padding_char="─", padding_style="class:border")

    def _status(self) -> StyleAndTextTuples:
        session = self.session
        names = " ".join(
            f"{w.index}:{w.name}{'*' if w is session.current else '-' if w is session.last else ''}"
            for w in session.windows
        )
        right = f'"{socket.gethostname()}" {time.strftime("%H:%M %d-%b-%y")}'
        left = f"[{session.name}] {names}"
        gap = max(1, self.size.columns - len(left) - len(right))
        return [("class:status", left + " " * gap + right)]

    # --- keys ----------------------------------------------------------------------

    def _bindings(self) -> KeyBindings:
        bindings = KeyBindings()

        @bindings.add(PREFIX, "d")
        def _detach(event: KeyPressEvent) -> None:
            self.detach()

        @bindings.add(PREFIX, PREFIX)
        def _literal_prefix(event: KeyPressEvent) -> None:
            self._active().write(b"\x02")

        @bindings.add(PREFIX, "%")
        def _split_h(event: KeyPressEvent) -> None:
            self._split(horizontal=True)

        @bindings.add(PREFIX, '"')
        def _split_v(event: KeyPressEvent) -> None:
            self._split(horizontal=False)

        @bindings.add(PREFIX, "o")
        def _next_pane(event: KeyPressEvent) -> None:
            window = self.session.active_window
            panes = window.panes
            window.select(panes[(panes.index(window.active) + 1) % len(panes)])
            self.relayout()

        @bindings.add(PREFIX, "c")
        def _new_window(event: KeyPressEvent) -> None:
            self._spawn(self.server.new_window(
                self.session, [], self._env(), None, None, select=True))

        @bindings.add(PREFIX, "n")
        def _next_window(event: KeyPressEvent) -> None:
            self._step_window(1)

        @bindings.add(PREFIX, "p")
        def _previous_window(event: KeyPressEvent) -> None:
            self._step_window(-1)

        @bindings.add(Keys.Any)
        def _to_pane(event: KeyPressEvent) -> None:
            for press in event.key_sequence:
                self._send_key(press.key, press.data)

        for key in (*_SPECIAL_KEYS, Keys.ControlM, Keys.ControlI, Keys.Escape):
            bindings.add(key)(_to_pane)
        return bindings

    def _send_key(self, key: Keys | str, data: str) -> None:
        pane = self._active()
        name = _SPECIAL_KEYS.get(key) if isinstance(key, Keys) else None
        if name is not None:
            screen = pane.terminal.screen
            modes = KeyModes(application_cursor=screen.application_cursor,
                             application_keypad=screen.application_keypad)
            pane.write(encode_key(name, modes))
        else:
            pane.write(data.encode("utf-8", "surrogateescape"))

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

    def _step_window(self, step: int) -> None:
        windows = self.session.windows
        current = windows.index(self.session.active_window)
        self.session.select(windows[(current + step) % len(windows)])
        self.relayout()

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        task.add_done_callback(lambda _: self.relayout())
