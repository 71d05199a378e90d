"""Every option tmux 3.3a has: its scope, type and default, as data.

termhost accepts and shows every tmux option, honoured or not, so that a user's ~/.tmux.conf
loads; the values were read off tmux 3.3a itself (`show-options` of a server started with
-f /dev/null) and the types off tmux.1, checked against what that server accepts and rejects.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["TMUX_OPTIONS", "TmuxOption"]


class TmuxOption(NamedTuple):
    name: str
    scope: str
    """"server", "session", "window" or "pane": "pane" for the options tmux lets be set on a
    pane as well as on a window (remain-on-exit, window-style, ...); `show-options -gw` lists
    both window and pane ones, `show-options -s` server ones, `show-options -g` session ones."""
    kind: str
    """"string", "number", "key", "colour", "flag", "choice", "command" or "style"."""
    default: str
    """As `show-options -v` prints it for a server started with -f /dev/null (an array option:
    its elements joined as described under `array`). Four defaults come from the environment
    tmux starts in; these are tmux's with SHELL=/bin/sh and neither EDITOR nor VISUAL set:
    default-shell, editor, and mode-keys and status-keys (vi when EDITOR or VISUAL holds "vi")."""
    low: int = 0
    high: int = 0
    """The range of a number option (tmux's error for a value outside it says which)."""
    choices: tuple[str, ...] = ()
    """The values of a choice option, in tmux's order."""
    array: bool = False
    """An array option (shown as name[0] value, name[1] value, ...): `default` holds the
    elements joined with the separator tmux splits a set value on (a comma for most; check
    each, e.g. terminal-overrides, terminal-features, update-environment, command-alias,
    status-format, user-keys): with its first character where it has two. status-format's
    elements hold both a space and a comma, so its two are joined with a newline instead, the
    way `show-options -v` prints them."""
    separator: str = ""
    """For an array option, the character(s) `set-option` splits a value on ("," or " ,": a
    space or a comma, as tmux does); empty otherwise."""
    unit: str = ""
    """What a number option counts (milliseconds, seconds, lines): customize-mode writes
    it after the value, as tmux's options table's unit."""


TMUX_OPTIONS: tuple[TmuxOption, ...] = (
    TmuxOption("backspace", "server", "key", "C-?"),
    TmuxOption("buffer-limit", "server", "number", "50", 1, 2147483647),
    TmuxOption("command-alias", "server", "string",
        "split-pane=split-window,splitp=split-window,server-info=show-messages -JT,"
        "info=show-messages -JT,choose-window=choose-tree -w,choose-session=choose-tree -s",
        array=True, separator=","),
    TmuxOption("copy-command", "server", "string", ""),
    TmuxOption("default-terminal", "server", "string", "tmux-256color"),
    TmuxOption("editor", "server", "string", "/usr/bin/vi"),
    TmuxOption("escape-time", "server", "number", "500", 0, 2147483647, unit="milliseconds"),
    TmuxOption("exit-empty", "server", "flag", "on"),
    TmuxOption("exit-unattached", "server", "flag", "off"),
    TmuxOption("extended-keys", "server", "choice", "off", choices=("off", "on", "always")),
    TmuxOption("focus-events", "server", "flag", "off"),
    TmuxOption("history-file", "server", "string", ""),
    TmuxOption("message-limit", "server", "number", "1000", 0, 2147483647),
    TmuxOption("prompt-history-limit", "server", "number", "100", 0, 2147483647),
    TmuxOption("set-clipboard", "server", "choice", "external", choices=("off", "external", "on")),
    TmuxOption("terminal-features", "server", "string",
        "xterm*:clipboard:ccolour:cstyle:focus:title,screen*:title", array=True, separator=","),
    TmuxOption("terminal-overrides", "server", "string", "", array=True, separator=","),
    TmuxOption("user-keys", "server", "string", "", array=True, separator=","),
    TmuxOption("activity-action", "session", "choice",
        "other", choices=("none", "any", "current", "other")),
    TmuxOption("assume-paste-time", "session", "number", "1", 0, 2147483647, unit="milliseconds"),
    TmuxOption("base-index", "session", "number", "0", 0, 2147483647),
    TmuxOption("bell-action", "session", "choice",
        "any", choices=("none", "any", "current", "other")),
    TmuxOption("default-command", "session", "string", ""),
    TmuxOption("default-shell", "session", "string", "/bin/sh"),
    TmuxOption("default-size", "session", "string", "80x24"),
    TmuxOption("destroy-unattached", "session", "flag", "off"),
    TmuxOption("detach-on-destroy", "session", "choice",
        "on", choices=("off", "on", "no-detached")),
    TmuxOption("display-panes-active-colour", "session", "colour", "red"),
    TmuxOption("display-panes-colour", "session", "colour", "blue"),
    TmuxOption("display-panes-time", "session", "number", "1000", 1, 2147483647,
        unit="milliseconds"),
    TmuxOption("display-time", "session", "number", "750", 0, 2147483647, unit="milliseconds"),
    TmuxOption("history-limit", "session", "number", "2000", 0, 2147483647, unit="lines"),
    TmuxOption("key-table", "session", "string", "root"),
    TmuxOption("lock-after-time", "session", "number", "0", 0, 2147483647, unit="seconds"),
    TmuxOption("lock-command", "session", "string", "lock -np"),
    TmuxOption("message-command-style", "session", "style", "bg=black,fg=yellow"),
    TmuxOption("message-style", "session", "style", "bg=yellow,fg=black"),
    TmuxOption("mouse", "session", "flag", "off"),
    TmuxOption("prefix", "session", "key", "C-b"),
    TmuxOption("prefix2", "session", "key", "None"),
    TmuxOption("renumber-windows", "session", "flag", "off"),
    TmuxOption("repeat-time", "session", "number", "500", 0, 32767, unit="milliseconds"),
    TmuxOption("set-titles", "session", "flag", "off"),
    TmuxOption("set-titles-string", "session", "string", '#S:#I:#W - "#T" #{session_alerts}'),
    TmuxOption("silence-action", "session", "choice",
        "other", choices=("none", "any", "current", "other")),
    TmuxOption("status", "session", "choice", "on", choices=("off", "on", "2", "3", "4", "5")),
    TmuxOption("status-bg", "session", "colour", "default"),
    TmuxOption("status-fg", "session", "colour", "default"),
    TmuxOption("status-format", "session", "string",
        "#[align=left range=left #{E:status-left-style}]#[push-default]#{T;=/"
        "#{status-left-length}:status-left}#[pop-default]#[norange default]#[list=on align="
        "#{status-justify}]#[list=left-marker]<#[list=right-marker]>#[list=on]#{W:#[range=window|"
        "#{window_index} #{E:window-status-style}#{?#{&&:#{window_last_flag},#{!=:"
        "#{E:window-status-last-style},default}}, #{E:window-status-last-style},}#{?#{&&:"
        "#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, "
        "#{E:window-status-bell-style},#{?#{&&:#{||:#{window_activity_flag},"
        "#{window_silence_flag}},#{!=:#{E:window-status-activity-style},default}}, "
        "#{E:window-status-activity-style},}}]#[push-default]#{T:window-status-format}"
        "#[pop-default]#[norange default]#{?window_end_flag,,#{window-status-separator}},"
        "#[range=window|#{window_index} list=focus #{?#{!=:"
        "#{E:window-status-current-style},default},#{E:window-status-current-style},"
        "#{E:window-status-style}}#{?#{&&:#{window_last_flag},#{!=:"
        "#{E:window-status-last-style},default}}, #{E:window-status-last-style},}#{?#{&&:"
        "#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, "
        "#{E:window-status-bell-style},#{?#{&&:#{||:#{window_activity_flag},"
        "#{window_silence_flag}},#{!=:#{E:window-status-activity-style},default}}, "
        "#{E:window-status-activity-style},}}]#[push-default]#{T:window-status-current-format}"
        "#[pop-default]#[norange list=on default]#{?window_end_flag,,#{window-status-separator}}}"
        "#[nolist align=right range=right #{E:status-right-style}]#[push-default]#{T;=/"
        "#{status-right-length}:status-right}#[pop-default]#[norange default]\n"
        "#[align=centre]#{P:#{?pane_active,#[reverse],}#{pane_index}[#{pane_width}x"
        "#{pane_height}]#[default] }",
        array=True, separator=" ,"),
    TmuxOption("status-interval", "session", "number", "15", 0, 2147483647, unit="seconds"),
    TmuxOption("status-justify", "session", "choice",
        "left", choices=("left", "centre", "right", "absolute-centre")),
    TmuxOption("status-keys", "session", "choice", "emacs", choices=("vi", "emacs")),
    TmuxOption("status-left", "session", "string", "[#{session_name}] "),
    TmuxOption("status-left-length", "session", "number", "10", 0, 32767),
    TmuxOption("status-left-style", "session", "style", "default"),
    TmuxOption("status-position", "session", "choice", "bottom", choices=("top", "bottom")),
    TmuxOption("status-right", "session", "string",
        '#{?window_bigger,[#{window_offset_x}#,#{window_offset_y}] ,}"#{=21:pane_title}" %H:%M '
        "%d-%b-%y"),
    TmuxOption("status-right-length", "session", "number", "40", 0, 32767),
    TmuxOption("status-right-style", "session", "style", "default"),
    TmuxOption("status-style", "session", "style", "bg=green,fg=black"),
    TmuxOption("update-environment", "session", "string",
        "DISPLAY KRB5CCNAME SSH_ASKPASS SSH_AUTH_SOCK SSH_AGENT_PID SSH_CONNECTION WINDOWID "
        "XAUTHORITY", array=True, separator=" ,"),
    TmuxOption("visual-activity", "session", "choice", "off", choices=("off", "on", "both")),
    TmuxOption("visual-bell", "session", "choice", "off", choices=("off", "on", "both")),
    TmuxOption("visual-silence", "session", "choice", "off", choices=("off", "on", "both")),
    TmuxOption("word-separators", "session", "string", "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~"),
    TmuxOption("aggressive-resize", "window", "flag", "off"),
    TmuxOption("allow-passthrough", "pane", "flag", "off"),
    TmuxOption("allow-rename", "pane", "flag", "off"),
    TmuxOption("alternate-screen", "pane", "flag", "on"),
    TmuxOption("automatic-rename", "window", "flag", "on"),
    TmuxOption("automatic-rename-format", "window", "string",
        "#{?pane_in_mode,[tmux],#{pane_current_command}}#{?pane_dead,[dead],}"),
    TmuxOption("clock-mode-colour", "window", "colour", "blue"),
    TmuxOption("clock-mode-style", "window", "choice", "24", choices=("12", "24")),
    TmuxOption("copy-mode-current-match-style", "window", "style", "bg=magenta,fg=black"),
    TmuxOption("copy-mode-mark-style", "window", "style", "bg=red,fg=black"),
    TmuxOption("copy-mode-match-style", "window", "style", "bg=cyan,fg=black"),
    TmuxOption("cursor-colour", "pane", "colour", "none"),
    TmuxOption("cursor-style", "pane", "choice", "default", choices=(
        "default", "blinking-block", "block", "blinking-underline", "underline", "blinking-bar",
        "bar")),
    TmuxOption("fill-character", "window", "string", ""),
    TmuxOption("main-pane-height", "window", "string", "24"),
    TmuxOption("main-pane-width", "window", "string", "80"),
    TmuxOption("mode-keys", "window", "choice", "emacs", choices=("vi", "emacs")),
    TmuxOption("mode-style", "window", "style", "bg=yellow,fg=black"),
    TmuxOption("monitor-activity", "window", "flag", "off"),
    TmuxOption("monitor-bell", "window", "flag", "on"),
    TmuxOption("monitor-silence", "window", "number", "0", 0, 2147483647),
    TmuxOption("other-pane-height", "window", "string", "0"),
    TmuxOption("other-pane-width", "window", "string", "0"),
    TmuxOption("pane-active-border-style", "window", "style",
        "#{?pane_in_mode,fg=yellow,#{?synchronize-panes,fg=red,fg=green}}"),
    TmuxOption("pane-base-index", "window", "number", "0", 0, 65535),
    TmuxOption("pane-border-format", "pane", "string",
        '#{?pane_active,#[reverse],}#{pane_index}#[default] "#{pane_title}"'),
    TmuxOption("pane-border-indicators", "window", "choice",
        "colour", choices=("off", "colour", "arrows", "both")),
    TmuxOption("pane-border-lines", "window", "choice",
        "single", choices=("single", "double", "heavy", "simple", "number")),
    TmuxOption("pane-border-status", "window", "choice", "off", choices=("off", "top", "bottom")),
    TmuxOption("pane-border-style", "window", "style", "default"),
    TmuxOption("pane-colours", "pane", "colour", "", array=True, separator=" ,"),
    TmuxOption("popup-border-lines", "window", "choice",
        "single", choices=("single", "double", "rounded", "heavy", "simple", "padded", "none")),
    TmuxOption("popup-border-style", "window", "style", "default"),
    TmuxOption("popup-style", "window", "style", "default"),
    TmuxOption("remain-on-exit", "pane", "choice", "off", choices=("off", "on", "failed")),
    TmuxOption("remain-on-exit-format", "pane", "string",
        "Pane is dead (#{?#{!=:#{pane_dead_status},},status #{pane_dead_status},}#{?#{!=:"
        "#{pane_dead_signal},},signal #{pane_dead_signal},}, #{t:pane_dead_time})"),
    TmuxOption("scroll-on-clear", "pane", "flag", "on"),
    TmuxOption("synchronize-panes", "pane", "flag", "off"),
    TmuxOption("window-active-style", "pane", "style", "default"),
    TmuxOption("window-size", "window", "choice",
        "latest", choices=("largest", "smallest", "manual", "latest")),
    TmuxOption("window-status-activity-style", "window", "style", "reverse"),
    TmuxOption("window-status-bell-style", "window", "style", "reverse"),
    TmuxOption("window-status-current-format", "window", "string",
        "#I:#W#{?window_flags,#{window_flags}, }"),
    TmuxOption("window-status-current-style", "window", "style", "default"),
    TmuxOption("window-status-format", "window", "string",
        "#I:#W#{?window_flags,#{window_flags}, }"),
    TmuxOption("window-status-last-style", "window", "style", "default"),
    TmuxOption("window-status-separator", "window", "string", " "),
    TmuxOption("window-status-style", "window", "style", "default"),
    TmuxOption("window-style", "pane", "style", "default"),
    TmuxOption("wrap-search", "window", "flag", "on"),
    TmuxOption("xterm-keys", "window", "flag", "on"),
)
