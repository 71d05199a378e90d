"""The CLI's side of the protocol: find (or start) the server, run one command there.

A command that needs a server and finds none says `no server running on PATH`, exit 1,
as tmux does; `new-session` starts one. Starting is serialised with a lock file next to
the socket, so two commands racing to start a server give one server.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import sys
import termios
import tty
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from termhost.front import FrontError, controlled, exchange, greeting, write_all
from termhost.mux.paths import SocketError, pane_variable
from termhost.mux.protocol import (
    PROTOCOL_VERSION,
    Frame,
    FrameDecoder,
    FrameType,
    decode_exit,
    decode_hello,
    encode_argv,
    encode_frame,
    encode_size,
    version_mismatch,
)
from termhost.starting import ServerStartError, start_server

__all__ = ["ClientError", "run"]

class ClientError(Exception):
    """Something between the client and the server failed; one line for the user."""


def _nested(path: Path) -> bool:
    """Attaching from a pane of the same server (tmux's server_client_check_nested: the
    client's terminal is one of that server's panes); a pane of another server may attach,
    which is how one termhost runs inside another."""
    inside = pane_variable()
    if inside is None:
        return False
    try:
        return os.path.samefile(inside.socket, path)
    except OSError:
        return inside.socket == path


def run(argv: Sequence[str], path: Path, config: str | None = None, *,
        force_256: bool = False, stdout: BinaryIO | None = None,
        stderr: BinaryIO | None = None, control: int = 0) -> int:
    """Run `argv` on the server at `path`; its output is written out, its status returned.
    `force_256`: tell the server this terminal takes 256 colours (termhost -2).
    `control`: in control mode (termhost -C: 1, -CC: 2), see `_controlled`.
    `stdout`, `stderr`: where the output goes instead of this process's own, for the verbs
    that read a server's answers rather than show them (termhost screenshot)."""
    saved = _control_terminal() if control == 2 else None  # before a server starts
    attaching = None if control else _attaches(argv)
    if attaching == "attach-session" and not os.isatty(sys.stdin.fileno()):
        attaching = None  # a command like another: the server gives its error
    if attaching == "new-session" and not os.isatty(sys.stdin.fileno()):
        raise ClientError("open terminal failed: not a terminal")  # before starting a server
    if attaching and _nested(path):
        raise ClientError("sessions should be nested with care, unset $TERMHOST to force")
    try:
        sock = _connect(path)
    except (FileNotFoundError, ConnectionRefusedError):
        from termhost.mux.lexer import split_arguments
        from termhost.mux.verbs import UsageError, lookup, parse_flags

        first = (split_arguments(list(argv)) or [[""]])[0]
        verb = lookup(first[0])
        if verb is not None and verb.name in ("list-sessions", "kill-session"):
            done = _exited_without_server(path, verb.name, first[1:], stdout)
            if done is not None:
                return done
        if verb is None or not verb.starts_server:
            raise ClientError(f"no server running on {path}") from None
        try:
            parse_flags(verb, first[1:])  # a command refused for its flags starts nothing
        except UsageError as error:
            (stderr or sys.stderr.buffer).write(f"{error}\n".encode())
            return 1
        try:
            sock = socket.socket(fileno=start_server(os.fspath(path), config).detach())
        except (ServerStartError, SocketError) as error:
            raise ClientError(str(error)) from None
    with sock:
        if control:
            return _controlled(sock, argv, saved)
        if attaching:
            return _attached(sock, argv, force_256)
        try:
            return exchange(sock, argv, force_256,
                            _flushed(stdout) if stdout is not None else None,
                            _flushed(stderr) if stderr is not None else None)
        except FrontError as error:
            raise ClientError(str(error)) from None


def _exited_without_server(path: Path, verb: str, args: list[str],
                           stdout: BinaryIO | None) -> int | None:
    """list-sessions or kill-session with no server running, on the sessions it left
    (resurrection records): listed as the server would list them, or one forgotten
    (kill-session -t NAME); None when there is none to list or forget (tmux's "no
    server running" then)."""
    from termhost.mux.commands.sessions import LIST_FORMAT
    from termhost.mux.exited_sessions import listed_without_server
    from termhost.mux.verbs import VERBS, UsageError, parse_flags
    from termhost.resurrect import records

    where = records.directory(os.environ, path)
    try:
        flags, _ = parse_flags(VERBS[verb], args)
    except UsageError:
        return None  # the usual error, then
    if verb == "kill-session":
        name = flags.get("t", "").removeprefix("=")
        return 0 if name and set(flags) <= {"t", "t+"} and records.forget(where, name) else None
    found, warnings = records.load_all(where)
    if not found:
        return None
    for line in warnings:
        sys.stderr.write(f"{line}\n")
    text = listed_without_server(found, flags, LIST_FORMAT).encode()
    (stdout or sys.stdout.buffer).write(text)
    return 0


def _attaches(argv: Sequence[str]) -> str | None:
    """The verb that makes this client an attached one: attach-session, or new-session
    without -d. (Without a terminal, new-session is refused here, before a server
    starts; attach-session asks the server, which finds the target first, as tmux.)"""
    from termhost.mux.verbs import UsageError, lookup, parse_flags

    verb = lookup(argv[0])
    if verb is None or verb.name not in ("attach-session", "new-session"):
        return None
    try:
        flags, _ = parse_flags(verb, argv[1:])
    except UsageError:
        return None  # the server reports the usage error
    return verb.name if verb.name == "attach-session" or "d" not in flags else None


def _connect(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(os.fspath(path))
    except BaseException:
        sock.close()
        raise
    return sock


def _terminal_size(fd: int) -> tuple[int, int]:
    """The tty's size; 80 columns and 24 rows where it says 0 (a PTY whose size was
    never set), as tmux assumes."""
    cols, rows = os.get_terminal_size(fd)
    return cols or 80, rows or 24


def _attached(sock: socket.socket, argv: Sequence[str], force_256: bool) -> int:
    """Relay this terminal to the server until detached; the tty is always restored."""
    stdin = sys.stdin.fileno()
    saved = termios.tcgetattr(stdin)
    cols, rows = _terminal_size(stdin)
    wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    caught: list[int] = []
    previous = {
        signum: signal.signal(signum, lambda number, frame: caught.append(number))
        for signum in (signal.SIGWINCH, signal.SIGTERM, signal.SIGHUP)
    }
    old_wakeup = signal.set_wakeup_fd(wake_write)
    message = "[server exited unexpectedly]"
    status = 1
    then: Frame | None = None  # DETACH_HUP or EXEC: what to do once the terminal is back
    try:
        tty.setraw(stdin)
        sock.sendall(
            greeting(force_256) + encode_frame(FrameType.RESIZE, encode_size(cols, rows))
            + encode_frame(FrameType.COMMAND, encode_argv(argv))
        )
        decoder = FrameDecoder()
        greeted = False
        done = False
        watched = [stdin, sock, wake_read]
        while not done:
            readable, _, _ = select.select(watched, [], [])
            if wake_read in readable:
                while True:
                    try:
                        if not os.read(wake_read, 64):
                            break
                    except BlockingIOError:
                        break
                for signum in caught:
                    if signum == signal.SIGWINCH:
                        cols, rows = _terminal_size(stdin)
                        sock.sendall(encode_frame(FrameType.RESIZE, encode_size(cols, rows)))
                    else:
                        message, done = f"[terminated by {signal.Signals(signum).name}]", True
                caught.clear()
            if stdin in readable and not done:
                data = os.read(stdin, 65536)
                kind = FrameType.INPUT if data else FrameType.DETACH
                sock.sendall(encode_frame(kind, data))
            if sock in readable and not done:
                data = sock.recv(65536)
                if not data:
                    break
                for frame in decoder.feed(data):
                    if not greeted:
                        greeted = _check_hello(frame)
                    elif frame.type is FrameType.OUTPUT:
                        os.write(sys.stdout.fileno(), frame.payload)
                    elif frame.type is FrameType.TTY_INPUT:
                        # The server reads our terminal from now on (tty_input.py).
                        watched.remove(stdin)
                        sock.sendall(encode_frame(FrameType.TTY_INPUT))
                    elif frame.type in (FrameType.SUSPEND, FrameType.LOCK):
                        saved = _leave_terminal(stdin, saved, frame)
                        back = encode_frame(FrameType.WAKEUP)
                        if _terminal_size(stdin) != (cols, rows):  # resized meanwhile
                            cols, rows = _terminal_size(stdin)
                            back = encode_frame(FrameType.RESIZE, encode_size(cols, rows)) + back
                        try:
                            sock.sendall(back)
                        except OSError:
                            pass  # the server let go meanwhile: its last frames are to read
                    elif frame.type is FrameType.STDERR:
                        message = frame.payload.decode(errors="replace").strip()
                    elif frame.type in (FrameType.DETACH, FrameType.DETACH_HUP):
                        message = f"[{frame.payload.decode(errors='replace')}]"
                        then = frame
                    elif frame.type is FrameType.EXEC:
                        then = frame
                    elif frame.type is FrameType.EXIT:
                        status = decode_exit(frame.payload)
                        done = True
    finally:
        termios.tcsetattr(stdin, termios.TCSAFLUSH, saved)
        signal.set_wakeup_fd(old_wakeup)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        os.close(wake_read)
        os.close(wake_write)
        # Whatever the screen was left in: main screen, cursor shown, attributes reset.
        os.write(sys.stdout.fileno(), b"\x1b[?1049l\x1b[?25h\x1b[0m")
    if then is not None and then.type is FrameType.EXEC:
        _exec_instead(then.payload)
    sys.stdout.write(message + "\n")
    sys.stdout.flush()
    if then is not None and then.type is FrameType.DETACH_HUP:
        os.kill(os.getppid(), signal.SIGHUP)  # as tmux's client: the shell we ran in goes
    return status


def _exec_instead(payload: bytes) -> None:
    """detach-client -E: `SHELL -c COMMAND` in this process's place, as tmux's
    client_exec; if it cannot start, the client just ends."""
    shell, _, command = os.fsdecode(payload).partition("\0")
    for signum in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGPIPE):
        signal.signal(signum, signal.SIG_DFL)
    try:
        os.execv(shell, [shell, "-c", command])
    except OSError:
        pass


def _control_terminal() -> list[Any]:
    """-CC: the terminal's modes as they were, and the terminal put in tmux's mode for
    it: raw, but CR read as NL and NL written as CR NL; ClientError if not a terminal."""
    stdin = sys.stdin.fileno()
    try:
        saved = termios.tcgetattr(stdin)
    except termios.error as error:
        raise ClientError(f"tcgetattr failed: {os.strerror(error.args[0])}") from None
    mode = list(saved)
    mode[0] = termios.ICRNL | termios.IXANY  # iflag
    mode[1] = termios.OPOST | termios.ONLCR  # oflag
    mode[2] = termios.CREAD | termios.CS8 | termios.HUPCL | (saved[2] & termios.CBAUD)
    mode[3] = 0  # lflag: no echo, no canonical input, no signals
    mode[6] = list(saved[6])
    mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
    termios.tcsetattr(stdin, termios.TCSANOW, mode)
    return saved


def _controlled(sock: socket.socket, argv: Sequence[str], saved: list[Any] | None) -> int:
    """Control mode (tmux -C), as the thin client runs it (front.controlled). With -CC
    (`saved`: the terminal's modes) the server's first words are a DCS and ST ends them,
    as tmux's; the terminal is given back as it was."""
    try:
        return controlled(sock, argv, 2 if saved is not None else 1)
    finally:
        if saved is not None:
            write_all(sys.stdout.fileno(), b"\033\\")
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSAFLUSH, saved)


def _leave_terminal(stdin: int, saved: list[Any], frame: Frame) -> list[Any]:
    """SUSPEND or LOCK, as tmux's client takes them: the terminal's modes as they were,
    then this process stopped (SIGTSTP: the shell's job control has the terminal until
    `fg`) or the lock-command run; then raw again, from the modes the terminal has now
    (the shell or the command may have changed them), as tmux reads them anew."""
    termios.tcsetattr(stdin, termios.TCSADRAIN, saved)
    if frame.type is FrameType.SUSPEND:
        previous = signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # returns once continued
        signal.signal(signal.SIGTSTP, previous)
    else:
        _system(os.fsdecode(frame.payload))
    saved = termios.tcgetattr(stdin)
    tty.setraw(stdin)
    return saved


def _system(command: str) -> None:
    """`sh -c command` in the foreground, waited for as system(3) does: meanwhile this
    process ignores SIGINT and SIGQUIT, which the command takes as usual; SIGTSTP is
    ignored by both, as tmux's client ignores it, so that C-z cannot stop a lock."""
    kept = (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP)
    previous = {signum: signal.signal(signum, signal.SIG_IGN) for signum in kept}
    try:
        pid = os.posix_spawn("/bin/sh", ["sh", "-c", command], os.environ,
                             setsigdef=(signal.SIGINT, signal.SIGQUIT, signal.SIGPIPE))
        os.waitpid(pid, 0)
    except OSError:
        pass  # as system(3): no shell to run it is as if it ran and exited
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _check_hello(frame: Frame) -> bool:
    """The server's HELLO: same protocol version, or a message saying what to do."""
    version = decode_hello(frame)
    if version != PROTOCOL_VERSION:
        raise ClientError(version_mismatch(version, PROTOCOL_VERSION))
    return True


def _flushed(stream: BinaryIO) -> Callable[[bytes], None]:
    """Writes to `stream`, each flushed at once (a caller reading it as it comes)."""
    def write(data: bytes) -> None:
        stream.write(data)
        stream.flush()
    return write
