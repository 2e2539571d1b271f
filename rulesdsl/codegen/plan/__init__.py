"""The module plan (issue 36): what a generated module holds and answers, as small typed data
built from the IR in one place, for every emitter to read.

The IR says what a ruleset's author wrote; the plan says what a module carries and computes:
tables as literals, step terms as lists, decisions as condition trees, arithmetic as expression
trees, the roll order, facing moves, sight rules, the argument checks of each public function.
Each emitter (``rulesdsl/codegen/python/`` today) turns a plan into text in its language and
reads nothing else, so a second language follows the same plan piece by piece. A section's
``build`` dispatches on the IR's unions with ``match`` and ``assert_never``: a new construct
is named by mypy here, once, and in each emitter's reader of the plan node it adds.
"""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.codegen.plan import code, data, header, movement, sight, surface
from rulesdsl.ir.records import dataclass


@dataclass(frozen=True, slots=True)
class ModulePlan:
    """One ruleset's module, by section."""

    header: header.HeaderPlan
    data: data.DataPlan
    code: code.CodePlan
    movement: movement.MovementPlan
    sight: sight.SightPlan
    surface: surface.SurfacePlan


def build(rs: ir.Ruleset) -> ModulePlan:
    """The plan of ``rs``'s module."""
    return ModulePlan(
        header=header.build(rs),
        data=data.build(rs),
        code=code.build(rs),
        movement=movement.build(rs),
        sight=sight.build(rs),
        surface=surface.build(rs),
    )
