"""A real client in a real PTY, its output read by an emulator as the outer terminal."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Callable

import pytest

from termhost.process import Child, Command, spawn_in_pty
from termhost.terminal import Terminal
from tests.conftest import DEADLINE

__all__ = ["Outer", "client", "termhost"]


class Outer:
    """The terminal the client runs in: a PTY whose output our emulator draws.

    Its output is read whenever the test's event loop runs, as a real terminal reads
    all the time: a client whose terminal is not read blocks writing to it and stops
    taking keys, which a test waiting on something else would take for a bug.
    """

    def __init__(self, child: Child, master: int, cols: int, rows: int) -> None:
        self.child, self.master = child, master
        self.terminal = Terminal(cols, rows)
        self.raw = bytearray()
        """Every byte the client wrote, in order."""
        os.set_blocking(master, False)
        asyncio.get_running_loop().add_reader(master, self._read)

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""  # the client is gone: what it wrote is all there is
            if not data:
                asyncio.get_running_loop().remove_reader(self.master)
                return
            self.raw += data
            self.terminal.feed(data)

    def close(self) -> None:
        asyncio.get_running_loop().remove_reader(self.master)
        os.close(self.master)

    async def see(self, condition: Callable[[list[str]], bool], what: str) -> list[str]:
        deadline = time.monotonic() + DEADLINE
        while True:
            self._read()
            screen = [line.rstrip() for line in self.terminal.display]
            if condition(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"never saw {what}; the screen was:\n" + "\n".join(screen))
            await asyncio.sleep(0.01)  # polling the condition with a deadline

    def type(self, data: bytes) -> None:
        os.write(self.master, data)

    async def detach(self) -> None:
        """C-b d: the client must exit 0; its PTY is closed."""
        self.type(b"\x02d")
        assert (await asyncio.wait_for(self.child.wait(), DEADLINE)).code == 0
        self.close()


async def client(env: dict[str, str], *args: str, cols: int = 80, rows: int = 24) -> Outer:
    command = Command(sys.executable, ["-m", "termhost", *args], env=env)
    child, master = await spawn_in_pty(command, cols, rows)
    return Outer(child, master, cols, rows)


def termhost(env: dict[str, str], *args: str) -> str:
    return subprocess.run([sys.executable, "-m", "termhost", *args], env=env,
                          capture_output=True, text=True, timeout=30, check=True).stdout
