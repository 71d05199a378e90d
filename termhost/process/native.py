"""posix_spawn with our fds and cwd in place: the one way this package starts a process.

The server is threaded, so it never runs Python between fork and exec; glibc's
posix_spawn (CLONE_VFORK) runs only the kernel-level steps listed here. Python makes
every fd close-on-exec, so the child gets exactly the fds these actions name.

This calls libc through ctypes rather than `os.posix_spawn`, because the latter has no
chdir action (glibc's `posix_spawn_file_actions_addchdir_np`), and a pane or a capture
started in the user's directory needs one.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import signal
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["spawn_native"]

# <spawn.h> flags (glibc).
_SETPGROUP = 0x02
_SETSIGDEF = 0x04
_SETSIGMASK = 0x08
_SETSID = 0x80

_OPAQUE_SIZE = 1024  # larger than glibc's posix_spawnattr_t (336) and file actions (80)
_SIGSET_WORDS = 128 // ctypes.sizeof(ctypes.c_ulong)
_WORD_BITS = 8 * ctypes.sizeof(ctypes.c_ulong)

# Signals every child gets at their defaults, whatever the caller asks: an ignored signal
# survives exec, and these are ignored here for reasons of ours, not the user's. CPython
# ignores SIGPIPE and SIGXFSZ. 32 and 33 are glibc's own (SIGCANCEL, SIGSETXID): its
# posix_spawn sets them to SIG_IGN in the child when the parent has handlers for them
# (sigaddset refuses them, hence `_sigset` sets bits directly).
_ALWAYS_DEFAULT_SIGNALS = (signal.SIGPIPE, signal.SIGXFSZ, 32, 33)

_libc = ctypes.CDLL(None, use_errno=True)
_Opaque = ctypes.c_char * _OPAQUE_SIZE
_SigSet = ctypes.c_ulong * _SIGSET_WORDS


def _function(name: str, *argtypes: type) -> ctypes._NamedFuncPointer:
    function = getattr(_libc, name)
    function.argtypes = argtypes
    function.restype = ctypes.c_int
    return function  # type: ignore[no-any-return]


_p = ctypes.c_void_p
_fa_init = _function("posix_spawn_file_actions_init", _p)
_fa_destroy = _function("posix_spawn_file_actions_destroy", _p)
_fa_dup2 = _function("posix_spawn_file_actions_adddup2", _p, ctypes.c_int, ctypes.c_int)
_fa_close = _function("posix_spawn_file_actions_addclose", _p, ctypes.c_int)
_fa_open = _function(
    "posix_spawn_file_actions_addopen", _p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
    ctypes.c_uint,
)
_fa_chdir = _function("posix_spawn_file_actions_addchdir_np", _p, ctypes.c_char_p)
_attr_init = _function("posix_spawnattr_init", _p)
_attr_destroy = _function("posix_spawnattr_destroy", _p)
_attr_flags = _function("posix_spawnattr_setflags", _p, ctypes.c_short)
_attr_pgroup = _function("posix_spawnattr_setpgroup", _p, ctypes.c_int)
_attr_sigdefault = _function("posix_spawnattr_setsigdefault", _p, _p)
_attr_sigmask = _function("posix_spawnattr_setsigmask", _p, _p)
_posix_spawn = _function(
    "posix_spawn", ctypes.POINTER(ctypes.c_int), ctypes.c_char_p, _p, _p, _p, _p
)


def spawn_native(
    path: bytes,
    argv: Sequence[bytes],
    env: Mapping[bytes, bytes],
    *,
    stdio: tuple[int | None, int | None, int | None] = (None, None, None),
    keep_fds: Iterable[int] = (),
    cwd: bytes | None = None,
    controlling_tty: bytes | None = None,
    setsid: bool = False,
    setpgroup: int | None = None,
    setsigdef: Iterable[int] = (),
    clear_sigmask: bool = False,
) -> int:
    """Start `path` with `stdio` as its fds 0-2 and `keep_fds` under their own numbers.

    A stdio source that is itself one of 0-2 (a parent whose stdin was closed gets its
    next pipe at fd 0) is first copied above 2, so one dup2 cannot clobber another's
    source. `controlling_tty`, with `setsid`, opens that terminal as fd 0 in the child:
    a session leader without a terminal acquires the first one it opens, which is how a
    fork-free spawn gets a controlling terminal. Raises OSError from the exec itself
    (glibc waits for it), with `path` as the filename.
    """
    actions, attributes = _Opaque(), _Opaque()
    temporaries: list[int] = []
    _check(_fa_init(actions))
    try:
        _check(_attr_init(attributes))
        try:
            for fd in keep_fds:
                # dup2 onto itself clears close-on-exec in the child only (glibc >= 2.29).
                _check(_fa_dup2(actions, fd, fd))
            for target, source in enumerate(stdio):
                if target == 0 and controlling_tty is not None:
                    _check(_fa_close(actions, 0))
                    _check(_fa_open(actions, 0, controlling_tty, os.O_RDWR, 0))
                    continue
                if source is None:
                    continue
                if source <= 2 and source != target:
                    source = fcntl.fcntl(source, fcntl.F_DUPFD_CLOEXEC, 3)
                    temporaries.append(source)
                _check(_fa_dup2(actions, source, target))
            if cwd is not None:
                _check(_fa_chdir(actions, cwd))
            _set_attributes(attributes, setsid, setpgroup, tuple(setsigdef), clear_sigmask)
            pid = ctypes.c_int()
            argv_array = (ctypes.c_char_p * (len(argv) + 1))(*argv, None)
            entries = [key + b"=" + value for key, value in env.items()]
            env_array = (ctypes.c_char_p * (len(entries) + 1))(*entries, None)
            code = _posix_spawn(ctypes.byref(pid), path, actions, attributes, argv_array, env_array)
            if code:
                raise OSError(code, os.strerror(code), os.fsdecode(path))
            return pid.value
        finally:
            _attr_destroy(attributes)
    finally:
        _fa_destroy(actions)
        for fd in temporaries:
            os.close(fd)


def _set_attributes(
    attributes: ctypes.Array[ctypes.c_char],
    setsid: bool,
    setpgroup: int | None,
    setsigdef: tuple[int, ...],
    clear_sigmask: bool,
) -> None:
    flags = _SETSIGDEF
    _check(_attr_sigdefault(attributes, _sigset((*setsigdef, *_ALWAYS_DEFAULT_SIGNALS))))
    if setsid:
        flags |= _SETSID
    if setpgroup is not None:
        flags |= _SETPGROUP
        _check(_attr_pgroup(attributes, setpgroup))
    if clear_sigmask:
        flags |= _SETSIGMASK
        _check(_attr_sigmask(attributes, _sigset(())))
    _check(_attr_flags(attributes, flags))


def _sigset(signals: Iterable[int]) -> ctypes.Array[ctypes.c_ulong]:
    """A sigset_t holding `signals`: bit (n - 1) of glibc's array of unsigned longs."""
    sigset = _SigSet()
    for signum in signals:
        sigset[(signum - 1) // _WORD_BITS] |= 1 << ((signum - 1) % _WORD_BITS)
    return sigset


def _check(code: int) -> None:
    """posix_spawn* functions return an error number (0 for success)."""
    if code:
        raise OSError(code, os.strerror(code))
