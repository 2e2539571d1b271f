"""The CLI verbs, each in a module of its own with `register(subparsers)`.

A verb's module is imported only when that verb runs (its `register` then adds the full
sub-parser); the other verbs appear in `rulesdsl --help` from the one-line help in
:data:`VERBS`, so a command pays only for the imports it uses. What the verbs share lives in
:mod:`rulesdsl.commands.common`; no verb imports `rulesdsl.commands.cli`, which imports the
verbs. To add a verb: write `rulesdsl/commands/<verb>.py` with a `register` function that makes its
parser with :func:`verb_parser`, and list it in :data:`VERBS` (its help line is taken from there).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from importlib import import_module

Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]

VERBS: dict[str, str] = {
    "init": "lay out a new project: a starter ruleset, README, .gitignore, CI",
    "check": "check rulesets and report every problem",
    "build": "compile rulesets into generated/",
    "schema": "print a JSON Schema: the IR's (of `export` output) or YAML rulesets' (authoring)",
    "export": "print a ruleset's IR as YAML or JSON, or a layer or table for a spreadsheet",
    "fmt": "lay out rulesets the canonical way (aligned table columns)",
    "diff": "list the changes between two rulesets, classified",
    "new": "scaffold a house-rule variant of a ruleset",
    "sheet": "print a quick-reference sheet (HTML, PDF or Markdown)",
    "cards": "print a deck of quick-reference cards (PDF)",
    "convert": "convert a ruleset between .terrain and the YAML authoring format",
    "import": "read a spreadsheet chart (CSV, .xlsx, .ods) as a layer, or update one in place",
    "lsp": "run the language server over stdio (for editors)",
    "watch": "recompile on save and serve a live preview of the sheets",
    "i18n": "translate a ruleset's labels with gettext tools (extract, merge)",
    "migrate": "move rulesets to the current edition of the language, listing changed answers",
}
"""Each verb of this package and its one-line help, in the order `--help` lists them."""

MODULES: dict[str, str] = {"import": "csv_import"}
"""Verbs whose module is not named after them (`import` is a Python keyword)."""


def verb_parser(
    verbs: argparse._SubParsersAction[argparse.ArgumentParser],
    verb: str,
    run: Callable[[argparse.Namespace], int],
    description: str,
    epilog: str | None = None,
) -> argparse.ArgumentParser:
    """The sub-parser of one verb of :data:`VERBS`, with its help line from there and ``run``
    as what the command calls."""
    parser = verbs.add_parser(verb, help=VERBS[verb], description=description, epilog=epilog)
    parser.set_defaults(run=run)
    return parser


def registrar(verb: str) -> Registrar:
    """The `register` function of one verb (importing its module)."""
    register: Registrar = import_module(f"rulesdsl.commands.{MODULES.get(verb, verb)}").register
    return register


def registrars() -> tuple[Registrar, ...]:
    """Every verb's `register` (importing every verb's module)."""
    return tuple(registrar(verb) for verb in VERBS)
