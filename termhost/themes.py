"""Colour themes: one JSON file per theme, shared by the TUI, screenshots and asciicast headers.

A theme file is a flat JSON object in the Windows Terminal colour-scheme format, so a scheme
copied out of Windows Terminal's settings (or from the many collections written in it) loads
as it is:

- `name`, `foreground`, `background` and the sixteen ANSI colours `black red green yellow blue
  purple cyan white brightBlack brightRed brightGreen brightYellow brightBlue brightPurple
  brightCyan brightWhite` are required (`magenta`/`brightMagenta` are read as `purple`/
  `brightPurple`, the names most other terminals use);
- `cursorColor` (default: the foreground) and `selectionBackground` (default: a quarter of
  the way from the background to the foreground) are optional, as in Windows Terminal;
- `author`, `source` (where the palette is published) and `license` record where a palette
  came from, so that a shipped theme carries its own licence.

termhost adds the colours of its own screen, each optional; a missing one is derived from the
palette the way tmux's defaults look (a green status bar, yellow messages), so an imported or
hand-written scheme is complete without them:

- `statusForeground`, `statusBackground`: the status line (default: green, with whichever of
  background and foreground reads better on it);
- `border`, `activeBorder`: pane borders, and the active pane's (default: bright black, or
  halfway from background to foreground where bright black is the background; green);
- `copySelection`: the background of the selection in copy mode (default: the scheme's
  `selectionBackground`, which its author chose to keep every colour of text readable);
- `messageForeground`, `messageBackground`: a message or prompt on the status line
  (`display-message`, errors; default: yellow, with the better-reading of background and
  foreground on it).

Every colour is `#rrggbb`; upper case is accepted and written back lower case. Unknown keys are
refused rather than ignored, so that a misspelt optional key is not silently dropped.

Themes come from the user's directory (`$XDG_CONFIG_HOME/termhost/themes/`, by default
`~/.config/termhost/themes/`; `termhost themes import` writes there) and then from the
`themes/` directory shipped at the top of the repository; a user's theme hides a shipped one
of the same name. A theme's name on the command line is its file's name without `.json`.
"""

from __future__ import annotations

import difflib
import json
import os
import plistlib
import re
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ANSI_KEYS",
    "Theme",
    "ThemeError",
    "ansi_palette",
    "asciicast_theme",
    "find_theme_file",
    "import_theme",
    "list_themes",
    "load_theme",
    "preview",
    "theme_to_json",
    "themes_dir",
    "unknown_theme",
    "user_themes_dir",
    "vhs_theme",
]

ANSI_KEYS = (
    "black", "red", "green", "yellow", "blue", "purple", "cyan", "white",
    "brightBlack", "brightRed", "brightGreen", "brightYellow",
    "brightBlue", "brightPurple", "brightCyan", "brightWhite",
)
"""The sixteen palette keys in ANSI order: SGR 30-37 then 90-97."""

_ALIASES = {"magenta": "purple", "brightMagenta": "brightPurple"}

_TEXT_KEYS = ("author", "source", "license")

_UI_KEYS = (
    "statusForeground", "statusBackground", "border", "activeBorder", "copySelection",
    "messageForeground", "messageBackground",
)

_KNOWN_KEYS = frozenset(
    {"name", "foreground", "background", "cursorColor", "selectionBackground",
     *ANSI_KEYS, *_ALIASES, *_TEXT_KEYS, *_UI_KEYS}
)

_HEX_DIGITS = re.compile(r"[0-9a-fA-F]{6}")

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
"""A name that is also a safe file name: it becomes `NAME.json` in the user's directory."""


class ThemeError(Exception):
    """A theme that cannot be found, read or understood; the message is one line naming it."""


@dataclass(frozen=True)
class Theme:
    """A complete theme: every colour resolved, the optional ones derived if the file had none."""

    name: str
    foreground: str
    background: str
    cursor: str
    selection: str
    palette: tuple[str, ...]
    """Sixteen `#rrggbb` colours in ANSI order: black..white, then brightBlack..brightWhite."""
    status_foreground: str
    status_background: str
    border: str
    active_border: str
    copy_selection: str
    message_foreground: str
    message_background: str
    author: str = ""
    source: str = ""
    license: str = ""


# Where themes live


def themes_dir() -> Path:
    """The shipped themes: `themes/` beside the package (a checkout, installed editable),
    else where a wheel installs them (`share/termhost/themes` under the environment).

    `$TERMHOST_THEMES_DIR` points elsewhere, for an installation that moved the files.
    """
    override = os.environ.get("TERMHOST_THEMES_DIR")
    if override:
        return Path(override).expanduser()
    beside = Path(__file__).resolve().parent.parent / "themes"
    if beside.is_dir():
        return beside
    return Path(sys.prefix) / "share" / "termhost" / "themes"


def user_themes_dir() -> Path:
    """The user's own themes, searched first; a relative $XDG_CONFIG_HOME is ignored (XDG)."""
    config = os.environ.get("XDG_CONFIG_HOME", "")
    base = Path(config) if os.path.isabs(config) else Path.home() / ".config"
    return base / "termhost" / "themes"


def _theme_files() -> dict[str, Path]:
    """Every theme by name; the user's directory is read last so that its files win."""
    found: dict[str, Path] = {}
    for directory in (themes_dir(), user_themes_dir()):
        if directory.is_dir():
            for path in sorted(directory.glob("*.json")):
                found[path.stem] = path
    return found


# Loading


def find_theme_file(name: str) -> Path | None:
    """The file `load_theme(name)` reads: the user's if there is one, else the shipped one;
    a name as VHS writes it (`Catppuccin Latte`) finds the file of its lower-case, hyphened
    form (`catppuccin-latte`)."""
    files = _theme_files()
    return files.get(name) or files.get(_slug(name))


def load_theme(name_or_path: str) -> Theme:
    """A theme by name (`nord`) or by the path of a JSON file (`./mine.json`)."""
    if "/" in name_or_path or name_or_path.endswith(".json"):
        return _load_file(Path(name_or_path))
    path = find_theme_file(name_or_path)
    if path is None:
        raise ThemeError(unknown_theme(name_or_path))
    return _load_file(path)


_LISTED = 12
"""Up to this many themes, an unknown name's message lists them all; past it, the close
matches, and `termhost themes list` for the rest."""


def unknown_theme(name: str) -> str:
    """One line for a theme name no file has: the close matches (as `find_theme_file`
    would spell VHS's names), and the names there are while they are few."""
    names = sorted(_theme_files())
    close = difflib.get_close_matches(_slug(name), names, n=3, cutoff=0.6)
    parts = [f"did you mean {' or '.join(repr(each) for each in close)}?"] if close else []
    if len(names) <= _LISTED:
        parts.append(f"known: {', '.join(names) or 'none'}")
    else:
        parts.append("termhost themes list shows them all")
    return f"unknown theme {name!r} ({'; '.join(parts)})"


def _slug(name: str) -> str:
    """A theme's name as its file is named: VHS's `Catppuccin Latte` is catppuccin-latte
    (lower case; a run of anything but letters, digits and dots, one hyphen)."""
    return re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-.")


def vhs_theme(text: str) -> Theme:
    """A theme written as VHS writes one in a tape (`Set Theme {"name": ...}`: xterm.js's
    keys, `cursor`, `selection`, `magenta`); VHS's keys it has no use for (`cursorAccent`,
    `meta`) are let through, and a theme without a name is "custom"."""
    data = _json_object(text, "the JSON theme")
    renamed = {"cursor": "cursorColor", "selection": "selectionBackground"}
    ignored = {"cursorAccent", "meta"}
    converted = {renamed.get(key, key): value for key, value in data.items()
                 if key not in ignored}
    converted.setdefault("name", "custom")
    return _theme_from_mapping(converted, "the JSON theme")


def list_themes() -> list[Theme]:
    """Every theme that `load_theme` can find by name, sorted by name."""
    return sorted((_load_file(path) for path in _theme_files().values()), key=lambda t: t.name)


def _load_file(path: Path) -> Theme:
    return _theme_from_mapping(_json_object(_read_text(path), str(path)), str(path))


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ThemeError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise ThemeError(f"{path}: {error.strerror or error}") from None


def _json_object(text: str, where: str) -> dict[str, object]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ThemeError(
            f"{where}: not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise ThemeError(f"{where}: not a theme: nested too deeply") from None
    if not isinstance(data, dict):
        raise ThemeError(f"{where}: not a theme: the JSON is not an object")
    return data


def _theme_from_mapping(data: Mapping[str, object], where: str) -> Theme:
    """Validate a flat theme object and fill in the optional colours it leaves out."""
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise ThemeError(f"{where}: unknown key {unknown[0]!r}")
    name = data.get("name")
    if name is None:
        raise ThemeError(f"{where}: name is missing")
    if not isinstance(name, str) or not name:
        raise ThemeError(f"{where}: name must be a non-empty string, not {name!r}")
    text: dict[str, str] = {}
    for key in _TEXT_KEYS:
        value = data.get(key, "")
        if not isinstance(value, str):
            raise ThemeError(f"{where}: {key} must be a string, not {value!r}")
        text[key] = value

    def colour(key: str) -> str:
        for alias, canonical in _ALIASES.items():
            if canonical == key and alias in data:
                if key in data:
                    raise ThemeError(f"{where}: both {key} and {alias} are given; keep one")
                key = alias
        if key not in data:
            raise ThemeError(f"{where}: {key} is missing")
        return _colour(data[key], key, where)

    def optional(key: str, default: str) -> str:
        return colour(key) if key in data else default

    foreground, background = colour("foreground"), colour("background")
    palette = tuple(colour(key) for key in ANSI_KEYS)
    selection = optional("selectionBackground", _mix(background, foreground, 0.25))
    ui = _ui_defaults(foreground, background, selection, palette)
    return Theme(
        name=name,
        foreground=foreground,
        background=background,
        cursor=optional("cursorColor", foreground),
        selection=selection,
        palette=palette,
        status_foreground=optional("statusForeground", ui["statusForeground"]),
        status_background=optional("statusBackground", ui["statusBackground"]),
        border=optional("border", ui["border"]),
        active_border=optional("activeBorder", ui["activeBorder"]),
        copy_selection=optional("copySelection", ui["copySelection"]),
        message_foreground=optional("messageForeground", ui["messageForeground"]),
        message_background=optional("messageBackground", ui["messageBackground"]),
        author=text["author"],
        source=text["source"],
        license=text["license"],
    )


def _colour(value: object, key: str, where: str, prefixes: tuple[str, ...] = ("#",)) -> str:
    """`value` as `#rrggbb`. `prefixes` are what a format may write before the six digits
    (base16 nothing, alacritty `0x`); an error quotes the value as the file has it."""
    if isinstance(value, str):
        for prefix in prefixes:
            digits = value[len(prefix):]
            if value[:len(prefix)].lower() == prefix and _HEX_DIGITS.fullmatch(digits):
                return "#" + digits.lower()
    raise ThemeError(f"{where}: {key} is {value!r}, not a #rrggbb colour")


def _ui_defaults(
    foreground: str, background: str, selection: str, palette: tuple[str, ...]
) -> dict[str, str]:
    """termhost's own colours for a scheme that does not give them: tmux's look, in its palette."""
    green, yellow, grey = palette[2], palette[3], palette[8]
    if _contrast(grey, background) < 1.5:  # Solarized's bright black is its background
        grey = _mix(background, foreground, 0.5)
    return {
        "statusBackground": green,
        "statusForeground": _readable_on(green, background, foreground),
        "border": grey,
        "activeBorder": green,
        "copySelection": selection,
        "messageBackground": yellow,
        "messageForeground": _readable_on(yellow, background, foreground),
    }


# Colour arithmetic


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _hex(red: float, green: float, blue: float) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c))):02x}" for c in (red, green, blue))


def _mix(start: str, end: str, share: float) -> str:
    """The colour `share` of the way from `start` to `end`."""
    pairs = zip(_rgb(start), _rgb(end), strict=True)
    red, green, blue = (a + (b - a) * share for a, b in pairs)
    return _hex(red, green, blue)


def _luminance(colour: str) -> float:
    """Relative luminance as WCAG 2 defines it (sRGB channels linearised)."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
              for c in (channel / 255 for channel in _rgb(colour))]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one: str, other: str) -> float:
    """The WCAG 2 contrast ratio: 1 for the same colour, 21 for black on white."""
    lighter, darker = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _readable_on(backdrop: str, *candidates: str) -> str:
    """The candidate that stands out most against `backdrop`."""
    return max(candidates, key=lambda colour: _contrast(colour, backdrop))


# Writing and converting


def theme_to_json(theme: Theme) -> str:
    """The theme as a file: every key, in one fixed order, so that saving is reproducible."""
    document: dict[str, str] = {
        "name": theme.name,
        "author": theme.author,
        "source": theme.source,
        "license": theme.license,
        "foreground": theme.foreground,
        "background": theme.background,
        "cursorColor": theme.cursor,
        "selectionBackground": theme.selection,
        **dict(zip(ANSI_KEYS, theme.palette, strict=True)),
        "statusForeground": theme.status_foreground,
        "statusBackground": theme.status_background,
        "border": theme.border,
        "activeBorder": theme.active_border,
        "copySelection": theme.copy_selection,
        "messageForeground": theme.message_foreground,
        "messageBackground": theme.message_background,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def ansi_palette(theme: Theme) -> list[str]:
    """The sixteen colours in ANSI order, for whatever numbers colours 0-15."""
    return list(theme.palette)


def asciicast_theme(theme: Theme) -> dict[str, str]:
    """The `theme` object of an asciicast header (v2 and v3 spell it the same way)."""
    return {"fg": theme.foreground, "bg": theme.background, "palette": ":".join(theme.palette)}


def _sgr(parameter: int, colour: str) -> str:
    """SGR 38;2 / 48;2 (ISO 8613-6 direct colour): `colour` as the fore- or background."""
    red, green, blue = _rgb(colour)
    return f"\x1b[{parameter};2;{red};{green};{blue}m"


def preview(theme: Theme) -> str:
    """One line for a colour terminal: the sixteen colours as blocks, then the name in the
    theme's own foreground and background (24-bit SGR, so no palette of the host interferes)."""
    blocks = "".join(f"{_sgr(48, colour)}  " for colour in theme.palette)
    label = f"{_sgr(38, theme.foreground)}{_sgr(48, theme.background)} {theme.name} "
    return f"{blocks}{label}\x1b[0m"


# Importing other terminals' formats

_Importer = Callable[[bytes, str], dict[str, object]]
"""Turns one format's file into a flat theme object, naming the file as `where` in errors."""


def import_theme(path: Path, name: str | None = None) -> Theme:
    """Read another terminal's colour scheme as a theme called `name` (default: the file's name).

    The format is told by the extension (`.itermcolors`, base16 `.yaml`/`.yml`, alacritty
    `.toml`, kitty `.conf`, Windows Terminal `.json`), or by the content when that says nothing.
    """
    where = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ThemeError(f"{where}: {error.strerror or error}") from None
    importer = _IMPORTERS.get(path.suffix.lower()) or _sniff(data)
    if importer is None:
        raise ThemeError(
            f"{where}: not a colour scheme termhost reads "
            "(.itermcolors, base16 .yaml, alacritty .toml, kitty .conf, .json)"
        )
    mapping = importer(data, where)
    mapping["name"] = _import_name(path, name)
    mapping.setdefault("source", path.name)
    return _theme_from_mapping(mapping, where)


def _import_name(path: Path, name: str | None) -> str:
    if name is not None:
        if not _NAME.fullmatch(name):
            raise ThemeError(
                f"{name!r} is not a usable theme name (letters, digits, '.', '_', '-')"
            )
        return name
    slug = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")
    if not slug:
        raise ThemeError(f"{path.name}: cannot make a theme name of it; give one with --name")
    return slug


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ThemeError(f"{where}: not UTF-8 text") from None


def _first_line(error: Exception) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0]


def _from_json(data: bytes, where: str) -> dict[str, object]:
    """A Windows Terminal scheme or another termhost theme: taken as it is, renamed."""
    return _json_object(_decode(data, where), where)


def _from_itermcolors(data: bytes, where: str) -> dict[str, object]:
    """iTerm2's property list: each colour a dict of 0..1 components.

    The components are taken as sRGB whatever their "Color Space" says: the difference from a
    Display P3 conversion is a few levels per channel, not worth a colour-management engine.
    """
    try:
        plist = plistlib.loads(data)
    except Exception as error:  # plistlib raises whatever its XML or binary reader meets
        raise ThemeError(f"{where}: not a property list: {_first_line(error)}") from None
    if not isinstance(plist, dict):
        raise ThemeError(f"{where}: not an iTerm2 colour preset: the property list is no dict")

    def colour(key: str) -> str | None:
        entry = plist.get(key)
        if entry is None:
            return None
        if not isinstance(entry, dict):
            raise ThemeError(f"{where}: {key} is not a colour dictionary")
        channels = []
        for channel in ("Red", "Green", "Blue"):
            value = entry.get(f"{channel} Component")
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ThemeError(
                    f"{where}: {key}: {channel} Component is {value!r}, not a number from 0 to 1"
                )
            channels.append(value * 255)
        return _hex(*channels)

    def required(key: str) -> str:
        found = colour(key)
        if found is None:
            raise ThemeError(f"{where}: {key} is missing")
        return found

    mapping: dict[str, object] = {
        "foreground": required("Foreground Color"),
        "background": required("Background Color"),
        **{key: required(f"Ansi {index} Color") for index, key in enumerate(ANSI_KEYS)},
    }
    optional = (("Cursor Color", "cursorColor"), ("Selection Color", "selectionBackground"))
    for key, wanted in optional:
        found = colour(key)
        if found is not None:
            mapping[wanted] = found
    return mapping


_BASE16_ANSI = (
    "base00", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base05",
    "base03", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base07",
)
"""base16's slots for ANSI 0-15, as its shell template sets them: only black and white brighten."""


def _from_base16(data: bytes, where: str) -> dict[str, object]:
    """A base16 scheme: YAML, but only the flat `key: "value"` lines base16 schemes use.

    The newer layout that nests the slots under `palette:` and writes `#` before each value is
    read too, since indentation is ignored.
    """
    values = {key.lower(): value for key, value in _flat_yaml(_decode(data, where), where).items()}

    def slot(key: str) -> str:
        value = values.get(key.lower())
        if value is None:
            raise ThemeError(f"{where}: {key} is missing")
        return _colour(value, key, where, ("", "#"))

    mapping: dict[str, object] = {
        "foreground": slot("base05"),
        "background": slot("base00"),
        "cursorColor": slot("base05"),
        "selectionBackground": slot("base02"),
        **{key: slot(base) for key, base in zip(ANSI_KEYS, _BASE16_ANSI, strict=True)},
    }
    if values.get("author"):
        mapping["author"] = values["author"]
    return mapping


def _flat_yaml(text: str, where: str) -> dict[str, str]:
    """`key: value` lines, the value bare or in quotes; `#` comments; blank lines and `---`."""
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped == "---":
            continue
        key, colon, rest = stripped.partition(":")
        key = key.strip().strip("\"'")
        if not colon or not key:
            raise ThemeError(f"{where}: line {number} is not a 'key: value' line")
        rest = rest.strip()
        if rest[:1] in ("'", '"'):
            end = rest.find(rest[0], 1)
            if end < 0:
                raise ThemeError(f"{where}: line {number}: the quoted value is not closed")
            values[key] = rest[1:end]
        else:
            values[key] = rest.split(" #", 1)[0].strip()
    return values


def _from_alacritty(data: bytes, where: str) -> dict[str, object]:
    """alacritty's `[colors.*]` tables; colours are written `#rrggbb` or `0xrrggbb`."""
    try:
        document = tomllib.loads(_decode(data, where))
    except tomllib.TOMLDecodeError as error:
        raise ThemeError(f"{where}: not TOML: {_first_line(error)}") from None

    def table(parent: Mapping[str, object], key: str, label: str) -> Mapping[str, object] | None:
        found = parent.get(key)
        if found is None:
            return None
        if not isinstance(found, dict):
            raise ThemeError(f"{where}: {label} is not a table")
        return found

    def required_table(parent: Mapping[str, object], key: str, label: str) -> Mapping[str, object]:
        found = table(parent, key, label)
        if found is None:
            raise ThemeError(f"{where}: [{label}] is missing")
        return found

    def colour(section: Mapping[str, object], key: str, label: str) -> str:
        value = section.get(key)
        if value is None:
            raise ThemeError(f"{where}: {label} is missing")
        return _colour(value, label, where, ("#", "0x"))

    colors = required_table(document, "colors", "colors")
    primary = required_table(colors, "primary", "colors.primary")
    normal = required_table(colors, "normal", "colors.normal")
    bright = required_table(colors, "bright", "colors.bright")
    names = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
    mapping: dict[str, object] = {
        "foreground": colour(primary, "foreground", "colors.primary.foreground"),
        "background": colour(primary, "background", "colors.primary.background"),
        **{key: colour(normal, name, f"colors.normal.{name}")
           for key, name in zip(ANSI_KEYS[:8], names, strict=True)},
        **{key: colour(bright, name, f"colors.bright.{name}")
           for key, name in zip(ANSI_KEYS[8:], names, strict=True)},
    }
    # A cursor or selection given as CellForeground/CellBackground follows the cell under
    # it; the scheme's defaults stand in for that.
    for section_key, key, wanted in (("cursor", "cursor", "cursorColor"),
                                     ("selection", "background", "selectionBackground")):
        section = table(colors, section_key, f"colors.{section_key}")
        value = None if section is None else section.get(key)
        if value is not None and not (isinstance(value, str) and value.startswith("Cell")):
            mapping[wanted] = _colour(value, f"colors.{section_key}.{key}", where, ("#", "0x"))
    return mapping


_KITTY_KEYS = {
    "foreground": "foreground", "background": "background", "cursor": "cursorColor",
    "selection_background": "selectionBackground",
    **{f"color{index}": key for index, key in enumerate(ANSI_KEYS)},
}

_KITTY_METADATA = re.compile(r"##\s*(author|license|upstream)\s*:\s*(\S.*)")
"""The header kitty-themes files carry: `## author: ...`, `## license: ...`, `## upstream: ...`."""


def _from_kitty(data: bytes, where: str) -> dict[str, object]:
    """kitty.conf lines `key value`; settings other than colours are skipped, as kitty's
    `include` of a theme file would apply them elsewhere."""
    mapping: dict[str, object] = {}
    for line in _decode(data, where).splitlines():
        stripped = line.strip()
        metadata = _KITTY_METADATA.match(stripped)
        if metadata:
            field = {"upstream": "source"}.get(metadata[1], metadata[1])
            mapping[field] = metadata[2].strip()
            continue
        if not stripped or stripped.startswith("#"):
            continue
        key, *rest = stripped.split(maxsplit=1)
        wanted = _KITTY_KEYS.get(key)
        if wanted is None:
            continue
        value = rest[0] if rest else ""
        if value == "none" and wanted in ("cursorColor", "selectionBackground"):
            mapping.pop(wanted, None)  # kitty's "none": follow the text, i.e. the defaults
            continue
        mapping[wanted] = _colour(value, key, where)
    for key, wanted in _KITTY_KEYS.items():
        if wanted not in mapping and wanted not in ("cursorColor", "selectionBackground"):
            raise ThemeError(f"{where}: {key} is missing")
    return mapping


_IMPORTERS: dict[str, _Importer] = {
    ".itermcolors": _from_itermcolors,
    ".yaml": _from_base16,
    ".yml": _from_base16,
    ".toml": _from_alacritty,
    ".conf": _from_kitty,
    ".json": _from_json,
}


def _sniff(data: bytes) -> _Importer | None:
    """The format of a file whose extension does not say, from what it starts with or holds."""
    head = data.lstrip()[:64]
    if data.startswith(b"bplist") or head.startswith((b"<?xml", b"<!DOCTYPE plist", b"<plist")):
        return _from_itermcolors
    if head.startswith(b"{"):
        return _from_json
    if re.search(rb"^\s*\[colors", data, re.MULTILINE):
        return _from_alacritty
    if re.search(rb"^\s*base0[0-9a-fA-F]\s*:", data, re.MULTILINE):
        return _from_base16
    if re.search(rb"^\s*color\d+\s", data, re.MULTILINE):
        return _from_kitty
    return None
