"""fish: `set -gx` exports, functions (its aliases are functions), no options."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from termhost.snapshot.shells.base import Interactive, Parsed, ShellLanguage, home_of, pairs

if TYPE_CHECKING:
    from termhost.snapshot.model import Snapshot

__all__ = ["Fish"]


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

    def capture_script(self, channel: str, nonce: str, env_program: str) -> str:
        return f"""\
begin
{self.report_opening(nonce, env_program)}
  printf '%s\\0' {nonce}:aliases {nonce}:functions
  for __th_f in (functions --all --names)
    set -l __th_p (functions --details -- $__th_f)
    string match -q -- "$__fish_data_dir/*" $__th_p; or test "$__th_p" = n/a; and continue
    printf '%s\\0' $__th_f; functions -- $__th_f; printf '\\0'
  end
  printf '%s\\0' {nonce}:options {nonce}:end
end >{self.quote(channel)}
"""

    def startup_files(self, env: Mapping[str, str]) -> list[str]:
        # fish_variables holds the universal variables, which a capture sees too.
        config = os.path.join(env.get("XDG_CONFIG_HOME") or
                              os.path.join(home_of(env), ".config"), "fish")
        return ["/etc/fish/config.fish", "/etc/fish/conf.d",
                *(os.path.join(config, name) for name in
                  ("config.fish", "conf.d", "fish_variables"))]

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

    def parse(self, sections: Mapping[str, list[str]]) -> Parsed:
        functions = pairs(sections.get("functions", []))
        return Parsed({}, {name: source.rstrip("\n") for name, source in functions.items()},
                      [], [])

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

    def interactive_argv(self, shell: str, script_path: str) -> Interactive | None:
        return Interactive([shell, "--no-config", "--init-command",
                            self.source_line(script_path)])

    def run_argv(self, shell: str, body: str) -> list[str]:
        return [shell, "--no-config", "-c", body]
