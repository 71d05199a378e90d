"""The tape parser: what each line means, and what a user sees for each mistake."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.record.tape import (
    MAX_ERRORS,
    MAX_SOURCE_DEPTH,
    Copy,
    Diagnostic,
    Env,
    Expect,
    Hide,
    Key,
    Marker,
    Output,
    Paste,
    Require,
    Resize,
    Screenshot,
    Scroll,
    Set,
    Settings,
    Show,
    Sleep,
    Tape,
    TapeError,
    Type,
    Wait,
    parse,
    parse_file,
)
from termhost.render.geometry import Look, grid
from termhost.themes import Theme

F = "demo.tape"


class Where(TypedDict):
    file: str
    line: int
    column: int


def at(line: int, column: int = 1, file: str = F) -> Where:
    """The Located fields of a command written in `file` at line:column."""
    return {"file": file, "line": line, "column": column}


def only(text: str) -> object:
    """The one command a tape of one line (after any settings) runs."""
    (command,) = parse(text, F).commands
    return command


def error(text: str, file: str = F) -> str:
    with pytest.raises(TapeError) as caught:
        parse(text, file)
    return str(caught.value)


# Settings and declarations


def test_defaults_when_nothing_is_set() -> None:
    """VHS's defaults: a 1200x600 picture, FontSize 22 and Padding 60 hold 76x15 cells
    (geometry.py; VHS's own default-settings golden screens have 15 rows)."""
    tape = parse("", F)
    assert tape == Tape(settings=Settings(), env={}, outputs=(), requires=(), commands=())
    assert tape.settings == Settings(
        shell=None,
        width=76,
        height=15,
        typing_speed=0.05,
        wait_timeout=15.0,
        wait_pattern=re.compile(">$"),
        theme="default",
    )
    assert tape.settings.look == Look(1200, 600, 22, 1.0, 1.0, 60, 0, "", 30)


def test_every_setting_with_its_parsed_value() -> None:
    tape = parse(
        "Set Shell 'bash --norc'\n"
        "Set Width 1400\n"
        "Set Height 800\n"
        "Set TypingSpeed 10ms\n"
        "Set WaitTimeout 1m\n"
        "Set WaitPattern /\\$ $/\n"
        'Set Theme "nord"\n'
        "Set FontSize 28 Set FontFamily 'Hack' Set LetterSpacing 0.5 Set LineHeight 1.2\n"
        "Set Padding 30 Set Margin 20 Set MarginFill '#674EFF' Set WindowBar Colorful\n"
        "Set WindowBarSize 40 Set BorderRadius 8 Set CursorBlink false Set Framerate 24\n"
        "Set PlaybackSpeed 0.5 Set LoopOffset 20%\n",
        F,
    )
    look = Look(1400, 800, 28, 0.5, 1.2, 30, 20, "Colorful", 40)
    # a 17 x 44 cell: 28 x 0.6 = 16.8 floored, 0.5 rounded up; 28 x 1.32 = 36.96 up, x 1.2
    assert tape.settings == Settings(
        "bash --norc", (1400 - 100 - 10) // 17, (800 - 100 - 40 - 10) // 44, 0.01, 60.0,
        re.compile(r"\$ $"), "nord", look, None, None, 24, 0.5, 20.0, False, 8, "#674EFF",
        "Hack",
    )
    assert [(each.setting, each.value) for each in tape.declarations[:7]] == [
        ("Shell", "bash --norc"), ("Width", 1400), ("Height", 800), ("TypingSpeed", 0.01),
        ("WaitTimeout", 60.0), ("WaitPattern", re.compile(r"\$ $")), ("Theme", "nord")]
    assert tape.declarations[7] == Set("FontSize", 28, **at(8))
    assert tape.declarations[8] == Set("FontFamily", "Hack", **at(8, 17))


def test_columns_and_rows_are_cells_and_win_over_the_pixels() -> None:
    tape = parse("Set Width 2000\nSet Columns 100\nSet Rows 30\nSet FontSize 10", F)
    assert (tape.settings.width, tape.settings.height) == (100, 30)
    tape = parse("Set Rows 30", F)  # the columns still from the picture
    assert (tape.settings.width, tape.settings.height) == (76, 30)
    # a picture with no room is no error when the cells are given outright
    assert parse("Set Width 10\nSet Columns 80\nSet Rows 24", F).settings.width == 80


@pytest.mark.parametrize(
    ("look", "cells"),
    [
        (Look(), (76, 15)),  # VHS's defaults
        (Look(height=1000, padding=72), (74, 28)),  # glow-simple's, VHS's golden: 28 rows
        (Look(font_size=25), (66, 14)),  # 25 x 1.32 is 33 exactly: a 33-pixel line, not 34
        (Look(letter_spacing=0.5), (76, 15)),  # rounded half up (Math.round), as xterm.js
        (Look(letter_spacing=0.49), (82, 15)),
        (Look(margin=40, window_bar="Rings"), (70, 12)),  # 360 pixels of 30 left
        (Look(margin=40, window_bar_size=50), (70, 13)),  # a size without a bar: no bar
        (Look(width=150, height=150), (2, 1)),  # xterm.js's smallest grid
    ],
)
def test_pixels_to_cells_as_vhs_lays_out_its_terminal(look: Look,
                                                      cells: tuple[int, int]) -> None:
    assert grid(look) == cells


def test_wait_pattern_may_be_quoted_or_bare_as_in_vhs() -> None:
    assert parse('Set WaitPattern "ready"', F).settings.wait_pattern == re.compile("ready")
    assert parse("Set WaitPattern >$", F).settings.wait_pattern == re.compile(">$")


def test_output_require_env_are_collected() -> None:
    tape = parse(
        "Output demo.cast\nOutput 'golden.txt'\nRequire git\nEnv GREETING \"hello world\"\n", F
    )
    assert tape.outputs == (Output("demo.cast", "cast", **at(1)),
                            Output("golden.txt", "golden", **at(2)))
    assert tape.requires == (Require("git", **at(3)),)
    assert tape.env == {"GREETING": "hello world"}
    assert tape.declarations == (Env("GREETING", "hello world", **at(4)),)


def test_vhs_picture_settings_are_taken_and_outputs_read_as_vhs_reads_them() -> None:
    """VHS's ExecuteOutput: .ascii and .test are the golden text, .png the frames'
    directory, and any other extension a GIF (warned about here: likely a typo)."""
    tape = parse('Set FontSize 32\nSet MarginFill "#674EFF"\nOutput demo.gif\nOutput demo.ascii\n'
                 "Output frames/\nScreenshot a.png\nOutput demo.mp4\nOutput shots.png\n"
                 "Output demo.test\nOutput demo.mov", F)
    assert tape.outputs == (
        Output("demo.gif", "gif", **at(3)), Output("demo.ascii", "golden", **at(4)),
        Output("frames/", "frames", **at(5)), Output("demo.mp4", "mp4", **at(7)),
        Output("shots.png", "frames", **at(8)), Output("demo.test", "golden", **at(9)),
        Output("demo.mov", "gif", **at(10)))
    assert tape.commands == (Screenshot("a.png", **at(6)),)
    assert (tape.settings.look.font_size, tape.settings.margin_fill) == (32, "#674EFF")
    assert [str(warning) for warning in tape.warnings] == [
        'demo.tape:10:8: Output "demo.mov" is written as a GIF, as VHS writes an extension '
        "other than .cast, .txt, .ascii, .test, .svg, .html, .gif, .webp, .mp4, .webm, .png"]


def test_fontfamily_s_first_installed_family_gives_the_cells_its_metrics() -> None:
    """VHS's FontFamily is a CSS list: its first installed family draws, and xterm.js's
    cells follow its metrics. DejaVu Sans Mono (ascent plus descent 1.165 em) makes a
    26-pixel line at 22 px: 18 rows of VHS's default picture, not JetBrains Mono's 15."""
    tape = parse('Set FontFamily "No Such Font, DejaVu Sans Mono"\nType x', F)
    assert tape.settings.look.face is not None
    assert tape.settings.look.face.family == "DejaVu Sans Mono"
    assert (tape.settings.width, tape.settings.height) == (76, 18)
    assert tape.warnings == ()


def test_fontfamily_with_no_family_installed_is_a_warning_and_vhs_s_metrics() -> None:
    tape = parse('Set FontFamily "No Such Font"\nType x', F)
    assert (tape.settings.look.face, tape.settings.width, tape.settings.height) == (
        None, 76, 15)
    assert [str(warning) for warning in tape.warnings] == [
        'demo.tape:1:5: FontFamily "No Such Font" is not installed: cells as JetBrains '
        "Mono's (VHS's first choice), drawn in DejaVu Sans Mono"]


def test_scrollup_and_scrolldown_take_a_count_and_a_speed_as_keys_do() -> None:
    tape = parse("ScrollUp 12\nScrollDown@100ms 3 Sleep 1\nScrollUp", F)
    assert tape.commands == (Scroll(-12, 0.05, **at(1)), Scroll(3, 0.1, **at(2)),
                             Sleep(1.0, **at(2, 20)), Scroll(-1, 0.05, **at(3)))


def test_several_commands_on_a_line_as_vhs_reads_them() -> None:
    tape = parse("Sleep 1 Ctrl+U Sleep 500 ms\nType hello world Enter 2\n"
                 "Copy 'a b' Paste Hide Backspace@1s Show", F)
    assert tape.commands == (
        Sleep(1.0, **at(1)), Key("C-u", 1, 0.05, **at(1, 9)), Sleep(0.5, **at(1, 16)),
        Type("hello world", 0.05, **at(2)), Key("Enter", 2, 0.05, **at(2, 18)),
        Copy("a b", **at(3)), Paste(**at(3, 12)), Hide(**at(3, 18)), Key("BSpace", 1, 1.0,
                                                                        **at(3, 23)),
        Show(**at(3, 36)))


def test_a_theme_as_vhs_writes_one_in_json() -> None:
    colours = ", ".join(f'"{key}": "#{n:06x}"' for n, key in enumerate(
        ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
         "brightBlack", "brightRed", "brightGreen", "brightYellow", "brightBlue",
         "brightMagenta", "brightCyan", "brightWhite")))
    tape = parse('Set Theme { "background": "#101010", "foreground": "#eeeeee", '
                 f'"cursor": "#ff0000", "cursorAccent": "#000000", {colours} }}', F)
    theme = tape.settings.theme
    assert isinstance(theme, Theme)
    assert (theme.name, theme.background, theme.cursor, theme.palette[5]) == (
        "custom", "#101010", "#ff0000", "#000005")


def test_pacing_settings_may_change_mid_tape_and_apply_after() -> None:
    tape = parse(
        'Type "a"\nSet TypingSpeed 1s\nSet WaitTimeout 2s\nSet WaitPattern /\\$/\nType "b"\nWait',
        F,
    )
    assert tape.settings.typing_speed == 0.05  # what was in force when the session began
    assert tape.commands == (
        Type("a", 0.05, **at(1)),
        Type("b", 1.0, **at(5)),
        Wait("line", 2.0, re.compile(r"\$"), **at(6)),
    )


# Commands


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ('Type "echo hi"', Type("echo hi", 0.05, **at(1))),
        ("Type 'say \"hi\"'", Type('say "hi"', 0.05, **at(1))),
        ("Type `it's`", Type("it's", 0.05, **at(1))),
        ('Type "a\\n"', Type("a\\n", 0.05, **at(1))),
        ('Type "a" "b"   # two strings join with a space, as in VHS', Type("a b", 0.05, **at(1))),
        ('Type@200ms "slow"', Type("slow", 0.2, **at(1))),
        ('  Type ""', Type("", 0.05, **at(1, 3))),
        ("Sleep 500ms", Sleep(0.5, **at(1))),
        ("Sleep 2s", Sleep(2.0, **at(1))),
        ("Sleep 0.5", Sleep(0.5, **at(1))),
        ("Sleep .25", Sleep(0.25, **at(1))),
        ("Sleep 1m", Sleep(60.0, **at(1))),
        ("Wait", Wait("line", 15.0, re.compile(">$"), **at(1))),
        ("Wait /ready/", Wait("line", 15.0, re.compile("ready"), **at(1))),
        ("Wait+Line /a\\/b/", Wait("line", 15.0, re.compile("a\\/b"), **at(1))),
        ("Wait+Screen@5s /done/", Wait("screen", 5.0, re.compile("done"), **at(1))),
        ("Wait@500ms", Wait("line", 0.5, re.compile(">$"), **at(1))),
        ("Expect /hi/", Expect("line", re.compile("hi"), **at(1))),
        ("Expect+Screen /^total \\d+/", Expect("screen", re.compile(r"^total \d+"), **at(1))),
        ("Hide", Hide(**at(1))),
        ("Show", Show(**at(1))),
        ("Screenshot shot.svg", Screenshot("shot.svg", **at(1))),
        ('Screenshot "out/screen.txt"', Screenshot("out/screen.txt", **at(1))),
        ('Marker "installed"', Marker("installed", **at(1))),
        ("Resize 100x30", Resize(100, 30, **at(1))),
    ],
)
def test_command(line: str, command: object) -> None:
    assert only(line) == command


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("Enter", "Enter"),
        ("Backspace", "BSpace"),
        ("Delete", "DC"),
        ("Insert", "IC"),
        ("Tab", "Tab"),
        ("Space", "Space"),
        ("Escape", "Escape"),
        ("Up", "Up"),
        ("Down", "Down"),
        ("Left", "Left"),
        ("Right", "Right"),
        ("PageUp", "PPage"),
        ("PageDown", "NPage"),
        ("Home", "Home"),
        ("End", "End"),
    ],
)
def test_keys_are_named_as_tmux_names_them(key: str, name: str) -> None:
    assert only(key) == Key(name, 1, 0.05, **at(1))
    assert only(f"{key}@1s 3") == Key(name, 3, 1.0, **at(1))


@pytest.mark.parametrize(
    ("combo", "name"),
    [
        ("Ctrl+C", "C-c"),
        ("Ctrl+c", "C-c"),
        ("Alt+x", "M-x"),
        ("Alt+X", "M-X"),
        ("Ctrl+Alt+x", "C-M-x"),
        ("Alt+Ctrl+x", "C-M-x"),
        ("Ctrl+Alt+Delete", "C-M-DC"),
        ("Shift+Left", "S-Left"),
        ("Shift+Tab", "BTab"),
        ("Shift+a", "A"),
        ("Ctrl+Shift+o", "C-o"),
        ("Alt+Enter", "M-Enter"),
        ("Ctrl+Space", "C-Space"),
        ("Ctrl+[", "Escape"),
        ("Alt++", "M-+"),
        ("Alt+@", "M-@"),
        ("Ctrl+PageUp", "C-PPage"),
    ],
)
def test_combos_map_to_tmux_key_names(combo: str, name: str) -> None:
    assert only(combo) == Key(name, 1, 0.05, **at(1))


def test_combo_takes_a_speed_and_count_like_a_key() -> None:
    assert only("Ctrl+C@100ms 2") == Key("C-c", 2, 0.1, **at(1))


def test_comments_and_blank_lines_are_skipped() -> None:
    tape = parse("# a demo\n\n   \t\nType 'x' # typed\n\r\nEnter\r\n", F)
    assert tape.commands == (Type("x", 0.05, **at(4)), Key("Enter", 1, 0.05, **at(6)))


# Errors: one line each, FILE:LINE:COLUMN pointing at the token


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'Type "x"\n\n     Tpye "y"',
            'demo.tape:3:6: unknown command "Tpye" (did you mean "Type"?)',
        ),
        ("Frobnicate", 'demo.tape:1:1: unknown command "Frobnicate"'),
        ('"Type"', 'demo.tape:1:1: unknown command ""Type""'),
        ("Enter2", 'demo.tape:1:6: unexpected "2" after Enter'),
        ("Ty\x1b[2Jpe", 'demo.tape:1:3: unexpected "\\x1b[2Jpe" after Ty'),
        ("\n\n\nSleep    5x", 'demo.tape:4:10: bad duration "5x"'),
        ("Type@fast 'x'", 'demo.tape:1:6: bad duration "fast"'),
        (
            'Type "x"\n' * 6 + "Set Width 100",
            "demo.tape:7:1: Set Width must come before the first command",
        ),
        ("Hide\nEnv A b", "demo.tape:2:1: Env must come before the first command"),
        ('Type "abc', "demo.tape:1:6: unterminated string"),
        ("Wait /abc", "demo.tape:1:6: unterminated regex"),
        (
            "Wait /(/",
            'demo.tape:1:6: bad regex "(": missing ), unterminated subpattern at position 0',
        ),
        (
            'Set WaitPattern "["',
            'demo.tape:1:17: bad regex "[": unterminated character set at position 0',
        ),
        ("Sleep", "demo.tape:1:6: Sleep needs a duration"),
        ("Type", "demo.tape:1:5: Type needs a string"),
        ("Output", "demo.tape:1:7: Output needs a file"),
        ("Expect", "demo.tape:1:7: Expect needs a /regex/"),
        ("Expect ready", "demo.tape:1:8: Expect needs a /regex/"),
        ("Marker  # none", "demo.tape:1:9: Marker needs a label"),
        ("Env PATH", "demo.tape:1:9: Env PATH needs a value"),
        ("Env 1X y", 'demo.tape:1:5: bad variable name "1X"'),
        ("Set", "demo.tape:1:4: Set needs a setting"),
        ("Set Width", "demo.tape:1:10: Set Width needs a number"),
        ("Set Columns", "demo.tape:1:12: Set Columns needs a number of cells"),
        ("Set Rows 1001", 'demo.tape:1:10: bad rows "1001" (1 to 1000 cells)'),
        ("Set Foo 1", 'demo.tape:1:5: unknown setting "Foo"'),
        ("Set Widht 100", 'demo.tape:1:5: unknown setting "Widht" (did you mean "Width"?)'),
        ("Set Env A b", 'demo.tape:1:5: unknown setting "Env" (Env is a command: Env KEY "value")'),
        ("Set Height 0", 'demo.tape:1:12: bad Height "0" (1 to 100000)'),
        (
            "Set Width 80",
            "demo.tape:1:1: a 80x600 picture has no room for the terminal: it must be more"
            " than 120x120 (twice Padding and Margin) (Set Columns and Set Rows give cells)",
        ),
        (
            "Set Padding 10\nSet WindowBar Rings\nSet Height 50",
            "demo.tape:3:1: a 1200x50 picture has no room for the terminal: it must be more"
            " than 20x50 (twice Padding and Margin, plus WindowBarSize) (Set Columns and Set"
            " Rows give cells)",
        ),
        ("Set LineHeight 0", 'demo.tape:1:16: bad LineHeight "0" (more than 0)'),
        ("Set LoopOffset -5%", 'demo.tape:1:16: bad LoopOffset "-5%" (at least 0)'),
        ("Set CursorBlink yes", 'demo.tape:1:17: bad CursorBlink "yes" (true or false)'),
        ("Set MarginFill '#12345'", 'demo.tape:1:16: bad colour "#12345" (#rrggbb)'),
        (
            "Set WindowBar Ring",
            'demo.tape:1:15: bad WindowBar "Ring" (one of Colorful, ColorfulRight, Rings,'
            ' RingsRight) (did you mean "Rings"?)',
        ),
        ("Sleep 1 5", 'demo.tape:1:9: unexpected "5" after Sleep'),
        ("Type Enter", "demo.tape:1:6: Type needs a string"),
        ('Copy "a" Sleep 1 Pastee', 'demo.tape:1:18: unexpected "Pastee" after Sleep'
                                    ' (did you mean "Paste"?)'),
        ("Set WaitTimeout 0s", "demo.tape:1:17: WaitTimeout must be more than 0"),
        ('Set Theme {"name":', "demo.tape:1:11: unterminated JSON object"),
        (
            'Set Theme {"name": "x"}',
            "demo.tape:1:11: bad theme: the JSON theme: foreground is missing",
        ),
        ("Ctrl+Foo", 'demo.tape:1:6: unknown key "Foo"'),
        ("Alt+enter", 'demo.tape:1:5: unknown key "enter" (did you mean "Enter"?)'),
        ("Ctrl", "demo.tape:1:5: Ctrl needs +KEY, e.g. Ctrl+C"),
        ("Ctrl+", "demo.tape:1:6: missing key after the last +"),
        ("Ctrl+Alt", "demo.tape:1:9: missing key after the last +"),
        ("Ctrl+Ctrl+c", 'demo.tape:1:6: repeated modifier "Ctrl"'),
        ("Ctrl+Meta+c", 'demo.tape:1:6: unknown modifier "Meta"'),
        ("Shift+Enter", 'demo.tape:1:1: no terminal can send "Shift+Enter"'),
        ("Enter 0", 'demo.tape:1:7: bad count "0" (1 to 10000)'),
        ("Enter+x", 'demo.tape:1:6: Enter takes no "+"'),
        ("Sleep@1s 1", 'demo.tape:1:6: Sleep takes no "@"'),
        ("Hide now", 'demo.tape:1:6: unexpected "now" after Hide'),
        ("Wait+Foo", "demo.tape:1:6: Wait+ takes Line or Screen"),
        ("Wait@0s", "demo.tape:1:6: Wait timeout must be more than 0"),
        ("Resize 100", 'demo.tape:1:8: bad size "100" (COLSxROWS, e.g. 100x30)'),
        ("Resize 100x0", 'demo.tape:1:12: bad height "0" (1 to 1000 cells)'),
        (
            "Screenshot a.cast",
            'demo.tape:1:12: Screenshot "a.cast" must be one of .png, .svg, .html, .txt',
        ),
        (
            "Source missing.tape",
            'demo.tape:1:8: cannot read "missing.tape": No such file or directory',
        ),
    ],
)
def test_error(text: str, message: str) -> None:
    assert error(text) == message


def test_every_error_is_reported_each_on_its_line() -> None:
    with pytest.raises(TapeError) as caught:
        parse("Tpye 'x'\nEnter\nSleep 1y\nWait /(/ \n", F)
    assert str(caught.value) == 'demo.tape:1:1: unknown command "Tpye" (did you mean "Type"?)'
    assert [str(d) for d in caught.value.diagnostics] == [
        'demo.tape:1:1: unknown command "Tpye" (did you mean "Type"?)',
        'demo.tape:3:7: bad duration "1y"',
        'demo.tape:4:6: bad regex "(": missing ), unterminated subpattern at position 0',
    ]


def test_errors_stop_at_the_limit() -> None:
    with pytest.raises(TapeError) as caught:
        parse("Oops\n" * 100, F)
    assert len(caught.value.diagnostics) == MAX_ERRORS
    assert caught.value.diagnostics[-1] == Diagnostic(F, MAX_ERRORS, 1, 'unknown command "Oops"')


# Sources and files


def test_source_is_read_relative_to_the_tape_that_names_it(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "setup.tape").write_text(
        "Set Columns 90\nEnv TERM_DEMO 1\nOutput ignored.cast\nType 'cd /tmp'\nEnter\n"
    )
    main = tmp_path / "main.tape"
    main.write_text("Output demo.cast\nSource lib/setup.tape\nType 'ls'\n")
    tape = parse_file(str(main))
    setup = str(tmp_path / "lib" / "setup.tape")
    assert tape.settings.width == 90
    assert tape.env == {"TERM_DEMO": "1"}
    assert tape.outputs == (Output("demo.cast", "cast", **at(1, file=str(main))),)
    assert tape.commands == (
        Type("cd /tmp", 0.05, **at(4, file=setup)),
        Key("Enter", 1, 0.05, **at(5, file=setup)),
        Type("ls", 0.05, **at(3, file=str(main))),
    )
    assert [str(w) for w in tape.warnings] == [f"{setup}:3:1: Output in a sourced tape is ignored"]


def test_errors_in_a_sourced_tape_name_that_tape(tmp_path: Path) -> None:
    (tmp_path / "part.tape").write_text("Type 'x'\n  Sleep soon\n")
    (tmp_path / "main.tape").write_text("Source part.tape\nSet Width 100\n")
    with pytest.raises(TapeError) as caught:
        parse_file(str(tmp_path / "main.tape"))
    assert [str(d) for d in caught.value.diagnostics] == [
        f'{tmp_path}/part.tape:2:9: bad duration "soon"',
        f"{tmp_path}/main.tape:2:1: Set Width must come before the first command",
    ]


def test_a_source_cycle_is_an_error_at_the_source_that_closes_it(tmp_path: Path) -> None:
    (tmp_path / "a.tape").write_text("Source b.tape\n")
    (tmp_path / "b.tape").write_text("Type 'x'\nSource   a.tape\n")
    a, b = tmp_path / "a.tape", tmp_path / "b.tape"
    assert error(a.read_text(), str(a)) == f'{b}:2:10: Source cycle: "{a}" -> "{b}" -> "{a}"'


def test_a_tape_cannot_source_itself(tmp_path: Path) -> None:
    me = tmp_path / "me.tape"
    assert error("Source me.tape", str(me)) == f'{me}:1:8: Source cycle: "{me}" -> "{me}"'


def test_sources_nest_up_to_the_limit(tmp_path: Path) -> None:
    for depth in range(MAX_SOURCE_DEPTH + 2):
        (tmp_path / f"{depth}.tape").write_text(f"Source {depth + 1}.tape\n")
    (tmp_path / f"{MAX_SOURCE_DEPTH}.tape").write_text("Hide\n")
    assert len(parse_file(str(tmp_path / "0.tape")).commands) == 1
    (tmp_path / f"{MAX_SOURCE_DEPTH}.tape").write_text(f"Source {MAX_SOURCE_DEPTH + 1}.tape\n")
    deepest = tmp_path / f"{MAX_SOURCE_DEPTH}.tape"
    assert error("Source 1.tape", str(tmp_path / "0.tape")) == (
        f"{deepest}:1:8: Source nested more than {MAX_SOURCE_DEPTH} deep"
    )


def test_a_file_that_is_not_utf8_is_an_error_at_the_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "bad.tape"
    path.write_bytes(b"Type 'ok'\nType '\xe9t\xe9'\n")
    with pytest.raises(TapeError) as caught:
        parse_file(str(path))
    assert str(caught.value) == f"{path}:2:7: not UTF-8 text"


# Robustness

_TAPE_WORDS = st.sampled_from(
    ["Type", "Set", "Wait+Screen@1s", "Ctrl+", "Sleep", "Enter", "Source", "/", '"', "'", "`",
     "#", "@", "+", " ", "\t", "\n", "\r", "x", "500ms", "Width", "(", "\\", "100x30", "é",
     "\u2028", "\x1b"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.lists(_TAPE_WORDS).map("".join)))
def test_any_text_parses_or_raises_tape_error_within_the_file(text: str) -> None:
    try:
        parse(text, "/nonexistent/fuzz.tape")
    except TapeError as failure:
        lines = text.count("\n") + 1
        for diagnostic in failure.diagnostics:
            assert 1 <= diagnostic.line <= lines
            assert diagnostic.column >= 1
            assert len(str(diagnostic).splitlines()) == 1


def test_a_json_theme_runs_on_over_lines_to_its_brace_as_in_vhs() -> None:
    colours = ",\n".join(f'  "{key}": "#{n:06x}"' for n, key in enumerate(
        ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "brightBlack",
         "brightRed", "brightGreen", "brightYellow", "brightBlue", "brightMagenta",
         "brightCyan", "brightWhite", "background", "foreground")))
    tape = parse("Set Theme {\n" + colours + "\n}\nType 'x'\n", F)
    assert isinstance(tape.settings.theme, Theme) and tape.settings.theme.foreground == "#000011"
    assert tape.commands == (Type("x", 0.05, **at(21)),)  # the lines after keep their numbers


def test_an_unknown_theme_is_an_error_at_its_place_with_close_matches() -> None:
    assert error('Set Theme "Draculla"') == (
        "demo.tape:1:11: unknown theme 'Draculla' (did you mean 'dracula' or 'draculaplus'?; "
        "termhost themes list shows them all)")
    assert error("Set Width 1000\nSet Theme Nrod").startswith(
        "demo.tape:2:11: unknown theme 'Nrod' (did you mean 'nord'")
    assert parse('Set Theme "Catppuccin Latte"', F).settings.theme == "Catppuccin Latte"


def test_a_picture_with_no_room_after_many_errors_is_still_a_tape_error() -> None:
    with pytest.raises(TapeError) as caught:
        parse("Oops\n" * (MAX_ERRORS - 1) + "Set Width 10\n", F)
    assert len(caught.value.diagnostics) == MAX_ERRORS
    assert caught.value.diagnostics[-1].message.startswith("a 10x600 picture has no room")
    with pytest.raises(TapeError) as caught:
        parse("Oops\n" * MAX_ERRORS + "Set Width 10\n", F)
    assert len(caught.value.diagnostics) == MAX_ERRORS
