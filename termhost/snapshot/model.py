"""A captured shell environment, and its JSON form.

Strings hold bytes the way `os.environ` does: decoded as UTF-8 with surrogateescape, so a
value that is not valid UTF-8 (a Latin-1 file name in an exported variable) survives
exactly. JSON cannot carry those lone surrogates (they are not valid UTF-8), so `to_json`
writes every string as readable text, with U+FFFD where a byte could not be decoded, and
puts the exact bytes of those strings, base64-encoded, under `"b64"`:

    {"env": {"LATIN": "caf\\ufffd"}, "b64": {"env": {"LATIN": "Y2Fm6Q=="}}, ...}

A consumer that wants exact values takes `b64` first and the readable text otherwise;
`from_json` does just that. Strings that are valid UTF-8 never appear under `b64`.
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from termhost.snapshot.errors import SnapshotError

__all__ = ["FORMAT_VERSION", "Snapshot"]

FORMAT_VERSION = 1
"""The `version` of the JSON form; bumped when a field changes meaning."""


@dataclass(frozen=True)
class Snapshot:
    """What a shell's startup files built: exports, aliases, functions, options, cwd.

    `kind` is the shell language ("bash", "zsh", "sh", "fish"), which decides how the
    snapshot is rendered and run (see `termhost.snapshot.shells`). `functions` maps a name
    to the shell's own source for it; `options` are the enabled options as the shell
    names them (zsh: as `setopt` prints them, so `nobeep` is a default turned off).
    """

    shell: str
    kind: str
    cwd: str
    env: dict[str, str]
    aliases: dict[str, str]
    functions: dict[str, str]
    options: list[str]
    captured_at: float
    duration_ms: int
    options_off: list[str] = field(default_factory=list)
    """Options the rc files left off that a shell started without them would have on
    (bash: `shopt -u`, `set +o`): what `Parsed.options_off` says."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; non-UTF-8 strings are shown lossily and kept exactly in `b64`."""
        exact: dict[str, Any] = {}
        shown: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "shell": _shown(self.shell, exact, "shell"),
            "kind": self.kind,
            "cwd": _shown(self.cwd, exact, "cwd"),
        }
        for part in ("env", "aliases", "functions"):
            table: dict[str, str] = getattr(self, part)
            raw: dict[str, str] = {}
            shown[part] = {name: _shown(value, raw, name) for name, value in table.items()}
            if raw:
                exact[part] = raw
        shown["options"] = list(self.options)
        shown["options_off"] = list(self.options_off)
        shown["captured_at"] = self.captured_at
        shown["duration_ms"] = self.duration_ms
        shown["b64"] = exact
        return shown

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Snapshot:
        """The inverse of `to_json`; SnapshotError names what is missing or malformed."""
        try:
            if data.get("version", FORMAT_VERSION) != FORMAT_VERSION:
                raise SnapshotError(
                    f"snapshot format version {data['version']} is not supported "
                    f"(this termhost reads version {FORMAT_VERSION}): capture it again"
                )
            exact = data.get("b64", {})
            tables = {
                part: _table(data[part], exact.get(part, {}))
                for part in ("env", "aliases", "functions")
            }
            shell = _exact(data["shell"], exact.get("shell"))
            return cls(
                shell=shell,
                kind=str(data["kind"]),
                cwd=_exact(data["cwd"], exact.get("cwd")),
                env=tables["env"],
                aliases=tables["aliases"],
                functions=tables["functions"],
                options=[str(option) for option in data["options"]],
                captured_at=float(data["captured_at"]),
                duration_ms=int(data["duration_ms"]),
                options_off=[str(option) for option in data.get("options_off", [])],
            )
        except KeyError as missing:
            raise SnapshotError(f"snapshot JSON has no {missing.args[0]!r} field") from None
        except (TypeError, ValueError, AttributeError, binascii.Error) as error:
            raise SnapshotError(f"malformed snapshot JSON: {error}") from None


def _shown(value: str, exact: dict[str, str], key: str) -> str:
    """`value` as valid text; its exact bytes go to `exact[key]` when it is not UTF-8."""
    encoded = os.fsencode(value)
    try:
        return encoded.decode("utf-8")
    except UnicodeDecodeError:
        exact[key] = base64.b64encode(encoded).decode("ascii")
        return encoded.decode("utf-8", "replace")


def _exact(shown: object, b64: object) -> str:
    if b64 is not None:
        return os.fsdecode(base64.b64decode(str(b64), validate=True))
    if not isinstance(shown, str):
        raise TypeError(f"expected a string, got {shown!r}")
    return shown


def _table(shown: Mapping[str, object], exact: Mapping[str, object]) -> dict[str, str]:
    return {str(name): _exact(value, exact.get(name)) for name, value in shown.items()}
