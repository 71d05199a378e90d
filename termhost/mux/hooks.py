"""tmux 3.3a's hooks: commands set-hook attaches to an event, run when it happens.

tmux keeps hooks as array options: each hook name holds commands by index
(`after-new-window[0]`, `[1]`), globally (`-g`), on a session, or on a window (`-w`, the
pane and window events). A scope that has a hook set shadows the global one, as an
option does. The names are tmux's: the `after-` hooks of the commands that have one, run
after the command succeeds, and the events below. This module holds the store and the
names; commands/hooks.py has set-hook, show-hooks and the running.
"""

from __future__ import annotations

__all__ = ["AFTER_COMMANDS", "SESSION_HOOKS", "WINDOW_HOOKS", "Hooks", "is_hook"]

AFTER_COMMANDS = (
    "bind-key", "capture-pane", "copy-mode", "display-message", "display-panes",
    "kill-pane", "list-buffers", "list-clients", "list-keys", "list-panes", "list-sessions",
    "list-windows", "load-buffer", "lock-server", "new-session", "new-window",
    "paste-buffer", "pipe-pane", "queue", "refresh-client", "rename-session",
    "rename-window", "resize-pane", "resize-window", "save-buffer", "select-layout",
    "select-pane", "select-window", "send-keys", "set-buffer", "set-environment",
    "set-hook", "set-option", "show-environment", "show-messages", "show-options",
    "split-window", "unbind-key",
)
"""The commands with an `after-` hook in tmux 3.3a."""

SESSION_HOOKS = (
    *(f"after-{name}" for name in AFTER_COMMANDS),
    "alert-activity", "alert-bell", "alert-silence", "client-active", "client-attached",
    "client-detached", "client-focus-in", "client-focus-out", "client-resized",
    "client-session-changed", "session-closed", "session-created", "session-renamed",
    "session-window-changed", "window-linked", "window-unlinked",
)
"""What `show-hooks -g` lists, in its order."""

WINDOW_HOOKS = (
    "pane-died", "pane-exited", "pane-focus-in", "pane-focus-out", "pane-mode-changed",
    "pane-set-clipboard", "pane-title-changed", "window-layout-changed",
    "window-pane-changed", "window-renamed", "window-resized",
)
"""What `show-hooks -gw` lists: the hooks of windows and panes."""

_ALL = frozenset(SESSION_HOOKS) | frozenset(WINDOW_HOOKS)


def is_hook(name: str) -> bool:
    return name in _ALL


class Hooks:
    """The hooks set in one scope: each name's commands by index (with gaps, as tmux's
    arrays), as the canonical text show-hooks prints."""

    def __init__(self) -> None:
        self._hooks: dict[str, dict[int, str]] = {}

    def set(self, name: str, command: str, *, index: int | None = None,
            append: bool = False) -> None:
        """`command` as the hook's only one, at `index`, or after the ones it has."""
        commands = self._hooks.setdefault(name, {})
        if index is None and not append:
            commands.clear()
        if index is None:
            index = max(commands, default=-1) + 1
        commands[index] = command

    def unset(self, name: str, index: int | None = None) -> None:
        """set-hook -u: the whole hook (the global one shows through again), or one of
        its commands."""
        if index is None:
            self._hooks.pop(name, None)
        else:
            self._hooks.get(name, {}).pop(index, None)

    def sets(self, name: str) -> bool:
        """Whether this scope has hook `name` (set, even with no commands left)."""
        return name in self._hooks

    def commands(self, name: str) -> list[str] | None:
        """The hook's commands in index order; None when this scope does not set it."""
        found = self._hooks.get(name)
        return None if found is None else [found[index] for index in sorted(found)]

    def command_at(self, name: str, index: int) -> str:
        """The hook's command at `index` ("" when none is there)."""
        return self._hooks.get(name, {}).get(index, "")

    def shown(self, names: tuple[str, ...] | None = None) -> list[str]:
        """show-hooks' lines: each name (`names`: every one, listed even when empty, as
        the global scope lists them; else only those set here) with `name[i] command`
        for each command."""
        lines: list[str] = []
        for name in names if names is not None else sorted(self._hooks):
            commands = self._hooks.get(name, {})
            lines += [f"{name}[{index}] {commands[index]}" for index in sorted(commands)]
            if not commands:
                lines.append(name)
        return lines
