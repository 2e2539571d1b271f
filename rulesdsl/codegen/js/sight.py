"""The plan's sight section as JavaScript (for :mod:`rulesdsl.codegen.js`): the sight rules
``lineOfSight`` reads (``runtime_sight.js``) and their declarations, as
:mod:`rulesdsl.codegen.python.sight` reads the same section for the Python module."""

from __future__ import annotations

from rulesdsl.codegen.js.checks import runtime_part
from rulesdsl.codegen.js.data import dict_js, fields_js, strings_js
from rulesdsl.codegen.js.values import cell_js, labels_js, number_js, string_js
from rulesdsl.codegen.plan import ModulePlan
from rulesdsl.codegen.plan.sight import SightPlan, SightRule


def runtime_sight() -> str:
    return runtime_part("runtime_sight.js")


def sight_rule_js(rule: SightRule) -> str:
    """A sight rule as ``new SightRule({...})``, its fields camelCased."""
    by_mode = {m: dict_js({f: cell_js(v) for f, v in vs.items()}) for m, vs in rule.by_mode.items()}
    fields = {
        "id": string_js(rule.id),
        "labels": labels_js(rule.labels),
        "blocksAt": "null" if rule.blocks_at is None else number_js(rule.blocks_at),
        "counts": string_js(rule.counts),
        "crossed": "null" if rule.crossed is None else string_js(rule.crossed),
        "values": dict_js({f: cell_js(v) for f, v in rule.by_feature.items()}),
        "targetInside": "true" if rule.target_inside else "false",
        "blocksAbove": "true" if rule.blocks_above else "false",
        "byMode": dict_js(by_mode),
    }
    return f"new SightRule({fields_js(fields)})"


def outcomes_js(sight: SightPlan) -> list[str]:
    """The dice outcomes that costs and sight take beside features (issue 24)."""
    return [f"const _OUTCOMES = new Set({strings_js(sight.fed_outcomes)});"]


def sight_js(plan: ModulePlan) -> list[str]:
    """SIGHTS and the unit types a viewer may be, for ``lineOfSight``."""
    rules = dict_js({r.id: sight_rule_js(r) for r in plan.sight.rules})
    modes = dict_js({m.id: "true" for m in plan.header.modes})
    return [f"export const SIGHTS = {rules};", f"const _SIGHT_MODES = {modes};"]


def sight_dts(union: str, features: str, states: bool = False) -> list[str]:
    """The declarations of ``lineOfSight``, SIGHTS and their records; ``union`` names the
    rules, ``features`` what a place may hold; ``states``: whether it takes the viewer's state
    (a module with states, issue 40)."""
    return [
        f"export type SightName = {union};",
        "export declare class Sight {",
        "  readonly hindrance: number;",
        "  readonly blocked: boolean;",
        "  readonly byPlace: readonly (number | Marker)[];",
        "}",
        "type SightValue = number | Marker | StepCost;",
        "export declare class SightRule {",
        "  readonly id: SightName;",
        "  readonly labels: Readonly<Record<string, string>>;",
        "  readonly blocksAt: number | null;",
        '  readonly counts: "between" | "target" | "both";',
        "  readonly crossed: string | null;",
        "  readonly values: Readonly<Record<string, SightValue>>;",
        "  readonly targetInside: boolean;",
        "  readonly blocksAbove: boolean;",
        "  readonly byMode: Readonly<Record<string, Readonly<Record<string, SightValue>>>>;",
        "}",
        "export declare const SIGHTS: Readonly<Record<SightName, SightRule>>;",
        "/** The line of sight rule ``name`` along ``places`` (the firer's first, the target's",
        " * last), each place the names of its features. */",
        "export declare function lineOfSight(",
        "  name: SightName,",
        f"  places: readonly (readonly ({features})[])[],",
        "  options?: {",
        "    crossed?: readonly number[] | null;",
        "    mode?: ModeName | null;",
        f"    conditions?: readonly ({features})[];",
        *(["    state?: Readonly<Record<StateName, number>> | null;"] if states else []),
        "  },",
        "): Sight;",
    ]
