"""Layout verbs: select-layout, next-layout, previous-layout (tmux's presets, and layout
strings)."""

from __future__ import annotations

from termhost.mux import layout
from termhost.mux.commands import (
    CommandError,
    Context,
    Result,
    command,
    find_pane,
)
from termhost.mux.layout import LayoutError
from termhost.mux.layout_custom import parse_layout


@command("select-layout")
async def select_layout(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A preset (a unique prefix will do), or with -n/-p the next/previous one; a layout
    string (#{window_layout}'s); -o the layout the window had before the last
    select-layout; -E spreads the target pane and its neighbours out evenly instead."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    old, window.old_layout = window.old_layout, layout.describe(window.layout, lambda p: p.id)
    custom = args[0] if args and not _is_preset(args[0]) else old if "o" in flags else None
    if custom is not None:
        try:
            window.apply_layout(parse_layout(custom, window.panes))
        except LayoutError as error:
            window.old_layout = old  # as tmux puts it back on an error
            raise CommandError(str(error)) from None
        context.server.refresh_window(window)
        context.server.control.layout_changed(window)  # told even if it came out the same
        return Result()
    if "o" in flags:
        return Result()  # no layout before: nothing to go back to, as tmux
    if "E" in flags:
        layout.spread_out(window.layout, pane)
        window.fit_panes()
        context.server.refresh(session)
        context.server.control.layout_changed(window)
        return Result()
    try:
        if "n" in flags:
            preset = layout.next_layout(window.preset)
        elif "p" in flags:
            preset = _previous_layout(window.preset)
        elif args:
            preset = layout.find_preset(args[0])
        else:
            preset = window.preset or layout.PRESETS[0]  # tmux re-applies the last
    except LayoutError as error:
        raise CommandError(str(error)) from None
    window.arrange(preset)
    context.server.refresh(session)
    for _ in range(2 if len(window.panes) > 1 else 1):  # tmux's preset tells, and then its verb
        context.server.control.layout_changed(window)
    return Result()


def _is_preset(name: str) -> bool:
    try:
        layout.find_preset(name)
    except LayoutError:
        return False
    return True


def _previous_layout(preset: str | None) -> str:
    presets = layout.PRESETS
    return presets[(presets.index(preset) - 1) % len(presets)] if preset else presets[-1]


@command("next-layout")
async def next_layout(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    return await select_layout(context, {**flags, "n": ""}, [])


@command("previous-layout")
async def previous_layout(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    return await select_layout(context, {**flags, "p": ""}, [])
