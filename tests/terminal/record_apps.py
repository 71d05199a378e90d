"""Record real programs on an 80x24 PTY: the sessions test_vs_tmux.py replays.

Run by hand from the repository root, then commit what it writes to tests/data/:

    .venv/bin/python -m tests.terminal.record_apps            # all of them
    .venv/bin/python -m tests.terminal.record_apps vim less   # some

Each program runs through termhost.process.spawn_in_pty with a fixed small environment.
Keys go to the PTY master; after each, the recorder waits (deadline-bound) for the
program's answer to show on a plain pyte screen, then for its output to pause, and notes
how many bytes it had read by then: a step. `<app>.bin` holds every byte read from the
master until the program exited (EOF); `<app>.json` the steps, as byte offsets into it.
Queries the programs send (DA, cursor position) go unanswered, as on a dumb terminal.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pyte

from termhost.process import Child, Command, kill_process_group, spawn_in_pty
from tests.conftest import BASE_ENV, eventually

DATA = Path(__file__).parent.parent / "data"
COLS, ROWS = 80, 24
QUIET = 0.3
"""Seconds without output after which a program is taken to have finished redrawing."""

UP, ESCAPE, BACKSPACE = b"\x1b[A", b"\x1b", b"\x7f"


def ctrl(key: str) -> bytes:
    return bytes([ord(key.upper()) - 64])


class _Screen(pyte.Screen):
    """pyte's screen, taking xterm's CSI > ... m (modifyOtherKeys, vim sends it) as a no-op."""

    def select_graphic_rendition(self, *attrs: int, private: bool = False) -> None:
        if not private:
            super().select_graphic_rendition(*attrs)


class Recording:
    """One program on a PTY: every byte it writes is kept and drawn on a pyte screen."""

    def __init__(self, child: Child, master: int) -> None:
        self.child, self.master = child, master
        self.data = bytearray()
        self.steps: list[tuple[str, int]] = []
        self.screen = _Screen(COLS, ROWS)
        self._stream = pyte.ByteStream(self.screen)
        self.ended = False
        self._last_output = time.monotonic()
        asyncio.get_running_loop().add_reader(master, self._read)

    def _read(self) -> None:
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: the program and everything it started are gone
            chunk = b""
        if not chunk:
            asyncio.get_running_loop().remove_reader(self.master)
            self.ended = True
            return
        self.data += chunk
        self._stream.feed(chunk)
        self._last_output = time.monotonic()

    def shows(self, text: str) -> bool:
        return any(text in line for line in self.screen.display)

    def last_line(self) -> str:
        return self.screen.display[-1]

    async def step(self, keys: bytes, until: Callable[[], object], what: str) -> None:
        """Type `keys`, wait for `until`, then for the output to pause; note the offset."""
        if keys:
            os.write(self.master, keys)
        await eventually(until, what=what)
        await eventually(
            lambda: time.monotonic() - self._last_output > QUIET or self.ended,
            what=f"the output to pause after {what}",
        )
        self.steps.append((what, len(self.data)))

    async def finish(self, keys: bytes) -> None:
        """Type `keys`, which make the program exit; read to EOF and reap it."""
        os.write(self.master, keys)
        await eventually(lambda: self.ended, what="the program to exit")
        await self.child.wait()
        self.steps.append(("exited", len(self.data)))


async def vim(session: Recording) -> None:
    await session.step(b"", lambda: session.shows('"notes.txt" 3L'), "vim showing notes.txt")
    await session.step(b":set number ruler\r", lambda: session.shows("  1 alpha one"),
                       ":set number ruler")
    await session.step(b"Go", lambda: session.shows("-- INSERT --"), "o: insert mode")
    await session.step("delta four\repsilon 中文 five\rzeta six".encode(),
                       lambda: session.shows("zeta six"), "three lines typed")
    await session.step(ESCAPE, lambda: not session.shows("-- INSERT --"), "Escape")
    await session.step(b"gg", lambda: "1,1" in session.last_line(), "gg")
    await session.step(b"2jw", lambda: "3,7" in session.last_line(), "2jw")
    await session.step(b"$", lambda: "3,11" in session.last_line(), "$")
    await session.step(b"3j", lambda: "6,8" in session.last_line(), "3j")
    await session.finish(b":q!\r")


async def less(session: Recording) -> None:
    await session.step(b"", lambda: session.shows("line 023"), "less showing the first page")
    await session.step(b" ", lambda: session.shows("line 046"), "space: page two")
    await session.step(b" ", lambda: session.shows("line 069"), "space: page three")
    await session.step(b"/needle\r", lambda: session.screen.display[0].startswith("line 150"),
                       "/needle")
    await session.finish(b"q")


async def top(session: Recording) -> None:
    await session.step(b"", lambda: session.shows("load average"), "top's first frame")
    await session.step(b"", lambda: session.data.count(b"top - ") >= 2, "top's second frame")
    await session.finish(b"q")


async def bash(session: Recording) -> None:
    prompt = "rec$ "
    await session.step(b"", lambda: session.shows(prompt), "the prompt")
    await session.step(b"echo world", lambda: session.shows(prompt + "echo world"), "typing")
    await session.step(ctrl("a") + ctrl("f") * 5 + b"hello ",
                       lambda: session.shows(prompt + "echo hello world"), "C-a, C-f, insert")
    await session.step(ctrl("e") + b" again", lambda: session.shows("hello world again"),
                       "C-e, append")
    await session.step(b"\r", lambda: sum(line.startswith(prompt) for line in
                                          session.screen.display) == 2, "run it")
    await session.step(UP, lambda: sum(line.startswith(prompt + "echo hello world again")
                                       for line in session.screen.display) == 2, "Up: history")
    await session.step(BACKSPACE * 5 + b"once more",
                       lambda: session.shows(prompt + "echo hello world once more"),
                       "Backspace, retype")
    await session.step(b"\r", lambda: session.shows("hello world once more"), "run it again")
    await session.finish(b"exit\r")


async def record(app: str, home: Path) -> Recording:
    notes = home / "notes.txt"
    notes.write_text("alpha one\nbeta two\ngamma three\n")
    words = home / "words.txt"
    words.write_text("".join(
        f"line {n:03} {'needle in the haystack' if n == 150 else 'hay ' * (n % 12)}\n"
        for n in range(1, 201)
    ))
    env = {**BASE_ENV, "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": str(home)}
    commands = {
        "vim": Command("vim", ["-u", "NONE", "-i", "NONE", "-N", notes.name], env=env,
                       cwd=str(home)),
        "less": Command("less", [str(words)], env={**env, "LESSHISTFILE": "-"}),
        "top": Command("top", ["-d", "1"], env=env),
        "bash": Command("bash", ["--norc", "--noprofile", "-i"], env={**env, "PS1": "rec$ "},
                        cwd=str(home)),
    }
    scripts: dict[str, Callable[[Recording], Awaitable[None]]] = {
        "vim": vim, "less": less, "top": top, "bash": bash,
    }
    child, master = await spawn_in_pty(commands[app], COLS, ROWS)
    session = Recording(child, master)
    try:
        await scripts[app](session)
    finally:
        if not session.ended:
            asyncio.get_running_loop().remove_reader(master)
            kill_process_group(child.pid)
            await child.wait()
        os.close(master)
    return session


def version(app: str) -> str:
    flag = {"top": "-V"}.get(app, "--version")
    out = subprocess.run([app, flag], capture_output=True, text=True, check=False).stdout
    return out.splitlines()[0].strip() if out else "unknown"


def main(apps: list[str]) -> None:
    DATA.mkdir(exist_ok=True)
    for app in apps:
        with tempfile.TemporaryDirectory(prefix=f"termhost-record-{app}-") as home:
            session = asyncio.run(record(app, Path(home)))
        (DATA / f"{app}.bin").write_bytes(session.data)
        steps = [{"after": what, "offset": offset} for what, offset in session.steps]
        meta = {"cols": COLS, "rows": ROWS, "program": version(app), "steps": steps}
        (DATA / f"{app}.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
        print(f"{app}: {len(session.data)} bytes, {len(steps)} steps ({meta['program']})")


if __name__ == "__main__":
    main(sys.argv[1:] or ["vim", "less", "top", "bash"])
