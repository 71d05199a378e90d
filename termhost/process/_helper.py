"""The spawn helper: a fresh, single-threaded interpreter that sets up a child, then execs.

The termhost server is threaded, so it never runs Python between fork and exec. It starts
this file instead, as `python -I -S _helper.py --termhost-run-as-process-setup FD PPID MODE
KEEP CWD PROGRAM ARG0 ARGS...`, with an empty environment, and sends the target's
environment over the control socket FD. This program does the setup that has to happen in
the child (new session, controlling terminal, signal reset, parent-death signal) and execs.

Report on FD: one 0x00 byte once setup is done; then either EOF (FD is close-on-exec, so a
successful exec closes it) or a little-endian int32 errno. No bytes at all means the target
never ran. Nothing is ever printed: argv and the environment may hold secrets.

Standard library only, and only what is cheap to import (`posix`, `_signal`, `errno`; fcntl
and termios in pty mode; `_ctypes` for prctl), because every pane start pays for it.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # no stub; `signal` would import enum, 4 ms a start
import errno
import posix
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing imports enum, re, functools...: 10 ms on every pane start
    from typing import NoReturn

MARKER = "--termhost-run-as-process-setup"
MAX_ENV_BYTES = 8 * 1024 * 1024
REPORT_PREFIX = b"\x00"
EXIT_FAILED = 127
PR_SET_PDEATHSIG = 1
DEFAULT_PATH = b"/bin:/usr/bin"


class _Control:
    """The helper's end of the control socket, remembering whether the prefix went out."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.prefix_sent = False

    def send_prefix(self) -> None:
        _write_all(self.fd, REPORT_PREFIX)
        self.prefix_sent = True

    def fail(self, code: int) -> NoReturn:
        try:
            if not self.prefix_sent:
                self.send_prefix()
            _write_all(self.fd, code.to_bytes(4, "little", signed=True))
        except OSError:
            pass  # the parent is gone: nobody is left to tell
        posix._exit(EXIT_FAILED)


def main(argv: list[str]) -> NoReturn:
    """Run the setup described by `argv` (sys.argv) and exec the target."""
    try:
        if argv[1] != MARKER:
            raise ValueError(argv[1])
        fd = int(argv[2])
        if fd <= 2:
            raise ValueError(fd)
        posix.fstat(fd)
    except (IndexError, ValueError, OSError):
        posix._exit(EXIT_FAILED)  # no usable socket: no report, so the parent falls back
    control = _Control(fd)
    try:
        _setup_and_exec(control, [_fsencode(arg) for arg in argv[3:]])
    except OSError as error:
        control.fail(error.errno or errno.EIO)
    except BaseException:
        control.fail(errno.EINVAL)


def _setup_and_exec(control: _Control, fields: list[bytes]) -> NoReturn:
    if len(fields) < 6:
        raise ValueError("missing fields")
    parent_pid = int(fields[0])
    mode = fields[1]
    keep = {int(fd) for fd in fields[2].split(b",") if fd}
    cwd, program, argv = fields[3], fields[4], fields[5:]
    if mode not in (b"pty", b"pipe") or any(fd <= 2 for fd in keep):
        raise ValueError("bad mode or kept fd")

    posix.set_inheritable(control.fd, False)
    _default_signals()
    if mode == b"pty":
        _become_terminal_session()
    else:
        try:
            posix.setsid()
        except PermissionError:
            posix.setpgid(0, 0)
    _die_with_parent(parent_pid)
    _close_on_exec_except(keep)
    env = _read_environment(control.fd)
    control.send_prefix()
    if cwd != b".":
        posix.chdir(cwd)
    _execvpe(program, argv, env)


def _default_signals() -> None:
    """Every signal at its default and none blocked, in both modes: an ignored signal
    survives exec. CPython ignores SIGPIPE and SIGXFSZ itself, and whatever started
    termhost may have ignored more (a background job ignores SIGINT and SIGQUIT)."""
    for signum in range(1, _signal.NSIG):
        try:
            _signal.signal(signum, _signal.SIG_DFL)
        except (OSError, ValueError):
            pass  # SIGKILL, SIGSTOP and glibc's own 32 and 33 cannot be set
    _signal.pthread_sigmask(_signal.SIG_SETMASK, [])


def _become_terminal_session() -> None:
    """New session, fd 0 as controlling tty."""
    import fcntl
    import termios

    posix.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _die_with_parent(parent_pid: int) -> None:
    """PR_SET_PDEATHSIG(SIGTERM), then catch a parent that died before it took effect."""
    import _ctypes

    class _Int(_ctypes._SimpleCData):  # type: ignore[type-arg]
        _type_ = "i"

    class _ULong(_ctypes._SimpleCData):  # type: ignore[type-arg]
        _type_ = "L"

    class _Function(_ctypes.CFuncPtr):
        _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
        _restype_ = _Int

    main_program = _ctypes.dlopen(None)  # type: ignore[arg-type]  # NULL: this process
    prctl = _Function(_ctypes.dlsym(main_program, "prctl"))
    prctl.argtypes = (_Int, _ULong, _ULong, _ULong, _ULong)
    if prctl(PR_SET_PDEATHSIG, _signal.SIGTERM, 0, 0, 0) != 0:
        raise OSError(_ctypes.get_errno(), "prctl")
    if posix.getppid() != parent_pid:
        _signal.raise_signal(_signal.SIGTERM)
        posix._exit(EXIT_FAILED)


def _close_on_exec_except(keep: set[int]) -> None:
    """Everything but 0-2 and `keep` closes on exec; a kept fd that is not open is EBADF."""
    for name in posix.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd not in keep:
            try:
                posix.set_inheritable(fd, False)
            except OSError:
                pass  # the fd of the listing itself, closed by now
    for fd in keep:
        posix.set_inheritable(fd, True)


def _read_environment(fd: int) -> dict[bytes, bytes]:
    size = int.from_bytes(_read_exact(fd, 4), "little")
    if size > MAX_ENV_BYTES:
        raise OSError(errno.E2BIG, "environment too large")
    env: dict[bytes, bytes] = {}
    for entry in _read_exact(fd, size).split(b"\0")[:-1]:
        key, equals, value = entry.partition(b"=")
        if not equals:
            raise OSError(errno.EINVAL, "environment entry without '='")
        env[key] = value
    return env


def _execvpe(program: bytes, argv: list[bytes], env: dict[bytes, bytes]) -> NoReturn:
    """execvpe with the target's PATH, reporting errors the way os.execvpe does."""
    if b"/" in program:
        posix.execve(program, argv, env)
    saved: OSError | None = None
    last: OSError = FileNotFoundError(errno.ENOENT, "not found")
    for directory in env.get(b"PATH", DEFAULT_PATH).split(b":"):
        try:
            posix.execve((directory or b".") + b"/" + program, argv, env)
        except (FileNotFoundError, NotADirectoryError) as error:
            last = error
        except OSError as error:
            last = error
            saved = saved or error
    raise saved or last


def _read_exact(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size:
        chunk = posix.read(fd, min(size, 1 << 20))
        if not chunk:
            raise OSError(errno.EPIPE, "control socket closed")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[posix.write(fd, data) :]


def _fsencode(arg: str) -> bytes:
    return arg.encode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())


if __name__ == "__main__":
    main(sys.argv)
