"""Pane options (set-option -p, show-options -p) and select-pane -P / -g, held against a
live tmux 3.3a: the same commands on both servers, the same answers."""

from __future__ import annotations

from tests.conftest import BothServers, wait_until


def _two_panes(both: BothServers) -> None:
    for name in both.NAMES:
        for step in (["new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 1000"],
                     ["split-window", "-d", "-t", "s", "sleep 1000"]):
            assert both.run(name, *step).returncode == 0, (name, step)


def test_a_pane_has_options_of_its_own_over_its_windows(both: BothServers) -> None:
    """tmux 3.3a's options_scope_from_name: -p puts a pane option on the target pane
    (whatever -g says), a window-only option on the window, a session option on the
    session; show -p lists the pane's own, -A with what it inherits (its window's value
    first), formats read the pane's value first."""
    _two_panes(both)
    both.after_each([
        ["set", "-p", "-t", "s:0.1", "window-style", "bg=blue"],
        ["set", "-w", "-t", "s", "window-style", "bg=red"],
        ["set", "-p", "-t", "s:0.0", "mode-keys", "vi"],
        ["set", "-p", "-t", "s:0.0", "@colour", "green"],
        ["set", "-pg", "-t", "s:0.0", "window-active-style", "fg=cyan"],
    ], ["show", "-p", "-t", "s:0.1"])
    for args in (["show", "-p", "-t", "s:0.0"], ["show", "-p", "-t", "s:0.1"],
                 ["show", "-gp", "-t", "s:0.0"], ["show", "-w", "-t", "s"],
                 ["show", "-pv", "-t", "s:0.0", "window-style"],
                 ["show", "-pA", "-t", "s:0.0", "window-style"],
                 ["show", "-pA", "-t", "s:0.1", "window-style"],
                 ["show", "-pA", "-t", "s:0.0", "remain-on-exit"],
                 ["show", "-v", "-t", "s", "window-style"],
                 ["display", "-p", "-t", "s:0.0", "#{window-style} #{@colour}"],
                 ["display", "-p", "-t", "s:0.1", "#{window-style} #{@colour}"],
                 ["set", "-pu", "-t", "s:0.1", "window-style"],
                 ["show", "-p", "-t", "s:0.1"]):
        assert both.answers("termhost", args) == both.answers("tmux", args), args


def test_remain_on_exit_set_on_one_pane_keeps_that_pane(both: BothServers) -> None:
    """set -p remain-on-exit on: that pane stays, dead, when its program ends (a
    respawned pane is the same pane to tmux, its options with it)."""
    for name in both.NAMES:
        for step in (["new-session", "-d", "-s", "s", "sleep 1000"],
                     ["split-window", "-d", "-t", "s", "sleep 1000"],
                     ["set", "-p", "-t", "s:0.1", "remain-on-exit", "on"],
                     ["respawn-pane", "-k", "-t", "s:0.1", "true"]):
            assert both.run(name, *step).returncode == 0, (name, step)
    for name in both.NAMES:
        wait_until(lambda name=name: both.run(  # type: ignore[misc]
            name, "list-panes", "-t", "s", "-F", "#{pane_dead}").stdout == "0\n1\n",
            what=f"{name}'s second pane dead and kept")


def test_select_pane_p_sets_both_styles_and_g_prints_window_style(both: BothServers) -> None:
    """cmd-select-pane.c in 3.3a: -P sets the pane's window-style and
    window-active-style to the text as given (not checked: `bogus=1` is taken), then
    goes on to select the pane as without it; -g prints the pane's window-style
    (inherited too) and does nothing else."""
    _two_panes(both)
    active = ["list-panes", "-t", "s", "-F", "#{pane_index} #{pane_active}"]
    both.after_each([
        ["select-pane", "-t", "s:0.0", "-g"],
        ["select-pane", "-t", "s:0.1", "-P", "bg=red"],
        ["select-pane", "-t", "s:0.0", "-g"],
        ["select-pane", "-t", "s:0.1", "-g"],
        ["select-pane", "-t", "s:0.0", "-P", "fg=green", "-g"],
        ["select-pane", "-t", "s:0.1", "-P", "bogus=1"],
        ["select-pane", "-t", "s:0.1", "-P", "#{?pane_active,bg=red,bg=blue}", "-d"],
        ["set", "-w", "-t", "s", "window-style", "bg=yellow"],
        ["select-pane", "-t", "s:0.0", "-P", "default", "-g"],
    ], active)
    for args in (["select-pane", "-t", "s:0.1", "-g"], ["show", "-p", "-t", "s:0.1"],
                 ["show", "-p", "-t", "s:0.0"],
                 ["display", "-p", "-t", "s:0.1", "#{pane_input_off}"]):
        assert both.answers("termhost", args) == both.answers("tmux", args), args
