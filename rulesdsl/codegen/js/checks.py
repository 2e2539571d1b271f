"""The argument checks of the JavaScript runtime, written from the plan's surface section
(:func:`rulesdsl.codegen.plan.surface.argument_checks`), as the Python templates'
``argument_check`` writes them: a runtime part says where a check goes with a mark
``@check(function, argument, value[, by])`` and this module writes the check the plan gives
for ``function``'s ``argument``, made of ``value``, in the name of ``function`` or of the
variable ``by`` (a helper's that checks for several functions).

The checks of a table's keys, of a roll's faces and the few a runtime part makes differently
(a modifier's context values, a results table's column) are written in the runtime parts.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import assert_never

from rulesdsl.codegen.js.values import string_js
from rulesdsl.codegen.plan import surface as plan_surface
from rulesdsl.codegen.plan.surface import FunctionChecks, KnownName, Made, Number, Pool

_MARK = re.compile(r"@check\(([\w.]+), (\w+), ([^,()]+(?:\[\d\])?)(?:, (\w+))?\)")


def pool_js(kind: Pool) -> str:
    """The module's names of ``kind``, as the JavaScript ``_checkName`` reads them."""
    source = plan_surface.pool_source(kind)
    match source:
        case plan_surface.PoolTable(name=name):
            return name
        case "whole-map condition":
            return "_dictOf(_WHOLE_MAP)"
        case "grid":
            return '_dict({ ...GRID_SHAPES, hex: "hex", square: "square" })'
        case "step":
            return "_pool(_STEP_NAMES)"
        case "feature or factor":
            return "_pool([...Object.keys(FEATURES), ...values])"  # the modifier's own factors
        case _:
            assert_never(source)


def check_js(function: str, argument: str, check: KnownName | Number | Made, value: str) -> str:
    """The statement (without its ``;``) that makes a check of the plan, of ``value``;
    ``function`` is JavaScript source (a quoted name or a variable)."""
    head = f"{function}, {string_js(argument)}, {value}"
    match check:
        case KnownName(kind=kind):
            return f"_checkName({head}, {pool_js(kind)}, {string_js(kind)})"
        case Number(minimum=None):
            return f"_checkNumber({head}, null)"
        case Number(minimum=0):
            return f"_checkNumber({head})"
        case Number(minimum=minimum):
            return f"_checkNumber({head}, {minimum!r})"
        case Made(of=of):
            reason = string_js(f"must be a {of}")
            return f"if (!({value} instanceof {of})) throw new ArgumentTypeError({head}, {reason})"
        case _:
            assert_never(check)


def runtime_part(name: str) -> str:
    """The text of the runtime part ``name`` with its checks written: those of every part of
    the surface (the runtime parts are the same for every module; a part's text is in a module
    only when the module has the part). Made once per process for the surface's checks as they
    are (issue 44: every module wrote each part's checks again)."""
    return _runtime_part(name, tuple(plan_surface.CHECKS.items()))


@cache
def _runtime_part(name: str, checks: tuple[tuple[str, tuple[FunctionChecks, ...]], ...]) -> str:
    found = plan_surface.argument_checks(c for _, part in checks for c in part)

    def written(mark: re.Match[str]) -> str:
        function, argument, value, by = mark.groups()
        return check_js(by or string_js(function), argument, found[function, argument], value)

    return _MARK.sub(written, package_text(name))


@cache
def package_text(name: str) -> str:
    """The text of the file ``name`` of this package (a runtime part or its declarations),
    read once per process."""
    return resources.files("rulesdsl.codegen.js").joinpath(name).read_text("utf-8")
