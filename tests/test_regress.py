"""tmux 3.3a's own regress scripts (../shared/tmux-3.3a/regress/, run by its run-regress)
with termhost in tmux's place: each one that passes is held here, so that it stays so.

All 17 that tmux 3.3a passes here pass, and control-client-size too (which tmux 3.3a
itself fails on this machine); `run-regress "$(command -v termhost)"` lists them all.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[2] / "shared" / "tmux-3.3a" / "run-regress"
PASSING = [
    "am-terminal",
    "control-client-sanity",
    "control-client-size",
    "cursor-test1",
    "cursor-test2",
    "cursor-test3",
    "cursor-test4",
    "format-strings",
    "has-session-return",
    "if-shell-TERM",
    "if-shell-error",
    "if-shell-nested",
    "kill-session-process-exit",
    "new-session-base-index",
    "new-session-command",
    "new-session-no-client",
    "new-window-command",
    "style-trim",
]


@pytest.mark.parametrize("script", PASSING)
def test_tmux_regress_script_passes_with_termhost(script: str) -> None:
    termhost = Path(sys.executable).with_name("termhost")
    assert RUNNER.exists(), f"{RUNNER} is missing: ../shared sits beside the repository"
    assert termhost.exists(), f"{termhost} is missing: pip install -e . installs it"
    done = subprocess.run([str(RUNNER), str(termhost), script], capture_output=True,
                          text=True, timeout=100, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
