"""Set FontFamily's font: the first family of VHS's CSS-style list that is installed, found
through fontconfig, with the metrics its terminal cells follow (termhost.render.geometry).

- A family fontconfig does not have is skipped, as a browser skips it; fontconfig's
  substitute for it (it always names one) does not count.
- DejaVu Sans Mono is the font shipped beside termhost.render.raster: its files are the
  shipped ones, so that a tape naming it draws the same bytes on every machine.
- Bold and italic are the family's own faces when it has them, else the regular one.
- Metrics are FreeType's, read at 1000 px: the advance of a `W` (what xterm.js measures a
  cell's width by) and ascent plus descent.
"""

from __future__ import annotations

import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

from termhost.render.geometry import Face

__all__ = ["FONTS", "SHIPPED_FAMILY", "SHIPPED_FILES", "fc_match", "find_face"]

FONTS = Path(__file__).parent / "fonts"
"""DejaVu Sans Mono, regular, bold, oblique and both, with its licence."""
SHIPPED_FAMILY = "DejaVu Sans Mono"
SHIPPED_FILES = (str(FONTS / "DejaVuSansMono.ttf"), str(FONTS / "DejaVuSansMono-Bold.ttf"),
                 str(FONTS / "DejaVuSansMono-Oblique.ttf"),
                 str(FONTS / "DejaVuSansMono-BoldOblique.ttf"))
"""The shipped faces: regular, bold, italic, bold italic."""


def find_face(families: str) -> Face | None:
    """The first of `families` (`"Fira Code, Menlo"`) that is installed; None for none."""
    for name in (part.strip().strip("'\"").strip() for part in families.split(",")):
        if not name:
            continue
        if name.casefold() == SHIPPED_FAMILY.casefold():
            return _face(SHIPPED_FAMILY, SHIPPED_FILES)
        regular = _match(name, "")
        if regular is not None:
            return _face(name, (regular, _match(name, ":weight=bold") or regular,
                                _match(name, ":slant=italic") or regular,
                                _match(name, ":weight=bold:slant=italic") or regular))
    return None


def fc_match(pattern: str, answer: str) -> str:
    """fontconfig's best font for `pattern`, as the `answer` format gives it (`%{file}`);
    "" when fontconfig is not installed or fails."""
    if shutil.which("fc-match") is None:
        return ""
    try:
        return subprocess.run(["fc-match", "-f", answer, pattern], capture_output=True,
                              text=True, timeout=5, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _match(family: str, style: str) -> str | None:
    """fontconfig's file for `family` in `style`, if it is that family's own."""
    names, _, path = fc_match(f"{family}{style}", "%{family}\n%{file}").partition("\n")
    ours = family.casefold() in (name.strip().casefold() for name in names.split(","))
    return path if ours and path else None


def _face(family: str, files: tuple[str, str, str, str]) -> Face:
    from PIL import ImageFont  # only a tape that names a font pays for Pillow here

    font = ImageFont.truetype(files[0], 1000)
    ascent, descent = font.getmetrics()
    return Face(family, files, Fraction(round(font.getlength("W")), 1000),
                Fraction(ascent + descent, 1000))
