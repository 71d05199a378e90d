"""detach-client -P and -E, attach-session -x: a tmux client and a termhost client, each
in a shell in a pane of an outer tmux, detached the same way; what happens to the shell
(SIGHUP: it dies of signal 1) and what the pane shows is compared with tmux 3.3a's."""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer, status_text


def _in_shell(both: BothServers, outer: Outer, after: str = "echo AFTER=$?") -> None:
    """A session s of each server, and its client run by a shell that goes on after it."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
        shell = ["sh", "-c", f"{shlex.join(CLIENTS[name])}; {after}; exec sleep 1000"]
        outer.show(name, shell, 60, 8)
        wait_until(lambda name=name: "[s]" in status_text(outer, name),  # type: ignore[misc]
                   what=f"{name}'s client to draw", timeout=PATIENCE)


def _hung_up(outer: Outer, name: str) -> bool:
    """The shell in `name`'s pane died of SIGHUP (the outer tmux's own `sh -c` around it
    says so with status 129)."""
    dead = outer.run("display", "-p", "-t", name,
                     "#{pane_dead}:#{pane_dead_signal}:#{pane_dead_status}").strip()
    return dead in ("1:1:", "1::129")


def test_detach_p_hangs_up_the_clients_shell(tmp_path: Path, both: BothServers) -> None:
    outer = Outer(tmp_path, both.env)
    try:
        _in_shell(both, outer)
        for name in both.NAMES:
            assert both.run(name, "detach-client", "-P").returncode == 0
        for name in both.NAMES:  # the shell got SIGHUP: it never says AFTER
            wait_until(lambda name=name: _hung_up(outer, name),  # type: ignore[misc]
                       what=f"{name}'s shell to die of SIGHUP", timeout=PATIENCE)
    finally:
        outer.kill()


def test_detach_e_runs_a_command_in_the_clients_place(tmp_path: Path,
                                                      both: BothServers) -> None:
    outer = Outer(tmp_path, both.env)
    try:
        _in_shell(both, outer)
        for name in both.NAMES:
            assert both.run(name, "detach-client", "-E", "echo IN-PLACE; exit 3"
                            ).returncode == 0

        def screen(name: str) -> list[str]:
            return [line for line in outer.run("capture-pane", "-p", "-t", name).splitlines()
                    if line.strip()]

        for name in both.NAMES:  # no [detached] line: the client became the command
            wait_until(lambda name=name: screen(name)[-1:] == ["AFTER=3"],  # type: ignore[misc]
                       what=f"{name}'s command to run in its client's place",
                       timeout=PATIENCE)
            assert screen(name)[-2:] == ["IN-PLACE", "AFTER=3"], name
    finally:
        outer.kill()


def test_attach_x_hangs_up_the_other_clients_shells(tmp_path: Path,
                                                     both: BothServers) -> None:
    outer = Outer(tmp_path, both.env)
    try:
        _in_shell(both, outer)
        for name in both.NAMES:
            again = [*CLIENTS[name][:-3], "attach", "-x", "-t", "s"]
            outer.show(f"{name}-again", again, 60, 8)
        for name in both.NAMES:
            wait_until(lambda name=name: _hung_up(outer, name),  # type: ignore[misc]
                       what=f"{name}'s first client's shell to die of SIGHUP",
                       timeout=PATIENCE)
            assert "[s]" in status_text(outer, f"{name}-again")
    finally:
        outer.kill()
