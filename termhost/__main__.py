"""`python -m termhost` runs the same entry point as the `termhost` command."""

from __future__ import annotations

from termhost.front import main

raise SystemExit(main())
