"""The Python emitter: one standalone, typed module per ruleset, from the module plan.

Like Jinja2's own compiler, it writes Python that reads as if written by hand: data as literal
mappings, step and decision tables as small functions. Safety rests on two rules: every string
from a ruleset reaches the module through ``repr`` (the ``py`` filter) or the docstring escaper
(the ``doc`` filter), and every name is an identifier the compiler has already checked.

Each section of the plan (:mod:`rulesdsl.codegen.plan`) has its reader here, which gives the
templates their variables: :mod:`rulesdsl.codegen.python.header`,
:mod:`rulesdsl.codegen.python.data`, :mod:`rulesdsl.codegen.python.functions`,
:mod:`rulesdsl.codegen.python.movement`, :mod:`rulesdsl.codegen.python.sight` and
:mod:`rulesdsl.codegen.python.surface`; values become Python source in
:mod:`rulesdsl.codegen.python.values`. This module puts them into the templates.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from typing import Any

import jinja2

from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.plan.header import Identity
from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.python.data import data_context
from rulesdsl.codegen.python.functions import code_context
from rulesdsl.codegen.python.header import header_context
from rulesdsl.codegen.python.movement import movement_context
from rulesdsl.codegen.python.sight import sight_context
from rulesdsl.codegen.python.surface import surface_context
from rulesdsl.codegen.python.values import doc, docstring, py
from rulesdsl.codegen.template_code import TemplateCode

# ---- the whole module -------------------------------------------------------------------------


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rulesdsl", "templates"),
        autoescape=False,  # Python, not markup: safety comes from `py` and `doc`
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=TemplateCode(),  # the templates' code kept between runs (issue 44)
        auto_reload=False,  # the package's own files: no stat of each template per render
    )
    env.filters["py"] = py
    env.filters["doc"] = doc
    env.filters["tuple"] = tuple
    env.filters["wrap"] = docstring
    env.filters["rhs"] = _rhs
    env.globals["call"] = python_layout.call
    env.globals["entry"] = _entry
    env.globals["entries"] = _entries
    env.globals["combinations"] = _combinations
    env.globals["item"] = _item
    env.globals["ancestors"] = _ancestors
    env.globals["parameters"] = _parameters
    return env


def _rhs(value: Any, column: int) -> str:
    """``value`` laid out as the right-hand side of a statement whose head (``NAME: Final =
    ``, written out in the template, where checks/reserved.py reads the name) takes
    ``column`` characters."""
    head = " " * column
    return python_layout.statement(head, python_layout.tree(value))[column:]


def _parameters(name: str, params: list[str], returns: str) -> str:
    """What goes between ``def name(`` and ``) -> returns:`` (written out in the template),
    laid out as ruff lays out the whole line."""
    line = python_layout.def_line(name, params, returns)
    return line[len(f"def {name}(") : -len(f") -> {returns}:")]


def _entry(key: Any, value: Any, indent: int) -> str:
    """``key: value`` as an element of a dict laid out one entry a line at ``indent``."""
    return python_layout.layout_entry(key, value, indent, 1)


def _entries(pairs: Iterable[tuple[Any, Any]], indent: int) -> str:
    """The lines ``key: value,`` of a dict laid out one entry a line at ``indent``: one call
    for a block with an entry per feature (a Jinja call per entry cost as much as its layout,
    issue 44)."""
    pad = " " * indent
    return "\n".join([pad + _entry(k, v, indent) + "," for k, v in pairs])


def _combinations(modifier: str, combinations: list[tuple[tuple[str, ...], Any]]) -> str:
    """A modifier's ``when`` combinations, ``(frozenset(members), value)`` each, as an entry
    of ``_COMBINATIONS`` (indented by 4)."""
    pairs = tuple(
        python_layout.Group(
            "(", (python_layout.call("frozenset", members), python_layout.tree(value)), ")"
        )
        for members, value in combinations
    )
    node = python_layout.Group("(", pairs, ")", one_tuple=len(pairs) == 1, exploded=True)
    return python_layout.layout(python_layout.Entry(py(modifier), node), 4, 4, 1)


def _item(value: Any, indent: int) -> str:
    """``value`` as an element of a collection laid out one element a line at ``indent``."""
    return python_layout.layout_value(value, indent, indent, 1)


def _ancestors(ancestors: tuple[Identity, ...]) -> str:
    """``extends=(Ancestor(id, version, digest), ...)`` in RULESET (indented by 4)."""
    calls = tuple(python_layout.call("Ancestor", a.id, a.version, a.digest) for a in ancestors)
    node = python_layout.Group("(", calls, ")", one_tuple=len(calls) == 1, exploded=True)
    return python_layout.layout(python_layout.Entry("extends", node, "="), 4, 4, 1)


def emit(plan: module_plan.ModulePlan) -> str:
    """The module's source text for one module plan."""
    code = code_context(plan.code)
    text = (
        _environment()
        .get_template("module.py.j2")
        .render(
            **header_context(plan.header),
            **data_context(plan.data),
            **code,
            **movement_context(plan.movement),
            **sight_context(plan.sight),
            **surface_context(plan.surface, limits=code["limits"]),
        )
    )
    return _LOOKALIKES_WAIVER + text if _has_lookalike_script(text) else text


_LOOKALIKES_WAIVER = (
    "# Labels in Cyrillic or Greek script: their look-alike letters are meant.\n"
    "# ruff: noqa: RUF001\n"
)
"""Ruff's RUF001 flags letters that look like Latin ones; a Russian label is full of them."""


def _has_lookalike_script(text: str) -> bool:
    if text.isascii():  # most modules: one pass in C
        return False
    return any(
        ch.isalpha() and unicodedata.name(ch, "").startswith(("CYRILLIC", "GREEK"))
        for ch in set(_ASCII_RUNS.sub("", text))  # a fifth of set(text)'s time (issue 44)
    )


_ASCII_RUNS = re.compile(r"[\x00-\x7f]+")
