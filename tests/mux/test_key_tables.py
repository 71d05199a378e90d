"""The key tables as bind-key and unbind-key leave them, whatever order they come in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.mux.bindings import TABLES, KeyTables, copy_mode_commands
from termhost.mux.printing import escaped

_KEYS = st.sampled_from(["a", "b", "C-a", "M-x", "F5", "Up", "|", "%", "Space", "PPage"])
_STEPS = st.lists(st.tuples(st.sampled_from(["bind", "unbind", "clear"]),
                            st.sampled_from(TABLES), _KEYS, st.sampled_from(["x y", "kill-pane"])),
                  max_size=30)


@settings(max_examples=300, deadline=None)
@given(_STEPS)
def test_list_keys_shows_exactly_the_bindings_left(steps: list[tuple[str, str, str, str]]) -> None:
    tables = KeyTables()
    expected = {name: {b.key: b.command for b in tables.table(name)} for name in TABLES}
    for verb, table, key, command in steps:
        if verb == "bind":
            tables.bind(table, key, command)
            expected[table][key] = command
        elif verb == "unbind":
            tables.unbind(table, key)
            expected[table].pop(key, None)
        else:
            tables.clear(table)
            expected[table].clear()
    for name in TABLES:
        listed = [line.replace("bind-key -r ", "bind-key ", 1).split(None, 4)  # repeating
                  for line in tables.list_keys(name)]
        # keys escaped as tmux prints them (`\%`), as a configuration file reads them
        assert {words[3]: words[4] for words in listed} == {
            escaped(key): command for key, command in expected[name].items()}
        assert all(words[:3] == ["bind-key", "-T", name] for words in listed)


def test_the_copy_mode_tables_are_tmuxs() -> None:
    vi, emacs = copy_mode_commands("vi"), copy_mode_commands("emacs")
    assert (vi["k"], vi["/"], vi["V"], vi["C-v"]) == (
        "cursor-up", "search-forward", "select-line", "rectangle-toggle")
    assert (emacs["C-p"], emacs["C-s"], emacs["M-w"], emacs["C-Space"]) == (
        "cursor-up", "search-forward", "copy-selection-and-cancel", "begin-selection")
