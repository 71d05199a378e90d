"""Commands aimed at one attached client (-c, -t target-client), as tmux 3.3a's
cmd_find_client: display-message -c expands with that client's #{client_*} and
session, detach-client -t / -a detach that one or all the others; compared with a
live tmux, both seen through an outer tmux."""

from __future__ import annotations

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, Outer


def _attach_two(both: BothServers, outer: Outer) -> dict[str, list[str]]:
    """Two clients of each server, of sessions s and t; their ttys, s's first."""
    ttys: dict[str, list[str]] = {}
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-n", "w", "sleep 1000", ";",
                        "new-session", "-d", "-s", "t", "-n", "w", "sleep 1000").returncode == 0
        outer.show(f"{name}-s", CLIENTS[name], 50, 6)
        outer.show(f"{name}-t", [*CLIENTS[name][:-1], "t"], 50, 6)
        ttys[name] = [outer.run("display", "-p", "-t", f"{name}-{session}", "#{pane_tty}").strip()
                      for session in ("s", "t")]
        for session in ("s", "t"):  # each drawn: its status line is there
            wait_until(lambda name=name, session=session: f"[{session}]" in outer.last_line(  # type: ignore[misc]
                f"{name}-{session}"), what=f"{name}'s client of {session}")
    return ttys


def test_display_message_c_is_for_that_client(both: BothServers, outer: Outer) -> None:
    ttys = _attach_two(both, outer)
    for name in both.NAMES:
        shown = both.run(name, "display", "-p", "-c", ttys[name][1],
                         "#{client_session} #{session_name} #{client_width}").stdout
        assert shown == "t t 50\n", name
        # display-message looks its client up quietly; detach-client does not
        assert both.answers(name, ["display", "-p", "-c", "/dev/nosuch", "x"]) == (0, "x\n", "")
        assert both.answers(name, ["detach", "-t", "/dev/nosuch"]) == (
            1, "", "can't find client: /dev/nosuch\n")
        assert both.answers(name, ["display", "-c", ttys[name][1], "-d", "0", "for-t"]) == (
            0, "", "")
        assert both.answers(name, ["display", "-c", ttys[name][1], "-d", "x", "y"]) == (
            1, "", "delay invalid\n")


def test_detach_client_t_and_a(both: BothServers, outer: Outer) -> None:
    ttys = _attach_two(both, outer)
    for name in both.NAMES:
        assert both.run(name, "detach-client", "-a", "-t", ttys[name][0]).returncode == 0
    for name in both.NAMES:
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-clients", "-F", "#{client_session}").stdout == "s\n",
            what=f"{name}'s other client to go")
        assert both.run(name, "detach-client", "-t", ttys[name][0]).returncode == 0
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-clients").stdout == "", what=f"{name}'s last client to go")
