"""The server process's composition root: the multiplexer (mux/) built with the TUI's
client factory (ui/), so that mux never imports ui and runs headless in tests.

Run as `python -m termhost.serve --socket PATH`, as the first command that needs a
server starts it (mux/client.py).
"""

from __future__ import annotations

import argparse
import asyncio
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
    """The server process: bind the socket, serve until the last session ends."""
    parser = argparse.ArgumentParser(prog="termhost-server")
    parser.add_argument("--socket", required=True, type=Path)
    parser.add_argument("--config", help="a file of tmux commands to run first (-f)")
    args = parser.parse_args(argv)
    try:
        listener = bind_server_socket(args.socket)
    except SocketError as error:
        print(f"termhost server: {error}", file=sys.stderr)
        return 1

    async def run() -> None:
        await Server(args.socket, listener, tui_client).serve(args.config)

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
