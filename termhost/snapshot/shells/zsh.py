"""zsh: regular, global and suffix aliases, `setopt` options, specials left out."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from termhost.snapshot.shells.base import AnsiCFamily, Interactive, home_of, words

if TYPE_CHECKING:
    from termhost.snapshot.model import Snapshot

__all__ = ["Zsh"]


class Zsh(AnsiCFamily):
    """zsh: `-l -i` reads .zshenv, .zprofile, .zshrc and .zlogin, each once."""

    kind = "zsh"
    excluded = words(
        """
        ARGC EGID EUID GID UID USERNAME HISTCMD LINENO PPID RANDOM SECONDS TTYIDLE ERRNO status
        pipestatus signals HISTFILE HISTSIZE SAVEHIST
        """
    )
    """Read-only or electric specials: restoring UID or EUID tries to change the user."""
    interactive_only = frozenset(
        prefix + name
        for name in (
            "interactive",
            "login",
            "shinstdin",
            "privileged",
            "restricted",
            "singlecommand",
            "zle",
            "monitor",
            "rcs",
            "globalrcs",
        )
        for prefix in ("", "no")
    )
    """Options that describe how the capture shell was started, not what the rc set
    (in either spelling: `setopt` prints a default turned off as "noNAME")."""

    def startup_files(self, env: Mapping[str, str]) -> list[str]:
        # Debian's system files are in /etc/zsh, others' in /etc; the user's in $ZDOTDIR.
        home = env.get("ZDOTDIR") or home_of(env)
        names = ("zshenv", "zprofile", "zshrc", "zlogin")
        return [*(f"/etc/zsh/{name}" for name in names), *(f"/etc/{name}" for name in names),
                *(os.path.join(home, f".{name}") for name in names)]

    def keeps(self, name: str) -> bool:
        return super().keeps(name) and not name.startswith("ZSH_")

    def capture_script(self, channel: str, nonce: str, env_program: str) -> str:
        # `setopt` with no arguments lists the options that differ from zsh's defaults,
        # naming a default turned off with "no" (nobeep): replaying it needs no list of
        # defaults. Global and suffix aliases live in their own tables; they are keyed
        # "-g NAME" and "-s NAME", the flags that define them again.
        return f"""\
{{
{self.report_opening(nonce, env_program)}
  printf '%s\\0' {nonce}:aliases
  for __th_k __th_v in "${{(@kv)aliases}}"; do printf '%s\\0' "$__th_k" "$__th_v"; done
  for __th_k __th_v in "${{(@kv)galiases}}"; do printf '%s\\0' "-g $__th_k" "$__th_v"; done
  for __th_k __th_v in "${{(@kv)saliases}}"; do printf '%s\\0' "-s $__th_k" "$__th_v"; done
  printf '%s\\0' {nonce}:functions
  for __th_k in "${{(@k)functions}}"; do
    printf '%s\\0' "$__th_k"; functions -- "$__th_k"; printf '\\0'
  done
  printf '%s\\0' {nonce}:options
  for __th_k in ${{(f)"$(setopt)"}}; do printf '%s\\0' "$__th_k"; done
  printf '%s\\0' {nonce}:end
}} >{self.quote(channel)}
"""

    def render(self, snapshot: Snapshot, functions: Iterable[str]) -> Iterable[str]:
        if snapshot.options:
            yield "setopt " + " ".join(snapshot.options)
        # `unalias -m '*'` empties the regular and global tables, `-as` the suffix one.
        yield "unalias -m '*'; unalias -as"
        yield from functions
        for key, value in snapshot.aliases.items():
            flag, _, name = key.partition(" ") if key[:3] in ("-g ", "-s ") else ("", "", key)
            flags = f"{flag} " if flag else ""
            yield f"alias {flags}-- {self.name(name)}={self.quote(value)}"

    def deferred(self, snapshot: Snapshot, name: str, source: str) -> str:
        # As bash's: no alias expanded a second time while the definition is read (zsh
        # reads a sourced file a command at a time), then aliases as the snapshot has them.
        restore = "unsetopt" if "noaliases" in snapshot.options else "setopt"
        return (f"builtin unsetopt aliases\n{source}\nbuiltin {restore} aliases\n"
                f'\\{name} "$@"\n')

    def interactive_argv(self, shell: str, script_path: str) -> Interactive | None:
        """zsh has no --rcfile: ZDOTDIR names a directory whose .zshrc sources the script
        (which sets ZDOTDIR back if the session had one), and -d skips the global rc files
        but /etc/zshenv, as the snapshot holds what they did."""
        directory = f"{script_path}.zdotdir"
        rc = f"unset ZDOTDIR\n{self.source_line(script_path)}\n"
        return Interactive([shell, "-d", "-i"], {"ZDOTDIR": directory},
                           {f"{directory}/.zshrc": rc})

    def run_argv(self, shell: str, body: str) -> list[str]:
        return [shell, "-f", "-c", body]
