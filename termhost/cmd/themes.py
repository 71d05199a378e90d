"""`termhost themes`: list, show and import colour themes, without a server.

Themes are files, so this verb runs in the client process rather than being sent to the
server: listing or importing one must work before any session exists. As everywhere in
termhost, a failure is one line on stderr with exit status 1, a usage error exit status 2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from termhost import themes
from termhost.cmd import EXIT_FAILURE, VerbParser, Where

__all__ = ["main"]


_PROG = "termhost themes"


def _parser() -> VerbParser:
    parser = VerbParser(prog=_PROG, description="List, show and import colour themes.")
    actions = parser.add_subparsers(dest="action", metavar="{list,show,import}",
                                    parser_class=VerbParser)
    listing = actions.add_parser("list", help="the themes by name (the default)")
    listing.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                         help="show each theme's colours (auto: when stdout is a terminal)")
    show = actions.add_parser("show", help="print a theme's JSON")
    show.add_argument("theme", metavar="NAME", help="a theme's name, or the path of its file")
    importing = actions.add_parser(
        "import", help="convert an .itermcolors, base16 .yaml, alacritty .toml or kitty .conf",
    )
    importing.add_argument("file", metavar="FILE", type=Path)
    importing.add_argument("--name", help="the theme's name (default: from the file's name)")
    importing.add_argument("--force", action="store_true",
                           help="replace a theme of the same name")
    return parser


def main(argv: Sequence[str], where: Where | None = None) -> int:
    """Run `termhost themes ARGV...`; returns the exit status (themes are files: `where`,
    the server, is not needed)."""
    arguments = list(argv)
    if not arguments or (arguments[0].startswith("-") and arguments[0] not in ("-h", "--help")):
        arguments.insert(0, "list")  # bare `termhost themes [--color ...]` means `themes list`
    args = _parser().parse_args(arguments)
    try:
        if args.action == "show":
            sys.stdout.write(themes.theme_to_json(themes.load_theme(args.theme)))
            return 0
        if args.action == "import":
            return _import(args.file, args.name, args.force)
        return _list(args.color == "always" or (args.color == "auto" and sys.stdout.isatty()))
    except themes.ThemeError as error:
        sys.stderr.write(f"{_PROG}: {error}\n")
    except BrokenPipeError:  # `termhost themes | head -1`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
    except OSError as error:  # the user's theme directory cannot be made or written
        place = f"{error.filename}: " if error.filename else ""
        sys.stderr.write(f"{_PROG}: {place}{error.strerror or error}\n")
    return EXIT_FAILURE


def _list(in_colour: bool) -> int:
    for theme in themes.list_themes():
        sys.stdout.write(f"{themes.preview(theme) if in_colour else theme.name}\n")
    return 0


def _import(source: Path, name: str | None, force: bool) -> int:
    """Convert `source` into the user's theme directory, where `load_theme` finds it first."""
    theme = themes.import_theme(source, name)
    existing = themes.find_theme_file(theme.name)
    if existing is not None and not force:
        sys.stderr.write(
            f"{_PROG}: theme {theme.name!r} exists ({existing}); "
            "--force replaces it, --name NAME imports it beside\n"
        )
        return EXIT_FAILURE
    directory = themes.user_themes_dir()
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / f"{theme.name}.json"
    target.write_text(themes.theme_to_json(theme), encoding="utf-8")
    sys.stdout.write(f"imported {source} as {theme.name!r}: {target}\n")
    return 0
