"""The names a ruleset may not declare, derived from the generated module's own template.

A step or decision becomes a function of the generated module and its inputs become parameters,
so a declared name must not shadow anything the module defines, imports or calls: its classes,
functions and constants, the modules and names it imports, Python's builtins and keywords, and
the local names its function bodies use. Reading the template itself (rather than keeping a
list by hand) means a name added to the template is reserved the moment it is added; a test
renders every bundled module and checks that its top-level names are all covered.
"""

from __future__ import annotations

import builtins
import keyword
import re
from functools import cache
from importlib import resources

from rulesdsl import ir

TEMPLATE = "module.py.j2"
INCLUDED = ("module_routes.py.j2", "module_moves.py.j2")
"""Templates that TEMPLATE includes (maps, issue 11): their names are the module's too."""
SIGHT_TEMPLATE = "module_sight.py.j2"
"""Included by ``module.py.j2`` for a ruleset with sight rules or results tables. Its names
(``line_of_sight``, ``roll``, ``Sight``, ``Result`` ...) are reserved in every ruleset: a
decision called ``line_of_sight`` in a module without sight rules stood where other modules
have the sight function, so a caller could not tell them apart (issue 39)."""

LOCALS = frozenset({"value", "self", "cls"})
"""Local names that generated function bodies (steps, decisions) assign or use."""

WORDS = frozenset({"yes", "no"})
"""Words of the language that a cell reads as values, not names."""

_DEFINES = re.compile(r"^(?:class|def)\s+([A-Za-z_]\w*)|^([A-Za-z_]\w*)\s*(?::|=)", re.M)
_EXPRESSION = re.compile(r"\{\{.*?\}\}")
_STATEMENT = re.compile(r"\{[%#]")
_IMPORT = re.compile(r"^import\s+([A-Za-z_]\w*)", re.M)
_FROM_IMPORT = re.compile(r"^from\s+[\w.]+\s+import\s+(.+)$", re.M)


def names_in_template(text: str) -> frozenset[str]:
    """Top-level names the template's Python defines or imports (Jinja tags left out)."""
    lines = (_EXPRESSION.sub("", line) for line in text.splitlines())
    python = "\n".join(line for line in lines if not _STATEMENT.search(line))
    found = {a or b for a, b in _DEFINES.findall(python)}
    found.update(_IMPORT.findall(python))
    for names in _FROM_IMPORT.findall(python):
        found.update(n.strip().split(" as ")[-1] for n in names.split(",") if n.strip())
    return frozenset(found)


@cache
def reserved() -> frozenset[str]:
    """Every name a ruleset may not declare (keywords, builtins and the module's own names)."""
    text = "\n".join(
        resources.files("rulesdsl.templates").joinpath(name).read_text("utf-8")
        for name in (TEMPLATE, *INCLUDED)
    )
    return frozenset(
        {
            *keyword.kwlist,
            *keyword.softkwlist,
            *dir(builtins),
            *names_in_template(text),
            *LOCALS,
            *WORDS,
        }
    )


@cache
def sight_names() -> frozenset[str]:
    """The names the line-of-sight and results-table part of the module defines."""
    text = resources.files("rulesdsl.templates").joinpath(SIGHT_TEMPLATE).read_text("utf-8")
    return names_in_template(text)


@cache
def part_names(template: str) -> frozenset[str]:
    """The names a part of the module (one included template) defines."""
    text = resources.files("rulesdsl.templates").joinpath(template).read_text("utf-8")
    return names_in_template(text)


def _parts(ruleset: ir.Ruleset) -> tuple[tuple[object, str], ...]:
    """Each part a module may have, as (whether ``ruleset``'s module has it, its template):
    facing (issue 24), arcs, free facing, a state carried between moves and drift (issue 40).
    Their names are reserved only where the module has the part."""
    return (
        (ruleset.facings, "module_facing.py.j2"),
        (ruleset.arcs, "module_arcs.py.j2"),
        (ruleset.free_facings, "module_free_facing.py.j2"),
        (ruleset.states, "module_state.py.j2"),
        (ruleset.drifts, "module_drift.py.j2"),
    )


def reserved_for(ruleset: ir.Ruleset | None) -> frozenset[str]:
    """The names ``ruleset`` may not declare: :func:`reserved`, the sight part's names, and
    the names of each part its module has (:func:`_parts`)."""
    parts = _parts(ruleset) if ruleset is not None else ()
    return _reserved_with(tuple(template for has, template in parts if has))


@cache
def _reserved_with(templates: tuple[str, ...]) -> frozenset[str]:
    """The reserved names of a module with the parts of these templates: made once for each
    set of parts (the names pass asks for each name a ruleset declares, and the union of a
    few hundred names was made anew for each)."""
    names = reserved() | sight_names()
    for template in templates:
        names = names | part_names(template)
    return names


def why_reserved(name: str, ruleset: ir.Ruleset | None = None) -> str:
    """What ``name`` collides with, in words: the reason a ruleset may not declare it."""
    if name.startswith("_"):
        return "names that start with _ belong to the generated module"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return f"'{name}' is a Python keyword"
    if name in WORDS:
        return f"'{name}' is a word of the language (a yes/no value)"
    if name in LOCALS:
        return f"the generated functions use '{name}' for a local value"
    if name in dir(builtins):
        return f"'{name}' is a Python builtin ({name}()), which the generated module uses"
    if name in sight_names() - reserved():
        return (
            f"'{name}' is a function of the generated modules (the sight and dice part), "
            "whether or not this one has it: a caller could not tell the two apart"
        )
    return f"the generated module defines or imports '{name}' itself"


def is_reserved(name: str, ruleset: ir.Ruleset | None = None) -> bool:
    """Reserved, or private: names that start with ``_`` belong to the generated module."""
    return name in reserved_for(ruleset) or name.startswith("_")
