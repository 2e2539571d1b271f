"""`rulesdsl convert`: a ruleset from the DSL to the YAML authoring format and back.

.terrain -> .yaml walks the syntax tree the parser returns; every cell, value, step term and
condition is copied as written (sliced from the source by its position), so nothing is
re-spelled. .yaml -> .terrain (:mod:`rulesdsl.interchange.yaml_to_terrain`, re-exported here)
writes one DSL statement per YAML entry. Comments in a .terrain file are not carried over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, assert_never

import yaml

from rulesdsl import ir, spelling, words
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange.yaml_to_terrain import (
    to_terrain as to_terrain,
)

# ---- .terrain -> .yaml -------------------------------------------------------------------------


class ConvertError(Exception):
    """A file that has no YAML form as it stands; carries the diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class _Unique(dict[str, Any]):
    """A section: a second entry of the same name is an error, not a silent overwrite."""

    def __setitem__(self, key: str, value: Any) -> None:
        if key in self:
            raise _Duplicate(key)
        super().__setitem__(key, value)


class _Flow(dict[str, Any]):
    """A mapping written on one line (`{label: Walker, fr: Marcheur}`)."""


class _Dumper(yaml.SafeDumper):
    pass


def _represent_flow(dumper: yaml.SafeDumper, data: _Flow) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)


_Dumper.add_representer(_Flow, _represent_flow)
for _block_type in (dict, _Unique):
    _Dumper.add_representer(
        _block_type,
        lambda d, data: d.represent_mapping(
            "tag:yaml.org,2002:map", data.items(), flow_style=False
        ),
    )
_Dumper.add_representer(
    list,
    lambda d, data: d.represent_sequence(
        "tag:yaml.org,2002:seq",
        data,
        flow_style=all(isinstance(x, str) for x in data) and sum(map(len, data)) < 80,
    ),
)

FLOW_LIMIT = 90
"""A mapping of plain values shorter than this (as text) is written on one line."""


def _maybe_flow(data: dict[str, Any]) -> dict[str, Any]:
    if all(isinstance(v, str | int | bool) for v in data.values()) and len(repr(data)) < FLOW_LIMIT:
        return _Flow(data)
    return data


_Header = (
    s.RulesetDecl
    | s.VersionDecl
    | s.EditionDecl
    | s.ExtendsDecl
    | s.LanguagesDecl
    | s.UnitsDecl
    | s.StackingDecl
    | s.MinimumDecl
)
"""The statements of the header, each a top-level key of the YAML document."""


def _extended(key: str, value: Any, extras: dict[str, Any]) -> Any:
    """``value`` as written, or ``{key: value, **extras}`` when it carries labels or notes."""
    return _maybe_flow({key: value, **extras}) if extras else value


def _removed_path(st: s.RemoveDecl | s.ExampleRemove | s.FacingRemove) -> str:
    """The path a removal names, as the YAML format writes it."""
    match st:
        case s.RemoveDecl():
            return ".".join(n.text for n in st.path)
        case s.ExampleRemove():
            return "example." + ".".join(n.text for n in st.path)
        case s.FacingRemove():
            return "facing." + st.mode.text
        case _:
            assert_never(st)


class _ToYaml:
    def __init__(self, source: s.SourceFile) -> None:
        self.lines = source.text.split("\n")
        self.source = source

    def text(self, pos: s.Pos) -> str:
        if pos.line == 0:
            return ""
        if pos.line == pos.end_line:
            raw = self.lines[pos.line - 1][pos.column - 1 : pos.end_column - 1]
        else:
            parts = [self.lines[pos.line - 1][pos.column - 1 :]]
            parts += self.lines[pos.line : pos.end_line - 1]
            parts.append(self.lines[pos.end_line - 1][: pos.end_column - 1])
            raw = "\n".join(parts)
        return " ".join(re.sub(r"\\[\t \f]*\r?\n", " ", raw).split())

    def span(self, first: s.Pos, last: s.Pos) -> str:
        return self.text(
            s.Pos(first.file, first.line, first.column, last.end_line, last.end_column)
        )

    # -- items --------------------------------------------------------------------------------

    @staticmethod
    def labels(labels: Iterable[s.Label]) -> dict[str, Any]:
        return {(label.lang or "label"): label.text for label in labels}

    def extras(self, extras: s.Extras) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if extras.source is not None:
            ref = extras.source
            parts = [
                ref.book.text,
                *([ref.page] if ref.page else []),
                *([spelling.string(ref.detail)] if ref.detail else []),
            ]
            out["source"] = " ".join(parts)
        notes = [self._note(n) for n in extras.notes]
        for i, scope in enumerate(extras.note_for):
            if scope:  # `note for mech "..."` -> {for: [mech], label: ...}
                notes[i] = {"for": [n.text for n in scope], **self.labels(extras.notes[i])}
        if notes:
            out["note"] = notes[0] if len(notes) == 1 else notes
        if extras.remarks:
            remarks = list(extras.remarks)
            out["remark"] = remarks[0] if len(remarks) == 1 else remarks
        if extras.ignores_others:
            out["ignores_others"] = True
        return out

    @staticmethod
    def _note(labels: tuple[s.Label, ...]) -> Any:
        if len(labels) == 1 and not labels[0].lang:
            return labels[0].text
        return _maybe_flow(_ToYaml.labels(labels))

    def item(self, item: s.Item, **middle: Any) -> Any:
        """An item as a mapping; a bare label when it has nothing else; None when empty."""
        body = {
            **self.labels(item.labels),
            **{k: v for k, v in middle.items() if v is not None},
            **self.extras(item.extras),
        }
        if not body:
            return None
        if list(body) == ["label"]:
            return body["label"]
        return _maybe_flow(body)

    def cells(self, cells: tuple[s.CellNode, ...]) -> Any:
        texts = [self.text(c.pos) for c in cells]
        return texts[0] if len(texts) == 1 else texts

    def rows(self, rows: tuple[s.RowNode, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for row in rows:
            key = self.text(row.item.name.pos) if row.key_number is not None else row.item.name.text
            cells = self.cells(row.cells)
            if not row.item.labels and row.item.extras == s.Extras() and not row.precedence:
                out[key] = cells
            else:
                body = {
                    **self.labels(row.item.labels),
                    "cells": cells,
                    **({"precedence": [n.text for n in row.precedence]} if row.precedence else {}),
                    **self.extras(row.item.extras),
                }
                out[key] = _maybe_flow(body)
        return out

    # -- statements ---------------------------------------------------------------------------

    def document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {}

        def section(name: str) -> dict[str, Any]:
            found: dict[str, Any] = doc.setdefault(name, _Unique())
            return found

        for st in self.source.statements:
            try:
                self._statement(st, doc, section)
            except _Duplicate as dup:
                pos = getattr(getattr(st, "item", None), "pos", None) or getattr(st, "pos", None)
                raise ConvertError(
                    error(
                        "E102",
                        f"'{dup.key}' is given twice",
                        pos,
                        "the YAML format has one entry per name: merge the two into one",
                    )
                ) from None
        return doc

    def _statement(
        self, st: s.Statement, doc: dict[str, Any], section: Callable[[str], dict[str, Any]]
    ) -> None:
        match st:
            case s.BookDecl():
                section("books")[st.item.name.text] = self.item(st.item)
            case s.ModeDecl():
                keywords = [n.text for n in st.keywords] or None
                allowance = self.text(st.allowance.pos) if st.allowance else None
                section("modes")[st.item.name.text] = self.item(
                    st.item, allowance=allowance, keywords=keywords
                )
            case s.GroupDecl():
                members = [n.text for n in st.members] or None
                section("groups")[st.item.name.text] = self.item(st.item, members=members)
            case s.PrecedenceDecl():
                groups = [n.text for n in st.groups]
                doc.setdefault("precedence", []).append(
                    _extended("groups", groups, self.extras(st.extras))
                )
            case s.ContextDecl():
                values = {v.name.text: self.item(v) for v in st.values}
                section("contexts")[st.item.name.text] = self._block(st.item, values=values)
            case s.ModifierDecl():
                section("modifiers")[st.item.name.text] = self._modifier(st)
            case s.LayerDecl():
                section("layers")[st.item.name.text] = self._layer(st)
            case s.StepDecl():
                section("steps")[st.item.name.text] = self._step(st)
            case s.DecisionDecl():
                section("decisions")[st.item.name.text] = self._decision(st)
            case s.TableDecl():
                section("tables")[st.item.name.text] = self._table(st)
            case s.DiceDecl():
                section("dice_tables")[st.item.name.text] = self._dice(st)
            case s.TriggerDecl():
                section("triggers")[st.item.name.text] = self._trigger(st)
            case s.ExcludeDecl():
                doc.setdefault("exclusions", []).append(
                    _maybe_flow(
                        {
                            "exclude": st.subject.text,
                            "with": [n.text for n in st.others],
                            **self.extras(st.extras),
                        }
                    )
                )
            case s.GridDecl():
                section("grids")[st.item.name.text] = self._grid(st)
            case s.ParamDecl():
                section("params")[st.item.name.text] = self._param(st)
            case s.SightDecl():
                section("sights")[st.item.name.text] = self._sight(st)
            case s.MoveDecl():
                section("moves")[st.item.name.text] = self._move(st)
            case s.RollDecl():
                section("rolls")[st.item.name.text] = self._roll(st)
            case s.ArcsDecl():
                section("arcs")[st.item.name.text] = self._arcs(st)
            case s.WholeMoveDecl():
                section("whole_moves")[st.item.name.text] = self._block(
                    st.item,
                    most=int(st.most.value.value)
                    if st.most and isinstance(st.most.value, ir.Number)
                    else None,
                    features=[n.text for n in st.features],
                    bonus=self.text(st.bonus.pos) if st.bonus else None,
                )
            case s.StateDecl() | s.DriftDecl():
                section(_CARRIED[type(st)])[st.item.name.text] = self._carried(st)
            case s.ExampleDecl():
                section("examples")[st.item.name.text] = self._block(
                    st.item, ask=[self._question(q) for q in st.questions]
                )
            case s.FacingDecl():
                section("facing")[st.mode.text] = {
                    **({} if st.grid is None else {"on": st.grid.text}),
                    "rules": [self._facing_clause(t) for t in st.terms],
                    **self.extras(st.extras),
                }
            case s.OverrideDecl():
                path = ".".join(n.text for n in st.path)
                cell = self.text(st.cell.pos)
                section("overrides")[path] = _extended("cell", cell, self.extras(st.extras))
            case s.ExampleOverride():
                path = "example." + ".".join(n.text for n in st.path)
                answer = self.span(st.answer[0].pos, st.answer[-1].pos)
                if st.answer_names:  # a route's state after it, by name (issue 40)
                    answer = f"({self.span(st.answer_names[0].pos, st.answer[-1].pos)})"
                section("overrides")[path] = _extended("cell", answer, self.extras(st.extras))
            case s.RemoveDecl() | s.ExampleRemove() | s.FacingRemove():
                removal = _extended("remove", _removed_path(st), self.extras(st.extras))
                doc.setdefault("removes", []).append(removal)
            case s.InsertDecl():
                pass  # the YAML format has no `insert`: left out, as before this was a match
            case _:  # the header's statements (a new kind of statement fails the call's type)
                self._header(st, doc)

    def _header(self, st: _Header, doc: dict[str, Any]) -> None:
        """The statements of the header: top-level keys of the document."""
        match st:
            case s.RulesetDecl():
                doc["ruleset"] = st.item.name.text
                doc.update(self.labels(st.item.labels))
                doc.update(self.extras(st.item.extras))
            case s.VersionDecl():
                doc["version"] = st.version
            case s.EditionDecl():
                doc["edition"] = st.edition
            case s.ExtendsDecl():
                doc["extends"] = f"{st.base.text}@{st.requirement}"
            case s.LanguagesDecl():
                doc["languages"] = [n.text for n in st.languages]
            case s.UnitsDecl():
                doc["units"] = _Flow({k.text: v.text for k, v in st.bindings})
            case s.StackingDecl():
                entry = f" entry {self.text(st.entry.pos)}" if st.entry else ""
                doc["stacking"] = st.policy.text + entry
            case s.MinimumDecl():
                move = self.text(st.amount.pos)
                doc["minimum"] = _extended("move", move, self.extras(st.extras))
            case _:
                assert_never(st)

    def _layer(self, st: s.LayerDecl) -> Any:
        return self._block(
            st.item,
            scope=words.scope_words(st.scope),
            columns=[n.text for n in st.columns] if st.columns else None,
            precedence=[n.text for n in st.precedence] if st.precedence else None,
            rows=self.rows(st.rows),
        )

    def _step(self, st: s.StepDecl) -> Any:
        return self._block(
            st.item,
            input=self.span(st.param.name.pos, st.param.unit.pos),
            result=st.result.text if st.result else None,
            terms=[self.text(t.pos) for t in st.terms],
        )

    def _decision(self, st: s.DecisionDecl) -> Any:
        return self._block(
            st.item,
            inputs=[self.span(p.name.pos, (p.default or p.unit).pos) for p in st.params],
            result=st.result.text if st.result else None,
            rows=[self._decision_row(r) for r in st.rows],
        )

    def _grid(self, st: s.GridDecl) -> Any:
        return self._block(
            st.item,
            size=[self.text(q.pos) for q in st.size],
            shape=st.shape.text if st.shape else None,
            diagonals=list(st.diagonals) if st.diagonals or not st.shape else None,
        )

    def _param(self, st: s.ParamDecl) -> Any:
        return self._block(
            st.item, unit=st.unit.text, value=self.text(st.value.pos) if st.value else None
        )

    def _move(self, st: s.MoveDecl) -> Any:
        return self._block(
            st.item,
            factor=self.text(st.factor.pos).split()[-1] if st.factor else None,
            amount=self.text(st.amount.pos) if st.amount else None,
            not_=[n.text for n in st.barred] or None,
            only=[n.text for n in st.only or ()] or None,
        )

    def _carried(self, st: s.StateDecl | s.DriftDecl) -> Any:
        """A ``state`` line's range and changes, or a ``drift`` line's entries (issue 40)."""
        if isinstance(st, s.DriftDecl):
            return self._block(st.item, entries=[self.text(e[1].pos) for e in st.entries])
        return self._block(
            st.item,
            range=[_whole(located) for located in st.range],
            changes=[self.text(change[2].pos) for change in st.changes],
            **({"ranges": [self._own_range(own) for own in st.own]} if st.own else {}),
        )

    def _own_range(self, own: tuple[s.Name, s.Located, s.Located]) -> str:
        """``bomber 0 to 6``: a unit type's own range of a state (issue 40)."""
        return f"{own[0].text} {_whole(own[1])} to {_whole(own[2])}"

    def _roll(self, st: s.RollDecl) -> Any:
        return self._block(
            st.item,
            roll=self.text(st.dice.pos) if st.dice else st.table.text if st.table else None,
            when=" ".join(w.text for w in st.when),
            combine=st.combine.text if st.combine else None,
            band=self.text(st.state[2].pos) if st.state else None,
        )

    def _modifier(self, st: s.ModifierDecl) -> Any:
        whens = [
            _maybe_flow(
                {
                    **(
                        {"band": self.text(w.band[2].pos)}
                        if w.band
                        else {"members": [n.text for n in w.members]}
                    ),
                    "cell": self.text(w.cell.pos),
                    **self.extras(w.extras),
                }
            )
            for w in st.whens
        ]
        clamp = [_bound(st.clamp.low), _bound(st.clamp.high)] if st.clamp else None
        return self._block(
            st.item,
            context=(
                [st.context.text, st.context2.text]
                if st.context and st.context2
                else st.context.text
                if st.context
                else None
            ),
            combine=st.combine.text if st.combine else None,
            clamp=clamp,
            rows=self.rows(st.rows) or None,
            when=whens or None,
            best={
                b.item.name.text: self._block(
                    b.item,
                    combine=b.combine.text if b.combine else None,
                    members=[m.text for m in b.members],
                )
                for b in st.bests
            }
            or None,
            sight={f.item.name.text: self._block(f.item, rule=f.rule.text) for f in st.sights or ()}
            or None,
        )

    def _table(self, st: s.TableDecl) -> Any:
        plain = all(not c.labels and c.extras == s.Extras() for c in st.columns)
        columns: Any = (
            [c.name.text for c in st.columns]
            if plain
            else {c.name.text: self.item(c) for c in st.columns}
        )
        arcs = st.arcs.text if st.arcs else None
        return self._block(st.item, arcs=arcs, columns=columns or None, rows=self.rows(st.rows))

    def _dice(self, st: s.DiceDecl) -> Any:
        return self._block(
            st.item,
            dice=self.text(st.dice.pos),
            modifiers={m.item.name.text: self._dice_modifier(m) for m in st.modifiers} or None,
            rows=[self._dice_row(r) for r in st.rows] or (None if st.results else []),
            **(self._results(st.results) if st.results else {}),
            **({"naturals": self._naturals(st.naturals)} if st.naturals else {}),
        )

    def _trigger(self, st: s.TriggerDecl) -> Any:
        check = f"{self.text(st.check.pos)} >= {st.at_least}" if st.check else None
        return self._block(
            st.item,
            check=check,
            roll=st.table.text,
            with_=(
                [n.text for n in (st.modifier, *st.more_modifiers) if n is not None]
                if st.more_modifiers
                else st.modifier.text
                if st.modifier
                else None
            ),
            times=st.times if st.times != 1 else None,
        )

    def _sight(self, st: s.SightDecl) -> Any:
        return self._block(
            st.item,
            blocks_at=self.text(st.blocks_at.pos).split()[-1]
            if st.blocks_at and not st.above
            else None,
            blocks_above=self.text(st.blocks_at.pos).split()[-1]
            if st.blocks_at and st.above
            else None,
            counts=st.counts.text if st.counts else None,
            crossed=st.crossed.text if st.crossed else None,
            target_inside=True if st.inside is not None else None,
            band=self.text(st.band[2].pos) if st.band else None,
        )

    def _arcs(self, st: s.ArcsDecl) -> Any:
        """Named arcs (issue 40): each arc's spans as written."""
        arcs = {
            a.item.name.text: self._block(
                a.item, spans=self.span(a.spans[0].pos, a.spans[-1].pos) if a.spans else None
            )
            for a in st.arcs
        }
        return self._block(st.item, count=st.unit.text if st.unit else None, arcs=arcs)

    def _question(self, q: s.QuestionNode) -> Any:
        """A worked example's question as written (a mapping when it carries notes)."""
        return _extended("ask", self.text(q.pos), self.extras(q.extras))

    def _facing_clause(self, term: s.FacingTerm) -> str:
        """One clause of a facing rule as written (issue 24)."""
        parts = (term.amount, term.per, term.speed, term.move)
        ends = [term.word.pos, *(p.pos for p in parts if p is not None)]
        last = max(ends, key=lambda p: (p.end_line, p.end_column))
        return self.span(term.word.pos, last) + (" once per move" if term.once else "")

    def _block(self, item: s.Item, **fields: Any) -> dict[str, Any]:
        body = {
            **self.labels(item.labels),
            **self.extras(item.extras),
            **{k.rstrip("_"): v for k, v in fields.items() if v is not None},
        }
        return body

    def _decision_row(self, row: s.DecisionRowNode) -> Any:
        when = (
            self.span(row.conditions[0].pos, row.conditions[-1].pos)
            if row.conditions
            else "otherwise"
        )
        return _maybe_flow(
            {
                "when": when,
                "then": row.outcome.name.text,
                **self.labels(row.outcome.labels),
                **({"gives": self.text(row.answer.pos)} if row.answer else {}),
                **self.extras(row.outcome.extras),
            }
        )

    def _dice_modifier(self, mod: s.DiceModifierNode) -> Any:
        value = mod.amount.value
        assert isinstance(value, ir.Number)
        amount = spelling.number(value.value, value.signed)
        if mod.shift is not None:  # `shift left 1` (issue 25)
            return _maybe_flow(
                {
                    **self.labels(mod.item.labels),
                    "shift": f"{mod.shift.text} {amount}",
                    **({"on_doubles": True} if mod.on_doubles is not None else {}),
                    **self.extras(mod.item.extras),
                }
            )
        if not mod.item.labels and mod.item.extras == s.Extras():
            return amount
        return _maybe_flow(
            {**self.labels(mod.item.labels), "amount": amount, **self.extras(mod.item.extras)}
        )

    def _naturals(self, naturals: Sequence[s.NaturalNode]) -> list[Any] | None:
        """Natural rolls: ``then`` an outcome (or a row), or a list of one per column;
        ``at_least: true`` (issue 25)."""
        return [
            _maybe_flow(
                {
                    "natural": n.roll,
                    "then": [o.text for o in n.by_column] if n.by_column else n.outcome.text,
                    **({"at_least": True} if n.at_least else {}),
                    **self.extras(n.extras),
                }
            )
            for n in naturals
        ] or None

    def _column_bound(self, c: s.DiceColumnNode) -> dict[str, Any]:
        """A results column's bound (``upto: 6 in``); none for a category (issue 40)."""
        key = words.column_key(c.bound)
        return {key: _column_text(self.text(c.value.pos))} if key else {}

    def _results(self, res: s.ResultsNode) -> dict[str, Any]:
        """A results table's own keys: by, columns, outcomes, naturals, results."""
        return {
            "column_by": res.by.text if res.by else None,
            "round": res.rounding.text if res.rounding else None,
            "columns": {
                c.item.name.text: _maybe_flow(
                    {
                        **self.labels(c.item.labels),
                        **self._column_bound(c),
                        **self.extras(c.item.extras),
                    }
                )
                for c in res.columns
            }
            or None,
            "outcomes": {
                o.name.text: self.item(
                    o,
                    effects=self.text(dict(res.effects)[o.name.text].pos)
                    if o.name.text in dict(res.effects)
                    else None,
                )
                for o in res.outcomes
            }
            or None,
            "naturals": self._naturals(res.naturals),
            "results": [
                _maybe_flow(
                    {
                        "roll": _roll_text(r.low, r.high),
                        "outcomes": [o.text for o in r.outcomes],
                        **self.extras(r.extras),
                    }
                )
                for r in res.rows
            ]
            or None,
        }

    def _dice_row(self, row: s.DiceRowNode) -> Any:
        roll = spelling.dice_range(row.low, row.high)
        body: dict[str, Any] = {
            "roll": roll,
            "result": row.item.name.text,
            **self.labels(row.item.labels),
        }
        if row.effects is not None:
            body["effects"] = self.text(row.effects.pos)
        return _maybe_flow({**body, **self.extras(row.item.extras)})


def _roll_text(low: int | None, high: int | None) -> str:
    return spelling.dice_range(low, high)


SCHEMA_LINE = "# yaml-language-server: $schema={schema}\n"


def to_yaml(source: s.SourceFile, schema: str | None = None) -> str:
    """The YAML authoring form of a parsed .terrain file."""
    doc = _ToYaml(source).document()
    body = yaml.dump(doc, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100_000)
    return (SCHEMA_LINE.format(schema=schema) if schema else "") + body


def _bound(bound: s.Located) -> str:
    """A clamp bound as the DSL writes it (``+1``, ``-1``, ``0``)."""
    value = bound.value
    assert isinstance(value, ir.Number)
    return f"{value.value:+g}" if value.signed else f"{value.value:g}"


def _column_text(text: str) -> str:
    """A column bound as written after ``up to``, ``above`` or ``at``: a number, a quantity
    with its unit (``6 in``) or a ratio (``2:1``)."""
    words = text.split()
    cut = next((i + 1 for i, w in enumerate(words) if w in ("to", "above", "at")), 0)
    return " ".join(words[cut:])


def _whole(located: s.Located) -> int | float:
    """A state's bound as YAML writes it: a whole number as an int."""
    value = located.value
    number = value.value if isinstance(value, ir.Number) else 0.0
    return int(number) if number == int(number) else number


_CARRIED: dict[type, str] = {s.StateDecl: "states", s.DriftDecl: "drifts"}
"""The YAML section of a ``state`` or ``drift`` line."""
