"""Scripting termhost (or tmux) through control mode: one `termhost -C` process, one
connection, its commands sent as lines and each one's answer read from its block.

`Session` starts the client (`attach`, `new -s work`...), `cmd` runs a command and
returns the lines it printed (ControlError if it failed), and `notifications` gives
what the server said between blocks (%output, %window-add...), as `Notification`s. Only
the standard library: a script that imports this loads nothing of the server's.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

__all__ = ["ControlError", "Notification", "Session", "quote", "unescape"]

_OCTAL = re.compile(rb"\\([0-7]{3})")


class ControlError(Exception):
    """A command's block ended in %error (its lines are the message), or the client
    ended or said nothing in time."""

    def __init__(self, message: str, lines: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.lines = list(lines)


class Notification(NamedTuple):
    """A line between blocks: its name without the `%` (`output`, `window-add`), its
    words, and for %output and %extended-output the pane's bytes."""

    name: str
    args: list[str]
    data: bytes = b""


def quote(word: str) -> str:
    """`word` as one word of tmux's command language, whatever it holds."""
    if word and re.fullmatch(r"[A-Za-z0-9_@%+=:,./-]+", word) and word[0] not in "%~":
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def unescape(text: bytes) -> bytes:
    """%output's octal escapes (`\\ooo`) back into bytes."""
    return _OCTAL.sub(lambda match: bytes([int(match[1], 8)]), text)


def _notification(line: bytes) -> Notification:
    name, _, rest = line[1:].partition(b" ")
    words = name.decode()
    if words == "output":
        pane, _, data = rest.partition(b" ")
        return Notification(words, [pane.decode()], unescape(data))
    if words == "extended-output":
        head, _, data = rest.partition(b" : ")
        return Notification(words, head.decode().split(), unescape(data))
    return Notification(words, rest.decode("utf-8", "replace").split(" ") if rest else [])


class Session:
    """A control-mode client of a server (`termhost -C ARGS`; ARGS `attach` by default).
    `program` is the command that runs termhost (or tmux), `socket_name` its -L."""

    def __init__(self, *args: str, program: Sequence[str] | None = None,
                 socket_name: str | None = None, socket_path: str | None = None,
                 env: Mapping[str, str] | None = None, timeout: float = 10.0) -> None:
        command = list(program or [sys.executable, "-m", "termhost"])
        if socket_name is not None:
            command += ["-L", socket_name]
        if socket_path is not None:
            command += ["-S", socket_path]
        self.timeout = timeout
        self._process = subprocess.Popen(
            [*command, "-C", *(args or ["attach"])], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=None if env is None else dict(env))
        self._buffer = bytearray()
        self._waiting: deque[Notification] = deque()
        self.exited: str | None = None
        """The %exit line's reason ("" for none) once the client has said it."""
        try:
            self.started = self._block()
            """What the command the client was started with printed."""
        except ControlError:
            self.close()
            raise

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int:
        """The client process's (its #{client_pid})."""
        return self._process.pid

    def cmd(self, *argv: str) -> list[str]:
        """Run one command (its words), and return the lines it printed."""
        return self.send(" ".join(quote(word) for word in argv))

    def send(self, line: str) -> list[str]:
        """Run one command written in tmux's language as it is (one: each command of a
        line gets a block of its own), and return the lines it printed."""
        if "\n" in line or not line:
            raise ValueError("a control-mode command is one non-empty line")
        self._write(line.encode() + b"\n")
        return self._block()

    def notifications(self, timeout: float = 0.0) -> Iterator[Notification]:
        """What the server said between blocks: those already read, then those that come
        within `timeout` seconds of each other."""
        while True:
            if not self._waiting:
                line = self._line(time.monotonic() + timeout)
                if line is None:
                    return
                self._waiting.append(_notification(line))
            notice = self._waiting.popleft()
            if notice.name == "exit":
                self.exited = " ".join(notice.args)
            yield notice

    def wait_for(self, name: str, timeout: float | None = None) -> Notification:
        """The next notification called `name` (those before it are dropped)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while (left := deadline - time.monotonic()) > 0:
            for notice in self.notifications(left):
                if notice.name == name:
                    return notice
        raise ControlError(f"no %{name} within the time allowed")

    def close(self) -> None:
        """Leave (an empty line), as the client's %exit says; the process is waited for."""
        if self._process.poll() is None and self._process.stdin is not None:
            try:
                self._write(b"\n")
                self._process.stdin.close()
            except (BrokenPipeError, ValueError, ControlError):
                pass  # closed already, or the client gone
        deadline = time.monotonic() + self.timeout
        while (line := self._line(deadline)) is not None:  # to its %exit and the end
            notice = _notification(line)
            self._waiting.append(notice)
            if notice.name == "exit":
                self.exited = " ".join(notice.args)
        if self._process.poll() is None:
            try:
                self._process.wait(self.timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()

    # --- reading ------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        stdin = self._process.stdin
        if stdin is None or self._process.poll() is not None:
            raise ControlError("the control client has exited")
        stdin.write(data)
        stdin.flush()

    def _block(self) -> list[str]:
        """The next block's lines; the notifications before it kept for later."""
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._line(deadline)
            if line is None:
                raise ControlError("no answer from the control client")
            if line.startswith(b"%begin "):
                break
            self._waiting.append(_notification(line))
        lines: list[bytes] = []
        while True:
            line = self._line(deadline)
            if line is None:
                raise ControlError("the control client ended inside a block")
            if line.startswith((b"%end ", b"%error ")):
                text = [each.decode("utf-8", "replace") for each in lines]
                if line.startswith(b"%error "):
                    raise ControlError(text[-1] if text else "command failed", text)
                return text
            lines.append(line)

    def _line(self, deadline: float) -> bytes | None:
        """The next line (a -CC client's DCS left out), None at the deadline or the end."""
        stdout = self._process.stdout
        if stdout is None or stdout.closed:
            return None
        while (end := self._buffer.find(b"\n")) < 0:
            left = max(0.0, deadline - time.monotonic())  # 0: what has come already
            if not select.select([stdout], [], [], left)[0]:
                return None
            data = os.read(stdout.fileno(), 65536)
            if not data:
                return None
            self._buffer += data
        line = bytes(self._buffer[:end]).removeprefix(b"\033P1000p").removesuffix(b"\r")
        del self._buffer[:end + 1]
        return line
