"""Waiting for an fd to become readable on the running event loop (pidfds, pipes), and
reading a pipe to its end that way.

The reader is always removed synchronously, before the caller may close the fd, so a
reused fd number never inherits a stale callback.
"""

from __future__ import annotations

import asyncio
import os

__all__ = ["read_to_eof", "readable_future", "stop_watching", "wait_readable"]


def readable_future(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.Future[None]:
    """A future that completes (and unregisters itself) when `fd` is readable."""
    future: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        loop.remove_reader(fd)
        if not future.done():
            future.set_result(None)

    loop.add_reader(fd, ready)
    return future


def stop_watching(fd: int, future: asyncio.Future[None]) -> None:
    """Unregister `fd` from the future's loop and cancel the future."""
    loop = future.get_loop()
    if not loop.is_closed():
        loop.remove_reader(fd)
    future.cancel()


async def wait_readable(fd: int) -> None:
    """Wait until `fd` is readable; cancellation leaves nothing registered."""
    future = readable_future(asyncio.get_running_loop(), fd)
    try:
        await future
    finally:
        stop_watching(fd, future)


async def read_to_eof(fd: int, limit: int) -> bytes:
    """Everything written to the pipe `fd` until its end, keeping the first `limit` bytes
    (the rest is read and dropped, so the writer never blocks on a full pipe)."""
    os.set_blocking(fd, False)
    data = bytearray()
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            await wait_readable(fd)
            continue
        if not chunk:
            return bytes(data[:limit])
        if len(data) < limit:
            data += chunk
