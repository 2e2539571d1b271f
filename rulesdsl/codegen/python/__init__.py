"""The Python backend: one standalone, typed module per ruleset, from the IR alone.

Like Jinja2's own compiler, it writes Python that reads as if written by hand: data as literal
mappings, step and decision tables as small functions. Safety rests on two rules: every string
from a ruleset reaches the module through ``repr`` (the ``py`` filter) or the docstring escaper
(the ``doc`` filter), and every name is an identifier the compiler has already checked.

Values become Python source in :mod:`rulesdsl.codegen.python.values`, steps and decisions become
functions in :mod:`rulesdsl.codegen.python.code`, sight rules and results tables in
:mod:`rulesdsl.codegen.python.sight`; this module puts them into the templates.
"""

from __future__ import annotations

import unicodedata
from fractions import Fraction
from functools import cache
from typing import Any, assert_never

import jinja2

from rulesdsl import editions, ir, semantics, spelling
from rulesdsl.codegen.python import facing as python_facing
from rulesdsl.codegen.python import layout as python_layout
from rulesdsl.codegen.python import moves as python_moves
from rulesdsl.codegen.python import once_costs, surface
from rulesdsl.codegen.python import sight as python_sight
from rulesdsl.codegen.python.code import (
    Function,
    cell_constants,
    decision_body,
    key_type,
    minimum,
    outcome_constants,
    step_body,
)
from rulesdsl.codegen.python.values import (
    Code,
    _plain,
    book_title,
    doc,
    docstring,
    export_order,
    per_distance,
    per_value,
    policy_entries,
    py,
    runtime,
    source_text,
    tidy,
)
from rulesdsl.gc_pause import gc_paused
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.semantics.dice import chance_at_least, chance_between

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
    )
    env.filters["py"] = py
    env.filters["doc"] = doc
    env.filters["tuple"] = tuple
    env.filters["wrap"] = docstring
    env.filters["rhs"] = _rhs
    env.globals["call"] = _call_node
    env.globals["code"] = python_layout.Atom
    env.globals["entry"] = _entry
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
    return python_layout.statement(head, python_layout.tree(_plain(value)))[column:]


def _parameters(name: str, params: list[str], returns: str) -> str:
    """What goes between ``def name(`` and ``) -> returns:`` (written out in the template),
    laid out as ruff lays out the whole line."""
    line = python_layout.def_line(name, params, returns)
    return line[len(f"def {name}(") : -len(f") -> {returns}:")]


def _call_node(function: str, *args: Any) -> python_layout.Call:
    return python_layout.Call(function, tuple(python_layout.tree(_plain(a)) for a in args))


def _entry(key: Any, value: Any, indent: int) -> str:
    """``key: value`` as an element of a dict laid out one entry a line at ``indent``."""
    node = python_layout.dict_entry(
        python_layout.tree(_plain(key)), python_layout.tree(_plain(value))
    )
    return python_layout.layout(node, indent, indent, 1)


def _combinations(modifier: str, combinations: list[tuple[tuple[str, ...], Any]]) -> str:
    """A modifier's ``when`` combinations, ``(frozenset(members), value)`` each, as an entry
    of ``_COMBINATIONS`` (indented by 4)."""
    pairs = tuple(
        python_layout.Group(
            "(", (_call_node("frozenset", members), python_layout.tree(_plain(value))), ")"
        )
        for members, value in combinations
    )
    node = python_layout.Group("(", pairs, ")", one_tuple=len(pairs) == 1, exploded=True)
    return python_layout.layout(python_layout.Entry(py(modifier), node), 4, 4, 1)


def _item(value: Any, indent: int) -> str:
    """``value`` as an element of a collection laid out one element a line at ``indent``."""
    return python_layout.layout(python_layout.tree(_plain(value)), indent, indent, 1)


def _ancestors(ancestors: tuple[ir.Ancestor, ...]) -> str:
    """``extends=(Ancestor(id, version, digest), ...)`` in RULESET (indented by 4)."""
    calls = tuple(_call_node("Ancestor", a.id, a.version, a.digest) for a in ancestors)
    node = python_layout.Group("(", calls, ")", one_tuple=len(calls) == 1, exploded=True)
    return python_layout.layout(python_layout.Entry("extends", node, "="), 4, 4, 1)


# ---- maps (issue 11): what module_routes.py.j2 needs -----------------------------------------


def map_context(rs: ir.Ruleset) -> dict[str, Any]:
    """Place states and ``along`` costs by feature, the edge features, the grids' shapes and
    how many cells a diagonal step counts on each square grid with diagonals."""
    edge_layers = {layer.id for layer in rs.layers if semantics.on_edges(layer)}
    return {
        "place_states": [(f.id, dict(f.states)) for f in rs.features if f.states],
        "along": [(f.id, {m: tidy(v) for m, v in f.along.items()}) for f in rs.features if f.along],
        "edge_features": tuple(f.id for f in rs.features if f.layer in edge_layers),
        "grid_shapes": {g.id: g.shape for g in rs.grids},
        "grid_diagonal": {
            g.id: tidy(sum(g.diagonals) / len(g.diagonals))
            for g in rs.grids
            if semantics.has_diagonals(g)
        },
    }


@gc_paused()  # no collection while the module's many small strings are made (issue 29)
def render(rs: ir.Ruleset) -> str:
    """The module's source text for one ruleset, laid out as ``ruff format`` lays it out."""
    lang = rs.languages[0]

    def label(info: ir.Info, fallback: str) -> str:
        return info.labels.get(lang) or next(iter(info.labels.values()), fallback)

    params = semantics.param_values(rs)
    features = []
    unfilled: list[tuple[tuple[str, str], str]] = []
    for f in rs.features:
        costs = {mode: per_distance(v, params) for mode, v in f.costs.items()}
        unfilled += [
            ((mode, f.id), c)
            for mode, c in costs.items()
            if isinstance(c, str) and not isinstance(c, Code)
        ]
        features.append(
            {
                "id": f.id,
                "layer": f.layer,
                "labels": f.info.labels,
                "costs": costs,
                "notes": tuple(f.info.notes),
                "source": source_text(rs, f.info),
            }
        )
    modifiers = [
        {
            "id": m.id,
            "context": m.context,
            "entries": [
                (item, {k: _modifier_value(rs, v) for k, v in vals.items()})
                for item, vals in m.values.items()
            ],
            "combinations": [(tuple(c.members), per_value(c.value)) for c in m.combinations],
            **policy_entries(m),
        }
        for m in rs.modifiers
    ]
    tables = [
        {
            "id": t.id,
            "labels": t.info.labels,
            "columns": tuple(c.id for c in t.columns),
            "column_labels": {c.id: c.info.labels for c in t.columns if c.info.labels},
            "column_notes": {c.id: tuple(c.info.notes) for c in t.columns if c.info.notes},
            "rows": [
                (
                    tidy(r.key_number) if r.key_number is not None else r.key,
                    tuple(runtime(c) for c in r.cells),
                )
                for r in t.rows
            ],
        }
        for t in rs.tables
    ]
    dice_tables = [_dice_table(t) for t in rs.dice_tables]
    contexts = [(c.id, tuple(v.id for v in c.values)) for c in rs.contexts]
    triggers = [
        {
            "id": t.id,
            "labels": t.info.labels,
            "table": t.table,
            "check": runtime(t.check) if t.check else None,
            "at_least": t.at_least,
            "check_chance": (
                chance_at_least(semantics.roll_of(t.check), t.at_least or 0)
                if t.check
                else Fraction(1)
            ),
            "modifier": t.modifier,
            "times": t.times,
            "more_modifiers": t.more_modifiers,
        }
        for t in rs.triggers
    ]
    exclusions: dict[str, set[str]] = {}
    for ex in rs.exclusions:
        for other in ex.others:
            exclusions.setdefault(ex.subject, set()).add(other)
            exclusions.setdefault(other, set()).add(ex.subject)
    steps = [
        Function(
            st.id,
            label(st.info, st.id),
            source_text(rs, st.info),
            step_body(st),
            spelling.step_rule(st),
            st.param,
            st.param_unit,
            st.result_unit,
            any(isinstance(t, ir.ImpassableTerm) for t in st.terms),
            minimum=minimum(st.param_unit),
        )
        for st in rs.steps
    ]
    cells = cell_constants(rs)
    table_ids = {t.id: t for t in rs.tables}
    outcomes = outcome_constants(rs, lang, (c.name for c in cells.values()))
    decisions = [
        Function(
            d.id,
            label(d.info, d.id),
            source_text(rs, d.info),
            decision_body(d, lang, cells, table_ids, outcomes[d.id]),
            signature=_signature(d, table_ids),
            outcomes=tuple(outcomes[d.id].values()),
        )
        for d in rs.decisions
    ]
    grid = rs.grids[0] if rs.grids else None
    exports = surface.exports(rs, any(c.value_type == "Limit" for c in cells.values()))
    whole = semantics_effects.whole_map(rs)
    name_types = surface.name_types(rs)
    text = (
        _environment()
        .get_template("module.py.j2")
        .render(
            rs=rs,
            lang=lang,
            title=label(rs.info, rs.id),
            books=[(b.id, book_title(b)) for b in rs.books],
            remarks=[
                (item, remark)
                for item, info in (("ruleset", rs.info), *ir.infos_by_id(rs).items())
                for remark in info.remarks
            ],
            exports=sorted(exports, key=export_order),
            name_types=[(n, surface.alias(n, m)) for n, m in name_types.items()],
            name_type_imports=surface.alias_imports(name_types),
            intro=_intro(rs),
            distance_unit=rs.units.get("distance", "distance unit"),
            cost_unit=rs.units.get("cost", "movement points"),
            entry_cost=tidy(_summed(rs).entry_cost),
            minimum_move=rs.minimum_move is not None,
            features=features,
            contexts=contexts,
            modifiers=modifiers,
            precedence=tuple(p.groups for p in rs.precedence),
            tables=tables,
            dice_tables=dice_tables,
            triggers=triggers,
            steps=steps,
            decisions=decisions,
            params=params,
            unfilled=unfilled,
            exclusions=[(k, tuple(sorted(v))) for k, v in sorted(exclusions.items())],
            ignores_others=tuple(f.id for f in rs.features if f.ignores_others),
            whole_map=tuple(f.id for f in rs.features if f.id in whole),
            one_per_place=tuple(layer.id for layer in rs.layers if semantics.one_per_place(layer)),
            **map_context(rs),
            **python_moves.context(rs, label),
            grid_sizes={n.unit: tidy(n.value) for n in grid.size if n.unit} if grid else {},
            grid_diagonals=grid.diagonals if grid else (),
            **once_costs.context(rs),
            needs_floor=any(
                isinstance(t, ir.RateTerm) and t.full for st in rs.steps for t in st.terms
            ),
            needs_max=any(isinstance(t, ir.FloorTerm) for st in rs.steps for t in st.terms),
            needs_math=any(
                isinstance(v, Code) and "math." in v.source
                for c in cells.values()
                for v in c.entries.values()
            ),
            cells=list(cells.values()),
            summed_modifiers=tuple(m.id for m in rs.modifiers if _simply_added(m)),
            best_groups=[
                (m.id, {i: (g.id, _highest(g)) for g in m.best for i in g.members})
                for m in rs.modifiers
                if m.best
            ],
            step_inputs=[
                (m.id, semantics.step_inputs(rs, m))
                for m in rs.modifiers
                if semantics.step_inputs(rs, m)
            ],
            limits=any(c.value_type == "Limit" for c in cells.values()),
            sights=python_sight.sights(rs, runtime, Code),
            **python_sight.effects(rs),
            results_tables=python_sight.results_tables(rs, runtime),
            facings=python_facing.facings(rs),
            refused_costed=editions.refused_manoeuvre_costed(rs.edition),
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
        for ch in set(text) - _ASCII
    )


_ASCII = frozenset(map(chr, range(128)))


def _intro(rs: ir.Ruleset) -> str:
    chain = ", ".join(f"``{a.id}`` {a.version}" for a in rs.extends)
    extends = f", extending {chain}" if chain else ""
    return (
        f"Ruleset ``{rs.id}`` version {rs.version} ({rs.digest}){extends}. Generated from "
        f"rulesets/{rs.id}.terrain: edit that file and run ``rulesdsl build`` rather than "
        "this one. It needs nothing but the Python standard library."
    )


def _signature(d: ir.Decision, tables: dict[str, ir.Table] | None = None) -> str:
    def kind(p: ir.Param) -> str:
        table = (tables or {}).get(p.key_of or "")
        if table is not None:
            return key_type(p, table)
        return "bool" if p.unit == "bool" else "float"

    def given(p: ir.Param) -> str:
        """`` = default`` when the caller may leave the input out (issue 39)."""
        match p.default:
            case None:
                return ""
            case ir.Number(value=value):
                return f" = {spelling.number(value)}"
            case ir.Flag(value=flag):
                return f" = {flag}"
            case ir.Symbol(name=key):
                return f" = {_key_literal(p, key, (tables or {}).get(p.key_of or ''))}"
            case _:
                assert_never(p.default)

    params = [f"{p.name}: {kind(p)}{given(p)}" for p in d.params]
    return python_layout.def_line(d.id, params, "Outcome", exploded=True)


def _key_literal(p: ir.Param, key: str, table: ir.Table | None) -> str:
    """A key default as the function takes it: the row's number when the key is numeric."""
    if table is not None and key_type(p, table) == "float":
        number = next((r.key_number for r in table.rows if r.key == key), None)
        if number is not None:
            return spelling.number(number)
    return py(key, tail=0)


def _dice_table(t: ir.DiceTable) -> dict[str, Any]:
    dice = semantics.roll_of(t.dice)
    index = semantics.dice_index(t)

    with_naturals = (
        {0: semantics.dice_chances(t)}
        | {m.value: semantics.dice_chances(t, m.value) for m in t.modifiers}
        if t.naturals
        else {}
    )

    def chance(row: ir.DiceRow, shift: int) -> Fraction:
        if with_naturals:  # a natural roll gives its row whatever the total (issue 25)
            return with_naturals[shift][row.id]
        low = row.low - shift if row.low is not None else dice.minimum
        high = row.high - shift if row.high is not None else None
        return chance_between(dice, low, high)

    rows = [
        {
            "id": r.id,
            "labels": r.info.labels,
            "low": r.low,
            "high": r.high,
            "effects": {k: runtime(v) for k, v in r.effects.items()},
            "chance": chance(r, 0),
            "chance_with": {m.id: chance(r, m.value) for m in t.modifiers},
        }
        for r in t.rows
    ]
    return {
        "id": t.id,
        "labels": t.info.labels,
        "dice": runtime(t.dice),
        "modifiers": {m.id: m.value for m in t.modifiers},
        "rows": rows,
        "index": index,
        "naturals": {n.roll: n.outcome for n in t.naturals},
        "natural_at_least": sorted(n.roll for n in t.naturals if n.at_least),
    }


def _modifier_value(rs: ir.Ruleset, value: ir.Value) -> Any:
    """A modifier's value in MODIFIERS: a number, a marker, or a step's StepCost record."""
    step = once_costs.record(rs, value) if isinstance(value, ir.StepCost) else None
    return Code(step) if step is not None else per_value(value)


def _highest(group: ir.BestGroup) -> bool:
    match group.combine:
        case "highest":
            return True
        case "lowest":
            return False
        case _:
            assert_never(group.combine)


def _simply_added(m: ir.Modifier) -> bool:
    """Whether the module's modifier may answer ``m`` from _SUMMED_VALUES: its values are added
    up, with no clamp, no ``when`` combination, no second context and no best group."""
    match m.combine:
        case "sum":
            return (
                m.clamp is None
                and not m.combinations
                and m.context2 is None
                and not m.pairs
                and not m.best
            )
        case "highest" | "lowest" | "once":
            return False
        case _:
            assert_never(m.combine)


def _summed(rs: ir.Ruleset) -> ir.Ruleset:
    """``rs``, whose stacking policy the module's ``move_cost`` implements (``sum``: the
    entry cost plus the layers' costs)."""
    match rs.stacking:
        case "sum":
            return rs
        case _:
            assert_never(rs.stacking)
