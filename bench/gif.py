"""A recording rendered to a GIF (termhost play --gif, the tapes' Output .gif): the wall
time beside the recording's own length, the file's size, frames rendered a second and
bytes a frame.

The recording is made here, deterministically, as a 120x40 asciicast of `--seconds` (60):
a third a shell session typed at 12 keys a second, a third a full-screen editor (vim-like:
the alternate screen, a status line, the cursor moving and lines edited every 100 ms), a
third a log scrolling at 4 lines a second (--log-rate). tmux makes no pictures: the baseline the
issue sets is the recording's own length (target: at most 2x it) and 2 MB for the file.

Benchmarks report, they do not gate. Run: `.venv/bin/python bench/gif.py`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COLS, ROWS = 120, 40


def recording(seconds: float, log_rate: float = 4.0) -> list[tuple[float, str]]:
    """The events: shell, editor, log (`log_rate` lines a second), each a third of
    `seconds`."""
    events: list[tuple[float, str]] = [(0.0, "$ ")]
    third = seconds / 3
    at, typed = 0.2, 0
    command = "git log --oneline --graph --decorate | head -n 30 && make test\r\n"
    while at < third:
        events.append((at, command[typed % len(command)]))
        if command[typed % len(command)] == "\n":
            events.append((at + 0.05, "".join(f"* {n:07x} change {n}\r\n" for n in range(8))
                           + "$ "))
        typed += 1
        at += 1 / 12
    events.append((third, "\x1b[?1049h\x1b[H\x1b[2J" + "".join(
        f"\x1b[{row + 1};1H\x1b[34m{row + 1:4d}\x1b[0m def function_{row}(argument):"
        for row in range(ROWS - 1)) + f"\x1b[{ROWS};1H\x1b[7m NORMAL  main.py \x1b[0m"))
    at, edit = third + 0.1, 0
    while at < 2 * third:
        row = edit % (ROWS - 1) + 1
        events.append((at, f"\x1b[{row};6H\x1b[K\x1b[33mreturn\x1b[0m value_{edit} + {edit}"
                           f"\x1b[{ROWS};100H{row},{edit % 80}"))
        edit += 1
        at += 0.1
    events.append((2 * third, "\x1b[?1049l\r\n$ tail -f server.log\r\n"))
    at, line = 2 * third + 0.05, 0
    while at < seconds:
        level = ("\x1b[32mINFO\x1b[0m", "\x1b[33mWARN\x1b[0m", "\x1b[31mERROR\x1b[0m")[line % 3]
        events.append((at, f"2026-12-06 12:00:{line % 60:02d} {level} request {line} "
                           f"took {line % 97} ms from 10.0.{line % 255}.{line % 7}\r\n"))
        line += 1
        at += 1 / log_rate
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--fps", type=int, default=50)
    parser.add_argument("--log-rate", type=float, default=4.0)
    parser.add_argument("--font-size", type=int, default=14)
    parser.add_argument("--antialias", action="store_true",
                        help="anti-aliased text (a GIF's default is crisp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        cast = Path(directory) / "demo.cast"
        events = recording(args.seconds, args.log_rate)
        cast.write_text("\n".join([json.dumps({"version": 2, "width": COLS, "height": ROWS}),
                                   *(json.dumps([round(at, 6), "o", data])
                                     for at, data in events)]) + "\n")
        gif = Path(directory) / "demo.gif"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "termhost", "play", str(cast), "--gif", str(gif),
                        "--fps", str(args.fps), "--font-size", str(args.font_size),
                        *(["--antialias"] if args.antialias else [])], check=True)
        wall = time.perf_counter() - start
        size = gif.stat().st_size
        from PIL import Image

        with Image.open(gif) as picture:
            count, dimensions = picture.n_frames, picture.size
    print(f"{COLS}x{ROWS} recording of {args.seconds:g} s ({len(events)} events, log at "
          f"{args.log_rate:g} lines/s, font {args.font_size} px"
          f"{', anti-aliased' if args.antialias else ', crisp'}), "
          f"{dimensions[0]}x{dimensions[1]} pixels, {count} frames")
    print(f"  wall time: {wall:.1f} s = {wall / args.seconds:.2f}x the recording "
          f"(target <= 2x)")
    print(f"  file: {size / 1e6:.2f} MB (target <= 2 MB), {size / count:.0f} bytes/frame")
    print(f"  frames rendered: {count / wall:.1f}/s")


if __name__ == "__main__":
    main()
