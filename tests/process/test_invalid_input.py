"""Bad launches fail before anything starts, with an error that names the problem."""

from __future__ import annotations

import asyncio
import errno
import os
import re

import pytest

from termhost.process import MAX_ENV_BYTES, Command, Setup, spawn
from termhost.process.direct import spawn_direct
from tests.conftest import BASE_ENV, children_of


def launch(command: Command) -> None:
    async def scenario() -> None:
        child = await spawn(command)
        await child.wait()

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("command", "named"),
    [
        (Command("sh", ["-c", "echo a\0b"], env=BASE_ENV), "args[1]"),
        (Command("sh\0x", env=BASE_ENV), "program"),
        (Command("true", env={**BASE_ENV, "SECRET": "a\0b"}), "environment variable SECRET"),
        (Command("true", env={**BASE_ENV, "A\0B": "x"}), "environment variable name"),
        (Command("true", env=BASE_ENV, cwd="/tmp\0x"), "cwd"),
        (Command("true", env=BASE_ENV, argv0="a\0b"), "argv0"),
    ],
)
def test_a_nul_byte_is_a_value_error_naming_the_field(command: Command, named: str) -> None:
    before = set(children_of(os.getpid()))
    with pytest.raises(ValueError, match=re.escape(named)):
        launch(command)
    assert set(children_of(os.getpid())) <= before  # nothing was started


def test_a_variable_name_with_equals_is_refused() -> None:
    with pytest.raises(ValueError, match="contains '='"):
        launch(Command("true", env={**BASE_ENV, "A=B": "x"}))


def test_an_environment_over_8_mib_is_e2big_before_spawning() -> None:
    before = set(children_of(os.getpid()))
    env = {**BASE_ENV, "HUGE": "x" * MAX_ENV_BYTES}
    with pytest.raises(OSError) as raised:
        launch(Command("true", env=env))
    assert raised.value.errno == errno.E2BIG
    assert set(children_of(os.getpid())) <= before


def test_the_limit_is_on_the_whole_block_of_entries() -> None:
    overhead = len("V=") + 1
    at_limit = Command("true", env={"V": "x" * (MAX_ENV_BYTES - overhead)})
    assert len(at_limit.encode().env_block) == MAX_ENV_BYTES
    with pytest.raises(OSError, match="over the 8388608 byte limit"):
        Command("true", env={"V": "x" * (MAX_ENV_BYTES - overhead + 1)}).encode()


@pytest.mark.parametrize("launcher", ["helper", "direct"])
def test_a_missing_program_is_file_not_found_naming_it(launcher: str) -> None:
    command = Command("termhost-no-such-program", env=BASE_ENV)
    with pytest.raises(FileNotFoundError) as raised:
        if launcher == "helper":
            launch(command)
        else:
            spawn_direct(command, Setup.PIPE)
    assert raised.value.errno == errno.ENOENT
    assert raised.value.filename == "termhost-no-such-program"
    assert "termhost-no-such-program" in str(raised.value)


def test_a_program_is_searched_in_the_targets_path_not_ours(tmp_path: os.PathLike[str]) -> None:
    program = os.path.join(tmp_path, "only-here")
    with open(program, "w") as script:
        script.write("#!/bin/sh\nexit 5\n")
    os.chmod(program, 0o755)

    async def scenario(launcher: str) -> int:
        command = Command("only-here", env={"PATH": str(tmp_path)})
        child = await spawn(command) if launcher == "helper" else spawn_direct(command, Setup.PIPE)
        return (await child.wait()).returncode

    assert asyncio.run(scenario("helper")) == 5
    assert asyncio.run(scenario("direct")) == 5


def test_pty_mode_without_a_terminal_is_refused() -> None:
    read_end, write_end = os.pipe()
    try:
        with pytest.raises(OSError) as raised:
            asyncio.run(spawn(Command("true", env=BASE_ENV, stdin=read_end), Setup.PTY))
        assert raised.value.errno == errno.ENOTTY
    finally:
        os.close(read_end)
        os.close(write_end)
