"""The CLI's side of the protocol: find (or start) the server, run one command there.

A command that needs a server and finds none says `no server running on PATH`, exit 1,
as tmux does; `new-session` starts one. Starting is serialised with a lock file next to
the socket, so two commands racing to start a server give one server.
"""

from __future__ import annotations

import fcntl
import os
import socket
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from termhost.mux.paths import ensure_socket_dir, socket_dir
from termhost.mux.protocol import (
    PROTOCOL_VERSION,
    FrameDecoder,
    FrameType,
    ProtocolError,
    decode_exit,
    decode_hello,
    encode_argv,
    encode_environ,
    encode_frame,
    encode_hello,
    version_mismatch,
)

__all__ = ["STARTS_SERVER", "ClientError", "run"]

STARTS_SERVER = frozenset({"new-session", "new", "start-server", "start"})
_START_TIMEOUT = 10.0


class ClientError(Exception):
    """Something between the client and the server failed; one line for the user."""


def run(argv: Sequence[str], path: Path) -> int:
    """Run `argv` on the server at `path`; its output is written out, its status returned."""
    try:
        sock = _connect(path)
    except (FileNotFoundError, ConnectionRefusedError):
        if argv[0] not in STARTS_SERVER:
            raise ClientError(f"no server running on {path}") from None
        sock = _start_server(path)
    with sock:
        return _exchange(sock, argv)


def _connect(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(os.fspath(path))
    except BaseException:
        sock.close()
        raise
    return sock


def _start_server(path: Path) -> socket.socket:
    """Start a server for `path` unless another command just did; return a connection."""
    if path.parent == socket_dir():
        ensure_socket_dir(path.parent)
    lock_path = path.with_name(path.name + ".lock")
    with open(os.open(lock_path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return _connect(path)  # another command started it while we waited
        except (FileNotFoundError, ConnectionRefusedError):
            pass
        log = os.open(path.with_name(path.name + ".log"),
                      os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        null = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        from termhost.process import Command, Setup  # only a starting client pays for it
        from termhost.process.direct import spawn_direct

        try:
            # Direct spawn: a new session and no parent-death signal, the server outlives us.
            spawn_direct(
                Command(sys.executable, ["-m", "termhost.mux.server", "--socket", str(path)],
                        env=dict(os.environ), stdin=null, stdout=log, stderr=log),
                Setup.PIPE,
            ).close()
        finally:
            os.close(log)
            os.close(null)
        deadline = time.monotonic() + _START_TIMEOUT
        delay = 0.002
        while True:
            try:
                return _connect(path)
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise ClientError(
                        f"the server did not start within {_START_TIMEOUT:.0f} s: see "
                        f"{path.name}.log beside the socket"
                    ) from None
                time.sleep(delay)  # polling the socket with a deadline, not synchronisation
                delay = min(delay * 2, 0.05)


def _exchange(sock: socket.socket, argv: Sequence[str]) -> int:
    sock.sendall(
        encode_hello()
        + encode_frame(FrameType.ENVIRON, encode_environ(os.environ))
        + encode_frame(FrameType.CWD, os.fsencode(os.getcwd()))
        + encode_frame(FrameType.COMMAND, encode_argv(argv))
    )
    decoder = FrameDecoder()
    greeted = False
    while True:
        data = sock.recv(65536)
        if not data:
            raise ClientError("the server closed the connection")
        for frame in decoder.feed(data):
            if not greeted:
                version = decode_hello(frame)
                if version != PROTOCOL_VERSION:
                    raise ClientError(version_mismatch(version, PROTOCOL_VERSION))
                greeted = True
            elif frame.type is FrameType.STDOUT:
                sys.stdout.buffer.write(frame.payload)
                sys.stdout.flush()
            elif frame.type is FrameType.STDERR:
                sys.stderr.buffer.write(frame.payload)
                sys.stderr.flush()
            elif frame.type is FrameType.ERROR:
                raise ClientError(frame.payload.decode(errors="replace"))
            elif frame.type is FrameType.EXIT:
                return decode_exit(frame.payload)
            else:
                raise ProtocolError(f"unexpected {frame.type.name} frame from the server")
