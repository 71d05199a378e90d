"""Format expansion, compared with a real tmux expanding the same formats."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.mux.formats import expand

VARIABLES = ["session_name", "window_index", "pane_index", "window_name", "session_windows",
             "window_active", "pane_active", "window_panes", "host_short"]
FORMATS = [
    "#{session_name}", "#S:#I.#P", "[#{window_name}]", "#{?window_active,*, }",
    "#{?session_windows,many,none}", "#{?#{==:#{session_name},work},is-work,not}",
    "#{==:a,a}#{==:a,b}#{!=:a,b}", "#{<:a,b}#{>:a,b}#{<=:a,a}#{>=:b,a}",
    "#{||:0,1}#{&&:1,0}#{&&:1,1}", "#{m:w*,#{session_name}}#{m:x*,#{session_name}}",
    "#{=2:session_name}", "#{=-2:session_name}", "#{n:session_name}",
    "#{e|+:2,3} #{e|*:4,5} #{e|-:1,9} #{e|/:7,2} #{e|%:7,2}", "#{s/o/0/:session_name}",
    "##, #{l:#{session_name}}", "a#,b#}c", "#{unknown}x", "#{?unknown,yes,no}",
    "#{?#{e|+:1,1},two,zero}", "#{session_name", "ab#{?", "100%", "#Z",
]


@pytest.fixture(scope="module")
def tmux() -> Iterator[tuple[list[str], dict[str, str]]]:
    """A private tmux with a session named `work`: the reference expander."""
    name = f"termhost-formats-{os.getpid()}"
    base = ["tmux", "-L", name, "-f", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    subprocess.run([*base, "new-session", "-d", "-s", "work", "-n", "editor", "sleep 1000"],
                   check=True, env=env, timeout=10)
    try:
        values = {}
        for variable in VARIABLES:
            values[variable] = subprocess.run(
                [*base, "display", "-p", f"#{{{variable}}}"], check=True, env=env,
                capture_output=True, text=True, timeout=10,
            ).stdout.rstrip("\n")
        yield [*base, "display", "-p"], values
    finally:
        subprocess.run([*base, "kill-server"], env=env, timeout=10, check=False)


@pytest.mark.parametrize("template", FORMATS)
def test_a_format_expands_as_tmux_expands_it(
    tmux: tuple[list[str], dict[str, str]], template: str
) -> None:
    command, values = tmux
    expected = subprocess.run(
        [*command, template], check=True, capture_output=True, text=True, timeout=10,
        env={k: v for k, v in os.environ.items() if not k.startswith("TMUX")},
    ).stdout.rstrip("\n")
    assert expand(template, values) == expected


def test_deep_nesting_and_garbage_never_raise() -> None:
    assert expand("#{" * 200 + "x" + "}" * 200, {}) == ""
    assert expand("abc#{?", {}) == "abc"
    assert expand("#{s/(/x/:a}", {"a": "abc"}) == "abc"


_FORMAT_PIECES = st.sampled_from([
    "#{", "}", "#{?", ",", "#{==:", "#{=3:", "#{=-2:", "#{s/a/b/:", "#{e|+:", "#{m:", "#{n:",
    "#{l:", "#{||:", "#{&&:", "session_name", "window_index", "nosuch", "#S", "#W", "##",
    "#,", "#}", "a", "1", "0", " ", "%", "\\", "/", "|", ":",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_FORMAT_PIECES | st.text(max_size=3), max_size=30).map("".join))
def test_any_template_expands_without_an_exception(template: str) -> None:
    expanded = expand(template, {"session_name": "work", "window_index": "1"})
    assert isinstance(expanded, str)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="#"), max_size=40))
def test_text_without_a_hash_is_left_as_it_is(text: str) -> None:
    assert expand(text, {}) == text
