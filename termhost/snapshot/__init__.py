"""Environment snapshots: what a session's shell builds from its startup files, captured once.

`capture` runs the shell's rc files inside the capture guard and returns a `Snapshot`
(exports, aliases, functions, options, cwd), already proven to source cleanly
(`validate`). `store`/`load` keep it on disk, private; `to_script` renders it in the
shell's own language and `exec_argv` runs a command string after sourcing that script,
without an interactive shell and without re-running the rc files.

The modules: model (Snapshot, its JSON), errors, shells (each shell's capture script,
parser and rendering, and `exec_argv`), capture, validate, store. Nothing is imported
here: `termhost exec`, started for every command it runs, imports shells.py alone, not
asyncio and the process layer that capturing needs.
"""

