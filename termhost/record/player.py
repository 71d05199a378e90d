"""Playback's logic without its I/O: when each event is due, and what the keys do to that.

`termhost play` is a loop of "write what is due, wait for a key or the next event"; all the
decisions in it live here as pure functions of the events, the keys and a clock reading the
caller passes in, so that speed, idle cutting, pausing, stepping and markers are tested
without a terminal and without sleeping.

Steps carry their playback time from the start rather than the delay since the previous one:
a loop that schedules against a fixed origin does not drift, where one that sleeps each delay
in turn adds every sleep's overshoot to all the events after it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from termhost.record.asciicast import Event, EventCode

__all__ = [
    "At",
    "Player",
    "Step",
    "UnknownMarker",
    "events_until",
    "parse_at",
    "parse_size",
    "timeline",
]

KEY_PAUSE = " "
KEY_STEP = "."
KEY_NEXT_MARKER = "]"
KEYS_QUIT = ("q", "\x03")
"""q, or C-c: in raw mode C-c is a key like any other, not a SIGINT."""


@dataclass(frozen=True)
class Step:
    """An event and when playback shows it: seconds since playback started, after the idle
    limit and the speed have been applied to the recorded times."""

    at: float
    event: Event


def timeline(
    events: Iterable[Event], speed: float = 1.0, idle_limit: float | None = None
) -> list[Step]:
    """The events as played at `speed`, each pause capped at `idle_limit` recorded seconds.

    The cap applies before the speed, as asciinema applies it: `-i 2 -s 2` makes a long pause
    one second. A time earlier than its predecessor's (a clock that stepped back in a v2
    file) is a zero gap, never a step back.
    """
    if speed <= 0:
        raise ValueError(f"speed {speed} is not positive")
    steps: list[Step] = []
    previous = played = 0.0
    for event in events:
        gap = max(0.0, event.time - previous)
        if idle_limit is not None:
            gap = min(gap, idle_limit)
        played += gap / speed
        previous = max(previous, event.time)
        steps.append(Step(played, event))
    return steps


class Player:
    """Where playback is and whether it is paused, moved on by the clock and by keys.

    `now` is any monotonic clock's reading in seconds. While playing, a step is due when
    `now - origin >= step.at`; pausing remembers the playback time reached, and resuming
    moves the origin so that playback carries on from there rather than catching up.
    Every method returns the events it passed, for the caller to show (their output).
    """

    def __init__(self, steps: Sequence[Step], *, pause_on_markers: bool = False) -> None:
        self._steps = steps
        self._pause_on_markers = pause_on_markers
        self._next = 0
        self._origin = 0.0
        self._paused_at: float | None = None
        self.quit = False
        """Set by q or C-c: the caller stops."""

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    @property
    def finished(self) -> bool:
        """Every step has been passed."""
        return self._next >= len(self._steps)

    def start(self, now: float) -> None:
        """Play from the first step, as of `now` (again, for --loop)."""
        self._next = 0
        self._origin = now
        self._paused_at = None

    def play(self, now: float) -> list[Event]:
        """The events due by `now`; with pause_on_markers, stop paused after a marker."""
        if self._paused_at is not None:
            return []
        passed: list[Event] = []
        while not self.finished and self._steps[self._next].at <= now - self._origin:
            step = self._steps[self._next]
            self._next += 1
            passed.append(step.event)
            if self._pause_on_markers and step.event.code is EventCode.MARKER:
                self._paused_at = step.at
                break
        return passed

    def wait(self, now: float) -> float | None:
        """Seconds until the next step is due (0 if it is); None when paused or finished:
        only a key moves playback on."""
        if self._paused_at is not None or self.finished:
            return None
        return max(0.0, self._steps[self._next].at - (now - self._origin))

    def press(self, key: str, now: float) -> list[Event]:
        """Space pauses or resumes; `.` (paused) shows up to the next output; `]` shows up to
        the next marker and pauses there (nothing if there is none ahead); q or C-c quits."""
        if key in KEYS_QUIT:
            self.quit = True
        elif key == KEY_PAUSE:
            if self._paused_at is None:
                self._paused_at = now - self._origin
            else:
                self._origin = now - self._paused_at
                self._paused_at = None
        elif key == KEY_STEP and self._paused_at is not None:
            return self._pass_until(lambda event: event.code is EventCode.OUTPUT)
        elif key == KEY_NEXT_MARKER:
            return self._pass_until(lambda event: event.code is EventCode.MARKER)
        return []

    def _pass_until(self, wanted: Callable[[Event], bool]) -> list[Event]:
        """The events up to and including the next `wanted` one, then paused at it; nothing
        moves if there is no such event ahead."""
        ahead = self._steps[self._next:]
        target = next((i for i, step in enumerate(ahead) if wanted(step.event)), None)
        if target is None:
            return []
        self._next += target + 1
        self._paused_at = ahead[target].at
        return [step.event for step in ahead[: target + 1]]


@dataclass(frozen=True)
class At:
    """A point in a recording for `play --screen`: recorded seconds, or a marker (its label,
    or its 1-based number)."""

    seconds: float | None = None
    marker: str | None = None


_DURATION = re.compile(
    r"(?:(?P<h>\d+)h)?(?:(?P<m>\d+)m)?(?:(?P<s>\d+(?:\.\d*)?|\.\d+)s?)?"
)
_MARKER_PREFIX = "marker:"


def parse_at(text: str) -> At:
    """`12.5`, `12.5s`, `1m3s`, `1h`, `marker:LABEL` or `marker:N`; ValueError otherwise."""
    if text.startswith(_MARKER_PREFIX):
        return At(marker=text[len(_MARKER_PREFIX):])
    match = _DURATION.fullmatch(text)
    if not text or match is None:
        raise ValueError(
            f"{text!r} is neither a time (12.5, 12.5s, 1m3s) nor a marker (marker:LABEL, marker:N)"
        )
    hours, minutes, seconds = (match.group(name) or "0" for name in ("h", "m", "s"))
    return At(seconds=int(hours) * 3600 + int(minutes) * 60 + float(seconds))


class UnknownMarker(LookupError):
    """`marker:X` names no marker; `labels` are the markers there are, for the message."""

    def __init__(self, wanted: str, labels: Sequence[str]) -> None:
        super().__init__(wanted)
        self.wanted = wanted
        self.labels = list(labels)


def events_until(events: Sequence[Event], at: At) -> Sequence[Event]:
    """The events that make the screen at `at`: those recorded at or before a time (all of
    them for a time past the end), or those up to and including a marker.

    A marker is looked up by label first, so that a marker labelled "2" is found by
    `marker:2`; only then is a number the Nth marker.
    """
    if at.seconds is not None:
        end = next((i for i, event in enumerate(events) if event.time > at.seconds), len(events))
        return events[:end]
    wanted = at.marker or ""
    markers = [i for i, event in enumerate(events) if event.code is EventCode.MARKER]
    labelled = [i for i in markers if events[i].data == wanted]
    if labelled:
        return events[: labelled[0] + 1]
    if wanted.isdigit() and 1 <= int(wanted) <= len(markers):
        return events[: markers[int(wanted) - 1] + 1]
    raise UnknownMarker(wanted, [events[i].data for i in markers])


def parse_size(data: str) -> tuple[int, int] | None:
    """A resize event's `COLSxROWS`; None for anything a terminal cannot take (skipped, as
    readers skip what they do not understand)."""
    match = re.fullmatch(r"(\d+)x(\d+)", data)
    if match is None:
        return None
    cols, rows = int(match.group(1)), int(match.group(2))
    return (cols, rows) if cols > 0 and rows > 0 else None
