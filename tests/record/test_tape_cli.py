"""`termhost tape`: tapes played against real shells, as CI runs them (no terminal).

Each test writes a tape, runs the verb in-process and looks at what a user gets: the exit
status, the message on stderr, the .cast a player reads, the golden text a reviewer diffs.
"""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from termhost.cmd import tape as tape_verb
from termhost.record.asciicast import EventCode, open_reader, output_bytes
from termhost.record.runner import GOLDEN_SEPARATOR
from termhost.record.tape import parse_file
from termhost.render import snapshot
from termhost.render.geometry import Look
from termhost.render.raster import Canvas
from termhost.terminal import Terminal
from termhost.themes import asciicast_theme, load_theme
from tests.conftest import wait_until
from tests.render.test_animation import gif_delays

TAPES = Path(__file__).parent / "tapes"


@pytest.fixture(autouse=True)
def _deterministic_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment the shells inherit: a HOME of their own, a UTF-8 locale, no LESS."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LESS", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)


def run_tape(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str], *options: str
) -> tuple[int, str, str, Path]:
    """Write `text` as tmp_path/demo.tape and run it: (status, stdout, stderr, tape)."""
    tape = tmp_path / "demo.tape"
    tape.write_text(text, encoding="utf-8")
    status = tape_verb.main([*options, str(tape)])
    out, err = capsys.readouterr()
    return status, out, err, tape


def golden(*screens: str) -> str:
    return f"\n{GOLDEN_SEPARATOR}\n".join(screens) + "\n"


HELLO = """\
Output demo.cast
Output demo.txt
Set Columns 60
Set Rows 8
Set TypingSpeed 0
Type "echo hello"
Enter
Wait+Screen /(?m)^hello$/
Expect+Screen /hello/
"""


def test_echo_hello_records_the_output_and_the_screens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err, _ = run_tape(tmp_path, HELLO, capsys)
    assert (status, out, err) == (0, "", "")
    with open_reader(tmp_path / "demo.cast") as reader:
        header, events = reader.header, list(reader)
    assert (header.cols, header.rows, header.term_type) == (60, 8, "xterm-256color")
    assert header.theme == asciicast_theme(load_theme("default"))
    assert b"hello\r\n" in output_bytes(events)
    assert [event.time for event in events] == sorted(event.time for event in events)
    after_enter = "> echo hello\nhello\n>"
    assert (tmp_path / "demo.txt").read_text(encoding="utf-8") == golden(
        "> echo hello", after_enter, after_enter, after_enter
    )


EVERY_KIND = """\
Output demo.cast
Output demo.txt
Output final.svg
Output final.html
Set Columns 60
Set Rows 8
Set TypingSpeed 0
Env GREETING "from the tape"
Type "echo $GREETING"
Enter
Wait+Screen /(?m)^from the tape$/
Marker "greeted"
Type@100ms "echo abcX"
Backspace
Left
Right
Enter
Wait+Screen /(?m)^abc$/
Sleep 100ms
Resize 50x6
Type "stty size"
Enter
Wait+Screen /(?m)^6 50$/
Ctrl+L
Wait
Screenshot shot.svg
Expect /^>$/
"""


def test_every_command_kind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err, _ = run_tape(tmp_path, EVERY_KIND, capsys)
    assert (status, out, err) == (0, "", "")
    with open_reader(tmp_path / "demo.cast") as reader:
        events = list(reader)
    markers = [event for event in events if event.code is EventCode.MARKER]
    resizes = [event for event in events if event.code is EventCode.RESIZE]
    assert [event.data for event in markers] == ["greeted"]
    assert [event.data for event in resizes] == ["50x6"]
    assert markers[0].time < resizes[0].time
    echoes = [e for e in events if e.code is EventCode.OUTPUT and e.time > markers[0].time]
    typed = echoes[: len("echo abcX")]
    assert "".join(event.data for event in typed) == "echo abcX"
    assert typed[-1].time - typed[0].time >= 0.75  # Type@100ms: the delays are real
    text = (tmp_path / "demo.txt").read_text(encoding="utf-8")
    screens = text.split(f"\n{GOLDEN_SEPARATOR}\n")
    assert len(screens) == 19  # one per command
    assert "> echo abc\nabc\n>" in screens[9]  # after the Wait for abc
    assert screens[-1] == ">\n"  # Ctrl+L cleared the screen
    for name in ("shot.svg", "final.svg"):
        assert (tmp_path / name).read_text(encoding="utf-8").startswith("<svg")
    assert "<html" in (tmp_path / "final.html").read_text(encoding="utf-8").lower()


HIDDEN = """\
Output demo.cast
Output demo.txt
Set Columns 40
Set Rows 6
Set TypingSpeed 0
Type "echo before"
Enter
Wait
Hide
Type "echo hidden-xyz; clear; printf '\\033[1mbold\\033[0m\\n'"
Enter
Wait
Show
Type "echo shown"
Enter
Wait
"""


def test_hide_keeps_output_out_of_the_cast_and_show_repaints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player replaying the .cast ends on the screen the tape ended on, although it
    never saw the hidden `clear`."""
    status, _, err, _ = run_tape(tmp_path, HIDDEN, capsys)
    assert (status, err) == (0, "")
    with open_reader(tmp_path / "demo.cast") as reader:
        played = output_bytes(reader)
    assert b"hidden-xyz" not in played
    terminal = Terminal(40, 6)
    terminal.feed(played)
    replayed = "\n".join(line.rstrip() for line in terminal.display).rstrip("\n")
    last = (tmp_path / "demo.txt").read_text(encoding="utf-8").split(f"\n{GOLDEN_SEPARATOR}\n")
    assert replayed == last[-1].rstrip("\n") == "bold\n> echo shown\nshown\n>"


def test_a_wait_that_times_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err, tape = run_tape(
        tmp_path, 'Set Rows 4\nType "echo one"\nWait@300ms /never/\n', capsys
    )
    assert (status, out) == (1, "")
    assert err == (
        f"{tape}:3: timed out after 0.3s waiting for /never/ on the line; the screen was:\n"
        "> echo one\n"
    )


def test_an_expect_that_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = 'Output demo.txt\nSet TypingSpeed 0\nType "echo one"\nEnter\nWait\nExpect+Screen /two/\n'
    status, out, err, tape = run_tape(tmp_path, text, capsys)
    assert (status, out) == (1, "")
    assert err == (
        f"{tape}:6: expected /two/ on the screen; the screen was:\n> echo one\none\n>\n"
    )
    assert not (tmp_path / "demo.txt").exists()  # a failed run leaves no golden file


CHECKED = 'Output demo.txt\nSet TypingSpeed 0\nType "echo one"\nEnter\nWait\n'


def test_check_passes_then_fails_with_a_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_tape(tmp_path, CHECKED, capsys)[0] == 0
    assert run_tape(tmp_path, CHECKED, capsys, "--check")[:3] == (0, "", "")
    changed = CHECKED.replace("echo one", "echo two")
    status, out, err, _ = run_tape(tmp_path, changed, capsys, "--check")
    path = tmp_path / "demo.txt"
    assert status == 1
    assert out.startswith(f"--- {path}\n+++ {path} (this run)\n")
    assert "\n-> echo one\n" in out and "\n+> echo two\n" in out
    assert err == f"termhost tape: {path}: the screens differ (--update rewrites it)\n"
    assert "echo one" in path.read_text(encoding="utf-8")  # a check writes nothing


def test_check_without_a_golden_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err, _ = run_tape(tmp_path, CHECKED, capsys, "--check")
    assert (status, out) == (1, "")
    path = tmp_path / "demo.txt"
    assert err == f"termhost tape: {path}: no golden file to check (--update writes it)\n"
    assert not path.exists()


def test_update_rewrites_the_golden_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "demo.txt"
    path.write_text("stale\n", encoding="utf-8")
    status, _, err, _ = run_tape(tmp_path, CHECKED, capsys, "--update")
    assert (status, err) == (0, f"updated: {path}\n")
    assert path.read_text(encoding="utf-8").startswith("> echo one\n")
    status, _, err, _ = run_tape(tmp_path, CHECKED, capsys, "--update")
    assert (status, err) == (0, f"unchanged: {path}\n")
    assert run_tape(tmp_path, CHECKED, capsys, "--check")[0] == 0


def test_a_syntax_error_names_file_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err, tape = run_tape(tmp_path, 'Output demo.cast\nType "echo\n', capsys)
    assert (status, out, err) == (1, "", f"{tape}:2:6: unterminated string\n")
    assert not (tmp_path / "demo.cast").exists()  # nothing ran


def test_a_missing_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err, tape = run_tape(tmp_path, "Require no-such-program-xyz\n", capsys)
    assert (status, err) == (1, f"{tape}:1: Require: no-such-program-xyz not found\n")


def test_a_missing_tape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = tape_verb.main([str(tmp_path / "absent.tape")])
    err = capsys.readouterr().err
    missing = tmp_path / "absent.tape"
    assert (status, err) == (1, f"termhost tape: {missing}: No such file or directory\n")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        tape_verb.main(["--check", "--update", "demo.tape"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


ORPHANS = """\
Set TypingSpeed 0
Type "echo $$ > shell.pid; sleep 1000 & (trap '' HUP; exec sleep 1001) &"
Enter
Wait
Type "sleep 1002"
Enter
Sleep 100ms
"""


def test_the_shell_and_everything_it_started_end_with_the_tape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Background jobs, one ignoring SIGHUP, and a foreground job: none outlives the run."""
    status, _, err, _ = run_tape(tmp_path, ORPHANS, capsys)
    assert (status, err) == (0, "")
    shell = int((tmp_path / "shell.pid").read_text())
    try:  # SIGKILL is sent by the time the run returns; dying can take a moment more
        wait_until(lambda: _session_members(shell) == [], what="the tape's processes to end")
    finally:
        for pid in _session_members(shell):
            os.kill(pid, signal.SIGKILL)  # a failure leaves nothing to the next test


def _session_members(sid: int) -> list[int]:
    """Live processes of session `sid` (zombies are dead: reaping them is their new
    parent's business)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:  # gone while we looked
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            members.append(int(entry))
    return members


def test_bash_vim_and_less_match_their_golden_screens(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The committed golden file; vim and less must be installed: missing is a failure."""
    for program in ("bash", "vim", "less"):
        assert shutil.which(program), f"{program} is needed by this test and not installed"
    status = tape_verb.main(["--check", str(TAPES / "bash_vim_less.tape")])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), err + out  # err whole: the screen a Wait gave up on


def test_vhs_outputs_as_vhs_writes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """VHS's ExecuteOutput: .ascii is the golden text .txt is, and any extension it does
    not know is a GIF (here with a warning, unless -q: likely a typo)."""
    text = ('Output demo.ascii\nOutput demo.txt\nOutput demo.mov\nSet FontSize 20\n'
            'Set TypingSpeed 0\nType "echo vhs"\nEnter\nWait\n')
    status, _, err, tape = run_tape(tmp_path, text, capsys)
    assert (status, err) == (0, f'{tape}:3:8: warning: Output "demo.mov" is written as a GIF, '
                                "as VHS writes an extension other than .cast, .txt, .ascii, "
                                ".test, .svg, .html, .gif, .webp, .mp4, .webm, .png\n")
    golden = (tmp_path / "demo.ascii").read_text()
    assert golden == (tmp_path / "demo.txt").read_text() and "echo vhs" in golden
    with Image.open(tmp_path / "demo.mov") as gif:
        assert gif.format == "GIF"
    assert run_tape(tmp_path, text, capsys, "-q")[:3] == (0, "", "")


def test_a_vhs_tape_with_pixels_copy_and_paste_on_shared_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """VHS's sizes are pixels (FontSize 32 in 1000x500 with Padding 20: a 20 x 43 cell,
    47 x 10 cells); Copy fills the clipboard, Paste types it at once, several commands
    share a line; the golden screens show the terminal's width and what was pasted."""
    text = ("Output demo.txt\nSet Width 1000 Set Height 500 Set FontSize 32 Set Padding 20\n"
            "Set TypingSpeed 0\nCopy 'echo from-the-clipboard' Paste Enter Wait+Screen"
            " /(?m)^from-the-clipboard$/\nType 'stty size' Sleep 0 Enter Wait\n")
    status, _, err, _ = run_tape(tmp_path, text, capsys)
    assert (status, err) == (0, "")
    screens = (tmp_path / "demo.txt").read_text().split(f"\n{GOLDEN_SEPARATOR}\n")
    assert screens[:2] == [">", "> echo from-the-clipboard"]  # after Copy, after Paste
    assert screens[-1].splitlines()[-2:] == ["10 47", ">"]


def test_the_final_frame_is_the_screen_the_tape_ended_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The .html Output shows where the tape left off: in less, not at the shell."""
    text = (
        "Output final.html\nSet TypingSpeed 0\n"
        'Type "printf \'first\\nsecond\\n\' | less"\nEnter\nWait+Screen /END/\n'
    )
    status, _, err, _ = run_tape(tmp_path, text, capsys)
    assert (status, err) == (0, "")
    html = (tmp_path / "final.html").read_text(encoding="utf-8")
    assert "second" in html and "(END)" in html and "printf" not in html


def test_a_vhs_tape_makes_its_gif_webp_frames_and_png(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """VHS's outputs without a browser: the GIF, WebP and PNG are Width x Height pixels,
    their last frame shows what the tape typed and what it printed; the window bar's dots
    and the margin's fill are where VHS puts them."""
    text = ("Output demo.gif\nOutput demo.webp\nOutput frames/\nOutput shots.png\n"
            "Set Width 640 Set Height 320 Set FontSize 16 Set Padding 16 Set Margin 8\n"
            "Set MarginFill '#674EFF' Set WindowBar Colorful Set Framerate 25\n"
            "Set TypingSpeed 0\nType 'echo pictured' Sleep 200ms Enter Wait+Screen"
            " /(?m)^pictured$/\n"
            "Screenshot shot.png\n")
    status, _, err, _ = run_tape(tmp_path, text, capsys)
    assert (status, err) == (0, "")
    with Image.open(tmp_path / "shot.png") as shot:
        assert shot.size == (640, 320)
        assert shot.convert("RGB").getpixel((2, 2)) == (0x67, 0x4E, 0xFF)
        assert shot.convert("RGB").getpixel((8 + 15, 8 + 15)) == (0xFF, 0x4F, 0x4D)
        last = shot.convert("RGB")
    first, final = _first_and_last(tmp_path / "demo.webp")
    # the last frame is the screenshot's screen; the first is not (the output came later)
    assert _changed(final, last) == 0
    assert _changed(first, last) > 100
    # the GIF's is too, but with crisp text: the window's pixels are the same, and its
    # text has no shades between the theme's colours
    first, final = _first_and_last(tmp_path / "demo.gif")
    assert _changed(first, last) > 100
    bar = (0, 0, 640, 40)
    assert final.size == (640, 320)
    assert final.crop(bar).tobytes() == last.crop(bar).tobytes()
    assert len(_colours(final)) < 12 < len(_colours(last))
    for frames in ("frames", "shots.png"):  # VHS's `Output x.png` is its frames' directory
        with Image.open(tmp_path / frames / "frame-00001.png") as frame:
            assert frame.size == (640, 320)


def test_set_antialias_says_how_every_picture_draws_its_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """termhost's Set Antialias: false draws crisp text everywhere (the GIF's last frame
    is then the screenshot, pixel for pixel), true anti-aliases the GIF's too."""
    def run(setting: str) -> tuple[Image.Image, Image.Image]:
        text = (f"Output demo.gif\nSet Columns 30 Set Rows 4 {setting}\nSet TypingSpeed 0\n"
                "Type 'echo crisp' Enter Wait+Screen /(?m)^crisp$/\nScreenshot shot.png\n")
        status, _, err, _ = run_tape(tmp_path, text, capsys)
        assert (status, err) == (0, "")
        with Image.open(tmp_path / "shot.png") as shot:
            return _first_and_last(tmp_path / "demo.gif")[1], shot.convert("RGB")

    final, shot = run("Set Antialias false")
    assert final.tobytes() == shot.tobytes()
    assert len(_colours(shot)) < 12
    final, shot = run("Set Antialias true")
    assert len(_colours(final)) > 12 and _changed(final, shot) == 0


def _first_and_last(path: Path) -> tuple[Image.Image, Image.Image]:
    with Image.open(path) as moving:
        first = moving.convert("RGB")
        moving.seek(moving.n_frames - 1)
        return first, moving.convert("RGB")


def _colours(picture: Image.Image) -> set[tuple[int, int, int]]:
    return {colour for _, colour in picture.getcolors(1 << 24) or []}


def _changed(one: Image.Image, other: Image.Image) -> int:
    """Pixels that differ by more than a palette's rounding (16 in a channel)."""
    difference = ImageChops.difference(one, other).convert("L")
    return sum(difference.point(lambda value: 255 if value > 16 else 0).histogram()[255:])


def test_a_tape_s_video_without_ffmpeg_fails_before_the_shell_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no ffmpeg (nor anything else) there
    status, _, err, tape = run_tape(tmp_path, "Output demo.webm\nType 'echo'\n", capsys)
    assert (status, err) == (1, f"{tape}:1: Output demo.webm: .webm needs ffmpeg, which is "
                                "not installed (.gif and .webp do not)\n")
    assert not (tmp_path / "demo.webm").exists()


VHS_CORPUS = Path(__file__).parent / "tapes" / "vhs"
"""Tapes in VHS's language, every command and setting among them (settings.tape,
commands.tape; setup.tape is Sourced), pixel sizes, a multi-line JSON theme."""


@pytest.mark.parametrize("name", ["settings", "commands", "json-theme"])
def test_the_vhs_corpus_parses_and_runs(tmp_path: Path, name: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    for tape in VHS_CORPUS.iterdir():
        shutil.copy(tape, tmp_path / tape.name)
    status = tape_verb.main(["-q", str(tmp_path / f"{name}.tape")])
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), out
    parsed = parse_file(str(tmp_path / f"{name}.tape"))
    for output in parsed.outputs:
        assert (tmp_path / output.path).exists(), output.path
    if name == "settings":  # VHS's pixels: 900x420, FontSize 18, Padding 24, Margin 16,
        # a 40-pixel bar; an 11 x 26 cell (18 x 0.6 = 10.8 floored, +1; 23.76 up, x 1.1)
        assert (parsed.settings.width, parsed.settings.height) == (
            (900 - 48 - 32 - 10) // 11, (420 - 48 - 32 - 40 - 10) // 26)
        with Image.open(tmp_path / "settings.gif") as gif:
            assert gif.size == (900, 420)
    if name == "commands":
        screens = (tmp_path / "commands.txt").read_text()
        assert "> echo pasted\npasted\n" in screens  # Copy, then Paste typed it at once
        # the screens after ScrollUp 10 and ScrollDown 4 (then Sleep, Screenshot): the
        # view's last row, a number of the seq, is 4 further on
        *_, up, down, _, _ = screens.split(f"\n{GOLDEN_SEPARATOR}\n")
        assert int(down.split()[-1]) - int(up.split()[-1]) == 4


def test_a_tape_s_pictures_are_the_same_bytes_every_run_on_the_tape_s_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The frames follow the tape, not the machine: each key's screen stays up for the
    typing speed, a Sleep for its length, a Wait for none; two runs give the same GIF,
    WebP and PNG bytes."""
    text = ("Output demo.gif\nOutput demo.webp\nSet Columns 30 Set Rows 4 Set FontSize 12\n"
            "Set Padding 4\nType@100ms 'ab' Sleep 500ms Type 'c' Enter Wait\n"
            "Screenshot demo.png\nSleep 200ms\n")
    runs = []
    for _ in range(2):
        status, _, err, _ = run_tape(tmp_path, text, capsys)
        assert (status, err) == (0, "")
        runs.append([(tmp_path / name).read_bytes()
                     for name in ("demo.gif", "demo.webp", "demo.png")])
    assert runs[0] == runs[1]
    delays = gif_delays(tmp_path / "demo.gif")
    # a and b (100 ms each; the Sleep's 500 ms on b's screen), c (the typing speed, 50),
    # Enter's screen (50 ms, the Wait's none, the last Sleep's 200)
    assert delays == [100, 600, 50, 250]


def test_a_resize_mid_tape_widens_its_pictures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """termhost's Resize to a larger grid: every frame of the GIF takes the size the
    largest screen needs, and a PNG screenshot after it holds the whole new screen (both
    were cut to the first size's canvas)."""
    text = ("Output demo.gif\nSet Columns 20 Set Rows 3 Set Antialias false\n"
            "Set TypingSpeed 0\nScreenshot small.png\nResize 40x5\n"
            "Type 'printf %039d 7' Enter Wait+Screen /0{30}7/\nScreenshot big.png\n")
    status, _, err, _ = run_tape(tmp_path, text, capsys)
    assert (status, err) == (0, "")
    with Image.open(tmp_path / "small.png") as small, Image.open(tmp_path / "big.png") as big:
        assert big.width > small.width + 100 and big.height > small.height
        first, final = _first_and_last(tmp_path / "demo.gif")
        assert first.size == final.size == big.size
        assert final.tobytes() == big.convert("RGB").tobytes()


def test_a_picture_of_a_tape_that_hid_everything_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """VHS records nothing while hidden; a GIF needs a frame: the run says so in one line
    (it was an internal error), after writing the outputs that do not need one."""
    text = "Output demo.cast\nOutput demo.gif\nHide\nType 'echo hidden' Enter\n"
    status, _, err, tape = run_tape(tmp_path, text, capsys)
    assert (status, err) == (1, f"{tape}:2: Output demo.gif: nothing was shown to draw (every "
                                "command was hidden: Hide with no Show after)\n")
    assert (tmp_path / "demo.cast").exists() and not (tmp_path / "demo.gif").exists()


def test_scrollup_and_scrolldown_move_the_view_as_vhs_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """VHS's ScrollUp/ScrollDown (xterm.js's scrollLines, a row a step): the golden
    screens, Expect and the pictures see the view, not the screen; it stops at the oldest
    row, and a key brings it back to the screen (xterm.js's scrollOnUserInput)."""
    text = ("Output demo.txt\nOutput demo.gif\nSet Columns 30 Set Rows 5 Set TypingSpeed 0\n"
            "Type 'for i in $(seq 1 60); do echo line-$i; done' Enter Wait+Screen /line-60/\n"
            "ScrollUp@20ms 12\nExpect+Screen /line-45\\nline-46/\nScrollDown@10ms 6\n"
            "Screenshot view.txt\nScrollUp 1000\nExpect+Screen /^> for i in/\n"
            "Type 'x'\nExpect+Screen /line-60\\n> x$/\n")
    status, _, err, _ = run_tape(tmp_path, text, capsys)
    assert (status, err) == (0, "")
    assert (tmp_path / "view.txt").read_text() == "".join(
        f"line-{n}\n" for n in range(51, 56))
    screens = (tmp_path / "demo.txt").read_text().split(f"\n{GOLDEN_SEPARATOR}\n")
    assert screens[3].split("\n")[0] == "line-45"  # after ScrollUp 12 (Type, Enter, Wait)
    assert screens[5].split("\n")[0] == "line-51"  # after ScrollDown 6
    with Image.open(tmp_path / "demo.gif") as gif:  # each step is a frame
        assert gif.n_frames >= 12 + 6  # (at TypingSpeed 0 they would share an instant)


def test_fontfamily_draws_in_the_installed_family_with_its_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Set FontFamily's first installed family (fontconfig's DejaVu Serif here, whose `W`
    is 1.03 em wide) gives the terminal its cells, 23 x 26 pixels at 22 px (46 x 18 in
    VHS's default 1200 x 600), and draws the screenshot: pixel for pixel what a canvas
    in that face draws of the same screen."""
    text = ('Output demo.txt\nSet FontFamily "No Such Font, DejaVu Serif"\n'
            "Set TypingSpeed 0\nType 'stty size' Enter Wait\nScreenshot shot.png\n")
    status, _, err, _ = run_tape(tmp_path, text, capsys)
    assert (status, err) == (0, "")
    assert (tmp_path / "demo.txt").read_text().rstrip().endswith("> stty size\n18 46\n>")
    look = parse_file(str(tmp_path / "demo.tape")).settings.look
    assert look.face is not None and look.face.family == "DejaVu Serif"
    terminal = Terminal(46, 18)
    terminal.feed(b"> stty size\r\n18 46\r\n> ")
    expected = Canvas(46, 18, load_theme("default"), look).paint(snapshot(terminal))
    with Image.open(tmp_path / "shot.png") as shot:
        assert shot.convert("RGB").tobytes() == expected.tobytes()
        default = Canvas(46, 18, load_theme("default"), Look()).paint(snapshot(terminal))
        assert shot.convert("RGB").tobytes() != default.tobytes()
