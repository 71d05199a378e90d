"""PTY allocation: the window size is there before the child first looks."""

from __future__ import annotations

import asyncio
import os

import pytest

from termhost.process import Command, get_window_size, open_pty, set_window_size, spawn_in_pty
from tests.conftest import BASE_ENV, read_to_eof


def test_open_pty_sets_the_window_size_on_both_ends() -> None:
    master, slave = open_pty(132, 43)
    try:
        assert get_window_size(master) == (132, 43)
        assert get_window_size(slave) == (132, 43)
        assert os.isatty(slave)
        assert not os.get_inheritable(master)
        assert not os.get_inheritable(slave)
    finally:
        os.close(master)
        os.close(slave)


def test_a_resize_reaches_the_child_as_sigwinch_and_a_new_size() -> None:
    script = "trap 'stty size; exit 0' WINCH; echo ready; while :; do sleep 0.01; done"

    async def scenario() -> bytes:
        child, master = await spawn_in_pty(Command("sh", ["-c", script], env=BASE_ENV), 80, 24)
        try:
            seen = b""
            while b"ready" not in seen:
                await asyncio.get_running_loop().run_in_executor(None, _wait_readable, master)
                seen += os.read(master, 1024)
            set_window_size(master, 120, 50)
            seen += await asyncio.get_running_loop().run_in_executor(None, read_to_eof, master)
            await child.wait()
            return seen
        finally:
            os.close(master)

    assert asyncio.run(scenario()).endswith(b"50 120\r\n")


def _wait_readable(fd: int) -> None:
    import select

    select.select([fd], [], [], 10)


@pytest.mark.parametrize("size", [(0, 24), (80, 0), (70000, 24)])
def test_an_impossible_size_is_refused(size: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="out of range"):
        open_pty(*size)
