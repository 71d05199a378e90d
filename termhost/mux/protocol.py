"""The wire format between termhost's client and server: versioned, length-prefixed frames.

A frame is a type byte, a big-endian u32 payload length, and the payload: raw bytes
stay raw (keystrokes, screen output), never JSON. Every connection opens with HELLO
carrying a magic string and the protocol version, so a client and server of different
termhost versions fail with a message that says so instead of misreading each other. A
frame over MAX_PAYLOAD or of an unknown type is a ProtocolError: the server drops that
connection and carries on.

The numbers and encodings are termhost.wire's, which the thin client (termhost.front)
uses alone; this module is the same protocol as the server and the attached client see it:
each frame type named and explained, frames as typed tuples.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import NamedTuple

from termhost import wire

__all__ = [
    "FORCE_256_VARIABLE",
    "MAGIC",
    "MAX_PAYLOAD",
    "PROTOCOL_VERSION",
    "Frame",
    "FrameDecoder",
    "FrameType",
    "ProtocolError",
    "decode_argv",
    "decode_environ",
    "decode_exit",
    "decode_hello",
    "decode_size",
    "encode_argv",
    "encode_environ",
    "encode_exit",
    "encode_frame",
    "encode_hello",
    "encode_size",
    "version_mismatch",
]

PROTOCOL_VERSION = wire.PROTOCOL_VERSION
MAGIC = wire.MAGIC
MAX_PAYLOAD = wire.MAX_PAYLOAD
FORCE_256_VARIABLE = wire.FORCE_256_VARIABLE
ProtocolError = wire.WireError
"""The peer sent something that is not this protocol: drop the connection."""
version_mismatch = wire.version_mismatch
encode_argv = wire.encode_argv
decode_argv = wire.decode_argv
decode_exit = wire.decode_exit
encode_exit = wire.encode_exit


class FrameType(enum.IntEnum):
    """What a frame carries."""

    HELLO = wire.HELLO
    """Either side, first: MAGIC and the protocol version."""
    ERROR = wire.ERROR
    """Server to client: a one-line message for the user; the connection ends."""
    COMMAND = wire.COMMAND
    """Client to server: a CLI command line (argv)."""
    STDOUT = wire.STDOUT
    """Server to client: output of a command, for the client's stdout."""
    STDERR = wire.STDERR
    """Server to client: messages of a command, for the client's stderr."""
    EXIT = wire.EXIT
    """Server to client: the command's exit status; the connection ends."""
    INPUT = wire.INPUT
    """Attached client to server: bytes typed on the client's terminal."""
    OUTPUT = wire.OUTPUT
    """Server to attached client: bytes for the client's terminal."""
    RESIZE = wire.RESIZE
    """Attached client to server: the client terminal's new size."""
    DETACH = wire.DETACH
    """Either side: the attached client leaves (payload: the reason, for the message)."""
    ENVIRON = wire.ENVIRON
    """Client to server, before COMMAND: the client's environment (NUL-separated K=V)."""
    CWD = wire.CWD
    """Client to server, before COMMAND: the client's working directory."""
    TTY = wire.TTY
    """Client to server, before COMMAND: the path of the client's terminal, if it has one
    (#{client_tty} of an attached client)."""
    TTY_OUTPUT = wire.TTY_OUTPUT
    """Client to server, after TTY: its stdout is that terminal, so the server may write
    an attached client's output there itself rather than in OUTPUT frames."""
    TTY_INPUT = wire.TTY_INPUT
    """Server to attached client: the server reads the client's terminal now (see
    tty_input.py); client to server, in answer: the client has stopped reading it and
    every key it read went before this frame."""
    SUSPEND = wire.SUSPEND
    """Server to attached client (suspend-client): the server has given the terminal
    back as it found it; restore its modes and stop with SIGTSTP, for the shell's job
    control; say WAKEUP once continued."""
    LOCK = wire.LOCK
    """Server to attached client (lock-client): as SUSPEND, but run the payload, the
    lock-command, with sh in the foreground instead of stopping; WAKEUP when it exits."""
    WAKEUP = wire.WAKEUP
    """Attached client to server, after SUSPEND or LOCK: it has the terminal again (raw);
    the server takes it back and redraws everything."""
    CONTROL = wire.CONTROL
    """Client to server, before COMMAND: the client is in control mode (termhost -C;
    payload b"2" for -CC). Its command's output comes back in %begin/%end blocks, as
    OUTPUT lines; attached, it sends its input as INPUT (lines of commands, an empty one
    to leave) and DETACH at its end, and takes notifications as OUTPUT (mux/control.py)."""
    DETACH_HUP = wire.DETACH_HUP
    """Server to attached client: as DETACH, then the client sends SIGHUP to its parent
    (detach-client -P, attach -x: tmux's MSG_DETACHKILL), which ends the shell it ran in."""
    EXEC = wire.EXEC
    """Server to attached client: it detaches and runs the payload (SHELL NUL COMMAND) in
    its place, `SHELL -c COMMAND`, printing nothing (detach-client -E: MSG_EXEC)."""
    READ_STDIN = wire.READ_STDIN
    """Server to client, while its command runs: send your stdin, as STDIN frames, the
    last one empty at its end (tmux's file_read of "-": load-buffer -, source-file -,
    split-window -I, display-message -I)."""
    STDIN = wire.STDIN
    """Client to server, after READ_STDIN: a piece of its stdin; empty at its end."""


class Frame(NamedTuple):
    """One frame as read: its type and its payload."""

    type: FrameType
    payload: bytes = b""


def encode_frame(kind: FrameType, payload: bytes = b"") -> bytes:
    """One frame, ready to write."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"a {kind.name} frame of {len(payload)} bytes is over the limit")
    return wire.frame(kind, payload)


class FrameDecoder:
    """Splits a byte stream into frames, however the reads cut it; a type this protocol
    does not have is a ProtocolError, as is a frame over the limit."""

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self.max_payload = max_payload
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Frame]:
        """The frames completed by `data`; ProtocolError on anything malformed."""
        self._buffer += data
        frames = []
        for kind, payload in wire.take_frames(self._buffer, self.max_payload):
            try:
                frames.append(Frame(FrameType(kind), payload))
            except ValueError:
                raise ProtocolError(f"unknown frame type {kind}") from None
        return frames

    @property
    def pending(self) -> int:
        """Bytes of an incomplete frame held back."""
        return len(self._buffer)


def encode_hello(version: int = PROTOCOL_VERSION) -> bytes:
    """The HELLO frame both sides send first."""
    return wire.hello(version)


def decode_hello(frame: Frame) -> int:
    """The peer's protocol version; ProtocolError if this is not a termhost peer at all."""
    if frame.type is not FrameType.HELLO:
        raise ProtocolError("the peer is not a termhost client or server")
    return wire.hello_version(frame.payload)


def encode_environ(env: Mapping[str, str]) -> bytes:
    """An environment for ENVIRON."""
    return wire.encode_environ({wire.fsencode(key): wire.fsencode(value)
                                for key, value in env.items()})


def decode_environ(payload: bytes) -> dict[str, str]:
    """The inverse of encode_environ."""
    return dict(entry.partition("=")[::2] for entry in decode_argv(payload))


def encode_size(cols: int, rows: int) -> bytes:
    """A terminal size for RESIZE."""
    if not (0 < cols <= 0xFFFF and 0 < rows <= 0xFFFF):
        raise ValueError(f"terminal size {cols}x{rows} is out of range")
    return cols.to_bytes(2, "big") + rows.to_bytes(2, "big")


def decode_size(payload: bytes) -> tuple[int, int]:
    """(cols, rows) from a RESIZE payload."""
    if len(payload) != wire.SIZE_SIZE:
        raise ProtocolError(f"a RESIZE payload is {wire.SIZE_SIZE} bytes, not {len(payload)}")
    cols, rows = int.from_bytes(payload[:2], "big"), int.from_bytes(payload[2:], "big")
    if not cols or not rows:
        raise ProtocolError(f"terminal size {cols}x{rows} is out of range")
    return int(cols), int(rows)

