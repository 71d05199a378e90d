"""The environment every client test runs in: a private server directory and a plain sh."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    environment = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path), "SHELL": "/bin/sh",
                   "PS1": "$ ", "ENV": ""}
    environment.pop("TERMHOST", None)
    yield environment
    subprocess.run([sys.executable, "-m", "termhost", "kill-server"], env=environment,
                   capture_output=True, timeout=30, check=False)
