"""Names made visible as tmux makes them: utf8_stravis with VIS_OCTAL | VIS_CSTYLE |
VIS_TAB | VIS_NL, which window_set_name applies to a name given to rename-window, so a
control character or a backslash in a name can never reach a terminal as itself."""

from __future__ import annotations

__all__ = ["stravis"]

_C_STYLE = {"\\": "\\\\", "\n": "\\n", "\t": "\\t", "\a": "\\a", "\b": "\\b",
            "\f": "\\f", "\r": "\\r", "\v": "\\v"}


def stravis(text: str) -> str:
    """`text` with backslashes doubled, the C-style controls as `\\n`, `\\t`...; any
    other control character as three octal digits; printable characters (any script) as
    they are."""
    out: list[str] = []
    for char, after in zip(text, [*text[1:], ""], strict=True):
        if char in _C_STYLE:
            out.append(_C_STYLE[char])
        elif char == "\0":
            out.append("\\000" if after.isdigit() and after < "8" else "\\0")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\{ord(char):03o}")
        else:
            out.append(char)
    return "".join(out)
