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
import time

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
        pid = _spawn(path, config)
        return _first_connection(path, pid)
    finally:
        os.close(lock)


def _spawn(path: str, config: str | None) -> int:
    """The server process, in a session of its own (it outlives this command), its
    output appended to the log beside the socket; its pid."""
    from termhost.process.native import spawn_native  # ctypes: only a start pays for it

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # sys.path[0] is where this command was started from (a script's directory, the
    # current one for -m and -c): not a place the server should import from
    inherited = sys.path if sys.flags.safe_path else sys.path[1:]
    entries = dict.fromkeys([root, *(entry for entry in inherited if os.path.isabs(entry))])
    options = ["--config", os.path.abspath(config)] if config else []
    argv = [sys.executable, "-S", "-P", "-c", _BOOT, ":".join(entries), "--socket", path,
            *options]
    log = os.open(f"{path}.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
    null = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return spawn_native(os.fsencode(sys.executable), [os.fsencode(arg) for arg in argv],
                            os.environb, stdio=(null, log, log), setsid=True)
    finally:
        os.close(log)
        os.close(null)


def _first_connection(path: str, pid: int) -> socket:
    """A connection to the server `pid` once it listens; an error naming its log when it
    exits first or takes longer than START_TIMEOUT."""
    deadline = time.monotonic() + START_TIMEOUT
    delay = 0.001
    while True:
        try:
            return sockets.connect(path)
        except (FileNotFoundError, ConnectionRefusedError):
            pass
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            raise ServerStartError(f"the server exited as it started: see {path}.log")
        if time.monotonic() > deadline:
            raise ServerStartError(f"the server did not start within {START_TIMEOUT:.0f} s: "
                                   f"see {path}.log")
        time.sleep(delay)  # polling the socket with a deadline, not synchronisation
        delay = min(delay * 2, 0.02)
