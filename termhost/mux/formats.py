"""tmux's format language: `#{session_name}`, `#{?cond,a,b}`, `#{==:a,b}`, `#{=10:name}`...

`display-message -p`, `list-sessions -F` and the status bar all expand formats against a
set of variables. This follows tmux 3.3's rules, checked against a real tmux in
tests/mux/test_formats.py:
- an unknown variable is empty; a value is true unless it is empty or "0"; an
  unterminated `#{` ends the expansion;
- `#{?c,a,b}` tests c as a variable name, or as a format when it contains `#{`;
- `##`, `#,` and `#}` are a literal `#`, `,` and `}`;
- modifiers: `==` `!=` `<` `>` `<=` `>=` `||` `&&` (comparisons and logic, 1 or 0),
  `m:` (fnmatch), `l:` (literal), `=N:`/`=-N:` (first/last N characters), `n:` (length),
  `e|OP:` (integer + - * / %), `s/PATTERN/REPLACEMENT/:` (regular expression);
- `#S #I #P #W #T #D #H #h #F` are short for their long names.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping

__all__ = ["SHORT_ALIASES", "expand"]

Variables = Mapping[str, str]

SHORT_ALIASES = {
    "S": "session_name",
    "I": "window_index",
    "P": "pane_index",
    "W": "window_name",
    "T": "pane_title",
    "D": "pane_id",
    "H": "host",
    "h": "host_short",
    "F": "window_flags",
}

_COMPARISONS: dict[str, Callable[[str, str], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
}
_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else 0,
    "%": lambda a, b: a % b if b else 0,
}
_TRUNCATE = re.compile(r"=(-?\d+):")
_SUBSTITUTE = re.compile(r"s/((?:[^/\\]|\\.)*)/((?:[^/\\]|\\.)*)/:")
_MAX_DEPTH = 32


def expand(template: str, variables: Variables, _depth: int = 0) -> str:
    """`template` with every `#{...}` and `#X` replaced from `variables`."""
    out: list[str] = []
    index, length = 0, len(template)
    while index < length:
        char = template[index]
        if char != "#" or index + 1 >= length:
            out.append(char)
            index += 1
            continue
        following = template[index + 1]
        if following == "{":
            end = _closing_brace(template, index + 2)
            if end < 0:
                break  # unterminated: tmux drops the rest
            out.append(_directive(template[index + 2 : end], variables, _depth))
            index = end + 1
        elif following in "#,}":
            out.append(following)
            index += 2
        elif following in SHORT_ALIASES:
            out.append(variables.get(SHORT_ALIASES[following], ""))
            index += 2
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _true(value: str) -> bool:
    return value not in ("", "0")


def _closing_brace(text: str, start: int) -> int:
    """The index of the `}` closing a `#{` whose body starts at `start`, or -1."""
    depth = 1
    index = start
    while index < len(text):
        char = text[index]
        if char == "#" and index + 1 < len(text):
            if text[index + 1] == "{":
                depth += 1
            index += 2
            continue
        if char == "}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return -1


def _split_arguments(body: str) -> list[str]:
    """Split on the commas that are not inside a nested `#{...}` nor escaped as `#,`."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char == "#" and index + 1 < len(body):
            if body[index + 1] == "{":
                depth += 1
            current.append(body[index : index + 2])
            index += 2
            continue
        if char == "}" and depth:
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        index += 1
    parts.append("".join(current))
    return parts


def _value(text: str, variables: Variables, depth: int) -> str:
    """A variable name, or a format when it holds `#{` (tmux's rule for `?` and lookups)."""
    if "#{" in text:
        return expand(text, variables, depth + 1)
    return variables.get(text, "")


def _directive(body: str, variables: Variables, depth: int) -> str:
    """The expansion of one `#{body}`."""
    if depth > _MAX_DEPTH:
        return ""
    if body.startswith("?"):
        parts = _split_arguments(body[1:])
        if len(parts) < 2:
            return ""
        chosen = parts[1] if _true(_value(parts[0], variables, depth)) else (
            parts[2] if len(parts) > 2 else ""
        )
        return expand(chosen, variables, depth + 1)
    if body.startswith("l:"):
        return body[2:]
    for operator, compare in _COMPARISONS.items():
        if body.startswith(operator + ":"):
            left, right = _pair(body[len(operator) + 1 :], variables, depth)
            return "1" if compare(left, right) else "0"
    for operator, logic in (("||", any), ("&&", all)):
        if body.startswith(operator + ":"):
            left, right = _pair(body[3:], variables, depth)
            return "1" if logic((_true(left), _true(right))) else "0"
    if body.startswith("m:"):
        pattern, subject = _pair(body[2:], variables, depth)
        return "1" if fnmatch.fnmatchcase(subject, pattern) else "0"
    if body.startswith("e|") and len(body) > 3 and body[3] == ":":
        operation = _ARITHMETIC.get(body[2])
        left, right = _pair(body[4:], variables, depth)
        try:
            return str(operation(int(left or 0), int(right or 0))) if operation else ""
        except ValueError:
            return ""
    if body.startswith("n:"):
        return str(len(_value(body[2:], variables, depth)))
    truncate = _TRUNCATE.match(body)
    if truncate:
        count = int(truncate.group(1))
        value = _value(body[truncate.end() :], variables, depth)
        return value[:count] if count >= 0 else value[count:]
    substitute = _SUBSTITUTE.match(body)
    if substitute:
        value = _value(body[substitute.end() :], variables, depth)
        try:
            return re.sub(substitute.group(1), substitute.group(2), value)
        except re.error:
            return value
    return _value(body, variables, depth)


def _pair(text: str, variables: Variables, depth: int) -> tuple[str, str]:
    """The two arguments of a comparison, `m:` or `e|`: formats (plain text is literal)."""
    parts = _split_arguments(text)
    left = expand(parts[0], variables, depth + 1)
    right = expand(parts[1], variables, depth + 1) if len(parts) > 1 else ""
    return left, right
