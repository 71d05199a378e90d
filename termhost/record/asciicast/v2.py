"""asciicast v2: the format of asciinema 2.x, which every player reads.

Times are absolute seconds since the start, written with six decimals as asciinema 2.x does.
There is no exit event, and `TERM` lives in `env`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from termhost.record import asciicast
from termhost.record.asciicast import Header, header_field, header_mapping

__all__ = ["Reader", "Writer"]


class Writer(asciicast.Writer):
    """Writes asciicast v2."""

    def header_object(self, header: Header) -> dict[str, Any]:
        obj: dict[str, Any] = {"version": 2, "width": header.cols, "height": header.rows}
        obj.update(header.optional_fields())
        env = dict(header.env)
        if header.term_type is not None:
            env["TERM"] = header.term_type
        if env:
            obj["env"] = env
        if header.theme is not None:
            obj["theme"] = dict(header.theme)
        return obj

    def format_time(self, at: float) -> str:
        return f"{at:.6f}"

    def exit(self, status: int, at: float) -> None:
        """Nothing: v2 has no exit event (the decoders are flushed by `close`)."""


class Reader(asciicast.Reader):
    """Reads asciicast v2, from termhost or asciinema 2.x."""

    version = 2

    def parse_header(self, obj: Mapping[str, Any]) -> Header:
        env = header_mapping(obj, "env") or {}
        term_type = env.pop("TERM", None)
        return Header(
            cols=header_field(obj, "width", int, required=True),
            rows=header_field(obj, "height", int, required=True),
            term_type=term_type,
            env=env,
            theme=header_mapping(obj, "theme"),
            **Header.parse_optional_fields(obj),
        )

    def event_time(self, time: float) -> float:
        return float(time)
