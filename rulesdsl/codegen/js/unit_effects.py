"""Effects keyed by unit type in the JavaScript module (issue 40): the data ``effect`` reads
(``runtime_unit_effects.js``) and its declaration, only in a module whose rules key an effect
by unit type."""

from __future__ import annotations

from rulesdsl.codegen import plan as module_plan
from rulesdsl.codegen.js.data import dict_js
from rulesdsl.codegen.js.values import literal_js, string_js
from rulesdsl.codegen.plan import data as plan_data


def unit_effects_js(d: plan_data.DataPlan) -> list[str]:
    """``_UNIT_EFFECTS``: per table, outcome and effect, the value each unit type gets."""
    tables = {
        table: dict_js(
            {
                outcome: dict_js(
                    {
                        name: dict_js({m: literal_js(v) for m, v in by.items()})
                        for name, by in effects.items()
                    }
                )
                for outcome, effects in outcomes.items()
            }
        )
        for table, outcomes in d.unit_effects.items()
    }
    return ["", f"const _UNIT_EFFECTS = {dict_js(tables)};"]


def unit_effects_dts(plan: module_plan.ModulePlan) -> list[str]:
    """``effect``'s declaration, where the module has it."""
    if "unit effects" not in plan.surface.parts:
        return []
    tables = " | ".join(string_js(t) for t in plan.data.unit_effects)
    return [
        "/** The value of effect ``name`` of ``outcome`` of ``table`` for unit type ``mode``. */",
        "export declare function effect(",
        f"  table: {tables},",
        "  outcome: string,",
        "  name: string,",
        "  mode: ModeName,",
        "): Value;",
    ]
