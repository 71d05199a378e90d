"""Per-shell knowledge: how to capture a shell's state, read it back, and replay it.

One `ShellLanguage` per kind. The capture script runs after the startup files and writes
NUL-separated fields to a private channel (never stdout, which banners share):

    NONCE:begin \\0 CWD \\0 NONCE:env \\0 NAME=VALUE \\0 ... NONCE:aliases \\0 ...
    NONCE:functions \\0 ... NONCE:options \\0 ... NONCE:end \\0

The environment comes from `env -0` run by the shell itself: exactly what a command
started from that shell would inherit, byte for byte, with no shell quoting to undo.

The rendering (`to_script`) is a file in the snapshot's own language, sourced by a
non-interactive shell that read no startup files. It does not `cd`: the exec runner
chooses the working directory (the snapshot's `cwd`, or the pane's current one) when it
starts the command, which keeps the script valid wherever it is run.
"""

from __future__ import annotations

import os
import re
import shlex
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from termhost.snapshot.errors import SnapshotError, UnsupportedShell

if TYPE_CHECKING:
    from termhost.snapshot.model import Snapshot

__all__ = [
    "GUARD_VARIABLE",
    "ShellLanguage",
    "exec_argv",
    "exec_script",
    "kind_of",
    "language",
    "read_report",
    "to_script",
]

GUARD_VARIABLE = "TERMHOST_SNAPSHOT"
"""Set to 1 while capturing: rc files test it to skip what needs a terminal or a person."""

def _words(text: str) -> frozenset[str]:
    """A set of names written as text, the way the shells' manuals list them."""
    return frozenset(text.split())


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

_PLAIN = re.compile(r"[A-Za-z0-9_.,:@%+/-]+\Z")
_FUNCTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:+@-]*\Z")
"""A function name that is a plain word in a command line, so a stub can call it."""

_COMMON_EXCLUDED = frozenset(
    {"_", "PWD", "OLDPWD", "SHLVL", "COLUMNS", "LINES", "TERM", GUARD_VARIABLE})
"""Per-process state every shell maintains itself, our own guard variable, and TERM: the
terminal is whichever one the snapshot is used in (`termhost exec` passes its own on)."""

_KINDS = {"bash": "bash", "zsh": "zsh", "sh": "sh", "dash": "sh", "ash": "sh", "fish": "fish"}
"""Shell basenames we capture. ksh and mksh print `set -o` and `alias` differently: unsupported."""


def kind_of(shell: str) -> str:
    """The shell language of `shell` (a path or name), by its basename.

    A leading "-" (a login shell's argv[0]) is ignored.
    """
    kind = _KINDS.get(os.path.basename(shell).lstrip("-"))
    if kind is None:
        raise UnsupportedShell(f"snapshots are not supported for {shell}")
    return kind


class ShellLanguage(ABC):
    """Everything that differs between shells, for one kind."""

    kind: str
    excluded: frozenset[str] = frozenset()
    """Exported variables not captured: read-only or per-process in this shell."""

    @abstractmethod
    def capture_argv(self, shell: str, script: str) -> list[str]:
        """Run `script` after the startup files an interactive login shell reads."""

    @abstractmethod
    def capture_script(self, channel: str, nonce: str, env_program: str) -> str:
        """The script writing the report to the FIFO `channel`, ending with NONCE:end."""

    @abstractmethod
    def quote(self, value: str) -> str:
        """`value` as one word of this language, exact to the byte."""

    @abstractmethod
    def render(self, snapshot: Snapshot, functions: Iterable[str]) -> Iterable[str]:
        """The lines of the sourceable script after the exports, with `functions` (the
        definitions, or stubs standing in for them) in their place."""

    @abstractmethod
    def export(self, name: str, value: str) -> str:
        """One line exporting `name`."""

    @abstractmethod
    def run_argv(self, shell: str, body: str) -> list[str]:
        """Run `body` in a non-interactive shell that read no startup files."""

    @abstractmethod
    def source_line(self, path: str) -> str:
        """The line that sources the file at `path`."""

    def exec_body(self, script_path: str) -> str:
        """Source `script_path`, then run the command string given as the last argument.

        `eval` parses the command only once the script ran, so aliases it defined apply
        (zsh and fish parse a whole `-c` string before running any of it), and `set --`
        inside the evaluated text leaves the command no arguments, as a `-c` string has.
        The command travels as an argument, never spliced into the body, so the body is
        fixed per snapshot: the sh front (termhost.snapshot.index) stores it once.
        """
        return f'{self.source_line(script_path)}\neval "set --\n$1"'

    def exec_tail(self, shell: str) -> list[str]:
        """Arguments between the body and the command: $0, the shell's name."""
        return [shell]

    def stub(self, name: str, path: str) -> str | None:
        """A definition of function `name` that loads the real one from `path` when first
        called and runs it; None where this shell's functions are defined at once."""
        return None

    def deferred(self, source: str) -> str:
        """The file a stub loads: the function's definition, as the shell printed it."""
        return f"{source}\n"

    def validate_body(self, path: str) -> str:
        """Source `path` so that any failing line fails the whole run (`set -e`)."""
        return f"set -e\n{self.source_line(path)}"

    def keeps(self, name: str) -> bool:
        """Whether an exported variable is restored: a valid name, not shell-managed."""
        return (
            _NAME.match(name) is not None
            and name not in _COMMON_EXCLUDED
            and name not in self.excluded
        )

    def parse(
        self, sections: Mapping[str, list[str]]
    ) -> tuple[dict[str, str], dict[str, str], list[str]]:
        """Aliases, functions and options from the report's sections (NUL-separated)."""
        return (
            _pairs(sections.get("aliases", [])),
            _pairs(sections.get("functions", [])),
            sections.get("options", []),
        )


def _pairs(fields: list[str]) -> dict[str, str]:
    if len(fields) % 2:
        raise SnapshotError("the shell's report is malformed: an odd number of fields")
    return dict(zip(fields[::2], fields[1::2], strict=True))


def _ansi_c(value: str) -> str:
    """`$'...'` quoting for bash and zsh: printable text as is, bytes as \\xHH.

    Lone surrogates are bytes that were not UTF-8 (surrogateescape); `\\xHH` makes those
    exact bytes in both shells, whatever the locale. Every escape has two hex digits, so
    a following hex digit is never swallowed.
    """
    out = ["$'"]
    for char in value:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif char in "'\\":
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        else:
            out.append(char)
    out.append("'")
    return "".join(out)


def _posix_quote(value: str) -> str:
    """POSIX single quotes (dash has no `$'...'`): every byte but `'` stands for itself."""
    return "'" + value.replace("'", "'\\''") + "'"


class _PosixFamily(ShellLanguage):
    """bash, zsh and sh share `export`, `alias` and `.`."""

    interactive_only: frozenset[str] = frozenset()
    """Options that only an interactive shell has, left out of a snapshot."""

    def export(self, name: str, value: str) -> str:
        return f"export {name}={self.quote(value)}"

    def source_line(self, path: str) -> str:
        return f". {self.quote(path)}"

    def aliases(self, snapshot: Snapshot) -> Iterable[str]:
        """The `alias` lines, after `unalias -a` and the functions.

        Functions come before the aliases in the script: bash and zsh expand aliases while
        parsing a function definition, and a body already expanded at capture time would
        be expanded twice.
        """
        for name, value in snapshot.aliases.items():
            yield f"alias {self.name(name)}={self.quote(value)}"

    def name(self, name: str) -> str:
        """An alias name, quoted only when it needs to be."""
        return name if _PLAIN.match(name) else self.quote(name)


class _AnsiCFamily(_PosixFamily):
    """bash and zsh: `$'...'` quoting, and functions as the shell prints them."""

    def quote(self, value: str) -> str:
        return _ansi_c(value)

    def parse(
        self, sections: Mapping[str, list[str]]
    ) -> tuple[dict[str, str], dict[str, str], list[str]]:
        aliases, functions, options = super().parse(sections)
        functions = {name: source.rstrip("\n") for name, source in functions.items()}
        options = [o for o in options if o not in self.interactive_only]
        return aliases, functions, options


class Bash(_AnsiCFamily):
    """bash, captured interactive so that Debian's `.bashrc` does not return early."""

    kind = "bash"
    excluded = _words(
        """
        BASHOPTS SHELLOPTS EUID UID PPID RANDOM SRANDOM SECONDS LINENO FUNCNAME PIPESTATUS
        GROUPS BASHPID EPOCHREALTIME EPOCHSECONDS DIRSTACK HOSTTYPE MACHTYPE OSTYPE
        """
    )
    set_o = _words(
        """
        allexport braceexpand emacs errexit errtrace functrace hashall histexpand history
        ignoreeof interactive-comments keyword monitor noclobber noexec noglob nolog notify
        nounset onecmd physical pipefail posix privileged verbose vi xtrace
        """
    )
    """Names `set -o` takes; every other option is a `shopt`."""
    interactive_only = _words(
        """
        emacs vi history histexpand monitor noexec onecmd privileged login_shell
        restricted_shell
        """
    )
    """Options of the interactive capture not restored: line editing, history and job
    control mean nothing in a `-c` shell (histexpand would even eat `!` in commands),
    and login_shell/restricted_shell are read-only."""

    def keeps(self, name: str) -> bool:
        # BASH_* holds BASH_FUNC_f%% (exported functions) and read-only BASH_VERSINFO.
        return super().keeps(name) and not name.startswith(("BASH_", "HIST"))

    def capture_argv(self, shell: str, script: str) -> list[str]:
        return [shell, "-l", "-i", "-c", script]

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
  printf '%s\\0' {nonce}:begin "$PWD" {nonce}:env
  {env_program} -0
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
  printf '%s\\0' {nonce}:end
}} >{self.quote(channel)}
"""

    def render(self, snapshot: Snapshot, functions: Iterable[str]) -> Iterable[str]:
        for option in snapshot.options:
            yield f"set -o {option}" if option in self.set_o else f"shopt -s {option}"
        yield "unalias -a"
        yield from functions
        yield from self.aliases(snapshot)

    def stub(self, name: str, path: str) -> str | None:
        # Parsing a definition costs bash about 50 us: bash-completion's hundred
        # functions would take longer than the rest of `termhost exec` together. A stub
        # is a fraction of that, and loading one function when called costs the same.
        if _FUNCTION_NAME.match(name) is None:
            return None
        return f'{name} () {{ . {self.quote(path)} && {name} "$@"; }}'

    def deferred(self, source: str) -> str:
        # The body was alias-expanded when the rc file defined it; by the time a stub
        # loads it, the aliases are defined again and would be expanded twice. exec
        # runs with expand_aliases on (run_argv), so that is the state restored.
        # `builtin`: an rc file may well define a function of its own called shopt.
        return f"builtin shopt -u expand_aliases\n{source}\nbuiltin shopt -s expand_aliases\n"

    def run_argv(self, shell: str, body: str) -> list[str]:
        # Aliases expand in a non-interactive bash only with expand_aliases, and bash
        # expands them while reading a line: the option must be on before the line that
        # uses them is read, so each step is a line of its own.
        return [shell, "--norc", "--noprofile", "-c", f"shopt -s expand_aliases\n{body}"]


class Zsh(_AnsiCFamily):
    """zsh: `-l -i` reads .zshenv, .zprofile, .zshrc and .zlogin, each once."""

    kind = "zsh"
    excluded = _words(
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

    def keeps(self, name: str) -> bool:
        return super().keeps(name) and not name.startswith("ZSH_")

    def capture_argv(self, shell: str, script: str) -> list[str]:
        return [shell, "-l", "-i", "-c", script]

    def capture_script(self, channel: str, nonce: str, env_program: str) -> str:
        # `setopt` with no arguments lists the options that differ from zsh's defaults,
        # naming a default turned off with "no" (nobeep): replaying it needs no list of
        # defaults. Global and suffix aliases live in their own tables; they are keyed
        # "-g NAME" and "-s NAME", the flags that define them again.
        return f"""\
{{
  printf '%s\\0' {nonce}:begin "$PWD" {nonce}:env
  {env_program} -0
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

    def run_argv(self, shell: str, body: str) -> list[str]:
        return [shell, "-f", "-c", body]


class Sh(_PosixFamily):
    """POSIX sh (dash, ash): aliases and options only.

    dash cannot list its functions (it has neither `typeset -f` nor `declare -f`), so a
    sh snapshot has none. Its `alias` prints `name='value'` in POSIX quotes, parsed here;
    interactive dash reads `$ENV` itself, which is why the capture uses `-i`.
    """

    kind = "sh"
    interactive_only = frozenset(
        {"interactive", "monitor", "stdin", "noexec", "emacs", "vi", "privileged"}
    )

    def capture_argv(self, shell: str, script: str) -> list[str]:
        return [shell, "-l", "-i", "-c", script]

    def capture_script(self, channel: str, nonce: str, env_program: str) -> str:
        return f"""\
{{
  printf '%s\\0' {nonce}:begin "$PWD" {nonce}:env
  {env_program} -0
  printf '%s\\0' {nonce}:aliases
  alias
  printf '\\0%s\\0' {nonce}:options
  set -o
  printf '\\0%s\\0' {nonce}:end
}} >{self.quote(channel)}
"""

    def quote(self, value: str) -> str:
        return _posix_quote(value)

    def parse(
        self, sections: Mapping[str, list[str]]
    ) -> tuple[dict[str, str], dict[str, str], list[str]]:
        aliases: dict[str, str] = {}
        for word in _posix_words("".join(sections.get("aliases", []))):
            name, _, value = word.partition("=")
            aliases[name] = value
        options = []
        for line in "".join(sections.get("options", [])).splitlines():
            fields = line.split()
            if len(fields) == 2 and fields[1] == "on" and fields[0] not in self.interactive_only:
                options.append(fields[0])
        return aliases, {}, options

    def render(self, snapshot: Snapshot, functions: Iterable[str]) -> Iterable[str]:
        for option in snapshot.options:
            yield f"set -o {option}"
        yield "unalias -a"
        yield from self.aliases(snapshot)

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


class Fish(ShellLanguage):
    """fish: variables are lists, aliases are functions, and there are no shell options.

    `set -L` output is not re-sourceable, so values are written with our own escapes. An
    alias made by `alias` is a function whose source `functions` prints, so fish
    snapshots keep aliases among the functions and `aliases` stays empty. Functions
    shipped with fish (under $__fish_data_dir) are left out: every fish autoloads them;
    so are names `functions --all` lists with no definition (`--details` says n/a).
    """

    kind = "fish"
    excluded = frozenset({"FISH_VERSION", "fish_pid", "hostname", "status", "umask", "version"})

    def capture_argv(self, shell: str, script: str) -> list[str]:
        return [shell, "-l", "-i", "-c", script]

    def capture_script(self, channel: str, nonce: str, env_program: str) -> str:
        return f"""\
begin
  printf '%s\\0' {nonce}:begin "$PWD" {nonce}:env
  {env_program} -0
  printf '%s\\0' {nonce}:aliases {nonce}:functions
  for __th_f in (functions --all --names)
    set -l __th_p (functions --details -- $__th_f)
    string match -q -- "$__fish_data_dir/*" $__th_p; or test "$__th_p" = n/a; and continue
    printf '%s\\0' $__th_f; functions -- $__th_f; printf '\\0'
  end
  printf '%s\\0' {nonce}:options {nonce}:end
end >{self.quote(channel)}
"""

    def quote(self, value: str) -> str:
        """Single-quoted runs for text, bare escapes between them for the rest.

        fish's `\\XHH` is a raw byte (for bytes that were not UTF-8) and `\\xHH` an ASCII
        character; adjacent quoted and unquoted parts form one word.
        """
        out: list[str] = []
        run: list[str] = []

        def flush() -> None:
            if run:
                out.append("'" + "".join(run) + "'")
                run.clear()

        for char in value:
            code = ord(char)
            if 0xDC80 <= code <= 0xDCFF:
                flush()
                out.append(f"\\X{code - 0xDC00:02x}")
            elif char == "\n":
                flush()
                out.append("\\n")
            elif code < 0x20 or code == 0x7F:
                flush()
                out.append(f"\\x{code:02x}")
            elif char in "'\\":
                run.append("\\" + char)
            else:
                run.append(char)
        flush()
        return "".join(out) or "''"

    def export(self, name: str, value: str) -> str:
        return f"set -gx {name} {self.quote(value)}"

    def parse(
        self, sections: Mapping[str, list[str]]
    ) -> tuple[dict[str, str], dict[str, str], list[str]]:
        functions = _pairs(sections.get("functions", []))
        return {}, {name: source.rstrip("\n") for name, source in functions.items()}, []

    def render(self, snapshot: Snapshot, functions: Iterable[str]) -> Iterable[str]:
        yield from functions

    def source_line(self, path: str) -> str:
        return f"source {self.quote(path)}"

    def exec_body(self, script_path: str) -> str:
        # fish's -c takes no $0: the arguments after the body are $argv.
        return f'{self.source_line(script_path)}\neval "set -e argv\n$argv[1]"'

    def exec_tail(self, shell: str) -> list[str]:
        return []

    def validate_body(self, path: str) -> str:
        # fish has no `set -e`: a failing `source` leaves a non-zero status, and that is
        # the status `fish -c` exits with.
        return self.source_line(path)

    def run_argv(self, shell: str, body: str) -> list[str]:
        return [shell, "--no-config", "-c", body]


_LANGUAGES: dict[str, ShellLanguage] = {
    language.kind: language for language in (Bash(), Zsh(), Sh(), Fish())
}


def language(kind: str) -> ShellLanguage:
    """The `ShellLanguage` of a kind ("bash", "zsh", "sh", "fish")."""
    try:
        return _LANGUAGES[kind]
    except KeyError:
        raise UnsupportedShell(f"snapshots are not supported for {kind} shells") from None


def to_script(snapshot: Snapshot) -> str:
    """The snapshot as a script in its own shell's language, to be sourced.

    Order matters: exports, then options (bash's extglob changes how function bodies
    parse), then functions, then aliases. Values that were not UTF-8 are escaped (bash,
    zsh, fish) or, in sh, kept as the raw bytes (lone surrogates here): write the text
    with `os.fsencode`, as `store` and `validate` do.
    """
    return _script(snapshot, snapshot.functions.values())


def exec_script(snapshot: Snapshot, function_path: Callable[[int], str]) -> tuple[str, list[str]]:
    """The script `termhost exec` sources, and the files its function stubs load.

    It is `to_script` but where the shell has stubs (bash), each function is one,
    loading the definition from `function_path(i)` (the i-th file returned) on its first
    call: an exec that calls no function parses none. What differs: `declare -f NAME`
    shows the stub until NAME has run once, and during that first run the call stack
    (FUNCNAME, `caller`) holds the stub's frame under the function's own.
    """
    shell = language(snapshot.kind)
    definitions: list[str] = []
    files: list[str] = []
    for name, source in snapshot.functions.items():
        stub = shell.stub(name, function_path(len(files)))
        if stub is None:
            definitions.append(source)
        else:
            definitions.append(stub)
            files.append(shell.deferred(source))
    return _script(snapshot, definitions), files


def _script(snapshot: Snapshot, functions: Iterable[str]) -> str:
    shell = language(snapshot.kind)
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(snapshot.captured_at))
    lines = [f"# termhost environment snapshot of {snapshot.shell}, captured {when}"]
    lines += [shell.export(name, value) for name, value in sorted(snapshot.env.items())]
    lines += shell.render(snapshot, functions)
    return "\n".join(lines) + "\n"


def exec_argv(kind: str, shell: str, script_path: str) -> list[str]:
    """argv that, with a command string appended, runs it in `shell` (of `kind`:
    Snapshot.kind) after sourcing `script_path`, exiting with its status.

    The shell is non-interactive and reads no startup files: the snapshot is the state.
    The caller chooses cwd and the environment; it should not set BASH_ENV (bash would
    source it first).
    """
    language_ = language(kind)
    return [*language_.run_argv(shell, language_.exec_body(script_path)),
            *language_.exec_tail(shell)]


def read_report(
    kind: str, report: bytes, nonce: str
) -> tuple[str, dict[str, str], dict[str, str], dict[str, str], list[str]]:
    """cwd, env, aliases, functions and options from a capture script's report.

    Fields are NUL-terminated; a field `NONCE:NAME` starts section NAME. The nonce is
    fresh per capture, so no value can pass for a marker.
    """
    fields = [os.fsdecode(field) for field in report.split(b"\0")]
    if fields[:1] != [f"{nonce}:begin"] or fields[-2:] != [f"{nonce}:end", ""]:
        raise SnapshotError("the shell's report is incomplete")
    sections: dict[str, list[str]] = {}
    current = sections.setdefault("cwd", [])
    for field in fields[1:-2]:
        marker, _, name = field.partition(":")
        if marker == nonce:
            current = sections.setdefault(name, [])
        else:
            current.append(field)
    shell = language(kind)
    env = {}
    for entry in sections.get("env", []):
        name, sep, value = entry.partition("=")
        if sep and shell.keeps(name):
            env[name] = value
    aliases, functions, options = shell.parse(sections)
    cwd = sections["cwd"][0] if sections["cwd"] else ""
    return cwd, env, aliases, functions, options
