"""set-option and show-options as a ~/.tmux.conf and its plugins use them, each command run
in a live tmux 3.3a and in termhost, and the two answers compared: output, error and
exit status.

Plugins (tpm and everything it loads) keep their settings in user options and read them
back with `show-option -gqv @name`; configuration files append to strings with -a, use
-s for server options, -o for defaults a later line may have set, -q for options an
older tmux lacks, and -F to expand a format once.
"""

from __future__ import annotations

import pytest

from tests.conftest import BothServers

SCRIPT = [
    # User options: any value, kept as given, printed escaped as a config file reads them.
    ["set", "-g", "@plugin", "tmux-plugins/tpm"],
    ["show", "-gv", "@plugin"],
    ["show", "-g", "@plugin"],
    ["set", "-g", "@two", "two words"],
    ["show", "-g", "@two"],
    ["show", "-gqv", "@nosuch"],
    ["show", "-gv", "@nosuch"],
    ["set", "-og", "@plugin", "again"],
    ["set", "-ag", "@plugin", " more"],
    ["show", "-gv", "@plugin"],
    ["set", "-gu", "@plugin"],
    ["show", "-gqv", "@plugin"],
    ["set", "-F", "-g", "@where", "#{session_name}:#{window_index}"],
    ["show", "-gv", "@where"],
    # Options of the table: unknown, quiet, empty, appended, scope flags.
    ["set", "-q", "-g", "no-such-option", "x"],
    ["set", "-g", "no-such-option", "x"],
    ["show", "-gq", "no-such-option"],
    ["show", "-g", "no-such-option"],
    ["set", "-g", "status-left"],
    ["set", "-og", "history-limit", "5"],
    ["set", "-ga", "status-left", "ABC"],
    ["show", "-gv", "status-left"],
    ["show", "-g", "status-left"],
    ["set", "-g", "status-left", ""],
    ["show", "-g", "status-left"],
    ["set", "-sg", "escape-time", "1"],
    ["show", "-sv", "escape-time"],
    ["show", "-s", "escape-time"],
    ["set", "-w", "-g", "mode-keys", "vi"],
    ["show", "-gwv", "mode-keys"],
    ["setw", "-g", "mode-keys", "emacs"],
    ["show", "-gv", "mode-keys"],
    ["set", "-g", "history-limit", "nope"],
    ["set", "-g", "mouse", "sideways"],
    ["set", "-g", "remain-on-exit", "maybe"],
    ["set", "-g", "mouse"],
    ["show", "-gv", "mouse"],
    ["set", "-g", "mouse", "yes"],
    ["show", "-gv", "mouse"],
    ["set", "-g", "mouse", "0"],
    ["show", "-gv", "mouse"],
    ["set", "-g", "history-limit", "-1"],
    ["set", "-g", "history-limit", "99999999999"],
    # tmux's options termhost keeps without applying them: accepted by type, shown.
    ["set", "-g", "status-style", "bg=blue"],
    ["set", "-ga", "status-style", "fg=red"],
    ["show", "-g", "status-style"],
    ["set", "-g", "renumber-windows", "on"],
    ["show", "-gv", "renumber-windows"],
    ["set", "-g", "repeat-time", "40000"],
    ["set", "-g", "status-justify", "centre"],
    ["show", "-g", "status-justify"],
    ["set", "-g", "status-justify", "middle"],
    ["set", "-g", "window-status-current-format", "#[bold] #I:#W "],
    ["show", "-g", "window-status-current-format"],
    ["setw", "-g", "aggressive-resize", "on"],
    ["show", "-gw", "aggressive-resize"],
    ["set", "-g", "prefix2", "C-a"],
    ["show", "-g", "prefix2"],
    # Array options: elements appended, set by index, unset, listed.
    ["show", "-s", "terminal-overrides"],
    ["set", "-as", "terminal-overrides", ",xterm-256color:Tc,foo:RGB"],
    ["show", "-s", "terminal-overrides"],
    ["set", "-s", "terminal-overrides[5]", "bar"],
    ["set", "-su", "terminal-overrides[1]"],
    ["show", "-s", "terminal-overrides"],
    ["show", "-sv", "terminal-overrides"],
    ["show", "-s", "terminal-overrides[5]"],
    ["set", "-g", "status-left[0]", "x"],
    ["set", "-ga", "update-environment", " SSH_AUTH_SOCK"],
    ["show", "-g", "update-environment"],
    ["show", "-s", "command-alias"],
    # -o refuses an option set already, -q quietly (a theme's `set -ogq @thm_bg`).
    ["set", "-og", "@thm_bg", "#1e1e2e"],
    ["set", "-og", "@thm_bg", "#ffffff"],
    ["set", "-ogq", "@thm_bg", "#ffffff"],
    ["show", "-gv", "@thm_bg"],
]


@pytest.fixture
def servers(both: BothServers) -> BothServers:
    """A private tmux and a private termhost, each with a session `s`."""
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    return both


def test_set_and_show_options_answer_as_tmux_does(servers: BothServers) -> None:
    for args in SCRIPT:
        assert servers.answers("termhost", args) == servers.answers("tmux", args), args


def test_every_option_tmux_lists_termhost_lists_in_the_same_scope(
    servers: BothServers,
) -> None:
    # termhost's own options (theme, snapshots, resurrection) are its additions.
    own = {"theme", "snapshots", "snapshot-timeout", "resurrect", "resurrect-max-age",
           "resurrect-scrollback"}
    for flags in ("-s", "-g", "-gw"):
        listed = {name: {line.split()[0].split("[")[0]
                         for line in servers.run(name, "show-options", flags).stdout.splitlines()}
                  for name in servers.NAMES}
        assert listed["termhost"] - own == listed["tmux"], flags
