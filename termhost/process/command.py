"""What to run: a program, its arguments, its exact environment, and the fds it gets.

Every launcher (the spawn helper, the direct fallback, the capture guard) takes a
`Command`, so validation and encoding happen once, before anything is started.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["MAX_ENV_BYTES", "Command", "EncodedCommand", "resolve_program"]

MAX_ENV_BYTES = 8 * 1024 * 1024
"""Largest environment block (all `KEY=VALUE\\0` entries) a launch accepts, as the helper."""


@dataclass(frozen=True)
class Command:
    """A program to start, described completely: nothing is taken from `os.environ`.

    `env` is the target's whole environment. `stdin`, `stdout`, `stderr` are fds of ours
    that become the target's 0, 1, 2 (None: the child inherits ours). `keep_fds` are
    further fds the target inherits under the same numbers; every other fd is closed.
    """

    program: str
    args: Sequence[str] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    argv0: str | None = None
    stdin: int | None = None
    stdout: int | None = None
    stderr: int | None = None
    keep_fds: Sequence[int] = ()

    def encode(self) -> EncodedCommand:
        """Check every field and turn it into the bytes the kernel will see.

        Raises ValueError naming the field for a NUL byte or a malformed variable name,
        and OSError(E2BIG) for an environment over MAX_ENV_BYTES.
        """
        program = _encode("program", self.program)
        if not program:
            raise ValueError("program is empty")
        argv0 = _encode("argv0", self.argv0) if self.argv0 is not None else program
        args = [_encode(f"args[{i}]", arg) for i, arg in enumerate(self.args)]
        cwd = _encode("cwd", self.cwd) if self.cwd is not None else None
        env: dict[bytes, bytes] = {}
        for key, value in self.env.items():
            name = _encode(f"environment variable name {key!r}", key)
            if not name or b"=" in name:
                raise ValueError(f"environment variable name {key!r} is empty or contains '='")
            env[name] = _encode(f"environment variable {key}", value)
        block = b"".join(k + b"=" + v + b"\0" for k, v in env.items())
        if len(block) > MAX_ENV_BYTES:
            raise OSError(
                errno.E2BIG,
                f"environment is {len(block)} bytes, over the {MAX_ENV_BYTES} byte limit",
            )
        for fd in self.keep_fds:
            if fd <= 2:
                raise ValueError(f"keep_fds holds {fd}: fds 0-2 are set with stdin/stdout/stderr")
        return EncodedCommand(
            program=program,
            argv=[argv0, *args],
            cwd=cwd,
            env=env,
            env_block=block,
            stdio=(self.stdin, self.stdout, self.stderr),
            keep_fds=tuple(self.keep_fds),
        )


@dataclass(frozen=True)
class EncodedCommand:
    """A validated Command in bytes, ready for posix_spawn or the helper's socket."""

    program: bytes
    argv: list[bytes]
    cwd: bytes | None
    env: dict[bytes, bytes]
    env_block: bytes
    stdio: tuple[int | None, int | None, int | None]
    keep_fds: tuple[int, ...]

    @property
    def program_name(self) -> str:
        """The program as the user wrote it, for error messages."""
        return os.fsdecode(self.program)


def resolve_program(command: EncodedCommand) -> bytes:
    """Find the program the way `execvpe` would, in the *target's* PATH.

    posix_spawnp searches the caller's PATH, which is the wrong one: the target's
    environment is not ours.
    """
    if b"/" in command.program:
        return command.program
    path = command.env.get(b"PATH", os.fsencode(os.defpath))
    for directory in path.split(b":"):
        candidate = os.path.join(directory or b".", command.program)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError(
        errno.ENOENT, f"{os.strerror(errno.ENOENT)} in PATH", command.program_name
    )


def _encode(what: str, value: str) -> bytes:
    encoded = os.fsencode(value)
    if b"\0" in encoded:
        raise ValueError(f"{what} contains a NUL byte")
    return encoded
