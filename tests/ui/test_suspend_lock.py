"""suspend-client (C-b C-z) and lock-client, lock-session, lock-server, lock-command and
lock-after-time, as tmux 3.3a has them: a real client started from a real interactive
bash (job control on) in a real PTY, read by an emulator as the outer terminal; and
tmux and termhost side by side in an outer tmux, for what the terminal shows."""

from __future__ import annotations

import asyncio
import shlex
import sys
from collections.abc import Callable

from termhost.process import Command, spawn_in_pty
from tests.conftest import DEADLINE, BothServers, eventually, wait_until
from tests.ui.outer import Outer, client, termhost
from tests.ui.outer_tmux import PATIENCE
from tests.ui.outer_tmux import Outer as OuterTmux

CLIENT = f"{shlex.quote(sys.executable)} -m termhost"


async def _shell(env: dict[str, str]) -> Outer:
    """The outer terminal running an interactive bash with job control, prompt `outer$`."""
    command = Command("/bin/bash", ["--norc", "--noprofile", "-i"],
                      env={**env, "PS1": "outer$ ", "HISTFILE": "/dev/null"})
    child, master = await spawn_in_pty(command, 80, 24)
    return Outer(child, master, 80, 24)


def _session(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "s", "printf 'PANE-TEXT\\n'; exec cat")


def _flags(env: dict[str, str]) -> str:
    return termhost(env, "list-clients", "-F", "#{client_flags}")


async def _attached_from(shell: Outer, env: dict[str, str]) -> None:
    await shell.see(lambda s: s[0].startswith("outer$"), "bash's prompt")
    shell.type(f"{CLIENT} attach -t s\r".encode())
    await shell.see(lambda s: s[0] == "PANE-TEXT" and "[s]" in s[-1], "the pane and status")


def test_suspend_client_stops_the_client_for_the_shell_and_fg_redraws(
        env: dict[str, str]) -> None:
    """tmux's C-b C-z (suspend-client): the client leaves the alternate screen, stops
    with SIGTSTP, so bash prints its job `Stopped` and its prompt, and `jobs` lists it;
    list-clients says `suspended` meanwhile; `fg` brings the whole screen back and the
    keys go to the pane again."""
    async def scenario() -> None:
        _session(env)
        shell = await _shell(env)
        await _attached_from(shell, env)
        shell.type(b"\x02\x1a")
        screen = await shell.see(lambda s: any("Stopped" in line for line in s)
                                 and s[-1] == "" and "outer$" in "\n".join(s[2:]),
                                 "bash's Stopped line and prompt")
        assert screen[0].startswith("outer$ ") and "PANE-TEXT" not in "\n".join(screen)
        assert _flags(env) == "attached,focused,suspended,UTF-8\n"
        shell.type(b"jobs\r")
        await shell.see(lambda s: sum("Stopped" in line for line in s) == 2, "jobs' line")
        shell.type(b"fg\r")
        await shell.see(lambda s: s[0] == "PANE-TEXT" and "[s]" in s[-1], "the panes again")
        assert _flags(env) == "attached,focused,UTF-8\n"
        shell.type(b"typed\r")
        await shell.see(lambda s: s[1:3] == ["typed", "typed"], "cat's echo in the pane")
        shell.type(b"\x02d")
        await shell.see(lambda s: any("[detached (from session s)]" in line for line in s),
                        "the detach message")
        shell.close()

    asyncio.run(scenario())


def test_lock_runs_lock_command_on_the_client_terminal_then_redraws(
        env: dict[str, str]) -> None:
    """tmux's lock-session: each client of the session leaves its terminal for a cleared
    one and runs lock-command there, in its own process, taking the keys (none reach the
    pane); when it exits the client is redrawn. An empty lock-command locks nothing."""
    async def scenario() -> None:
        _session(env)
        outer = await client(env, "attach", "-t", "s")
        await outer.see(lambda s: s[0] == "PANE-TEXT" and "[s]" in s[-1], "the pane")
        termhost(env, "set", "-g", "lock-command", "")
        termhost(env, "lock-session")
        assert _flags(env) == "attached,focused,UTF-8\n"
        termhost(env, "set", "-g", "lock-command", "printf LOCKED; read x")
        termhost(env, "lock-session", "-t", "s")
        await outer.see(lambda s: s[0] == "LOCKED" and not any(s[1:]), "only LOCKED")
        assert _flags(env) == "attached,focused,suspended,UTF-8\n"
        outer.type(b"secret\r")
        await outer.see(lambda s: s[0] == "PANE-TEXT" and "[s]" in s[-1], "the pane again")
        assert _flags(env) == "attached,focused,UTF-8\n"
        assert "secret" not in termhost(env, "capture-pane", "-p", "-t", "s")
        await outer.detach()

    asyncio.run(scenario())


def test_lock_client_locks_that_client_and_lock_server_every_one(
        env: dict[str, str]) -> None:
    """tmux's lock-client -t (one client, by its tty) and lock-server (every client):
    the others go on as they were; a C-c ends a lock-command that takes it."""
    async def scenario() -> None:
        _session(env)
        first = await client(env, "attach", "-t", "s")
        await first.see(lambda s: s[0] == "PANE-TEXT", "the pane")
        second = await client(env, "attach", "-t", "s")  # attached second: listed first
        await second.see(lambda s: s[0] == "PANE-TEXT", "the pane")
        ttys = termhost(env, "list-clients", "-F", "#{client_tty}").split()
        termhost(env, "set", "-g", "lock-command", "printf LOCKED; read x")
        termhost(env, "lock-client", "-t", ttys[-1])  # the first to attach
        await first.see(lambda s: s[0] == "LOCKED", "the first locked")
        assert termhost(env, "list-clients", "-F", "#{client_tty} #{client_flags}") == (
            f"{ttys[0]} attached,focused,UTF-8\n{ttys[1]} attached,focused,suspended,UTF-8\n")
        second.type(b"on\r")
        await second.see(lambda s: s[1] == "on", "the second still typing into the pane")
        first.type(b"\x03")  # C-c: the lock's sh ends, not the client
        await first.see(lambda s: s[0] == "PANE-TEXT", "the first back")
        termhost(env, "lock-server")
        for outer in (first, second):
            await outer.see(lambda s: s[0] == "LOCKED", "every client locked")
            outer.type(b"\r")
            await outer.see(lambda s: s[0] == "PANE-TEXT", "back")
            await outer.detach()

    asyncio.run(scenario())


def test_lock_after_time_locks_an_idle_session(env: dict[str, str]) -> None:
    """tmux's lock-after-time: the session's clients lock once nobody typed for that
    many seconds (0, the default, never)."""
    async def scenario() -> None:
        _session(env)
        termhost(env, "set", "-g", "lock-command", "printf IDLE-LOCK; read x")
        termhost(env, "set", "-g", "lock-after-time", "1")
        outer = await client(env, "attach", "-t", "s")
        await outer.see(lambda s: s[0] == "IDLE-LOCK", "the lock after a second idle")
        termhost(env, "set", "-g", "lock-after-time", "0")
        outer.type(b"\r")
        await outer.see(lambda s: s[0] == "PANE-TEXT", "the pane again")
        await eventually(lambda: _flags(env) == "attached,focused,UTF-8\n")
        await outer.detach()

    asyncio.run(scenario())


def test_errors_and_binding_as_tmux(both: BothServers) -> None:
    """tmux's answers with no client attached: `no current client` for the verbs of a
    client, a target that is not there named; lock-session and lock-server lock nobody
    and succeed. C-b C-z is bound to suspend-client, with tmux's note."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s").returncode == 0
    for args in (["suspend-client"], ["suspendc", "-t", "/dev/nosuch"], ["lock-client"],
                 ["lockc", "-t", "nope"], ["lock-session"], ["locks", "-t", "nope"],
                 ["lock-server"], ["lock"], ["lock-server", "x"],
                 ["list-keys", "-T", "prefix", "C-z"],
                 ["show", "-g", "lock-command"], ["show", "-g", "lock-after-time"]):
        assert both.answers("termhost", args) == both.answers("tmux", args), args
    notes = {name: [line for line in both.run(name, "list-keys", "-N").stdout.splitlines()
                    if "C-z" in line] for name in both.NAMES}
    assert notes["termhost"] == notes["tmux"] == ["C-b C-z     Suspend the current client"]


def test_the_terminal_as_tmux_leaves_it(both: BothServers, outer: OuterTmux) -> None:
    """What the user sees, tmux's client and termhost's each started from bash in an
    outer tmux: suspended, bash's screen with the job `Stopped` (the same lines); locked,
    the lock-command's output alone on a cleared screen; back, the pane."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "60", "-y", "9",
                        "printf 'PANE-TEXT\\n'; exec cat", ";",
                        "set", "-g", "lock-command", "printf LOCKED; read x").returncode == 0
        program = shlex.join(both.programs[name][:-2])  # not -f: the server runs already
        outer.run("new-session", "-d", "-s", name, "-x", "60", "-y", "10", "-e",
                  f"CLIENT={program}", "-e", "PS1=outer$ ", "-e", "HISTFILE=/dev/null",
                  "bash --norc --noprofile -i")
        _screen_when(outer, name, lambda shown: "outer$" in shown, "bash's prompt")
        outer.run("send-keys", "-t", name, "$CLIENT attach -t s", "Enter")
    suspended = {}
    for name in both.NAMES:
        _screen_when(outer, name, _pane_shown, "the client drawn", PATIENCE)
        if name == "tmux":
            outer.settle(name, both.programs[name][:-2])
        outer.run("send-keys", "-t", name, "C-b", "C-z")
        suspended[name] = _screen_when(outer, name, lambda shown: shown.count("outer$") == 2,
                                       "the shell's prompt again")
    assert "Stopped                 $CLIENT attach -t s" in suspended["tmux"]
    assert suspended["termhost"] == suspended["tmux"]
    locked = {}
    for name in both.NAMES:
        outer.run("send-keys", "-t", name, "fg", "Enter")
        _screen_when(outer, name, _pane_shown, "the client back")
        assert both.run(name, "lock-server").returncode == 0
        locked[name] = _screen_when(outer, name, lambda shown: shown.startswith("LOCKED"),
                                    "the lock")
    assert locked["termhost"] == locked["tmux"] == "LOCKED"
    for name in both.NAMES:
        outer.run("send-keys", "-t", name, "Enter")
        _screen_when(outer, name, _pane_shown, "the client unlocked")


def _pane_shown(shown: str) -> bool:
    return shown.startswith("PANE-TEXT")


def _screen_when(outer: OuterTmux, name: str, test: Callable[[str], bool], what: str,
                 timeout: float = DEADLINE) -> str:
    """The outer pane `name`'s text (trailing blanks gone) once `test` holds for it."""
    shown = ""

    def ready() -> bool:
        nonlocal shown
        shown = outer.run("capture-pane", "-p", "-t", name).rstrip()
        return test(shown)

    wait_until(ready, timeout, f"{name}: {what}")
    return shown
