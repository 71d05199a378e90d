"""posix_spawn with our fds and cwd in place: the one way this package starts a process.

The server is threaded, so it never runs Python between fork and exec; glibc's
posix_spawn (CLONE_VFORK) runs only the kernel-level steps listed here.

What a child gets does not depend on what termhost inherited. Python makes its own fds
close-on-exec, but whoever started termhost may have left some open without the flag
(`exec 7</dev/null` in a shell, a CI runner's pipes): every fd above 2 that is not kept
is closed in the child, whatever its flag says. Likewise every signal is at its default
and none is blocked: a background job (`cmd &`, nohup) starts termhost with SIGINT and
SIGQUIT ignored, and an ignored signal survives exec, so a shell in a pane would shrug
off C-c. tmux resets every signal in its children for the same reason.

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

# Every signal, glibc's own 32 and 33 (SIGCANCEL, SIGSETXID) included: its posix_spawn
# sets those to SIG_IGN in the child when the parent has handlers for them unless they
# are in this set (sigaddset refuses them, hence `_sigset` sets bits directly).
# SIGKILL and SIGSTOP cannot be changed; glibc skips them.
_ALL_SIGNALS = range(1, signal.NSIG)

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
# glibc >= 2.34; before it, the fds open at the spawn are closed one by one.
_fa_closefrom = (
    _function("posix_spawn_file_actions_addclosefrom_np", _p, ctypes.c_int)
    if hasattr(_libc, "posix_spawn_file_actions_addclosefrom_np") else None
)
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
) -> int:
    """Start `path` with `stdio` as its fds 0-2 and `keep_fds` under their own numbers,
    and no other fd; every signal at its default, none blocked.

    A stdio source that is itself one of 0-2 (a parent whose stdin was closed gets its
    next pipe at fd 0) is first copied above 2, so one dup2 cannot clobber another's
    source. `controlling_tty`, with `setsid`, opens that terminal as fd 0 in the child:
    a session leader without a terminal acquires the first one it opens, which is how a
    fork-free spawn gets a controlling terminal. Raises OSError from the exec itself
    (glibc waits for it), with `path` as the filename.
    """
    actions, attributes = _Opaque(), _Opaque()
    temporaries: list[int] = []
    kept = set(keep_fds)
    _check(_fa_init(actions))
    try:
        _check(_attr_init(attributes))
        try:
            for fd in kept:
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
            _close_the_rest(actions, kept)
            if cwd is not None:
                _check(_fa_chdir(actions, cwd))
            _set_attributes(attributes, setsid, setpgroup)
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


def _close_the_rest(actions: ctypes.Array[ctypes.c_char], kept: set[int]) -> None:
    """Close, in the child, every fd above 2 but `kept`: the gaps between kept fds one by
    one, everything above the highest at once (closefrom)."""
    highest = max(kept, default=2)
    for fd in range(3, highest):
        if fd not in kept:
            _check(_fa_close(actions, fd))  # an fd that is not open is skipped by glibc
    if _fa_closefrom is not None:
        _check(_fa_closefrom(actions, highest + 1))
        return
    for name in os.listdir("/proc/self/fd"):
        if int(name) > highest:
            _check(_fa_close(actions, int(name)))


def _set_attributes(
    attributes: ctypes.Array[ctypes.c_char], setsid: bool, setpgroup: int | None
) -> None:
    flags = _SETSIGDEF | _SETSIGMASK
    _check(_attr_sigdefault(attributes, _sigset(_ALL_SIGNALS)))
    _check(_attr_sigmask(attributes, _sigset(())))
    if setsid:
        flags |= _SETSID
    if setpgroup is not None:
        flags |= _SETPGROUP
        _check(_attr_pgroup(attributes, setpgroup))
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
