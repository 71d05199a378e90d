"""`termhost screenshot` of a live pane, against a real server: what a person would check
in the file they get (the characters, the colours, the wide characters, the frame) and
what they read when something is wrong."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path

import pytest

from termhost.themes import load_theme
from tests.conftest import wait_until

SVG = "{http://www.w3.org/2000/svg}"
SHOWN = "printf '\\033[31mred\\033[0m 日本\\n'; exec sleep 1000"
HIDDEN = "printf '\\033[31mred\\033[0m 日本\\n\\033[?25l'; exec sleep 1000"


def termhost(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "termhost", *args], env=env,
                          capture_output=True, text=True, timeout=30, check=False)


def screenshot(env: dict[str, str], *args: str) -> str:
    done = termhost(env, "screenshot", *args)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A private server with two 40x10 panes showing a red word and two wide characters:
    `s` with its cursor shown, `h` with it hidden."""
    environment = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path_factory.mktemp("server")),
                   "SHELL": "/bin/sh", "ENV": ""}
    environment.pop("TERMHOST", None)

    def ready() -> bool:
        screens = [termhost(environment, "capture-pane", "-p", "-t", name).stdout
                   for name in ("s:", "h:")]
        hidden = termhost(environment, "display", "-p", "-t", "h", "#{cursor_flag}").stdout
        return all("red 日本" in screen for screen in screens) and hidden == "0\n"

    try:
        for name, command in (("s", SHOWN), ("h", HIDDEN)):
            termhost(environment, "new-session", "-d", "-s", name, "-x", "40", "-y", "10",
                     command)
        wait_until(ready, what="both sessions' output, and h's cursor hidden")
        yield environment
    finally:
        termhost(environment, "kill-server")


def test_text_is_what_capture_pane_prints(env: dict[str, str]) -> None:
    shot = screenshot(env, "-t", "s:")
    assert shot == termhost(env, "capture-pane", "-p", "-t", "s:").stdout
    assert shot.splitlines() == ["red 日本"] + [""] * 9


def test_text_to_a_file_and_without_a_target(env: dict[str, str], tmp_path: Path) -> None:
    screenshot(env, "-o", str(tmp_path / "shot.txt"))  # the current pane
    assert (tmp_path / "shot.txt").read_text(encoding="utf-8").startswith("red 日本\n")


def test_svg_holds_the_characters_and_wide_ones_take_two_cells(
    env: dict[str, str], tmp_path: Path
) -> None:
    screenshot(env, "-t", "s:", "-o", str(tmp_path / "shot.svg"), "--title", "demo")
    root = ElementTree.parse(tmp_path / "shot.svg").getroot()
    texts = {element.text: element for element in root.iter(f"{SVG}text")}
    assert "demo" in texts  # the frame's title
    screen = root.find(f"{SVG}g")
    assert screen is not None
    runs = list(screen.iter(f"{SVG}text"))
    assert "".join(run.text or "" for run in runs).startswith("red日本")  # blanks: no text
    first = runs[0]
    cell = float(first.get("textLength", "0")) / len(first.text or "x")
    wide, after = texts["日"], texts["本"]
    assert float(wide.get("textLength", "0")) == 2 * cell
    assert float(after.get("x", "0")) - float(wide.get("x", "0")) == 2 * cell


def test_the_red_word_is_the_themes_red(env: dict[str, str], tmp_path: Path) -> None:
    screenshot(env, "-t", "s:", "-o", str(tmp_path / "shot.svg"), "--theme", "nord")
    root = ElementTree.parse(tmp_path / "shot.svg").getroot()
    word = next(e for e in root.iter(f"{SVG}text") if (e.text or "").startswith("red"))
    assert (word.text, word.get("fill")) == ("red", load_theme("nord").palette[1])


def test_html_has_the_characters_the_title_and_the_frame(
    env: dict[str, str], tmp_path: Path
) -> None:
    screenshot(env, "-t", "s:", "-o", str(tmp_path / "shot.html"), "--title", "demo")
    framed = (tmp_path / "shot.html").read_text(encoding="utf-8")
    assert "<title>demo</title>" in framed and 'class="bar"' in framed
    assert re.search(r"<pre>.*>red</span> .*>日</span>.*>本</span>", framed)
    bare = screenshot(env, "-t", "s:", "--format", "html", "--no-frame")
    assert 'class="bar"' not in bare


def test_ansi_is_the_text_with_sgr(env: dict[str, str]) -> None:
    shot = screenshot(env, "-t", "s:", "--format", "ansi", "--theme", "nord")
    assert "\x1b[" in shot
    plain = [line.rstrip(" ") for line in re.sub(r"\x1b\[[0-9;:]*m", "", shot).splitlines()]
    assert plain == termhost(env, "capture-pane", "-p", "-t", "s:").stdout.splitlines()


def test_the_cursor_is_drawn_only_when_the_pane_shows_it(env: dict[str, str]) -> None:
    # `s:`, not `s`: a bare name is first a window of the current session (h's `sh`
    # starts with s), as tmux's cmd_find_get_pane looks
    def rects(target: str) -> int:
        svg = ElementTree.fromstring(screenshot(env, "-t", target, "--format", "svg"))
        screen = svg.find(f"{SVG}g")
        assert screen is not None
        return len(screen.findall(f"{SVG}rect"))

    assert rects("s:") == rects("h") + 1


def test_two_screenshots_are_the_same_bytes(env: dict[str, str], tmp_path: Path) -> None:
    for name in ("one", "two"):
        screenshot(env, "-t", "s:", "-o", str(tmp_path / f"{name}.svg"))
    assert (tmp_path / "one.svg").read_bytes() == (tmp_path / "two.svg").read_bytes()


@pytest.mark.parametrize(("args", "message"), [
    (["-t", "s:0.9"], "can't find pane: 9"),
    (["-t", "s:", "--theme", "nope"], "unknown theme 'nope'"),
    (["-t", "s:", "-o", "/nonexistent/shot.svg"], "/nonexistent/shot.svg: No such file"),
    (["-t", "s:", "-o", "shot.png"], "shot.png: cannot tell the screenshot format"),
])
def test_failures_are_one_line(env: dict[str, str], args: list[str], message: str) -> None:
    done = termhost(env, "screenshot", *args)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(f"termhost screenshot: {message}")
    assert done.stderr.count("\n") == 1


def test_no_server(tmp_path: Path) -> None:
    environment = {**os.environ, "TERMHOST_TMPDIR": str(tmp_path)}
    done = termhost(environment, "screenshot")
    assert done.returncode == 1
    assert re.fullmatch(r"termhost screenshot: no server running on \S+\n", done.stderr)


def test_a_usage_error_exits_2(env: dict[str, str]) -> None:
    done = termhost(env, "screenshot", "--format", "png")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "try 'termhost screenshot --help'" in done.stderr
