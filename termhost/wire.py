"""The bytes of termhost's protocol, and nothing heavier: what the thin client (front.py)
needs to talk to a server, without enum, typing or dataclasses, each of which costs a
command line more than its whole round trip to a running server.

A frame is a type byte, a big-endian u32 payload length, and the payload. The frame
types are plain ints here; mux/protocol.py is the server's view of the same protocol
(FrameType, an enum with each type's meaning, and the checks a server makes of what a
client sends) and takes every number and encoding from this module.
"""

from __future__ import annotations

import os
import struct

TYPE_CHECKING = False  # typing's own import costs the thin path; mypy reads the name
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

PROTOCOL_VERSION = 6
MAGIC = b"termhost"
MAX_PAYLOAD = 16 << 20
"""Largest payload accepted (a capture of the whole scrollback fits; a runaway does not)."""

# Frame types: their meanings are documented on mux.protocol.FrameType.
HELLO = 1
ERROR = 2
COMMAND = 3
STDOUT = 4
STDERR = 5
EXIT = 6
INPUT = 7
OUTPUT = 8
RESIZE = 9
DETACH = 10
ENVIRON = 11
CWD = 12
TTY = 13
TTY_OUTPUT = 14
TTY_INPUT = 15
SUSPEND = 16
LOCK = 17
WAKEUP = 18
CONTROL = 19
DETACH_HUP = 30
EXEC = 31
READ_STDIN = 32
STDIN = 33

HEADER = struct.Struct(">BI")
HELLO_BODY = struct.Struct(">8sH")
SIZE_BODY = struct.Struct(">HH")
EXIT_BODY = struct.Struct(">i")

FORCE_256_VARIABLE = "TERMHOST_CLIENT_FORCE_256"
"""Set in the environment a client sends (never in its own) for `termhost -2`: its
terminal takes 256 colours whatever TERM says. The server takes it out again."""


class WireError(Exception):
    """The peer sent something that is not this protocol."""


def frame(kind: int, payload: bytes = b"") -> bytes:
    """One frame, ready to write."""
    if len(payload) > MAX_PAYLOAD:
        raise WireError(f"a frame of type {kind} and {len(payload)} bytes is over the limit")
    return HEADER.pack(kind, len(payload)) + payload


def take_frames(buffer: bytearray, max_payload: int = MAX_PAYLOAD) -> list[tuple[int, bytes]]:
    """The whole frames at the front of `buffer` as (type, payload), removed from it; an
    incomplete one stays for the next read. The types are not checked here."""
    frames = []
    while len(buffer) >= HEADER.size:
        kind, length = HEADER.unpack_from(buffer)
        if length > max_payload:
            raise WireError(f"a frame of type {kind} and {length} bytes is over the limit")
        end = HEADER.size + length
        if len(buffer) < end:
            break
        frames.append((kind, bytes(buffer[HEADER.size:end])))
        del buffer[:end]
    return frames


def hello(version: int = PROTOCOL_VERSION) -> bytes:
    """The HELLO frame both sides send first."""
    return frame(HELLO, HELLO_BODY.pack(MAGIC, version))


def hello_version(payload: bytes) -> int:
    """The peer's protocol version from its HELLO; WireError if it is no termhost peer."""
    if len(payload) != HELLO_BODY.size:
        raise WireError("the peer is not a termhost client or server")
    magic, version = HELLO_BODY.unpack(payload)
    if magic != MAGIC:
        raise WireError("the peer is not a termhost client or server")
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


def encode_environ(env: Mapping[str, str]) -> bytes:
    """An environment for ENVIRON (NUL-separated KEY=VALUE)."""
    return encode_argv([f"{key}={value}" for key, value in env.items()])


def decode_exit(payload: bytes) -> int:
    """The exit status from an EXIT payload."""
    if len(payload) != EXIT_BODY.size:
        raise WireError(f"an EXIT payload is {EXIT_BODY.size} bytes, not {len(payload)}")
    return int(EXIT_BODY.unpack(payload)[0])
