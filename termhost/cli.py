"""The `termhost` command line: global options, then a tmux-style verb run by the server.

Every failure is one line on stderr and an exit status: 1 for a failure (tmux's), 2 for a
usage error of the command line itself, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from collections.abc import Sequence

from termhost import __version__

__all__ = ["main"]

EXIT_FAILURE = 1
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse with tmux's habit: a usage error is one line, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"termhost: {message} (try 'termhost --help')\n")
        raise SystemExit(EXIT_USAGE)


def _parser() -> _Parser:
    parser = _Parser(
        prog="termhost",
        description="A terminal multiplexer and PTY session manager.",
    )
    parser.add_argument(
        "-V", "--version", action="version", version=f"termhost {__version__}",
        help="print the version and exit",
    )
    parser.add_argument("-L", dest="socket_name", metavar="NAME",
                        help="the server's socket name (default: default)")
    parser.add_argument("-S", dest="socket_path", metavar="PATH",
                        help="the server's socket path (overrides -L)")
    parser.add_argument("-f", dest="config", metavar="FILE",
                        help="configuration file: tmux commands, or termhost's own TOML "
                             "(default ~/.config/termhost/config.toml; -f /dev/null: none)")
    parser.add_argument("-2", dest="force_256", action="store_true",
                        help="the terminal takes 256 colours, whatever TERM says")
    parser.add_argument("-C", dest="control", action="count", default=0,
                        help="control mode: commands as lines on stdin, answers in "
                             "%%begin/%%end blocks (-CC: in a terminal, as tmux -CC)")
    parser.add_argument("verb", nargs="?", help="a tmux-style command, e.g. new-session -d")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def _names_a_tape(arguments: Sequence[str]) -> bool:
    """`termhost run demo.tape`, as the tape runner was called before `run` became tmux's
    run-shell: a tape file is not a shell command anyone means, so it still runs."""
    words = [word for word in arguments if not word.startswith("-")]
    return bool(words) and words[0].endswith(".tape") and os.path.isfile(words[0])


def _default_alias(word: str) -> bool:
    """A name tmux's default command-alias gives (splitp, choose-session...): the
    server expands it."""
    from termhost.mux.option_table import TMUX_OPTIONS

    aliases = next(option.default for option in TMUX_OPTIONS if option.name == "command-alias")
    return any(alias.startswith(word + "=") for alias in aliases.split(","))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.verb is None:
        args.verb = "new-session"  # as tmux: a new session, attached
    from termhost import cmd
    from termhost.mux import client, paths, verbs
    from termhost.starting import default_config

    if args.verb == "run" and _names_a_tape(args.arguments):
        sys.stderr.write("termhost: 'run' is tmux's run-shell; a tape runs as "
                         "'termhost tape FILE.tape'\n")
        args.verb = "tape"
    own = args.verb in cmd.VERBS
    first = args.verb.removesuffix(";")  # `termhost start\; has -t x`: a list of commands
    if not own and verbs.lookup(first) is None and not _default_alias(first):
        sys.stderr.write(f"termhost: unknown command: {first} (try 'termhost --help')\n")
        return EXIT_USAGE
    try:
        path = paths.socket_path(args.socket_name, args.socket_path)
        configuration = args.config or default_config(os.environ)
        if own:  # termhost's own verbs run here, in the client process
            module = importlib.import_module(f"termhost.cmd.{args.verb}")
            where = cmd.Where(path, configuration, args.force_256)
            status: int = module.main(args.arguments, where)
            return status
        return client.run([args.verb, *args.arguments], path, configuration,
                          force_256=args.force_256, control=min(args.control, 2))
    except (paths.SocketError, client.ClientError) as error:
        sys.stderr.write(f"termhost: {error}\n")
        return EXIT_FAILURE
    except OSError as error:
        sys.stderr.write(f"termhost: {error.strerror or error}\n")
        return EXIT_FAILURE
    except KeyboardInterrupt:  # C-c on a command that waits (wait-for): no traceback
        return 128 + signal.SIGINT
