"""Moving pictures: GIF, animated WebP, MP4 and WebM (ffmpeg's), or a directory of PNG
frames, made from frames, screens each with how long it stayed up (termhost.record.frames
makes them from a recording, a tape's runner on the tape's own clock), with no terminal or
browser (agg's job for asciinema, and VHS's Output .gif).

- `loop_offset` starts the loop that far into it (per cent), the frames before moved to
  the end (VHS's LoopOffset); `blinking` makes the cursor blink on a screen that stays
  (VHS's CursorBlink).
- GIF and WebP are encoded by Pillow, and the same frames give the same bytes. A GIF's
  frames are quantized to one palette of 255 colours, made from frames spread across
  it, with no dithering, so equal screens give equal pixels. Each frame after the first
  holds only the rectangle that changed, and in it the pixels that did not change are
  the 256th, transparent, index: long runs of one index, which LZW codes in a few bytes
  (an editor's line and its status line, far apart, cost two lines, not the screen
  between them).
- A GIF's text is crisp (not anti-aliased) unless asked otherwise: LZW codes the many
  shades of anti-aliased glyph edges at about twice the bytes, and a README's GIF is
  read at its size, where hinted one-bit glyphs are as legible (bench/gif.py: 1.8 MB
  crisp, 3.9 MB smooth, for a minute of shell, editor and scrolling log). Every other
  format is anti-aliased: their coders do not pay for it.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image, ImageChops

from termhost.render.raster import Canvas
from termhost.render.snapshot import Snapshot

__all__ = ["ANIMATIONS", "BLINK", "MOVING_PICTURES", "Frame", "MissingProgram", "blinking",
           "kind_of", "rotated", "write_animation"]

ANIMATIONS = (".gif", ".webp", ".mp4", ".webm")
"""The extensions of moving pictures; a path ending in `/` is a directory of PNG frames.
GIF and WebP are Pillow's; MP4 and WebM are ffmpeg's, given the frames."""
MOVING_PICTURES = ("gif", "webp", "mp4", "webm", "frames")
"""What `write_animation` writes."""
_FFMPEG_CODECS = {
    "mp4": ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20", "-an"],
    "webm": ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-crf", "30", "-b:v", "0", "-an"],
}
"""What VHS asks of ffmpeg for each video format."""


class MissingProgram(OSError):
    """A video format whose encoder (ffmpeg) is not installed: one line names it."""


_PALETTE_FRAMES = 8
"""How many frames' colours make the palette: spread over the whole animation, first and
last among them, so that a colour that comes late (an error in red) is in it too."""
_UNCHANGED = 255
"""A GIF's transparent index, which no colour of its palette (255 of them) takes: a pixel
that kept the colour it had in the frame before."""


@dataclass(frozen=True)
class Frame:
    """A screen and how long, in seconds, it stays up."""

    screen: Snapshot
    duration: float


def kind_of(path: str) -> str | None:
    """"gif", "webp", "mp4", "webm" or "frames" (a path ending in `/`) for a picture
    path; else None."""
    if path.endswith(("/", os.sep)):
        return "frames"
    extension = os.path.splitext(path)[1].lower()
    return extension[1:] if extension in ANIMATIONS else None


BLINK = 0.6
"""Seconds the cursor is shown, then hidden, while the screen stays (xterm.js's blink)."""


def blinking(made: list[Frame], period: float = BLINK) -> list[Frame]:
    """The cursor blinking (VHS's CursorBlink): a frame that stays longer than `period`
    shows its cursor for `period`, then not for `period`, and so on, from its start."""
    blinked: list[Frame] = []
    for frame in made:
        if frame.screen.cursor is None or frame.duration <= period:
            blinked.append(frame)
            continue
        hidden = _without_cursor(frame.screen)
        left, shown = frame.duration, True
        while left > 1e-9:
            step = min(period, left)
            blinked.append(Frame(frame.screen if shown else hidden, step))
            left -= step
            shown = not shown
    return blinked


def _without_cursor(screen: Snapshot) -> Snapshot:
    lines = tuple(tuple(replace(run, style=replace(run.style, cursor=False))
                        if run.style.cursor else run for run in line)
                  for line in screen.lines)
    return replace(screen, lines=lines, cursor=None)


def rotated(made: list[Frame], offset: float) -> list[Frame]:
    """The loop started `offset` per cent in: the frames before, moved to the end."""
    total = sum(frame.duration for frame in made)
    if not offset or len(made) < 2 or total <= 0:
        return made
    skip = (offset / 100 * total) % total
    elapsed = 0.0
    for index, frame in enumerate(made):
        if elapsed + frame.duration > skip:
            head = skip - elapsed
            if head <= 0:
                return made[index:] + made[:index]
            return ([Frame(frame.screen, frame.duration - head), *made[index + 1:],
                     *made[:index], Frame(frame.screen, head)])
        elapsed += frame.duration
    return made


def write_animation(path: str, made: list[Frame], canvas: Canvas, *, kind: str | None = None,
                    antialias: bool | None = None) -> None:
    """`made` drawn by `canvas` into `path`: a .gif or .webp that loops, an .mp4 or .webm
    (ffmpeg's: MissingProgram without it), or a directory (a path ending in `/`) of
    frame-00001.png... with their delays in durations.txt; `kind` (one of MOVING_PICTURES)
    says which, whatever the path's extension. The text is anti-aliased as `antialias` says; by
    default in all but a GIF."""
    kind = kind or kind_of(path)
    if kind not in MOVING_PICTURES:
        raise ValueError(f"{path}: not a moving picture (.gif, .webp, .mp4, .webm or DIR/)")
    canvas = canvas.with_antialias(kind != "gif" if antialias is None else antialias).fitting(
        max(frame.screen.cols for frame in made), max(frame.screen.rows for frame in made))
    pictures = [canvas.paint(frame.screen) for frame in made]
    delays = _delays([frame.duration for frame in made])
    if kind in _FFMPEG_CODECS:
        _encode_video(path, kind, pictures, [frame.duration for frame in made])
        return
    if kind == "frames":
        directory = Path(path)
        directory.mkdir(parents=True, exist_ok=True)
        for number, picture in enumerate(pictures, start=1):
            picture.save(directory / f"frame-{number:05d}.png", optimize=False)
        (directory / "durations.txt").write_text("".join(f"{delay}\n" for delay in delays))
        return
    if kind == "gif":
        _write_gif(path, pictures, delays)
    else:
        pictures[0].save(path, format="WEBP", save_all=True, append_images=pictures[1:],
                         duration=delays, loop=0, lossless=True, method=4)


def _write_gif(path: str, pictures: list[Image.Image], delays: list[int]) -> None:
    """The frames in one palette, each after the first with its unchanged pixels
    transparent; Pillow crops each to the rectangle that changed (disposal 1: a frame
    is drawn over the one before)."""
    palette = _palette(pictures)
    indexed = [picture.quantize(palette=palette, dither=Image.Dither.NONE)
               for picture in pictures]
    coded = [indexed[0], *(_changes(before, after)
                           for before, after in itertools.pairwise(indexed))]
    coded[0].save(path, format="GIF", save_all=True, append_images=coded[1:],
                  duration=delays, loop=0, optimize=False, disposal=1, transparency=_UNCHANGED)


def _changes(before: Image.Image, after: Image.Image) -> Image.Image:
    """`after` with the pixels whose index is `before`'s made `_UNCHANGED`."""
    difference = ImageChops.subtract_modulo(after, before)  # indices: 0 where unchanged
    unchanged = difference.point([255, *(0,) * 255], "1")  # on indices, not the palette
    changes = after.copy()
    changes.paste(_UNCHANGED, mask=unchanged)
    return changes


def _encode_video(path: str, kind: str, pictures: list[Image.Image],
                  durations: list[float]) -> None:
    """MP4 or WebM through ffmpeg: the frames as PNGs and their durations in a concat
    list, so that a frame shown for 3 s is one frame, not 150."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise MissingProgram(f"{path}: .{kind} needs ffmpeg, which is not installed "
                             "(.gif and .webp do not)")
    with tempfile.TemporaryDirectory(prefix="termhost-video-") as scratch:
        listing = []
        for number, (picture, duration) in enumerate(zip(pictures, durations, strict=True)):
            name = f"frame-{number:05d}.png"
            _even(picture).save(os.path.join(scratch, name), optimize=False)
            listing.append(f"file '{name}'\nduration {duration:.6f}\n")
        listing.append(f"file 'frame-{len(pictures) - 1:05d}.png'\n")  # concat's last-frame rule
        concat = os.path.join(scratch, "frames.txt")
        Path(concat).write_text("".join(listing))
        done = subprocess.run(
            [ffmpeg, "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", concat,
             "-fps_mode", "vfr", *_FFMPEG_CODECS[kind], os.path.abspath(path)],
            capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise OSError(f"{path}: ffmpeg: {last}")


def _even(picture: Image.Image) -> Image.Image:
    """yuv420p wants even sides: a pixel of the edge repeated where one is odd."""
    width, height = picture.size
    if width % 2 == 0 and height % 2 == 0:
        return picture
    padded = Image.new("RGB", (width + width % 2, height + height % 2))
    padded.paste(picture, (0, 0))
    padded.paste(picture.crop((width - 1, 0, width, height)), (width, 0))
    padded.paste(padded.crop((0, height - 1, padded.width, height)), (0, height))
    return padded


def _delays(durations: list[float]) -> list[int]:
    """Milliseconds, in GIF's steps of 10 and at least 20 (browsers slow shorter ones),
    rounded so that the sum keeps up with the durations."""
    delays, spent, owed = [], 0, 0.0
    for duration in durations:
        owed += duration * 1000
        delay = max(20, round((owed - spent) / 10) * 10)
        delays.append(delay)
        spent += delay
    return delays


def _palette(pictures: list[Image.Image]) -> Image.Image:
    """One palette for every frame, from the colours of frames across it side by side."""
    last = len(pictures) - 1
    count = min(_PALETTE_FRAMES, len(pictures))
    sample = [pictures[round(index * last / max(1, count - 1))] for index in range(count)]
    width, height = sample[0].size
    strip = Image.new("RGB", (width, height * len(sample)))
    for index, picture in enumerate(sample):
        strip.paste(picture, (0, index * height))
    return strip.quantize(colors=_UNCHANGED, method=Image.Quantize.MEDIANCUT,
                          dither=Image.Dither.NONE)
