"""`python -m termhost` runs the same entry point as the `termhost` script."""

from __future__ import annotations

from termhost.cli import main

raise SystemExit(main())
