"""Key tables in a real client, compared with a tmux 3.3a client in an outer tmux: a
table of the user's own reached by `switch-client -T`, a key it lacks dropped, the
session's key-table option, repeating bindings (bind -r) for repeat-time, and prefix2
(tmux's server_client_key_callback)."""

from __future__ import annotations

from tests.conftest import BothServers, wait_until
from tests.ui.outer_tmux import CLIENTS, PATIENCE, Outer, attach_both, shows


def count(both: BothServers, name: str) -> str:
    return both.run(name, "show", "-gv", "@n").stdout.strip()


def test_own_table_switch_client_t_and_repeat(both: BothServers, outer: Outer) -> None:
    ttys = attach_both(both, outer)
    bump = 'set -gF @n "#{e|+:#{@n},1}"'
    for name in both.NAMES:
        for step in (["set", "-g", "@n", "0"], ["bind", "-T", "resize", "h", bump],
                     ["bind", "-n", "M-r", "switch-client", "-T", "resize"],
                     ["bind", "-r", "a", bump], ["set", "-g", "repeat-time", "30000"]):
            assert both.run(name, *step).returncode == 0, (name, step)
        outer.run("send-keys", "-t", name, "M-r")
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-c", ttys[name], "#{client_key_table}").stdout
            == "resize\n", what=f"{name}'s client in the resize table")
        outer.run("send-keys", "-t", name, "h")
        wait_until(lambda name=name: count(both, name) == "1",  # type: ignore[misc]
                   what=f"{name}'s h in the resize table")
        outer.run("send-keys", "-t", name, "M-r")
        outer.run("send-keys", "-t", name, "x")  # not in the table: dropped
        outer.run("send-keys", "-t", name, "h")  # back in the root table: the pane's
        outer.run("send-keys", "-t", name, "C-b")
        for n in ("2", "3", "4"):  # a repeats; each sent alone, as typed (a burst would be
            outer.run("send-keys", "-t", name, "a")  # a paste to tmux: assume-paste-time)
            wait_until(lambda name=name, n=n: count(both, name) == n,  # type: ignore[misc]
                       what=f"{name}'s repeated a to make {n}")
        assert both.run(name, "display", "-p", "-c", ttys[name],
                        "#{client_key_table}").stdout == "prefix\n", name
        outer.run("send-keys", "-t", name, "x")  # not repeatable: back to root, dropped
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "display", "-p", "-c", ttys[name], "#{client_key_table}").stdout
            == "root\n", what=f"{name}'s client back in the root table")
    assert both.run("tmux", "list-keys", "-T", "resize").stdout == both.run(
        "termhost", "list-keys", "-T", "resize").stdout


def test_prefix2_and_the_key_table_option(both: BothServers, outer: Outer) -> None:
    attach_both(both, outer)
    for name in both.NAMES:
        for step in (["set", "-g", "prefix2", "C-a"], ["bind", "-T", "mine", "z",
                                                       "display", "from-mine"]):
            assert both.run(name, *step).returncode == 0
        outer.run("send-keys", "-t", name, "C-a")  # then c alone: in one burst tmux would
        outer.run("send-keys", "-t", name, "c")  # take c as pasted (assume-paste-time)
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-windows", "-t", "s", "-F", "#I").stdout == "0\n1\n",
            what=f"{name}'s window made through prefix2")
        assert both.run(name, "set", "-g", "key-table", "mine").returncode == 0
        outer.run("send-keys", "-t", name, "z")
        shows(outer, name, "from-mine")


def test_a_read_only_client(both: BothServers, outer: Outer) -> None:
    """attach -r (and -f ignore-size): typing reaches no pane and bindings do nothing,
    but detach-client's (C-b d) does; #{client_flags} and #{client_readonly} say so."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "-x", "60", "-y", "8",
                        "cat", ";", "set", "-g", "assume-paste-time", "0").returncode == 0
        outer.show(name, [*CLIENTS[name][:-2], "-r", "-f", "ignore-size", "-t", "s"], 60, 8)
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-clients", "-F", "#{client_flags} #{client_readonly}").stdout
            == "attached,focused,ignore-size,read-only,UTF-8 1\n",
            what=f"{name}'s read-only client", timeout=PATIENCE)
        outer.run("send-keys", "-t", name, "typed", "Enter")
        outer.run("send-keys", "-t", name, "C-b")
        outer.run("send-keys", "-t", name, "c")
        outer.run("send-keys", "-t", name, "C-b")
        outer.run("send-keys", "-t", name, "d")
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-clients").stdout == "", what=f"{name}'s client to detach")
        assert both.run(name, "list-windows", "-t", "s", "-F", "#I").stdout == "0\n", name
        assert "typed" not in both.run(name, "capture-pane", "-p", "-t", "s").stdout, name
