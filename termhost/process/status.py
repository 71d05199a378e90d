"""How a child ended, rebuilt from `waitid` so every caller reads it the same way."""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass

__all__ = ["ExitStatus"]


@dataclass(frozen=True)
class ExitStatus:
    """The end of a process: an exit code, or the signal that killed it.

    `waitid` reports `CLD_EXITED`, `CLD_KILLED` or `CLD_DUMPED` with a single status
    number; this keeps the three apart and can rebuild the classic `wait()` status word
    for code that wants `os.WIFEXITED` and friends.
    """

    code: int | None = None
    signal: int | None = None
    core_dumped: bool = False

    @classmethod
    def from_waitid(cls, result: os.waitid_result) -> ExitStatus:
        """Map a `waitid` result (exited, killed, dumped) to an exit status."""
        if result.si_code == os.CLD_EXITED:
            return cls(code=result.si_status)
        if result.si_code == os.CLD_DUMPED:
            return cls(signal=result.si_status, core_dumped=True)
        return cls(signal=result.si_status)

    @property
    def returncode(self) -> int:
        """subprocess's convention: the exit code, or minus the signal number."""
        if self.code is not None:
            return self.code
        assert self.signal is not None
        return -self.signal

    @property
    def wait_status(self) -> int:
        """The status word `waitpid` would have returned (code << 8, or signal | 0x80)."""
        if self.code is not None:
            return (self.code & 0xFF) << 8
        assert self.signal is not None
        return self.signal | (0x80 if self.core_dumped else 0)

    def __str__(self) -> str:
        if self.code is not None:
            return f"exited with status {self.code}"
        assert self.signal is not None
        try:
            name = signal.Signals(self.signal).name
        except ValueError:
            name = f"signal {self.signal}"
        return f"killed by {name}" + (" (core dumped)" if self.core_dumped else "")
