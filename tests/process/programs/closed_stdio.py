"""Launches targets from a parent whose fds 0 and 1 are closed; reports on fd 2 as JSON.

With 0 and 1 free, the helper's socketpair lands on them; then the child's stdio sources
are our fds 0 and 1, swapped: the launcher must move them out of each other's way.
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
    # 2. Swapped stdio: the child's stdout source is our fd 0 and its stdin source our
    #    fd 1, so a naive dup2 onto 0 would clobber the source of its stdout.
    placeholders = [os.open(os.devnull, os.O_RDONLY) for _ in range(2)]  # hold 0 and 1
    out_r, out_w = os.pipe()
    in_r, in_w = os.pipe()
    assert placeholders == [0, 1] and min(out_r, out_w, in_r, in_w) > 2
    os.dup2(out_w, 0, inheritable=False)
    os.dup2(in_r, 1, inheritable=False)
    for fd in (out_w, in_r):
        os.close(fd)
    os.write(in_w, b"from-stdin\n")
    os.close(in_w)
    child = await spawn(
        Command("sh", ["-c", "cat; echo pipe-ok"], env=ENV, stdin=1, stdout=0), Setup.PIPE
    )
    os.close(0)
    os.close(1)
    output = b""
    while chunk := os.read(out_r, 4096):
        output += chunk
    result["pipe_output"] = output.decode()
    result["pipe_status"] = (await child.wait()).returncode
    result["pipe_launcher"] = child.launcher
    os.write(2, json.dumps(result).encode())


asyncio.run(main())
