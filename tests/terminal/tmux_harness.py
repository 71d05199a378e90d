"""tmux as the reference terminal: bytes in, the screen tmux shows and its cursor out.

One private tmux server (its own socket, no config file) serves a whole test session.
Each screen is a fresh detached session of exactly the asked size, whose only program
puts its tty in raw mode (so the line discipline passes the bytes through untouched:
no \\n -> \\r\\n) and cats the bytes; once tmux has read them all, the harness reads the
pane back with capture-pane and the cursor with display.
"""

from __future__ import annotations

import itertools
import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tests.conftest import BASE_ENV, DEADLINE, wait_until

__all__ = ["TmuxError", "TmuxTerminal"]


class TmuxError(RuntimeError):
    """tmux failed, or showed a pane other than the one asked for."""


class TmuxTerminal:
    """A private tmux server that renders byte sequences on panes of any size."""

    def __init__(self, name: str | None = None) -> None:
        program = shutil.which("tmux")
        if program is None:
            raise TmuxError("tmux is not installed: install it (.ci/run does) to compare with it")
        self.program = program
        self.name = name or f"termhost-diff-{os.getpid()}"
        self._files = Path(tempfile.mkdtemp(prefix="termhost-diff-"))
        self._cases = itertools.count()
        # TMUX unset: a test run inside tmux must not reach the user's server.
        self._env = {**BASE_ENV, "LANG": "C.UTF-8", "HOME": str(self._files)}
        # The holder session keeps the server alive between cases (exit-empty would stop
        # it when a case's session is killed); the options are global, so every case's
        # session inherits them: no status line, so the pane gets all the rows.
        self._run(
            "new-session", "-d", "-s", "holder", "sleep 1000000", ";",
            "set", "-g", "status", "off", ";",
            "set", "-g", "default-shell", "/bin/sh",
        )

    def close(self) -> None:
        """Stop the server and remove the case files."""
        try:
            self._run("kill-server")
        finally:
            shutil.rmtree(self._files, ignore_errors=True)

    def tmux_screen(
        self,
        data: bytes,
        cols: int,
        rows: int,
        *,
        resize_to: Sequence[tuple[int, int]] = (),
        with_history: bool = False,
    ) -> tuple[list[str], tuple[int, int]]:
        """The screen lines (trailing blanks stripped) and 0-based cursor after `data`.

        Shows the alternate screen if `data` leaves it active, as capture-pane does.
        `resize_to` (cols, rows sizes) resizes the window to each in turn after the data,
        before the capture; `with_history` puts the scrollback's lines before the screen's.
        """
        case = next(self._cases)
        session, go = f"case-{case}", f"go-{self.name}-{case}"
        path, seen = self._files / f"{case}.bin", self._files / f"{case}.seen"
        path.write_bytes(data)
        script = (
            f"stty raw -echo; {shlex.quote(self.program)} -L {shlex.quote(self.name)} "
            f"wait-for {go}; cat {shlex.quote(str(path))}; exec sleep 1000"
        )
        # The pane waits for `go` until pipe-pane copies what the server reads from it to
        # `seen`. The server parses each chunk in the same turn of its event loop as it
        # queues the chunk for the pipe, so once `seen` holds every byte, tmux's screen
        # shows all of them. (A wait-for signalled by the pane after cat is no barrier: a
        # large file is sometimes captured half-parsed.)
        size = self._run(
            "new-session", "-d", "-s", session, "-x", str(cols), "-y", str(rows),
            "-P", "-F", "#{pane_width}x#{pane_height}", script, ";",
            "pipe-pane", "-t", session, f"cat > {shlex.quote(str(seen))}", ";",
            "wait-for", "-S", go,
        ).strip()
        try:
            if size != f"{cols}x{rows}":
                raise TmuxError(f"tmux made a {size} pane, not {cols}x{rows}")
            wait_until(lambda: _size(seen) >= len(data), what=f"tmux to read {len(data)} bytes")
            if _size(seen) != len(data):
                raise TmuxError(f"the pane wrote {_size(seen)} bytes, not the {len(data)} sent")
            for cols, rows in resize_to:
                self._resize(session, cols, rows)
            history = ["-S", "-"] if with_history else []
            out = self._run(
                "capture-pane", "-p", "-N", *history, "-t", session, ";",
                "display", "-p", "-t", session, "#{cursor_x} #{cursor_y}",
            )
        finally:
            self._run("kill-session", "-t", session)
            path.unlink()
            seen.unlink(missing_ok=True)
        *lines, position = out.split("\n")[:-1]
        if len(lines) != rows and not with_history:
            raise TmuxError(f"capture-pane gave {len(lines)} lines for a {rows}-row pane")
        x, y = position.split()
        return [line.rstrip(" ") for line in lines], (int(x), int(y))

    def _resize(self, session: str, cols: int, rows: int) -> None:
        self._run("resize-window", "-t", session, "-x", str(cols), "-y", str(rows))
        wait_until(
            lambda: self._run("display", "-p", "-t", session,
                              "#{pane_width}x#{pane_height}").strip() == f"{cols}x{rows}",
            what=f"tmux to resize to {cols}x{rows}",
        )

    def _run(self, *args: str) -> str:
        try:
            done = subprocess.run(
                [self.program, "-L", self.name, "-f", "/dev/null", *args],
                env=self._env, capture_output=True, timeout=DEADLINE, check=False,
            )
        except subprocess.TimeoutExpired as error:
            raise TmuxError(f"tmux {args[0]} took over {DEADLINE}s") from error
        if done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip()
            raise TmuxError(f"tmux {' '.join(args)} failed: {message}")
        return done.stdout.decode("utf-8", errors="replace")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:  # pipe-pane's shell has not created it yet
        return 0
