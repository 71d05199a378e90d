"""The tmux verbs the server runs, one small declared unit each (tmux's cmd-*.c).

This module holds what every verb uses: the context of the client that asked, the
result, target resolution (`find_session`, `find_pane`), the `#{...}` variables and
`run_command`. The verbs live in a module per kind of object (sessions, windows, panes,
layouts, keys, settings, scripts); verbs.py declares each one's name, aliases, getopt
flags and usage. `run_command` parses the command line as tmux does (`getopt`), resolves
the target, and returns what goes to the client's stdout and stderr and the exit status.
Messages and exit statuses follow tmux: `can't find session: X` and 1, usage errors 1.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from termhost.mux.format_scope import format_target
from termhost.mux.format_variables import variables
from termhost.mux.formats import FormatScope, expand, format_true
from termhost.mux.hooks import AFTER_COMMANDS
from termhost.mux.lexer import split_commands
from termhost.mux.model import Session, Window, Winlink
from termhost.mux.pane import Pane
from termhost.mux.targets import (
    TargetKind,
    anchored,
    is_pane_token,
    pane_by_token,
    window_named,
)
from termhost.mux.verbs import VERBS, UsageError, Verb, lookup, parse_flags

if TYPE_CHECKING:
    from termhost.mux.attached import Client
    from termhost.mux.mouse import Mouse
    from termhost.mux.server import Server

__all__ = ["COMMANDS", "CommandError", "Parsed", "Result", "parse_command", "run_command",
           "variables"]


class CommandError(Exception):
    """A command failed; the message is the one line tmux would print."""


@dataclass
class Result:
    stdout: str = ""
    stderr: str = ""
    status: int = 0
    attach: Session | None = None
    """The connection becomes a client attached to this session."""
    client_flags: frozenset[str] = frozenset()
    """What the attaching client is (attach -r, -f read-only,ignore-size,active-pane)."""


@dataclass
class Context:
    """Who asked: the client's environment and working directory."""

    server: Server
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    size: tuple[int, int] | None = None
    """(cols, rows) of the client's terminal when it can attach."""
    tty: str = ""
    """The path of the client's terminal, if it has one."""
    tty_output: bool = False
    """The client's stdout is that terminal: an attached client's output may go there."""
    force_256: bool = False
    """The client was started with -2: its terminal takes 256 colours."""
    depth: int = 0
    """How many source-file commands this one runs inside (a file sourcing itself ends)."""
    session: Session | None = None
    """The session of the attached client that asked (a key binding, the command
    prompt), or the one whose pane a command-line client runs in ($TERMHOST): a verb
    given no -t targets it, as tmux targets the client's session."""
    pane: Pane | None = None
    """The pane a command-line client runs in ($TERMHOST_PANE): a verb of panes (windows)
    given no -t targets it (its window) rather than the session's active pane (window),
    as tmux reads $TMUX_PANE."""
    no_hooks: bool = False
    """A hook's command: what it runs fires no hooks (tmux's CMDQ_STATE_NOHOOKS)."""
    formats: Mapping[str, str] = field(default_factory=dict)
    """Variables its formats have besides the target's (a hook's #{hook}, ...)."""
    client: Client | None = None
    """The attached client that asked (its key binding, its prompt): the verbs of a
    target-client given no -t act on it, as tmux's cmdq_get_client."""
    command_line: bool = False
    """A command-line client asked (tmux's client without a terminal), not the server
    itself (its -f file, a hook): what source-file says goes to that client as tmux's."""
    read_only: bool = False
    """The command-line client is of a user server-access made read-only."""
    control: int = 0
    """The client is in control mode (termhost -C: 1, -CC: 2, mux/control.py): it
    attaches with no terminal, its size unknown until refresh-client -C."""
    mouse: Mouse | None = None
    """The mouse key whose binding runs this (tmux's item's mouse event): `-t =` names
    what is under it; send-keys, copy-mode and resize-pane -M act on it."""
    stdin: Callable[[], AsyncIterator[bytes]] | None = None
    """The command-line client's stdin, piece by piece to its end, for the verbs that
    read "-" (tmux's file_read: load-buffer -, source-file -, split-window -I); None
    when no client can give one (a binding, a hook, the -f file). Read once."""


def client_stdin(context: Context) -> AsyncIterator[bytes] | None:
    """The command-line client's stdin, piece by piece as it comes; None with no such
    client (a binding, a hook of the server's, an attached or control client), as tmux
    reads only a client that has no session."""
    if context.stdin is None or context.client is not None or context.control:
        return None
    return context.stdin()


async def read_stdin(context: Context) -> bytes:
    """All of the command-line client's stdin, for a verb given "-" as its file (tmux's
    file_read); with no such client, tmux's EBADF."""
    pieces = client_stdin(context)
    if pieces is None:
        raise CommandError("-: Bad file descriptor")
    return b"".join([piece async for piece in pieces])


Run = Callable[[Context, dict[str, str], list[str]], Awaitable[Result]]

COMMANDS: dict[str, Run] = {}
"""Implementations by verb name; verbs.py declares each verb's flags and usage."""


def command(name: str) -> Callable[[Run], Run]:
    if name not in VERBS:
        raise KeyError(f"{name} is not declared in verbs.py")

    def register(run: Run) -> Run:
        COMMANDS[name] = run
        return run

    return register


class Parsed(NamedTuple):
    """A command line as its verb reads it: what `parse_command` made of it."""

    argv: list[str]
    verb: Verb
    flags: dict[str, str]
    arguments: list[str]


def parse_command(server: Server, argv: Sequence[str]) -> Parsed:
    """`argv` (a command-alias expanded) read by its verb: UsageError, in tmux's words,
    for an unknown verb or a command line the verb refuses."""
    argv = aliased(server, argv)
    verb = lookup(argv[0])
    if verb is None:
        raise UsageError(f"unknown command: {argv[0]}")
    flags, arguments = parse_flags(verb, argv[1:])
    return Parsed(argv, verb, flags, arguments)


async def run_command(context: Context, argv: Sequence[str] | Parsed) -> Result:
    """Run one command line (or one already parsed, which a control client's line is
    before any of it runs); errors become a one-line message and status 1: an unknown
    verb, a command line tmux would refuse (in tmux's words), a flag termhost does not
    act on yet. Every verb declared has its implementation (tests/mux/test_command_table.py
    holds it so)."""
    if isinstance(argv, Parsed):
        verb, flags, arguments = argv.verb, argv.flags, argv.arguments
    elif not argv:
        return Result(stderr="no command given\n", status=1)
    else:
        try:
            _, verb, flags, arguments = parse_command(context.server, argv)
        except UsageError as error:
            return Result(stderr=f"{error}\n", status=1)
    run = COMMANDS[verb.name]
    try:
        if (context.session is not None and "t" not in flags and "t:" in verb.flags
                and "-t target-client" not in verb.usage
                and verb.name not in _T_NOT_A_TARGET):
            pane = context.pane if ("-t target-pane" in verb.usage
                                    or "-t target-window" in verb.usage) else None
            flags["t"] = pane.name if pane is not None else f"${context.session.id}"
        _mouse_targets(context, verb, flags)
        _anchor_targets(context, verb, flags)
        result = await run(context, flags, arguments)
        if result.status == 0 and verb.name in AFTER_COMMANDS and not context.no_hooks:
            result = await _after_hook(context, verb.name, flags, result)
        return result
    except CommandError as error:
        return Result(stderr=f"{error}\n", status=1)


_T_NOT_A_TARGET = frozenset({"new-session"})
"""Verbs whose -t the current session does not stand in for: new-session's names a
group to join (tmux resolves no target for it)."""

_TARGET_KINDS: dict[str, TargetKind] = {
    "-t target-window": "window", "-t target-pane": "pane", "-t dst-window": "index",
    "-t dst-pane": "pane", "-s src-window": "window", "-s src-pane": "pane"}
"""What a verb's -t and -s name, by the words of its usage (tmux's cmd_entry flags)."""


def _mouse_targets(context: Context, verb: Verb, flags: dict[str, str]) -> None:
    """-t = (or {mouse}): what is under the mouse of the key that runs the command, as
    tmux's cmd_find_target; `no mouse target` without one (unless the verb's target
    may fail: then it names nothing)."""
    for letter in "ts":
        if flags.get(letter) in ("=", "{mouse}"):
            target = context.mouse.target() if context.mouse is not None else None
            if target is None and not verb.target_may_fail:
                raise CommandError("no mouse target")
            flags[letter] = target or "{mouse}"


def _anchor_targets(context: Context, verb: Verb, flags: dict[str, str]) -> None:
    """-t and -s relative to the current session, written with it (mux/targets.py)."""
    if not context.server.sessions:
        return
    for letter, kind in _anchors(verb):
        spec = flags.get(letter)
        if spec is not None and not (spec and spec[0] in "@%=~"):  # an id needs no anchor
            current = context.session or find_session(context.server, None)
            pane = context.pane
            window = None if pane is None else next(
                (w for w in current.windows if pane in w.panes), None)
            flags[letter] = anchored(spec, kind, current, window)
            bare = spec and spec[0] not in "$@%={~" and ":" not in spec and "." not in spec
            if bare and flags[letter] == spec and not verb.target_may_fail:
                try:  # not a window (pane) of the current session: a session, or nothing
                    find_session(context.server, spec)
                except CommandError:
                    raise CommandError(f"can't find {kind.replace('index', 'window')}: "
                                       f"{spec}") from None


def _anchors(verb: Verb) -> list[tuple[str, TargetKind]]:
    """The flags of `verb` that name a target, with what they name."""
    found = _ANCHORS.get(verb.name)
    if found is None:
        found = _ANCHORS[verb.name] = [
            (words[1], "index" if verb.name == "new-window" else kind)
            for words, kind in _TARGET_KINDS.items() if words in verb.usage]
    return found


_ANCHORS: dict[str, list[tuple[str, TargetKind]]] = {}


def aliased(server: Server, argv: Sequence[str]) -> list[str]:
    """`argv` with a command-alias (`choose-session=choose-tree -s`) in place of its
    first word, when that is no verb of tmux's, as tmux's cmd_parse expands it."""
    if not argv or lookup(argv[0]) is not None:
        return list(argv)
    prefix = argv[0] + "="
    for _, value in server.options.shown("command-alias"):
        if value is not None and value.startswith(prefix):
            words = split_commands(value[len(prefix):], {})
            if len(words) == 1:
                return [*words[0], *argv[1:]]
    return list(argv)


async def _after_hook(context: Context, name: str, flags: dict[str, str],
                      result: Result) -> Result:
    """The command's `after-` hook, for its target (none before a session exists); what
    the hook prints follows the command's output."""
    server = context.server
    hook = f"after-{name}"
    if not server.hooks.sets(hook) and not any(session.hooks.sets(hook)
                                               for session in server.sessions.values()):
        return result  # the usual case, and send-keys's hot path: no target to find
    from termhost.mux.commands.hooks import run_hook  # (an import costs the hot path)

    try:
        session, window, pane = find_pane(server, flags.get("t"))
    except CommandError:  # the target went (kill-pane): the current session's
        session = find_session(server, None)
        window, pane = session.active_window, None
    hooked = await run_hook(context, hook, session, window, pane)
    return Result(stdout=result.stdout + hooked.stdout, stderr=result.stderr + hooked.stderr,
                  status=result.status, attach=result.attach)


# --- targets and formats ---------------------------------------------------------------


def find_session(server: Server, target: str | None) -> Session:
    """`-t` as a session: `$ID`, `=NAME` (exact), NAME, a unique NAME prefix, or the
    session of a pane or window (`%ID`, `@ID`), as tmux takes them."""
    sessions = list(server.sessions.values())
    if not sessions:
        raise CommandError("no sessions")
    if target is None or target == "":
        return max(sessions, key=lambda s: s.created)
    if target[0] in "%@":
        return find_pane(server, target)[0]
    name = target.split(":", 1)[0]
    if name == "":  # `:INDEX`: a window of the current session
        return max(sessions, key=lambda s: s.created)
    if name.startswith("$") and name[1:].isdigit():
        for session in sessions:
            if session.id == int(name[1:]):
                return session
    elif name.startswith("="):
        if name[1:] in server.sessions:
            return server.sessions[name[1:]]
    elif name in server.sessions:
        return server.sessions[name]
    else:  # a unique prefix, else a unique fnmatch pattern, as cmd_find_get_session
        for matches in ([s for s in sessions if s.name.startswith(name)],
                        [s for s in sessions if fnmatch.fnmatchcase(s.name, name)]):
            if matches:
                if len(matches) == 1:
                    return matches[0]
                break
    raise CommandError(f"can't find session: {name}")


def find_pane(server: Server, target: str | None) -> tuple[Session, Window, Pane]:
    """`-t` as a pane: `%ID`, `@ID`, SESSION[:WINDOW[.PANE]] (indexes or names), or the
    marked pane (`{marked}`, `~`)."""
    session, link, pane = find_winlink(server, target)
    return session, link.window, pane


def find_winlink(server: Server, target: str | None) -> tuple[Session, Winlink, Pane]:
    """`find_pane`, with the place of the window in its session: which of the indices
    a window linked twice (link-window) stands at, for the verbs that act on the place
    (select-window, unlink-window) and the formats that print it (#{window_index})."""
    if target in ("{marked}", "~"):
        marked = server.marked_pane()
        if marked is None:
            raise CommandError("no marked target")
        session, window, pane = marked
        return session, _placed(session, window), pane
    if target and target[0] in "%@":
        kind = "pane" if target[0] == "%" else "window"
        for window in server.windows():
            if target == f"@{window.id}":
                session = best_session_with(server, window)
                return session, _placed(session, window), window.active
            for pane in window.panes:
                if target == pane.name:
                    session = best_session_with(server, window)
                    return session, _placed(session, window), pane
        raise CommandError(f"can't find {kind}: {target}")
    session = find_session(server, target)
    link = session.current
    assert link is not None, "a session always has a window"
    pane = link.window.active
    if target and ":" in target:
        spec = target.split(":", 1)[1]
        window_part, _, pane_part = spec.partition(".")
        if window_part:
            link = _find_window(session, window_part)
            pane = link.window.active
        if pane_part:
            panes = link.window.panes
            by_id = [each for each in panes if each.name == pane_part]
            by_token = (pane_by_token(link.window, pane_part) if is_pane_token(pane_part)
                        else None)
            if pane_part.isdigit() and int(pane_part) < len(panes):
                pane = panes[int(pane_part)]
            elif by_id:  # `=s:1.%5`, as choose-tree names a pane in its template
                pane = by_id[0]
            elif by_token is not None:  # `+`, `!`, `{top}`...
                pane = by_token
            else:
                raise CommandError(f"can't find pane: {pane_part}")
    return session, link, pane


def best_session_with(server: Server, window: Window) -> Session:
    """The session a target naming only a window (`@ID`, `%ID`) means, as tmux's
    cmd_find_best_session_with_window: of those it is linked to, the one most
    recently active."""
    holders = [s for s in server.sessions.values() if s.has(window)]
    assert holders, f"@{window.id} is in no session"
    return max(holders, key=lambda s: (s.activity_time, s.id))


def _placed(session: Session, window: Window) -> Winlink:
    link = session.link_of(window)
    assert link is not None, f"@{window.id} is not linked to ${session.id}"
    return link


def find_source(context: Context, flags: dict[str, str]) -> tuple[Session, Window, Pane]:
    """-s: the pane (window) a command moves; by default the current one (the pane the
    command runs in, or the active one of the asking client's session)."""
    session, link, pane = find_source_link(context, flags)
    return session, link.window, pane


def find_source_link(context: Context, flags: dict[str, str]
                     ) -> tuple[Session, Winlink, Pane]:
    """`find_source` with the window's place (move-window, link-window, swap-window)."""
    if "s" in flags:
        return find_winlink(context.server, flags["s"])
    if context.pane is not None:
        return find_winlink(context.server, context.pane.name)
    session = context.session
    return find_winlink(context.server, f"${session.id}" if session is not None else None)


def find_destination(server: Server, target: str | None, default: Session) -> tuple[
        Session, int | None]:
    """`-t` as where a window goes (break-pane, move-window): SESSION[:INDEX], `default`
    when none is given, and the index asked for (None: the lowest free one)."""
    session = find_session(server, target) if target else default
    if not target or ":" not in target or not target.split(":", 1)[1]:
        return session, None
    spec = target.split(":", 1)[1]
    if not spec.isdigit():
        raise CommandError(f"can't find window: {spec}")
    return session, int(spec)


def _find_window(session: Session, spec: str) -> Winlink:
    link = window_named(session, spec)
    if link is None:
        raise CommandError(f"can't find window: {spec}")
    return link


def expand_at(context: Context, template: str, target: str | None) -> str:
    """`template` expanded for the pane `target` (else the current one), as -F values,
    if-shell and run-shell expand; for the server alone before a session exists (a
    configuration file read at start). A hook's variables come too."""
    server = context.server
    if not server.sessions:
        values, scope = format_target(server)
    else:
        session, link, pane = find_winlink(server, target)
        values, scope = format_target(server, session, link.window, pane, link=link)
    if context.formats:
        values.update(context.formats)
    return expand(template, values, scope=scope)


# --- helpers the verbs share -------------------------------------------------------------


def listed(flags: dict[str, str], default: str,
           items: Iterable[tuple[Mapping[str, str], FormatScope | None]]) -> Result:
    """What a list command prints: a line of -F's format (else `default`) for each item
    (its variables and scope) that -f's filter, expanded for it, leaves in (format_true)."""
    template, keep = flags.get("F", default), flags.get("f")
    lines = [expand(template, values, scope=scope) + "\n" for values, scope in items
             if keep is None or format_true(expand(keep, values, scope=scope))]
    return Result(stdout="".join(lines))


NEW_PANE_INFO = "#{session_name}:#{window_index}.#{pane_index}"
"""What new-window, split-window and break-pane -P print by default, as tmux's."""


def new_object_info(flags: dict[str, str], default: str, server: Server, session: Session,
                    window: Window | None = None, pane: Pane | None = None) -> str:
    """What -P prints about the object a command made: -F's format (else `default`)
    expanded for it, as new-session, new-window, split-window and break-pane do."""
    if "P" not in flags:
        return ""
    values, scope = format_target(server, session, window, pane)
    return expand(flags.get("F", default), values, scope=scope) + "\n"


def working_directory(context: Context, flags: dict[str, str], session: Session | None,
                      window: Window | None = None, pane: Pane | None = None, *,
                      fallback: bool = True) -> str | None:
    """Where a new pane starts, as tmux's spawn reads -c: a format expanded for the
    target, a relative path taken from the asking client's directory (else the
    session's); without -c the client's directory, else (a key binding, the prompt) the
    session's. A directory that is not there is no error: the program starts in the
    home directory instead (Pane.start), as tmux's spawn falls back."""
    given = flags.get("c")
    if not given:
        return (context.cwd or (session.path if session is not None else None) or None
                ) if fallback else None
    values, scope = (format_target(context.server, session, window, pane) if session is not None
                     else format_target(context.server))
    path = expand(given, values, scope=scope)
    base = context.cwd or (session.path if session is not None else None) or os.getcwd()
    return os.path.join(base, path)


def assignments(values: list[str]) -> dict[str, str]:
    """-e VAR=value, each given; one without `=` is left out, as tmux leaves it."""
    return dict(value.split("=", 1) for value in values if "=" in value)


def args_percentage(text: str, whole: int, what: str) -> int:
    """A size as tmux's args_percentage reads it: cells, or N% (0 to 100) of `whole`;
    else `WHAT invalid`, `WHAT too small`, `WHAT too large`."""
    number = text.removesuffix("%")
    if not number.removeprefix("-").isdigit():
        raise CommandError(f"{what} invalid")
    value = int(number)
    if value < 0:
        raise CommandError(f"{what} too small")
    if value > (100 if text.endswith("%") else 2**31 - 1):
        raise CommandError(f"{what} too large")
    return whole * value // 100 if text.endswith("%") else value


def size_arg(text: str, what: str) -> int:
    """A -x / -y size: 1 to 10000, or tmux's `width N is invalid`."""
    if not text.isdigit() or not 1 <= int(text) <= 10000:
        raise CommandError(f"{what} {text} is invalid")
    return int(text)


def one_name(args: list[str], verb: str) -> str:
    """The one non-empty name a rename verb takes, or its usage."""
    if len(args) != 1 or not args[0]:
        raise CommandError(f"usage: {verb} {VERBS[verb].usage}")
    return args[0]


# The verbs, a module per kind of object, each registering its own with @command.
from termhost.mux.commands import (  # noqa: E402  (they use what is defined above)
    access,
    buffers,
    clients,
    environment,
    hooks,
    keys,
    layouts,
    locking,
    modes,
    overlays,
    panes,
    pipes,
    prompts,
    recording,
    resurrect,
    scripts,
    sessions,
    settings,
    snapshots,
    windows,
)

__all__ += ["access", "buffers", "clients", "environment", "hooks", "keys", "layouts",
            "locking", "modes", "overlays", "panes",
            "pipes", "prompts", "recording", "resurrect", "scripts", "sessions", "settings",
            "snapshots", "windows"]
