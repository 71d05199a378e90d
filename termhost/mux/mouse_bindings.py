"""tmux 3.3a's default mouse bindings, as its list-keys prints them: the root table's
(click, drag, wheel, the menus of the right button) and copy mode's (the same in its emacs
and vi tables). Apart from bindings.py's prefix and copy-mode keys because they are long
and read only as data: each is a command line like any other binding's."""

from __future__ import annotations

__all__ = ["COPY_MODE_MOUSE", "ROOT_MOUSE"]

ROOT_MOUSE: tuple[tuple[str, str], ...] = (
    ('MouseDown1Pane',
     'select-pane -t = \\; send-keys -M'),
    ('MouseDown1Status',
     'select-window -t ='),
    ('MouseDown2Pane',
     'select-pane -t = \\; if-shell -F "#{||:#{pane_in_mode},#{mouse_any_flag}}" { send-keys '
     '-M } { paste-buffer -p }'),
    ('MouseDown3Pane',
     'if-shell -F -t = '
     '"#{||:#{mouse_any_flag},#{&&:#{pane_in_mode},#{?#{m/r:(copy|view)-mode,#{pane_mode}},0,1}}}" '
     '{ select-pane -t = ; send-keys -M } { display-menu -T "#[align=centre]#{pane_index} '
     '(#{pane_id})" -t = -x M -y M "#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Top,}" < { '
     'send-keys -X history-top } "#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Bottom,}" > { '
     'send-keys -X history-bottom } \'\' "#{?mouse_word,Search For '
     '#[underscore]#{=/9/...:mouse_word},}" C-r { if-shell -F '
     '"#{?#{m/r:(copy|view)-mode,#{pane_mode}},0,1}" "copy-mode -t=" ; send-keys -X -t = '
     'search-backward "#{q:mouse_word}" } "#{?mouse_word,Type '
     '#[underscore]#{=/9/...:mouse_word},}" C-y { copy-mode -q ; send-keys -l '
     '"#{q:mouse_word}" } "#{?mouse_word,Copy #[underscore]#{=/9/...:mouse_word},}" c { '
     'copy-mode -q ; set-buffer "#{q:mouse_word}" } "#{?mouse_line,Copy Line,}" l { copy-mode '
     '-q ; set-buffer "#{q:mouse_line}" } \'\' "Horizontal Split" h { split-window -h } '
     '"Vertical Split" v { split-window -v } \'\' "#{?#{>:#{window_panes},1},,-}Swap Up" u { '
     'swap-pane -U } "#{?#{>:#{window_panes},1},,-}Swap Down" d { swap-pane -D } '
     '"#{?pane_marked_set,,-}Swap Marked" s { swap-pane } \'\' Kill X { kill-pane } Respawn R '
     '{ respawn-pane -k } "#{?pane_marked,Unmark,Mark}" m { select-pane -m } '
     '"#{?#{>:#{window_panes},1},,-}#{?window_zoomed_flag,Unzoom,Zoom}" z { resize-pane -Z } }'),
    ('MouseDown3Status',
     'display-menu -T "#[align=centre]#{window_index}:#{window_name}" -t = -x W -y W '
     '"#{?#{>:#{session_windows},1},,-}Swap Left" l { swap-window -t :-1 } '
     '"#{?#{>:#{session_windows},1},,-}Swap Right" r { swap-window -t :+1 } '
     '"#{?pane_marked_set,,-}Swap Marked" s { swap-window } \'\' Kill X { kill-window } '
     'Respawn R { respawn-window -k } "#{?pane_marked,Unmark,Mark}" m { select-pane -m } '
     'Rename n { command-prompt -F -I "#W" { rename-window -t "#{window_id}" "%%" } } \'\' '
     '"New After" w { new-window -a } "New At End" W { new-window }'),
    ('MouseDown3StatusLeft',
     'display-menu -T "#[align=centre]#{session_name}" -t = -x M -y W Next n { switch-client '
     "-n } Previous p { switch-client -p } '' Renumber N { move-window -r } Rename n { "
     'command-prompt -I "#S" { rename-session "%%" } } \'\' "New Session" s { new-session } '
     '"New Window" w { new-window }'),
    ('MouseDrag1Pane',
     'if-shell -F "#{||:#{pane_in_mode},#{mouse_any_flag}}" { send-keys -M } { copy-mode -M }'),
    ('MouseDrag1Border',
     'resize-pane -M'),
    ('WheelUpPane',
     'if-shell -F "#{||:#{pane_in_mode},#{mouse_any_flag}}" { send-keys -M } { copy-mode -e }'),
    ('WheelUpStatus',
     'previous-window'),
    ('WheelDownStatus',
     'next-window'),
    ('DoubleClick1Pane',
     'select-pane -t = \\; if-shell -F "#{||:#{pane_in_mode},#{mouse_any_flag}}" { send-keys '
     '-M } { copy-mode -H ; send-keys -X select-word ; run-shell -d 0.3 ; send-keys -X '
     'copy-pipe-and-cancel }'),
    ('TripleClick1Pane',
     'select-pane -t = \\; if-shell -F "#{||:#{pane_in_mode},#{mouse_any_flag}}" { send-keys '
     '-M } { copy-mode -H ; send-keys -X select-line ; run-shell -d 0.3 ; send-keys -X '
     'copy-pipe-and-cancel }'),
    ('M-MouseDown3Pane',
     'display-menu -T "#[align=centre]#{pane_index} (#{pane_id})" -t = -x M -y M '
     '"#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Top,}" < { send-keys -X history-top } '
     '"#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Bottom,}" > { send-keys -X history-bottom '
     '} \'\' "#{?mouse_word,Search For #[underscore]#{=/9/...:mouse_word},}" C-r { if-shell -F '
     '"#{?#{m/r:(copy|view)-mode,#{pane_mode}},0,1}" "copy-mode -t=" ; send-keys -X -t = '
     'search-backward "#{q:mouse_word}" } "#{?mouse_word,Type '
     '#[underscore]#{=/9/...:mouse_word},}" C-y { copy-mode -q ; send-keys -l '
     '"#{q:mouse_word}" } "#{?mouse_word,Copy #[underscore]#{=/9/...:mouse_word},}" c { '
     'copy-mode -q ; set-buffer "#{q:mouse_word}" } "#{?mouse_line,Copy Line,}" l { copy-mode '
     '-q ; set-buffer "#{q:mouse_line}" } \'\' "Horizontal Split" h { split-window -h } '
     '"Vertical Split" v { split-window -v } \'\' "#{?#{>:#{window_panes},1},,-}Swap Up" u { '
     'swap-pane -U } "#{?#{>:#{window_panes},1},,-}Swap Down" d { swap-pane -D } '
     '"#{?pane_marked_set,,-}Swap Marked" s { swap-pane } \'\' Kill X { kill-pane } Respawn R '
     '{ respawn-pane -k } "#{?pane_marked,Unmark,Mark}" m { select-pane -m } '
     '"#{?#{>:#{window_panes},1},,-}#{?window_zoomed_flag,Unzoom,Zoom}" z { resize-pane -Z }'),
)
"""The root table's mouse keys and their commands, in list-keys' order."""

COPY_MODE_MOUSE: tuple[tuple[str, str], ...] = (
    ('MouseDown1Pane',
     'select-pane'),
    ('MouseDrag1Pane',
     'select-pane \\; send-keys -X begin-selection'),
    ('MouseDragEnd1Pane',
     'send-keys -X copy-pipe-and-cancel'),
    ('WheelUpPane',
     'select-pane \\; send-keys -X -N 5 scroll-up'),
    ('WheelDownPane',
     'select-pane \\; send-keys -X -N 5 scroll-down'),
    ('DoubleClick1Pane',
     'select-pane \\; send-keys -X select-word \\; run-shell -d 0.3 \\; send-keys -X '
     'copy-pipe-and-cancel'),
    ('TripleClick1Pane',
     'select-pane \\; send-keys -X select-line \\; run-shell -d 0.3 \\; send-keys -X '
     'copy-pipe-and-cancel'),
)
"""copy-mode's and copy-mode-vi's mouse keys and their commands."""
