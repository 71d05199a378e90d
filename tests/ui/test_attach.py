"""A real client in a real PTY, its output read by an emulator as the outer terminal."""

from __future__ import annotations

import asyncio
import os
import re
import select
import signal
import subprocess
import sys
import time

from termhost.process import set_window_size
from tests.conftest import DEADLINE, eventually, wait_until
from tests.ui.outer import client, termhost


def test_type_split_detach_and_attach_again(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "work")
        await outer.see(lambda s: s[0].startswith("$") and "[work] 0:sh*" in s[-1],
                        "the prompt and the status bar")
        outer.type(b"echo hi\r")
        await outer.see(lambda s: "hi" in s[1], "hi under the command")
        outer.type(b"\x02%")  # C-b %: two panes side by side
        await outer.see(lambda s: s[0].startswith("$ echo hi") and "│$" in s[0],
                        "a second pane right of a border")
        assert termhost(env, "display", "-p", "-t", "work", "#{window_panes}") == "2\n"
        outer.type(b"\x02d")
        await outer.see(lambda s: "[detached (from session work)]" in "\n".join(s),
                        "the detach message")
        assert (await asyncio.wait_for(outer.child.wait(), DEADLINE)).code == 0
        outer.close()
        assert termhost(env, "ls", "-F", "#{session_name}") == "work\n"

        again = await client(env, "attach", "-t", "work")
        await again.see(lambda s: "hi" in s[1] and "│" in s[0], "the same panes again")
        await again.detach()

    asyncio.run(scenario())


def test_resizing_the_outer_terminal_reaches_the_pane(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "size", cols=80, rows=24)
        await outer.see(lambda s: s[0].startswith("$"), "the prompt")
        outer.type(b"stty size\r")
        await outer.see(lambda s: "23 80" in s[1], "23 rows (one for the status) by 80")
        set_window_size(outer.master, 100, 30)
        outer.terminal.resize(100, 30)
        # The RESIZE frame (sent on SIGWINCH) and typed keys travel apart: type once the
        # server has the new size, as a user would after the window settled.
        wait_until(lambda: termhost(env, "display", "-p", "-t", "size",
                                    "#{pane_width}x#{pane_height}") == "100x29\n",
                   what="the server resizing the pane")
        outer.type(b"stty size\r")
        await outer.see(lambda s: any(line == "29 100" for line in s), "the new size")
        await outer.detach()

    asyncio.run(scenario())


def test_a_client_without_a_terminal_is_refused(env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "termhost", "new-session", "-s", "x"], env=env,
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stderr) == (1, "termhost: open terminal failed: not a terminal\n")
    assert "no server running" in subprocess.run(  # and no server was left behind
        [sys.executable, "-m", "termhost", "ls"], env=env, capture_output=True, text=True,
        timeout=30,
    ).stderr


def test_a_killed_server_ends_the_client_and_restores_its_terminal(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "k")
        await outer.see(lambda s: s[0].startswith("$"), "the prompt")
        pid = int(termhost(env, "display", "-p", "#{pid}"))
        os.kill(pid, 9)
        await outer.see(lambda s: "[server exited unexpectedly]" in "\n".join(s),
                        "the client's message")
        assert (await asyncio.wait_for(outer.child.wait(), DEADLINE)).code == 1
        assert not outer.terminal.screen.alternate_screen  # the terminal was restored
        outer.close()

    asyncio.run(scenario())


def test_the_client_inside_tmux_as_the_outer_terminal(env: dict[str, str]) -> None:
    tmux = ["tmux", "-L", f"termhost-outer-{os.getpid()}", "-f", "/dev/null"]
    outer_env = {k: v for k, v in env.items() if not k.startswith("TMUX")}
    inner = f"{sys.executable} -m termhost new-session -s inner"

    def run(*args: str) -> str:
        return subprocess.run([*tmux, *args], env=outer_env, capture_output=True, text=True,
                              check=True, timeout=10).stdout

    def screen() -> str:
        return run("capture-pane", "-p")

    run("new-session", "-d", "-x", "80", "-y", "24", inner)
    run("set-option", "-g", "remain-on-exit", "on")  # keep the client's last words on screen
    try:
        wait_until(lambda: "[inner] 0:sh*" in screen(), what="termhost's status bar in tmux")
        run("send-keys", "echo through-tmux", "Enter")
        wait_until(lambda: "\nthrough-tmux" in screen(), what="the echo in tmux's pane")
        run("send-keys", "C-b", "d")
        wait_until(lambda: "[detached (from session inner)]" in screen(), what="the detach")
        assert termhost(env, "ls", "-F", "#{session_name}") == "inner\n"
    finally:
        subprocess.run([*tmux, "kill-server"], env=outer_env, timeout=10, check=False)


def test_two_clients_on_one_session_both_see_every_change(env: dict[str, str]) -> None:
    async def scenario() -> None:
        first = await client(env, "new-session", "-s", "both")
        await first.see(lambda s: s[0].startswith("$"), "the prompt in the first client")
        second = await client(env, "attach", "-t", "both")
        await second.see(lambda s: s[0].startswith("$"), "the prompt in the second client")
        first.type(b"echo from-first\r")
        for outer in (first, second):
            await outer.see(lambda s: "from-first" in s[1], "the first client's command")
        second.type(b"echo from-second\r")
        for outer in (first, second):
            await outer.see(lambda s: "from-second" in s[3], "the second client's command")
        for outer in (first, second):
            await outer.detach()

    asyncio.run(scenario())


def test_a_keystroke_echo_repaints_only_the_changed_cell(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "echo", "cat")
        await outer.see(lambda s: "[echo] 0:" in s[-1], "the status bar")
        outer.type(b"abc")
        await outer.see(lambda s: s[0] == "abc", "the first echo")
        before = len(outer.raw)
        outer.type(b"d")
        await outer.see(lambda s: s[0] == "abcd", "the echo of d")
        painted = bytes(outer.raw[before:])
        # Cursor hidden, moved, one cell with its attributes, cursor placed and shown:
        # not a redraw of the row, let alone of the frame.
        assert painted.count(b"d") == 1 and len(painted) < 64, painted
        await outer.detach()

    asyncio.run(scenario())


def test_a_flood_ends_on_the_screen_it_left(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "flood")
        await outer.see(lambda s: s[0].startswith("$"), "the prompt")
        outer.type(b"seq 1 200000; echo flood-done\r")
        screen = await outer.see(lambda s: any(line == "flood-done" for line in s),
                                 "the end of the flood")
        done = screen.index("flood-done")
        assert screen[done - 1] == "200000" and screen[done - 2] == "199999"
        assert termhost(env, "capture-pane", "-p", "-t", "flood").splitlines()[done] == (
            "flood-done")
        await outer.detach()

    asyncio.run(scenario())


def test_prefix_twice_escape_and_paste_reach_the_pane(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "keys", "stty raw -echo; cat -v")
        await outer.see(lambda s: "[keys] 0:" in s[-1], "the status bar")
        outer.type(b"\x02\x02")  # C-b C-b: C-b itself to the program
        await outer.see(lambda s: s[0] == "^B", "the literal C-b")
        outer.type(b"\x1b")  # a lone ESC is the Escape key once escape-time has passed
        await outer.see(lambda s: s[0] == "^B^[", "the Escape key")
        # The outer terminal brackets a paste; cat did not ask for 2004: no brackets.
        outer.type(b"\x1b[200~pasted\x1b[201~")
        await outer.see(lambda s: s[0] == "^B^[pasted", "the pasted text, unbracketed")
        outer.type(b"\x02j")  # an unbound key after the prefix is ignored, as in tmux
        outer.type(b"y")
        await outer.see(lambda s: s[0] == "^B^[pastedy", "y after the ignored C-b j")
        await outer.detach()

    asyncio.run(scenario())


def test_prefix_arrows_digits_and_l_move_between_panes_and_windows(env: dict[str, str]) -> None:
    def shown(fmt: str) -> str:
        return termhost(env, "display", "-p", "-t", "nav", fmt).strip()

    async def until(fmt: str, expected: str) -> None:
        await eventually(lambda: shown(fmt) == expected, what=f"{fmt} == {expected}")

    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "nav")
        await outer.see(lambda s: "[nav] 0:sh*" in s[-1], "the status bar")
        outer.type(b"\x02%")  # the new right pane is active
        await until("#{pane_index}", "1")
        outer.type(b"\x02\x1b[D")  # C-b Left
        await until("#{pane_index}", "0")
        outer.type(b"\x02\x1b[C")  # C-b Right
        await until("#{pane_index}", "1")
        outer.type(b"\x02\x1b[C")  # C-b Right again wraps around to the left pane
        await until("#{pane_index}", "0")
        outer.type(b"\x02c")
        await until("#{window_index}", "1")
        outer.type(b"\x020")  # C-b 0
        await outer.see(lambda s: "0:sh*" in s[-1] and "1:sh-" in s[-1], "window 0 current")
        await until("#{window_index}", "0")
        outer.type(b"\x027")  # no window 7: nothing happens, as in tmux
        outer.type(b"\x02l")  # C-b l: the last window
        await until("#{window_index}", "1")
        outer.type(b"\x021")
        outer.type(b"\x02l")
        await until("#{window_index}", "0")
        await outer.detach()

    asyncio.run(scenario())


def test_prompts_rename_and_confirm_kills(env: dict[str, str]) -> None:
    def shown(target: str, fmt: str) -> str:
        return termhost(env, "display", "-p", "-t", target, fmt).strip()

    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "work")
        await outer.see(lambda s: "[work] 0:sh*" in s[-1], "the status bar")
        outer.type(b"\x02,")  # C-b , : the window's name, ready to edit
        await outer.see(lambda s: s[-1].startswith("(rename-window) sh"), "the rename prompt")
        outer.type(b"\x7f\x7fzz\x1b")  # edited, then Escape: nothing changes
        await outer.see(lambda s: "[work] 0:sh*" in s[-1], "the status bar back")
        outer.type(b"\x02,")  # what is typed before the prompt opens goes to the pane, as
        await outer.see(lambda s: s[-1].startswith("(rename-window) sh"), "the prompt")  # tmux
        outer.type(b"\x15logs\r")  # C-u clears the answer
        await outer.see(lambda s: "[work] 0:logs*" in s[-1], "the renamed window")
        assert shown("work", "#{window_name}") == "logs"

        termhost(env, "new-session", "-d", "-s", "other")
        outer.type(b"\x02$")
        await outer.see(lambda s: s[-1].startswith("(rename-session) work"), "the prompt")
        outer.type(b"\x15other\r")  # a taken name: tmux's error in the status line
        await outer.see(lambda s: s[-1].startswith("duplicate session: other"), "the error")
        outer.type(b"\x02$")
        await outer.see(lambda s: s[-1].startswith("(rename-session) work"), "the prompt")
        outer.type(b"\x15main\r")
        await outer.see(lambda s: "[main] 0:logs*" in s[-1], "the renamed session")

        outer.type(b"\x02%")
        await eventually(lambda: shown("main", "#{window_panes}") == "2", what="two panes")
        outer.type(b"\x02x")
        await outer.see(lambda s: s[-1].startswith("kill-pane 1? (y/n)"), "the question")
        outer.type(b"n")  # anything but y cancels
        await outer.see(lambda s: s[-1].startswith("[main]"), "the status bar back")
        assert shown("main", "#{window_panes}") == "2"
        outer.type(b"\x02x")
        await outer.see(lambda s: s[-1].startswith("kill-pane 1? (y/n)"), "the question")
        outer.type(b"y")
        await eventually(lambda: shown("main", "#{window_panes}") == "1", what="one pane")

        outer.type(b"\x02c")
        await outer.see(lambda s: "1:sh*" in s[-1], "a second window")
        outer.type(b"\x02&")
        await outer.see(lambda s: s[-1].startswith("kill-window sh? (y/n)"), "the question")
        outer.type(b"y")
        await outer.see(lambda s: "[main] 0:logs*" in s[-1] and "1:sh" not in s[-1],
                        "the window gone")
        await outer.detach()

    asyncio.run(scenario())


def test_the_command_prompt_runs_verbs_on_the_clients_session(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "cmd")
        await outer.see(lambda s: "[cmd] 0:sh*" in s[-1], "the status bar")
        termhost(env, "new-session", "-d", "-s", "newer")  # the default target of a script
        outer.type(b"\x02:")
        await outer.see(lambda s: s[-1].startswith(":"), "the command prompt")
        outer.type(b"new-window -n 'from prompt'\r")
        await outer.see(lambda s: "1:from prompt*" in s[-1], "the new window in this session")
        assert termhost(env, "lsw", "-t", "newer", "-F", "#W") == "sh\n"
        outer.type(b"\x02:")
        await outer.see(lambda s: s[-1].startswith(":"), "the command prompt")
        outer.type(b"display-message -p '#{session_name} #{window_index}'\r")
        await outer.see(lambda s: s[0].startswith("cmd 1") and s[0].endswith("[0/0]"),
                        "the command's output in the pane's view mode, as tmux shows it")
        outer.type(b"q")
        await outer.see(lambda s: "cmd 1" not in s[0], "view mode left")
        for line, shown, what in (
                (b"bogus\r", "unknown command: bogus", "the error"),
                (b"display-message }\r", "syntax error", "the syntax error")):
            outer.type(b"\x02:")  # the prompt opens before what follows is typed into
            await outer.see(lambda s: s[-1].startswith(":"), "the command prompt")  # it
            outer.type(line)
            await outer.see(lambda s, shown=shown: s[-1].startswith(shown), what)  # type: ignore[misc]
        await outer.detach()

    asyncio.run(scenario())


def test_zoom_fills_the_window_and_unzooms(env: dict[str, str]) -> None:
    def shown(fmt: str) -> str:
        return termhost(env, "display", "-p", "-t", "zoom", fmt).strip()

    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "zoom")
        await outer.see(lambda s: "[zoom] 0:sh*" in s[-1], "the status bar")
        outer.type(b"\x02%")
        await outer.see(lambda s: "│$" in s[0], "two panes")
        split_width = shown("#{pane_width}")
        outer.type(b"\x02z")
        await outer.see(lambda s: "0:sh*Z" in s[-1] and "│" not in s[0], "the zoomed pane")
        assert shown("#{window_zoomed_flag} #{pane_index} #{pane_width}") == "1 1 80"
        outer.type(b"stty size\r")
        await outer.see(lambda s: "23 80" in s, "the zoomed size inside the pane")
        outer.type(b"\x02z")
        await outer.see(lambda s: "0:sh*" in s[-1] and "Z" not in s[-1] and "│" in s[0],
                        "both panes again")
        assert shown("#{window_zoomed_flag} #{pane_width}") == f"0 {split_width}"
        termhost(env, "resize-pane", "-Z", "-t", "zoom:0.0")  # zooms pane 0, made active
        await outer.see(lambda s: "0:sh*Z" in s[-1] and "│" not in s[0], "zoomed by a script")
        assert shown("#{pane_index} #{pane_width}") == "0 80"
        outer.type(b"\x02o")  # another pane becomes active: the window unzooms, as in tmux
        await outer.see(lambda s: "Z" not in s[-1] and "│" in s[0], "unzoomed by C-b o")
        assert shown("#{window_zoomed_flag} #{pane_index}") == "0 1"
        await outer.detach()

    asyncio.run(scenario())


def test_window_size_follows_the_latest_smallest_or_largest_client(
    env: dict[str, str],
) -> None:
    def size() -> str:
        return termhost(env, "display", "-p", "-t", "sz", "#{window_width}x#{window_height}")

    async def scenario() -> None:
        big = await client(env, "new-session", "-s", "sz", cols=80, rows=24)
        await big.see(lambda s: s[0].startswith("$"), "the prompt in the big client")
        small = await client(env, "attach", "-t", "sz", cols=60, rows=15)
        await small.see(lambda s: s[0].startswith("$") and "[sz]" in s[-1], "the small one")
        assert size() == "60x14\n"  # latest: the client that attached last, less its status
        big.type(b"true\r")  # typing makes a client the latest
        wait_until(lambda: size() == "80x23\n", what="the size of the client that typed")
        ttys = {os.readlink(f"/proc/{outer.child.pid}/fd/0") for outer in (big, small)}
        attached = termhost(env, "display", "-p", "-t", "sz", "#{session_attached}")
        listed = termhost(env, "list-clients", "-t", "sz", "-F", "#{client_tty}").split()
        assert attached == "2\n" and set(listed) == ttys
        termhost(env, "set", "-g", "window-size", "smallest")
        assert size() == "60x14\n"
        await big.see(lambda s: s[0][60:] == "·" * 20 and s[20] == "·" * 80,
                      "dots right of and below the window in the big client")
        termhost(env, "set", "-g", "window-size", "largest")
        assert size() == "80x23\n"
        await small.see(lambda s: "[sz]" in s[-1] and s[0].startswith("$"),
                        "the top left of the window in the small client, the status below")
        termhost(env, "resize-window", "-t", "sz", "-x", "50", "-y", "10")
        assert size() == "50x10\n"
        set_window_size(small.master, 70, 20)  # manual now: the clients do not change it
        wait_until(lambda: termhost(env, "display", "-p", "-t", "sz", "#{pane_width}")
                   == "50\n", what="the size to stay")
        termhost(env, "set", "-g", "window-size", "latest")
        wait_until(lambda: size() in ("80x23\n", "70x19\n"), what="the clients' size again")
        bad = subprocess.run([sys.executable, "-m", "termhost", "resize-window", "-x", "0"],
                             env=env, capture_output=True, text=True, timeout=30)
        assert (bad.returncode, bad.stderr) == (1, "width 0 is invalid\n")
        for outer in (big, small):
            await outer.detach()

    asyncio.run(scenario())


def test_prefix_question_mark_lists_the_keys_and_q_closes_the_list(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "keys", cols=80, rows=12)
        await outer.see(lambda s: s[0].startswith("$"), "the prompt")
        outer.type(b"echo under\r")
        await outer.see(lambda s: s[1] == "under", "the command's output")
        outer.type(b"\x02?")
        listed = termhost(env, "list-keys", "-N").splitlines()
        last = len(listed) - 11  # 11 rows above the status line
        # In the pane's view mode from its top, as tmux 3.3a shows it: `[72/72]`.
        await outer.see(lambda s: s[0].startswith(listed[0])
                        and s[0].endswith(f"[{last}/{last}]") and s[10] == listed[10],
                        "the first 11 bindings, the position")
        outer.type(b"\x1b>")  # M->: history-bottom, as emacs mode-keys (tmux's default) bind it
        await outer.see(lambda s: s[10] == listed[-1] and s[0].endswith(f"[0/{last}]"),
                        "the last binding at the bottom")
        outer.type(b"x")  # no binding in the view: nothing reaches the pane either
        outer.type(b"q")
        await outer.see(lambda s: s[:2] == ["$ echo under", "under"] and s[2] == "$",
                        "the pane again, untouched")
        await outer.detach()

    asyncio.run(scenario())


def test_prefix_space_cycles_layouts_and_prefix_ctrl_arrows_resize(env: dict[str, str]) -> None:
    def widths() -> str:
        return termhost(env, "list-panes", "-t", "lay", "-F", "#{pane_width}x#{pane_height}")

    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "lay", cols=80, rows=25)

        async def until(expected: str, what: str) -> None:
            # Through see(): the client's output must be read while waiting, or the
            # client blocks writing to its terminal and stops taking keys.
            await outer.see(lambda _: widths() == expected, what)

        await outer.see(lambda s: "[lay]" in s[-1], "the status bar")
        outer.type(b"\x02%")
        await outer.see(lambda _: widths().count("\n") == 2, "two panes")
        outer.type(b'\x02"')
        await outer.see(lambda _: widths().count("\n") == 3, "three panes")
        outer.type(b"\x02 ")  # C-b Space: the first preset, even-horizontal
        await until("26x24\n26x24\n26x24\n", "even-horizontal")
        outer.type(b"\x02 ")  # then even-vertical (figures from tmux 3.3a)
        await until("80x7\n80x7\n80x8\n", "even-vertical")
        outer.type(b"\x02\x1b[1;5A")  # C-b C-Up: the active (last) pane grows a row up
        await until("80x7\n80x6\n80x9\n", "a row more (tmux)")
        await outer.detach()

    asyncio.run(scenario())


def test_prefix_keys_that_move_panes_and_show_their_numbers(env: dict[str, str]) -> None:
    def panes() -> str:
        return termhost(env, "list-panes", "-s", "-t", "mv", "-F",
                        "#{window_index}.#{pane_index}:#{pane_id}#{?pane_active,*,}")

    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "mv", cols=80, rows=25)
        await outer.see(lambda s: "[mv]" in s[-1], "the status bar")
        outer.type(b"\x02%")
        await outer.see(lambda _: panes() == "0.0:%0\n0.1:%1*\n", "two panes")
        outer.type(b"\x02{")  # swap-pane -U: the active pane trades places, stays active
        await outer.see(lambda _: panes() == "0.0:%1*\n0.1:%0\n", "swapped")
        outer.type(b"\x02\x0f")  # C-o: rotate-window, the active place stays active
        await outer.see(lambda _: panes() == "0.0:%0*\n0.1:%1\n", "rotated")
        outer.type(b"\x02q")  # display-panes: the numbers over the panes
        screen = await outer.see(
            lambda s: s[12].split() == ["0", "│", "1"], "pane numbers in the middle of each pane")
        assert screen[12].index("0") < 40 < screen[12].index("1")
        outer.type(b"1")  # a digit selects that pane and ends the display
        await outer.see(lambda _: panes() == "0.0:%0\n0.1:%1*\n", "pane 1 selected")
        await outer.see(lambda s: s[12].split() == ["│"], "the numbers gone")
        outer.type(b"\x02\x1b2")  # M-2: even-vertical
        await outer.see(lambda _: termhost(env, "display", "-p", "-t", "mv",
                                           "#{pane_width}") == "80\n", "even-vertical")
        outer.type(b"\x02!")  # break-pane: the active pane in a window of its own
        await outer.see(lambda _: panes() == "0.0:%0*\n1.0:%1*\n", "broken out")
        await outer.see(lambda s: "1:" in s[-1] and "0:" in s[-1], "both windows listed")
        await outer.detach()

    asyncio.run(scenario())


def test_prefix_bracket_pastes_and_hash_lists_the_buffers(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "pb", "cat", cols=60, rows=10)
        await outer.see(lambda s: "[pb]" in s[-1], "the status bar")
        termhost(env, "set-buffer", "-b", "mine", "pasted text")
        outer.type(b"\x02]")  # paste-buffer -p: the most recent buffer, typed
        await outer.see(lambda s: s[0] == "pasted text", "the paste")
        outer.type(b"\x02#")  # list-buffers, in a view over the panes
        await outer.see(lambda s: s[0].startswith('mine: 11 bytes: "pasted text"'), "the list")
        outer.type(b"q")
        await outer.see(lambda s: s[0] == "pasted text", "the pane again")
        await outer.detach()

    asyncio.run(scenario())


def test_synchronize_panes_types_into_every_pane_of_that_window(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "sy", "cat", cols=60, rows=10)
        await outer.see(lambda s: "[sy]" in s[-1], "the status bar")
        termhost(env, "split-window", "-h", "-t", "sy", "cat")
        termhost(env, "set-window-option", "-t", "sy:0", "synchronize-panes", "on")
        outer.type(b"both")
        await outer.see(lambda s: s[0].split() == ["both", "│both"], "the keys in both panes")
        termhost(env, "new-window", "-t", "sy", "cat")  # another window: not synchronized
        await outer.see(lambda s: "1:" in s[-1], "the new window")
        outer.type(b"one")
        await outer.see(lambda s: s[0] == "one", "the keys in its one pane")
        # the global value; window 0's own; none of window 1's own (tmux shows nothing)
        assert termhost(env, "show-options", "-gv", "synchronize-panes") == "off\n"
        assert termhost(env, "show-options", "-wv", "-t", "sy:0", "synchronize-panes") == "on\n"
        assert termhost(env, "show-options", "-v", "synchronize-panes") == ""
        await outer.detach()

    asyncio.run(scenario())


def test_copy_mode_scrolls_searches_selects_and_copies(env: dict[str, str]) -> None:
    async def scenario() -> None:
        termhost(env, "new-session", "-d", "-s", "cm", "-x", "40", "-y", "10",
                 "seq 1 100; exec cat")
        termhost(env, "set", "-g", "mode-keys", "vi")
        outer = await client(env, "attach", "-t", "cm", cols=40, rows=11)
        await outer.see(lambda s: s[8] == "100", "the end of the output")
        outer.type(b"\x02[")
        await outer.see(lambda s: s[0].endswith("[0/91]"), "the position indicator")
        outer.type(b"kkk")  # up three lines: the view follows once the cursor leaves it
        await outer.see(lambda s: s[0].endswith("[0/91]"), "still at the bottom")
        outer.type(b"g")  # the top of the history
        await outer.see(lambda s: s[0].startswith("1 ") and s[0].endswith("[91/91]"),
                        "the first line")
        outer.type(b"/57\r")  # search down: the view moves to the match
        await outer.see(lambda s: any(line.startswith("57") for line in s[:10]), "57")
        outer.type(b"0v$y")  # select the line and copy it: copy mode ends
        await outer.see(lambda s: s[8] == "100" and "[" not in s[0], "the live pane again")
        assert termhost(env, "show-buffer") == "57"
        outer.type(b"\x02]")  # and paste it into cat
        await outer.see(lambda s: s[9] == "57", "the copied line pasted, typed into cat")
        await outer.detach()

    asyncio.run(scenario())


def test_copy_mode_is_each_panes_own_as_in_tmux(env: dict[str, str]) -> None:
    """A pane left in copy mode stays in it while another pane is used, and is still in
    it when selected again."""
    async def scenario() -> None:
        termhost(env, "new-session", "-d", "-s", "pp", "-x", "61", "-y", "10",
                 "seq 1 50; exec cat")
        termhost(env, "split-window", "-h", "-t", "pp", "exec cat")
        termhost(env, "select-pane", "-t", "pp:0.0")
        outer = await client(env, "attach", "-t", "pp", cols=61, rows=11)
        await outer.see(lambda s: s[8].startswith("50"), "the left pane's output")

        def indicator(screen: list[str]) -> bool:
            return re.search(r"\[\d+/\d+\]$", screen[0][:30].rstrip()) is not None

        outer.type(b"\x02[")  # copy mode in the left pane
        await outer.see(indicator, "the left pane's position indicator")
        outer.type(b"\x02o")  # the right pane, live: typing reaches cat
        outer.type(b"typed\r")
        await outer.see(lambda s: indicator(s) and any(line[31:].startswith("typed")
                                                       for line in s), "both at once")
        outer.type(b"\x02o")  # back to the left pane: still in copy mode, keys go to it
        outer.type(b"q")
        await outer.see(lambda s: not indicator(s) and s[8].startswith("50"),
                        "the left pane live again")
        await outer.detach()

    asyncio.run(scenario())


def test_a_client_whose_output_is_not_its_terminal_gets_it_relayed(
    env: dict[str, str],
) -> None:
    # The server writes straight to a client's terminal only when the client's stdout is
    # that terminal; here it is a pipe, so every byte must come through the client.
    termhost(env, "new-session", "-d", "-s", "piped", "-x", "60", "-y", "10",
             "echo through-the-relay; exec cat")
    master, slave = os.openpty()
    set_window_size(slave, 60, 11)
    client_process = subprocess.Popen(
        [sys.executable, "-m", "termhost", "attach", "-t", "piped"], env=env,
        stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(slave)
    try:
        assert client_process.stdout is not None
        seen = bytearray()
        deadline = time.monotonic() + DEADLINE
        pipe = client_process.stdout.fileno()
        while b"[piped]" not in seen or b"through-the-relay" not in seen:
            left = deadline - time.monotonic()
            assert left > 0, f"never saw the session in the pipe: {bytes(seen)!r}"
            if select.select([pipe], [], [], left)[0]:
                seen += os.read(pipe, 65536)
        os.write(master, b"\x02d")
        out, _ = client_process.communicate(timeout=DEADLINE)
        assert client_process.returncode == 0
        assert b"[detached (from session piped)]" in out
    finally:
        if client_process.poll() is None:
            client_process.kill()
        os.close(master)


def test_the_server_reads_the_clients_terminal_itself(env: dict[str, str]) -> None:
    # As tmux's: once attached, keys go from the terminal to the server with no client
    # process in between, so a stopped client still types (and echoes, written straight
    # to the terminal); keys typed across the handover keep their order.
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "direct", "cat")
        await outer.see(lambda s: "[direct] 0:" in s[-1], "the status bar")
        letters = b"abcdefghijklmnopqrstuvwxyz"
        for letter in letters:
            outer.type(bytes([letter]))
        await outer.see(lambda s: s[0] == letters.decode(), "the letters in order")
        os.kill(outer.child.pid, signal.SIGSTOP)
        try:
            outer.type(b"\rwhile-stopped")
            await outer.see(lambda s: s[1].startswith("while-stopped"), "keys typed while stopped")
            outer.type(b"\x02d")
            await eventually(lambda: termhost(env, "ls", "-F", "#{session_attached}") == "0\n")
        finally:
            os.kill(outer.child.pid, signal.SIGCONT)
        assert (await asyncio.wait_for(outer.child.wait(), DEADLINE)).code == 0
        await outer.see(lambda s: "[detached (from session direct)]" in "\n".join(s),
                        "the detach message")
        outer.close()

    asyncio.run(scenario())


def test_keys_bound_with_bind_key_work_in_the_client(env: dict[str, str]) -> None:
    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "bound", cols=80, rows=24)
        await outer.see(lambda s: "[bound] 0:sh*" in s[-1], "the status bar")
        termhost(env, "bind", "|", "split-window", "-h")  # a default's command
        termhost(env, "bind", "R", "rename-window", "renamed")  # any other tmux command
        termhost(env, "unbind", "%")
        outer.type(b"\x02%")  # unbound now: nothing happens
        outer.type(b"\x02R")
        await outer.see(lambda s: "[bound] 0:renamed*" in s[-1], "the window renamed")
        termhost(env, "display-message", "-t", "bound", "hello from #{session_name}")
        await outer.see(lambda s: s[-1].startswith("hello from bound"),
                        "display-message in the status line")
        assert termhost(env, "display", "-p", "-t", "bound", "#{window_panes}") == "1\n"
        outer.type(b"\x02|")
        await outer.see(lambda s: "│" in s[0], "two panes side by side")
        await outer.detach()

    asyncio.run(scenario())


def test_typing_beside_a_flood_echoes_and_the_flood_loses_nothing(env: dict[str, str]) -> None:
    # While someone types, a pane that floods pauses between its turns (the echo comes
    # first); it must still go on, and every byte it wrote must arrive.
    def flood_screen() -> str:
        return termhost(env, "capture-pane", "-p", "-t", "busy:0.1")

    async def scenario() -> None:
        outer = await client(env, "new-session", "-s", "busy", "cat", cols=80, rows=24)
        await outer.see(lambda s: "[busy]" in s[-1], "the status bar")
        termhost(env, "split-window", "-d", "-t", "busy",
                 "seq 1 300000; echo flood-done; exec sleep 100")
        typed = 0
        while "flood-done" not in flood_screen():
            outer.type(b"x")
            typed += 1
            # The cat pane is the top 11 rows: 880 cells, room for every echo.
            await outer.see(lambda s, n=typed: "".join(s[:11]).count("x") == n,
                            "each key's echo")
            assert typed < 800, "the flood never ended while 800 keys were typed"
        rows = [row for row in flood_screen().split("\n") if row]
        assert rows[-2:] == ["300000", "flood-done"]
        await outer.detach()

    asyncio.run(scenario())
