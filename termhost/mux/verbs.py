"""The tmux verbs termhost knows: name, aliases, getopt flags and usage of each.

Kept apart from their implementations (commands.py) so that the CLI can recognise a
verb, or say it is unknown, without importing the server's side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["VERBS", "UsageError", "Verb", "lookup", "parse_flags"]


class UsageError(ValueError):
    """A command line its verb's flags refuse: the message, then the verb's usage."""


class Verb(NamedTuple):
    """A NamedTuple, not a dataclass, for the CLI's start-up (see protocol.Frame)."""

    name: str
    aliases: tuple[str, ...]
    flags: str
    """getopt's letters, `x:` taking a value, as in tmux's command table."""
    usage: str
    starts_server: bool = False
    """Run with no server, it starts one (new-session, start-server, ...), as tmux's
    CMD_STARTSERVER; any other verb says no server is running."""
    may_leave_empty: bool = False
    """A server it started may be left with no session, and then ends (tmux's
    exit-empty after start-server, list-keys, source-file)."""


VERBS = {
    verb.name: verb
    for verb in (
        Verb("new-session", ("new",), "dPF:s:x:y:c:n:e:",
             "[-dP] [-c dir] [-e VAR=value] [-F format] [-n window-name] [-s session-name] "
             "[-x width] [-y height] [command]", starts_server=True),
        Verb("has-session", ("has",), "t:", "[-t target-session]"),
        Verb("attach-session", ("attach", "a"), "t:", "[-t target-session]"),
        Verb("detach-client", ("detach",), "s:", "[-s target-session]"),
        Verb("list-sessions", ("ls",), "F:", "[-F format]"),
        Verb("kill-session", (), "t:", "[-t target-session]"),
        Verb("kill-server", (), "", ""),
        Verb("start-server", ("start",), "", "", starts_server=True, may_leave_empty=True),
        Verb("wait-for", ("wait",), "LSU", "[-L | -S | -U] channel"),
        Verb("source-file", ("source",), "q", "[-q] path ...", starts_server=True,
             may_leave_empty=True),
        Verb("if-shell", ("if",), "bFt:",
             "[-bF] [-t target-pane] shell-command command [command]"),
        Verb("run-shell", ("run",), "bCc:d:t:",
             "[-bC] [-c start-directory] [-d delay] [-t target-pane] [shell-command]"),
        Verb("send-prefix", (), "2t:", "[-2] [-t target-pane]"),
        Verb("list-keys", ("lsk",), "NT:", "[-N] [-T key-table] [key]", starts_server=True,
             may_leave_empty=True),
        Verb("list-commands", ("lscm",), "F:", "[-F format] [command]", starts_server=True,
             may_leave_empty=True),
        Verb("bind-key", ("bind",), "nrN:T:", "[-nr] [-N note] [-T key-table] key command"),
        Verb("unbind-key", ("unbind",), "anqT:", "[-anq] [-T key-table] key"),
        Verb("send-keys", ("send",), "lt:", "[-l] [-t target-pane] key ..."),
        Verb("capture-pane", ("capturep",), "b:pt:S:E:JNe",
             "[-eJNp] [-b buffer-name] [-S start-line] [-E end-line] [-t target-pane]"),
        Verb("display-message", ("display",), "pt:", "[-p] [-t target-pane] [message]"),
        Verb("new-window", ("neww",), "dPF:n:t:c:",
             "[-dP] [-c dir] [-F format] [-n window-name] [-t target-session] [command]"),
        Verb("list-windows", ("lsw",), "t:F:", "[-F format] [-t target-session]"),
        Verb("select-window", ("selectw",), "lnpTt:", "[-lnpT] [-t target-window]"),
        Verb("next-window", ("next",), "at:", "[-a] [-t target-session]"),
        Verb("previous-window", ("prev",), "at:", "[-a] [-t target-session]"),
        Verb("last-window", ("last",), "t:", "[-t target-session]"),
        Verb("last-pane", ("lastp",), "det:Z", "[-deZ] [-t target-window]"),
        Verb("kill-window", ("killw",), "t:", "[-t target-window]"),
        Verb("swap-window", ("swapw",), "ds:t:", "[-d] [-s src-window] [-t dst-window]"),
        Verb("move-window", ("movew",), "dkrs:t:",
             "[-dkr] [-s src-window] [-t dst-window]"),
        Verb("rename-session", ("rename",), "t:", "[-t target-session] new-name"),
        Verb("rename-window", ("renamew",), "t:", "[-t target-window] new-name"),
        Verb("kill-pane", ("killp",), "t:", "[-t target-pane]"),
        Verb("respawn-pane", ("respawnp",), "c:kt:", "[-k] [-c dir] [-t target-pane] [command]"),
        Verb("list-panes", ("lsp",), "asF:t:", "[-as] [-F format] [-t target-window]"),
        Verb("split-window", ("splitw",), "hvbdPF:p:l:t:c:",
             "[-bdhvP] [-c dir] [-F format] [-l size] [-p percentage] [-t target-pane] "
             "[command]"),
        Verb("select-pane", ("selectp",), "t:LRUDT:", "[-LRUD] [-T title] [-t target-pane]"),
        Verb("break-pane", ("breakp",), "dPF:n:s:t:",
             "[-dP] [-F format] [-n window-name] [-s src-pane] [-t dst-window]"),
        Verb("join-pane", ("joinp",), "bdhvl:p:s:t:",
             "[-bdhv] [-l size] [-s src-pane] [-t dst-pane]"),
        Verb("move-pane", ("movep",), "bdhvl:p:s:t:",
             "[-bdhv] [-l size] [-s src-pane] [-t dst-pane]"),
        Verb("swap-pane", ("swapp",), "dDs:t:U", "[-dDU] [-s src-pane] [-t dst-pane]"),
        Verb("rotate-window", ("rotatew",), "Dt:U", "[-DU] [-t target-window]"),
        Verb("display-panes", ("displayp",), "d:t:", "[-d duration] [-t target-session]"),
        Verb("switch-client", ("switchc",), "lnpt:", "[-lnp] [-t target-session]"),
        Verb("choose-tree", (), "swZ", "[-swZ]"),
        Verb("copy-mode", (), "ut:", "[-u] [-t target-pane]"),
        Verb("show-snapshot", (), "jrswt:", "[-jrsw] [-t target-session]"),
        Verb("resize-pane", ("resizep",), "DLRt:Ux:y:Z",
             "[-DLRUZ] [-x width] [-y height] [-t target-pane] [adjustment]"),
        Verb("select-layout", ("selectl",), "nopt:", "[-nop] [-t target-pane] [layout-name]"),
        Verb("next-layout", ("nextl",), "t:", "[-t target-window]"),
        Verb("previous-layout", ("prevl",), "t:", "[-t target-window]"),
        Verb("resize-window", ("resizew",), "aADLRt:Ux:y:",
             "[-aADLRU] [-x width] [-y height] [-t target-window] [adjustment]"),
        Verb("set-buffer", ("setb",), "ab:n:", "[-a] [-b buffer-name] [-n new-name] data"),
        Verb("show-buffer", ("showb",), "b:", "[-b buffer-name]"),
        Verb("list-buffers", ("lsb",), "F:", "[-F format]"),
        Verb("delete-buffer", ("deleteb",), "b:", "[-b buffer-name]"),
        Verb("paste-buffer", ("pasteb",), "db:prs:t:",
             "[-dpr] [-s separator] [-b buffer-name] [-t target-pane]"),
        Verb("save-buffer", ("saveb",), "ab:", "[-a] [-b buffer-name] path"),
        Verb("load-buffer", ("loadb",), "b:", "[-b buffer-name] path"),
        Verb("set-option", ("set",), "aFgopqst:uUw",
             "[-aFgopqsuUw] [-t target-pane] option [value]"),
        Verb("set-window-option", ("setw",), "aFgoqt:u",
             "[-aFgoqu] [-t target-window] option [value]"),
        Verb("show-options", ("show",), "AgHpqst:vw",
             "[-AgHpqsvw] [-t target-pane] [option]"),
        Verb("record-pane", (), "Si:o:P:t:T:v:",
             "[-S] [-i idle-time-limit] [-o path] [-P theme] [-T title] [-v 2|3] "
             "[-t target-pane]"),
    )
}
_BY_ALIAS = {alias: verb for verb in VERBS.values() for alias in (verb.name, *verb.aliases)}


def parse_flags(verb: Verb, args: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """The flags (letter: value, "" for one without) and the arguments of a command
    line, as tmux's getopt splits them; UsageError says what is wrong, and the usage."""
    import getopt  # here, not on the thin client's way to a server that is running

    try:
        options, arguments = getopt.getopt(list(args), verb.flags)
    except getopt.GetoptError as error:
        raise UsageError(f"{error.msg}\nusage: {verb.name} {verb.usage}") from None
    return {flag[1]: value for flag, value in options}, arguments


def lookup(word: str) -> Verb | None:
    """The verb `word` names: a name, an alias, or an unambiguous prefix (as tmux)."""
    if word in _BY_ALIAS:
        return _BY_ALIAS[word]
    found = {verb.name: verb for key, verb in _BY_ALIAS.items() if key.startswith(word)}
    return next(iter(found.values())) if len(found) == 1 and word else None
