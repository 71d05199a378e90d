"""tmux's names for the keys a client's terminal sends, as prompt_toolkit parses them.

Bindings, prompts, views and copy mode all take keys by these names ("d", "C-b", "Up",
"M-x", "PageUp"), so a key is named once here and the modes never see prompt_toolkit's
own names.
"""

from __future__ import annotations

from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys

from termhost.mux.pane import Pane
from termhost.terminal.keys import KeyModes, encode_key

__all__ = ["SPECIAL_KEYS", "key_bytes", "key_modes", "key_name", "with_meta"]

SPECIAL_KEYS = {
    Keys.Up: "Up", Keys.Down: "Down", Keys.Left: "Left", Keys.Right: "Right",
    Keys.Home: "Home", Keys.End: "End", Keys.PageUp: "PageUp", Keys.PageDown: "PageDown",
    Keys.Insert: "IC", Keys.Delete: "DC", Keys.BackTab: "BTab",
    Keys.ControlUp: "C-Up", Keys.ControlDown: "C-Down", Keys.ControlLeft: "C-Left",
    Keys.ControlRight: "C-Right",
    **{getattr(Keys, f"F{n}"): f"F{n}" for n in range(1, 13)},
}
"""prompt_toolkit's keys that have a tmux name of their own (send-keys' names)."""


def key_name(press: KeyPress) -> str:
    """The tmux name of a parsed key: "d", "C-b", "Up"..."""
    key = press.key
    if not isinstance(key, Keys):
        return key
    if key in SPECIAL_KEYS:
        return SPECIAL_KEYS[key]
    value = key.value
    if value.startswith("c-") and len(value) == 3:
        return "C-" + value[2]
    return value


def with_meta(pressed: list[KeyPress]) -> list[tuple[KeyPress, str]]:
    """Each key with its tmux name. Escape followed, in the same read, by a character
    is that character with Meta (Alt), tmux's `M-x`: a terminal sends Alt+x as ESC x,
    and ESC x is what a pane gets for it."""
    keys: list[tuple[KeyPress, str]] = []
    for press in pressed:
        if keys and keys[-1][0].key is Keys.Escape and not isinstance(press.key, Keys):
            keys[-1] = (KeyPress(press.key, "\x1b" + press.data), f"M-{press.key}")
        else:
            keys.append((press, key_name(press)))
    return keys


def key_modes(pane: Pane) -> KeyModes:
    """How `pane`'s application wants keys encoded (DECCKM, DECKPAM, bracketed paste)."""
    screen = pane.terminal.screen
    return KeyModes(
        application_cursor=screen.application_cursor,
        application_keypad=screen.application_keypad,
        bracketed_paste=screen.bracketed_paste,
    )


def key_bytes(pane: Pane, key: Keys | str, data: str) -> bytes:
    """What `pane`'s program reads for a parsed key: a special key encoded for its modes
    (DECCKM...), anything else as the terminal sent it."""
    name = SPECIAL_KEYS.get(key) if isinstance(key, Keys) else None
    if name is not None:
        return encode_key(name, key_modes(pane))
    return data.encode("utf-8", "surrogateescape")
