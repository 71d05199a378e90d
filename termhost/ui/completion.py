"""Tab completion for the command prompt (`C-b :`), as tmux's status_prompt_complete.

Pure functions over a line and a cursor: the prompt owns the keys, the client supplies
the names (`Completions`), so completion can be tested without a server or a terminal.
What a word completes against depends on where it stands, as in tmux: the first word is
a verb; the first argument of set-option / show-options (flags skipped) is an option,
the second of set-option one of that option's values; the word after `-t` is a target.

Only the word before the cursor is completed, and a word starts after whitespace only:
a word inside quotes, or holding a quote or a backslash, is left alone rather than
completed into something the command line would split differently.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from termhost.mux.model import Session
from termhost.mux.options import OPTIONS
from termhost.mux.verbs import VERBS, lookup

__all__ = ["Completions", "choose", "complete", "targets_of"]

_OPTION_VERBS = ("set-option", "set-window-option", "show-options")
_SETTING_VERBS = ("set-option", "set-window-option")
_TARGET_FLAG = "t"
"""The flag whose value is a target, in every verb that has it (tmux's -t)."""


@dataclass(frozen=True)
class Completions:
    """The names a word may complete to; the client builds it when Tab is pressed, so the
    targets are the sessions, windows and panes of that moment."""

    verbs: Sequence[str] = ()
    """Verb names and their aliases."""
    options: Sequence[str] = ()
    targets: Sequence[str] = ()
    """Sessions, `session:window` forms, pane ids: what `-t` takes."""
    values: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """The values an option takes, by option name (on/off, emacs/vi...)."""

    @classmethod
    def of(cls, targets: Iterable[str] = ()) -> Completions:
        """termhost's own verbs and options, with the caller's targets."""
        verbs = [name for verb in VERBS.values() for name in (verb.name, *verb.aliases)]
        values = {name: option.choices for name, option in OPTIONS.items() if option.choices}
        return cls(tuple(verbs), tuple(OPTIONS), tuple(targets), values)


def targets_of(sessions: Iterable[Session]) -> list[str]:
    """What `-t` can name, in the forms a person types: `NAME`, `NAME:INDEX`,
    `NAME:WINDOW-NAME` and pane ids (`%N`)."""
    names: list[str] = []
    for session in sessions:
        names.append(session.name)
        for link in session.links:
            names += [f"{session.name}:{link.index}", f"{session.name}:{link.window.name}"]
            names += [pane.name for pane in link.window.panes]
    return list(dict.fromkeys(names))


_Pool = Callable[[Completions], Sequence[str]]


def complete(line: str, cursor: int, candidates: Completions) -> tuple[str, int, list[str]]:
    """Tab: the line and cursor after completing the word before the cursor, and the
    candidates to show when it is ambiguous (then the word is extended to their longest
    common prefix). A unique match is inserted with a space after it, ready for the next
    word; no match, or no word to complete here, leaves the line as it is. Inside a word
    the text before the cursor is completed, unless the whole word still fits a name."""
    cursor = max(0, min(cursor, len(line)))
    found = _locate(line, cursor)
    if found is None:
        return line, cursor, []
    start, pool = found
    names = pool(candidates)
    tail = re.match(r"\S*", line[cursor:])
    whole = line[start:cursor + (tail.end() if tail else 0)]
    if any(name.startswith(whole) for name in names):
        cursor = start + len(whole)  # Tab inside a word that fits: as at its end
    part = line[start:cursor]
    matches = sorted({name for name in names if name.startswith(part)})
    if not matches:
        return line, cursor, []
    if len(matches) == 1:
        new_line, new_cursor = _insert(line, start, cursor, matches[0])
        return new_line, new_cursor, []
    first, last = matches[0], matches[-1]  # sorted: they differ soonest
    size = next((i for i, pair in enumerate(zip(first, last, strict=False)) if pair[0] != pair[1]),
                min(len(first), len(last)))
    common = first[:size]
    if shlex.quote(common) != common:
        common = part  # extending would need quotes the rest of the word may not share
    return line[:start] + common + line[cursor:], start + len(common), matches


def choose(line: str, cursor: int, choice: str) -> tuple[str, int]:
    """The word before the cursor replaced by `choice`, as a unique match would be: a
    second Tab cycling through the candidates `complete` showed."""
    cursor = max(0, min(cursor, len(line)))
    found = _locate(line, cursor)
    if found is None:
        return line, cursor
    return _insert(line, found[0], cursor, choice)


def _insert(line: str, start: int, cursor: int, name: str) -> tuple[str, int]:
    """`name` (quoted if the command line would split it) in place of line[start:cursor],
    and a space after it unless one follows already; the cursor after that space."""
    done = line[:start] + shlex.quote(name)
    after = line[cursor:]
    if not after[:1].isspace():
        after = " " + after
    return done + after, len(done) + 1


def _locate(line: str, cursor: int) -> tuple[int, _Pool] | None:
    """Where the text to complete starts, and what it completes against; None where
    nothing completes (inside quotes, a flag, a command's free arguments)."""
    before = line[:cursor]
    match = re.search(r"\S*\Z", before)
    start = match.start() if match else cursor
    word = before[start:]
    if any(char in word for char in "'\"\\"):
        return None
    try:
        words = shlex.split(before[:start])
    except ValueError:  # an open quote: the cursor is inside a quoted argument
        return None
    if not words:
        return start, lambda names: names.verbs
    verb = lookup(words[0])
    flags = verb.flags if verb is not None else f"{_TARGET_FLAG}:"
    arguments, pending = _arguments(words[1:], flags)
    if pending is not None:
        return (start, _targets) if pending == _TARGET_FLAG else None
    if not arguments and word.startswith("-") and word != "-":
        return _attached_target(word, flags, start)
    if verb is None or verb.name not in _OPTION_VERBS:
        return None
    if not arguments:
        return start, lambda names: names.options
    option = arguments[0]
    if len(arguments) == 1 and verb.name in _SETTING_VERBS:
        return start, lambda names: names.values.get(option, ())
    return None


def _targets(names: Completions) -> Sequence[str]:
    return names.targets


def _arguments(words: list[str], flags: str) -> tuple[list[str], str | None]:
    """The arguments after the flags, getopt's way (flags end at the first argument or
    `--`; a value flag takes the rest of its word or the next word), and the value flag
    still waiting for its value when the words run out."""
    for index, word in enumerate(words):
        if word == "--":
            return words[index + 1:], None
        if not word.startswith("-") or word == "-":
            return words[index:], None
        for offset, letter in enumerate(word[1:], 1):
            if f"{letter}:" in flags:
                if offset == len(word) - 1:
                    if index == len(words) - 1:
                        return [], letter
                    return _arguments(words[index + 2:], flags)
                break
    return [], None


def _attached_target(word: str, flags: str, start: int) -> tuple[int, _Pool] | None:
    """`-tNAME`: a target typed in the same word as its flag."""
    for offset, letter in enumerate(word[1:], 1):
        if f"{letter}:" in flags:
            if letter == _TARGET_FLAG and offset < len(word) - 1:
                return start + offset + 1, _targets
            return None
    return None
