"""asciicast v3: the format of asciinema 3, with relative times and an exit event.

An event's time is the interval since the previous event. The writer rounds each to the
millisecond against the total written so far, so the rounding error is carried into the next
interval instead of adding up: after any number of events the summed intervals are within
half a millisecond of the true time. Lines starting with `#` are comments.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, BinaryIO

from termhost.record import asciicast
from termhost.record.asciicast import Header, header_field, header_mapping

__all__ = ["Reader", "Writer"]


class Writer(asciicast.Writer):
    """Writes asciicast v3."""

    def __init__(
        self, file: BinaryIO, header: Header, *, name: str | None = None, owns_file: bool = False
    ) -> None:
        self._written_ms = 0
        super().__init__(file, header, name=name, owns_file=owns_file)

    def header_object(self, header: Header) -> dict[str, Any]:
        term: dict[str, Any] = {"cols": header.cols, "rows": header.rows}
        if header.term_type is not None:
            term["type"] = header.term_type
        if header.theme is not None:
            term["theme"] = dict(header.theme)
        obj: dict[str, Any] = {"version": 3, "term": term}
        obj.update(header.optional_fields())
        if header.env:
            obj["env"] = dict(header.env)
        return obj

    def format_time(self, at: float) -> str:
        """The interval to `at`, in whole ms, from the total written (never negative, so a
        clock that steps back is absorbed by the following intervals)."""
        interval = max(0, round(at * 1000) - self._written_ms)
        self._written_ms += interval
        return f"{interval // 1000}.{interval % 1000:03d}"


class Reader(asciicast.Reader):
    """Reads asciicast v3, from termhost or asciinema 3."""

    version = 3

    def __init__(
        self, file: BinaryIO, name: str, header: Mapping[str, Any], *, owns_file: bool = False
    ) -> None:
        self._elapsed_us = 0
        super().__init__(file, name, header, owns_file=owns_file)

    def parse_header(self, obj: Mapping[str, Any]) -> Header:
        term = header_field(obj, "term", dict, required=True)
        return Header(
            cols=header_field(term, "cols", int, required=True),
            rows=header_field(term, "rows", int, required=True),
            term_type=header_field(term, "type", str),
            env=header_mapping(obj, "env") or {},
            theme=header_mapping(term, "theme"),
            **Header.parse_optional_fields(obj),
        )

    def event_time(self, time: float) -> float:
        """Intervals are summed in whole microseconds (asciinema 3's finest), so reading adds
        no floating-point drift of its own."""
        self._elapsed_us += round(time * 1_000_000)
        return self._elapsed_us / 1_000_000

    def is_comment(self, line: bytes) -> bool:
        return line.startswith(b"#")
