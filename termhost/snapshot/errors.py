"""The snapshot package's errors, in a module of their own so that what `termhost exec`
imports (shells.py) needs nothing heavier."""

from __future__ import annotations

__all__ = ["SnapshotError", "UnsupportedShell"]


class SnapshotError(Exception):
    """A snapshot could not be captured, validated, stored or loaded (one-line message)."""


class UnsupportedShell(SnapshotError):
    """The session's shell is not one whose state termhost knows how to capture."""
