"""A recording as the frames of a moving picture: the events replayed through termhost's
emulator, the screen looked at once per frame tick (1/framerate s). A tick with no change
makes no frame, it only lengthens the frame before it, so a frame's delay is the time its
screen stayed up. Idle time is capped (`idle_limit`, as `play -i` caps it) and `speed`
divides every time, as `play -s`. termhost.render.animation draws and encodes them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from termhost.record.asciicast import Event, EventCode
from termhost.render.animation import Frame, rotated
from termhost.render.snapshot import Snapshot, snapshot
from termhost.terminal.emulator import Terminal

__all__ = ["frames"]


def frames(events: Iterable[Event], cols: int, rows: int, *, framerate: int = 50,
           idle_limit: float | None = None, speed: float = 1.0, end: float | None = None,
           loop_offset: float = 0.0) -> list[Frame]:
    """The frames of a recording of a `cols` x `rows` terminal, until its last event (or
    `end`, in the recording's seconds)."""
    tick = 1.0 / framerate
    terminal = Terminal(cols, rows)
    shown: list[tuple[int, Snapshot]] = []  # the tick each screen came up at
    last_tick = 0
    for at, batch in _batches(_paced(events, idle_limit, speed), tick):
        for event in batch:
            if event.code is EventCode.OUTPUT:
                terminal.feed(event.data.encode("utf-8", "surrogateescape"))
            elif event.code is EventCode.RESIZE:
                size = _size(event.data)
                if size is not None:
                    terminal.resize(*size)
        screen = snapshot(terminal)
        if not shown or screen != shown[-1][1]:
            shown.append((at, screen))
        last_tick = at
    if not shown:
        shown.append((0, snapshot(terminal)))
    if end is not None:
        last_tick = max(last_tick, math.floor(end / speed / tick))
    ticks = [start for start, _ in shown] + [max(last_tick, shown[-1][0]) + 1]
    made = [Frame(screen, (ticks[index + 1] - start) * tick)
            for index, (start, screen) in enumerate(shown)]
    return rotated(made, loop_offset)


def _paced(events: Iterable[Event], idle_limit: float | None, speed: float
           ) -> Iterator[tuple[float, Event]]:
    """Each event at its time, pauses longer than `idle_limit` cut to it, over `speed`."""
    previous, shift = 0.0, 0.0
    for event in events:
        gap = event.time - previous
        if idle_limit is not None and gap > idle_limit:
            shift += gap - idle_limit
        previous = event.time
        yield (event.time - shift) / speed, event


def _batches(paced: Iterable[tuple[float, Event]], tick: float
             ) -> Iterator[tuple[int, list[Event]]]:
    """The events by the frame tick they fall in."""
    current: int | None = None
    batch: list[Event] = []
    for at, event in paced:
        number = math.floor(at / tick)
        if current is not None and number != current and batch:
            yield current, batch
            batch = []
        current = number
        batch.append(event)
    if current is not None and batch:
        yield current, batch


def _size(data: str) -> tuple[int, int] | None:
    cols, _, rows = data.partition("x")
    return (int(cols), int(rows)) if cols.isdigit() and rows.isdigit() else None
