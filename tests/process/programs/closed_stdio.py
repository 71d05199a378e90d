"""Launches targets from a parent whose fds 0 and 1 are closed; reports on fd 2 as JSON.

With 0 and 1 free, the helper's socketpair and the output pipe land on them: the
launcher must move them out of the way of the child's stdio.
"""

import asyncio
import json
import os
import sys

from termhost.process import Command, Setup, spawn

ENV = {"PATH": "/usr/bin:/bin"}


async def main() -> None:
    os.close(0)
    os.close(1)
    result: dict[str, object] = {}
    # 1. No fd opened first: the socketpair itself takes fds 0 and 1.
    marker = sys.argv[1]
    child = await spawn(Command("sh", ["-c", 'echo socket-ok > "$0"', marker], env=ENV))
    result["socket_status"] = (await child.wait()).returncode
    result["socket_launcher"] = child.launcher
    with open(marker) as f:
        result["socket_output"] = f.read()
    # 2. A pipe takes fds 0 and 1: the child's stdout source is fd 1, its stdin fd 0's twin.
    read_end, write_end = os.pipe()
    in_read, in_write = os.pipe()
    os.write(in_write, b"from-stdin\n")
    os.close(in_write)
    result["pipe_fds"] = [read_end, write_end]
    child = await spawn(
        Command("sh", ["-c", "cat; echo pipe-ok"], env=ENV, stdin=in_read, stdout=write_end),
        Setup.PIPE,
    )
    os.close(write_end)
    os.close(in_read)
    output = b""
    while chunk := os.read(read_end, 4096):
        output += chunk
    result["pipe_output"] = output.decode()
    result["pipe_status"] = (await child.wait()).returncode
    result["pipe_launcher"] = child.launcher
    os.write(2, json.dumps(result).encode())


asyncio.run(main())
