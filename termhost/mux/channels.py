"""wait-for's channels: named signals and locks that scripts use to wait on each other
(`tmux wait-for done` in one, `tmux wait-for -S done` in a pane's command)."""

from __future__ import annotations

import asyncio

__all__ = ["Channel"]


class Channel:
    """One wait-for channel: waiters woken by a signal, and a lock."""

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] = []
        self._woken = False
        self._locked = False
        self._lockers: list[asyncio.Future[None]] = []

    async def wait(self) -> None:
        """Until the next signal; at once if one came while nobody waited (as tmux)."""
        if self._woken:
            self._woken = False
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)

    def signal(self) -> None:
        """Wake every waiter, or keep the signal for the next one."""
        if not self._waiters:
            self._woken = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def lock(self) -> None:
        """-L: take the lock, waiting for its holder to unlock it."""
        if not self._locked:
            self._locked = True
            return
        locker = asyncio.get_running_loop().create_future()
        self._lockers.append(locker)
        try:
            await locker  # handed over by unlock(): the lock is ours
        except asyncio.CancelledError:
            if locker in self._lockers:
                self._lockers.remove(locker)
            elif locker.done() and not locker.cancelled():
                self.unlock()  # handed over as we left: pass it on
            raise

    def unlock(self) -> bool:
        """-U: hand the lock to the next waiting for it, or free it; False if not locked."""
        if not self._locked:
            return False
        while self._lockers:
            locker = self._lockers.pop(0)
            if not locker.done():
                locker.set_result(None)
                return True
        self._locked = False
        return True
