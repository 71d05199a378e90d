"""Format expansion, compared with a real tmux 3.3a expanding the same formats.

Three kinds of evidence: formats expanded by a live tmux (`display -pv`, so its trace too)
and by termhost against the same variables, options and sessions; tmux's own
regress/format-strings.sh as data; and tables, with a fake scope, for what a live tmux
cannot show steadily (the clock, `#()` output), each row naming the tmux behaviour it pins.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termhost.mux.colour_names import _names
from termhost.mux.formats import FormatScope, LoopItem, LoopKind, NameKind, expand, search_lines
from tests.conftest import BASE_ENV, wait_until

TARGET = "work:editor.0"
"""The pane every live format is expanded for."""

USER_OPTIONS = {
    "@x": "a b$c|&;<>()`\\\"'*?[#=%~{}!^,:.-_/\\",
    "@u": "éab漢字x",
    "@p": "/usr/local/lib/",
    "@s": "abcabc",
    "@n": "1700000000",
    "@f": "#{session_name}",
    "@t": "%Y",
    "@list": "one,two",
    "@zero": "0",
    "@c": "a\tb\x01c",
}
OPTIONS = (*USER_OPTIONS, "@b", "status-left", "status-right", "automatic-rename",
           "window-status-format", "window-status-current-format", "status-interval")
"""Options the live scope answers for; any other name is not an option to it."""
ENVIRONMENT = {"FMT_VAR": "from the environment"}

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

LIVE = [
    # escapes and the scan for `#{...}`
    "abc xyz", "##", "#,", "{", "##{", "#}", "###}", "a#:b", "abc#", "#Z#1",
    "##[fg=red]x", "###[x", "#[fg=#S]x", "x#{", "x#{#{session_name}", "#{l:#{}}",
    "#{l:##{}", "#{l:a#:b}", "#{#{session_name}}",
    # `?`: a name, else a format whose expansion changed, else false; fails without two arms
    "#{?pane_in_mode,x,y}", "#{?abc,x,y}", "#{?,a,b}", "#{?@zero,x,y}", "#{?@list,x,y}",
    "#{?#{==:a,a},x,y}", "#{?a,b}", "x#{?a}y", "#{?pane_active,a,b,c}",
    "#{?automatic-rename,yes,no}", "#{?FMT_VAR,env,none}",
    # comparisons and logic (3.3a's || and && take two operands, both expanded)
    "#{||:0,0,1}", "#{&&:1,1,0}", "#{||:,}", "#{==:#{@list},one,two}", "#{m:a}",
    "#{m:*b*,#{@s}}#{m:*B*,#{@s}}#{m/i:*B*,#{@s}}", "#{m:[[:alpha:]]*,#{@s}}",
    "#{m:a\\bc*,#{@s}}", "#{m/r:^a.c,#{@s}}#{m/ri:^A.C,#{@s}}#{m/r:(,#{@s}}",
    "#{m/r:a|ab,#{@s}}", "#{<:B,a}",
    # lookups: variables, options, the environment (not under t:), aliases
    "#{status-left}", "#{@f}", "#{FMT_VAR}", "#{t:FMT_VAR}", "#{session_name:x}",
    "#{q:nosuch}", "#{E:nosuch}", "#{pid:@u}",
    # E: and T:
    "#{E:@f}", "#{T:@f}", "#{E:status-left}", "#{T:@t}", "#{E:@t}", "#{E:#{@f}}",
    # l: a: c: b: d: q: n: w:
    "#{l:x}", "#{l:#{?pane_in_mode,#{?#{==:#{session_name},Summer},ABC,XYZ},xyz}}",
    "#{a:98}#{a:31}#{a:127}#{a:@x}", "#{c:red}#{c:colour208}#{c:#ABCDEF}#{c:default}",
    "#{c:@s}", "#{b:@p}#{d:@p}", "#{b:#{@p}}", "#{q:@x}", "#{q/h:@x}", "#{q/e:@x}",
    "#{n:@u}", "#{w:@u}", "#{n:@x}", "#{w:#[fg=red]ab}",
    # =N =-N =/N/marker and p, by display width, styles kept, controls dropped
    "#{=3:@u}", "#{=-3:@u}", "#{=4:@u}|", "#{=/3/...;q:@x}", "#{=/-3/<:@u}",
    "#{=/5/...:session_name}", "#{=/-2/...:session_name}", "#{=:session_name}",
    "#{=x:session_name}", "#{=-2:@c}|", "#{=9:@c}|", "#{=-9:@c}|",
    "#{=2:#[fg=red]abc#[default]}", "#{=-2:#[fg=red]abc#[default]}",
    "#{p9:@u}|", "#{p-9:@u}|", "#{p5;n;w:session_name}", "#{p-3:@u}|",
    # e| integers, floats, precision, strtod, division by zero
    "#{e|+|f|2:1,2}", "#{e|x:1,2}", "#{e|+:a,2}", "#{e|+:1}", "#{e|+|f|99999999999:1,2}",
    "#{e|/:1,0}", "#{e|%:7,0}", "#{e|/|f:1,0}", "#{e|-|f:0,0}", "#{e|+:,}",
    "#{e|+: 0x10,1e2}", "#{e|+:1 ,2}", "#{e|*|f|4:5.5,3}", "#{e|+||3:1,2}",
    "#{e|+|f|-1:1,2}", "#{e|+|f|x:1,2}", "#{e|==:1,1}", "#{e|<|f:1.5,2}", "#{e|/:7,-2}",
    "#{e|m:7,3}", "#{e|%%:7,3}", "#{e|>=:2,2}#{e|!=:2,2}#{e|<=:3,2}", "#{e|/|f:0,0}",
    "#{e|%|f:7,0}#{e|-|f:inf,inf}#{e|/|f:nan,0}#{e|/|f:1,-0}", "#{e|*:1e30,1e30}",
    # s/pattern/replacement/flags: POSIX ERE, tmux's regsub quirks
    "#{s/o/0/:session_name}", "#{s/^/X/:@s}", "#{s/^a/X/:@s}", "#{s/x*/-/:@s}",
    "#{s/b*/-/:@s}", "#{s/a|ab/X/:@s}", "#{s/(a)(d)?/[\\2\\1\\x]/:@s}", "#{s/A/z/i:@s}",
    "#{s/A/z/:@s}", "#{s/(/z/:@s}", "#{s/$/E/:@s}", "#{s/b/\\/:@s}", "#{s/b//:@s}",
    "#{s/b/:@s}", "#{s/[[:alpha:]]/z/:@s}", "#{s/b/B/;s/c/C/:@s}",
    # modifiers chained with ;, applied in format_replace's order whatever their order
    "#{=5;q:@x}", "#{q;=5:@x}", "#{s/a/b/;=2:@s}", "#{b;q:@p}", "#{n;w:@u}", "#{l;=2:abc}",
    "#{E;=3:@f}", "#{=/2/>;s/c/Z/:@s}", "#{p4;=2:@s}|", "#{a;=1:98}", "#{c;n:blue}",
    "#{t;=3:@n}", "#{=3;t:@n}", "#{d;b:@p}",
    # t: (ctime), t/p, t/f with #: in the strftime format
    "#{t:@n}", "#{t/p:@n}", "#{t/f/%%Y#:%%m:@n}", "#{t:@s}", "#{t:nosuch}",
    # loops, names and search: the live scope answers from the same server
    "#{S:#{session_name},X}", "#{W:#{window_name},[#{window_name}]}", "#{W:#{window_index}}",
    "#{P:#{pane_id} ,*#{pane_id} }", "#{S:#{W:#{session_name}.#{window_name} }}",
    "#{N:second}#{N:nosuch}", "#{N/s:work}#{N/s:nosuch}", "#{N/w:editor}",
    "#{C:beta}", "#{C:nosuch}", "#{C/r:^al+pha$}", "#{C/i:GAMMA}", "#{C/r:(}",
    # strftime before expansion, as display-message does
    "100%", "%Y #S", "a%:b", "%Q", "%%Y",
    # #() jobs (a new command shows nothing yet) and the recursion limit
    "#(echo hi)", "x#(echo (a)", "#{?pane_in_mode,#(echo #,),xyz}",
    "#{l:" + "#{" * 12 + "x" + "}" * 12 + "}", "#{" * 12 + "?pane_active,deep,no" + "}" * 12,
    "#{" * 101 + "x" + "}" * 101,
]


class LiveTmux:
    """A private tmux 3.3a server, its own socket and no configuration: the reference.
    Sessions `work` (windows `editor`, two panes, its first showing two lines, and
    `second`) and `other`."""

    def __init__(self, name: str) -> None:
        self.base = ["tmux", "-L", name, "-f", "/dev/null"]
        # TMUX unset: a test run inside tmux must not reach the user's server
        self.env = {**BASE_ENV, "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/"),
                    **({"TZ": os.environ["TZ"]} if "TZ" in os.environ else {})}
        self.run("new-session", "-d", "-s", "work", "-n", "editor", "-x", "80", "-y", "24",
                 "printf 'alpha\\nbeta gamma\\n'; exec sleep 100000")
        self.run("split-window", "-d", "-t", "work:editor", "exec sleep 100000")
        self.run("new-window", "-d", "-t", "work:", "-n", "second", "exec sleep 100000")
        self.run("new-session", "-d", "-s", "other", "-n", "misc", "exec sleep 100000")
        for option, value in USER_OPTIONS.items():
            self.run("set", "-g", option, value)
        for variable, value in ENVIRONMENT.items():
            self.run("setenv", "-g", variable, value)
        wait_until(lambda: "beta gamma" in self.run("capture-pane", "-p", "-t", TARGET),
                   what="the first pane's output")
        self._variables: dict[str, dict[str, str]] = {}

    def run(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], env=self.env, capture_output=True,
                              text=True, timeout=10, check=True).stdout

    def display(self, template: str, target: str = TARGET) -> tuple[list[str], str]:
        """`display -pv`: the trace, each line without its "# ", and the expansion."""
        lines = self.run("display", "-t", target, "-pv", template).split("\n")[:-1]
        return [line[2:] for line in lines[:-1]], lines[-1]

    def variables(self, target: str) -> dict[str, str]:
        """Every format variable of `target`, as `display -a` lists them."""
        if target not in self._variables:
            listed = self.run("display", "-t", target, "-a").splitlines()
            self._variables[target] = dict(line.split("=", 1) for line in listed)
        return self._variables[target]

    def lookup(self, name: str, target: str) -> str:
        return self.run("display", "-t", target, "-p", f"#{{{name}}}").rstrip("\n")

    def ids(self, command: str, target: str, variable: str) -> list[tuple[str, bool]]:
        listed = self.run(command, "-t", target, "-F", f"#{{{variable}}} #{{?{variable[:-3]}"
                          f"_active,1,0}}").split()
        return [(listed[i], listed[i + 1] == "1") for i in range(0, len(listed), 2)]

    def kill(self) -> None:
        subprocess.run([*self.base, "kill-server"], env=self.env, timeout=10, check=False,
                       capture_output=True)


@dataclass
class LiveScope:
    """The server side of a format, answered by the live tmux: the scope's contract,
    kept by the same server the expansion is compared with."""

    tmux: LiveTmux
    target: str

    def option(self, name: str) -> str | None:
        return self.tmux.lookup(name, self.target) if name in OPTIONS else None

    def environ(self, name: str) -> str | None:
        return ENVIRONMENT.get(name)

    def loop(self, kind: LoopKind) -> Sequence[LoopItem] | None:
        if kind == "sessions":
            names = self.tmux.run("list-sessions", "-F", "#{session_id}").split()
            found = [(name, False) for name in names]
        elif kind == "windows":
            found = self.tmux.ids("list-windows", self.target, "window_id")
        else:
            found = self.tmux.ids("list-panes", self.target, "pane_id")
        return [LoopItem(self.tmux.variables(name), current, LiveScope(self.tmux, name))
                for name, current in found]

    def names(self, kind: NameKind) -> Collection[str] | None:
        if kind == "sessions":
            return self.tmux.run("list-sessions", "-F", "#{session_name}").splitlines()
        return self.tmux.run("list-windows", "-t", self.target, "-F",
                             "#{window_name}").splitlines()

    def search(self, pattern: str, regex: bool, ignore_case: bool) -> int | None:
        lines = self.tmux.run("capture-pane", "-p", "-t", self.target).split("\n")
        return search_lines(lines, pattern, regex=regex, ignore_case=ignore_case)

    def job(self, command: str) -> str:
        return ""  # each command is new to the server too: it has shown nothing yet

    def now(self) -> float:
        return time.time()


@pytest.fixture(scope="module")
def live() -> Iterator[LiveTmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: it is the reference these tests compare with")
    server = LiveTmux(f"termhost-formats-{os.getpid()}")
    try:
        yield server
    finally:
        server.kill()


def expanded_by_termhost(live: LiveTmux, template: str, target: str = TARGET
                         ) -> tuple[list[str], str]:
    trace: list[str] = []
    result = expand(template, live.variables(target), scope=LiveScope(live, target),
                    strftime=True, trace=trace.append)
    return trace, result


@pytest.mark.parametrize("template", FORMATS)
def test_a_format_expands_as_tmux_expands_it(live: LiveTmux, template: str) -> None:
    values = {name: live.variables(TARGET)[name] for name in VARIABLES}
    assert expand(template, values) == live.display(template)[1]


@pytest.mark.parametrize("template", LIVE)
def test_a_format_and_its_trace_are_tmuxs(live: LiveTmux, template: str) -> None:
    assert expanded_by_termhost(live, template) == live.display(template)


def test_loops_expand_each_item_against_its_own_variables(live: LiveTmux) -> None:
    template = "#{W:#{window_index}#{P:(#{pane_index})},[#{window_index}#{P:(#{pane_index})}]}"
    assert expanded_by_termhost(live, template, "other:misc") == live.display(
        template, "other:misc")
    assert expanded_by_termhost(live, template)[1] == "[0(0)(1)]1(0)"


@pytest.mark.parametrize("path", ["", "/", "//", "///", "a", "a/", "/a", "//a", "a//b/",
                                  "/a/b/", "./", "..", "a/b"])
def test_basename_and_dirname_are_glibcs(live: LiveTmux, path: str) -> None:
    live.run("set", "-g", "@b", path)
    assert expanded_by_termhost(live, "#{b:@b}|#{d:@b}") == live.display("#{b:@b}|#{d:@b}")


_LIVE_PIECES = st.sampled_from([
    "#{", "}", "#{?", ",", "#{==:", "#{<=:", "#{=3:", "#{=-2:", "#{=/2/~:", "#{s/a/b/:",
    "#{s/(b)/\\1\\1/i:", "#{e|+:", "#{e|*|f|3:", "#{e|/:", "#{m:", "#{m/ri:", "#{n:",
    "#{w:", "#{l:", "#{||:", "#{&&:", "#{p4:", "#{p-3:", "#{q:", "#{q/h:", "#{t:",
    "#{t/p:", "#{E:", "#{T:", "#{b:", "#{d:", "#{a:", "#{c:", "#{S:", "#{W:", "#{P:",
    "#{N:", "#{N/s:", "#{C:", "#{C/r:", "=5;q:", "b;d:", "s/a/b/;s/b/c/:", "session_name",
    "window_name", "pane_active", "nosuch", "@u", "@s", "@x", "@f", "@n", "beta", "#S", "#W",
    "##", "#,", "#}", "#:", "#[", "]", "a", "1", "0", " ", "\\", "/", "|", ":", ";", "?", "=",
    "e", "s", "l", "m", "p", "-", "2", "é", "漢", "[[:alpha:]]", "*", "(", ")",
])


@settings(max_examples=150, deadline=None)
@given(st.lists(_LIVE_PIECES, min_size=1, max_size=14).map("".join))
def test_any_template_expands_and_traces_as_tmuxs(live: LiveTmux, template: str) -> None:
    """Templates from the language's pieces, none a `#(` job or a `%` (whose output
    changes between the two expansions); tmux's command line would take a final `;` as a
    command separator and a leading `-` as a flag."""
    template = template + "a" if template.endswith(";") else template
    template = "x" + template if template.startswith("-") else template
    assert expanded_by_termhost(live, template) == live.display(template)


def test_every_colour_name_has_tmuxs_rgb(live: LiveTmux) -> None:
    names = [*_names(), *(f"colour{index}" for index in range(257)), "grey", "gray50",
             "grey101", "Grey50", "grey 50", "brightred", "90", "8", "terminal", "none",
             "#ABCDEF", "#abc", "color5", "colour 5", "alice  blue", ""]
    for start in range(0, len(names), 100):
        chunk = names[start:start + 100]
        template = "|".join(f"#{{c:{name.replace(',', '#,')}}}" for name in chunk)
        assert expand(template, {}).split("|") == live.display(template)[1].split("|")


def test_with_nothing_known_loops_and_names_fail_as_in_a_server_without_sessions(
        tmp_path: Path) -> None:
    """tmux with no session: W:, P: and N: fail (ending the expansion), S: is empty, C: 0.
    Each template gets a server (and socket) of its own: the one before may still be
    going away."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    for number, template in enumerate(("a#{W:x}b", "c#{P:z}d", "e#{S:y}f", "a#{N:foo}b",
                                       "#{N/s:foo}", "#{C:x}", "#{?#{W:x},yes,no}|")):
        done = subprocess.run(
            ["tmux", "-S", str(tmp_path / f"empty-{number}"), "-f", "/dev/null",
             "start-server", ";", "display", "-p", template],
            env={**BASE_ENV, "LANG": "C.UTF-8"}, capture_output=True, text=True, timeout=10,
            check=True)
        assert expand(template, {}) == done.stdout.rstrip("\n"), template


# tmux's regress/format-strings.sh, as data. Its session is named Summer and its pane is
# not in copy mode unless a case says otherwise; `#(...)` has not run before, so is empty.

REGRESS_FORMATS = [
    ("abc xyz", "abc xyz"), ("##", "#"), ("#,", ","), ("{", "{"), ("##{", "#{"),
    ("#}", "}"), ("###}", "#}"), ("#{pane_in_mode}", "0"),
    ("#{?pane_in_mode,#(echo #,),xyz}", "xyz"), ("#{l:#{}}", "#{}"),
    ("#{l:#{pane_in_mode}}", "#{pane_in_mode}"),
    ("#{l:#{?pane_in_mode,#{?#{==:#{session_name},Summer},ABC,XYZ},xyz}}",
     "#{?pane_in_mode,#{?#{==:#{session_name},Summer},ABC,XYZ},xyz}"),
    ("#{l:##{}", "##{"), ("#{l:#{#}}}", "#{#}}"),
]
REGRESS_PANE_IN_MODE = [  # format, pane in copy mode, not in copy mode
    ("#{?pane_in_mode,abc,xyz}", "abc", "xyz"),
    ("#{?pane_in_mode,#{session_name},xyz}", "Summer", "xyz"),
    ("#{?pane_in_mode,##,xyz}", "#", "xyz"), ("#{?pane_in_mode,#,,xyz}", ",", "xyz"),
    ("#{?pane_in_mode,{,xyz}", "{", "xyz"), ("#{?pane_in_mode,##{,xyz}", "#{", "xyz"),
    ("#{?pane_in_mode,#},xyz}", "}", "xyz"), ("#{?pane_in_mode,###},xyz}", "#}", "xyz"),
    ("#{?pane_in_mode,abc,##}", "abc", "#"), ("#{?pane_in_mode,abc,#,}", "abc", ","),
    ("#{?pane_in_mode,abc,{}", "abc", "{"), ("#{?pane_in_mode,abc,##{}", "abc", "#{"),
    ("#{?pane_in_mode,abc,#}}", "abc", "}"), ("#{?pane_in_mode,abc,###}}", "abc", "#}"),
    ("#{?pane_in_mode,{,#}}", "{", "}"), ("#{?pane_in_mode,#},{}", "}", "{"),
    ("#{?pane_in_mode,##{,###}}", "#{", "#}"), ("#{?pane_in_mode,###},##{}", "#}", "#{"),
    ("#{?pane_in_mode,abc,xyz,bonus}", "abc", "xyz,bonus"),
    ("#{?pane_in_mode,{abc,xyz},bonus}", "{abc,bonus}", "xyz,bonus}"),
    ("#{?pane_in_mode,(abc,xyz),bonus}", "(abc", "xyz),bonus"),
    ("#{?pane_in_mode,(abc#,xyz),bonus}", "(abc,xyz)", "bonus"),
    ("#{?pane_in_mode,[abc,xyz],bonus}", "[abc", "xyz],bonus"),
    ("#{?pane_in_mode,[abc#,xyz],bonus}", "[abc,xyz]", "bonus"),
    ("#{?pane_in_mode,#(echo #,),xyz}", "", "xyz"),
    ("#{?pane_in_mode,#[fg=default#,bg=default]abc,xyz}", "#[fg=default,bg=default]abc",
     "xyz"),
    ("#{?pane_in_mode,#{?#{==:#{session_name},Summer},ABC,XYZ},xyz}", "ABC", "xyz"),
    ("#{?pane_in_mode,abc,#{?#{==:#{session_name},Summer},ABC,XYZ}}", "abc", "ABC"),
    ("#{?#{==:#{?pane_in_mode,#{session_name},#(echo Spring)},Summer},abc,xyz}", "abc",
     "xyz"),
]
REGRESS_SESSION_NAME = [  # format, session named Summer, named Winter
    ("#{?#{==:#{session_name},Summer},abc,xyz}", "abc", "xyz"),
    ("#{?pane_in_mode,#{?#{==:#{session_name},Summer},ABC,XYZ},xyz}", "xyz", "xyz"),
    ("#{?pane_in_mode,abc,#{?#{==:#{session_name},Summer},ABC,XYZ}}", "ABC", "XYZ"),
]
REGRESS_SESSION_COMMA = [("#{?#{==:#,,#{session_name}},abc,xyz}", "abc")]
"""The case the script runs with the session renamed to a comma."""


def _regress(pane_in_mode: str = "0", session_name: str = "Summer") -> dict[str, str]:
    return {"pane_in_mode": pane_in_mode, "session_name": session_name}


@pytest.mark.parametrize(("template", "expected"), REGRESS_FORMATS)
def test_regress_format(template: str, expected: str) -> None:
    assert expand(template, _regress()) == expected


@pytest.mark.parametrize(("template", "in_mode", "not_in_mode"), REGRESS_PANE_IN_MODE)
def test_regress_conditional_with_pane_in_mode(template: str, in_mode: str,
                                               not_in_mode: str) -> None:
    assert expand(template, _regress("1")) == in_mode
    assert expand(template, _regress("0")) == not_in_mode


@pytest.mark.parametrize(("template", "summer", "winter"), REGRESS_SESSION_NAME)
def test_regress_conditional_with_session_name(template: str, summer: str, winter: str
                                               ) -> None:
    assert expand(template, _regress(session_name="Summer")) == summer
    assert expand(template, _regress(session_name="Winter")) == winter


@pytest.mark.parametrize(("template", "expected"), REGRESS_SESSION_COMMA)
def test_regress_escaped_comma_compared_with_a_session_named_comma(template: str,
                                                                   expected: str) -> None:
    assert expand(template, _regress(session_name=",")) == expected


def test_the_regress_tables_hold_every_case_of_format_strings_sh() -> None:
    script = Path("/work/shared/tmux-3.3a/regress/format-strings.sh")
    if not script.exists():
        pytest.skip("tmux's regress suite is not here")
    known = {
        "test_format": {(t, e) for t, e in REGRESS_FORMATS + REGRESS_SESSION_COMMA},
        "test_conditional_with_pane_in_mode": set(REGRESS_PANE_IN_MODE),
        "test_conditional_with_session_name": set(REGRESS_SESSION_NAME),
    }
    calls = [shlex.split(line, comments=True) for line in script.read_text().splitlines()
             if line.startswith("test_") and not line.rstrip().endswith("()")]
    assert len(calls) == sum(map(len, known.values()))
    for name, *arguments in calls:
        assert tuple(arguments) in known[name], arguments


# The scope's contract, with a fake server: what a live tmux cannot show steadily.


@dataclass
class FakeScope:
    """A server with fixed answers; `asked` records the jobs started."""

    options: dict[str, str] = field(default_factory=dict)
    environment: dict[str, str] = field(default_factory=dict)
    items: dict[str, list[LoopItem] | None] = field(default_factory=dict)
    known: dict[str, Collection[str] | None] = field(default_factory=dict)
    lines: list[str] | None = None
    jobs: dict[str, str] = field(default_factory=dict)
    clock: float = 1_700_000_000.0
    asked: list[str] = field(default_factory=list)

    def option(self, name: str) -> str | None:
        return self.options.get(name)

    def environ(self, name: str) -> str | None:
        return self.environment.get(name)

    def loop(self, kind: LoopKind) -> Sequence[LoopItem] | None:
        return self.items.get(kind, [])

    def names(self, kind: NameKind) -> Collection[str] | None:
        return self.known.get(kind, ())

    def search(self, pattern: str, regex: bool, ignore_case: bool) -> int | None:
        if self.lines is None:
            return None
        return search_lines(self.lines, pattern, regex=regex, ignore_case=ignore_case)

    def job(self, command: str) -> str:
        self.asked.append(command)
        return self.jobs.get(command, "")

    def now(self) -> float:
        return self.clock


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC, for times written out in a table."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _panes(window: Mapping[str, str], count: int) -> list[LoopItem]:
    return [LoopItem({**window, "pane_index": str(pane),
                      "pane_id": f"%{window['window_index']}{pane}"}, pane == 0, FakeScope())
            for pane in range(count)]


def _window(session: str, index: int, name: str, current: bool, panes: int) -> LoopItem:
    variables = {"session_name": session, "window_index": str(index), "window_id": f"@{index}",
                 "window_name": name}
    return LoopItem(variables, current, FakeScope(items={"panes": _panes(variables, panes)}))


def _session(number: int, name: str, windows: list[LoopItem]) -> LoopItem:
    return LoopItem({"session_id": f"${number}", "session_name": name}, False,
                    FakeScope(items={"windows": windows}))


SERVER: FormatScope = FakeScope(
    options={"status-left": "[#S] ", "@fmt": "<#{session_name}>", "@time": "%H:%M",
             "automatic-rename": "on", "status-format[0]": "first"},
    environment={"HOME": "/home/me", "@fmt": "from the environment"},
    items={"sessions": [_session(0, "alpha", [_window("alpha", 0, "a0", True, 1)]),
                        _session(1, "beta", [_window("beta", 0, "b0", False, 1),
                                             _window("beta", 1, "b1", True, 2)])],
           "windows": [_window("work", 0, "editor", False, 1),
                       _window("work", 1, "shell", True, 2)],
           "panes": _panes({"window_index": "1", "window_name": "shell"}, 2)},
    known={"sessions": ("alpha", "beta"), "windows": ("editor", "shell")},
    lines=["$ make", "building alpha", "Error: beta failed   ", ""],
    jobs={"uptime": "up 3 days", "echo work": "out #{session_name} #(nested)"},
)
SERVED = {"session_name": "work", "window_index": "1", "pane_id": "%1",
          "when": "1699999000", "yesterday": "1699900000", "lastyear": "1660000000"}

SCOPED = [
    # option lookups and E:/T: (an option's value expanded as a format, T: with strftime)
    ("#{status-left}", "[#S] ", "an option's value, not expanded"),
    ("#{E:status-left}", "[work] ", "E: expands it"),
    ("#{E:@fmt}|#{T:@time}", "<work>|22:13", "T: strftime's the value at now()"),
    ("#{?automatic-rename,on,off}", "on", "? tests an option's value"),
    ("#{status-format[0]}", "first", "array elements are the scope's to answer"),
    ("#{HOME}|#{t:HOME}", "/home/me|", "the environment is a fallback, but not for t:"),
    ("#{@fmt}", "<#{session_name}>", "options before the environment"),
    # t:, t/p (relative to now()), t/f
    ("#{t:when}", "Tue Nov 14 21:56:40 2023", "ctime(3)"),
    ("#{t/p:when}|#{t/p:yesterday}|#{t/p:lastyear}", "21:56|Mon13|Aug22",
     "within a day: time; within 28 days: weekday and day; else month and year"),
    ("#{t/f/%%%%d.%%%%m.%%%%Y:lastyear}", "08.08.2022",
     "a strftime format: its argument, a format, is strftime'd too, so %%%% to reach t/f"),
    ("#{t/f/%%d.%%m.%%Y:lastyear}", "14.11.2023", "...which %% alone does at now()"),
    ("#{t:session_name}|#{t:0}", "|", "not a time: empty"),
    # loops (the second format for the current window or active pane; S: has none)
    ("#{S:#{session_name} }", "alpha beta ", "each session"),
    ("#{S:#{session_name},X}", "alpha,Xbeta,X", "S: takes no second format in 3.3a"),
    ("#{W:#{window_name} ,[#{window_name}] }", "editor [shell] ", "the current window"),
    ("#{W:#{window_index}}", "01", "one format for every window"),
    ("#{P:#{pane_id} ,*#{pane_id} }", "*%10 %11 ", "the active pane"),
    ("#{S:#{W:#{session_name}/#{window_name} }}", "alpha/a0 beta/b0 beta/b1 ",
     "a loop's item has a scope of its own"),
    ("#{W:#{P:#{window_name}.#{pane_index} }}", "editor.0 shell.0 shell.1 ",
     "nested loops"),
    # N: (window names by default, N/s: session names)
    ("#{N:shell}#{N:nosuch}#{N/w:editor}#{N/s:beta}#{N/s:shell}", "10110", "names"),
    ("#{N:#{session_name}}", "0", "the name is a format"),
    # C: searches the pane's visible lines
    ("#{C:alpha}|#{C:nosuch}|#{C/r:^Error}|#{C/i:ERROR}|#{C/r:(}", "2|0|3|3|0",
     "line numbers from 1, 0 for none or a bad expression"),
    ("#{C:*failed}|#{C/r:failed$}", "3|3", "trailing blanks do not count"),
    # #(): the scope's last output, itself expanded as a format, with no nested jobs
    ("#(uptime)", "up 3 days", "the last output"),
    ("#(echo #{session_name})", "out work ", "the command and output are expanded"),
    ("#(never run)", "", "a new command shows nothing yet"),
]


@pytest.mark.parametrize(("template", "expected", "pins"), SCOPED)
def test_a_scoped_format(utc: None, template: str, expected: str, pins: str) -> None:
    assert expand(template, SERVED, scope=SERVER, strftime=True) == expected, pins


def test_jobs_get_the_expanded_command_and_nested_jobs_never_run() -> None:
    scope = FakeScope(jobs={"echo work": "#(inner) done"})
    assert expand("#(echo #{session_name})", {"session_name": "work"}, scope=scope) == " done"
    assert scope.asked == ["echo work"]


def test_a_scope_without_a_session_or_pane_fails_as_tmux_does() -> None:
    scope = FakeScope(items={"windows": None, "panes": None}, known={"windows": None})
    assert expand("a#{W:x}b", {}, scope=scope) == "a"
    assert expand("a#{P:x}b", {}, scope=scope) == "a"
    assert expand("a#{N:x}b", {}, scope=scope) == "a"
    assert expand("a#{C:x}b", {}, scope=scope) == "a0b"


def test_a_trace_line_is_indented_by_depth_up_to_ten_spaces() -> None:
    lines: list[str] = []
    expand("#{" * 12 + "x" + "}" * 12, {}, trace=lines.append)
    assert lines[0] == "expanding format: " + "#{" * 12 + "x" + "}" * 12
    assert max(len(line) - len(line.lstrip(" ")) for line in lines) == 9  # "#" and ten


def test_search_lines_is_tmuxs_pane_search() -> None:
    lines = ["one two", "Three  ", "a[b]c"]
    assert search_lines(lines, "two", regex=False, ignore_case=False) == 1
    assert search_lines(lines, "three", regex=False, ignore_case=True) == 2
    assert search_lines(lines, "Three", regex=True, ignore_case=False) == 2
    assert search_lines(lines, "e$", regex=True, ignore_case=False) == 2
    assert search_lines(lines, "\\[b]", regex=False, ignore_case=False) == 3
    assert search_lines(lines, "[", regex=True, ignore_case=False) == 0


def test_deep_nesting_and_garbage_never_raise() -> None:
    assert expand("#{" * 200 + "x" + "}" * 200, {}) == ""
    assert expand("abc#{?", {}) == "abc"
    assert expand("#{s/(/x/:a}", {"a": "abc"}) == "abc"


_FORMAT_PIECES = st.sampled_from([
    "#{", "}", "#{?", ",", "#{==:", "#{=3:", "#{=-2:", "#{s/a/b/:", "#{e|+:", "#{m:", "#{n:",
    "#{l:", "#{||:", "#{&&:", "session_name", "window_index", "nosuch", "#S", "#W", "##",
    "#,", "#}", "a", "1", "0", " ", "%", "\\", "/", "|", ":", ";", "#{p4:", "#{=/2/~:",
    "#{q:", "#{t:", "#{E:", "#{T:", "#{b:", "#{d:", "#{w:", "#{a:", "#{c:", "#{S:",
    "#{W:", "#{P:", "#{N:", "#{C:", "#{e|*|f|3:", "#{m/ri:", "#{s/x/y/i:", "#(", ")",
    "#[", "]", "#:", "é", "漢",
])
_TEMPLATES = st.lists(_FORMAT_PIECES | st.text(max_size=3), max_size=30).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TEMPLATES)
def test_any_template_expands_without_an_exception(template: str) -> None:
    variables = {"session_name": "work", "window_index": "1"}
    expanded = expand(template, variables, scope=SERVER, strftime=True)
    assert isinstance(expanded, str)


@settings(max_examples=500, deadline=None)
@given(_TEMPLATES, st.dictionaries(st.sampled_from(["a", "session_name", "x_y", "@u", "s_a_b"]),
                                   st.text(max_size=5)))
def test_the_lookup_fast_path_equals_the_traced_path(template: str,
                                                     variables: Mapping[str, str]) -> None:
    """Without a trace a plain `#{name}` is looked up at once; with one, it goes through
    the modifier parser as tmux does. Both must give the same expansion."""
    assert expand(template, variables) == expand(template, variables, trace=lambda _: None)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="#"), max_size=40))
def test_text_without_a_hash_is_left_as_it_is(text: str) -> None:
    assert expand(text, {}) == text
