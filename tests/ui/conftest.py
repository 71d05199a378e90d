"""Fixtures of the UI tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import BothServers
from tests.ui.outer_tmux import Outer


@pytest.fixture
def outer(tmp_path: Path, both: BothServers) -> Iterator[Outer]:
    terminal = Outer(tmp_path, both.env)
    yield terminal
    terminal.kill()
