"""A parent that launches one target and then waits forever, for parent-death tests.

argv: MODE (pty|pipe) PROGRAM ARGS... Prints the target's pid, then blocks.
"""

import asyncio
import sys

from termhost.process import Command, Setup, spawn, spawn_in_pty


async def main() -> None:
    mode, program, *args = sys.argv[1:]
    command = Command(program, args, env={"PATH": "/usr/bin:/bin"})
    if mode == "pty":
        child, _master = await spawn_in_pty(command)
    else:
        child = await spawn(command, Setup.PIPE)
    print(child.pid, child.launcher, flush=True)
    await asyncio.Event().wait()


asyncio.run(main())
