"""list-clients and the #{client_*} variables as tmux 3.3a's, seen with a real client of
each server: both attach in panes of the same size of an outer tmux (a terminal
neither wrote), and list-clients of each must agree, its tty being the outer pane's."""

from __future__ import annotations

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, Outer

FIELDS = ("#{client_session}|#{client_width}x#{client_height}|#{client_termname}|"
          "#{client_flags}|#{client_utf8}|#{client_readonly}|#{client_prefix}|"
          "#{client_key_table}|#{client_control_mode}|#{client_user}|#{client_last_session}|"
          "#{session_name}|#{window_index}")


def test_list_clients_shows_each_attached_client_as_tmux_does(both: BothServers,
                                                              outer: Outer) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-n", "w", "sleep 1000",
                        ";", "new-session", "-d", "-s", "other", "sleep 1000").returncode == 0
        outer.show(name, CLIENTS[name], 50, 8)
    for name in both.NAMES:
        wait_until(lambda name=name: both.run(name, "list-clients").stdout,  # type: ignore[misc]
                   what=f"{name}'s client to attach")
    for name in both.NAMES:
        tty = outer.run("display", "-p", "-t", name, "#{pane_tty}").strip()
        default = both.run(name, "list-clients").stdout
        assert default == f"{tty}: s [50x8 tmux-256color] (attached,focused,UTF-8)\n", name
        assert both.run(name, "list-clients", "-F", "#{client_name} #{client_tty} "
                        "#{client_pid}").stdout.split()[:2] == [tty, tty]
    for args in (["-F", FIELDS], ["-t", "other", "-F", FIELDS], ["-t", "nosuch"]):
        seen = {name: both.answers(name, ["list-clients", *args]) for name in both.NAMES}
        assert seen["termhost"] == seen["tmux"], args
