"""The terminal core: emulator (a pyte.Screen of ours), scrollback, key encoding."""

from __future__ import annotations

from termhost.terminal.emulator import Terminal

__all__ = ["Terminal"]
