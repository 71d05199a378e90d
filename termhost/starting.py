"""Starting a server: what the first command that needs one does (new-session,
start-server...), for the thin client (termhost.front) and the full one (mux.client) alike.

A cold `new-session -d` is a start-up race against tmux's 20 ms, so this module imports
nothing termhost's thin path does not (os, sys, _socket, fcntl, the socket rules) until it
spawns, and the server itself starts without `site`: its interpreter is given this
process's import path (termhost's own directory first, then site-packages) on its command
line, not through PYTHONPATH, which the panes would inherit.
"""

from __future__ import annotations

import fcntl
import os
import sys

from termhost import sockets

TYPE_CHECKING = False  # typing itself costs a thin command line; mypy reads the name
if TYPE_CHECKING:
    from _socket import socket
    from collections.abc import Mapping

__all__ = ["ServerStartError", "default_config", "start_server"]

START_TIMEOUT = 10.0
"""Seconds a starting server has to listen before the command gives up."""

_BOOT = "\n".join([
    "import sys",
    "sys.path[:0] = sys.argv.pop(1).split(':')",
    "try:",
    "    import termhost.serve as serve",
    "except ImportError:  # a package only site's .pth files place",
    "    import site",
    "    site.main()",
    "    import termhost.serve as serve",
    "sys.exit(serve.main(sys.argv[1:]))",
])
"""The server's interpreter's program (-S -P -c): the import path first, then
termhost.serve's main with the rest of the command line."""


class ServerStartError(Exception):
    """The server could not be started; one line for the user."""


def default_config(env: Mapping[str, str]) -> str | None:
    """The configuration a server starts with when -f names none: termhost's own
    `$XDG_CONFIG_HOME/termhost/config.toml` (~/.config by default) when it exists, else
    the tmux configuration tmux 3.3a would read (~/.tmux.conf,
    `$XDG_CONFIG_HOME/tmux/tmux.conf`, ~/.config/tmux/tmux.conf: the first there is), so
    that a tmux user's setup simply works."""
    home = env.get("HOME") or os.path.expanduser("~")
    config_home = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    for path in (os.path.join(config_home, "termhost", "config.toml"),
                 os.path.join(home, ".tmux.conf"),
                 os.path.join(config_home, "tmux", "tmux.conf"),
                 os.path.join(home, ".config", "tmux", "tmux.conf")):
        if os.path.isfile(path):
            return path
    return None


def start_server(path: str, config: str | None) -> socket:
    """Start a server for `path` (running the tmux commands in the file `config` first)
    unless another command just did; a connection to it. Starting is serialised with a
    lock file beside the socket, so two commands racing to start one give one server."""
    directory = os.path.dirname(path)
    if directory == sockets.socket_dir(os.environ):
        sockets.ensure_socket_dir(directory)
    lock = os.open(f"{path}.lock", os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return sockets.connect(path)  # another command started it while we waited
        except (FileNotFoundError, ConnectionRefusedError):
            pass
        ready, told = os.pipe2(os.O_CLOEXEC)
        try:
            logged = _log_size(path)
            pid = _spawn(path, config, told)
        finally:
            os.close(told)
        try:
            return _first_connection(path, pid, ready, logged)
        finally:
            os.close(ready)
    finally:
        os.close(lock)


def _spawn(path: str, config: str | None, ready: int) -> int:
    """The server process, in a session of its own (it outlives this command), its
    output appended to the log beside the socket, told to write a line to the pipe
    `ready` once it listens (serve.py's --ready); its pid."""
    from termhost.process.native import spawn_native  # ctypes: only a start pays for it

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # sys.path[0] is where this command was started from (a script's directory, the
    # current one for -m and -c): not a place the server should import from
    inherited = sys.path if sys.flags.safe_path else sys.path[1:]
    entries = dict.fromkeys([root, *(entry for entry in inherited if os.path.isabs(entry))])
    options = ["--config", os.path.abspath(config)] if config else []
    argv = [sys.executable, "-S", "-P", "-c", _BOOT, ":".join(entries), "--socket", path,
            "--ready", str(ready), *options]
    log = os.open(f"{path}.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
    null = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return spawn_native(os.fsencode(sys.executable), [os.fsencode(arg) for arg in argv],
                            os.environb, stdio=(null, log, log), keep_fds=[ready],
                            setsid=True)
    finally:
        os.close(log)
        os.close(null)


def _log_size(path: str) -> int:
    try:
        return os.stat(f"{path}.log").st_size
    except OSError:
        return 0


def _last_words(path: str, offset: int) -> str:
    """The last line a server that just failed wrote to its log (from `offset`, where
    the log ended as it started), for the error; "" if it wrote none."""
    try:
        with open(f"{path}.log", "rb") as log:
            log.seek(offset)
            lines = log.read(65536).decode(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return lines[-1].removeprefix("termhost server: ") if lines else ""


def _first_connection(path: str, pid: int, ready: int, logged: int) -> socket:
    """A connection to the server `pid` once it says it listens (a line on the pipe
    `ready`); an error with its last words and its log's name when it exits first (the
    pipe ends with no line) or takes longer than START_TIMEOUT. `logged`: the log's
    size before the server started."""
    from select import select

    if not select([ready], [], [], START_TIMEOUT)[0]:
        raise ServerStartError(f"the server did not start within {START_TIMEOUT:.0f} s: "
                               f"see {path}.log")
    if not os.read(ready, 1):
        os.waitpid(pid, os.WNOHANG)  # reaped if it is gone; a server still starting is not
        said = _last_words(path, logged)
        raise ServerStartError(f"the server exited as it started: {said + ' ' if said else ''}"
                               f"(see {path}.log)")
    return sockets.connect(path)
