"""The thin client: `termhost VERB ...` to a running server and back, importing nothing
but posix, sys, _socket and termhost's framing (wire.py) and socket rules (sockets.py).

Scripts, status lines and libraries (libtmux, vim-tmux-navigator) run hundreds of short
commands; each pays the interpreter's start and this module's work, nothing more. A
command line takes this path when it is a tmux verb that does not attach (new-session
with -d included): the verb is sent as it is and the server parses it, as tmux's client
sends its argv. With no server running, a verb that starts one (tmux's CMD_STARTSERVER:
new-session -d, start-server...) starts it here too (termhost.starting), its flags
checked first against the command table (mux/verbs.py, plain data), so that a refused
command starts nothing. Everything else goes to the full command line (termhost.cli),
which this hands the same arguments: no verb or `--help`, termhost's own verbs (record,
tape, snapshot...), attach-session and an attaching new-session, control mode, a list
of commands (`\\;`), a spelling the table does not hold exactly (a command-alias), and
any other verb with no server to talk to (it says none is running, in tmux's words).

`termhost exec` runs here too (`run_in_snapshot`): the server names the session's stored
snapshot and the shell that sources it (show-snapshot -e), and this process becomes that
shell. The server is the one authority on targets, so there is no second implementation
of them, and no file the server wrote is ever run as code.

Not even os is imported (posix is what os wraps), nor `from __future__`: each import costs
every command a share of its whole budget. Annotations naming what only mypy imports are
strings for that reason.
"""

import posix
import sys
from _socket import socket

from termhost import sockets, wire

TYPE_CHECKING = False  # typing's own import costs the thin path; mypy reads the name
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "RELAYED",
    "FrontError",
    "controlled",
    "exchange",
    "exec_failed",
    "first_line",
    "greeting",
    "main",
    "run",
    "run_in_snapshot",
    "shell_join",
    "snapshot_query",
]

RELAYED = frozenset({
    "bind", "bind-key", "break-pane", "breakp", "capture-pane", "capturep", "choose-buffer",
    "choose-client", "choose-tree", "clear-history", "clear-prompt-history", "clearhist",
    "clearphist", "clock-mode", "command-prompt", "confirm", "confirm-before", "copy-mode",
    "customize-mode", "delete-buffer", "deleteb", "detach", "detach-client", "display",
    "display-menu", "display-message", "display-panes", "display-popup", "displayp", "find-window",
    "findw", "has", "has-session", "if", "if-shell", "join-pane", "joinp", "kill-pane",
    "kill-server", "kill-session", "kill-window", "killp", "killw", "last", "last-pane",
    "last-window", "lastp", "link-window", "linkw", "list-buffers", "list-clients",
    "list-commands", "list-keys", "list-panes", "list-sessions", "list-windows", "load-buffer",
    "loadb", "lock", "lock-client", "lock-server", "lock-session", "lockc", "locks", "ls", "lsb",
    "lsc", "lscm", "lsk", "lsp", "lsw", "menu", "move-pane", "move-window", "movep", "movew",
    "new-window", "neww", "next", "next-layout", "next-window", "nextl", "paste-buffer", "pasteb",
    "pipe-pane", "pipep", "popup", "prev", "previous-layout", "previous-window", "prevl",
    "record-pane", "refresh", "refresh-client", "rename", "rename-session", "rename-window",
    "renamew", "resize-pane", "resize-window", "resizep", "resizew", "respawn-pane",
    "respawn-window", "respawnp", "respawnw", "resurrect", "rotate-window", "rotatew",
    "run-shell",
    "save-buffer", "saveb", "select-layout", "select-pane", "select-window", "selectl", "selectp",
    "selectw", "send", "send-keys", "send-prefix", "server-access", "set", "set-buffer",
    "set-environment", "set-hook", "set-option", "set-window-option", "setb", "setenv", "setw",
    "show", "show-buffer", "show-environment", "show-hooks", "show-messages", "show-options",
    "show-prompt-history", "show-snapshot", "show-window-options", "showb", "showenv", "showmsgs",
    "showphist", "showw", "source", "source-file", "split-window", "splitw", "start",
    "start-server", "suspend-client", "suspendc", "swap-pane", "swap-window", "swapp", "swapw",
    "switch-client", "switchc", "unbind", "unbind-key", "unlink-window", "unlinkw", "wait",
    "wait-for",
})
"""The verbs (names and tmux's aliases, from mux.verbs.VERBS) that go to a running
server as they are: all but attach-session and new-session, which may attach (a
new-session with -d goes too, `_detached_new_session`), and `run`, which the full path
checks for a tape. A literal, not read from the table: importing it would cost every
command. tests/test_front.py holds it to the table."""


class FrontError(Exception):
    """Something between this client and the server failed; one line for the user."""


def run() -> None:
    """The installed command (bin/termhost-py): `main`, then the quickest exit that loses
    nothing. A command the thin path answered leaves nothing to finalize (no thread, no
    atexit work, its output written with posix.write or flushed here), so it ends with
    _exit, sparing the interpreter's finalization: a millisecond, a tenth of a command.
    The full path exits as any program does."""
    status = main()
    if "termhost.cli" in sys.modules:
        sys.exit(status)
    sys.stdout.flush()
    sys.stderr.flush()
    posix._exit(status)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    parsed = _global_options(args)
    if parsed is None:
        return _full(args)
    name, path, config, force_256, control, command = parsed
    in_snapshot = None
    if control:
        if not command or any(word.endswith(";") for word in command):
            return _full(args)  # the default command, or a list: the full path's
    elif command[:1] == ["exec"]:
        in_snapshot = _exec_options(command[1:])
        if in_snapshot is None:
            return _full(args)  # a usage error, or --help: argparse's words
        command = snapshot_query(in_snapshot[0])
    elif not command or any(word.endswith(";") for word in command) or (
            command[0] not in RELAYED and not _detached_new_session(command)):
        return _full(args)
    env = _text_environ()
    try:
        socket_path = sockets.socket_path(name, path, env)
        sock = sockets.connect(socket_path)
    except sockets.SocketError:
        return _full(args)  # it says why
    except OSError:
        started = _start_server(socket_path, config, env, command, attaches=not control)
        if not isinstance(started, socket):
            return _full(args) if started is None else started
        sock = started
    try:
        if in_snapshot is not None:
            record, error = bytearray(), bytearray()
            status = exchange(sock, command, force_256, out=record.extend, err=error.extend)
            if status != 0:
                return exec_failed(first_line(bytes(error), command[0], status))
            return run_in_snapshot(bytes(record), *in_snapshot[1:])
        if control:
            return controlled(sock, command)
        return exchange(sock, command, force_256)
    except (FrontError, wire.WireError) as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(error.strerror or str(error))
    except KeyboardInterrupt:  # C-c on a command that waits (wait-for): no traceback
        return 130
    finally:
        sock.close()


def _detached_new_session(command: list[str]) -> bool:
    """Whether `command` is a new-session that does not attach (-d), which the thin path
    takes as any other command: libtmux and scripts start every session so."""
    from termhost.mux import verbs  # plain data, without typing: under a millisecond

    verb = verbs.lookup(command[0])
    if verb is None or verb.name != "new-session":
        return False
    try:
        flags, _ = verbs.parse_flags(verb, command[1:])
    except verbs.UsageError:
        return True  # the server refuses it, as it would refuse it typed anywhere
    return "d" in flags


def _start_server(path: str, config: str | None, env: "dict[str, str]",
                  command: list[str], *, attaches: bool = True) -> "socket | int | None":
    """No server at `path`: for a verb that starts one (tmux's CMD_STARTSERVER), start
    it and connect, as tmux's client does; a command refused for its flags starts
    nothing (its error said here, status 1). None for every other verb, which the full
    path answers ("no server running"), and for attach-session where it `attaches` (in a
    terminal, not in control mode); a status if the start failed."""
    from termhost import starting
    from termhost.mux import verbs

    verb = verbs.lookup(command[0])
    if verb is None or not verb.starts_server or (attaches and verb.name == "attach-session"):
        return None
    try:
        verbs.parse_flags(verb, command[1:])
    except verbs.UsageError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    try:
        return starting.start_server(path, config or starting.default_config(env))
    except (starting.ServerStartError, sockets.SocketError, OSError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else error
        return _fail(str(message))


def _global_options(
    args: list[str],
) -> "tuple[str | None, str | None, str | None, bool, bool, list[str]] | None":
    """tmux's options before the verb, those the thin path takes: -L NAME, -S PATH, -f
    FILE (read by a server this command starts), -2, -C (once: control mode without a
    terminal), combined as getopt allows (`-2L name`, `-Lname`); (name, path, config,
    force_256, control, the rest), or None for anything else (-CC, -V, -h, an unknown
    option), which the full path answers."""
    name = path = config = None
    force_256 = False
    control = 0
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "-":
        word = args[index]
        index += 1
        if word == "--":
            break
        letters = word[1:]
        while letters:
            letter, letters = letters[0], letters[1:]
            if letter == "2":
                force_256 = True
                continue
            if letter == "C":
                control += 1
                if control > 1:
                    return None
                continue
            if letter not in "LSf":
                return None
            if not letters:
                if index == len(args):
                    return None
                letters, index = args[index], index + 1
            if letter == "L":
                name = letters
            elif letter == "S":
                path = letters
            else:
                config = letters
            letters = ""
    return name, path, config, force_256, bool(control), args[index:]


def _exec_options(args: list[str]) -> "tuple[str | None, str | None, list[str]] | None":
    """`exec [-t SESSION] [--cwd DIR] [--] COMMAND...` as (target, cwd, command words);
    None for anything else (an unknown option, no command, --help), which cmd/exec.py's
    parser answers."""
    target = cwd = None
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            index += 1
            break
        if not word.startswith("-") or word == "-":
            break
        if word in ("-t", "--cwd"):
            if index + 1 == len(args):
                return None
            value, index = args[index + 1], index + 2
        elif word.startswith("-t") or word.startswith("--cwd="):
            value, index = word[2:] if word[1] == "t" else word[6:], index + 1
        else:
            return None
        if word.startswith("-t"):
            target = value
        else:
            cwd = value
    words = args[index:]
    return (target, cwd, words) if words else None


def _text_environ() -> dict[str, str]:
    """os.environ without os: posix.environ's bytes decoded as os decodes them."""
    return {wire.fsdecode(key): wire.fsdecode(value) for key, value in posix.environ.items()}


def _full(args: list[str]) -> int:
    """The full command line, for what the thin path does not take. Started without
    `site` (bin/termhost's interpreter runs with -S), the site-packages and .pth files it
    needs are set up first."""
    if "site" not in sys.modules:
        import site

        site.main()
    from termhost.cli import main as full_main

    return full_main(args)


def _fail(message: str) -> int:
    sys.stderr.write(f"termhost: {message}\n")
    return 1


def exec_failed(message: str) -> int:
    """`termhost exec` failed before its command could run: say why; status 1."""
    sys.stderr.write(f"termhost exec: {message}\n")
    return 1


def first_line(stderr: bytes, verb: str, status: int) -> str:
    """What a failed command said, for a verb that reports it in its own words: the first
    line the server wrote, or its exit status if it wrote nothing."""
    said = stderr.decode(errors="replace").strip().splitlines()
    return said[0] if said else f"{verb} failed (exit status {status})"


SHELL_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")
"""The characters shlex.quote leaves unquoted."""


def shell_join(words: "Sequence[str]") -> str:
    """shlex.join without shlex (which imports re): each word as shlex.quote quotes it,
    so that `exec -- A B` runs what ssh would."""
    return " ".join(word if word and SHELL_SAFE.issuperset(word)
                    else "'" + word.replace("'", "'\"'\"'") + "'" for word in words)


def snapshot_query(target: str | None) -> list[str]:
    """The command that asks the server for what `run_in_snapshot` needs, once the
    snapshot of the session `target` (None: the server's default) is ready."""
    return ["show-snapshot", "-e", "-w", *(["-t", target] if target is not None else [])]


def run_in_snapshot(record: bytes, cwd: str | None, words: "Sequence[str]") -> int:
    """Become the shell that runs `words` in a session's snapshot, from show-snapshot -e's
    `record` (the snapshot's directory, then the shell's argv, NUL-separated): in `cwd`
    or the snapshot's directory, with the environment the stored script exports and only
    this terminal's TERM of ours. One word is a command line as it is; several are joined
    as shlex.join joins them. Returns only if the shell cannot start (status 1)."""
    directory, *argv = record.removesuffix(b"\n").split(b"\0")
    if len(argv) < 2:
        return exec_failed("the server sent no command line for the snapshot")
    command = words[0] if len(words) == 1 else shell_join(words)
    place = wire.fsencode(cwd) if cwd is not None else directory
    env = {b"TERM": posix.environ[b"TERM"]} if b"TERM" in posix.environ else {}
    try:
        posix.chdir(place)
        posix.execve(argv[0], [*argv, wire.fsencode(command)], env)
    except OSError as error:
        where = error.filename if error.filename is not None else argv[0]
        shown = where.decode(errors="replace") if isinstance(where, bytes) else str(where)
        return exec_failed(f"{shown}: {error.strerror or error}")
    return 1  # execve does not return


def greeting(force_256: bool) -> bytes:
    """HELLO and what the server should know of this client before its command: its
    environment, directory and terminal (if stdin is one; TTY_OUTPUT if stdout is the
    same terminal, which an attached client's server may then write to itself)."""
    env = posix.environ
    if force_256:
        env = {**env, wire.fsencode(wire.FORCE_256_VARIABLE): b"1"}
    try:
        cwd = posix.getcwdb()
    except OSError:
        cwd = b""  # a removed directory: the server uses its own
    frames = (wire.hello() + wire.frame(wire.ENVIRON, wire.encode_environ(env))
              + wire.frame(wire.CWD, cwd))
    try:
        tty = posix.ttyname(0)
    except OSError:
        return frames  # stdin is not a terminal
    frames += wire.frame(wire.TTY, wire.fsencode(tty))
    try:
        terminal, output = posix.stat(tty), posix.fstat(1)
        same = (terminal.st_dev, terminal.st_ino) == (output.st_dev, output.st_ino)
    except OSError:
        same = False
    return frames + wire.frame(wire.TTY_OUTPUT) if same else frames


def exchange(sock: socket, argv: "Sequence[str]", force_256: bool = False,
             out: "Callable[[bytes], object] | None" = None,
             err: "Callable[[bytes], object] | None" = None) -> int:
    """Send the command `argv` and relay the server's answer: its output to `out` and
    `err` (this process's stdout and stderr if None), this process's stdin when it asks
    for it; its exit status."""
    sock.sendall(greeting(force_256) + wire.frame(wire.COMMAND, wire.encode_argv(argv)))
    answer = _Answer()
    while True:
        data = sock.recv(65536)
        if not data:
            raise FrontError("the server closed the connection")
        for kind, payload in answer.frames(data):
            if kind == wire.STDOUT:
                out(payload) if out is not None else write_all(1, payload)
            elif kind == wire.STDERR:
                err(payload) if err is not None else write_all(2, payload)
            elif kind == wire.READ_STDIN:
                send_stdin(sock)
            elif kind == wire.ERROR:
                raise FrontError(payload.decode(errors="replace"))
            elif kind == wire.EXIT:
                return wire.decode_exit(payload)
            else:
                raise wire.WireError(f"unexpected frame of type {kind} from the server")


def controlled(sock: socket, argv: "Sequence[str]", level: int = 1) -> int:
    """Control mode (tmux -C; -CC is `level` 2, whose terminal mux/client.py sets up and
    gives back): the command runs in the server, which answers
    in lines (mux/control.py); if it attaches, this client's input goes to the server
    as it comes (a line a command, an empty line or the input's end to leave) and the
    server's lines to the output, until the server says it exits: its status. One
    connection for a script's thousands of commands."""
    from select import select

    stdin, stdout = 0, 1
    sock.sendall(greeting(False) + wire.frame(wire.CONTROL, b"2" if level == 2 else b"1")
                 + wire.frame(wire.COMMAND, wire.encode_argv(argv)))
    answer = _Answer()
    watched: list[int | socket] = [stdin, sock]
    while True:
        readable = select(watched, [], [])[0]
        if stdin in readable:
            data = posix.read(stdin, 65536)
            if not data:
                watched.remove(stdin)
            try:
                sock.sendall(wire.frame(wire.INPUT if data else wire.DETACH, data))
            except OSError:
                pass  # the server let go: its last words follow
        if sock not in readable:
            continue
        data = sock.recv(65536)
        if not data:
            write_all(stdout, b"%exit server exited unexpectedly\n")
            return 1
        for kind, payload in answer.frames(data):
            if kind == wire.OUTPUT:
                write_all(stdout, payload)
            elif kind == wire.EXIT:
                return wire.decode_exit(payload)


class _Answer:
    """The server's frames as they arrive, its HELLO first (checked here, not given)."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._greeted = False

    def frames(self, data: bytes) -> "list[tuple[int, bytes]]":
        """The whole frames `data` completes, after the HELLO."""
        self._buffer += data
        frames = wire.take_frames(self._buffer)
        if frames and not self._greeted:
            _check_hello(*frames[0])
            self._greeted, frames = True, frames[1:]
        return frames


def _check_hello(kind: int, payload: bytes) -> None:
    if kind != wire.HELLO:
        raise wire.WireError("the peer is not a termhost client or server")
    version = wire.hello_version(payload)
    if version != wire.PROTOCOL_VERSION:
        raise FrontError(wire.version_mismatch(version, wire.PROTOCOL_VERSION))


def send_stdin(sock: socket, fd: int = 0) -> None:
    """This process's stdin to the server, as STDIN frames, to its end (an empty frame
    says so): what tmux's client does for the server's file_read of "-". A closed or
    unreadable stdin is an empty one."""
    while True:
        try:
            data = posix.read(fd, 65536)
        except OSError:
            data = b""
        sock.sendall(wire.frame(wire.STDIN, data))
        if not data:
            return


def write_all(fd: int, data: bytes) -> None:
    """All of `data` to `fd` (a pipe takes a part at a time); a reader gone (EPIPE) is
    the reader's business."""
    view = memoryview(data)
    while view:
        try:
            view = view[posix.write(fd, view):]
        except BrokenPipeError:
            return
