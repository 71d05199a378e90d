"""The status-line prompt: tmux's confirm-before (`C-b x`, `C-b &`) and command-prompt
with a preset text (`C-b ,`, `C-b $`).

While a prompt is open it takes every key from its client, as tmux's does; the client
shows `line` in place of its status bar. The prompt only collects an answer: what is done
with it is the caller's `accept` callback, so the keys and the commands stay apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Prompt", "ask", "confirm"]


@dataclass
class Prompt:
    """An open prompt: `label` shown before the answer being typed."""

    label: str
    text: str
    accept: Callable[[str], None]
    single_key: bool = False
    """A confirmation: the first key is the answer (y accepts, anything else cancels)."""

    @property
    def line(self) -> str:
        return self.label + self.text

    def key(self, name: str) -> bool:
        """Take one key by its tmux name; True when the prompt is finished."""
        if self.single_key:
            if name in ("y", "Y"):
                self.accept(name)
            return True
        if name in ("Enter", "C-m", "C-j"):
            self.accept(self.text)
            return True
        if name in ("Escape", "escape", "C-c", "C-g"):  # prompt_toolkit's name: "escape"
            return True
        if name in ("BSpace", "C-h"):
            self.text = self.text[:-1]
        elif name == "C-u":
            self.text = ""
        elif len(name) == 1 and name.isprintable():
            self.text += name
        return False


def confirm(question: str, accept: Callable[[], None]) -> Prompt:
    """`QUESTION? (y/n)`, as tmux's confirm-before asks it."""
    return Prompt(f"{question}? (y/n) ", "", lambda _: accept(), single_key=True)


def ask(label: str, preset: str, accept: Callable[[str], None]) -> Prompt:
    """`(label) preset`: an answer to edit, as tmux's command-prompt -I gives it."""
    return Prompt(f"({label}) ", preset, accept)
