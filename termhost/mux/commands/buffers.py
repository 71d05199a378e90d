"""Paste buffer verbs: set-buffer, show-buffer, list-buffers, delete-buffer,
paste-buffer, save-buffer, load-buffer (the buffers themselves: mux/buffers.py)."""

from __future__ import annotations

import os

from termhost.mux.buffers import Buffer, PasteBuffers, sample
from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    find_pane,
    listed,
    read_stdin,
)
from termhost.mux.commands.clients import find_client, terminal_of
from termhost.terminal.keys import PASTE_END, PASTE_START

_LIST_FORMAT = '#{buffer_name}: #{buffer_size} bytes: "#{buffer_sample}"'


def _buffer(buffers: PasteBuffers, name: str | None) -> Buffer:
    """-b NAME, or the most recent buffer; tmux's messages when there is none."""
    buffer = buffers.get(name)
    if buffer is None:
        raise CommandError(f"no buffer {name}" if name is not None else "no buffers")
    return buffer


@command("set-buffer")
async def set_buffer(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A new buffer, or -b's replaced (-a: appended to); -n renames -b's (or the
    most recent). -w also puts the buffer on the clipboard of the current client's
    terminal, or -t's."""
    buffers = context.server.buffers
    if "n" in flags:
        buffers.rename(_buffer(buffers, flags.get("b")), flags["n"])
        if not args:
            return Result()
    if len(args) != 1:
        raise CommandError("no data specified")
    if not args[0] and "b" not in flags:
        return Result()  # tmux makes no empty automatic buffer
    buffer = buffers.set(args[0].encode("utf-8", "surrogateescape"), flags.get("b"),
                         append="a" in flags)
    await _to_clipboard(context, flags, buffer.data)
    return Result()


async def _to_clipboard(context: Context, flags: dict[str, str], data: bytes) -> None:
    """-w: `data` on the clipboard of -t's terminal, or the current client's, as tmux's
    tty_set_selection: OSC 52 through the terminal's Ms, only when it has Ms. A client
    that is not there is no error (tmux's CMD_CLIENT_CANFAIL)."""
    if "w" not in flags:
        return
    client = find_client(context, flags.get("t"), quiet=True)
    if client is None:
        return
    sequence = (await terminal_of(context, client)).selection(data)
    if sequence is not None:
        client.write_terminal(sequence)


@command("show-buffer")
async def show_buffer(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    buffer = _buffer(context.server.buffers, flags.get("b"))
    return Result(stdout=buffer.data.decode("utf-8", "surrogateescape"))


def buffer_variables(buffer: Buffer) -> dict[str, str]:
    """A paste buffer's #{buffer_*} variables (list-buffers', choose-buffer's)."""
    return {"buffer_name": buffer.name, "buffer_size": str(len(buffer.data)),
            "buffer_sample": sample(buffer.data), "buffer_created": str(int(buffer.created))}


@command("list-buffers")
async def list_buffers(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    return listed(flags, _LIST_FORMAT, ((buffer_variables(buffer), None)
                                        for buffer in context.server.buffers.all()))


@command("delete-buffer")
async def delete_buffer(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    buffers = context.server.buffers
    name = flags.get("b")
    buffer = buffers.get(name)
    if buffer is None:  # tmux's words, which differ from the other verbs'
        raise CommandError(f"unknown buffer: {name}" if name is not None else "no buffer")
    buffers.delete(buffer)
    return Result()


@command("paste-buffer")
async def paste_buffer(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """Into the pane as if typed: each newline becomes -s (a carriage return, -r
    keeps newlines), bracketed (-p) if the program asked for it; -d deletes the
    buffer afterwards. With no buffers, nothing (tmux says nothing either)."""
    _, _, pane = find_pane(context.server, flags.get("t"))
    buffers = context.server.buffers
    name = flags.get("b")
    buffer = buffers.get(name)
    if buffer is None:
        if name is not None:
            raise CommandError(f"no buffer {name}")
        return Result()
    separator = flags.get("s", "\n" if "r" in flags else "\r").encode()
    data = buffer.data.replace(b"\n", separator)
    if "p" in flags and pane.terminal.screen.bracketed_paste:
        while PASTE_END in data:  # pasted text must not end the bracket early
            data = data.replace(PASTE_END, b"")
        data = PASTE_START + data + PASTE_END
    pane.write(data)
    if "d" in flags:
        buffers.delete(buffer)
    return Result()


@command("save-buffer")
async def save_buffer(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    buffer = _buffer(context.server.buffers, flags.get("b"))
    path = _path(context, args[0])
    try:
        with open(path, "ab" if "a" in flags else "wb") as file:
            file.write(buffer.data)
    except OSError as error:
        raise CommandError(f"{args[0]}: {error.strerror}") from None
    return Result()


@command("load-buffer")
async def load_buffer(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    if args[0] == "-":
        data = await read_stdin(context)  # `... | tmux loadb -`
    else:
        try:
            with open(_path(context, args[0]), "rb") as file:
                data = file.read()
        except OSError as error:
            raise CommandError(f"{args[0]}: {error.strerror}") from None
    if not data:
        return Result()  # as tmux: an empty file makes no buffer
    context.server.buffers.set(data, flags.get("b"))
    if data:
        await _to_clipboard(context, flags, data)
    return Result()


def _path(context: Context, path: str) -> str:
    """A relative path is the client's, not the server's."""
    return os.path.join(context.cwd or os.getcwd(), os.path.expanduser(path))
