"""tmux 3.3a's command table: every verb's name, aliases, getopt template, argument bounds
and usage, declared once, as tmux's cmd_entry is; and termhost's own verbs beside them.

Kept apart from the implementations (commands/) and plain data, importing nothing (not
even typing or `from __future__`, whose imports cost more than the table itself), because
the thin client reads it to start a server: it recognises a verb, parses its flags and
knows whether it starts a server without importing the server's side. `parse_flags`
splits and refuses a command line as tmux's args_parse does, in its words;
tests/mux/test_command_table.py holds both against a live tmux.
"""

TYPE_CHECKING = False  # mypy reads the name; the import would cost the thin path
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["VERBS", "UsageError", "Verb", "flag_count", "lookup", "parse_flags"]


class UsageError(ValueError):
    """A command line its verb refuses: one line, in tmux's words where tmux refuses it too."""


class Verb:
    """One command, as tmux's cmd_entry: a plain class with slots (a NamedTuple would
    import typing).

    - `name`, and `aliases`: tmux's alias first (the one list-commands shows), then
      termhost's own (`a`).
    - `flags`: tmux's getopt template, its letters, `x:` taking a value (`l::` too,
      refresh-client's); `extra_flags`, those termhost takes beyond tmux 3.3a's (run-shell
      -c, as tmux 3.4's).
    - `min_args`, `max_args`: the arguments after the flags, at least and at most (-1: no
      limit), as tmux's.
    - `usage`: as tmux's list-commands prints it, tmux's slips included (split-window's -e).
    - `starts_server`: run with no server, it starts one (new-session, attach-session,
      start-server, list-keys, list-commands), as tmux's CMD_STARTSERVER; any other verb
      says no server is running.
    - `may_leave_empty`: a server it started may be left with no session, and then ends
      (tmux's exit-empty after start-server, list-keys, list-commands, a failed
      attach-session).
    - `own`: termhost's own verb, one tmux has not (snapshots, recording).
    - `target_may_fail`: a -t that names nothing is no error: the verb runs with no target
      (tmux's CMD_FIND_CANFAIL: display-message expands for the server alone).
    - `read_only`: a read-only client (server-access -r) may run it, as tmux's
      CMD_READONLY: a command line holding any other verb is refused (`client is
      read-only`).
    """

    __slots__ = ("aliases", "extra_flags", "flags", "max_args", "may_leave_empty", "min_args",
                 "name", "own", "read_only", "starts_server", "target_may_fail", "usage")

    def __init__(self, name: str, aliases: "tuple[str, ...]", flags: str, min_args: int,
                 max_args: int, usage: str, extra_flags: str = "", *,
                 starts_server: bool = False, may_leave_empty: bool = False, own: bool = False,
                 target_may_fail: bool = False, read_only: bool = False) -> None:
        self.name, self.aliases, self.flags, self.extra_flags = name, aliases, flags, extra_flags
        self.min_args, self.max_args, self.usage = min_args, max_args, usage
        self.starts_server, self.may_leave_empty, self.own = starts_server, may_leave_empty, own
        self.target_may_fail, self.read_only = target_may_fail, read_only

    def __repr__(self) -> str:
        return f"Verb({self.name!r})"


VERBS = {  # in tmux's order (its cmd_table), which list-commands keeps
    verb.name: verb
    for verb in (
        Verb("attach-session", ("attach", "a"), "c:dEf:rt:x", 0, 0,
             "[-dErx] [-c working-directory] [-f flags] [-t target-session]",
             starts_server=True, may_leave_empty=True, read_only=True),
        Verb("bind-key", ("bind",), "nrN:T:", 1, -1,
             "[-nr] [-T key-table] [-N note] key [command [arguments]]"),
        Verb("break-pane", ("breakp",), "abdPF:n:s:t:", 0, 0,
             "[-abdP] [-F format] [-n window-name] [-s src-pane] [-t dst-window]"),
        Verb("capture-pane", ("capturep",), "ab:CeE:JNpPqS:t:", 0, 0,
             "[-aCeJNpPq] [-b buffer-name] [-E end-line] [-S start-line] [-t target-pane]"),
        Verb("choose-buffer", (), "F:f:K:NO:rt:Z", 0, 1,
             "[-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] "
             "[template]"),
        Verb("choose-client", (), "F:f:K:NO:rt:Z", 0, 1,
             "[-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] "
             "[template]"),
        Verb("choose-tree", (), "F:f:GK:NO:rst:wZ", 0, 1,
             "[-GNrswZ] [-F format] [-f filter] [-K key-format] [-O sort-order] [-t target-pane] "
             "[template]"),
        Verb("clear-history", ("clearhist",), "t:", 0, 0, "[-t target-pane]"),
        Verb("clear-prompt-history", ("clearphist",), "T:", 0, 0, "[-T type]"),
        Verb("clock-mode", (), "t:", 0, 0, "[-t target-pane]"),
        Verb("command-prompt", (), "1bFkiI:Np:t:T:", 0, 1,
             "[-1bFkiN] [-I inputs] [-p prompts] [-t target-client] [-T type] [template]"),
        Verb("confirm-before", ("confirm",), "bp:t:", 1, 1,
             "[-b] [-p prompt] [-t target-client] command"),
        Verb("copy-mode", (), "eHMs:t:uq", 0, 0, "[-eHMuq] [-s src-pane] [-t target-pane]"),
        Verb("customize-mode", (), "F:f:Nt:Z", 0, 0,
             "[-NZ] [-F format] [-f filter] [-t target-pane]"),
        Verb("delete-buffer", ("deleteb",), "b:", 0, 0, "[-b buffer-name]"),
        Verb("detach-client", ("detach",), "aE:s:t:P", 0, 0,
             "[-aP] [-E shell-command] [-s target-session] [-t target-client]",
             read_only=True),
        Verb("display-menu", ("menu",), "c:t:OT:x:y:", 1, -1,
             "[-O] [-c target-client] [-t target-pane] [-T title] [-x position] "
             "[-y position] name key command ..."),
        Verb("display-message", ("display",), "ac:d:INpt:F:v", 0, 1,
             "[-aINpv] [-c target-client] [-d delay] [-F format] [-t target-pane] [message]",
             target_may_fail=True),
        Verb("display-popup", ("popup",), "Bb:Cc:d:e:Eh:s:S:t:T:w:x:y:", 0, -1,
             "[-BCE] [-b border-lines] [-c target-client] [-d start-directory] [-e environment] "
             "[-h height] [-s style] [-S border-style] [-t target-pane][-T title] [-w width] "
             "[-x position] [-y position] [shell-command]"),
        Verb("display-panes", ("displayp",), "bd:Nt:", 0, 1,
             "[-bN] [-d duration] [-t target-client] [template]"),
        Verb("find-window", ("findw",), "CiNrt:TZ", 1, 1,
             "[-CiNrTZ] [-t target-pane] match-string"),
        Verb("has-session", ("has",), "t:", 0, 0, "[-t target-session]"),
        Verb("if-shell", ("if",), "bFt:", 2, 3,
             "[-bF] [-t target-pane] shell-command command [command]"),
        Verb("join-pane", ("joinp",), "bdfhvp:l:s:t:", 0, 0,
             "[-bdfhv] [-l size] [-s src-pane] [-t dst-pane]"),
        Verb("kill-pane", ("killp",), "at:", 0, 0, "[-a] [-t target-pane]"),
        Verb("kill-server", (), "", 0, 0, ""),
        Verb("kill-session", (), "aCt:", 0, 0, "[-aC] [-t target-session]"),
        Verb("kill-window", ("killw",), "at:", 0, 0, "[-a] [-t target-window]"),
        Verb("last-pane", ("lastp",), "det:Z", 0, 0, "[-deZ] [-t target-window]"),
        Verb("last-window", ("last",), "t:", 0, 0, "[-t target-session]"),
        Verb("link-window", ("linkw",), "abdks:t:", 0, 0,
             "[-abdk] [-s src-window] [-t dst-window]"),
        Verb("list-buffers", ("lsb",), "F:f:", 0, 0, "[-F format] [-f filter]"),
        Verb("list-clients", ("lsc",), "F:t:", 0, 0, "[-F format] [-t target-session]",
             read_only=True),
        Verb("list-commands", ("lscm",), "F:", 0, 1, "[-F format] [command]",
             starts_server=True, may_leave_empty=True),
        Verb("list-keys", ("lsk",), "1aNP:T:", 0, 1,
             "[-1aN] [-P prefix-string] [-T key-table] [key]",
             starts_server=True, may_leave_empty=True),
        Verb("list-panes", ("lsp",), "asF:f:t:", 0, 0,
             "[-as] [-F format] [-f filter] [-t target-window]"),
        Verb("list-sessions", ("ls",), "F:f:", 0, 0, "[-F format] [-f filter]"),
        Verb("list-windows", ("lsw",), "F:f:at:", 0, 0,
             "[-a] [-F format] [-f filter] [-t target-session]"),
        Verb("load-buffer", ("loadb",), "b:t:w", 1, 1, "[-b buffer-name] [-t target-client] path"),
        Verb("lock-client", ("lockc",), "t:", 0, 0, "[-t target-client]"),
        Verb("lock-server", ("lock",), "", 0, 0, ""),
        Verb("lock-session", ("locks",), "t:", 0, 0, "[-t target-session]"),
        Verb("move-pane", ("movep",), "bdfhvp:l:s:t:", 0, 0,
             "[-bdfhv] [-l size] [-s src-pane] [-t dst-pane]"),
        Verb("move-window", ("movew",), "abdkrs:t:", 0, 0,
             "[-abdkr] [-s src-window] [-t dst-window]"),
        Verb("new-session", ("new",), "Ac:dDe:EF:f:n:Ps:t:x:Xy:", 0, -1,
             "[-AdDEPX] [-c start-directory] [-e environment] [-F format] [-f flags] "
             "[-n window-name] [-s session-name] [-t target-session] [-x width] [-y height] "
             "[shell-command]",
             starts_server=True),
        Verb("new-window", ("neww",), "abc:de:F:kn:PSt:", 0, -1,
             "[-abdkPS] [-c start-directory] [-e environment] [-F format] [-n window-name] "
             "[-t target-window] [shell-command]"),
        Verb("next-layout", ("nextl",), "t:", 0, 0, "[-t target-window]"),
        Verb("next-window", ("next",), "at:", 0, 0, "[-a] [-t target-session]"),
        Verb("paste-buffer", ("pasteb",), "db:prs:t:", 0, 0,
             "[-dpr] [-s separator] [-b buffer-name] [-t target-pane]"),
        Verb("pipe-pane", ("pipep",), "IOot:", 0, 1, "[-IOo] [-t target-pane] [shell-command]"),
        Verb("previous-layout", ("prevl",), "t:", 0, 0, "[-t target-window]"),
        Verb("previous-window", ("prev",), "at:", 0, 0, "[-a] [-t target-session]"),
        Verb("record-pane", (), "Si:o:P:t:T:v:", 0, 0,
             "[-S] [-i idle-time-limit] [-o path] [-P theme] [-T title] [-v 2|3] [-t target-pane]",
             own=True),
        Verb("refresh-client", ("refresh",), "A:B:cC:Df:F:l::LRSt:U", 0, 1,
             "[-cDlLRSU] [-A pane:state] [-B name:what:format] [-C XxY] [-f flags] "
             "[-t target-client] [adjustment]"),
        Verb("rename-session", ("rename",), "t:", 1, 1, "[-t target-session] new-name"),
        Verb("rename-window", ("renamew",), "t:", 1, 1, "[-t target-window] new-name"),
        Verb("resize-pane", ("resizep",), "DLMRTt:Ux:y:Z", 0, 1,
             "[-DLMRTUZ] [-x width] [-y height] [-t target-pane] [adjustment]"),
        Verb("resize-window", ("resizew",), "aADLRt:Ux:y:", 0, 1,
             "[-aADLRU] [-x width] [-y height] [-t target-window] [adjustment]"),
        Verb("respawn-pane", ("respawnp",), "c:e:kt:", 0, -1,
             "[-k] [-c start-directory] [-e environment] [-t target-pane] [shell-command]"),
        Verb("respawn-window", ("respawnw",), "c:e:kt:", 0, -1,
             "[-k] [-c start-directory] [-e environment] [-t target-window] [shell-command]"),
        Verb("resurrect", (), "art:", 0, 0, "[-ar] [-t target-session]", own=True,
             starts_server=True, may_leave_empty=True),
        Verb("rotate-window", ("rotatew",), "Dt:UZ", 0, 0, "[-DUZ] [-t target-window]"),
        Verb("run-shell", ("run",), "bd:Ct:", 0, 1,
             "[-bC] [-d delay] [-t target-pane] [shell-command]",
             extra_flags="c:"),
        Verb("save-buffer", ("saveb",), "ab:", 1, 1, "[-a] [-b buffer-name] path"),
        Verb("select-layout", ("selectl",), "Enopt:", 0, 1,
             "[-Enop] [-t target-pane] [layout-name]"),
        Verb("select-pane", ("selectp",), "DdegLlMmP:RT:t:UZ", 0, 0,
             "[-DdeLlMmRUZ] [-T title] [-t target-pane]"),
        Verb("select-window", ("selectw",), "lnpTt:", 0, 0, "[-lnpT] [-t target-window]"),
        Verb("send-keys", ("send",), "FHlMN:Rt:X", 0, -1,
             "[-FHlMRX] [-N repeat-count] [-t target-pane] key ..."),
        Verb("send-prefix", (), "2t:", 0, 0, "[-2] [-t target-pane]"),
        Verb("server-access", (), "adlrw", 0, 1, "[-adlrw] [-t target-pane] [user]"),
        Verb("set-buffer", ("setb",), "ab:t:n:w", 0, 1,
             "[-aw] [-b buffer-name] [-n new-buffer-name] [-t target-client] data"),
        Verb("set-environment", ("setenv",), "Fhgrt:u", 1, 2,
             "[-Fhgru] [-t target-session] name [value]"),
        Verb("set-hook", (), "agpRt:uw", 1, 2, "[-agpRuw] [-t target-pane] hook [command]"),
        Verb("set-option", ("set",), "aFgopqst:uUw", 1, 2,
             "[-aFgopqsuUw] [-t target-pane] option [value]"),
        Verb("set-window-option", ("setw",), "aFgoqt:u", 1, 2,
             "[-aFgoqu] [-t target-window] option [value]"),
        Verb("show-buffer", ("showb",), "b:", 0, 0, "[-b buffer-name]"),
        Verb("show-environment", ("showenv",), "hgst:", 0, 1, "[-hgs] [-t target-session] [name]"),
        Verb("show-hooks", (), "gpt:w", 0, 1, "[-gpw] [-t target-pane]"),
        Verb("show-messages", ("showmsgs",), "JTt:", 0, 0, "[-JT] [-t target-client]"),
        Verb("show-options", ("show",), "AgHpqst:vw", 0, 1,
             "[-AgHpqsvw] [-t target-pane] [option]"),
        Verb("show-prompt-history", ("showphist",), "T:", 0, 0, "[-T type]"),
        Verb("show-snapshot", (), "ejrwt:", 0, 0, "[-ejrw] [-t target-session]", own=True),
        Verb("show-window-options", ("showw",), "gvt:", 0, 1, "[-gv] [-t target-window] [option]"),
        Verb("source-file", ("source",), "Fnqv", 1, -1, "[-Fnqv] path ..."),
        Verb("split-window", ("splitw",), "bc:de:fF:hIl:p:Pt:vZ", 0, -1,
             "[-bdefhIPvZ] [-c start-directory] [-e environment] [-F format] [-l size] "
             "[-t target-pane][shell-command]"),
        Verb("start-server", ("start",), "", 0, 0, "", starts_server=True, may_leave_empty=True),
        Verb("suspend-client", ("suspendc",), "t:", 0, 0, "[-t target-client]"),
        Verb("swap-pane", ("swapp",), "dDs:t:UZ", 0, 0, "[-dDUZ] [-s src-pane] [-t dst-pane]"),
        Verb("swap-window", ("swapw",), "ds:t:", 0, 0, "[-d] [-s src-window] [-t dst-window]"),
        Verb("switch-client", ("switchc",), "lc:EFnpt:rT:Z", 0, 0,
             "[-ElnprZ] [-c target-client] [-t target-session] [-T key-table]",
             read_only=True),
        Verb("unbind-key", ("unbind",), "anqT:", 0, 1, "[-anq] [-T key-table] key"),
        Verb("unlink-window", ("unlinkw",), "kt:", 0, 0, "[-k] [-t target-window]"),
        Verb("wait-for", ("wait",), "LSU", 1, 1, "[-L|-S|-U] channel"),
    )
}
_BY_ALIAS = {alias: verb for verb in VERBS.values() for alias in (verb.name, *verb.aliases)}


def parse_flags(verb: Verb, args: "Sequence[str]") -> tuple[dict[str, str], list[str]]:
    """The flags (letter: value, "" for one without) and the arguments of a command line,
    split and bounded as tmux 3.3a's args_parse does it, refused (UsageError) with its
    messages. A value flag ending the line without its value, tmux 3.3a lets through
    as given with none: here it is as if not given; an optional value (`l::`) not given
    is "", the flag given.
    """
    template = verb.flags + verb.extra_flags
    flags: dict[str, str] = {}
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "-":
        word = args[index]
        index += 1
        if word == "--":
            break
        for position, letter in enumerate(word[1:], 2):
            if letter == "?":
                raise UsageError(f"usage: {verb.name} {verb.usage}")
            if not (letter.isascii() and letter.isalnum()):
                raise _refused(verb, f"invalid flag -{letter}")
            found = template.find(letter)
            if found < 0:
                raise _refused(verb, f"unknown flag -{letter}")
            if template[found + 1:found + 2] != ":":
                if letter in flags:  # given again: counted, as tmux's args_count
                    flags[letter + _EVERY] = flags.get(letter + _EVERY, letter) + letter
                flags[letter] = ""
                continue
            optional = template[found + 2:found + 3] == ":"
            if position < len(word):
                value = word[position:]
            elif optional and (index == len(args) or args[index].startswith("-")):
                flags[letter] = ""  # `l::` given no value, as tmux 3.3a's optional one
                break
            elif index < len(args):
                value = args[index]
                index += 1
            else:
                break
            flags[letter] = value
            earlier = flags.get(letter + _EVERY)
            flags[letter + _EVERY] = value if earlier is None else earlier + "\0" + value
            break
    arguments = list(args[index:])
    if len(arguments) < verb.min_args:
        raise _refused(verb, f"too few arguments (need at least {verb.min_args})")
    if verb.max_args != -1 and len(arguments) > verb.max_args:
        raise _refused(verb, f"too many arguments (need at most {verb.max_args})")
    return flags, arguments


_EVERY = "+"
"""A value flag's key suffix under which parse_flags keeps every value it was given,
NUL-separated, for the flags tmux lets repeat (`-e A=1 -e B=2`); read by `flag_values`.
The flag's own key holds the last, as tmux's args_get answers."""


def flag_count(flags: dict[str, str], letter: str) -> int:
    """How many times the flag `letter` (one without a value) was given: display-popup's
    -E closes on its program's exit, -EE only on its success."""
    return len(flags.get(letter + _EVERY, letter)) if letter in flags else 0


def flag_values(flags: dict[str, str], letter: str) -> list[str]:
    """Every value flag `letter` was given, in order (none when not given)."""
    every = flags.get(letter + _EVERY)
    return [] if every is None else every.split("\0")


def _refused(verb: Verb, cause: str) -> UsageError:
    return UsageError(f"command {verb.name}: {cause}")



def lookup(word: str) -> Verb | None:
    """The verb `word` names, as tmux's cmd_find finds it: a name or an alias, else the
    one name it begins (aliases are not abbreviated); None if unknown or ambiguous."""
    if word in _BY_ALIAS:
        return _BY_ALIAS[word]
    found = [verb for name, verb in VERBS.items() if name.startswith(word)]
    return found[0] if len(found) == 1 and word else None
