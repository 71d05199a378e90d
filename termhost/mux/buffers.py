"""Paste buffers, as tmux keeps them: named text that copy mode and the buffer verbs
(set-buffer, paste-buffer, ...) fill and read.

A buffer gets a name from whoever makes it (`-b NAME`) or an automatic one (`buffer0`,
`buffer1`, ... never reused while the server lives). The most recent comes first; only
automatic buffers count towards `buffer-limit` (50), the oldest of them going first, so
a buffer a user named is never dropped behind their back.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

__all__ = ["BUFFER_LIMIT", "Buffer", "PasteBuffers", "sample"]

BUFFER_LIMIT = 50
"""Automatic buffers kept at most (tmux's buffer-limit)."""


@dataclass(eq=False)
class Buffer:
    name: str
    data: bytes
    automatic: bool
    created: float = field(default_factory=time.time)
    order: int = 0
    """Higher is more recent: list-buffers' order and the default buffer."""


class PasteBuffers:
    """The paste buffers of one server."""

    def __init__(self) -> None:
        self._buffers: dict[str, Buffer] = {}
        self._next_automatic = 0
        self._order = 0

    def all(self) -> list[Buffer]:
        """Most recent first, as list-buffers shows them."""
        return sorted(self._buffers.values(), key=lambda b: b.order, reverse=True)

    def get(self, name: str | None) -> Buffer | None:
        """The buffer called `name`, or the most recent one when None."""
        if name is None:
            buffers = self.all()
            return buffers[0] if buffers else None
        return self._buffers.get(name)

    def set(self, data: bytes, name: str | None = None, *, append: bool = False) -> Buffer:
        """A new automatic buffer (no `name`), or buffer `name` replaced (or appended
        to): either way it becomes the most recent."""
        self._order += 1
        if name is not None and name in self._buffers:
            buffer = self._buffers[name]
            buffer.data = buffer.data + data if append else data
            buffer.order = self._order
            return buffer
        automatic = name is None
        if name is None:
            name = f"buffer{self._next_automatic}"
            self._next_automatic += 1
        buffer = Buffer(name, data, automatic=automatic, order=self._order)
        self._buffers[name] = buffer
        for old in [b for b in self.all() if b.automatic][BUFFER_LIMIT:]:
            del self._buffers[old.name]
        return buffer

    def rename(self, buffer: Buffer, name: str) -> None:
        """set-buffer -n: a buffer of that name already there is replaced."""
        del self._buffers[buffer.name]
        self._buffers.pop(name, None)
        buffer.name, buffer.automatic = name, False
        self._buffers[name] = buffer

    def delete(self, buffer: Buffer) -> None:
        self._buffers.pop(buffer.name, None)


def sample(data: bytes, width: int = 200) -> str:
    """#{buffer_sample}: the start of the data, escaped, so that one buffer is one line
    of list-buffers; cut at `width` with "..." when there is more, as tmux's
    paste_make_sample."""
    shown = escape(data[:width])
    return shown[:width] + "..." if len(data) > width or len(shown) > width else shown


def escape(data: bytes) -> str:
    """`data` with control characters escaped as tmux's utf8_strvis (`\\n` for a
    newline, `\\t` for a tab, octal for the rest), for a buffer shown on one line."""
    out = []
    for char in data.decode("utf-8", "replace"):
        if char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif char == "\\":
            out.append("\\\\")
        elif ord(char) < 32 or ord(char) == 127:
            out.append(f"\\{ord(char):03o}")
        else:
            out.append(char)
    return "".join(out)
