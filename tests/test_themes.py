"""Themes as a user meets them: the shipped files, other terminals' schemes imported from real
files, and `termhost themes` run as a real process."""

from __future__ import annotations

import json
import os
import plistlib
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termhost import themes
from termhost.themes import Theme, ThemeError
from tests.conftest import BASE_ENV

SHIPPED = [
    "catppuccin-latte", "catppuccin-mocha", "default", "dracula", "gruvbox-dark", "nord",
    "solarized-dark", "solarized-light",
]
ALL_SHIPPED = sorted(path.stem for path in themes.themes_dir().glob("*.json"))
"""termhost's own themes (SHIPPED) and VHS's."""
COLOUR = re.compile(r"#[0-9a-f]{6}")

TOMORROW_NIGHT = [
    "#1d1f21", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#c5c8c6",
    "#969896", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#ffffff",
]
"""base16's Tomorrow Night laid out as base16's shell template lays it on ANSI 0-15."""

BASE16_TOMORROW_NIGHT = """\
# base16 scheme
scheme: "Tomorrow Night"
author: "Chris Kempson (http://chriskempson.com)"
base00: "1d1f21" # background
base01: "282a2e"
base02: "373b41"
base03: "969896"
base04: "b4b7b4"
base05: "c5c8c6"
base06: "e0e0e0"
base07: "ffffff"
base08: "cc6666"
base09: "de935f"
base0A: "f0c674"
base0B: "b5bd68"
base0C: "8abeb7"
base0D: "81a2be"
base0E: "b294bb"
base0F: 'a3685a'
"""


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test has an empty user theme directory of its own, and the shipped themes."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("TERMHOST_THEMES_DIR", raising=False)
    yield tmp_path / "config" / "termhost" / "themes"


def scheme(**changes: object) -> dict[str, object]:
    """A Windows Terminal scheme (the default palette), with keys changed or removed (None)."""
    document: dict[str, object] = json.loads((themes.themes_dir() / "default.json").read_text())
    for key, value in changes.items():
        if value is None:
            document.pop(key, None)
        else:
            document[key] = value
    return document


def write(path: Path, content: str | bytes | dict[str, object]) -> Path:
    if isinstance(content, dict):
        content = json.dumps(content)
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return path


# The shipped themes


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_theme_loads_with_sixteen_colours_and_its_licence(name: str) -> None:
    theme = themes.load_theme(name)
    assert theme.name == name
    assert len(theme.palette) == 16
    colours = [*theme.palette, theme.foreground, theme.background, theme.cursor, theme.selection,
               theme.status_foreground, theme.status_background, theme.border,
               theme.active_border, theme.copy_selection, theme.message_foreground,
               theme.message_background]
    assert all(COLOUR.fullmatch(colour) for colour in colours), colours
    assert theme.license == "MIT"
    assert theme.author and theme.source


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_file_is_exactly_what_saving_its_theme_writes(name: str) -> None:
    path = themes.themes_dir() / f"{name}.json"
    assert themes.theme_to_json(themes.load_theme(name)) == path.read_text()


VHS_THEMES = 337
"""VHS's built-in themes (its themes.json: 348, less those whose names come out the same
as another's, termhost's own first), shipped as termhost's theme files."""


def test_the_list_holds_the_shipped_themes_sorted_by_name() -> None:
    names = [theme.name for theme in themes.list_themes()]
    assert names == sorted(names) and set(SHIPPED) <= set(names)
    assert len(names) == len(SHIPPED) + VHS_THEMES


@pytest.mark.parametrize(("vhs", "file", "background"), [
    ("3024 Day", "3024-day", "#f7f7f7"), ("Catppuccin Frappe", "catppuccin-frappe", None),
    ("TokyoNight", "tokyonight", None), ("Builtin Solarized Dark", "builtin-solarized-dark",
                                         None)])
def test_vhs_s_theme_names_are_shipped(vhs: str, file: str, background: str | None) -> None:
    """Every name VHS knows finds a theme (its themes.json, converted; MIT, with its
    licence in themes/): its file is the name in lower case, hyphened."""
    theme = themes.load_theme(vhs)
    assert theme.name == file and "iTerm2-Color-Schemes" in theme.source
    assert theme.license == "MIT" and theme.author
    if background is not None:
        assert theme.background == background


def test_published_palettes_keep_their_values() -> None:
    dracula = themes.load_theme("dracula")
    assert (dracula.background, dracula.foreground) == ("#282a36", "#f8f8f2")
    assert dracula.palette[1] == "#ff5555" and dracula.palette[9] == "#ff6e6e"
    solarized = themes.load_theme("solarized-dark")
    assert (solarized.background, solarized.foreground) == ("#002b36", "#839496")
    assert themes.load_theme("solarized-light").palette == solarized.palette
    assert themes.load_theme("nord").palette[6] == "#88c0d0"
    assert themes.load_theme("catppuccin-mocha").background == "#1e1e2e"
    assert themes.load_theme("catppuccin-latte").palette[4] == "#1e66f5"
    assert themes.load_theme("gruvbox-dark").palette[11] == "#fabd2f"


# Saving and converting


def test_a_theme_survives_saving_and_loading(tmp_path: Path) -> None:
    for theme in themes.list_themes():
        path = write(tmp_path / "copy.json", themes.theme_to_json(theme))
        assert themes.load_theme(str(path)) == theme


def test_asciicast_header_theme_has_sixteen_colours() -> None:
    header = themes.asciicast_theme(themes.load_theme("nord"))
    assert (header["fg"], header["bg"]) == ("#d8dee9", "#2e3440")
    palette = header["palette"].split(":")
    assert palette == themes.ansi_palette(themes.load_theme("nord"))
    assert len(palette) == 16 and all(COLOUR.fullmatch(colour) for colour in palette)


def test_preview_shows_each_colour_as_a_block_then_the_name() -> None:
    line = themes.preview(themes.load_theme("dracula"))
    assert line.count("\x1b[48;2;") == 17  # sixteen blocks, and the name on the background
    assert "\x1b[48;2;255;85;85m" in line  # dracula's red
    assert "dracula" in line and "\n" not in line
    assert line.endswith("\x1b[0m")


def test_a_windows_terminal_scheme_loads_with_magenta_and_upper_case(tmp_path: Path) -> None:
    ui_keys = ["statusForeground", "statusBackground", "border", "activeBorder",
               "copySelection", "messageForeground", "messageBackground"]
    document = scheme(purple=None, brightPurple=None, magenta="#AA00AA",
                      brightMagenta="#FF55FF", cursorColor=None,
                      **{key: None for key in ui_keys})
    theme = themes.load_theme(str(write(tmp_path / "campbell.json", document)))
    assert (theme.palette[5], theme.palette[13]) == ("#aa00aa", "#ff55ff")
    assert theme.cursor == theme.foreground
    assert theme.status_background == theme.active_border == theme.palette[2]
    assert theme.status_foreground == "#000000"  # black reads better than grey on green
    assert theme.copy_selection == theme.selection
    assert theme.message_background == theme.palette[3]


def test_a_users_theme_hides_the_shipped_one_of_the_same_name(own_config: Path) -> None:
    own_config.mkdir(parents=True)
    write(own_config / "nord.json", scheme(name="nord", author="me"))
    assert themes.load_theme("nord").author == "me"
    assert [theme.name for theme in themes.list_themes()] == ALL_SHIPPED


def test_the_shipped_directory_can_be_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "only.json", scheme(name="only"))
    monkeypatch.setenv("TERMHOST_THEMES_DIR", str(tmp_path))
    assert [theme.name for theme in themes.list_themes()] == ["only"]


# Importing other terminals' schemes


def test_an_iterm2_preset_imports(tmp_path: Path) -> None:
    def colour(hex_colour: str) -> dict[str, object]:
        red, green, blue = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
        return {"Red Component": red, "Green Component": green, "Blue Component": blue,
                "Alpha Component": 1.0, "Color Space": "sRGB"}

    preset = {f"Ansi {index} Color": colour(value) for index, value in enumerate(TOMORROW_NIGHT)}
    preset |= {"Foreground Color": colour("#c5c8c6"), "Background Color": colour("#1d1f21"),
               "Cursor Color": colour("#aeafad"), "Selection Color": colour("#373b41"),
               "Bold Color": colour("#ffffff")}
    path = tmp_path / "Tomorrow Night.itermcolors"
    with path.open("wb") as file:
        plistlib.dump(preset, file)
    theme = themes.import_theme(path)
    assert theme.name == "tomorrow-night"
    assert theme.palette == tuple(TOMORROW_NIGHT)
    assert (theme.foreground, theme.background) == ("#c5c8c6", "#1d1f21")
    assert (theme.cursor, theme.selection) == ("#aeafad", "#373b41")
    assert theme.source == "Tomorrow Night.itermcolors"


def test_a_base16_scheme_imports_as_the_shell_template_maps_it(tmp_path: Path) -> None:
    theme = themes.import_theme(write(tmp_path / "tomorrow-night.yaml", BASE16_TOMORROW_NIGHT))
    assert theme.palette == tuple(TOMORROW_NIGHT)
    assert (theme.foreground, theme.background) == ("#c5c8c6", "#1d1f21")
    assert theme.selection == "#373b41"
    assert theme.author == "Chris Kempson (http://chriskempson.com)"


def test_a_base16_scheme_in_the_newer_nested_layout_imports(tmp_path: Path) -> None:
    slots = [f'  base0{digit}: "{colour}"' for digit, colour in zip(
        "0123456789ABCDEF",
        ["#1d1f21", "#282a2e", "#373b41", "#969896", "#b4b7b4", "#c5c8c6", "#e0e0e0", "#ffffff",
         "#cc6666", "#de935f", "#f0c674", "#b5bd68", "#8abeb7", "#81a2be", "#b294bb", "#a3685a"],
        strict=True,
    )]
    text = "\n".join(['system: "base16"', 'name: "Tomorrow Night"', "palette:", *slots])
    theme = themes.import_theme(write(tmp_path / "t.yml", text), name="tomorrow")
    assert theme.name == "tomorrow"
    assert theme.palette == tuple(TOMORROW_NIGHT)


def test_an_alacritty_scheme_imports(tmp_path: Path) -> None:
    toml = """\
# Tomorrow Night
[colors.primary]
background = '#1d1f21'
foreground = '#c5c8c6'

[colors.cursor]
text = 'CellBackground'
cursor = '0xAEAFAD'

[colors.selection]
text = 'CellForeground'
background = 'CellBackground'

[colors.normal]
black = '#1d1f21'
red = '#cc6666'
green = '#b5bd68'
yellow = '#f0c674'
blue = '#81a2be'
magenta = '#b294bb'
cyan = '#8abeb7'
white = '#c5c8c6'

[colors.bright]
black = '0x969896'
red = '0xcc6666'
green = '0xb5bd68'
yellow = '0xf0c674'
blue = '0x81a2be'
magenta = '0xb294bb'
cyan = '0x8abeb7'
white = '0xffffff'
"""
    theme = themes.import_theme(write(tmp_path / "tomorrow.toml", toml))
    assert theme.palette == tuple(TOMORROW_NIGHT)
    assert (theme.foreground, theme.background, theme.cursor) == ("#c5c8c6", "#1d1f21", "#aeafad")
    assert theme.selection == "#47494a"  # CellBackground: a quarter way to the foreground


def test_a_kitty_scheme_imports_with_its_header(tmp_path: Path) -> None:
    lines = [
        "# vim:ft=kitty", "## name: Tomorrow Night", "## author: Chris Kempson",
        "## license: MIT", "## upstream: https://example.org/tomorrow.conf", "",
        "foreground   #c5c8c6", "background\t#1d1f21", "cursor none",
        "selection_background #373B41", "url_color #81a2be", "active_border_color #b294bb",
        "# color0 #ff0000",
        *(f"color{index} {value}" for index, value in enumerate(TOMORROW_NIGHT)),
    ]
    theme = themes.import_theme(write(tmp_path / "Tomorrow_Night.conf", "\n".join(lines)))
    assert theme.name == "tomorrow-night"
    assert theme.palette == tuple(TOMORROW_NIGHT)
    assert (theme.cursor, theme.selection) == ("#c5c8c6", "#373b41")
    assert (theme.author, theme.license) == ("Chris Kempson", "MIT")
    assert theme.source == "https://example.org/tomorrow.conf"


def test_a_file_without_a_known_extension_is_told_by_its_content(tmp_path: Path) -> None:
    theme = themes.import_theme(write(tmp_path / "tomorrow", BASE16_TOMORROW_NIGHT))
    assert theme.palette == tuple(TOMORROW_NIGHT)


# Bad input: one line that names the file and the problem

KITTY_BAD_COLOUR = "\n".join(
    ["foreground #ffffff", "background #000000", "color3 orange",
     *(f"color{index} #000000" for index in range(16) if index != 3)]
)


@pytest.mark.parametrize(("file", "content", "problem"), [
    ("broken.json", '{"name": "x",\n  "red": }', "not JSON: Expecting value at line 2, column 10"),
    ("list.json", "[1, 2]", "not a theme: the JSON is not an object"),
    ("nored.json", scheme(red=None), "red is missing"),
    ("short.json", scheme(blue="#12345"), "blue is '#12345', not a #rrggbb colour"),
    ("typo.json", scheme(forground="#ffffff"), "unknown key 'forground'"),
    ("both.json", scheme(magenta="#aa00aa"), "both purple and magenta are given; keep one"),
    ("unnamed.json", scheme(name=None), "name is missing"),
])
def test_a_bad_theme_file_is_one_line_naming_file_and_problem(
    tmp_path: Path, file: str, content: str | dict[str, object], problem: str
) -> None:
    with pytest.raises(ThemeError) as caught:
        themes.load_theme(str(write(tmp_path / file, content)))
    assert str(caught.value) == f"{tmp_path / file}: {problem}"


@pytest.mark.parametrize(("file", "content", "problem"), [
    ("theme.yaml", BASE16_TOMORROW_NIGHT.replace('base0D: "81a2be"\n', ""), "base0D is missing"),
    ("theme.yaml", BASE16_TOMORROW_NIGHT.replace("81a2be", "blue"),
     "base0D is 'blue', not a #rrggbb colour"),
    ("theme.yaml", 'scheme: "Unclosed\n', "line 1: the quoted value is not closed"),
    ("theme.yml", "just words\n", "line 1 is not a 'key: value' line"),
    ("theme.conf", KITTY_BAD_COLOUR, "color3 is 'orange', not a #rrggbb colour"),
    ("theme.conf", "foreground #ffffff\n", "background is missing"),
    ("theme.toml", "[colors.primary\n", "not TOML: "),
    ("theme.toml", "[colors.primary]\nbackground = '#000000'\nforeground = '#ffffff'\n",
     "[colors.normal] is missing"),
    ("theme.itermcolors", b"<?xml version='1.0'?><plist><dict><key>", "not a property list"),
    ("theme.itermcolors", plistlib.dumps({"Foreground Color": {"Red Component": 2.0}}),
     "Foreground Color: Red Component is 2.0, not a number from 0 to 1"),
    ("theme.txt", "nothing recognisable\n", "not a colour scheme termhost reads"),
    ("theme.conf", b"\xff\xfe colour", "not UTF-8 text"),
])
def test_a_bad_import_is_one_line_naming_file_and_problem(
    tmp_path: Path, file: str, content: str | bytes, problem: str
) -> None:
    with pytest.raises(ThemeError) as caught:
        themes.import_theme(write(tmp_path / file, content))
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / file}: ") and problem in message
    assert "\n" not in message


def test_an_unknown_theme_name_has_its_close_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ThemeError, match=r"^unknown theme 'nordic' \(did you mean 'nord' or "
                                         r"'nord-light'\?; termhost themes list shows them "
                                         r"all\)$"):
        themes.load_theme("nordic")
    with pytest.raises(ThemeError, match=r"^unknown theme 'Solarized Drak' \(did you mean "
                                         r"'solarized-dark'"):
        themes.load_theme("Solarized Drak")
    for name in ("nord", "dracula"):  # a dozen themes or fewer: all of them named
        write(tmp_path / f"{name}.json", scheme(name=name))
    monkeypatch.setenv("TERMHOST_THEMES_DIR", str(tmp_path))
    with pytest.raises(ThemeError, match=r"^unknown theme 'nordic' \(did you mean 'nord'\?; "
                                         r"known: dracula, nord\)$"):
        themes.load_theme("nordic")


def test_an_unusable_import_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ThemeError, match=r"'\.\./x' is not a usable theme name"):
        themes.import_theme(write(tmp_path / "t.yaml", BASE16_TOMORROW_NIGHT), name="../x")


# Whatever the file holds, the answer is a theme or a ThemeError

KITTY_SCHEME = ["foreground #c5c8c6", "background #1d1f21",
                *(f"color{index} {value}" for index, value in enumerate(TOMORROW_NIGHT))]
KITTY_LINES = ["foreground #ffffff", "background #000000", "cursor none", "color15 #FFFFFF",
               "color0", "selection_background none", "## author:", "#", "color3 #12"]
BASE16_LINES = ['base00: "1d1f21"', "base0D: '81a2be'", "base05: #c5c8c6", "scheme:", "---",
                'author: "x" # y', "base0F: '", ":", "palette:", "  base07: ffffff"]


def files_of(scheme_lines: list[str], samples: list[str]) -> st.SearchStrategy[bytes]:
    """Noise, or a whole scheme with lines of noise shuffled in (some harmless, some not)."""
    noise = st.lists(st.one_of(st.sampled_from(samples), st.text(max_size=20)), max_size=8)
    lines = st.tuples(st.sampled_from([[], scheme_lines]), noise).flatmap(
        lambda parts: st.permutations([*parts[0], *parts[1]])
    )
    return lines.map("\n".join).map(str.encode) | st.binary(max_size=100)


def assert_theme_or_theme_error(load: Callable[[Path], Theme], path: Path) -> None:
    try:
        result = load(path)
    except ThemeError as error:
        assert str(path) in str(error) and "\n" not in str(error)
    else:
        assert isinstance(result, Theme) and len(result.palette) == 16


def import_from(path: Path) -> Theme:
    return themes.import_theme(path)


def load_from(path: Path) -> Theme:
    return themes.load_theme(str(path))


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory for every example of a property test (function fixtures would be shared)."""
    return tmp_path_factory.mktemp("examples")


EXAMPLES = settings(
    max_examples=150, deadline=None,
    # own_config only points $XDG_CONFIG_HOME at an empty directory: the same for every example
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@EXAMPLES
@given(data=files_of(KITTY_SCHEME, KITTY_LINES))
def test_any_kitty_text_gives_a_theme_or_a_theme_error(scratch: Path, data: bytes) -> None:
    assert_theme_or_theme_error(import_from, write(scratch / "any.conf", data))


@EXAMPLES
@given(data=files_of(BASE16_TOMORROW_NIGHT.splitlines(), BASE16_LINES))
def test_any_base16_text_gives_a_theme_or_a_theme_error(scratch: Path, data: bytes) -> None:
    assert_theme_or_theme_error(import_from, write(scratch / "any.yaml", data))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.from_regex(r"#[0-9a-fA-F]{5,7}", fullmatch=True),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6,
)
theme_keys = st.sampled_from(sorted(scheme())) | st.sampled_from(["magenta", "brightMagenta"])


@EXAMPLES
@given(
    changes=st.dictionaries(theme_keys | st.text(max_size=8), json_values, max_size=4),
    removed=st.sets(theme_keys, max_size=3),
    whole=st.none() | json_values,
)
def test_any_json_gives_a_theme_or_a_theme_error(
    scratch: Path, changes: dict[str, object], removed: set[str], whole: object
) -> None:
    document = scheme(**dict.fromkeys(removed)) | changes if whole is None else whole
    assert_theme_or_theme_error(load_from, write(scratch / "any.json", json.dumps(document)))


# `termhost themes`, run as a user runs it


def termhost_themes(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**BASE_ENV, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config")}
    return subprocess.run([sys.executable, "-m", "termhost", "themes", *args], env=env,
                          cwd=home, capture_output=True, text=True, timeout=30)


def test_themes_lists_the_shipped_themes_by_name(tmp_path: Path) -> None:
    done = termhost_themes(tmp_path)
    assert (done.returncode, done.stdout.split(), done.stderr) == (0, ALL_SHIPPED, "")
    assert termhost_themes(tmp_path, "list").stdout == done.stdout


def test_themes_in_colour_shows_every_palette(tmp_path: Path) -> None:
    done = termhost_themes(tmp_path, "--color", "always")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == len(ALL_SHIPPED)
    assert all(line.endswith("\x1b[0m") and line.count("\x1b[48;2;") == 17 for line in lines)


def test_import_writes_the_users_theme_and_will_not_replace_it_unasked(tmp_path: Path) -> None:
    scheme_file = write(tmp_path / "my-tomorrow.yaml", BASE16_TOMORROW_NIGHT)
    target = tmp_path / "config" / "termhost" / "themes" / "my-tomorrow.json"

    done = termhost_themes(tmp_path, "import", str(scheme_file))
    assert done.returncode == 0 and str(target) in done.stdout, done.stderr
    assert json.loads(target.read_text())["blue"] == "#81a2be"
    assert "my-tomorrow" in termhost_themes(tmp_path).stdout.split()

    again = termhost_themes(tmp_path, "import", str(scheme_file))
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr.startswith("termhost themes: theme 'my-tomorrow' exists (")
    assert again.stderr.count("\n") == 1

    forced = termhost_themes(tmp_path, "import", str(scheme_file), "--force")
    assert forced.returncode == 0, forced.stderr


def test_importing_over_a_shipped_theme_needs_force_too(tmp_path: Path) -> None:
    scheme_file = write(tmp_path / "t.yaml", BASE16_TOMORROW_NIGHT)
    done = termhost_themes(tmp_path, "import", str(scheme_file), "--name", "nord")
    assert done.returncode == 1 and "theme 'nord' exists" in done.stderr
    forced = termhost_themes(tmp_path, "import", str(scheme_file), "--name", "nord", "--force")
    assert forced.returncode == 0, forced.stderr
    shown = json.loads(termhost_themes(tmp_path, "show", "nord").stdout)
    assert shown["background"] == "#1d1f21"


def test_show_prints_the_themes_json(tmp_path: Path) -> None:
    done = termhost_themes(tmp_path, "show", "gruvbox-dark")
    assert done.returncode == 0
    assert done.stdout == (themes.themes_dir() / "gruvbox-dark.json").read_text()
    assert json.loads(done.stdout)["name"] == "gruvbox-dark"


@pytest.mark.parametrize(("args", "status", "error"), [
    (("show", "nordic"), 1, "termhost themes: unknown theme 'nordic' (did you mean 'nord' "
                            "or 'nord-light'?; termhost themes list shows them all)"),
    (("import", "missing.yaml"), 1, "termhost themes: missing.yaml: No such file or directory"),
    (("frobnicate",), 2, "termhost themes: argument {list,show,import}: invalid choice"),
    (("show",), 2, "termhost themes show: the following arguments are required: NAME"),
])
def test_a_failure_is_one_line_on_stderr(
    tmp_path: Path, args: tuple[str, ...], status: int, error: str
) -> None:
    done = termhost_themes(tmp_path, *args)
    assert (done.returncode, done.stdout) == (status, "")
    assert done.stderr.startswith(error) and done.stderr.count("\n") == 1, done.stderr
    assert os.listdir(tmp_path) == []  # a failed command leaves nothing behind


@pytest.mark.parametrize(("vhs", "ours"), [("Catppuccin Latte", "catppuccin-latte"),
                                           ("Dracula", "dracula"), ("Nord", "nord"),
                                           ("Solarized Dark", "solarized-dark")])
def test_a_theme_named_as_vhs_names_it(vhs: str, ours: str) -> None:
    """VHS's theme names (iTerm2-Color-Schemes', capitalised, with spaces) find the
    shipped file of the lower-case, hyphened name."""
    assert themes.load_theme(vhs) == themes.load_theme(ours)
