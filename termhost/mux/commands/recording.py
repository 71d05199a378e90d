"""record-pane: termhost's own verb behind `termhost record -t`, a pane recorded from now on.

The server holds the pane, so the server writes the file: a tap on the pane (`PaneTap`)
gets the program's bytes exactly as read from the PTY, before the emulator, so the file
has all of them whatever the screen makes of them. The recording ends with the pane (an
`x` event in v3 when its process ended) or with `record-pane -S`. The path comes absolute
from the client, whose working directory is not the server's.

    record-pane -t target-pane -o path [-v 2|3] [-i idle-time-limit] [-T title] [-P theme]
    record-pane -S -t target-pane
"""

from __future__ import annotations

import os
import time

from termhost import themes
from termhost.mux.commands import CommandError, Context, Result, command, find_pane
from termhost.mux.pane import Pane
from termhost.process import ExitStatus
from termhost.record.asciicast import Header, RecordingError, Writer, writer_for
from termhost.record.recorder import exit_code

__all__ = ["PaneRecording", "record_pane"]


class PaneRecording:
    """A pane's output, resizes and end, to one asciicast writer (a `PaneTap`)."""

    def __init__(self, writer: Writer, path: str, cols: int, rows: int) -> None:
        self.path = path
        self._writer = writer
        self._size = (cols, rows)
        self._start = time.monotonic()

    def _now(self) -> float:
        return time.monotonic() - self._start

    def output(self, data: bytes) -> None:
        self._writer.output(data, self._now())

    def resized(self, cols: int, rows: int) -> None:
        """An `r` event when the size did change (a layout pass resizes every pane)."""
        if (cols, rows) != self._size:
            self._size = (cols, rows)
            self._writer.resize(cols, rows, self._now())

    def ended(self, status: ExitStatus | None) -> None:
        if status is not None:
            self._writer.exit(exit_code(status), self._now())
        self.stop()

    def stop(self) -> None:
        self._writer.close(self._now())


def _recording_of(pane: Pane) -> PaneRecording | None:
    return next((tap for tap in pane.taps if isinstance(tap, PaneRecording)), None)


@command("record-pane")
async def record_pane(context: Context, flags: dict[str, str], args: list[str]) -> Result:
    _, _, pane = find_pane(context.server, flags.get("t"))
    recording = _recording_of(pane)
    if "S" in flags:
        if recording is None:
            raise CommandError(f"pane {pane.name} is not being recorded")
        pane.taps.remove(recording)
        try:
            recording.stop()
        except RecordingError as error:
            raise CommandError(str(error)) from None
        return Result()
    if recording is not None:
        raise CommandError(f"pane {pane.name} is already being recorded to {recording.path}")
    if pane.closed:
        raise CommandError(f"pane {pane.name} has ended: nothing more to record")
    if "o" not in flags:
        raise CommandError("record-pane needs -o path")
    path = os.path.join(context.cwd or "/", flags["o"])
    version = flags.get("v", "2")
    if version not in ("2", "3"):
        raise CommandError(f"asciicast version {version} is not one termhost writes (2 or 3)")
    try:
        idle = float(flags["i"]) if "i" in flags else None
        theme = themes.asciicast_theme(themes.load_theme(flags["P"])) if "P" in flags else None
    except (ValueError, themes.ThemeError) as error:
        raise CommandError(str(error)) from None
    cols, rows = pane.terminal.cols, pane.terminal.rows
    header = Header(
        cols=cols, rows=rows, timestamp=int(time.time()), idle_time_limit=idle,
        command=" ".join(pane.argv), title=flags.get("T"),
        term_type=context.server.options.get("default-terminal"), theme=theme,
    )
    try:
        writer = writer_for(int(version), path, header)
    except RecordingError as error:
        raise CommandError(str(error)) from None
    pane.taps.append(PaneRecording(writer, path, cols, rows))
    return Result()
