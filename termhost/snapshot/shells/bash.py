"""bash: captured as a login, interactive shell; `set -o` and `shopt` options; function
stubs that load each definition when first called."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from termhost.snapshot.shells.base import AnsiCFamily, Interactive, home_of, words

if TYPE_CHECKING:
    from termhost.snapshot.model import Snapshot

__all__ = ["Bash"]


class Bash(AnsiCFamily):
    """bash, captured interactive so that Debian's `.bashrc` does not return early."""

    kind = "bash"
    excluded = words(
        """
        BASHOPTS SHELLOPTS EUID UID PPID RANDOM SRANDOM SECONDS LINENO FUNCNAME PIPESTATUS
        GROUPS BASHPID EPOCHREALTIME EPOCHSECONDS DIRSTACK HOSTTYPE MACHTYPE OSTYPE
        """
    )
    set_o = words(
        """
        allexport braceexpand emacs errexit errtrace functrace hashall histexpand history
        ignoreeof interactive-comments keyword monitor noclobber noexec noglob nolog notify
        nounset onecmd physical pipefail posix privileged verbose vi xtrace
        """
    )
    """Names `set -o` takes; every other option is a `shopt`."""
    interactive_only = words(
        """
        emacs vi history histexpand monitor noexec onecmd privileged login_shell
        restricted_shell
        """
    )
    """Options of the interactive capture not restored: line editing, history and job
    control mean nothing in a `-c` shell (histexpand would even eat `!` in commands),
    and login_shell/restricted_shell are read-only."""
    left_on = words("errexit")
    """Off in the capture, and never turned off by the script: validation sources it
    under `set -e` to catch a failing line, which `set +o errexit` would undo."""

    def startup_files(self, env: Mapping[str, str]) -> list[str]:
        # A login shell reads the first of the three profiles; Debian's profile reads
        # bash.bashrc, its skeleton's .profile the .bashrc, which reads .bash_aliases.
        home = home_of(env)
        return ["/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/bashrc",
                *(os.path.join(home, name) for name in (
                    ".bash_profile", ".bash_login", ".profile", ".bashrc", ".bash_aliases"))]

    def keeps(self, name: str) -> bool:
        # BASH_* holds BASH_FUNC_f%% (exported functions) and read-only BASH_VERSINFO.
        return super().keeps(name) and not name.startswith(("BASH_", "HIST"))

    def capture_script(self, channel: str, nonce: str, env_program: str) -> str:
        # A login shell reads ~/.bash_profile, ~/.bash_login or ~/.profile (the first
        # found) and never ~/.bashrc itself; Debian's ~/.profile sources it. Sourcing it
        # again would start its ssh-agent twice, so it is sourced here only when the
        # login file bash read does not mention it.
        return f"""\
__th_login=
for __th_f in ~/.bash_profile ~/.bash_login ~/.profile; do
  if [ -r "$__th_f" ]; then __th_login=$__th_f; break; fi
done
case ${{__th_login:+$(<"$__th_login")}} in
  *.bashrc*) ;;
  *) if [ -r ~/.bashrc ]; then . ~/.bashrc; fi ;;
esac
unset __th_login __th_f
{{
{self.report_opening(nonce, env_program)}
  printf '%s\\0' {nonce}:aliases
  for __th_n in "${{!BASH_ALIASES[@]}}"; do
    printf '%s\\0' "$__th_n" "${{BASH_ALIASES[$__th_n]}}"
  done
  printf '%s\\0' {nonce}:functions
  while IFS= read -r __th_n; do
    printf '%s\\0' "$__th_n"; declare -f -- "$__th_n"; printf '\\0'
  done < <(compgen -A function)
  printf '%s\\0' {nonce}:options
  for __th_n in $(compgen -A setopt); do
    if [[ -o $__th_n ]]; then printf '%s\\0' "$__th_n"; fi
  done
  for __th_n in $(compgen -A shopt); do
    if shopt -q "$__th_n"; then printf '%s\\0' "$__th_n"; fi
  done
  printf '%s\\0' {nonce}:options_off
  for __th_n in $(compgen -A setopt); do
    if ! [[ -o $__th_n ]]; then printf '%s\\0' "$__th_n"; fi
  done
  for __th_n in $(compgen -A shopt); do
    if ! shopt -q "$__th_n"; then printf '%s\\0' "$__th_n"; fi
  done
  printf '%s\\0' {nonce}:end
}} >{self.quote(channel)}
"""

    def render(self, snapshot: Snapshot, functions: Iterable[str]) -> Iterable[str]:
        # Off first, each kind in one command: options left off that bash -c has on
        # (sourcepath, hashall...) are off again; the rest were off already.
        off_set = [option for option in snapshot.options_off if option in self.set_o]
        off_shopt = [option for option in snapshot.options_off if option not in self.set_o]
        if off_set:
            yield "set " + " ".join(f"+o {option}" for option in off_set)
        if off_shopt:
            yield "shopt -u " + " ".join(off_shopt)
        for option in snapshot.options:
            yield f"set -o {option}" if option in self.set_o else f"shopt -s {option}"
        yield "unalias -a"
        yield from functions
        yield from self.aliases(snapshot)

    def deferred(self, snapshot: Snapshot, name: str, source: str) -> str:
        # The body was alias-expanded when the rc file defined it; by the time a stub
        # loads it, the aliases are defined again and would be expanded twice. exec
        # runs with expand_aliases on (run_argv), so that is the state restored.
        # `builtin`: an rc file may well define a function of its own called shopt.
        # `\name`: the call is read with aliases on again, and must not be one.
        return (f"builtin shopt -u expand_aliases\n{source}\nbuiltin shopt -s expand_aliases\n"
                f'\\{name} "$@"\n')

    def interactive_argv(self, shell: str, script_path: str) -> Interactive | None:
        return Interactive([shell, "--rcfile", script_path, "-i"])

    def run_argv(self, shell: str, body: str) -> list[str]:
        # Aliases expand in a non-interactive bash only with expand_aliases, and bash
        # expands them while reading a line: the option must be on before the line that
        # uses them is read, so each step is a line of its own.
        return [shell, "--norc", "--noprofile", "-c", f"shopt -s expand_aliases\n{body}"]
