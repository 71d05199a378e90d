"""A format's variables are made in groups, when a format first asks for one of a group
(mux/format_variables.py): what each `#{name}` expands to alone must still be what
`display -a` lists for it, the whole table made at once. In tmux both read the one
format_tree, so the same holds there; it is checked in both, over one control-mode
connection each (so the client's own variables are in the table too)."""

from __future__ import annotations

import subprocess

import pytest

from tests.conftest import DEADLINE, BothServers

UNSTEADY = ("activity", "time", "created", "last_attached", "message", "pid")
"""Names whose values move between two commands (clocks, counters)."""

CLIENT_BOUND = ("client", "attached", "window_bigger", "window_offset")
"""Names tmux 3.3a makes only when the command has a client: its format callbacks for
window_bigger and window_offset_x/y return nothing without one (they ask the client's tty)."""


def _blocks(both: BothServers, name: str, lines: list[str]) -> list[str]:
    """Each line's output over one `-C attach`, in order (a block's lines joined). Its
    input stays open until the last block has come (a control client whose input ended
    is on its way out); its TERM is xterm, as tmux 3.3a runs a control client's commands
    without the client when TERM is dumb or unset (no #{client_*} at all)."""
    client = subprocess.Popen([*both.programs[name], "-C", "attach", "-t", "s"],
                              env={**both.env, "TERM": "xterm"}, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert client.stdin is not None and client.stdout is not None
    try:
        client.stdin.write("".join(line + "\n" for line in lines))
        client.stdin.flush()
        blocks: list[str] = []
        inside: list[str] | None = None
        while len(blocks) < len(lines):
            line = client.stdout.readline()
            assert line, (name, blocks)
            line = line.removesuffix("\n")
            if line.startswith("%begin ") and line.endswith(" 1"):
                inside = []
            elif line.startswith(("%end ", "%error ")) and inside is not None:
                blocks.append("\n".join(inside))
                inside = None
            elif inside is not None:
                inside.append(line)
    finally:
        client.stdin.close()
        client.wait(timeout=DEADLINE)
    return blocks


@pytest.mark.parametrize("name", BothServers.NAMES)
def test_each_variable_alone_is_what_the_whole_table_says(both: BothServers,
                                                           name: str) -> None:
    for step in (["new-session", "-d", "-s", "s", "-x", "80", "-y", "24", "cat"],
                 ["split-window", "-h", "-t", "s:0", "cat"], ["new-window", "-d", "-t", "s:"],
                 ["copy-mode", "-t", "s:0.0"], ["set", "-g", "@mine", "mine"]):
        assert both.run(name, *step).returncode == 0, (name, step)
    table = "display -a -t s:0.0"
    # tmux 3.3a leaves a control client's own variables (the session's list of its clients,
    # and the window's size against that client's) out of a table now and then, as if the
    # client came a moment later (a race of its own): there, the table's other names are
    # checked
    client = name == "termhost"
    names = sorted(variable for line in _blocks(both, name, [table])[0].split("\n")
                   if not any(word in (variable := line.split("=", 1)[0]) for word in UNSTEADY)
                   and (client or not any(word in variable for word in CLIENT_BOUND)))
    assert {"session_name", "window_index", "pane_id", "copy_cursor_x", "pane_in_mode",
            "host", *(["client_name"] if client else [])} <= set(names), name
    # several groups in one format, the last made group first; a user option, which no
    # group holds, among them
    first = "client_name" if client else "host"
    mixed = "|".join(f"#{{{each}}}" for each in (first, "copy_cursor_y", "pane_id", "@mine",
                                                  "window_index", "session_name"))
    listed, *alone, together = _blocks(both, name, [
        table, *(f"display -p -t s:0.0 '#{{{variable}}}'" for variable in names),
        f"display -p -t s:0.0 '{mixed}'"])  # one connection: one client, the same name
    values = dict(line.split("=", 1) for line in listed.split("\n"))
    assert dict(zip(names, alone, strict=True)) == {variable: values[variable]
                                                    for variable in names}
    assert together == "|".join([values[first], values["copy_cursor_y"], values["pane_id"],
                                 "mine", values["window_index"], values["session_name"]])
