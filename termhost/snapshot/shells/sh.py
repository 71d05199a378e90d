"""POSIX sh (dash, ash): exports, aliases and `set -o` options; it cannot list functions."""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from termhost.snapshot.errors import SnapshotError
from termhost.snapshot.shells.base import Interactive, Parsed, PosixFamily, home_of, posix_quote

if TYPE_CHECKING:
    from termhost.snapshot.model import Snapshot

__all__ = ["Sh"]


class Sh(PosixFamily):
    """POSIX sh (dash, ash): aliases and options only.

    dash cannot list its functions (it has neither `typeset -f` nor `declare -f`), so a
    sh snapshot has none. Its `alias` prints `name='value'` in POSIX quotes, parsed here;
    interactive dash reads `$ENV` itself, which is why the capture uses `-i`.
    """

    kind = "sh"
    interactive_only = frozenset(
        {"interactive", "monitor", "stdin", "noexec", "emacs", "vi", "privileged"}
    )

    def capture_script(self, channel: str, nonce: str, env_program: str) -> str:
        return f"""\
{{
{self.report_opening(nonce, env_program)}
  printf '%s\\0' {nonce}:aliases
  alias
  printf '\\0%s\\0' {nonce}:options
  set -o
  printf '\\0%s\\0' {nonce}:end
}} >{self.quote(channel)}
"""

    def startup_files(self, env: Mapping[str, str]) -> list[str]:
        home = home_of(env)
        files = ["/etc/profile", "/etc/profile.d", os.path.join(home, ".profile")]
        # $ENV names the interactive shell's rc file (dash expands it; a plain path here).
        return [*files, os.path.expanduser(env["ENV"])] if env.get("ENV") else files

    def quote(self, value: str) -> str:
        return posix_quote(value)

    def parse(self, sections: Mapping[str, list[str]]) -> Parsed:
        aliases: dict[str, str] = {}
        for word in _posix_words("".join(sections.get("aliases", []))):
            name, _, value = word.partition("=")
            aliases[name] = value
        options = []
        for line in "".join(sections.get("options", [])).splitlines():
            fields = line.split()
            if len(fields) == 2 and fields[1] == "on" and fields[0] not in self.interactive_only:
                options.append(fields[0])
        return Parsed(aliases, {}, options, [])

    def render(self, snapshot: Snapshot, functions: Iterable[str]) -> Iterable[str]:
        for option in snapshot.options:
            yield f"set -o {option}"
        yield "unalias -a"
        yield from self.aliases(snapshot)

    def interactive_argv(self, shell: str, script_path: str) -> Interactive | None:
        return Interactive([shell, "-i"], {"ENV": script_path})  # an interactive sh's rc

    def run_argv(self, shell: str, body: str) -> list[str]:
        return [shell, "-c", body]


def _posix_words(text: str) -> list[str]:
    """Split `alias` output (`a='x'"'"'y'` per alias, quotes may span lines) into words."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError as error:
        raise SnapshotError(f"cannot read the shell's alias list: {error}") from None
