"""Where new panes start, compared with a live tmux 3.3a: -c is a format
(`split-window -c "#{pane_current_path}"`, the most common line of real configs),
a relative -c is taken from the asking client's directory, and a directory that is not
there is no error: the pane starts anyway and #{pane_start_path} says what was asked."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import BothServers


def test_c_is_a_format_relative_to_the_client_and_may_be_missing(both: BothServers,
                                                                 tmp_path: Path) -> None:
    there = tmp_path / "project"
    there.mkdir()
    for name in both.NAMES:
        steps = [
            ["new-session", "-d", "-s", "s", "-c", str(there), "sleep 1000"],
            ["split-window", "-d", "-t", "s", "-c", "#{pane_start_path}/..", "-P", "-F",
             "#{pane_start_path}", "sleep 1000"],
            ["new-window", "-d", "-t", "s:", "-c", "sub dir", "-P", "-F", "#{pane_start_path}",
             "sleep 1000"],
            ["new-window", "-d", "-t", "s:", "-c", "/nonexistent/place", "-P", "-F",
             "#{pane_start_path}", "sleep 1000"],
        ]
        answers = [both.run(name, *step, cwd=tmp_path) for step in steps]
        assert [a.returncode for a in answers] == [0, 0, 0, 0], (name, answers)
        assert [a.stdout for a in answers[1:]] == [
            f"{there}/..\n", f"{tmp_path}/sub dir\n", "/nonexistent/place\n"], name
        assert both.run(name, "list-panes", "-s", "-t", "s", "-F", "#{pane_dead}").stdout == (
            "0\n0\n0\n0\n"), name  # all four started
