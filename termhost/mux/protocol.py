"""The wire format between termhost's client and server: versioned, length-prefixed frames.

A frame is a type byte, a big-endian u32 payload length, and the payload: raw bytes
stay raw (keystrokes, screen output), never JSON. Every connection opens with HELLO
carrying a magic string and the protocol version, so a client and server of different
termhost versions fail with a message that says so instead of misreading each other. A
frame over MAX_PAYLOAD or of an unknown type is a ProtocolError: the server drops that
connection and carries on.
"""

from __future__ import annotations

import enum
import os
import struct
from collections.abc import Mapping, Sequence
from typing import NamedTuple

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

PROTOCOL_VERSION = 5
MAGIC = b"termhost"
MAX_PAYLOAD = 16 << 20
"""Largest payload accepted (a capture of the whole scrollback fits; a runaway does not)."""

_HEADER = struct.Struct(">BI")
_HELLO = struct.Struct(">8sH")
_SIZE = struct.Struct(">HH")
_EXIT = struct.Struct(">i")


class ProtocolError(Exception):
    """The peer sent something that is not this protocol: drop the connection."""


class FrameType(enum.IntEnum):
    """What a frame carries."""

    HELLO = 1
    """Either side, first: MAGIC and the protocol version."""
    ERROR = 2
    """Server to client: a one-line message for the user; the connection ends."""
    COMMAND = 3
    """Client to server: a CLI command line (argv)."""
    STDOUT = 4
    """Server to client: output of a command, for the client's stdout."""
    STDERR = 5
    """Server to client: messages of a command, for the client's stderr."""
    EXIT = 6
    """Server to client: the command's exit status; the connection ends."""
    INPUT = 7
    """Attached client to server: bytes typed on the client's terminal."""
    OUTPUT = 8
    """Server to attached client: bytes for the client's terminal."""
    RESIZE = 9
    """Attached client to server: the client terminal's new size."""
    DETACH = 10
    """Either side: the attached client leaves (payload: the reason, for the message)."""
    ENVIRON = 11
    """Client to server, before COMMAND: the client's environment (NUL-separated K=V)."""
    CWD = 12
    """Client to server, before COMMAND: the client's working directory."""
    TTY = 13
    """Client to server, before COMMAND: the path of the client's terminal, if it has one
    (#{client_tty} of an attached client)."""
    TTY_OUTPUT = 14
    """Client to server, after TTY: its stdout is that terminal, so the server may write
    an attached client's output there itself rather than in OUTPUT frames."""
    TTY_INPUT = 15
    """Server to attached client: the server reads the client's terminal now (see
    tty_input.py); client to server, in answer: the client has stopped reading it and
    every key it read went before this frame."""
    SUSPEND = 16
    """Server to attached client (suspend-client): the server has given the terminal
    back as it found it; restore its modes and stop with SIGTSTP, for the shell's job
    control; say WAKEUP once continued."""
    LOCK = 17
    """Server to attached client (lock-client): as SUSPEND, but run the payload, the
    lock-command, with sh in the foreground instead of stopping; WAKEUP when it exits."""
    WAKEUP = 18
    """Attached client to server, after SUSPEND or LOCK: it has the terminal again (raw);
    the server takes it back and redraws everything."""
    CONTROL = 19
    """Client to server, before COMMAND: the client is in control mode (termhost -C;
    payload b"2" for -CC). Its command's output comes back in %begin/%end blocks, as
    OUTPUT lines; attached, it sends its input as INPUT (lines of commands, an empty one
    to leave) and DETACH at its end, and takes notifications as OUTPUT (mux/control.py)."""
    DETACH_HUP = 30
    """Server to attached client: as DETACH, then the client sends SIGHUP to its parent
    (detach-client -P, attach -x: tmux's MSG_DETACHKILL), which ends the shell it ran in."""
    EXEC = 31
    """Server to attached client: it detaches and runs the payload (SHELL NUL COMMAND) in
    its place, `SHELL -c COMMAND`, printing nothing (detach-client -E: MSG_EXEC)."""


class Frame(NamedTuple):
    """A NamedTuple, not a dataclass: every CLI command loads this module, and
    dataclasses costs a command about 14 ms of imports."""

    type: FrameType
    payload: bytes = b""


def encode_frame(kind: FrameType, payload: bytes = b"") -> bytes:
    """One frame, ready to write."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"a {kind.name} frame of {len(payload)} bytes is over the limit")
    return _HEADER.pack(kind, len(payload)) + payload


class FrameDecoder:
    """Splits a byte stream into frames, however the reads cut it."""

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self.max_payload = max_payload
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Frame]:
        """The frames completed by `data`; ProtocolError on anything malformed."""
        buffer = self._buffer
        buffer += data
        frames = []
        while len(buffer) >= _HEADER.size:
            kind, length = _HEADER.unpack_from(buffer)
            try:
                frame_type = FrameType(kind)
            except ValueError:
                raise ProtocolError(f"unknown frame type {kind}") from None
            if length > self.max_payload:
                name = frame_type.name
                raise ProtocolError(f"a {name} frame of {length} bytes is over the limit")
            end = _HEADER.size + length
            if len(buffer) < end:
                break
            frames.append(Frame(frame_type, bytes(buffer[_HEADER.size : end])))
            del buffer[:end]
        return frames

    @property
    def pending(self) -> int:
        """Bytes of an incomplete frame held back."""
        return len(self._buffer)


def encode_hello(version: int = PROTOCOL_VERSION) -> bytes:
    """The HELLO frame both sides send first."""
    return encode_frame(FrameType.HELLO, _HELLO.pack(MAGIC, version))


def decode_hello(frame: Frame) -> int:
    """The peer's protocol version; ProtocolError if this is not a termhost peer at all."""
    if frame.type is not FrameType.HELLO or len(frame.payload) != _HELLO.size:
        raise ProtocolError("the peer is not a termhost client or server")
    magic, version = _HELLO.unpack(frame.payload)
    if magic != MAGIC:
        raise ProtocolError("the peer is not a termhost client or server")
    return int(version)


def version_mismatch(ours: int, theirs: int) -> str:
    """The message a user sees when client and server are different termhost versions."""
    return (
        f"protocol version mismatch (server {ours}, client {theirs}): "
        "restart the server with `termhost kill-server` after upgrading"
    )


def encode_argv(argv: Sequence[str]) -> bytes:
    """A command line: arguments NUL-separated, bytes as the OS would give them."""
    encoded = [os.fsencode(arg) for arg in argv]
    if any(b"\0" in arg for arg in encoded):
        raise ValueError("an argument contains a NUL byte")
    return b"\0".join(encoded)


def decode_argv(payload: bytes) -> list[str]:
    """The inverse of encode_argv (an empty payload is an empty command line)."""
    return [os.fsdecode(arg) for arg in payload.split(b"\0")] if payload else []


FORCE_256_VARIABLE = "TERMHOST_CLIENT_FORCE_256"
"""Set in the environment a client sends (never in its own) for `termhost -2`: its
terminal takes 256 colours whatever TERM says. The server takes it out again."""


def encode_environ(env: Mapping[str, str]) -> bytes:
    """An environment for ENVIRON."""
    return encode_argv([f"{key}={value}" for key, value in env.items()])


def decode_environ(payload: bytes) -> dict[str, str]:
    """The inverse of encode_environ."""
    return dict(entry.partition("=")[::2] for entry in decode_argv(payload))


def encode_size(cols: int, rows: int) -> bytes:
    """A terminal size for RESIZE."""
    if not (0 < cols <= 0xFFFF and 0 < rows <= 0xFFFF):
        raise ValueError(f"terminal size {cols}x{rows} is out of range")
    return _SIZE.pack(cols, rows)


def decode_size(payload: bytes) -> tuple[int, int]:
    """(cols, rows) from a RESIZE payload."""
    if len(payload) != _SIZE.size:
        raise ProtocolError(f"a RESIZE payload is {_SIZE.size} bytes, not {len(payload)}")
    cols, rows = _SIZE.unpack(payload)
    if not cols or not rows:
        raise ProtocolError(f"terminal size {cols}x{rows} is out of range")
    return int(cols), int(rows)


def encode_exit(status: int) -> bytes:
    """An exit status for EXIT."""
    return _EXIT.pack(status)


def decode_exit(payload: bytes) -> int:
    """The exit status from an EXIT payload."""
    if len(payload) != _EXIT.size:
        raise ProtocolError(f"an EXIT payload is {_EXIT.size} bytes, not {len(payload)}")
    return int(_EXIT.unpack(payload)[0])
