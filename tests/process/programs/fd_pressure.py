"""Launches a target with a single free fd left; reports on stdout as JSON.

The helper needs a socketpair (two fds): it cannot be used, so the launch must fall
back to the direct spawn, which needs only the pidfd.
"""

import asyncio
import errno
import json
import os
import resource

from termhost.process import Command, spawn


async def main() -> None:
    read_end, write_end = os.pipe()
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    filler = []
    try:
        while True:
            filler.append(os.open("/dev/null", os.O_RDONLY | os.O_CLOEXEC))
    except OSError as error:
        assert error.errno == errno.EMFILE
    os.close(filler.pop())  # exactly one fd free
    child = await spawn(Command("/bin/echo", ["pressure-ok"], env={}, stdout=write_end))
    status = await child.wait()
    os.close(write_end)
    for fd in filler:
        os.close(fd)
    print(json.dumps({
        "launcher": child.launcher,
        "status": status.returncode,
        "output": os.read(read_end, 100).decode(),
    }))


asyncio.run(main())
