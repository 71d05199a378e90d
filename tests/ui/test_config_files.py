"""Configuration as a user writes it: ~/.config/termhost/config.toml read at start, errors
named with file and line while the rest loads, source-file to reload, a tmux file with -f."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from tests.ui.outer import client, termhost

CONFIG = """\
prefix = "C-a"
mouse = true
status-left = "<#S> "
nosuch = 1

[keys.prefix]
"|" = "split-window -h"
"%" = false

[keys.root]
"M-n" = "new-window -n by-root ; split-window"
"""


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "termhost", *args], env=env,
                          capture_output=True, text=True, timeout=30, check=False)


def test_config_toml_is_read_at_start_and_reloaded(env: dict[str, str], tmp_path: Path) -> None:
    config = tmp_path / "xdg" / "termhost" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(CONFIG)
    env = {**env, "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    started = run(env, "new-session", "-d", "-s", "cfg", "exec sleep 1000")
    # As tmux 3.3a shows a configuration's errors: not on stderr, but in view mode over
    # the first session's pane, the rest of the file loaded.
    assert (started.returncode, started.stderr) == (0, "")
    assert termhost(env, "show", "-gv", "prefix") == "C-a\n"
    assert termhost(env, "show", "-gv", "mouse") == "on\n"
    assert "split-window -h" in termhost(env, "list-keys", "-T", "prefix")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "cfg", cols=80, rows=10)
        await outer.see(lambda s: s[-1].startswith("<cfg> 0:"), "status-left from the file")
        await outer.see(lambda s: s[0].startswith(str(config)[:40])
                        and s[1].endswith(":4: unknown option: nosuch"),
                        "the error in view mode, wrapped at the pane's width")
        outer.type(b"q")  # view mode ends as copy mode does
        await outer.see(lambda s: "nosuch" not in s[0], "the pane again")
        outer.type(b"\x01|")  # C-a |: the new prefix and binding
        await outer.see(lambda s: "│" in s[0], "two panes side by side")
        outer.type(b"\x1bn")  # M-n from the root table: two commands
        await outer.see(lambda s: "1:by-root*" in s[-1] and "─" in "\n".join(s),
                        "a new window, split")
        config.write_text(CONFIG.replace("<#S> ", "[#S] reloaded "))
        assert run(env, "source-file", str(config)).stderr.endswith(
            ":4: unknown option: nosuch\n")
        # cut to status-left-length (10), as tmux cuts it
        await outer.see(lambda s: s[-1].startswith("[cfg] relo0:"), "the new status-left")
        outer.type(b"\x01d")
        assert (await asyncio.wait_for(outer.child.wait(), 30)).code == 0
        outer.close()

    asyncio.run(scenario())


def test_dev_null_and_a_tmux_file_instead(env: dict[str, str], tmp_path: Path) -> None:
    config = tmp_path / "xdg" / "termhost" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(CONFIG)
    env = {**env, "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    tmux_conf = tmp_path / "tmux.conf"
    tmux_conf.write_text("set -g status-left 'from tmux '\nbind a new-window \\; split-window\n")
    assert run(env, "-f", "/dev/null", "new-session", "-d", "-s", "plain").stderr == ""
    assert termhost(env, "show", "-gv", "prefix") == "C-b\n"
    termhost(env, "kill-server")
    assert run(env, "-f", str(tmux_conf), "new-session", "-d", "-s", "t").stderr == ""
    assert termhost(env, "show", "-gv", "status-left") == "from tmux \n"
    bound = [line for line in termhost(env, "list-keys", "-T", "prefix").splitlines()
             if line.split()[3:4] == ["a"]]
    assert bound == ["bind-key    -T prefix a       new-window \\; split-window"]


def test_with_no_config_of_its_own_the_users_tmux_conf_is_read(
    env: dict[str, str], tmp_path: Path
) -> None:
    # As tmux 3.3a reads ~/.tmux.conf, then $XDG_CONFIG_HOME/tmux/tmux.conf: a tmux user's
    # setup works as it is. termhost's own config.toml, when there is one, comes first.
    home = tmp_path / "home"
    home.mkdir()
    env = {**env, "HOME": str(home), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    xdg_tmux = tmp_path / "xdg" / "tmux" / "tmux.conf"
    xdg_tmux.parent.mkdir(parents=True)
    xdg_tmux.write_text("set -g status-left 'from xdg '\n")
    assert run(env, "new-session", "-d", "-s", "x", "exec sleep 1000").stderr == ""
    assert termhost(env, "show", "-gv", "status-left") == "from xdg \n"
    termhost(env, "kill-server")
    (home / ".tmux.conf").write_text("set -g status-left 'from home '\nset -g @theme nord\n")
    assert run(env, "new-session", "-d", "-s", "h", "exec sleep 1000").stderr == ""
    assert termhost(env, "show", "-gv", "status-left") == "from home \n"
    assert termhost(env, "show", "-gqv", "@theme") == "nord\n"
    termhost(env, "kill-server")
    own = tmp_path / "xdg" / "termhost" / "config.toml"
    own.parent.mkdir(parents=True)
    own.write_text('status-left = "from toml "\n')
    assert run(env, "new-session", "-d", "-s", "t", "exec sleep 1000").stderr == ""
    assert termhost(env, "show", "-gv", "status-left") == "from toml \n"
