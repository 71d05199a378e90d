"""asciicast files: what `termhost record` writes and `termhost play` / `cat` read.

Two versions, one module each (`v2`, `v3`), as asciinema 2.x keeps them: v2 is what every
player reads, so it is the default; v3 is asciinema 3's, with relative times and an exit event.
This module holds what they share: the header and event types, the writer's and reader's
common machinery, and the two entry points `writer_for` and `open_reader`.

A recording must survive whatever stops the recorder, so the writer puts each event on disk
as one whole line at once (a kill leaves a file readable to its last whole event, and the
reader stops quietly at a cut last line), decodes the program's bytes incrementally (a UTF-8
character split between two reads of the PTY survives) and never writes a blank line (the
widely installed asciinema 2.x reader stops at the first one). An error writing, such as a
full disk, becomes a `RecordingError` whose one-line message names the file.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import TracebackType
from typing import Any, BinaryIO, cast

__all__ = [
    "Event",
    "EventCode",
    "Header",
    "Reader",
    "RecordingError",
    "Writer",
    "open_reader",
    "output_bytes",
    "writer_for",
]

Source = str | os.PathLike[str] | BinaryIO
"""A file named by its path, or one the caller has opened in binary mode (and will close)."""

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


class RecordingError(Exception):
    """A recording that cannot be written or read; the message is one line naming the file."""


class EventCode(StrEnum):
    """The event codes termhost knows; a reader skips any other code, as the formats ask."""

    OUTPUT = "o"
    INPUT = "i"
    RESIZE = "r"
    MARKER = "m"
    EXIT = "x"


_CODES = frozenset(code.value for code in EventCode)


@dataclass(frozen=True)
class Event:
    """One event, its time in seconds since the start whichever version it was read from."""

    time: float
    code: EventCode
    data: str


@dataclass(frozen=True)
class Header:
    """A recording's metadata, independent of how each version lays it out.

    `term_type` is `TERM` (v2 keeps it in `env`, v3 in `term.type`), so `env` holds the other
    variables: the caller chooses them, and should keep to SHELL unless the user asks for more,
    since environment values can be secrets. `theme` is the asciicast theme object (`fg`, `bg`,
    `palette` as `#rrggbb` colours joined by `:`), as `termhost.themes.asciicast_theme` makes it.
    """

    cols: int
    rows: int
    timestamp: int | None = None
    idle_time_limit: float | None = None
    command: str | None = None
    title: str | None = None
    term_type: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    theme: Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        if self.theme is not None:
            _check_theme(self.theme)

    def optional_fields(self) -> dict[str, Any]:
        """The top-level fields both versions spell alike, only those that are set."""
        fields = {
            "timestamp": self.timestamp,
            "idle_time_limit": self.idle_time_limit,
            "command": self.command,
            "title": self.title,
        }
        return {key: value for key, value in fields.items() if value is not None}

    @staticmethod
    def parse_optional_fields(obj: Mapping[str, Any]) -> dict[str, Any]:
        """The fields of `optional_fields` from a header read from a file, checked.

        A fractional timestamp, which some converters write, is read as whole seconds.
        """
        timestamp = header_field(obj, "timestamp", float)
        return {
            "timestamp": None if timestamp is None else int(timestamp),
            "idle_time_limit": header_field(obj, "idle_time_limit", float),
            "command": header_field(obj, "command", str),
            "title": header_field(obj, "title", str),
        }


def _check_theme(theme: Mapping[str, str]) -> None:
    """Refuse a theme players would misread: the formats allow 8 or 16 `#rrggbb` colours."""
    if set(theme) != {"fg", "bg", "palette"}:
        raise ValueError("theme needs exactly fg, bg and palette")
    palette = theme["palette"].split(":")
    if len(palette) not in (8, 16):
        raise ValueError(f"theme palette has {len(palette)} colours, not 8 or 16")
    for colour in (theme["fg"], theme["bg"], *palette):
        if not _COLOUR.fullmatch(colour):
            raise ValueError(f"theme colour {colour!r} is not #rrggbb")


def header_field(obj: Mapping[str, Any], key: str, kind: type[Any], required: bool = False) -> Any:
    """`obj[key]` if it is a `kind` (any number for float, no bool for int), else ValueError;
    None for an absent optional field."""
    if key not in obj:
        if required:
            raise ValueError(f"header has no {key!r}")
        return None
    value = obj[key]
    kinds = (int, float) if kind is float else (kind,)
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise ValueError(f"header {key!r} should be a {kind.__name__}, not {value!r}")
    return value


def header_mapping(obj: Mapping[str, Any], key: str) -> dict[str, str] | None:
    """`obj[key]` if it is an object of strings (`env`, `theme`), else ValueError. A null
    value is left out: asciinema 2.4.0 writes `"SHELL": null` when SHELL is unset."""
    value: dict[str, Any] | None = header_field(obj, key, dict)
    if value is None:
        return None
    value = {name: item for name, item in value.items() if item is not None}
    if not all(isinstance(item, str) for item in value.values()):
        raise ValueError(f"header {key!r} should map names to strings")
    return value


def _open(source: Source, mode: str) -> tuple[BinaryIO, str, bool]:
    """The file, its name for messages, and whether we opened it (and so must close it)."""
    if isinstance(source, str | os.PathLike):
        name = os.fspath(source)
        try:
            # Not a `with`: the Writer or Reader given the file closes it.
            return cast(BinaryIO, open(name, mode)), name, True
        except OSError as error:
            raise _os_error(name, error) from error
    return source, _name_of(source), False


def _name_of(file: BinaryIO) -> str:
    """A caller's file's name for messages: its path if it has one."""
    name = getattr(file, "name", None)
    return name if isinstance(name, str) else "<stream>"


def _os_error(name: str, error: OSError) -> RecordingError:
    """`demo.cast: No space left on device`: the file and what the system said, one line."""
    return RecordingError(f"{name}: {error.strerror or error}")


class Writer(ABC):
    """Writes one recording; `at` is always seconds since the recording started.

    The header is written at once, so even a recording killed before its first event is a
    valid file. Output and input keep an incremental UTF-8 decoder each: bytes that end in
    the middle of a character wait for the next call (or `close`), and invalid bytes become
    U+FFFD, as they would on a terminal.
    """

    def __init__(
        self, file: BinaryIO, header: Header, *, name: str | None = None, owns_file: bool = False
    ) -> None:
        self._file = file
        self._name = name if name is not None else _name_of(file)
        self._owns_file = owns_file
        self._closed = False
        self._failed = False
        self._decoders = {
            EventCode.OUTPUT: codecs.getincrementaldecoder("utf-8")("replace"),
            EventCode.INPUT: codecs.getincrementaldecoder("utf-8")("replace"),
        }
        self._write_line(_dumps(self.header_object(header)))

    @abstractmethod
    def header_object(self, header: Header) -> dict[str, Any]:
        """The header as this version lays it out."""

    @abstractmethod
    def format_time(self, at: float) -> str:
        """The time field of an event at `at` (called once per event, in order)."""

    def output(self, data: bytes, at: float) -> None:
        """Bytes the program wrote to its terminal."""
        self._stream(EventCode.OUTPUT, data, at)

    def input(self, data: bytes, at: float) -> None:
        """Bytes typed at the program (recorded only when the user asks: they hold passwords)."""
        self._stream(EventCode.INPUT, data, at)

    def resize(self, cols: int, rows: int, at: float) -> None:
        """The terminal changed size."""
        self._event(EventCode.RESIZE, f"{cols}x{rows}", at)

    def marker(self, label: str, at: float) -> None:
        """A point a player can jump to; the label may be empty."""
        self._event(EventCode.MARKER, label, at)

    def exit(self, status: int, at: float) -> None:
        """The program exited; what it wrote up to then, even half a character, goes first."""
        self._flush_decoders(at)
        self._event(EventCode.EXIT, str(status), at)

    def close(self, at: float) -> None:
        """Write what the decoders hold (a cut character, as U+FFFD) and close an owned file.

        After a write error nothing more is tried: the error has been reported once.
        """
        if self._closed:
            return
        self._closed = True
        if not self._failed:
            try:
                self._flush_decoders(at)
            except RecordingError:
                if self._owns_file:
                    _close_after_error(self._file)
                raise
        if not self._owns_file:
            return
        if self._failed:
            _close_after_error(self._file)
            return
        try:
            self._file.close()
        except OSError as error:
            raise _os_error(self._name, error) from error

    def _stream(self, code: EventCode, data: bytes, at: float) -> None:
        text = self._decoders[code].decode(data)
        if text:
            self._event(code, text, at)

    def _flush_decoders(self, at: float) -> None:
        for code, decoder in self._decoders.items():
            text = decoder.decode(b"", final=True)
            if text:
                self._event(code, text, at)

    def _event(self, code: EventCode, data: str, at: float) -> None:
        self._write_line(f"[{self.format_time(at)},{_dumps(code.value)},{_dumps(data)}]")

    def _write_line(self, line: str) -> None:
        """One whole line per write, flushed, so that a killed recorder leaves whole lines.

        Lone surrogates (from a label or title decoded with surrogateescape) become `?`
        rather than an exception in the middle of a recording.
        """
        try:
            self._file.write(f"{line}\n".encode("utf-8", "replace"))
            self._file.flush()
        except OSError as error:
            self._failed = True
            raise _os_error(self._name, error) from error


def _close_after_error(file: BinaryIO) -> None:
    """Close a file whose last write failed: closing retries the write still buffered and
    fails the same way, but the file is closed all the same, and the error already reported."""
    try:
        file.close()
    except OSError:
        pass


def _dumps(value: object) -> str:
    """Compact JSON with characters as themselves: half the size of `\\uXXXX` for non-ASCII."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Reader(ABC):
    """An open recording: the header at once, the events as they are iterated.

    A last line cut short (the recorder was killed mid-write) ends the events quietly and sets
    `truncated`; any other line that is not an event is a `RecordingError` `FILE:LINE: ...`.
    Blank lines are skipped, and so are events with codes termhost does not know.
    """

    version: int

    def __init__(
        self, file: BinaryIO, name: str, header: Mapping[str, Any], *, owns_file: bool = False
    ) -> None:
        self._file = file
        self._name = name
        self._owns_file = owns_file
        self._line = 1
        self.truncated = False
        try:
            self.header = self.parse_header(header)
        except ValueError as error:
            raise self._error(str(error)) from error

    @abstractmethod
    def parse_header(self, obj: Mapping[str, Any]) -> Header:
        """The header from this version's layout; ValueError says what is wrong."""

    @abstractmethod
    def event_time(self, time: float) -> float:
        """Seconds since the start of an event whose time field is `time` (called in order)."""

    def is_comment(self, line: bytes) -> bool:
        """Whether a line is a comment, to be skipped (v2 has none)."""
        return False

    def __iter__(self) -> Iterator[Event]:
        for raw in self._file:
            self._line += 1
            line = raw.strip()
            if not line or self.is_comment(line):
                continue
            try:
                item = json.loads(line.decode("utf-8"))
            except ValueError as error:
                if not raw.endswith(b"\n"):
                    self.truncated = True
                    return
                raise self._error(_json_problem(error)) from error
            event = self._event(item)
            if event is not None:
                yield event

    def _event(self, item: Any) -> Event | None:
        if not isinstance(item, list) or len(item) != 3:
            raise self._error("an event should be [time, code, data]")
        time, code, data = item
        if isinstance(time, bool) or not isinstance(time, int | float) or time < 0:
            raise self._error(f"event time {time!r} is not a number of seconds")
        if not isinstance(code, str):
            raise self._error(f"event code {code!r} is not a string")
        at = self.event_time(time)
        if code not in _CODES:
            return None
        if not isinstance(data, str):
            raise self._error(f"{code!r} event data should be a string, not {data!r}")
        return Event(at, EventCode(code), data)

    def _error(self, problem: str) -> RecordingError:
        return RecordingError(f"{self._name}:{self._line}: {problem}")

    def close(self) -> None:
        """Close the file if `open_reader` opened it."""
        if self._owns_file:
            self._file.close()

    def __enter__(self) -> Reader:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _json_problem(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON ({error.msg} at column {error.colno})"
    return "not UTF-8 text"


def writer_for(version: int, target: Source, header: Header) -> Writer:
    """A writer of asciicast `version` (2 or 3) to a path (created or emptied) or open file."""
    # Imported here: the version modules build on the classes above.
    from . import v2, v3

    kinds: dict[int, type[Writer]] = {2: v2.Writer, 3: v3.Writer}
    if version not in kinds:
        raise ValueError(f"asciicast version {version} is not one termhost writes (2 or 3)")
    file, name, owned = _open(target, "wb")
    try:
        return kinds[version](file, header, name=name, owns_file=owned)
    except BaseException:
        if owned:
            _close_after_error(file)
        raise


def open_reader(source: Source) -> Reader:
    """A reader for the version the file's header names (2 or 3)."""
    from . import v2, v3

    kinds: dict[object, type[Reader]] = {2: v2.Reader, 3: v3.Reader}
    file, name, owned = _open(source, "rb")
    try:
        first = file.readline()
        try:
            header = json.loads(first.decode("utf-8"))
        except ValueError:
            header = None
        if not isinstance(header, dict):
            raise RecordingError(f"{name}:1: not an asciicast file (no JSON header object)")
        version = header.get("version")
        if isinstance(version, bool) or version not in kinds:
            raise RecordingError(
                f"{name}:1: asciicast version {version!r} is not supported (termhost reads 2, 3)"
            )
        return kinds[version](file, name, header, owns_file=owned)
    except BaseException:
        if owned:
            file.close()
        raise


def output_bytes(events: Iterable[Event]) -> bytes:
    """What the program wrote, as `termhost cat` prints it: the output events, in UTF-8."""
    return b"".join(
        event.data.encode("utf-8", "replace") for event in events if event.code is EventCode.OUTPUT
    )
