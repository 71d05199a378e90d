"""Layout verbs: select-layout, next-layout, previous-layout (tmux's presets)."""

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


@command("select-layout")
async def select_layout(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    """A preset (a unique prefix will do), or with -n/-p the next/previous one; -E
    spreads the target pane and its neighbours out evenly instead."""
    session, window, pane = find_pane(context.server, flags.get("t"))
    if "E" in flags:
        layout.spread_out(window.layout, pane)
        window.fit_panes()
        context.server.refresh(session)
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
    return Result()


def _previous_layout(preset: str | None) -> str:
    presets = layout.PRESETS
    return presets[(presets.index(preset) - 1) % len(presets)] if preset else presets[-1]


@command("next-layout")
async def next_layout(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    return await select_layout(context, {**flags, "n": ""}, [])


@command("previous-layout")
async def previous_layout(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    return await select_layout(context, {**flags, "p": ""}, [])
