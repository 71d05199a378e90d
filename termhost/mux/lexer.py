"""tmux's command language, read as tmux 3.3a's cmd-parse.y reads it, files and strings
alike: a text (a configuration file, a key binding's command, the command prompt's line)
becomes its commands, each with the line tmux says it is on.

A port of tmux's lexer and grammar rather than a tidier reading, because what users meet
are its edges: which text a file is refused for (and so runs none of), and the line the
error names. So its reading is kept where it surprises: a quote left open goes on over
newlines and ends with the text; `{ }` is one argument of commands over lines (a
printing.Block); `NAME=value` sets a variable for the rest of the text (handed to
`assign`) when its own `%if` branch is taken, whatever the branches around it, and a
command that is only an assignment drops the commands before it on its line; a newline
inside quotes is not counted, a comment counts its line's end early, and a command's line
is where it ends. The first error ends the reading: a LexError, with tmux's message and
line. Held to a live tmux by tests/mux/test_config.py and test_config_errors.py.
"""

from __future__ import annotations

import os
import pwd
import re
import string
from collections import ChainMap
from collections.abc import Callable, Mapping
from typing import NoReturn

from termhost.mux.printing import Block

__all__ = ["Assign", "LexError", "Line", "parse_commands", "split_arguments", "split_commands"]

Line = tuple[int, list[str]]
"""(line number, argv) of one command."""

Assign = Callable[[str, str, bool], None]
"""Takes a variable a text sets: its name, its value, whether it is hidden (`%hidden`)."""

Condition = Callable[[str], bool]
"""Whether an `%if` or `%elif` format is true."""

_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "s": " ",
            "t": "\t", "v": "\v"}
_NAME_CHARS = frozenset(string.ascii_letters + string.digits + "_")
_DIRECTIVES = {"%hidden": "HIDDEN", "%if": "IF", "%else": "ELSE", "%elif": "ELIF",
               "%endif": "ENDIF"}
_EOF = ""
"""What the reader gives at the end of the text."""
_PLAIN = {"none": re.compile(r"[^ \t\n;}\\~$'\"]+"), "single": re.compile(r"[^\n\\']+"),
          "double": re.compile(r'[^\n\\~$"]+')}
"""A run of characters _token takes as they are in each quoting state: none of a word's
ends, quotes, escapes (a `\\` may join lines), `$` or `~` (itself at a word's start)."""
_SIMPLE = re.compile(r"[^\x00-\x08\n-\x1f\x7f-\U0010ffff;{}\\~$'\"#%=]*")
"""A line of plain ASCII words only, between spaces and tabs: no quote, escape,
expansion, list, block, comment, directive or assignment. Such a line (a script's
`set -g @x 1`) is its words split at spaces and tabs, without the grammar's machinery:
tests/mux/test_parser_vs_tmux.py holds the two to the same words."""


class LexError(ValueError):
    """A text tmux refuses; the message is tmux's (`syntax error`, `invalid environment
    variable`) and `line` the line it names."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


def parse_commands(text: str, env: Mapping[str, str], *, assign: Assign | None = None,
                   condition: Condition | None = None) -> list[Line]:
    """The commands of `text`, each with its line: `$NAME` and `~` expanded from `env`
    and the text's own assignments (each also given to `assign`), `%if` formats judged
    by `condition` (by default, with the server's variables)."""
    if not text:
        return []
    if _SIMPLE.fullmatch(text):
        words = text.split()
        return [(1, words)] if words else []
    return _Parser(text, env, assign, condition or _format_true).lines()


def split_commands(text: str, env: Mapping[str, str]) -> list[list[str]]:
    """The commands of `text`, each its words, `$NAME` and `~` expanded from `env`."""
    return [argv for _, argv in parse_commands(text, env)]


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


def _format_true(text: str) -> bool:
    """An `%if` format with the server's variables (`#{version}`, `#{host}`): true unless
    empty or 0. Imported here: the command-line client imports this module, and the
    variables' module brings the emulator along."""
    from termhost.mux.format_variables import server_variables
    from termhost.mux.formats import expand

    return expand(text, server_variables(None)) not in ("", "0")


class _Reader:
    """The text character by character, as tmux's yylex_getc gives it: a `\\` before a
    newline (an odd run of them) joins the lines, counting one."""

    def __init__(self, text: str) -> None:
        self.text, self.position, self.line = text, 0, 1
        self._backslashes = 0

    def _raw(self) -> str:
        if self.position >= len(self.text):
            return _EOF
        self.position += 1
        return self.text[self.position - 1]

    def unget(self, char: str) -> None:
        if char != _EOF and self.position > 0:
            self.position -= 1

    def get(self) -> str:
        position = self.position
        if not self._backslashes and position < len(self.text):
            char = self.text[position]
            if char != "\\":  # the common case, without the joining below
                self.position = position + 1
                return char
        if self._backslashes:
            self._backslashes -= 1
            return "\\"
        while True:
            char = self._raw()
            if char == "\\":
                self._backslashes += 1
                continue
            if char == "\n" and self._backslashes % 2 == 1:
                self.line += 1
                self._backslashes -= 1
                continue
            if self._backslashes:
                self.unget(char)
                self._backslashes -= 1
                return "\\"
            return char


Token = tuple[str, str]
"""(kind, text): kind is a word (TOKEN), an assignment (EQUALS), an `%if` format
(FORMAT), a directive (HIDDEN, IF, ELSE, ELIF, ENDIF), one of `\\n ; { }`, END or
ERROR."""


class _Lexer:
    """tmux's yylex: the tokens of the text, words expanded as they are read."""

    def __init__(self, text: str, env: Mapping[str, str]) -> None:
        self.reader = _Reader(text)
        self.env = env
        self.error: tuple[str, int] | None = None
        """The first error said (tmux's yyerror keeps the first), and its line."""
        self._end_of_line = False
        self._ended = False
        self._condition = False
        """The token before was a directive: `#{` opens a format, not a comment."""

    @property
    def line(self) -> int:
        return self.reader.line

    def fail(self, message: str) -> None:
        if self.error is None:
            self.error = (message, self.line)

    def next(self) -> Token:
        reader = self.reader
        if self._end_of_line:
            reader.line += 1
        self._end_of_line = False
        condition, self._condition = self._condition, False
        while True:
            char = reader.get()
            if char == _EOF:
                if self._ended:
                    return ("END", "")
                self._ended = True  # every text ends in a newline
                return ("\n", "")
            if char in " \t":
                continue
            if char == "\n":
                self._end_of_line = True
                return ("\n", "")
            if char in ";{}":
                return (char, char)
            if char == "#":
                after = reader.get()
                if condition and after == "{":
                    found = self._format()
                    return ("ERROR", "") if found is None else ("FORMAT", found)
                while after not in ("\n", _EOF):
                    after = reader.get()
                if after == "\n":
                    reader.line += 1
                    return ("\n", "")
                continue
            if char == "%":
                word = self._word(char)
                if all(c == "%" or c.isdigit() for c in word):
                    return ("TOKEN", word)
                self._condition = True
                return (_DIRECTIVES.get(word, "ERROR"), "")
            token = self._token(char)
            if token is None:
                return ("ERROR", "")
            name, equals, _ = token.partition("=")
            if equals and _is_name(name):
                return ("EQUALS", token)
            return ("TOKEN", token)

    def _word(self, char: str) -> str:
        """A directive's word: to the next blank."""
        out = []
        while char != _EOF and char not in " \t\n":
            out.append(char)
            char = self.reader.get()
        self.reader.unget(char)
        return "".join(out)

    def _format(self) -> str | None:
        """An unquoted `#{...}` after `%if`, to its matching `}`, on one line."""
        out, depth = ["#{"], 1
        while True:
            char = self.reader.get()
            if char in (_EOF, "\n"):
                return None
            if char == "#":
                char = self.reader.get()
                if char in (_EOF, "\n"):
                    return None
                if char == "{":
                    depth += 1
                out.append("#")
            elif char == "}" and depth:
                depth -= 1
                if depth == 0:
                    out.append(char)
                    return "".join(out)
            out.append(char)

    def _token(self, char: str) -> str | None:
        """tmux's yylex_token: a word with its quotes, escapes, `~` and `$NAME`; None
        when it is not one."""
        reader = self.reader
        out: list[str] = []
        state, last = "none", "start"
        while True:
            if char == _EOF or (state == "none" and char == "\n"):
                break
            if state == "none" and char in " \t;}":
                break
            if char == "\n":  # in quotes: the newline stays, the next line's indent goes
                out.append("\n")
                char = reader.get()
                while char in (" ", "\t"):
                    char = reader.get()
                if char != "#":
                    continue
                char = reader.get()
                if char != _EOF and char in ",#{}:":  # a format, not a comment
                    reader.unget(char)
                    char = "#"
                else:
                    while char not in ("\n", _EOF):
                        char = reader.get()
                    continue
            if char == "\\" and state != "single":
                if not self._escape(out):
                    return None
            elif char == "~" and last != state and state != "single":
                if not self._home(out):
                    return None
            elif char == "$" and state != "single":
                if not self._variable(out):
                    return None
            elif char == "'" and state in ("none", "single"):
                state = "single" if state == "none" else "none"
                char = reader.get()
                continue
            elif char == '"' and state in ("none", "double"):
                state = "double" if state == "none" else "none"
                char = reader.get()
                continue
            else:
                out.append(char)
                if not reader._backslashes:  # the plain characters after it, at once
                    run = _PLAIN[state].match(reader.text, reader.position)
                    if run is not None:
                        out.append(run.group())
                        reader.position = run.end()
            last = state
            char = reader.get()
        reader.unget(char)
        return "".join(out)

    def _escape(self, out: list[str]) -> bool:
        """What a `\\` and the characters after it stand for."""
        reader = self.reader
        char = reader.get()
        if char in ("4", "5", "6", "7"):
            self.fail("invalid octal escape")
            return False
        if char in ("0", "1", "2", "3"):
            second = reader.get()
            if second != _EOF and second in "01234567":
                third = reader.get()
                if third != _EOF and third in "01234567":
                    out.append(chr(int(char + second + third, 8)))
                    return True
            self.fail("invalid octal escape")
            return False
        if char == _EOF:
            return False
        if char in ("u", "U"):
            digits = ""
            for _ in range(4 if char == "u" else 8):
                digit = reader.get()
                if digit in (_EOF, "\n"):
                    return False
                if digit not in string.hexdigits:
                    self.fail(f"invalid \\{char} argument")
                    return False
                digits += digit
            code = int(digits, 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF or code == 0:
                self.fail(f"invalid \\{char} argument")
                return False
            out.append(chr(code))
            return True
        out.append(_ESCAPES.get(char, char))
        return True

    def _variable(self, out: list[str]) -> bool:
        """`$NAME` or `${NAME}`; a `$` before anything else is itself."""
        reader = self.reader
        char = reader.get()
        if char == _EOF:
            return False
        braces = char == "{"
        name = ""
        if not braces:
            if not (char in _NAME_CHARS and not char.isdigit()):
                out.append("$")
                reader.unget(char)
                return True
            name = char
        while True:
            char = reader.get()
            if braces and char == "}":
                break
            if char == _EOF or char not in _NAME_CHARS:
                if not braces:
                    reader.unget(char)
                    break
                self.fail("invalid environment variable")
                return False
            if len(name) == 1022:
                self.fail("environment variable is too long")
                return False
            name += char
        out.append(self.env.get(name, ""))
        return True

    def _home(self, out: list[str]) -> bool:
        """`~` (HOME) or `~user` (that user's home); no such user is no word at all."""
        reader = self.reader
        user = ""
        while True:
            char = reader.get()
            if char == _EOF or char in "/ \t\n\"'":
                reader.unget(char)
                break
            if len(user) == 1022:
                self.fail("user name is too long")
                return False
            user += char
        home: str | None
        if not user:
            home = self.env.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir
        else:
            try:
                home = pwd.getpwnam(user).pw_dir
            except (KeyError, ValueError):  # no such user; a NUL in the name
                home = None
        if home is None:
            return False
        out.append(home)
        return True


def _is_name(name: str) -> bool:
    """A variable's name: letters, digits and `_`, not starting with a digit."""
    return bool(name) and not name[0].isdigit() and all(c in _NAME_CHARS for c in name)


class _Parser:
    """tmux's grammar (cmd-parse.y) by recursive descent: the same tokens accepted, the
    same one refused."""

    def __init__(self, text: str, env: Mapping[str, str], assign: Assign | None,
                 condition: Condition, *, shortcut: bool = True) -> None:
        self.shortcut = shortcut
        """Whether plain lines skip the grammar (`plain_line`); off, to test it."""
        self.variables: ChainMap[str, str] = ChainMap({}, env)  # type: ignore[arg-type]
        """`env` under the text's own assignments (a copy of it would cost every line)."""
        self.lexer = _Lexer(text, self.variables)
        self.assign, self.condition_true = assign, condition
        self._ahead: Token | None = None
        self.scopes: list[bool] = []
        """Whether each open `%if` branch is taken; tmux makes an assignment when the
        innermost is, whatever the ones around it."""

    def peek(self) -> str:
        if self._ahead is None:
            self._ahead = self.lexer.next()
        return self._ahead[0]

    def take(self, *kinds: str) -> str:
        """The next token's text; a syntax error unless it is of one of `kinds`."""
        kind = self.peek()
        assert self._ahead is not None
        text = self._ahead[1]
        if kinds and kind not in kinds:
            self.fail()
        self._ahead = None
        return text

    def fail(self) -> NoReturn:
        message, line = self.lexer.error or ("syntax error", self.lexer.line)
        raise LexError(message, line)

    @property
    def taking(self) -> bool:
        return not self.scopes or self.scopes[-1]

    def lines(self) -> list[Line]:
        commands: list[Line] = []
        while True:
            plain = self.plain_line() if self.shortcut else None
            if plain is not None:
                commands += plain
                continue
            if self.peek() == "END":
                return commands
            commands += self.statement()
            self.take("\n")

    def plain_line(self) -> list[Line] | None:
        """The next line, if it is plain words only (`_SIMPLE`) and ends in a newline,
        read without the grammar: a file's `set -g @x y` and `bind x kill-pane` lines
        cost a config's load most of its time. None (nothing read) for any other line."""
        lexer, reader = self.lexer, self.lexer.reader
        if (self._ahead is not None or reader._backslashes or lexer._condition
                or lexer._ended or not self.taking):
            return None
        text, start = reader.text, reader.position
        end = text.find("\n", start)
        if end < 0 or not _SIMPLE.fullmatch(text, start, end):
            return None
        if lexer._end_of_line:
            reader.line += 1
        lexer._end_of_line = True  # its newline read: the next token counts a line
        reader.position = end + 1
        words = text[start:end].split()
        return [(reader.line, words)] if words else []

    def statements(self, *ends: str) -> list[Line]:
        """One statement or more, each on its line, up to a directive in `ends`."""
        commands: list[Line] = []
        while True:
            commands += self.statement()
            self.take("\n")
            if self.peek() in ends:
                return commands

    def statement(self) -> list[Line]:
        kind = self.peek()
        if kind in ("\n", "}"):
            return []
        if kind == "HIDDEN":
            self.take()
            self._assign(self.take("EQUALS"), hidden=True)
            return []
        if kind == "IF":
            self.take()
            self.scopes.append(self._judged())
            if self.peek() == "\n":
                return self.condition(lines=True)
            return self.commands(self.condition(lines=False))
        return self.commands(self.command())

    def commands(self, first: list[Line]) -> list[Line]:
        """A command or inline condition already read, then `;` and more."""
        commands = first
        while self.peek() == ";":
            self.take()
            kind = self.peek()
            if kind in ("TOKEN", "EQUALS"):
                command = self.command()
                commands = commands + command if command else []
            elif kind == "IF":
                commands = commands + self.command_or_condition()
        return commands

    def command_or_condition(self) -> list[Line]:
        if self.peek() != "IF":
            return self.command()
        self.take()
        self.scopes.append(self._judged())
        return self.condition(lines=False)

    def command(self) -> list[Line]:
        """One command, as a list: empty for an assignment alone or a branch not taken."""
        kind = self.peek()
        text = self.take("TOKEN", "EQUALS")
        if kind == "EQUALS":
            after = self.peek()
            self._assign(text, hidden=False)
            if after != "TOKEN":
                return []
            text = self.take()
        argv: list[str] = [text]
        while True:
            kind = self.peek()
            if kind in ("TOKEN", "EQUALS"):
                argv.append(self.take())
            elif kind == "{":
                self.take()
                argv.append(self.block())
            else:
                break
        return [(self.lexer.line, argv)] if self.taking else []

    def block(self) -> Block:
        commands: list[Line] = []
        while True:
            commands += self.statement()
            if self.take("\n", "}") == "}":
                return Block([argv for _, argv in commands], [line for line, _ in commands])

    def _judged(self) -> bool:
        """The format after `%if` or `%elif`, judged."""
        return self.condition_true(self.take("FORMAT", "TOKEN"))

    def condition(self, *, lines: bool) -> list[Line]:
        """From an `%if` read (its branch opened) to `%endif`: the commands of the
        branch taken. On lines of their own, each branch is the lines after it; else
        (`lines` False) the commands after it within the line."""
        def branch(*ends: str) -> list[Line]:
            if not lines:
                return self.commands(self.command_or_condition())
            self.take("\n")
            return self.statements(*ends)

        taken = self.scopes[-1]
        commands = branch("ELIF", "ELSE", "ENDIF")
        chosen = commands if taken else None
        while self.peek() == "ELIF":
            self.take()
            self.scopes[-1] = taken = self._judged()
            commands = branch("ELIF", "ELSE", "ENDIF")
            chosen = commands if chosen is None and taken else chosen
        if self.peek() == "ELSE":
            self.take()
            self.scopes[-1] = not self.scopes[-1]
            commands = branch("ENDIF")
            chosen = commands if chosen is None else chosen
        self.take("ENDIF")
        self.scopes.pop()
        return chosen or []

    def _assign(self, text: str, *, hidden: bool) -> None:
        if not self.taking:
            return
        name, _, value = text.partition("=")
        self.variables[name] = value
        if self.assign is not None:
            self.assign(name, value, hidden)
