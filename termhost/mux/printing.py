"""tmux command lines written back as text: the inverse of lexer.py, as tmux prints
commands (cmd_print, args_escape) in list-keys, show-options and `{ }` blocks.

A `{ }` block is one argument holding commands (`bind x { a ; b }`, `if -F 1 { ... }`):
the lexer gives it as a Block, a string whose text is its commands joined by ` ; `, as a
verb taking a command (if-shell, confirm-before) reads it, and which is printed back in
its braces. Each verb is printed by its full name, each word escaped so that a
configuration file reads it back.
"""

from __future__ import annotations

from collections.abc import Sequence

from termhost.mux.verbs import UsageError, flag_count, flag_values, lookup, parse_flags

__all__ = ["Block", "command_line", "command_list", "escaped"]

_DOUBLE_QUOTED = frozenset(" #';${}%")
"""Characters that make tmux print a word in double quotes."""
_SINGLE_QUOTED = frozenset(' "')
_C_STYLE = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v",
            "\f": "\\f", "\r": "\\r", "\0": "\\0"}


class Block(str):
    """A `{ }` argument: its text is its commands as a verb taking a command reads them;
    `commands` are the commands themselves, `lines` the line of each in the file it was
    read from (where an error in one is said to be)."""

    commands: list[list[str]]
    lines: list[int]

    def __new__(cls, commands: list[list[str]], lines: list[int]) -> Block:
        block = super().__new__(cls, " ; ".join(command_line(argv) for argv in commands))
        block.commands, block.lines = commands, lines
        return block


def command_line(argv: Sequence[str]) -> str:
    """One command as tmux prints it (a key binding's may hold several, `;` words between
    them): each verb by its full name, then its flags as tmux's args_print orders them
    (those without a value together, then each with its value, both in ASCII order),
    then its arguments; each word escaped, a block in its braces."""
    commands: list[list[str]] = [[]]
    for word in argv:
        if word == ";":
            commands.append([])
        else:
            commands[-1].append(word)
    return " \\; ".join(" ".join(_printed(command)) for command in commands)


def _printed(argv: list[str]) -> list[str]:
    verb = lookup(argv[0]) if argv else None
    if verb is None:
        return [_word(word) for word in argv]
    try:
        flags, arguments = parse_flags(verb, argv[1:])
    except UsageError:  # printed as given: a line its verb refuses
        return [verb.name, *(_word(word) for word in argv[1:])]
    template = verb.flags + verb.extra_flags
    valued = sorted(letter for letter in flags
                    if len(letter) == 1 and template[template.find(letter) + 1:][:1] == ":")
    plain = "".join(letter * flag_count(flags, letter) for letter in sorted(flags)
                    if len(letter) == 1 and letter not in valued)
    words = [verb.name] + ([f"-{plain}"] if plain else [])
    for letter in valued:
        for value in flag_values(flags, letter):
            words += [f"-{letter}", _word(value)]
    # An argument starting with `-` is printed with no `--` before it: tmux 3.3a's slip.
    return words + [_word(word) for word in arguments]


def _word(word: str) -> str:
    if isinstance(word, Block):
        return f"{{ {word} }}" if word.commands else "{ }"
    return escaped(word)


def command_list(commands: Sequence[Sequence[str]]) -> str:
    """Several commands as a key binding's are printed: joined by ` \\; `."""
    return " \\; ".join(command_line(argv) for argv in commands)


def escaped(word: str) -> str:
    """`word` as tmux writes one for a configuration file to read back (args_escape):
    list-keys' commands, show-options' string values."""
    if not word:
        return "''"
    quotes = ('"' if not _DOUBLE_QUOTED.isdisjoint(word)
              else "'" if not _SINGLE_QUOTED.isdisjoint(word) else "")
    if len(word) == 1 and word != " " and (quotes or word == "~"):
        return "\\" + word  # a lone special character is escaped, not quoted
    escaped = []
    for char, after in zip(word, [*word[1:], ""], strict=True):
        # In double quotes `$` is escaped where it would expand: before a name (which
        # starts with a letter or `_`) or `{`.
        expands = char == "$" and ((after.isascii() and after.isalpha()) or after in ("_", "{"))
        if char == "\\" or (quotes == '"' and (char == '"' or expands)):
            escaped.append("\\" + char)
        elif char in _C_STYLE:
            escaped.append(_C_STYLE[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\{ord(char):03o}")
        else:
            escaped.append(char)
    text = "".join(escaped)
    if quotes == "'":
        return f"'{text}'"
    tilde = "\\" if text.startswith("~") else ""
    return f'"{tilde}{text}"' if quotes else tilde + text
