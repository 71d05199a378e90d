"""Key encoding as an application in a pane sees it: the bytes each tmux key name sends.

The expected bytes are tmux 3.3a's; the differential tests at the end type the same names
into a real tmux and compare what `cat -v` printed there with what termhost would send.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from termhost.terminal.keys import (
    PASTE_END,
    PASTE_START,
    Key,
    KeyModes,
    UnknownKey,
    UnsendableKey,
    encode_key,
    encode_keys,
    encode_paste,
    parse_key,
)
from tests.conftest import wait_until

CURSOR = KeyModes(application_cursor=True)
KEYPAD = KeyModes(application_keypad=True)
BRACKETED = KeyModes(bracketed_paste=True)


# Names --------------------------------------------------------------------------------------


def test_a_name_with_modifiers_parses_to_its_base_and_modifiers() -> None:
    assert parse_key("C-M-Left") == Key("Left", ctrl=True, meta=True, shift=False)


@pytest.mark.parametrize("name", ["C-M-S-Up", "S-M-C-Up", "M-S-C-Up", "c-m-s-Up", "^M-S-Up"])
def test_modifiers_come_in_any_order_and_either_case(name: str) -> None:
    assert parse_key(name) == Key("Up", ctrl=True, meta=True, shift=True)


@pytest.mark.parametrize("name", ["enter", "ENTER", "Enter", "eNtEr"])
def test_key_names_ignore_case(name: str) -> None:
    assert encode_key(name) == b"\r"


def test_single_characters_keep_their_case() -> None:
    assert (encode_key("M-a"), encode_key("M-A")) == (b"\x1ba", b"\x1bA")


@pytest.mark.parametrize(
    "names",
    [
        ["C-a", "C-A", "^a", "^A", "c-a"],
        ["C-[", "Escape", "^["],
        ["C-i", "Tab"],
        ["C-m", "Enter"],
        ["C-Space", "C-@", "C- "],
        ["PageUp", "PPage", "PgUp", "pgup"],
        ["PageDown", "NPage", "PgDn"],
        ["IC", "Insert"],
        ["DC", "Delete"],
        ["Space", " "],
        ["A", "0x41"],
    ],
)
def test_names_tmux_reads_as_one_key_parse_to_equal_keys(names: list[str]) -> None:
    assert len({parse_key(name) for name in names}) == 1


@st.composite
def key_names(draw: st.DrawFn) -> str:
    modifiers = draw(st.lists(st.sampled_from(["C-", "M-", "S-", "c-", "m-", "s-"]), max_size=3))
    base = draw(
        st.sampled_from(["Up", "F5", "Home", "KP5", "KPEnter", "BTab", "Tab", "Enter", "Escape"])
        | st.sampled_from(["Space", "BSpace", "PgUp", "IC", "é", "😀"])
        | st.characters(min_codepoint=0x20, max_codepoint=0x7E)
    )
    return "".join(modifiers) + base


@given(key_names())
def test_a_keys_tmux_spelling_reads_back_as_the_same_key(name: str) -> None:
    try:
        key = parse_key(name)
    except UnknownKey:
        reject()
    assert parse_key(key.name) == key


@pytest.mark.parametrize("name", ["C-Foo", "F13", "Foo", "x-y", "C-~", "C-{", "C-|", "\x01"])
def test_an_unknown_name_is_an_error_that_names_it(name: str) -> None:
    with pytest.raises(UnknownKey, match=f"^unknown key: {re.escape(name)}$"):
        parse_key(name)


@pytest.mark.parametrize("name", ["C-", "M-", "S-", "C-M-"])
def test_a_modifier_without_a_key_is_unknown(name: str) -> None:
    with pytest.raises(UnknownKey):
        parse_key(name)


def test_an_unknown_key_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown key: C-Foo"):
        encode_key("C-Foo")


def test_a_lone_caret_is_the_caret_character() -> None:
    assert encode_key("^") == b"^"


def test_a_lone_dash_is_the_dash_character() -> None:
    assert encode_key("-") == b"-"


def test_a_hex_name_sends_that_character() -> None:
    sent = encode_key("0x41"), encode_key("0x7"), encode_key("0xe9")
    assert sent == (b"A", b"\x07", "é".encode())


# Plain and named keys ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "sent"),
    [
        ("Enter", b"\r"),
        ("BSpace", b"\x7f"),
        ("Tab", b"\t"),
        ("BTab", b"\x1b[Z"),
        ("Escape", b"\x1b"),
        ("Space", b" "),
    ],
)
def test_named_keys_send_their_characters(name: str, sent: bytes) -> None:
    assert encode_key(name) == sent


def test_shift_tab_sends_back_tab() -> None:
    assert encode_key("S-Tab") == encode_key("BTab") == b"\x1b[Z"


def test_a_printable_character_sends_itself() -> None:
    assert encode_key("x") == b"x"


def test_a_unicode_character_sends_its_utf8() -> None:
    assert encode_key("é") == b"\xc3\xa9"
    assert encode_key("😀") == "😀".encode()


# Control and meta ----------------------------------------------------------------------------


@pytest.mark.parametrize("letter", "abcdefghijklmnopqrstuvwxyz")
def test_ctrl_letters_send_control_characters(letter: str) -> None:
    assert encode_key(f"C-{letter}") == bytes([ord(letter) - 0x60])


@pytest.mark.parametrize("name", ["C-Space", "C-@"])
def test_ctrl_space_sends_nul(name: str) -> None:
    assert encode_key(name) == b"\x00"


@pytest.mark.parametrize(
    ("name", "sent"),
    [("C-[", b"\x1b"), ("C-\\", b"\x1c"), ("C-]", b"\x1d"), ("C-^", b"\x1e"), ("C-_", b"\x1f")],
)
def test_ctrl_brackets_and_friends_send_escape_to_unit_separator(name: str, sent: bytes) -> None:
    assert encode_key(name) == sent


def test_ctrl_question_mark_sends_del() -> None:
    assert encode_key("C-?") == b"\x7f"


def test_a_caret_means_ctrl() -> None:
    sent = encode_key("^c"), encode_key("^["), encode_key("^M-a")
    assert sent == (b"\x03", b"\x1b", b"\x1b\x01")


@pytest.mark.parametrize(("name", "sent"), [("C-2", b"\x00"), ("C-6", b"\x1e"), ("C--", b"\x1f")])
def test_ctrl_digits_send_what_a_vt220_keyboard_sends(name: str, sent: bytes) -> None:
    assert encode_key(name) == sent


@pytest.mark.parametrize("name", ["C-1", "C-.", "C-Tab", "C-Enter", "C-BSpace", "C-KP1", "C-BTab"])
def test_ctrl_on_a_key_without_a_control_form_sends_nothing(name: str) -> None:
    # tmux accepts these names and sends nothing; xterm would need modifyOtherKeys for them.
    assert encode_key(name) == b""


@pytest.mark.parametrize(
    "name", ["S-a", "S-A", "C-S-a", "S-Enter", "S-1", "C-M-1", "M-C-Enter", "S-KP1"]
)
def test_a_key_tmux_has_no_sequence_for_is_unsendable(name: str) -> None:
    with pytest.raises(UnsendableKey, match=f"^key has no sequence to send: {re.escape(name)}$"):
        encode_key(name)


def test_meta_prefixes_escape() -> None:
    assert encode_key("M-x") == b"\x1bx"


def test_meta_ctrl_sends_escape_then_the_control_character() -> None:
    assert encode_key("M-C-x") == encode_key("C-M-x") == b"\x1b\x18"


@pytest.mark.parametrize(
    ("name", "sent"),
    [
        ("M-Enter", b"\x1b\r"),
        ("M-BSpace", b"\x1b\x7f"),
        ("M-Escape", b"\x1b\x1b"),
        ("M-Space", b"\x1b "),
    ],
)
def test_meta_on_named_characters_prefixes_escape(name: str, sent: bytes) -> None:
    assert encode_key(name) == sent


def test_meta_on_a_unicode_character_prefixes_escape() -> None:
    assert encode_key("M-é") == b"\x1b\xc3\xa9"


def test_ctrl_on_a_unicode_character_is_ignored() -> None:
    assert encode_key("C-é") == b"\xc3\xa9"


# Cursor, editing and function keys -----------------------------------------------------------


ARROWS = [("Up", "A"), ("Down", "B"), ("Right", "C"), ("Left", "D")]


@pytest.mark.parametrize(("name", "final"), ARROWS)
def test_arrows_send_csi_sequences(name: str, final: str) -> None:
    assert encode_key(name) == f"\x1b[{final}".encode()


@pytest.mark.parametrize(("name", "final"), ARROWS)
def test_arrows_send_ss3_sequences_in_application_cursor_mode(name: str, final: str) -> None:
    assert encode_key(name, CURSOR) == f"\x1bO{final}".encode()


@pytest.mark.parametrize(
    ("prefix", "modifier"),
    [("S-", 2), ("M-", 3), ("S-M-", 4), ("C-", 5), ("C-S-", 6), ("C-M-", 7), ("C-M-S-", 8)],
)
def test_modified_arrows_send_the_xterm_modifier_parameter(prefix: str, modifier: int) -> None:
    assert encode_key(f"{prefix}Up") == f"\x1b[1;{modifier}A".encode()


def test_modified_arrows_ignore_application_cursor_mode() -> None:
    assert encode_key("C-Up", CURSOR) == b"\x1b[1;5A"


def test_home_and_end_send_tmux_vt220_sequences() -> None:
    # tmux, not xterm (ESC [H, ESC [F): tmux sends the VT220 Home/End of its own terminfo entry.
    assert (encode_key("Home"), encode_key("End")) == (b"\x1b[1~", b"\x1b[4~")


def test_home_and_end_ignore_application_cursor_mode() -> None:
    assert (encode_key("Home", CURSOR), encode_key("End", CURSOR)) == (b"\x1b[1~", b"\x1b[4~")


def test_modified_home_and_end_send_xterm_sequences() -> None:
    assert (encode_key("C-Home"), encode_key("S-End")) == (b"\x1b[1;5H", b"\x1b[1;2F")


@pytest.mark.parametrize(
    ("name", "sent"),
    [("IC", b"\x1b[2~"), ("DC", b"\x1b[3~"), ("PageUp", b"\x1b[5~"), ("PageDown", b"\x1b[6~")],
)
def test_editing_keys_send_vt220_sequences(name: str, sent: bytes) -> None:
    assert encode_key(name) == sent


def test_modified_editing_keys_carry_the_modifier_parameter() -> None:
    assert (encode_key("C-PageUp"), encode_key("M-DC")) == (b"\x1b[5;5~", b"\x1b[3;3~")


@pytest.mark.parametrize(("name", "final"), [("F1", "P"), ("F2", "Q"), ("F3", "R"), ("F4", "S")])
def test_f1_to_f4_send_ss3_sequences(name: str, final: str) -> None:
    assert encode_key(name) == f"\x1bO{final}".encode()


def test_modified_f1_sends_csi_with_the_modifier() -> None:
    assert encode_key("C-F1") == b"\x1b[1;5P"


@pytest.mark.parametrize(
    ("name", "number"),
    [
        ("F5", 15),
        ("F6", 17),
        ("F7", 18),
        ("F8", 19),
        ("F9", 20),
        ("F10", 21),
        ("F11", 23),
        ("F12", 24),
    ],
)
def test_f5_to_f12_send_vt220_sequences(name: str, number: int) -> None:
    assert encode_key(name) == f"\x1b[{number}~".encode()


def test_modified_f5_carries_the_modifier_parameter() -> None:
    assert encode_key("S-F5") == b"\x1b[15;2~"


def test_meta_on_back_tab_prefixes_escape() -> None:
    assert encode_key("M-BTab") == b"\x1b\x1b[Z"


# Keypad ----------------------------------------------------------------------------------------


KEYPAD_KEYS = [
    ("KP0", b"0", b"\x1bOp"),
    ("KP1", b"1", b"\x1bOq"),
    ("KP2", b"2", b"\x1bOr"),
    ("KP3", b"3", b"\x1bOs"),
    ("KP4", b"4", b"\x1bOt"),
    ("KP5", b"5", b"\x1bOu"),
    ("KP6", b"6", b"\x1bOv"),
    ("KP7", b"7", b"\x1bOw"),
    ("KP8", b"8", b"\x1bOx"),
    ("KP9", b"9", b"\x1bOy"),
    ("KP/", b"/", b"\x1bOo"),
    ("KP*", b"*", b"\x1bOj"),
    ("KP-", b"-", b"\x1bOm"),
    ("KP+", b"+", b"\x1bOk"),
    ("KP.", b".", b"\x1bOn"),
    ("KPEnter", b"\n", b"\x1bOM"),  # tmux sends LF for KPEnter; xterm sends CR
]


@pytest.mark.parametrize(("name", "numeric", "application"), KEYPAD_KEYS)
def test_keypad_keys_send_their_characters(name: str, numeric: bytes, application: bytes) -> None:
    assert encode_key(name) == numeric


@pytest.mark.parametrize(("name", "numeric", "application"), KEYPAD_KEYS)
def test_keypad_keys_send_ss3_sequences_in_application_keypad_mode(
    name: str, numeric: bytes, application: bytes
) -> None:
    assert encode_key(name, KEYPAD) == application


def test_meta_on_a_keypad_key_prefixes_escape() -> None:
    assert (encode_key("M-KP1"), encode_key("M-KP1", KEYPAD)) == (b"\x1b1", b"\x1b\x1bOq")


# Paste -----------------------------------------------------------------------------------------


def test_a_paste_sends_line_feeds_as_carriage_returns() -> None:
    assert encode_paste("ls\ncd /\n", KeyModes()) == b"ls\rcd /\r"


def test_a_paste_sends_crlf_as_one_carriage_return() -> None:
    # tmux's paste-buffer sends CR CR here, which an application reads as an extra blank line.
    assert encode_paste("one\r\ntwo\r\n", KeyModes()) == b"one\rtwo\r"


def test_a_paste_is_bracketed_when_the_application_asked() -> None:
    assert encode_paste("x\n", BRACKETED) == b"\x1b[200~x\r\x1b[201~"


def test_a_paste_is_not_bracketed_otherwise() -> None:
    assert encode_paste("x", KeyModes()) == b"x"


def test_pasted_text_cannot_end_the_bracket_early() -> None:
    sent = encode_paste("a\x1b[201~rm -rf ~\x1b[20\x1b[201~1~\n", BRACKETED)
    assert sent == PASTE_START + b"arm -rf ~\r" + PASTE_END


def test_a_paste_is_sent_as_utf8() -> None:
    assert encode_paste("né", KeyModes()) == b"n\xc3\xa9"


# send-keys -------------------------------------------------------------------------------------


def test_send_keys_sends_key_names_as_keys_and_other_words_as_text() -> None:
    assert encode_keys(["echo", "Space", "hi", "Enter"]) == b"echo hi\r"


def test_send_keys_sends_an_unknown_name_as_text() -> None:
    assert encode_keys(["C-Foo"]) == b"C-Foo"


def test_send_keys_sends_an_unsendable_key_as_text() -> None:
    assert encode_keys(["S-a"]) == b"S-a"


def test_send_keys_literal_sends_key_names_as_text() -> None:
    assert encode_keys(["Enter", "C-c", "é"], literal=True) == "EnterC-cé".encode()


def test_send_keys_honours_the_panes_modes() -> None:
    modes = KeyModes(application_cursor=True, application_keypad=True)
    assert encode_keys(["Up", "KP1"], modes) == b"\x1bOA\x1bOq"


# Against tmux ----------------------------------------------------------------------------------


def cat_v(data: bytes) -> str:
    """What GNU `cat -v` prints for `data`: ^X for control bytes, M- for the high bit."""
    shown = []
    for byte in data:
        prefix = ""
        if byte >= 0x80:
            prefix, byte = "M-", byte - 0x80
        if byte == 0x7F:
            shown.append(prefix + "^?")
        elif byte < 0x20 and (prefix or byte not in (0x09, 0x0A)):
            shown.append(prefix + "^" + chr(byte + 0x40))
        else:
            shown.append(prefix + chr(byte))
    return "".join(shown)


def test_cat_v_shows_control_and_high_bytes_like_cat() -> None:
    done = subprocess.run(["cat", "-v"], input=bytes(range(256)), capture_output=True, timeout=10)
    assert cat_v(bytes(range(256))) == done.stdout.decode("ascii")


END = "|END|"
"""Typed after the keys under test, so the wait knows tmux has delivered all of them."""

Tmux = Callable[..., str]


@pytest.fixture(scope="module")
def tmux(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tmux]:
    """A private tmux server (own socket directory and name, no config), killed afterwards."""
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: the tests need it (.ci/run apt-get installs it)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env["TMUX_TMPDIR"] = str(tmp_path_factory.mktemp("tmux"))
    socket = f"termhost-keys-{os.getpid()}"

    def run(*args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", socket, "-f", "/dev/null", *args],
            env=env, capture_output=True, text=True, timeout=10,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    run("new-session", "-d", "-x", "80", "-y", "24", "cat -v")
    try:
        yield run
    finally:
        subprocess.run(
            ["tmux", "-L", socket, "kill-server"], env=env, capture_output=True, timeout=10
        )


def typed_in_tmux(tmux: Tmux, names: list[str], modes: KeyModes) -> str:
    """What `cat -v` shows after `tmux send-keys NAMES` to a pane in `modes`.

    The tty is raw so cat gets the bytes as sent: cooked mode would turn CR into LF,
    turn C-c into a signal and hold everything back until Enter.
    """
    setup = "\\033[?1h" * modes.application_cursor + "\\033=" * modes.application_keypad
    command = f"stty raw -echo -iexten; printf '{setup}READY'; exec cat -v"
    pane = tmux("new-window", "-d", "-P", "-F", "#{pane_id}", command).strip()

    def screen() -> str:
        return tmux("capture-pane", "-p", "-J", "-t", pane).rstrip("\n")

    try:
        wait_until(lambda: screen().startswith("READY"), what=f"{pane} to run cat -v")
        tmux("send-keys", "-t", pane, *names)
        tmux("send-keys", "-t", pane, "-l", END)
        shown = wait_until(lambda: (text := screen()).endswith(END) and text, what=END)
        return shown.removeprefix("READY").removesuffix(END)
    finally:
        tmux("kill-pane", "-t", pane)


AGAINST_TMUX = [
    "Up", "C-Left", "M-Right", "S-Down", "C-M-S-Up", "Home", "End", "C-Home", "IC", "DC",
    "PageUp", "NPage", "C-PgDn", "F1", "C-F1", "F5", "S-F5", "F12", "M-F12", "BTab", "M-BTab",
    "Enter", "M-Enter", "BSpace", "M-BSpace", "Escape", "M-Escape", "Space", "C-Space", "C-@",
    "C-a", "C-Z", "^c", "C-[", "C-\\", "C-]", "C-^", "C-_", "C-?", "C-2", "C-1", "M-x", "M-C-x",
    "C-M-Space", "é", "M-é", "C-é", "KP0", "KP/", "KP.", "M-KP5", "0x41", "S-a", "C-M-1",
    "C-Foo", "C-~", "hello",
]


@pytest.mark.parametrize("name", AGAINST_TMUX)
def test_a_key_sends_what_tmux_sends(tmux: Tmux, name: str) -> None:
    assert cat_v(encode_keys([name])) == typed_in_tmux(tmux, [name], KeyModes())


@pytest.mark.parametrize("name", ["Up", "Down", "Right", "Left", "M-Up", "C-Down", "Home", "End"])
def test_a_key_sends_what_tmux_sends_in_application_cursor_mode(tmux: Tmux, name: str) -> None:
    assert cat_v(encode_keys([name], CURSOR)) == typed_in_tmux(tmux, [name], CURSOR)


@pytest.mark.parametrize("name", [name for name, _, _ in KEYPAD_KEYS] + ["M-KP5", "C-KP5"])
def test_a_key_sends_what_tmux_sends_in_application_keypad_mode(tmux: Tmux, name: str) -> None:
    assert cat_v(encode_keys([name], KEYPAD)) == typed_in_tmux(tmux, [name], KEYPAD)


def test_several_keys_send_what_tmux_sends(tmux: Tmux) -> None:
    names = ["echo", "Space", "hi", "C-Left", "M-b", "Enter"]
    assert cat_v(encode_keys(names)) == typed_in_tmux(tmux, names, KeyModes())
