"""The bytes of termhost's protocol, and nothing heavier: what the thin client (front.py)
needs to talk to a server, without os, struct, enum, typing or dataclasses, each of which
costs a command line more than its whole round trip to a running server (the annotations
are strings for the same reason: `from __future__` is an import too).

A frame is a type byte, a big-endian u32 payload length, and the payload. The frame
types are plain ints here; mux/protocol.py is the server's view of the same protocol
(FrameType, an enum with each type's meaning, and the checks a server makes of what a
client sends) and takes every number and encoding from this module.
"""

import sys

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

HEADER_SIZE = 5
"""A frame's header: the type (u8) and the payload's length (big-endian u32)."""
EXIT_SIZE = 4
"""An EXIT payload: the status, a big-endian signed 32-bit int."""
SIZE_SIZE = 4
"""A RESIZE payload: columns and rows, big-endian u16 each."""

FORCE_256_VARIABLE = "TERMHOST_CLIENT_FORCE_256"
"""Set in the environment a client sends (never in its own) for `termhost -2`: its
terminal takes 256 colours whatever TERM says. The server takes it out again."""


class WireError(Exception):
    """The peer sent something that is not this protocol."""


def frame(kind: int, payload: bytes = b"") -> bytes:
    """One frame, ready to write."""
    if len(payload) > MAX_PAYLOAD:
        raise WireError(f"a frame of type {kind} and {len(payload)} bytes is over the limit")
    return kind.to_bytes(1, "big") + len(payload).to_bytes(4, "big") + payload


def take_frames(buffer: bytearray, max_payload: int = MAX_PAYLOAD) -> list[tuple[int, bytes]]:
    """The whole frames at the front of `buffer` as (type, payload), removed from it; an
    incomplete one stays for the next read. The types are not checked here."""
    frames = []
    while len(buffer) >= HEADER_SIZE:
        kind, length = buffer[0], int.from_bytes(buffer[1:HEADER_SIZE], "big")
        if length > max_payload:
            raise WireError(f"a frame of type {kind} and {length} bytes is over the limit")
        end = HEADER_SIZE + length
        if len(buffer) < end:
            break
        frames.append((kind, bytes(buffer[HEADER_SIZE:end])))
        del buffer[:end]
    return frames


def hello(version: int = PROTOCOL_VERSION) -> bytes:
    """The HELLO frame both sides send first."""
    return frame(HELLO, MAGIC + version.to_bytes(2, "big"))


def hello_version(payload: bytes) -> int:
    """The peer's protocol version from its HELLO; WireError if it is no termhost peer."""
    if len(payload) != len(MAGIC) + 2 or not payload.startswith(MAGIC):
        raise WireError("the peer is not a termhost client or server")
    return int.from_bytes(payload[len(MAGIC):], "big")


def version_mismatch(ours: int, theirs: int) -> str:
    """The message a user sees when client and server are different termhost versions."""
    return (
        f"protocol version mismatch (server {ours}, client {theirs}): "
        "restart the server with `termhost kill-server` after upgrading"
    )


def fsencode(text: str) -> bytes:
    """os.fsencode, without os."""
    return text.encode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())


def fsdecode(data: bytes) -> str:
    """os.fsdecode, without os."""
    return data.decode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())


def encode_argv(argv: "Sequence[str]") -> bytes:
    """A command line: arguments NUL-separated, bytes as the OS would give them."""
    encoded = [fsencode(arg) for arg in argv]
    if any(b"\0" in arg for arg in encoded):
        raise ValueError("an argument contains a NUL byte")
    return b"\0".join(encoded)


def decode_argv(payload: bytes) -> list[str]:
    """The inverse of encode_argv (an empty payload is an empty command line)."""
    return [fsdecode(arg) for arg in payload.split(b"\0")] if payload else []


def encode_environ(env: "Mapping[bytes, bytes]") -> bytes:
    """An environment for ENVIRON (NUL-separated KEY=VALUE), from bytes as posix.environ
    (os.environb) holds them: the thin client has no os."""
    entries = [key + b"=" + value for key, value in env.items()]
    if any(b"\0" in entry for entry in entries):
        raise ValueError("an argument contains a NUL byte")
    return b"\0".join(entries)


def encode_exit(status: int) -> bytes:
    """An exit status for EXIT."""
    return status.to_bytes(EXIT_SIZE, "big", signed=True)


def decode_exit(payload: bytes) -> int:
    """The exit status from an EXIT payload."""
    if len(payload) != EXIT_SIZE:
        raise WireError(f"an EXIT payload is {EXIT_SIZE} bytes, not {len(payload)}")
    return int.from_bytes(payload, "big", signed=True)
