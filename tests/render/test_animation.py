"""Recordings as moving pictures (render/animation.py): a frame for each screen that
stayed up, for as long as it did, as agg and VHS make them; decoded back with Pillow."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from termhost.record.asciicast import Event, EventCode
from termhost.record.frames import frames
from termhost.render.animation import blinking, write_animation
from termhost.render.geometry import Look, cell_pixels
from termhost.render.raster import Canvas
from termhost.themes import load_theme

THEME = load_theme("nord")


def gif_delays(path: Path) -> list[int]:
    """Each frame's delay in a GIF, in milliseconds, as Pillow reads them back."""
    with Image.open(path) as gif:
        delays = []
        for number in range(gif.n_frames):
            gif.seek(number)
            delays.append(int(gif.info["duration"]))
    return delays


def out(at: float, text: str) -> Event:
    return Event(at, EventCode.OUTPUT, text)


def lines(made: list) -> list[str]:  # type: ignore[type-arg]
    return ["".join(run.text for run in frame.screen.lines[0]).rstrip() for frame in made]


def test_a_frame_per_screen_for_as_long_as_it_stayed_up() -> None:
    events = [out(0.0, "a"), out(0.5, "b"), out(0.5, "c"), out(2.0, "\x1b[m"), out(3.0, "d")]
    made = frames(events, 10, 2, framerate=10)
    assert lines(made) == ["a", "abc", "abcd"]  # an output that changes nothing: no frame
    assert [round(frame.duration, 6) for frame in made] == [0.5, 2.5, 0.1]


def test_idle_time_is_capped_and_speed_divides_it_as_play_does() -> None:
    events = [out(0.0, "a"), out(10.0, "b"), out(11.0, "c")]
    made = frames(events, 10, 2, framerate=10, idle_limit=2.0, speed=2.0)
    assert [round(frame.duration, 6) for frame in made] == [1.0, 0.5, 0.1]


def test_loop_offset_starts_the_loop_that_far_in() -> None:
    events = [out(0.0, "a"), out(1.0, "b"), out(2.0, "c"), out(3.9, "d")]
    made = frames(events, 10, 2, framerate=10, loop_offset=25)
    assert lines(made) == ["ab", "abc", "abcd", "a"]
    assert [round(frame.duration, 6) for frame in made] == [1.0, 1.9, 0.1, 1.0]
    split = frames(events, 10, 2, framerate=10, loop_offset=10)  # 0.4 s into the first
    assert lines(split) == ["a", "ab", "abc", "abcd", "a"]
    assert [round(frame.duration, 6) for frame in split] == [0.6, 1.0, 1.9, 0.1, 0.4]


def _recording() -> list[Event]:
    return [out(0.0, "$ "), out(0.3, "l"), out(0.6, "s"), out(1.0, "\r\n\x1b[41mred\x1b[0m"),
            out(2.0, "\r\n$ ")]


def test_a_gif_decodes_to_its_frames_delays_size_and_colours(tmp_path: Path) -> None:
    look = Look(font_size=16, padding=10)
    canvas = Canvas(20, 4, THEME, look, by_cells=True)
    made = frames(_recording(), 20, 4, framerate=50)
    path = tmp_path / "demo.gif"
    write_animation(str(path), made, canvas)
    first = path.read_bytes()
    write_animation(str(path), made, Canvas(20, 4, THEME, look, by_cells=True))
    assert path.read_bytes() == first  # the same recording, the same bytes
    with Image.open(path) as gif:
        assert (gif.size, gif.n_frames, gif.info["loop"]) == (canvas.size, 5, 0)
        delays, pictures = [], []
        for number in range(gif.n_frames):
            gif.seek(number)
            delays.append(gif.info["duration"])
            pictures.append(gif.convert("RGB"))
    assert delays == [300, 300, 400, 1000, 20]
    width, height = cell_pixels(look)
    left, top = canvas.layout.left, canvas.layout.top
    red = tuple(int(THEME.palette[1][i:i + 2], 16) for i in (1, 3, 5))
    assert pictures[3].getpixel((left + 1, top + height + 1)) == red  # "red" on row 1
    assert pictures[2].getpixel((left + 1, top + height + 1)) != red
    # the text read back: the cells of the prompt are the same in the first and last frame
    prompt = (left, top, left + 2 * width, top + height)
    assert pictures[0].crop(prompt).tobytes() == pictures[4].crop(
        (left, top + 2 * height, left + 2 * width, top + 3 * height)).tobytes()


def test_each_gif_frame_decodes_to_its_screen_drawn_crisp(tmp_path: Path) -> None:
    """A frame after the first holds only the pixels that changed (the rest are the
    transparent index), and a GIF's text is crisp unless asked: each frame, composed as a
    viewer composes them, is exactly its screen drawn with crisp text. The changes include
    two far apart (an editor's line and its status line), a pixel going back to the colour
    it had two frames before, and a colour going away."""
    events = [out(0.0, "\x1b[H\x1b[2Jtop line\x1b[4;1Hstatus 1"),
              out(0.1, "\x1b[1;1Hxop\x1b[4;8H2"), out(0.2, "\x1b[1;1Ht"),
              out(0.3, "\x1b[2;1H\x1b[41;33mred\x1b[0m"), out(0.4, "\x1b[2;1H\x1b[K")]
    canvas = Canvas(20, 4, THEME, Look(font_size=16, padding=10), by_cells=True)
    made = frames(events, 20, 4, framerate=50)
    assert len(made) == 5
    write_animation(str(tmp_path / "edit.gif"), made, canvas)
    crisp = canvas.with_antialias(False)
    with Image.open(tmp_path / "edit.gif") as gif:
        assert gif.n_frames == 5
        for number, frame in enumerate(made):
            gif.seek(number)
            assert gif.convert("RGB").tobytes() == crisp.paint(frame.screen).tobytes(), number
    shades = {colour for _, colour in canvas.paint(made[3].screen).getcolors(1 << 24) or []}
    assert len(shades) > 2 * len({colour for _, colour in crisp.paint(
        made[3].screen).getcolors(1 << 24) or []})  # the canvas itself stays anti-aliased


def test_webp_and_a_directory_of_frames(tmp_path: Path) -> None:
    canvas = Canvas(20, 4, THEME, Look(font_size=16, padding=10), by_cells=True)
    made = frames(_recording(), 20, 4)
    write_animation(str(tmp_path / "demo.webp"), made, canvas)
    with Image.open(tmp_path / "demo.webp") as webp:
        assert (webp.size, webp.n_frames) == (canvas.size, 5)
    write_animation(str(tmp_path / "frames") + "/", made, canvas)
    names = sorted(path.name for path in (tmp_path / "frames").iterdir())
    assert names == ["durations.txt", *(f"frame-{n:05d}.png" for n in range(1, 6))]
    assert (tmp_path / "frames" / "durations.txt").read_text() == "300\n300\n400\n1000\n20\n"
    with Image.open(tmp_path / "frames" / "frame-00005.png") as last:
        assert last.size == canvas.size


def _play(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "termhost", "play", *args],
                          capture_output=True, text=True, timeout=60, check=False)


def test_play_gif_writes_the_recording_as_agg_does(tmp_path: Path) -> None:
    cast = tmp_path / "demo.cast"
    cast.write_text("\n".join([json.dumps({"version": 2, "width": 20, "height": 4}),
                               *(json.dumps([e.time, "o", e.data]) for e in _recording()),
                               json.dumps([30.0, "o", "x"])]) + "\n")
    done = _play(str(cast), "--gif", str(tmp_path / "demo.gif"), "-i", "1", "--fps", "25",
                 "--theme", "nord")
    assert (done.returncode, done.stderr) == (0, "")
    # 25 fps: 40 ms ticks; the 28 s idle cut to 1 s
    assert gif_delays(tmp_path / "demo.gif") == [280, 320, 400, 1000, 1000, 40]
    # crisp text by default; --antialias shades its edges
    shades = []
    for antialias in ([], ["--antialias"]):
        done = _play(str(cast), "--gif", str(tmp_path / "demo.gif"), *antialias)
        assert (done.returncode, done.stderr) == (0, "")
        with Image.open(tmp_path / "demo.gif") as gif:
            gif.seek(gif.n_frames - 1)
            shades.append(len(gif.convert("RGB").getcolors(1 << 24) or []))
    assert shades[1] > 2 * shades[0]


def test_play_gif_font_family_takes_the_first_installed(tmp_path: Path) -> None:
    """agg's --font-family: the first installed family of the list draws, its cells its
    own (DejaVu Serif's `W` is 1.03 em: 14 px cells at 14 px, not 8)."""
    cast = tmp_path / "demo.cast"
    cast.write_text("\n".join([json.dumps({"version": 2, "width": 20, "height": 4}),
                               *(json.dumps([e.time, "o", e.data]) for e in _recording())]))
    widths = []
    for family in ([], ["--font-family", "No Such Font, DejaVu Serif"]):
        done = _play(str(cast), "--gif", str(tmp_path / "demo.gif"), *family)
        assert (done.returncode, done.stderr) == (0, "")
        with Image.open(tmp_path / "demo.gif") as gif:
            widths.append(gif.width)
    assert widths[1] - widths[0] == 20 * (14 - 8)


@pytest.mark.parametrize(("args", "message"), [
    (["--gif", "x.mov"], "termhost play: --gif x.mov: the picture must be .gif, .webp, .mp4, "
                         ".webm or a DIRECTORY/ (try 'termhost play --help')\n"),
    (["--gif", "a.gif", "--screen", "1"], "termhost play: --gif and --screen: one or the "
                                          "other (try 'termhost play --help')\n"),
    (["--gif", "/no/such/dir/a.gif"], "termhost play: cannot write /no/such/dir/a.gif: No "
                                      "such file or directory\n"),
    (["--gif", "a.gif", "--fps", "0"], None),
    (["--antialias"], "termhost play: --antialias and --font-family go with --gif (try "
                      "'termhost play --help')\n"),
    (["--gif", "a.gif", "--font-family", "No Such Font"],
     "termhost play: --font-family No Such Font: none of it is installed (fc-list lists "
     "what is)\n"),
])
def test_play_gif_refuses_in_one_line(tmp_path: Path, args: list[str],
                                      message: str | None) -> None:
    cast = tmp_path / "demo.cast"
    cast.write_text(json.dumps({"version": 2, "width": 20, "height": 4}) + "\n")
    done = _play(str(cast), *args)
    assert done.returncode == (1 if "cannot write" in (message or "")
                               or "installed" in (message or "") else 2)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    if message is not None:
        assert done.stderr == message


def _probe(path: Path) -> dict[str, object]:
    done = subprocess.run(["ffprobe", "-v", "error", "-show_entries",
                           "stream=codec_name,width,height,nb_read_frames", "-count_frames",
                           "-show_entries", "format=duration", "-of", "json", str(path)],
                          capture_output=True, text=True, timeout=60, check=True)
    found = json.loads(done.stdout)
    return {**found["streams"][0], "duration": float(found["format"]["duration"])}


@pytest.mark.parametrize(("name", "codec"), [("demo.mp4", "h264"), ("demo.webm", "vp9")])
def test_video_through_ffmpeg_as_vhs_encodes_it(tmp_path: Path, name: str, codec: str) -> None:
    """A frame a screen, each as long as it stayed up: ffmpeg's concat of the frames,
    with VHS's codecs (.ci/run installs ffmpeg)."""
    canvas = Canvas(20, 4, THEME, Look(font_size=16, padding=10), by_cells=True)
    made = frames(_recording(), 20, 4)
    write_animation(str(tmp_path / name), made, canvas)
    probed = _probe(tmp_path / name)
    width, height = canvas.size
    assert (probed["codec_name"], probed["width"], probed["height"]) == (
        codec, width + width % 2, height + height % 2)
    assert probed["nb_read_frames"] == "6"  # concat's rule: the last frame given twice
    assert probed["duration"] == pytest.approx(2.02, abs=0.1)  # and that last frame's tick


def test_video_without_ffmpeg_is_one_line_naming_it(tmp_path: Path) -> None:
    cast = tmp_path / "demo.cast"
    cast.write_text(json.dumps({"version": 2, "width": 20, "height": 4}) + "\n")
    (tmp_path / "bin").mkdir()
    done = subprocess.run([sys.executable, "-m", "termhost", "play", str(cast), "--gif",
                           str(tmp_path / "demo.mp4")], env={"PATH": str(tmp_path / "bin")},
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (1, f"termhost play: {tmp_path}/demo.mp4: .mp4 "
                                                 "needs ffmpeg, which is not installed (.gif "
                                                 "and .webp do not)\n")
    assert not (tmp_path / "demo.mp4").exists()


def test_the_cursor_blinks_on_a_screen_that_stays() -> None:
    """VHS's CursorBlink: shown 0.6 s, hidden 0.6 s, from the screen's start; a screen
    with no cursor, or up for less, is left as it is."""
    made = frames([out(0.0, "$ "), out(1.5, "x"), out(1.8, "\x1b[?25l")], 20, 2, framerate=10)
    blinked = blinking(made)
    assert [round(frame.duration, 6) for frame in blinked] == [0.6, 0.6, 0.3, 0.3, 0.1]
    assert [frame.screen.cursor for frame in blinked] == [(2, 0), None, (2, 0), (3, 0), None]
    hidden = blinked[1].screen
    assert not any(run.style.cursor for line in hidden.lines for run in line)
    assert hidden.lines[0][0].text.rstrip() == "$"  # the text stays


def test_a_tape_s_cursor_blinks_unless_cursorblink_is_false(
        tmp_path: Path) -> None:
    def delays(setting: str) -> list[int]:
        tape = tmp_path / "blink.tape"
        tape.write_text(f"Output blink.gif\nSet Columns 20 Set Rows 3 {setting}\n"
                        "Set TypingSpeed 0\nType 'x' Sleep 1.5s\n")
        done = subprocess.run([sys.executable, "-m", "termhost", "tape", "-q", str(tape)],
                              capture_output=True, text=True, timeout=60, check=False)
        assert (done.returncode, done.stderr) == (0, "")
        return gif_delays(tmp_path / "blink.gif")

    assert delays("") == [600, 600, 300]
    assert delays("Set CursorBlink false") == [1500]


def test_a_colour_that_comes_late_keeps_its_value_in_the_gif(tmp_path: Path) -> None:
    """The palette is made from frames across the animation: a red that shows only in
    the last of thirty frames is red in the GIF, not the nearest colour of the first."""
    events = [out(index * 0.1, f"{index} ") for index in range(29)]
    events.append(out(3.0, "\r\n\x1b[41m    \x1b[0m"))
    look = Look(font_size=16, padding=10)
    canvas = Canvas(90, 4, THEME, look, by_cells=True)  # the numbers fit on row 0
    write_animation(str(tmp_path / "late.gif"), frames(events, 90, 4), canvas)
    with Image.open(tmp_path / "late.gif") as gif:
        assert gif.n_frames == 30
        gif.seek(29)
        last = gif.convert("RGB")
    _, height = cell_pixels(look)
    red = tuple(int(THEME.palette[1][i:i + 2], 16) for i in (1, 3, 5))
    assert last.getpixel((canvas.layout.left + 2, canvas.layout.top + height + 2)) == red
