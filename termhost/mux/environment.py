"""tmux's global and session environments (GLOBAL AND SESSION ENVIRONMENT in tmux.1).

The server copies its own environment into the global one when it starts; each session
has one of its own, filled from the creating client through update-environment. A new
pane gets the two merged, the session's value winning, without the variables marked
removed (`set-environment -r`, shown as `-NAME`) or hidden (`-h`: for formats only).
set-environment and show-environment (commands/environment.py) edit and print them.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

__all__ = ["Environment", "Variable", "merged"]


@dataclass
class Variable:
    """One variable: its value, or None once removed (`-NAME`); hidden ones never reach
    a process."""

    name: str
    value: str | None
    hidden: bool = False


class Environment:
    """The variables of one environment, by name."""

    def __init__(self, initial: Mapping[str, str] | None = None) -> None:
        self._variables = {name: Variable(name, value) for name, value in (initial or {}).items()}

    def __iter__(self) -> Iterator[Variable]:
        """The variables in name order, as show-environment lists them."""
        return iter(sorted(self._variables.values(), key=lambda variable: variable.name))

    def get(self, name: str) -> Variable | None:
        return self._variables.get(name)

    def set(self, name: str, value: str, *, hidden: bool = False) -> None:
        self._variables[name] = Variable(name, value, hidden)

    def remove(self, name: str) -> None:
        """-r: the variable is taken out of new processes' environments (`-NAME`)."""
        hidden = name in self._variables and self._variables[name].hidden
        self._variables[name] = Variable(name, None, hidden)

    def unset(self, name: str) -> None:
        """-u: forget the variable here (the global one shows through again)."""
        self._variables.pop(name, None)

    def update_from(self, patterns: Iterable[str], client: Mapping[str, str]) -> None:
        """update-environment: each variable a pattern names is set from the client's
        environment, or marked removed when the client has none of that name."""
        for pattern in patterns:
            names = [name for name in client if fnmatch.fnmatchcase(name, pattern)]
            if not names and not any(char in pattern for char in "*?["):
                self.remove(pattern)
            for name in names:
                self.set(name, client[name])


def merged(global_environment: Environment, session: Environment) -> dict[str, str]:
    """What a new process starts with: the global variables, then the session's over
    them; removed and hidden ones left out."""
    values: dict[str, Variable] = {variable.name: variable for variable in global_environment}
    values.update((variable.name, variable) for variable in session)
    return {name: variable.value for name, variable in values.items()
            if variable.value is not None and not variable.hidden}
