"""Finding one's way: the command prompt's completion and history, searching the key
list, choose-tree, switching sessions."""

from __future__ import annotations

import asyncio

from tests.ui.outer import client, termhost

SLEEP = "exec sleep 1000"


def test_the_command_prompt_completes_edits_and_remembers(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "work", SLEEP)

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "work", cols=100, rows=10)
        await outer.see(lambda s: s[-1].startswith("[work] 0:"), "the status bar")
        outer.type(b"\x02:")  # keys typed before the prompt opens go to the pane, as tmux's
        await outer.see(lambda s: s[-1] == ":", "the command prompt")
        outer.type(b"new-wi\t")
        await outer.see(lambda s: s[-1] == ":new-window", "the verb completed")
        outer.type(b"-n done\r")
        await outer.see(lambda s: "1:done*" in s[-1], "the new window")
        outer.type(b"\x02:")
        await outer.see(lambda s: s[-1] == ":", "the command prompt")
        outer.type(b"select-\t")  # ambiguous: the candidates are listed
        await outer.see(lambda s: s[-1].startswith(":select-  select-layout select-pane "
                                                   "select-window"), "the candidates")
        outer.type(b"\x15set -g mode-k\t")  # C-u, then an option name
        await outer.see(lambda s: s[-1] == ":set -g mode-keys", "the option completed")
        outer.type(b"\x01")  # C-a: the cursor to the start of the answer
        await outer.see(lambda s: outer.terminal.screen.cursor.x == 1
                        and outer.terminal.screen.cursor.y == 9, "the cursor after ':'")
        outer.type(b"\x1b[A")  # Up: the last command run
        await outer.see(lambda s: s[-1] == ":new-window -n done", "the history")
        outer.type(b"\x03")  # C-c: nothing run
        await outer.see(lambda s: s[-1].startswith("[work]"), "the status bar again")
        assert termhost(env, "lsw", "-t", "work", "-F", "#W").split() == ["sleep", "done"]
        await outer.detach()

    asyncio.run(scenario())


def test_the_key_list_can_be_searched(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "keys", SLEEP)
    termhost(env, "set", "-g", "mode-keys", "vi")  # the pane's view mode takes vi's keys

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "keys", cols=80, rows=10)
        await outer.see(lambda s: s[-1].startswith("[keys]"), "the status bar")
        outer.type(b"\x02?")
        await outer.see(lambda s: s[0].startswith("C-b"), "the key list")
        outer.type(b"/")
        await outer.see(lambda s: s[-1].startswith("(search down)"), "the search prompt")
        outer.type(b"zoom\r")
        await outer.see(lambda s: "(1 results)" in s[0]
                        and any("Zoom the active pane" in line for line in s[:-1]),
                        "the match in view, counted as tmux's copy mode counts it")
        outer.type(b"/nothing like it\r")
        await outer.see(lambda s: "Pattern not found: nothing like it" in s[-1],
                        "the message")
        outer.type(b"q")
        await outer.see(lambda s: not s[0].startswith("C-b"), "the pane again")
        await outer.detach()

    asyncio.run(scenario())


def test_choose_tree_previews_and_switches_sessions(env: dict[str, str]) -> None:
    termhost(env, "new-session", "-d", "-s", "alpha", SLEEP)
    termhost(env, "new-session", "-d", "-s", "beta",
             "printf 'in-beta\\n'; exec sleep 1000")

    async def scenario() -> None:
        outer = await client(env, "attach", "-t", "alpha", cols=80, rows=30)
        await outer.see(lambda s: s[-1].startswith("[alpha]"), "alpha's status bar")
        outer.type(b"\x02s")
        await outer.see(lambda s: s[0].startswith("(0) + alpha: 1 windows (attached)")
                        and s[1].startswith("(1) + beta: 1 windows"), "the sessions")
        outer.type(b"j")  # down to beta: its pane is previewed
        await outer.see(lambda s: any("│ in-beta" in line for line in s), "beta's preview")
        outer.type(b"\r")
        await outer.see(lambda s: s[-1].startswith("[beta]") and s[0] == "in-beta",
                        "beta on this client")
        assert termhost(env, "ls", "-F", "#{session_name} #{session_attached}").split(
            "\n") == ["alpha 0", "beta 1", ""]
        outer.type(b"\x02(")  # the previous session by name
        await outer.see(lambda s: s[-1].startswith("[alpha]"), "alpha again")
        outer.type(b"\x02w")  # every window: a shortcut picks one at once
        await outer.see(lambda s: any("beta: 1 windows" in line for line in s),
                        "the windows tree")
        outer.type(b"q")
        await outer.see(lambda s: s[-1].startswith("[alpha]") and "(0)" not in s[0],
                        "alpha, nothing chosen")
        await outer.detach()

    asyncio.run(scenario())
