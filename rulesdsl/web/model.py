"""What a web page's calculators offer, in one language: the ruleset's modifiers, dice tables,
decisions, steps and worked examples as plain data (JSON), each name with its label.

The page asks the ruleset's JavaScript module every answer; this data only says which
questions there are and how to word them, in the sheet's words
(:class:`rulesdsl.printed.sheet_base.BuilderBase`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any, assert_never

from rulesdsl import ir
from rulesdsl.codegen.plan.examples import ExamplesPlan
from rulesdsl.printed.sheet_base import BuilderBase
from rulesdsl.printed.sheet_view import UNITLESS
from rulesdsl.semantics import sail
from rulesdsl.semantics.effects import whole_map
from rulesdsl.semantics.moves import roll_order
from rulesdsl.semantics.tables import on_edges, roll_of

Data = dict[str, Any]

PLACE_ASKS = ("move_cost", "can_enter", "can_end", "must_stop", "rolls_due")
"""What the place calculator asks of a place (the module's functions)."""

LINE_PLACES = 6
"""The places along a line the line-of-sight calculator has (the bundled examples' longest
line has 5)."""

ROUTE_PLACES = 6
"""The rows of the route calculator: a place each, or a turn after the last (the bundled
examples' longest route has 5 places and a turn)."""

ROUTE_ACTS = ("turn", "sideslip", "backward")
"""What a unit with facing may do before entering a route's next place (a row's action)."""

ASKED = frozenset({"modifier", "path_cost", *PLACE_ASKS})
"""The module functions a worked example asks that the page's calculators can be filled
with; and a roll on a dice table, and each step and decision by its name."""


class PageModel(BuilderBase):
    """The calculators' data of one ruleset in one language."""

    def named(self, ident: str, info: ir.Info | None = None) -> Data:
        label = self.label(info, ident) if info else self.name(ident)
        return {"id": ident, "label": label, "changed": self.touched(ident)}

    def touched(self, ident: str) -> bool:
        """Whether a house rule changes or adds the item ``ident`` or one of its cells (its
        paths ``soft.walker``, ``house``): the page marks it as the sheet marks a cell."""
        paths = self.overridden | self.additions
        return any(p == ident or p.startswith(ident + ".") for p in paths)

    def data(
        self,
        examples: ExamplesPlan | None,
        cost_inputs: tuple[str, ...] = (),
        outcomes: tuple[str, ...] = (),
    ) -> Data:
        rs = self.rs
        return {
            "id": rs.id,
            "lang": self.lang,
            "modes": [self.named(m.id, m.info) for m in rs.modes],
            "groups": [{**self.named(g.id, g.info), "members": list(g.members)} for g in rs.groups],
            "moves": [self.named(k.id, k.info) for k in rs.moves],
            "features": [self.named(f.id, f.info) for f in rs.features],
            "modifiers": [self.modifier(m) for m in rs.modifiers],
            "dice": [self.dice(d) for d in rs.dice_tables],
            "results": [self.results(t) for t in rs.results_tables],
            "decisions": [self.decision(d) for d in rs.decisions],
            "steps": [self.step(s) for s in rs.steps],
            "place": self.place(cost_inputs, outcomes),
            "path": self.path(),
            "examples": self.examples(examples),
            **self.states(),
        }

    def states(self) -> Data:
        """The ``state`` lines (issue 40), each with its range, for the state fields of the
        calculators that pass a unit's state; nothing for rules without (their page as before)."""
        rs = self.rs
        states = [{**self.named(s.id, s.info), "low": s.low, "high": s.high} for s in rs.states]
        return {"states": states} if states else {}

    def wind(self) -> Data:
        """The route calculator's wind (issue 40): the headings of the unit types with facing
        (the page lays a route on their grid), where a turn tacks or wears, a step or the speed
        reads the point of sail or the wind drifts; with the strengths the rules name (``sail
        when``, ``speed when``), in the order they first stand, where one does."""
        facings = self.rs.facings
        by_wind = any(
            f.tack is not None or f.wear is not None or f.refused or f.sail_by or f.speed_by
            for f in facings
        )
        strengths = list(sail.strengths(facings))
        if not facings or not (by_wind or strengths or self.rs.drifts):
            return {}
        return {"wind": max(f.headings for f in facings)} | (
            {"strengths": strengths} if strengths else {}
        )

    def place(self, cost_inputs: tuple[str, ...], outcomes: tuple[str, ...]) -> Data | None:
        """The place calculator: the unit types, kinds of move and the features of a place
        by layer (not those on the edges between places), the dice outcomes a place may have
        (``cratered``), and the inputs a cost takes; ``roll_bands`` where a roll is due only in
        a band of a state (the page passes the unit's state to ``rollsDue``)."""
        rs = self.rs
        if not rs.modes or not rs.features:
            return None
        layers = [
            {**self.named(lay.id, lay.info), "features": [self.named(f) for f in lay.features]}
            for lay in rs.layers
            if not on_edges(lay) and lay.features
        ]
        if outcomes:
            layers.append(
                {"id": "", "label": self.w("web_outcomes"), "changed": False}
                | {"features": [self.named(o) for o in outcomes]}
            )
        inputs = [self.step_input(s) for name in cost_inputs for s in rs.steps if s.param == name]
        unit = rs.units.get("distance", "")
        return {
            "layers": layers,
            "inputs": list({i["name"]: i for i in inputs}.values()),
            "distance": self.unit_word(unit),
            "on": [{"id": on, "label": self.w(f"roll_when_{on}")} for on in roll_order(rs)]
            if rs.rolls
            else [],
            "asks": {ask: self.w(f"ask:{ask}") for ask in PLACE_ASKS},
            "rolls": {r.id: self.label(r.info, r.id) for r in rs.rolls},
            "facing": self.w("web_turn_mode") if rs.facings else "",
            "edges": [self.named(f) for lay in rs.layers if on_edges(lay) for f in lay.features],
            "acts": [{"id": a, "label": self.w(f"facing_act_{a}")} for a in ROUTE_ACTS]
            if rs.facings
            else [],
            "sights": [self.sight(s) for s in rs.sights],
            "whole_map": sorted(whole_map(rs)),
            **self.wind(),
            **({"roll_bands": True} if any(r.state for r in rs.rolls) else {}),  # the unit's state
        }

    def sight(self, s: ir.Sight) -> Data:
        """A sight rule; ``band``, in rules with states: whether it counts only in a band of
        the viewer's state (the page asks it with the state given)."""
        data = {**self.named(s.id, s.info), "crossed": s.crossed is not None}
        return {**data, "band": s.state is not None} if self.rs.states else data

    def path(self) -> Data | None:
        """The path calculator: the length of straight and diagonal steps on the first grid,
        in each unit its cell has a size in (``path_cost``)."""
        grids = [g for g in self.rs.grids[:1] if g.diagonals and g.size]
        if not grids:
            return None
        units = [n.unit for n in grids[0].size if n.unit]
        return {
            "label": self.w("ask:path_cost"),
            "units": [{"id": u, "label": self.c.unit(u)} for u in units],
        }

    def modifier(self, m: ir.Modifier) -> Data:
        given: dict[str, Data] = {}
        for item, by_key in m.values.items():
            for value in by_key.values():
                match value:
                    case ir.Given():
                        entry = {"name": item, "label": self.name(item), "unit": ""}
                    case ir.StepCost(step=step):
                        entry = next(self.step_input(s) for s in self.rs.steps if s.id == step)
                    case ir.Number() | ir.Marker() | ir.Same():
                        continue
                    case ir.PerDistance() | ir.OnceCost() | ir.NonCost():
                        continue
                    case _:
                        assert_never(value)
                given.setdefault(entry["name"], {**entry, "items": []})["items"].append(item)
        contexts = [c for c in (m.context, m.context2) if c is not None]
        return {
            **self.named(m.id, m.info),
            "clamp": self.clamp(m.clamp),
            "best": bool(m.best),
            "items": [self.named(item) for item in m.values],
            "given": list(given.values()),
            "contexts": [self.context(c) for c in contexts],
            **({"banded": True} if m.bands else {}),  # values in a band of the unit's state
        }

    def clamp(self, clamp: ir.Clamp | None) -> str:
        if clamp is None:
            return ""
        return self.w("web_clamped", low=self.num(clamp.low), high=self.num(clamp.high))

    def context(self, ident: str) -> Data:
        context = next(c for c in self.rs.contexts if c.id == ident)
        if context.of_modes:
            values = [self.named(m.id, m.info) for m in self.rs.modes]
            return {"id": ident, "label": self.w("web_unit_type"), "values": values}
        values = [self.named(v.id, v.info) for v in context.values]
        return {**self.named(ident, context.info), "values": values}

    def unit_word(self, unit: str) -> str:
        return "" if unit in UNITLESS else self.c.unit(unit)

    def step_input(self, s: ir.Step) -> Data:
        return {
            "name": s.param,
            "label": self.input_name(s.param),
            "unit": self.unit_word(s.param_unit),
        }

    def dice(self, d: ir.DiceTable) -> Data:
        return {
            **self.named(d.id, d.info),
            "dice": self.dice_text(roll_of(d.dice)),
            "modifiers": [
                {**self.named(m.id, m.info), "value": m.value} for m in d.modifiers if m.value
            ],
            "rows": [self.named(r.id, r.info) for r in d.rows],
        }

    def results(self, t: ir.ResultsTable) -> Data:
        """A results table as a dice table whose rows are its outcomes, with its columns to
        pick from (the page asks the module's ``roll`` with the column picked)."""
        return {
            **self.named(t.id, t.info),
            "dice": self.dice_text(roll_of(t.dice)),
            "modifiers": [
                {**self.named(m.id, m.info), "value": m.value, "shift": m.shift}
                for m in t.modifiers
                if m.value or m.shift
            ],
            "columns": [self.named(c.id, c.info) for c in t.columns],
            "ratio": all(c.ratio is not None for c in t.columns),
            "rows": [self.named(o.id, o.info) for o in t.outcomes],
        }

    def decision(self, d: ir.Decision) -> Data:
        return {
            **self.named(d.id, d.info),
            "inputs": [self.decision_input(p) for p in d.params],
        }

    def decision_input(self, p: ir.Param) -> Data:
        data: Data = {"name": p.name, "label": self.input_name(p.name)}
        default = p.default
        match default:
            case ir.Number():
                data["default"] = default.value
            case ir.Flag():
                data["default"] = default.value
            case ir.Symbol():
                data["default"] = default.name
            case None:
                pass
        if p.unit == "bool":
            return {**data, "kind": "flag"}
        modifier = next((m for m in self.rs.modifiers if m.id == p.total_of), None)
        if modifier is not None:  # the items to tick, whose total the rows read (issue 40)
            label = self.w("input_total", name=data["label"], modifier=self.name(modifier.id))
            items = [self.named(item) for item in modifier.values]
            return {**data, "label": label, "kind": "items", "items": items}
        table = next((t for t in self.rs.tables if t.id == p.key_of), None)
        if table is None:
            return {**data, "kind": "number", "unit": self.unit_word(p.unit)}
        match p.axis:
            case "column":
                keys = [self.named(c.id, c.info) for c in table.columns]
            case "row" | None if all(r.key_number is not None for r in table.rows):
                return {**data, "kind": "number", "unit": ""}
            case "row" | None:
                keys = [{"id": r.key, "label": self.label(r.info, r.key)} for r in table.rows]
            case _:
                assert_never(p.axis)
        return {**data, "kind": "key", "keys": keys}

    def step(self, s: ir.Step) -> Data:
        return {**self.named(s.id, s.info), "input": self.step_input(s)}

    def line_fits(self, places: Sequence[object]) -> bool:
        """Whether the line calculator holds these places: at most :data:`LINE_PLACES`, each of
        at most two features (and the page has the calculator: unit types and features)."""
        return (
            bool(self.rs.modes and self.rs.features)
            and len(places) <= LINE_PLACES
            and all(isinstance(p, tuple | list) and len(p) <= 2 for p in places)
        )

    def route_fits(self, route: Sequence[Any], kwargs: Mapping[str, Any]) -> bool:
        """Whether the route calculator can hold a route example: a row per place (up to two
        features, two on the edge into it), one action before each, and one after the last;
        a state and a wind where the calculator has their fields."""
        fields = {"allowance", "move"} | ({"wind"} if self.wind() else set())
        fields |= {"state"} if self.rs.states else set()
        acts = [i for i, item in enumerate(route) if isinstance(item, str)]
        places = [item for item in route if not isinstance(item, str)]
        rows = len(places) + bool(route and isinstance(route[-1], str))
        return (
            bool(self.rs.modes)
            and all(route[i] in ROUTE_ACTS for i in acts)
            and all(j > i + 1 for i, j in pairwise(acts))
            and all(len(p["features"]) <= 2 and len(p["edge"]) <= 2 for p in places)
            and rows <= ROUTE_PLACES
            and set(kwargs) <= fields
        )

    def examples(self, plan: ExamplesPlan | None) -> list[Data]:
        if plan is None:
            return []
        dice = {d.id for d in self.rs.dice_tables}
        results = {t.id for t in self.rs.results_tables}
        named = {s.id for s in self.rs.steps} | {d.id for d in self.rs.decisions}
        out = []
        for v in plan.vectors:
            titles = v.title
            out.append(
                {
                    "example": v.example,
                    "title": titles.get(self.lang) or next(iter(titles.values()), v.example),
                    "text": v.text,
                    "kind": v.kind,
                    "question": v.question,
                    "args": list(v.args),
                    "kwargs": dict(v.kwargs),
                    "expected": list(v.expected),
                    **({"attribute": v.attribute} if v.attribute else {}),  # `.state`, `.rolls`
                    "tryable": v.question in ASKED | named
                    or (v.question in ("roll", "chance") and v.args[0] in dice | results)
                    or v.question == "lookup"
                    or (v.question == "line_of_sight" and self.line_fits(v.args[1:]))
                    or (
                        v.question == "route_cost"
                        and not v.attribute  # `.state`, `.rolls`: the calculator answers the total
                        and self.route_fits(v.args[1:], v.kwargs)
                    ),
                }
            )
        return out
