"""new-session -A/-D/-E and attach-session -d/-E/-c as tmux 3.3a's cmd-new-session and
cmd-attach-session, with real clients in PTYs: -A attaches to the session named when
it exists instead of refusing a duplicate, -D and -d detach the session's other clients,
-E leaves the session's environment as update-environment would not, -c sets where its
new windows start. Compared with a live tmux where tmux answers a command line."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from tests.conftest import BothServers, wait_until
from tests.ui.outer import client, termhost


def test_without_a_terminal_both_say_so(both: BothServers) -> None:
    for name in both.NAMES:
        assert both.run(name, "new-session", "-d", "-s", "s", "sleep 1000").returncode == 0
    for step in (["new-session", "-A", "-s", "s"], ["new-session", "-A", "-D", "-s", "s"],
                 ["new-session", "-d", "-s", "s"], ["attach-session", "-d", "-t", "s"],
                 ["attach-session", "-t", "nosuch"]):
        seen = {name: both.answers(name, step) for name in both.NAMES}
        ours, theirs = seen["termhost"], seen["tmux"]
        # termhost's client says who speaks ("termhost: ") for what it finds itself
        assert (ours[0], ours[1], ours[2].removeprefix("termhost: ")) == theirs, step
    listed = {name: both.run(name, "ls", "-F", "#{session_name}").stdout for name in both.NAMES}
    assert listed["termhost"] == listed["tmux"] == "s\n"


def test_new_session_a_attaches_and_d_detaches_the_others(env: dict[str, str],
                                                          tmp_path: Path) -> None:
    termhost(env, "new-session", "-d", "-s", "main", "-e", "KEPT=1", "cat")

    async def scenario() -> None:
        first = await client(env, "new-session", "-A", "-s", "main", cols=60, rows=10)
        await first.see(lambda s: "[main]" in s[-1], "the first client on main")
        assert termhost(env, "list-sessions", "-F", "#{session_name}") == "main\n"
        second = await client(env, "new-session", "-A", "-D", "-s", "main", cols=60, rows=10)
        await second.see(lambda s: "[main]" in s[-1], "the second client on main")
        assert (await asyncio.wait_for(first.child.wait(), 30)).code == 0  # -D detached it
        work = tmp_path / "work"
        work.mkdir()
        third = await client(env, "attach-session", "-d", "-t", "main", "-c", str(work),
                             cols=60, rows=10)
        await third.see(lambda s: "[main]" in s[-1], "the third client on main")
        assert (await asyncio.wait_for(second.child.wait(), 30)).code == 0  # -d detached it
        third.type(b"\x02c")  # C-b c: a window of the session's, in its directory
        await third.see(lambda s: "1:" in s[-1], "the new window")
        wait_until(lambda: termhost(env, "display", "-p", "-t", "main:1",
                                    "#{pane_current_path}") == f"{work}\n",
                   what="the new window in -c's directory")
        await third.detach()

    asyncio.run(scenario())
    assert os.path.isdir(tmp_path / "work")
