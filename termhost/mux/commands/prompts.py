"""Verbs of the status-line prompt: command-prompt and confirm-before, which ask a client
and run a command made of the answer, and the prompt histories they fill.

A prompt's command runs as the client's, with the pane current when the prompt opened as
its default target: tmux keeps the asking command's state (`C-b x` kills the pane it asked
about, whichever is active when `y` is typed). Without -b the asking command waits for
the answer, so `termhost command-prompt ...` in a script returns once it is given.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from termhost.mux.commands import CommandError, Context, Result, command
from termhost.mux.commands.clients import find_client
from termhost.mux.format_scope import format_target
from termhost.mux.formats import expand
from termhost.mux.prompt_history import PROMPT_TYPES

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine

    from termhost.mux.attached import Client

_QUOTED = frozenset('"\\$;~')
"""What `%%%` puts a backslash before in an answer, as tmux's cmd_template_replace."""

_WAITING: set[asyncio.Task[None]] = set()
"""The prompts of -b commands, held until answered (the loop keeps weak references)."""


def template_replace(template: str, answer: str, index: int) -> str:
    """`template` with every `%INDEX` and its first remaining `%%` replaced by `answer`;
    `%%%` (or `%INDEX%`) puts it in with quotes and `$ ; ~ \\` escaped."""
    if "%" not in template:
        return template
    out: list[str] = []
    replaced = False
    at, end = 0, len(template)
    while at < end:
        char = template[at]
        at += 1
        if char != "%" or at >= end:
            out.append(char)
            continue
        following = template[at]
        if following != str(index) or not "1" <= following <= "9":
            if following != "%" or replaced:
                out.append(char)
                continue
            replaced = True
        at += 1
        quoted = at < end and template[at] == "%"
        if quoted:
            at += 1
        out.extend("\\" + c if quoted and c in _QUOTED else c for c in answer)
    return "".join(out)


def _kind(flags: dict[str, str], refusal: str = "invalid") -> str:
    """-T's prompt type; tmux's refusal of another word is `invalid` in the history verbs,
    `unknown` in command-prompt's."""
    kind = flags.get("T", "command")
    if kind not in PROMPT_TYPES:
        raise CommandError(f"{refusal} type: {kind}")
    return kind


def _verb_of(line: str) -> str:
    """The first word of a command line, as tmux names a prompt after it."""
    return line.split(" ", 1)[0].split(",", 1)[0]


def _in_background(asking: Coroutine[None, None, None]) -> Result:
    """-b: the prompt left open and the command done; the caller awaits otherwise."""
    task = asyncio.ensure_future(asking)
    _WAITING.add(task)
    task.add_done_callback(_WAITING.discard)
    return Result()


def _expander(context: Context, client: Client) -> Callable[[str], str]:
    """Expands a prompt's label and preset as tmux's status_prompt_set: the client's
    session, window and pane, strftime too."""
    session = client.session
    window = session.active_window
    values, scope = format_target(context.server, session, window, window.active,
                                  owner=client)
    return lambda text: expand(text, values, scope=scope, strftime=True)


@command("command-prompt")
async def command_prompt(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Ask the client each of -p's prompts (comma-separated; else `(VERB)` of the
    template, or `:`), preset with -I's texts, then run the template with the answers in
    its `%%` and `%1`..`%9` (the answer itself as the command when there is none). -1 and
    -k take one key (its character, its name), -N digits, -i runs the template as the
    answer changes, with `=` before it; -T is the prompt type, whose history it uses."""
    client = find_client(context, flags.get("t"))
    kind = _kind(flags, "unknown")
    if client.prompting:
        return Result()  # tmux: a prompt already open stays, this one is not asked
    expanded = _expander(context, client)
    template = args[0] if args else "%1"
    if args and "F" in flags:
        template = expanded(template)
    if "p" in flags:
        labels = [f"{expanded(label)} " for label in flags["p"].split(",")]
    elif args:
        labels = [f"({_verb_of(args[0])}) "]
    else:
        labels = [":"]
    presets = [expanded(text) for text in flags["I"].split(",")] if "I" in flags else []
    pane = client.active()
    one_key = "name" if "k" in flags else "char" if "1" in flags else ""

    def incremental(text: str) -> None:
        client.spawn(client.run_line(template_replace(template, "=" + text, 1), pane=pane))

    async def asking() -> None:
        line = template
        for index, label in enumerate(labels, 1):
            preset = presets[index - 1] if index <= len(presets) else ""
            answer = await client.ask(label, preset, kind=kind, one_key=one_key,
                                      numeric="N" in flags,
                                      on_change=incremental if "i" in flags else None)
            if answer is None:
                return
            line = template_replace(line, answer, index)
        if "i" not in flags:  # an incremental prompt has run its command as it went
            await client.run_line(line, pane=pane)

    if "b" in flags:
        return _in_background(asking())
    await asking()
    return Result()


@command("confirm-before")
async def confirm_before(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Ask `Confirm 'VERB'? (y/n)` (or -p's prompt, a format) and run the command on `y`."""
    client = find_client(context, flags.get("t"))
    if client.prompting:
        return Result()
    line = args[0]
    if "p" in flags:
        label = f"{_expander(context, client)(flags['p'])} "
    else:
        label = f"Confirm '{_verb_of(line)}'? (y/n) "
    pane = client.active()

    async def asking() -> None:
        if await client.ask(label, confirming=True) is not None:
            await client.run_line(line, pane=pane)

    if "b" in flags:
        return _in_background(asking())
    await asking()
    return Result()


@command("show-prompt-history")
async def show_prompt_history(context: Context, flags: dict[str, str],
                              args: list[str]) -> Result:
    """Each type's history (or -T's), oldest first, numbered, as tmux lists them."""
    kinds = [_kind(flags)] if "T" in flags else list(PROMPT_TYPES)
    out: list[str] = []
    for kind in kinds:
        out.append(f"History for {kind}:\n\n")
        out.extend(f"{number}: {line}\n"
                   for number, line in enumerate(context.server.prompt_history[kind], 1))
        out.append("\n")
    return Result(stdout="".join(out))


@command("clear-prompt-history")
async def clear_prompt_history(context: Context, flags: dict[str, str],
                               args: list[str]) -> Result:
    """Empty every type's history, or -T's."""
    for kind in [_kind(flags)] if "T" in flags else PROMPT_TYPES:
        context.server.prompt_history[kind].clear()
    return Result()
