"""The process package's lazy interface (PEP 562): every name it exports resolves to its
module's object, and importing the package (or native.py, the server start's spawn)
brings no asyncio along."""

from __future__ import annotations

import subprocess
import sys

import termhost.process as process


def test_every_exported_name_resolves_to_its_modules_object() -> None:
    assert sorted(process.__all__) == sorted(process._HOMES)
    for name in process.__all__:
        home = __import__(f"termhost.process.{process._HOMES[name]}", fromlist=[name])
        assert getattr(process, name) is getattr(home, name), name


def test_starting_a_server_does_not_import_asyncio() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys, termhost.starting, "
                           "termhost.process.native; print('asyncio' in sys.modules)"],
                          capture_output=True, text=True, timeout=30, check=True)
    assert done.stdout == "False\n"
