"""tmux's command language split into commands and words, as tmux 3.3a's lexer reads a line.

One line (continuation lines already joined) becomes its commands, each a list of words:
- blanks separate words; `#` at the start of a word comments out the rest of the line;
- an unquoted `;` ends a command wherever it stands (`a;b` is two commands), `\\;` is a
  `;` in the word (a word that is just `;` separates the commands of a key binding);
- in single quotes nothing is special; in double quotes and bare words `\\` escapes
  (`\\n \\t \\e \\s`..., `\\ooo`, `\\uXXXX`, anything else stands for itself) and
  `$NAME` or `${NAME}` is the variable's value (empty when unset);
- `~` or `~user` starting a word (bare or in double quotes) is that home directory;
- a word `{` starts a block of commands, to the matching `}`, over several lines (a
  newline in it ends a command as `;` does): one argument, a printing.Block. A line
  whose block is still open raises Unclosed, for the reader to join the next line.
Checked against a live tmux in tests/mux/test_config.py.
"""

from __future__ import annotations

import os
import pwd
import string
from collections.abc import Mapping

from termhost.mux.printing import Block

__all__ = ["LexError", "Unclosed", "split_arguments", "split_commands"]

_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "s": " ",
            "t": "\t", "v": "\v"}
_NAME_CHARS = string.ascii_letters + string.digits + "_"
_BLANKS = " \t"


class LexError(ValueError):
    """A line tmux would refuse to parse; the message follows `syntax error: `."""


class Unclosed(LexError):
    """A `{` block the text does not close (yet: a file's next line may)."""


def split_commands(line: str, env: Mapping[str, str]) -> list[list[str]]:
    """The commands of `line`, each its words, `$NAME` and `~` expanded from `env`."""
    lexer = _Lexer(line, env)
    commands = lexer.commands(in_block=False)
    if not lexer.done():
        raise LexError("unexpected }")
    return commands


def split_arguments(argv: list[str]) -> list[list[str]]:
    """The commands of a command line already split into words (the shell did it): as
    tmux's client reads them, a word `;` or ending in `;` ends a command, and one ending
    in `\\;` ends in a `;` of its own (`termhost new -d \\; ls`, `bind a neww \\\\; splitw`)."""
    commands: list[list[str]] = [[]]
    for word in argv:
        if word.endswith("\\;"):
            commands[-1].append(word[:-2] + ";")
        elif word.endswith(";"):
            if word[:-1]:
                commands[-1].append(word[:-1])
            commands.append([])
        else:
            commands[-1].append(word)
    return [command for command in commands if command]


class _Lexer:
    def __init__(self, line: str, env: Mapping[str, str]) -> None:
        self.line, self.env, self.position = line, env, 0

    def commands(self, *, in_block: bool) -> list[list[str]]:
        """Commands up to the end of the text, or (`in_block`) to the `}` closing it."""
        commands: list[list[str]] = []
        argv: list[str] = []
        while True:
            self.skip_blanks()
            if not self.done() and self.peek() == "#":
                end = self.line.find("\n", self.position)
                self.position = len(self.line) if end < 0 else end
            if self.done():
                if in_block:
                    raise Unclosed("missing }")
                break
            char = self.peek()
            if char in ";\n":
                self.position += 1
                if argv:
                    commands.append(argv)
                argv = []
                continue
            if char == "}" and self._alone(self.position):
                if in_block:
                    self.position += 1
                    break
                break  # an unmatched `}`: split_commands says so
            if char == "{" and self._alone(self.position):
                self.position += 1
                argv.append(Block(self.commands(in_block=True)))
                continue
            word, ends_command = self.word()
            argv.append(word)
            if ends_command:
                commands.append(argv)
                argv = []
        if argv:
            commands.append(argv)
        return commands

    def _alone(self, position: int) -> bool:
        """Whether the brace at `position` is a word of its own (then it opens or closes a
        block; `a}` or `{x` are plain words)."""
        after = self.line[position + 1:position + 2]
        return after in ("", " ", "\t", "\n", ";")

    def done(self) -> bool:
        return self.position >= len(self.line)

    def peek(self) -> str:
        return self.line[self.position]

    def skip_blanks(self) -> None:
        while not self.done() and self.peek() in _BLANKS:
            self.position += 1

    def word(self) -> tuple[str, bool]:
        """The word here, and whether a `;` ended it (and its command)."""
        out: list[str] = []
        start = self.position
        while not self.done():
            char = self.peek()
            if char in _BLANKS or char == "\n":
                break
            if char == ";":
                self.position += 1
                return "".join(out), True
            if char == "~" and self.position == start:
                out.append(self._home())
            elif char == "\\":
                out.append(self._escape())
            elif char == "'":
                end = self.line.find("'", self.position + 1)
                if end < 0:
                    raise LexError("No closing quotation")
                out.append(self.line[self.position + 1:end])
                self.position = end + 1
            elif char == '"':
                out.append(self._double_quoted(at_start=self.position == start))
            elif char == "$":
                out.append(self._variable())
            else:
                out.append(char)
                self.position += 1
        return "".join(out), False

    def _double_quoted(self, *, at_start: bool) -> str:
        self.position += 1  # the opening quote
        out: list[str] = []
        if at_start and not self.done() and self.peek() == "~":
            out.append(self._home())
        while not self.done():
            char = self.peek()
            if char == '"':
                self.position += 1
                return "".join(out)
            if char == "\\":
                out.append(self._escape())
            elif char == "$":
                out.append(self._variable())
            else:
                out.append(char)
                self.position += 1
        raise LexError("No closing quotation")

    def _escape(self) -> str:
        """What `\\` and the characters after it stand for."""
        self.position += 1
        if self.done():
            return "\\"
        char = self.peek()
        self.position += 1
        if char in _ESCAPES:
            return _ESCAPES[char]
        if char in "01234567":
            digits = char + self._take("01234567", 2)
            return chr(int(digits, 8))
        if char in "uU":
            digits = self._take("0123456789abcdefABCDEF", 4 if char == "u" else 8)
            try:
                return chr(int(digits, 16)) if digits else char
            except (ValueError, OverflowError):
                raise LexError(f"invalid \\{char} argument") from None
        return char

    def _take(self, allowed: str, most: int) -> str:
        start = self.position
        while self.position - start < most and not self.done() and self.peek() in allowed:
            self.position += 1
        return self.line[start:self.position]

    def _variable(self) -> str:
        """`$NAME` or `${NAME}`; a `$` before anything else is itself."""
        self.position += 1
        if not self.done() and self.peek() == "{":
            end = self.line.find("}", self.position)
            if end < 0:
                raise LexError("No closing brace")
            name = self.line[self.position + 1:end]
            self.position = end + 1
            return self.env.get(name, "")
        name = self._take(_NAME_CHARS, len(self.line))
        return self.env.get(name, "") if name else "$"

    def _home(self) -> str:
        """`~` (HOME) or `~user` (that user's home); an unknown user stays as written."""
        self.position += 1
        start = self.position
        while not self.done() and self.peek() not in _BLANKS + ';/"\'\n':
            self.position += 1
        user = self.line[start:self.position]
        if not user:
            return self.env.get("HOME") or os.path.expanduser("~")
        try:
            return pwd.getpwnam(user).pw_dir
        except KeyError:
            return "~" + user
