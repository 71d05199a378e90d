"""The real spawn helper, instrumented to stop (or die) at one phase of its setup.

Tests generate a two-line script that sets PHASE and HELPER and execs this file; the
helper is then a real process that parks itself with SIGSTOP exactly where the test
wants to cancel the launch: "env" (before reading the environment), "report" (before
the prefix), "exec" (after the prefix, before exec), or "die" (exit before the prefix).
"""

import importlib.util
import os
import signal
import sys

PHASE: str = globals().get("PHASE", "")
HELPER: str = globals().get("HELPER", "")

spec = importlib.util.spec_from_file_location("_helper", HELPER)
assert spec is not None and spec.loader is not None
helper = importlib.util.module_from_spec(spec)
spec.loader.exec_module(helper)


def stop_then(original):
    def paused(*args):
        os.kill(os.getpid(), signal.SIGSTOP)
        return original(*args)

    return paused


def die(*args):
    os._exit(3)


if PHASE == "env":
    helper._read_environment = stop_then(helper._read_environment)
elif PHASE == "report":
    helper._Control.send_prefix = stop_then(helper._Control.send_prefix)
elif PHASE == "exec":
    helper._execvpe = stop_then(helper._execvpe)
elif PHASE == "die":
    helper._Control.send_prefix = die
else:
    raise SystemExit(f"unknown phase {PHASE!r}")

helper.main(sys.argv)
