"""Fixtures of the UI tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import BothServers
from tests.ui.outer_tmux import Outer

OUTER_RERUNS = 2
"""Runs again of a test driving clients in the outer tmux, after a failure. tmux 3.3a's
client there now and then loses a key sent to it while the machine is loaded (CI lost M-r,
a mouse report, a y at a prompt: tmux's side, the reference's, each time, and never in a
run of its own), with no state to wait on that would prevent it. A fault of termhost's
fails every run."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "outer" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.flaky(reruns=OUTER_RERUNS))


@pytest.fixture
def outer(tmp_path: Path, both: BothServers) -> Iterator[Outer]:
    terminal = Outer(tmp_path, both.env)
    yield terminal
    terminal.kill()
