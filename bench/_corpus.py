"""Shared, deterministic inputs for the terminal benchmarks: a plain and a coloured log.

Both logs are made of the same kind of line, what a busy service prints:

  2026-12-02T10:11:12.345Z INFO  worker-3 request id=9f3a0c21 took 12ms path=/api/v2/orders/4821

about 100 visible characters (at most 118, so a 120-column terminal never wraps
them). The coloured log carries the same text with SGR sequences as real tools emit them:
a bold timestamp, the level in a basic colour (`\\x1b[32mINFO\\x1b[0m`, `\\x1b[1;31mERROR`),
the worker in a 256-colour shade, the request id and the duration in truecolor, dim field
names, an underlined path, a bold 256-colour status. The visible text of line i of the coloured
log is line i of the plain log (same seed), so `visible()` of any coloured line is a plain
line.

The generators are seeded, so a file of a given size is the same bytes on every machine and
every run; files are cached under `$TMPDIR/termhost-bench-corpus/` keyed by kind and size
(and a format version), so reruns do not regenerate them. Line ends are `\\n`, as a program
writes them (the PTY's onlcr makes them `\\r\\n`), unless asked for `\\r\\n`.
"""

from __future__ import annotations

import os
import random
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = [
    "CACHE_DIR",
    "coloured_lines",
    "coloured_log",
    "coloured_log_lines",
    "last_visible_line",
    "plain_lines",
    "plain_log",
    "tail_visible_lines",
    "visible",
]

FORMAT_VERSION = 1
"""Bump when the generators change, so stale cached files are not reused."""

SEED = 20261202
CACHE_DIR = Path(tempfile.gettempdir()) / "termhost-bench-corpus"
MAX_VISIBLE = 118

_SGR = re.compile(r"\x1b\[[0-9;:]*m")

_LEVELS = (
    # (level padded to 5, weight, SGR for it)
    ("INFO ", 80, "32"),
    ("DEBUG", 10, "2;36"),
    ("WARN ", 7, "33"),
    ("ERROR", 3, "1;31"),
)
_RESOURCES = (
    "users", "orders", "items", "sessions", "invoices", "carts", "products",
    "search", "metrics", "tokens", "accounts", "returns",
)  # fmt: skip
_PARTS = ("items", "lines", "events", "notes", "tags", "audit")
_STATUSES = (200, 200, 200, 200, 200, 200, 201, 204, 304, 400, 404, 500)


def _records(seed: int) -> Iterator[tuple[str, ...]]:
    """The fields of successive log lines, forever (one random stream for both logs)."""
    rng = random.Random(seed)
    levels = [level for level, _, _ in _LEVELS]
    weights = [weight for _, weight, _ in _LEVELS]
    millis = (10 * 3600 + 11 * 60 + 12) * 1000  # the log starts at 10:11:12
    while True:
        millis += rng.randrange(0, 40)
        seconds, ms = divmod(millis, 1000)
        minutes, s = divmod(seconds, 60)
        hours, m = divmod(minutes, 60)
        stamp = f"2026-12-02T{hours % 24:02d}:{m:02d}:{s:02d}.{ms:03d}Z"
        level = rng.choices(levels, weights)[0]
        worker = f"worker-{rng.randrange(16)}"
        request = f"{rng.getrandbits(32):08x}"
        took = rng.choice((rng.randrange(1, 30), rng.randrange(1, 30), rng.randrange(30, 1000)))
        path = f"/api/v{rng.randrange(1, 4)}/{rng.choice(_RESOURCES)}/{rng.randrange(1, 100_000)}"
        if rng.random() < 0.5:
            path += f"/{rng.choice(_PARTS)}"
        status = str(rng.choice(_STATUSES))
        yield stamp, level, worker, request, str(took), path, status


def _plain(fields: tuple[str, ...]) -> str:
    stamp, level, worker, request, took, path, status = fields
    line = f"{stamp} {level} {worker} request id={request} took {took}ms path={path}"
    if status != "200":
        line += f" status={status}"
    assert len(line) <= MAX_VISIBLE, line
    return line


def _took_rgb(took: int) -> str:
    """Truecolor from green (fast) to red (slow), as latency-colouring tools do."""
    t = min(took, 500) / 500
    return f"{int(80 + 175 * t)};{int(220 - 170 * t)};80"


def _coloured(fields: tuple[str, ...]) -> str:
    stamp, level, worker, request, took, path, status = fields
    level_sgr = next(sgr for name, _, sgr in _LEVELS if name == level)
    worker_colour = 33 + int(worker.split("-")[1]) * 12  # a 256-colour shade per worker
    line = (
        f"\x1b[1m{stamp}\x1b[0m \x1b[{level_sgr}m{level}\x1b[0m "
        f"\x1b[38;5;{worker_colour}m{worker}\x1b[39m request id="
        f"\x1b[38;2;120;180;255m{request}\x1b[0m took "
        f"\x1b[38;2;{_took_rgb(int(took))}m{took}ms\x1b[0m "
        f"\x1b[2mpath=\x1b[22m\x1b[4m{path}\x1b[24m"
    )
    if status != "200":
        status_colour = {"2": 42, "3": 75, "4": 214, "5": 196}[status[0]]
        line += f" \x1b[2mstatus=\x1b[0;1;38;5;{status_colour}m{status}\x1b[0m"
    return line


def plain_lines(count: int, seed: int = SEED) -> list[str]:
    """The first `count` lines of the plain log (no line ends)."""
    records = _records(seed)
    return [_plain(next(records)) for _ in range(count)]


def coloured_lines(count: int, seed: int = SEED) -> list[str]:
    """The first `count` lines of the coloured log (no line ends)."""
    records = _records(seed)
    return [_coloured(next(records)) for _ in range(count)]


def visible(line: str) -> str:
    """`line` without its SGR sequences: what a terminal shows of it."""
    return _SGR.sub("", line)


def _cache_path(directory: Path | None, name: str) -> Path:
    base = CACHE_DIR if directory is None else directory
    base.mkdir(parents=True, exist_ok=True)
    return base / f"v{FORMAT_VERSION}-{name}"


def _write_atomically(path: Path, chunks: Iterator[bytes]) -> Path:
    """Write to a temporary name and rename, so a killed run leaves no half file behind."""
    if path.exists():
        return path
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                out.write(chunk)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return path


def _sized(render: Callable[[tuple[str, ...]], str], size: int, seed: int) -> Iterator[bytes]:
    """Whole lines of `render(fields)`, `\\n`-terminated, until `size` bytes are reached."""
    records = _records(seed)
    written = 0
    while written < size:
        batch = "".join(render(next(records)) + "\n" for _ in range(2000)).encode()
        if written + len(batch) > size:
            # Finish on a whole line at or just past `size`.
            cut = batch.find(b"\n", size - written - 1)
            batch = batch[: cut + 1] if cut >= 0 else batch
        written += len(batch)
        yield batch


def _size_key(size_mb: float) -> str:
    return f"{size_mb:g}MB".replace(".", "_")


def plain_log(size_mb: float = 50, directory: Path | None = None, seed: int = SEED) -> Path:
    """A plain log of about `size_mb` MB (10^6 bytes, whole lines), cached."""
    path = _cache_path(directory, f"plain-{_size_key(size_mb)}-s{seed}.log")
    return _write_atomically(path, _sized(_plain, int(size_mb * 1_000_000), seed))


def coloured_log(size_mb: float = 50, directory: Path | None = None, seed: int = SEED) -> Path:
    """A coloured log of about `size_mb` MB of bytes (SGR included, whole lines), cached."""
    path = _cache_path(directory, f"coloured-{_size_key(size_mb)}-s{seed}.log")
    return _write_atomically(path, _sized(_coloured, int(size_mb * 1_000_000), seed))


def coloured_log_lines(
    count: int, directory: Path | None = None, *, crlf: bool = False, seed: int = SEED
) -> Path:
    """The first `count` coloured lines as a file, ending `\\r\\n` if `crlf`, cached."""
    end = "\r\n" if crlf else "\n"
    path = _cache_path(directory, f"coloured-{count}lines-{'crlf' if crlf else 'lf'}-s{seed}.log")
    data = "".join(line + end for line in coloured_lines(count, seed)).encode()
    return _write_atomically(path, iter((data,)))


def tail_visible_lines(path: Path, count: int) -> list[str]:
    """The visible text of the file's last `count` lines (SGR removed, line ends dropped)."""
    size = os.path.getsize(path)
    back = count * 512 + 4096  # the longest coloured line is well under 512 bytes
    with open(path, "rb") as f:
        f.seek(max(0, size - back))
        tail = f.read()
    lines = tail.decode().split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the file ends with a line end
    if size > back:
        lines.pop(0)  # cut mid-line
    return [visible(line.rstrip("\r")) for line in lines[-count:]]


def last_visible_line(path: Path) -> str:
    """The visible text of the file's last line (SGR removed, line end dropped)."""
    return tail_visible_lines(path, 1)[-1]
