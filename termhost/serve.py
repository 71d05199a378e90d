"""The server process's composition root: the multiplexer (mux/) built with the TUI's
client factory (ui/), so that mux never imports ui and runs headless in tests.

Run as `python -m termhost.serve --socket PATH`, or as the first command that needs a
server starts it (termhost/starting.py).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from termhost.mux.paths import SocketError, bind_server_socket
from termhost.mux.server import Server

if TYPE_CHECKING:
    from termhost.mux.attached import Client
    from termhost.mux.model import Session

__all__ = ["main", "tui_client"]


def tui_client(server: Server, session: Session, send: Callable[[bytes], None], cols: int,
               rows: int, *, env: Mapping[str, str], force_256: bool) -> Client:
    """The prompt_toolkit client (ui/app.py) of a connection that attaches; imported
    here, at the first attach, so that a server no one attaches to never loads it."""
    from prompt_toolkit.data_structures import Size

    from termhost.ui.app import AttachedClient

    return AttachedClient(server, session, send, Size(rows=rows, columns=cols), env=env,
                          force_256=force_256)


def main(argv: Sequence[str] | None = None) -> int:
    """The server process: bind the socket, serve until the last session ends. Its
    command line is termhost.starting's, `--socket PATH [--ready FD] [--config FILE]`,
    read without argparse, which a cold start would pay for. --ready names a pipe that
    gets a line once the socket listens, and is closed: the starting command connects
    then, rather than polling for the socket."""
    words = list(sys.argv[1:] if argv is None else argv)
    given = dict(zip(words[::2], words[1::2], strict=False))
    if (len(words) % 2 or "--socket" not in given
            or set(given) - {"--socket", "--config", "--ready"}
            or not given.get("--ready", "0").isdigit()):
        print("usage: termhost-server --socket PATH [--ready FD] [--config FILE]",
              file=sys.stderr)
        return 2
    socket_path, config = Path(given["--socket"]), given.get("--config")
    try:
        listener = bind_server_socket(socket_path)
    except SocketError as error:
        print(f"termhost server: {error}", file=sys.stderr)
        return 1
    if "--ready" in given:
        ready = int(given["--ready"])
        try:
            os.write(ready, b"\n")
            os.close(ready)
        except OSError:
            pass  # the starting command is gone: nobody to tell

    async def run() -> None:
        await Server(socket_path, listener, tui_client).serve(config)

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
