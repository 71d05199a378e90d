"""The server driven through the real `termhost` CLI, as a script would drive tmux."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from termhost.terminal import Terminal
from tests.conftest import pid_exists, wait_until


class Termhost:
    """`termhost` against a private TERMHOST_TMPDIR; kills its server at the end."""

    def __init__(self, tmpdir: Path) -> None:
        self.env = {**os.environ, "TERMHOST_TMPDIR": str(tmpdir)}
        self.env.pop("TERMHOST", None)
        self.socket = tmpdir / f"termhost-{os.geteuid()}" / "default"

    def __call__(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "termhost", *args], env=self.env, capture_output=True,
            text=True, timeout=30,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"termhost {' '.join(args)} failed: {done.stderr}")
        return done

    def screen(self, target: str) -> str:
        return self("capture-pane", "-p", "-t", target).stdout

    def server_pid(self) -> int | None:
        done = self("display-message", "-p", "#{pid}", check=False)
        return int(done.stdout) if done.returncode == 0 else None


@pytest.fixture
def termhost(tmp_path: Path) -> Iterator[Termhost]:
    t = Termhost(tmp_path)
    yield t
    pid = t.server_pid()
    t("kill-server", check=False)
    if pid is not None:
        wait_until(lambda: not pid_exists(pid), what="the server to exit")


def test_a_session_lives_on_a_server_started_on_demand(termhost: Termhost) -> None:
    assert termhost("has-session", "-t", "work", check=False).stderr.startswith(
        "termhost: no server running on "
    )
    termhost("new-session", "-d", "-s", "work", "-x", "70", "-y", "12")
    assert termhost("has-session", "-t", "work").returncode == 0
    listing = termhost("list-sessions").stdout
    assert listing.startswith("work: 1 windows (created ")
    # termhost's own: how the snapshot of the session's shell stands, taken in the background
    assert listing.endswith((" (snapshot pending)\n", " (snapshot ready)\n"))
    wait_until(lambda: termhost("list-sessions").stdout.endswith(" (snapshot ready)\n"),
               what="the snapshot to be taken")
    assert termhost("ls", "-F", "#{session_name} #{session_windows}").stdout == "work 1\n"
    assert termhost("display", "-p", "-t", "work", "#{pane_width}x#{pane_height}").stdout == (
        "70x12\n"
    )


def test_tmux_errors_and_exit_statuses(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "work")
    duplicate = termhost("new-session", "-d", "-s", "work", check=False)
    assert (duplicate.returncode, duplicate.stderr) == (1, "duplicate session: work\n")
    missing = termhost("has-session", "-t", "nope", check=False)
    assert (missing.returncode, missing.stderr) == (1, "can't find session: nope\n")
    bad_flag = termhost("new-session", "-Q", check=False)
    assert (bad_flag.returncode, bad_flag.stderr) == (1, "command new-session: unknown flag -Q\n")
    unknown = termhost("frobnicate", check=False)
    assert unknown.returncode == 2 and "unknown command: frobnicate" in unknown.stderr
    assert "Traceback" not in duplicate.stderr + missing.stderr + bad_flag.stderr


def test_a_verb_starts_a_server_by_its_table_entry_and_a_bad_flag_starts_none(
    termhost: Termhost,
) -> None:
    # As tmux: new-session -Q is refused before any server starts (tmux then says it
    # cannot connect); a prefix of a verb that starts one starts one too.
    refused = termhost("new-session", "-Q", "-d", check=False)
    assert (refused.returncode, refused.stderr) == (1, "command new-session: unknown flag -Q\n")
    assert termhost("has-session", check=False).stderr.startswith("termhost: no server running")
    assert not termhost.socket.exists()
    termhost("new-sess", "-d", "-s", "prefixed")
    assert termhost("ls", "-F", "#{session_name}").stdout == "prefixed\n"


def test_keys_sent_to_a_pane_show_on_its_screen(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "work", "-x", "60", "-y", "8", "cat")
    termhost("send-keys", "-t", "work", "typed line", "Enter")
    termhost("send-keys", "-t", "work:0.0", "-l", "literal Enter")
    wait_until(lambda: "literal Enter" in termhost.screen("work"), what="the keys on screen")
    lines = termhost.screen("work").splitlines()
    assert lines[:3] == ["typed line", "typed line", "literal Enter"]  # tty echo, cat's copy
    x, y = termhost("display", "-p", "-t", "work", "#{cursor_x} #{cursor_y}").stdout.split()
    assert (int(x), int(y)) == (len("literal Enter"), 2)


@pytest.mark.parametrize("flags", [[], ["-J"], ["-N"]], ids=["plain", "J", "N"])
def test_capture_pane_matches_tmux_for_the_same_output(
    termhost: Termhost, flags: list[str]
) -> None:
    script = ("printf 'one\\n\\ttab\\n\\033[31mred\\033[0m  trailing  \\nwide 日本\\n"
              "%050d\\n'; sleep 100")
    termhost("new-session", "-d", "-s", "cap", "-x", "40", "-y", "6", script)
    tmux = ["tmux", "-L", f"termhost-cap-{os.getpid()}", "-f", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    subprocess.run([*tmux, "new-session", "-d", "-x", "40", "-y", "6", script], env=env,
                   check=True, timeout=10)
    try:
        def tmux_screen() -> str:
            return subprocess.run([*tmux, "capture-pane", "-p", *flags], env=env,
                                  capture_output=True, text=True, check=True, timeout=10).stdout

        def termhost_screen() -> str:
            return termhost("capture-pane", "-p", *flags, "-t", "cap").stdout

        wait_until(lambda: "000" in tmux_screen(), what="tmux's pane")
        wait_until(lambda: "000" in termhost_screen(), what="termhost's pane")
        assert termhost_screen() == tmux_screen()
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, timeout=10, check=False)


def test_history_is_captured_with_S_minus(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "h", "-x", "30", "-y", "5",
             "seq 1 50; sleep 100")
    wait_until(lambda: "50" in termhost.screen("h"), what="seq's output")
    everything = termhost("capture-pane", "-p", "-t", "h", "-S", "-").stdout.split()
    assert everything[:50] == [str(n) for n in range(1, 51)]
    assert termhost("capture-pane", "-p", "-t", "h", "-S", "-2", "-E", "-1").stdout == "45\n46\n"


def test_the_server_exits_with_its_last_session(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "a", "sleep 100")
    termhost("new-session", "-d", "-s", "b", "sleep 100")
    pid = termhost.server_pid()
    assert pid is not None
    termhost("kill-session", "-t", "a")
    assert termhost("ls", "-F", "#{session_name}").stdout == "b\n"
    termhost("kill-session", "-t", "b")
    wait_until(lambda: not pid_exists(pid), what="the server to exit")
    assert not termhost.socket.exists()


def test_a_pane_whose_command_ends_closes_its_session(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "brief", "true")
    termhost("new-session", "-d", "-s", "stays", "sleep 100")
    wait_until(lambda: termhost("has", "-t", "brief", check=False).returncode == 1,
               what="the session to close")


def test_kill_server_leaves_no_pane_process(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "k", "sleep 1000")
    pane_pid = int(termhost("display", "-p", "-t", "k", "#{pane_pid}").stdout)
    server_pid = termhost.server_pid()
    assert pid_exists(pane_pid)
    termhost("kill-server")
    wait_until(lambda: not pid_exists(pane_pid), what="the pane process to end")
    assert server_pid is not None
    wait_until(lambda: not pid_exists(server_pid), what="the server to exit")


def test_a_killed_server_takes_its_panes_with_it(termhost: Termhost) -> None:
    # The pane ignores SIGHUP (the PTY's hangup), so only the parent-death signal ends it.
    termhost("new-session", "-d", "-s", "k", "trap '' HUP; exec sleep 1000")
    pane_pid = int(termhost("display", "-p", "-t", "k", "#{pane_pid}").stdout)
    server_pid = termhost.server_pid()
    assert server_pid is not None
    os.kill(server_pid, signal.SIGKILL)
    wait_until(lambda: not pid_exists(pane_pid), what="the pane to die with its server")


def test_concurrent_starts_give_one_server(termhost: Termhost) -> None:
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(
            lambda n: termhost("new-session", "-d", "-s", f"s{n}", "sleep 100", check=False),
            range(6),
        ))
    assert [r.returncode for r in results] == [0] * 6, [r.stderr for r in results]
    listing = termhost("ls", "-F", "#{session_name} #{pid}").stdout.split("\n")[:-1]
    assert sorted(line.split()[0] for line in listing) == [f"s{n}" for n in range(6)]
    assert len({line.split()[1] for line in listing}) == 1  # all on one server


def test_a_stale_socket_is_replaced(termhost: Termhost) -> None:
    termhost.socket.parent.mkdir(mode=0o700, parents=True)
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(termhost.socket))
    stale.close()  # the file stays, nobody listens
    termhost("new-session", "-d", "-s", "fresh")
    assert termhost("has-session", "-t", "fresh").returncode == 0


def test_garbage_on_the_socket_drops_only_that_connection(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "g", "sleep 100")
    for junk in (b"GET / HTTP/1.0\r\n\r\n", b"\x01\xff\xff\xff\xff" + b"x" * 100, b"\x00" * 64):
        with socket.socket(socket.AF_UNIX) as raw:
            raw.connect(str(termhost.socket))
            raw.sendall(junk)
            raw.settimeout(10)
            while raw.recv(4096):
                pass  # the server answers (HELLO) or not, then hangs up
    assert termhost("has-session", "-t", "g").returncode == 0


def test_a_group_readable_socket_directory_is_refused(termhost: Termhost) -> None:
    termhost.socket.parent.mkdir(mode=0o700, parents=True)
    termhost.socket.parent.chmod(0o755)
    done = termhost("new-session", "-d", check=False)
    assert done.returncode == 1
    assert "accessible by other users" in done.stderr and "chmod 700" in done.stderr


def test_targets_by_id_and_by_index(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "ids", "sleep 100")
    pane, window, session = termhost(
        "display", "-p", "-t", "ids", "#{pane_id} #{window_id} #{session_id}"
    ).stdout.split()
    for target in (pane, window, session, "ids:0", "ids:0.0", "=ids", "i"):
        shown = termhost("display", "-p", "-t", target, "#{session_name}").stdout
        assert shown == "ids\n", target
    # (display-message's target may fail, as tmux's CMD_FIND_CANFAIL: not a finder's test)
    assert termhost("select-pane", "-t", "%99", check=False).stderr == (
        "can't find pane: %99\n"
    )
    assert termhost("select-window", "-t", "ids:5", check=False).stderr == (
        "can't find window: 5\n"
    )


def test_windows_take_the_lowest_free_index_and_follow_tmux(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "w", "-n", "first", "sleep 100")
    termhost("new-window", "-t", "w", "-n", "second", "sleep 100")
    termhost("new-window", "-t", "w", "-n", "third", "sleep 100")
    termhost("kill-window", "-t", "w:1")
    wait_until(lambda: termhost("lsw", "-t", "w", "-F", "#{window_index}").stdout == "0\n2\n",
               what="window 1 to close")
    termhost("new-window", "-d", "-t", "w", "-n", "fourth", "sleep 100")
    listing = termhost("list-windows", "-t", "w", "-F",
                       "#{window_index} #{window_name} #{window_active} #{window_flags}").stdout
    assert listing == "0 first 0 \n1 fourth 0 \n2 third 1 *\n"
    termhost("select-window", "-t", "w:0")
    assert termhost("display", "-p", "-t", "w", "#{window_index} #{window_name}").stdout == (
        "0 first\n"
    )
    assert "2 third 0 -" in termhost("lsw", "-t", "w", "-F",
                                     "#{window_index} #{window_name} #{window_active} "
                                     "#{window_flags}").stdout
    termhost("rename-window", "-t", "w:2", "renamed")
    termhost("rename-session", "-t", "w", "work")
    assert termhost("lsw", "-t", "work", "-F", "#{window_name}").stdout.split() == [
        "first", "fourth", "renamed"
    ]
    assert termhost("has-session", "-t", "=w", check=False).returncode == 1  # "w" alone: a prefix
    assert termhost("list-panes", "-t", "work:0").stdout.startswith("0: [80x24] [history 0/2000, ")


def test_killing_the_last_pane_closes_the_session(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "one", "sleep 100")
    termhost("new-session", "-d", "-s", "two", "sleep 100")
    termhost("kill-pane", "-t", "one")
    wait_until(lambda: termhost("has", "-t", "one", check=False).returncode == 1,
               what="the session to close with its pane")


def test_options_apply_to_what_is_created_after_them(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "before", "seq 1 40; sleep 100")
    termhost("set-option", "-g", "history-limit", "5")
    termhost("set", "-g", "base-index", "3")
    termhost("set", "-g", "default-terminal", "screen-256color")
    assert termhost("show-options", "-gv", "history-limit").stdout == "5\n"
    assert termhost("show", "-g", "base-index").stdout == "base-index 3\n"
    termhost("new-session", "-d", "-s", "after", "-y", "5",
             "echo $TERM; seq 1 40; sleep 100")
    wait_until(lambda: "40" in termhost.screen("after"), what="seq in the new session")
    assert termhost("display", "-p", "-t", "after", "#{history_size}").stdout == "5\n"
    assert termhost("display", "-p", "-t", "after", "#{window_index}").stdout == "3\n"
    # 41 lines and the cursor's: rows 38-42 on screen, the newest 5 of 1-37 kept above.
    assert termhost("capture-pane", "-p", "-t", "after", "-S", "-").stdout.split()[0] == "32"
    wait_until(lambda: "40" in termhost.screen("before"), what="seq in the first session")
    assert termhost("display", "-p", "-t", "before", "#{history_limit}").stdout == "2000\n"
    bad = termhost("set", "-g", "nosuch", "1", check=False)
    assert (bad.returncode, bad.stderr) == (1, "invalid option: nosuch\n")
    bad = termhost("set", "-g", "history-limit", "abc", check=False)
    assert (bad.returncode, bad.stderr) == (1, "value is invalid: abc\n")
    termhost("set", "-gu", "history-limit")
    assert termhost("show", "-gv", "history-limit").stdout == "2000\n"


def test_the_pane_environment_carries_term_and_termhost(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "env", "-e", "EXTRA=yes",
             'echo "$TERM|$TERMHOST_PANE|$EXTRA|${TERMHOST%%,*}"; sleep 100')
    wait_until(lambda: "|" in termhost.screen("env"), what="the echo")
    joined = termhost("capture-pane", "-p", "-J", "-t", "env").stdout.splitlines()[0]
    assert joined == f"tmux-256color|%0|yes|{termhost.socket}"


SPLIT_STEPS = [
    ["split-window", "-h"], ["split-window", "-v"], ["split-window", "-h", "-p", "30"],
    ["split-window", "-v", "-l", "5"], ["select-pane", "-L"], ["select-pane", "-R"],
    ["select-pane", "-U"], ["select-pane", "-D"], ["kill-pane", "-t", ":0.2"],
    ["select-pane", "-t", ":0.0"], ["split-window", "-v", "-b"], ["select-pane", "-L"],
    ["split-window", "-h", "-d", "-l", "50%"], ["kill-pane", "-t", ":0.0"],
]
LAYOUT_STEPS = [
    ["split-window", "-h"], ["split-window", "-v"], ["split-window", "-h"],
    ["select-layout", "tiled"], ["resize-pane", "-L", "3"], ["resize-pane", "-x", "20"],
    ["resize-pane", "-t", ":0.1", "-D", "2"], ["resize-pane", "-U"], ["select-layout", "-n"],
    ["next-layout"], ["previous-layout"], ["select-layout", "main-vertical"],
    ["resize-pane", "-t", ":0.2", "-y", "5"], ["select-layout", "even-h"],
    ["kill-pane", "-t", ":0.1"], ["resize-pane", "-R", "7"], ["select-layout", "-p"],
    ["select-layout", "main-horizontal"], ["split-window", "-h"], ["kill-pane", "-t", ":0.0"],
]
MOVE_STEPS = [
    ["split-window", "-h"], ["split-window", "-v"], ["swap-pane", "-U"], ["swap-pane", "-D"],
    ["swap-pane", "-d", "-D"], ["swap-pane", "-s", "s:0.0", "-t", ":0.2"], ["rotate-window"],
    ["rotate-window", "-D"], ["select-pane", "-t", ":0.1"], ["rotate-window", "-U"],
    ["swap-pane", "-d", "-U"], ["split-window", "-h"], ["swap-pane", "-s", "s:0.1", "-t", ":0.3"],
    ["select-layout", "tiled"], ["rotate-window", "-D"], ["swap-pane", "-t", ":0.0"],
]
PANES = (
    "#{pane_index} #{pane_id} #{pane_left},#{pane_top} #{pane_width}x#{pane_height} "
    "#{pane_active}"
)


@pytest.mark.parametrize(
    "steps", [SPLIT_STEPS, LAYOUT_STEPS, MOVE_STEPS], ids=["splits", "layouts", "moves"]
)
def test_splits_layouts_and_pane_selection_match_tmux(
    termhost: Termhost, steps: list[list[str]]
) -> None:
    tmux = ["tmux", "-L", f"termhost-split-{os.getpid()}", "-f", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}

    def in_tmux(*args: str) -> str:
        return subprocess.run([*tmux, *args], env=env, capture_output=True, text=True,
                              check=True, timeout=10).stdout

    in_tmux("new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 100")
    termhost("new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 100")
    try:
        for step in steps:
            command = [*step, "sleep 100"] if step[0] == "split-window" else step
            in_tmux(*_targeted(command))
            termhost(*_targeted(command))
            ours = termhost("list-panes", "-t", "s", "-F", PANES).stdout
            theirs = in_tmux("list-panes", "-t", "s", "-F", PANES)
            assert ours == theirs, f"after {' '.join(step)}"
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, timeout=10, check=False)


def test_break_and_join_pane_move_panes_between_windows_as_tmux(termhost: Termhost) -> None:
    # Which pane is in which window and place, and which are active, after each step,
    # in tmux and in termhost. (join-pane's sizes are split-window's arithmetic here;
    # tmux's differ, so sizes are not compared.)
    tmux = ["tmux", "-L", f"termhost-move-{os.getpid()}", "-f", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    shape = "#{window_index}.#{pane_index} #{pane_id} #{pane_active}#{window_active}"
    steps = [
        ["split-window", "-t", "s"], ["split-window", "-t", "s"], ["break-pane", "-s", "s:0.2"],
        ["break-pane", "-d", "-n", "named", "-s", "s:0.1"],
        ["join-pane", "-s", "s:1", "-t", "s:0.0"],
        ["join-pane", "-h", "-s", "s:2", "-t", "s:0.1"],
        ["move-pane", "-d", "-s", "s:0.0", "-t", "s:0.2"],
        ["break-pane", "-s", "s:0.0", "-t", "s:5"],
    ]

    def in_tmux(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*tmux, *args], env=env, capture_output=True, text=True,
                              check=check, timeout=10)

    in_tmux("new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 100")
    termhost("new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "sleep 100")
    try:
        for step in steps:
            command = [*step, "sleep 100"] if step[0] == "split-window" else step
            in_tmux(*command)
            termhost(*command)
            ours = termhost("list-panes", "-s", "-t", "s", "-F", shape).stdout
            theirs = in_tmux("list-panes", "-s", "-t", "s", "-F", shape).stdout
            assert ours == theirs, f"after {' '.join(step)}"
            if "-n" in step:
                names = termhost("list-windows", "-t", "s", "-F", "#{window_name}").stdout
                assert "named\n" in names
        for bad in (["join-pane", "-s", "s:0.0", "-t", "s:0.0"], ["swap-pane", "-t", "%99"],
                    ["break-pane", "-s", "s:0.0", "-t", "s:5"],
                    ["break-pane", "-s", "s:0.0", "-t", "s:x"]):
            theirs_failed = in_tmux(*bad, check=False)
            ours_failed = termhost(*bad, check=False)
            assert (ours_failed.returncode, ours_failed.stderr) == (
                theirs_failed.returncode, theirs_failed.stderr), bad
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, timeout=10, check=False)


def test_select_pane_T_names_the_pane(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "t", "sleep 100")
    termhost("select-pane", "-t", "t", "-T", "my title")
    shown = termhost("display-message", "-p", "-t", "t", "#{pane_title}").stdout
    assert shown == "my title\n"


def _targeted(command: list[str]) -> list[str]:
    """The command aimed at session `s` (its `-t :0.N` made `-t s:0.N`)."""
    if "-t" in command:
        at = command.index("-t") + 1
        return [*command[:at], "s" + command[at], *command[at + 1 :]]
    return [command[0], "-t", "s", *command[1:]]


def test_input_a_program_does_not_read_never_stalls_the_server(
    termhost: Termhost, tmp_path: Path
) -> None:
    # In raw mode the tty takes about 4 KiB and then refuses more: the rest must wait
    # in the server without holding it up, and arrive in order once the program reads.
    flag = tmp_path / "read-now"
    termhost("new-session", "-d", "-s", "slow", "-x", "80", "-y", "10",
             f"stty raw -echo; while [ ! -e {flag} ]; do sleep 0.05; done; "
             "head -c 60000 | tr -d x | wc -c; sleep 100")
    termhost("new-session", "-d", "-s", "other", "cat")
    termhost("send-keys", "-t", "slow", "-l", "x" * 59999 + "y")
    termhost("send-keys", "-t", "other", "still served", "Enter")
    wait_until(lambda: "still served" in termhost.screen("other"), what="the other pane")
    flag.touch()
    wait_until(lambda: termhost.screen("slow").split() == ["1"], timeout=20,
               what="every byte to reach the slow program, the y last")


def test_remain_on_exit_keeps_a_dead_pane_until_it_is_killed(termhost: Termhost) -> None:
    def panes() -> str:
        fmt = "#{pane_index}:#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}"
        return termhost("list-panes", "-t", "keep", "-F", fmt).stdout

    termhost("new-session", "-d", "-s", "keep", "-x", "60", "-y", "6", "sleep 100")
    termhost("setw", "-g", "remain-on-exit", "on")  # a window option in tmux: setw works
    termhost("split-window", "-t", "keep", "echo bye; exit 3")
    wait_until(lambda: "Pane is dead (status 3, " in termhost.screen("keep:0.1"),
               what="tmux's notice on the dead pane")
    # As tmux: a line feed on the bottom row, the notice there (2 rows: "bye" scrolls off)
    kept = termhost("capture-pane", "-p", "-S", "-", "-t", "keep:0.1").stdout.splitlines()
    assert kept[0] == "bye" and kept[-1].startswith("Pane is dead (status 3, ")
    assert panes() == "0:0::\n1:1:3:\n"
    assert termhost("display", "-p", "-t", "keep:0.1", "#{pane_dead}").stdout == "1\n"
    # respawn-pane: the dead pane runs again, in its place, with its id
    pane_id = termhost("display", "-p", "-t", "keep:0.1", "#{pane_id}").stdout
    termhost("respawn-pane", "-t", "keep:0.1", "echo again; sleep 100")
    wait_until(lambda: "again" in termhost.screen("keep:0.1"), what="the respawned command")
    assert panes() == "0:0::\n1:0::\n"
    assert termhost("display", "-p", "-t", "keep:0.1", "#{pane_id}").stdout == pane_id
    live = termhost("respawn-pane", "-t", "keep:0.1", check=False)
    assert (live.returncode, live.stderr) == (
        1, "respawn pane failed: pane keep:0.1 still active\n")
    termhost("respawn-pane", "-k", "-t", "keep:0.1", "echo bye; exit 3")  # kills, then runs
    wait_until(lambda: panes() == "0:0::\n1:1:3:\n", what="the respawned pane to die again")
    termhost("kill-pane", "-t", "keep:0.1")
    wait_until(lambda: panes() == "0:0::\n", what="the killed dead pane to go")
    # failed: a pane that ends well goes, one killed by a signal stays
    termhost("set", "-g", "remain-on-exit", "failed")
    termhost("split-window", "-t", "keep", "exit 0")
    wait_until(lambda: panes() == "0:0::\n", what="the pane that ended well to go")
    termhost("split-window", "-t", "keep", "kill -TERM $$")
    wait_until(lambda: panes() == "0:0::\n1:1::15\n", what="the signalled pane to stay")
    assert "Pane is dead (signal 15, " in termhost.screen("keep:0.1")
    bad = termhost("set", "-g", "remain-on-exit", "maybe", check=False)
    assert (bad.returncode, bad.stderr) == (1, "unknown value: maybe\n")
    termhost("set", "-g", "remain-on-exit", "off")
    termhost("kill-session", "-t", "keep")
    wait_until(lambda: termhost("has", "-t", "keep", check=False).returncode == 1,
               what="the session with a dead pane to be killed")


def test_a_tmux_config_runs_at_start_and_its_errors_name_file_and_line(
    termhost: Termhost, tmp_path: Path
) -> None:
    config = tmp_path / "tmux.conf"
    config.write_text(
        "# comments and blank lines are skipped\n\n"
        "set -g history-limit 77\n"
        "set -g base-index 1 ; set -g nosuch 3\n"
        "bind r source-file ~/.tmux.conf\n"
        "bind ab kill-server\n"
        "new-session -d -s fromconf \\\n"
        "   -x 50 'sleep 100'\n"
    )
    started = termhost("-f", str(config), "start-server", check=False)
    # As tmux 3.3a: the rest still loads, and the errors wait, not on stderr, for the
    # first session, which shows them in view mode over its pane.
    assert (started.returncode, started.stderr) == (0, "")
    assert termhost("ls", "-F", "#{session_name} #{window_index} #{window_width} "
                    "#{pane_mode}").stdout == "fromconf 1 50 view-mode\n"
    assert termhost("show", "-gv", "history-limit").stdout == "77\n"
    # source-file on a running server: as tmux 3.3a, a file with a command it cannot
    # build (here, a quote left open takes the rest of the file) runs none of them
    extra = tmp_path / "extra.conf"
    extra.write_text('set -g history-limit 5\nrename-session -t fromconf "re named"\nfoo "x\n')
    sourced = termhost("source", str(extra), check=False)  # said on stdout, as tmux's
    assert (sourced.returncode, sourced.stdout) == (1, f"{extra}:3: unknown command: foo\n")
    assert termhost("ls", "-F", "#{session_name}").stdout == "fromconf\n"
    assert termhost("show", "-gv", "history-limit").stdout == "77\n"
    none = tmp_path / "none"
    missing = termhost("source-file", str(none), check=False)
    assert (missing.returncode, missing.stderr) == (1, f"{none}: No such file or directory\n")
    assert termhost("source-file", "-q", str(none)).returncode == 0
    loop = tmp_path / "loop.conf"
    loop.write_text(f"source-file {loop}\n")
    assert "too many nested files" in termhost("source", str(loop), check=False).stderr


def test_start_server_and_list_keys_leave_no_server_behind(termhost: Termhost) -> None:
    assert termhost("start-server").returncode == 0
    keys = [line.split() for line in termhost("list-keys").stdout.splitlines()]
    assert ["bind-key", "-T", "prefix", "\\%", "split-window", "-h"] in keys
    notes = [line.split(None, 2) for line in termhost("lsk", "-N").stdout.splitlines()]
    assert ["C-b", "?", "List key bindings"] in notes
    assert termhost("ls", check=False).stderr.startswith("termhost: no server running on ")


def test_wait_for_signals_and_locks_between_scripts(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "w", "sleep 100")
    # A pane's command signals the script waiting for it, as with tmux.
    signal_done = f"{shlex.quote(sys.executable)} -m termhost wait-for -S built"
    termhost("new-window", "-t", "w", f"echo building; {signal_done}; sleep 100")
    termhost("wait-for", "built")  # returns once the pane has signalled
    termhost("wait-for", "-S", "early")  # nobody waits: kept for the next one
    termhost("wait-for", "early")
    termhost("wait-for", "-L", "lock")
    second = subprocess.Popen([sys.executable, "-m", "termhost", "wait-for", "-L", "lock"],
                              env=termhost.env)
    with pytest.raises(subprocess.TimeoutExpired):
        second.wait(timeout=0.5)  # held by the first: it must still be waiting
    termhost("wait-for", "-U", "lock")
    assert second.wait(timeout=30) == 0  # it has the lock now
    termhost("wait-for", "-U", "lock")
    bad = termhost("wait-for", "-U", "lock", check=False)
    assert (bad.returncode, bad.stderr) == (1, "channel lock not locked\n")


def test_a_command_run_in_a_pane_targets_that_pane_s_server_and_session(
    termhost: Termhost, tmp_path: Path
) -> None:
    """As in tmux: no -L, -S or -t needed in a pane; $TERMHOST and $TERMHOST_PANE say
    where it is, even when it is not the active pane of the current window."""
    answer = tmp_path / "answer"
    python = f"{shlex.quote(sys.executable)} -m termhost"
    ask = (f"{python} wait-for go; "
           f"{python} display -p '#{{session_name}} #{{window_index}} #{{pane_id}}' > {answer};"
           f" {python} list-panes -F '#{{pane_id}}' >> {answer}; "
           f"{python} wait-for -S answered; sleep 100")
    termhost("-L", "other", "new-session", "-d", "-s", "mine", "sleep 100")
    try:
        termhost("-L", "other", "new-window", "-t", "mine", ask)
        termhost("-L", "other", "split-window", "-t", "mine:1", "sleep 100")
        asking = termhost("-L", "other", "display", "-p", "-t", "mine:1.0", "#{pane_id}").stdout
        other = termhost("-L", "other", "display", "-p", "-t", "mine:1.1", "#{pane_id}").stdout
        termhost("-L", "other", "select-window", "-t", "mine:0")
        termhost("-L", "other", "new-session", "-d", "-s", "newer", "sleep 100")
        termhost("-L", "other", "wait-for", "-S", "go")
        termhost("-L", "other", "wait-for", "answered")
        # Not the newest session, nor the default server, nor mine's current window or
        # its window's active pane.
        assert answer.read_text() == f"mine 1 {asking}{asking}{other}"
        assert termhost("-L", "other", "has-session", "-t", asking.strip()).returncode == 0
    finally:
        termhost("-L", "other", "kill-server", check=False)


def test_list_keys_prints_bound_commands_as_tmux_does(termhost: Termhost, tmp_path: Path) -> None:
    """Quoting and escapes, and several commands in one binding, from the same file."""
    conf = tmp_path / "keys.conf"
    conf.write_text(
        "bind a new-window \\; split-window -h\n"
        "bind b display-message '$HOME \"x\" \\\\ y'\n"
        "bind c display-message \"it's\"\n"
        "bind d display-message '~home'\n"
        "bind e send-keys '#' ''\n"
        "bind f send-keys 'a\tb' 'x;y' '{}' '%1'\n"
    )
    termhost("-f", str(conf), "new-session", "-d", "-s", "k", "sleep 100")
    tmux = ["tmux", "-L", f"termhost-keys-{os.getpid()}", "-f", str(conf)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    subprocess.run([*tmux, "new-session", "-d", "sleep 100"], env=env, check=True, timeout=10)
    try:
        theirs = subprocess.run([*tmux, "list-keys", "-T", "prefix"], env=env, check=True,
                                capture_output=True, text=True, timeout=10).stdout
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, timeout=10, check=False)

    def bound(listing: str) -> list[str]:
        return sorted(" ".join(line.split(None, 4)[3:]) for line in listing.splitlines()
                      if line.split()[3] in list("abcdef"))

    assert bound(termhost("list-keys", "-T", "prefix").stdout) == bound(theirs)
    assert "a new-window \\; split-window -h" in bound(theirs)


def test_bind_and_unbind_change_the_key_tables(termhost: Termhost) -> None:
    termhost("new-session", "-d", "-s", "k", "sleep 100")

    def keys() -> list[list[str]]:
        return [line.split(None, 4) for line in termhost("list-keys").stdout.splitlines()]

    termhost("bind-key", "|", "split-window", "-h")
    termhost("bind", "-N", "Reload", "r", "source-file", "/tmp/my tmux.conf")
    termhost("unbind", "%")
    assert ["bind-key", "-T", "prefix", "|", "split-window -h"] in keys()
    # As tmux prints it: a word with a space in double quotes.
    assert ["bind-key", "-T", "prefix", "r", 'source-file "/tmp/my tmux.conf"'] in keys()
    assert not any(line[3] == "%" for line in keys())
    notes = [line.split(None, 2) for line in termhost("list-keys", "-N").stdout.splitlines()]
    assert ["C-b", "r", "Reload"] in notes
    termhost("bind", "-n", "M-h", "select-pane", "-L")
    termhost("bind", "-T", "copy-mode-vi", "Y", "send-keys", "-X", "copy-selection-and-cancel")
    termhost("unbind", "-T", "copy-mode-vi", "v")
    root = [line.split(None, 4) for line in
            termhost("list-keys", "-T", "root").stdout.splitlines()]
    assert ["bind-key", "-T", "root", "M-h", "select-pane -L"] in root  # by tmux's mouse keys
    vi = [line.split(None, 4) for line in
          termhost("list-keys", "-T", "copy-mode-vi").stdout.splitlines()]
    assert ["bind-key", "-T", "copy-mode-vi", "Y", "send-keys -X copy-selection-and-cancel"] in vi
    assert ["bind-key", "-T", "copy-mode-vi", "V", "send-keys -X select-line"] in vi
    assert not any(line[3] == "v" for line in vi)
    errors = {
        ("bind", "ab", "kill-server"): "unknown key: ab",
        ("bind", "x", "frobnicate"): "unknown command: frobnicate",
        ("list-keys", "-T", "mine"): "table mine doesn't exist",  # until a key is bound there
        ("bind",): "command bind-key: too few arguments (need at least 1)",
    }
    for args, message in errors.items():
        done = termhost(*args, check=False)
        assert (done.returncode, done.stderr) == (1, message + "\n"), args
    # As tmux 3.3a: bind-key KEY with no command changes only the note of a bound key.
    termhost("bind", "-N", "Kill it", "x")
    termhost("bind", "F12")
    assert termhost("list-keys", "x").stdout == \
        'bind-key -T prefix x confirm-before -p "kill-pane #P? (y/n)" kill-pane\n'
    assert "Kill it" in termhost("list-keys", "-N").stdout
    assert termhost("list-keys", "F12", check=False).returncode == 1  # as tmux: bound nowhere
    termhost("unbind", "-a")
    assert termhost("list-keys", "-T", "prefix").stdout == ""
    assert termhost("list-keys", "-T", "root").stdout != ""  # -a empties one table


def test_everything_a_program_wrote_before_it_ended_is_shown(termhost: Termhost) -> None:
    # The last turn of reading can find more than one turn's worth in the PTY: all of it
    # is emulated before the pane is marked dead.
    termhost("new-session", "-d", "-s", "tail", "sleep 100")
    termhost("set", "-g", "remain-on-exit", "on")
    for _ in range(3):
        termhost("new-window", "-d", "-t", "tail", "seq 1 300000")
    wait_until(lambda: termhost("list-panes", "-s", "-t", "tail", "-F", "#{pane_dead}").stdout
               == "0\n1\n1\n1\n", what="the three seq panes to end")
    for window in ("1", "2", "3"):
        rows = termhost("capture-pane", "-p", "-t", f"tail:{window}").stdout.split("\n")
        shown = [row for row in rows if row]
        assert shown[-2:-1] == ["300000"], shown[-3:]


def test_paste_buffers_behave_as_tmux(termhost: Termhost, tmp_path: Path) -> None:
    # The same buffer commands in tmux and termhost: the same output, errors and status.
    tmux = ["tmux", "-L", f"termhost-buf-{os.getpid()}", "-f", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    saved = tmp_path / "saved.txt"
    steps = [
        ["show-buffer"], ["delete-buffer"], ["paste-buffer", "-t", "b"], ["show-buffer", "-b", "x"],
        ["set-buffer"], ["set-buffer", "hello"], ["set-buffer", "-b", "named", "two\nlines"],
        ["set-buffer", "-a", "-b", "named", " more"], ["list-buffers"], ["show-buffer"],
        ["show-buffer", "-b", "named"], ["set-buffer", "-b", "named", "-n", "renamed"],
        ["list-buffers", "-F", "#{buffer_name}:#{buffer_size}:#{buffer_sample}"],
        ["save-buffer", "-b", "renamed", str(saved)], ["load-buffer", "-b", "loaded", str(saved)],
        ["load-buffer", "/nonexistent"], ["save-buffer", "/nonexistent/dir/x"],
        ["delete-buffer", "-b", "loaded"], ["delete-buffer", "-b", "loaded"], ["list-buffers"],
    ]

    def in_tmux(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*tmux, *args], env=env, capture_output=True, text=True,
                              timeout=10, check=False)

    in_tmux("new-session", "-d", "-s", "b", "-x", "40", "-y", "5", "cat")
    termhost("new-session", "-d", "-s", "b", "-x", "40", "-y", "5", "cat")
    try:
        for step in steps:
            theirs, ours = in_tmux(*step), termhost(*step, check=False)
            assert (ours.returncode, ours.stdout, ours.stderr) == (
                theirs.returncode, theirs.stdout, theirs.stderr), step
        # paste-buffer types the text, a newline as Enter; capture-pane without -p fills one.
        termhost("paste-buffer", "-t", "b", "-b", "renamed")
        wait_until(lambda: termhost.screen("b").count("two") == 2, what="the paste, echoed")
        assert "lines more" in termhost.screen("b")
        termhost("capture-pane", "-t", "b", "-b", "cap")
        shown = termhost("capture-pane", "-p", "-t", "b").stdout
        assert termhost("show-buffer", "-b", "cap").stdout == shown
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, timeout=10, check=False)


def test_capture_pane_e_draws_the_same_screen_as_tmuxs(termhost: Termhost) -> None:
    # What capture-pane -e prints, drawn by an emulator, is the screen tmux's draws:
    # the same characters with the same colours and attributes, history included.
    tmux = ["tmux", "-L", f"termhost-cap-{os.getpid()}", "-f", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    program = ("printf 'plain \\033[1;31mbold red\\033[0m \\033[4;38;5;208morange\\033[0m\\n"
               "\\033[7mreverse\\033[0m \\033[44mon blue   \\033[0m\\n"
               "\\033[38;2;1;2;3mrgb\\033[0m 日本\\n'; seq 1 30; exec sleep 1000")
    termhost("new-session", "-d", "-s", "cap", "-x", "40", "-y", "10", program)
    subprocess.run([*tmux, "new-session", "-d", "-s", "cap", "-x", "40", "-y", "10", program],
                   env=env, check=True, timeout=30)
    try:
        def captured(out: str) -> list[list[tuple[str, str, str, bool, bool, bool]]]:
            terminal = Terminal(40, len(out.split("\n")))
            terminal.feed(out.replace("\n", "\r\n").encode())
            screen = terminal.screen
            return [[(c.data, c.fg, c.bg, c.bold, c.reverse, c.underscore)
                     for c in (screen.buffer[y][x] for x in range(40))]
                    for y in range(terminal.rows)]

        def tmux_capture() -> str:
            return subprocess.run([*tmux, "capture-pane", "-p", "-e", "-S", "-", "-t", "cap"],
                                  env=env, capture_output=True, text=True, check=True,
                                  timeout=30).stdout

        wait_until(lambda: "30" in tmux_capture().split("\n")[-3:-1]
                   and "30" in termhost("capture-pane", "-p", "-t", "cap").stdout,
                   what="both panes to show the last line")
        ours = termhost("capture-pane", "-p", "-e", "-S", "-", "-t", "cap").stdout
        assert "\x1b[" in ours
        assert captured(ours) == captured(tmux_capture())
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, check=False, timeout=30)


def test_a_window_is_named_after_its_program_until_it_is_given_a_name(
    termhost: Termhost,
) -> None:
    termhost.env["SHELL"] = "/bin/sh"
    termhost("new-session", "-d", "-s", "auto")  # the shell itself, not sh -c

    def name() -> str:
        return termhost("display", "-p", "-t", "auto", "#{window_name}").stdout.strip()

    assert name() == "sh"
    termhost("send-keys", "-t", "auto", "exec sleep 1000", "Enter")
    wait_until(lambda: name() == "sleep", what="the window to take the program's name")
    termhost("rename-window", "-t", "auto", "mine")
    termhost("new-window", "-d", "-t", "auto", "-n", "given", "sleep 1000")
    assert termhost("lsw", "-t", "auto", "-F", "#W").stdout == "mine\ngiven\n"
    termhost("setw", "-g", "automatic-rename", "off")
    termhost("new-window", "-d", "-t", "auto")
    termhost("send-keys", "-t", "auto:2", "exec sleep 1000", "Enter")
    wait_until(lambda: "sleep" in termhost("display", "-p", "-t", "auto:2",
                                           "#{pane_current_command}").stdout,
               what="the program to run")
    assert termhost("display", "-p", "-t", "auto:2", "#{window_name}").stdout == "sh\n"
