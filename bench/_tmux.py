"""A private tmux server for the benchmarks' tmux reference figures.

The project's benchmarks print tmux's figure from the same run beside termhost's, so each
of them drives a tmux server of its own. It must not be the user's: it gets its own socket
(`-L bench-NAME-PID`, so two benchmarks running at once do not share one either), no
configuration (`-f /dev/null`, so nobody's .tmux.conf changes the figures) and an
environment without TMUX (so a benchmark started inside a tmux does not talk to that one).
`stop()` kills the server and removes the socket file tmux leaves behind, so a run leaves
nothing in /tmp/tmux-UID/.

What a benchmark measures stays in its script: subclass `PrivateTmux` there, or pass one to
the script's functions.
"""

from __future__ import annotations

import os
import subprocess
from types import TracebackType
from typing import Self


def environment() -> dict[str, str]:
    """This process's environment without TMUX, for tmux clients and what runs them."""
    # In case this runs inside a tmux: a client that finds TMUX talks to that server.
    return {key: value for key, value in os.environ.items() if key != "TMUX"}


class PrivateServer:
    """What a private multiplexer server of a benchmark has, tmux's or termhost's: the
    command line that reaches it (`base`), its clients' environment, and a context that
    starts and stops it."""

    base: list[str]
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 30) -> str:
        """Run one command on this server; its stdout. Raises if it fails."""
        result = subprocess.run(
            [*self.base, *args],
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=True,
            text=True,
            timeout=timeout,
        )
        return result.stdout

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()  # start() may have got as far as a server
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


class PrivateTmux(PrivateServer):
    """A tmux server of one benchmark, holding one idle COLSxROWS session once started.

    Usable as a context manager (start on entry, stop on exit), or through `start()` and
    `stop()`; `stop()` is safe whether or not a server was started, also by someone else
    on the same socket (a `tmux new-session` client that a benchmark runs itself).
    """

    def __init__(
        self,
        name: str,
        *,
        executable: str = "tmux",
        cols: int = 80,
        rows: int = 24,
        history_limit: int | None = None,
    ) -> None:
        self.executable = executable
        self.socket = f"bench-{name}-{os.getpid()}"
        """The socket's name (`-L`), for tmux clients that a pane runs."""
        self.cols, self.rows = cols, rows
        self.history_limit = history_limit
        self.base = [executable, "-L", self.socket, "-f", "/dev/null"]
        """The start of every command line for this server."""
        self.env = environment()
        self.socket_path: str | None = None

    def start(self) -> None:
        # A server needs a session to stay up: this one sleeps, and new windows go beside it.
        size = ["-x", str(self.cols), "-y", str(self.rows)]
        self.run("new-session", "-d", *size, "-s", "idle", "sleep 1000")
        self.socket_path = self.run("display-message", "-p", "#{socket_path}").strip() or None
        if self.history_limit is not None:
            self.run("set-option", "-g", "history-limit", str(self.history_limit))
        # No client is attached, so new windows take this size (the session's is the same).
        self.run("set-option", "-g", "default-size", f"{self.cols}x{self.rows}")

    def stop(self) -> None:
        if self.socket_path is None:
            # Not started here (or start() failed half-way): ask a server that may be there.
            try:
                self.socket_path = self.run("display-message", "-p", "#{socket_path}").strip()
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                pass  # no server: tmux has removed the socket file, or never made one
        try:
            self.run("kill-server")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass  # no server left to kill (it never started, or already exited)
        if self.socket_path:
            try:
                os.unlink(self.socket_path)  # tmux leaves its socket file behind
            except FileNotFoundError:
                pass
        self.socket_path = None
