"""The status-line prompt: tmux's confirm-before (`C-b x`, `C-b &`), command-prompt with
a preset text (`C-b ,`, `C-b $`) and the command prompt itself (`C-b :`).

While a prompt is open it takes every key from its client, as tmux's does; the client
shows `line` in place of its status bar, the terminal cursor at `cursor_column`, and the
completions `shown`, if any, after it. The prompt only collects an answer: what is done
with it is the caller's `accept` callback, so the keys and the commands stay apart.

The keys are tmux's emacs prompt keys (status.c): the answer is edited at a cursor, with
a kill buffer for C-k / C-u / C-w that C-y yanks back, a history that Up and Down browse
and Tab completion (completion.py). Words, for M-b / M-f / C-w, are separated by
whitespace only: the prompt edits command lines, whose words are the shell's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from termhost.mux.prompt_history import History
from termhost.terminal.screen import char_width
from termhost.ui.completion import Completions, choose, complete

__all__ = ["Prompt"]

_ACCEPT = frozenset({"Enter", "C-m", "C-j"})
_CANCEL = frozenset({"Escape", "escape", "C-c", "C-g"})  # prompt_toolkit's name: "escape"
_TAB = frozenset({"Tab", "C-i"})  # prompt_toolkit parses Tab as C-i
_EDITING = frozenset({
    "Left", "C-b", "Right", "C-f", "Home", "C-a", "End", "C-e", "M-b", "C-Left", "M-f",
    "C-Right", "BSpace", "C-h", "C-?", "DC", "Delete", "C-d", "C-k", "C-u", "C-w", "C-y",
    "Up", "C-p", "Down", "C-n"})
"""The keys that edit the answer or browse the history: a one-key prompt (-1, -k) still
takes them as such, as tmux's does."""


@dataclass
class _Cycle:
    """Tab pressed again after an ambiguous completion: the line it completed from, and
    which of the candidates is in the line now (-1: none yet)."""

    line: str
    cursor: int
    index: int = -1


@dataclass
class Prompt:
    """An open prompt: `label` shown before the answer being typed."""

    label: str
    text: str
    accept: Callable[[str], None]
    single_key: bool = False
    """A confirmation: the first key is the answer (y accepts, anything else cancels)."""
    one_key: str = field(default="", kw_only=True)
    """command-prompt -1 ("char": the first character typed is the answer) or -k
    ("name": the first key's name is)."""
    numeric: bool = field(default=False, kw_only=True)
    """command-prompt -N: digits are typed; any other key accepts what they make."""
    on_change: Callable[[str], None] | None = field(default=None, kw_only=True)
    """command-prompt -i: told the answer each time it changes."""
    on_cancel: Callable[[], None] | None = field(default=None, kw_only=True)
    """Told when the prompt closes without an answer (a key, or another prompt)."""
    history: History | None = field(default=None, kw_only=True)
    """Where accepted lines go and Up / Down recall them from; None: no history."""
    completions: Callable[[], Completions] | None = field(default=None, kw_only=True)
    """The names Tab completes against, asked for at each Tab; None: Tab does nothing."""
    cursor: int = field(init=False)
    """Where in `text` the next character goes: a preset answer is edited from its end."""
    shown: list[str] = field(init=False, default_factory=list)
    """The candidates of an ambiguous completion, for the client to show; emptied by the
    next key that is not Tab."""
    _back: int = field(init=False, default=0, repr=False)
    """How far back in the history the text is; 0: the line being edited."""
    _draft: str = field(init=False, default="", repr=False)
    """The line being edited, kept while the history is browsed."""
    _killed: str = field(init=False, default="", repr=False)
    _cycle: _Cycle | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.cursor = len(self.text)

    @property
    def line(self) -> str:
        return self.label + self.text

    @property
    def cursor_column(self) -> int:
        """The column of the cursor within `line`, in cells (a wide character takes two),
        for the client to put its terminal's cursor there."""
        before = self.label + self.text[:self.cursor]
        return sum(max(char_width(char), 0) for char in before)

    def key(self, name: str) -> bool:
        """Take one key by its tmux name; True when the prompt is finished."""
        if self.single_key:
            if name in ("y", "Y"):
                self.accept(name)
            else:
                self.cancel()
            return True
        if name in _ACCEPT:
            if self.history is not None:
                self.history.add(self.text)
            self.accept(self.text)
            return True
        if name in _CANCEL:
            self.cancel()
            return True
        if self.one_key and name not in _EDITING:
            if self.one_key == "name":
                self.accept(name)
                return True
            if len(name) == 1 or name == "Space":
                self.accept(" " if name == "Space" else name)
                return True
            return False
        if self.numeric and not name.isdigit() and name not in _EDITING:
            self.accept(self.text)
            return True
        before = self.text
        if name in _TAB or name == "BTab":
            self._complete(backward=name == "BTab")
            return False
        self._cycle = None
        self.shown = []
        if name in ("Up", "C-p", "Down", "C-n"):
            self._browse(1 if name in ("Up", "C-p") else -1)
        else:
            self._edit(name)
        self.cursor = max(0, min(self.cursor, len(self.text)))
        if self.on_change is not None and self.text != before:
            self.on_change(self.text)
        return False

    def cancel(self) -> None:
        """Closed without an answer."""
        if self.on_cancel is not None:
            self.on_cancel()

    def _edit(self, name: str) -> None:
        text, cursor = self.text, self.cursor
        if name in ("Left", "C-b"):
            self.cursor -= 1
        elif name in ("Right", "C-f"):
            self.cursor += 1
        elif name in ("Home", "C-a"):
            self.cursor = 0
        elif name in ("End", "C-e"):
            self.cursor = len(text)
        elif name in ("M-b", "C-Left"):
            self.cursor = _word_start(text, cursor)
        elif name in ("M-f", "C-Right"):
            self.cursor = _word_end(text, cursor)
        elif name in ("BSpace", "C-h", "C-?"):
            if cursor:
                self._replace(cursor - 1, cursor, "")
        elif name in ("DC", "Delete", "C-d"):
            self._replace(cursor, cursor + 1, "")
        elif name == "C-k":
            self._kill(cursor, len(text))
        elif name == "C-u":
            self._kill(0, len(text))
        elif name == "C-w":
            self._kill(_word_start(text, cursor), cursor)
        elif name == "C-y":
            self._replace(cursor, cursor, self._killed)
        elif name in ("Space", " "):
            self._replace(cursor, cursor, " ")
        elif len(name) == 1 and name.isprintable():
            self._replace(cursor, cursor, name)

    def _replace(self, start: int, end: int, new: str) -> None:
        self.text = self.text[:start] + new + self.text[end:]
        self.cursor = start + len(new)

    def _kill(self, start: int, end: int) -> None:
        """Cut text[start:end] into the kill buffer, as tmux's prompt does for C-y; an
        empty cut keeps what was killed before."""
        if end > start:
            self._killed = self.text[start:end]
            self._replace(start, end, "")

    def _browse(self, step: int) -> None:
        """Up (step 1) goes back in the history, Down forward; Down past the newest line
        comes back to the line that was being edited (tmux's prompt history)."""
        if self.history is None:
            return
        back = max(0, min(self._back + step, len(self.history)))
        if back == self._back:
            return
        if self._back == 0:
            self._draft = self.text
        self._back = back
        self.text = self.history.recall(back) if back else self._draft
        self.cursor = len(self.text)

    def _complete(self, *, backward: bool) -> None:
        """Tab completes the word before the cursor; when that was ambiguous, Tab again
        puts each candidate in turn in its place (BTab goes the other way), so a long
        list need not be typed down to one."""
        if self.completions is None:
            return
        if self._cycle is not None and self.shown:
            cycle = self._cycle
            if cycle.index < 0:
                cycle.index = len(self.shown) - 1 if backward else 0
            else:
                cycle.index = (cycle.index + (-1 if backward else 1)) % len(self.shown)
            self.text, self.cursor = choose(cycle.line, cycle.cursor, self.shown[cycle.index])
            return
        if backward:
            return
        self.text, self.cursor, self.shown = complete(self.text, self.cursor,
                                                      self.completions())
        self._cycle = _Cycle(self.text, self.cursor) if self.shown else None


def _word_start(text: str, cursor: int) -> int:
    """The start of the word before the cursor (M-b, C-w): back over spaces, then over
    the word."""
    while cursor and text[cursor - 1].isspace():
        cursor -= 1
    while cursor and not text[cursor - 1].isspace():
        cursor -= 1
    return cursor


def _word_end(text: str, cursor: int) -> int:
    """The end of the word at or after the cursor (M-f, as emacs)."""
    while cursor < len(text) and text[cursor].isspace():
        cursor += 1
    while cursor < len(text) and not text[cursor].isspace():
        cursor += 1
    return cursor
