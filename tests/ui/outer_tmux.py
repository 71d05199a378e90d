"""An outer tmux, a terminal nobody here wrote, whose panes each run one client (of a
private tmux 3.3a server, or of termhost): what each client draws is read back from it
with capture-pane, so the two can be compared cell for cell."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import DEADLINE, BothServers, wait_until

PATIENCE = 3 * DEADLINE
"""Seconds for both clients to start and draw (termhost's client starts Python)."""


class Outer:
    """A private tmux whose sessions each run one client: the terminal both are seen in."""

    def __init__(self, tmp_path: Path, env: dict[str, str]) -> None:
        self.argv = ["tmux", "-S", str(tmp_path / "outer"), "-f", "/dev/null"]
        self.env = {**env, "LANG": "C.UTF-8"}

    def run(self, *args: str) -> str:
        return subprocess.run([*self.argv, *args], env=self.env, capture_output=True,
                              text=True, timeout=DEADLINE, check=True).stdout

    def show(self, name: str, client: list[str], width: int, height: int) -> None:
        """Session `name` of the outer tmux running `client`; a tmux client is waited
        for until it has settled."""
        self.run("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height),
                 shlex.join(client), ";", "set", "-g", "remain-on-exit", "on")
        if client[0] == "tmux" and "attach" in client:
            self.settle(name, client[:client.index("attach")])

    def settle(self, name: str, server: list[str]) -> None:
        """Wait until the tmux client in session `name` has had the outer terminal's
        answers to its queries (XTVERSION sets #{client_termtype}) from its `server`
        (argv): until then tmux 3.3a is still taking in the terminal's features, and a
        key typed into it meanwhile can go astray."""
        tty = self.run("display", "-p", "-t", name, "#{pane_tty}").strip()

        def answered() -> bool:
            listed = subprocess.run(
                [*server, "list-clients", "-F", "#{client_tty} #{client_termtype}"],
                env=self.env, capture_output=True, text=True, timeout=DEADLINE).stdout
            return any(line.startswith(f"{tty} ") and line != f"{tty} "
                       for line in listed.splitlines())

        wait_until(answered, PATIENCE, f"tmux's client in {name} to learn its terminal")

    def last_line(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-e", "-t", name).rstrip("\n").split("\n")[-1]

    def kill(self) -> None:
        subprocess.run([*self.argv, "kill-server"], env=self.env, capture_output=True,
                       timeout=DEADLINE, check=False)


CLIENTS = {"tmux": ["tmux", "-L", "reference", "attach", "-t", "s"],
           "termhost": [sys.executable, "-m", "termhost", "attach", "-t", "s"]}


def attach_both(both: BothServers, outer: Outer, width: int = 60,
                height: int = 8) -> dict[str, str]:
    """A session s and a client of it for each server, drawn; their ttys. Paste
    detection is off (assume-paste-time 0): keys sent one at a time may still reach a
    loaded tmux in one read, which it would take for a paste and type into the pane."""
    ttys = {}
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-n", "w", "sleep 1000", ";",
                        "set", "-g", "assume-paste-time", "0").returncode == 0
        outer.show(name, CLIENTS[name], width, height)
        wait_until(lambda name=name: "[s]" in status_text(outer, name),  # type: ignore[misc]
                   what=f"{name}'s client to draw", timeout=PATIENCE)
        ttys[name] = outer.run("display", "-p", "-t", name, "#{pane_tty}").strip()
    return ttys


def status_text(outer: Outer, name: str) -> str:
    """The client's last line, as text."""
    return outer.run("capture-pane", "-p", "-t", name).rstrip("\n").split("\n")[-1].rstrip()


def shows(outer: Outer, name: str, text: str) -> None:
    """Wait for the client's last line to read `text`."""
    wait_until(lambda: status_text(outer, name) == text,
               what=f"{name}'s status line to read {text!r} "
                    f"(it reads {status_text(outer, name)!r})")


def agreed(read: Callable[[str], list[str]], what: str,
           ready: Callable[[list[str]], bool] = lambda _: True) -> list[str]:
    """What both clients show (`read(name)`, name tmux or termhost) once tmux's is
    `ready` and termhost's is the same; the assertion shows both if they never agree."""
    seen: dict[str, list[str]] = {}

    def agree() -> bool:
        seen.update({name: read(name) for name in CLIENTS})
        return ready(seen["tmux"]) and seen["tmux"] == seen["termhost"]

    try:
        wait_until(agree, PATIENCE, what)
    except pytest.fail.Exception:
        pass
    assert seen["termhost"] == seen["tmux"], f"{what}: {seen}"
    return seen["tmux"]


_SGR = re.compile(r"\x1b\[[0-9;]*m")
_RESETS = ("\x1b[0m", "\x1b[39m", "\x1b[49m", "\x1b[39;49m")


def _normal(row: str) -> str:
    """A row of capture-pane -e -N written the same whether a run of coloured blanks was
    drawn as spaces or erased in that colour (tmux's tty erases where it can), and
    whatever the terminal did with the default-coloured rest of the row: no blanks in
    the default colours, nor returns to them, at its end or its start."""
    changes = _SGR.findall(row)
    if not changes or changes[-1] in _RESETS:
        row = row.rstrip(" ")
        while row.endswith(_RESETS):
            row = row[:row.rindex("\x1b")]
    while row.startswith(_RESETS):
        row = row[row.index("m") + 1:]
    return row


def screen(outer: Outer, name: str) -> list[str]:
    """What the client shows, row by row, with its colours (coloured blanks kept)."""
    rows = outer.run("capture-pane", "-p", "-e", "-N", "-t", name).rstrip("\n").split("\n")
    return [_normal(row) for row in rows]
