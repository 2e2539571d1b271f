"""`rulesdsl convert`: a ruleset from the DSL to the YAML authoring format and back.

.terrain -> .yaml walks the syntax tree the parser returns; every cell, value, step term and
condition is copied as written (sliced from the source by its position), so nothing is
re-spelled. .yaml -> .terrain writes one DSL statement per YAML entry and lays the text out
with :func:`rulesdsl.interchange.fmt.format_text`. Comments in a .terrain file are not carried over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import yaml

from rulesdsl import ir, spelling, words
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.frontends import syntax as s
from rulesdsl.interchange.fmt import format_text

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
            if not row.item.labels and row.item.extras == s.Extras():
                out[key] = cells
            else:
                body = {
                    **self.labels(row.item.labels),
                    "cells": cells,
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
        if isinstance(st, s.RulesetDecl):
            doc["ruleset"] = st.item.name.text
            doc.update(self.labels(st.item.labels))
            doc.update(self.extras(st.item.extras))
        elif isinstance(st, s.VersionDecl):
            doc["version"] = st.version
        elif isinstance(st, s.ExtendsDecl):
            doc["extends"] = f"{st.base.text}@{st.requirement}"
        elif isinstance(st, s.LanguagesDecl):
            doc["languages"] = [n.text for n in st.languages]
        elif isinstance(st, s.BookDecl):
            section("books")[st.item.name.text] = self.item(st.item)
        elif isinstance(st, s.UnitsDecl):
            doc["units"] = _Flow({k.text: v.text for k, v in st.bindings})
        elif isinstance(st, s.StackingDecl):
            entry = f" entry {self.text(st.entry.pos)}" if st.entry else ""
            doc["stacking"] = st.policy.text + entry
        elif isinstance(st, s.MinimumDecl):
            extras = self.extras(st.extras)
            move = self.text(st.amount.pos)
            doc["minimum"] = _maybe_flow({"move": move, **extras}) if extras else move
        elif isinstance(st, s.ModeDecl):
            keywords = [n.text for n in st.keywords] or None
            section("modes")[st.item.name.text] = self.item(st.item, keywords=keywords)
        elif isinstance(st, s.GroupDecl):
            members = [n.text for n in st.members] or None
            section("groups")[st.item.name.text] = self.item(st.item, members=members)
        elif isinstance(st, s.PrecedenceDecl):
            groups = [n.text for n in st.groups]
            extras = self.extras(st.extras)
            doc.setdefault("precedence", []).append(
                _maybe_flow({"groups": groups, **extras}) if extras else groups
            )
        elif isinstance(st, s.ContextDecl):
            values = {v.name.text: self.item(v) for v in st.values}
            section("contexts")[st.item.name.text] = self._block(st.item, values=values)
        elif isinstance(st, s.ModifierDecl):
            whens = [
                _maybe_flow(
                    {
                        "members": [n.text for n in w.members],
                        "cell": self.text(w.cell.pos),
                        **self.extras(w.extras),
                    }
                )
                for w in st.whens
            ]
            clamp = [_bound(st.clamp.low), _bound(st.clamp.high)] if st.clamp else None
            section("modifiers")[st.item.name.text] = self._block(
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
            )
        elif isinstance(st, s.LayerDecl):
            scope = words.scope_words(st.scope)
            section("layers")[st.item.name.text] = self._block(
                st.item,
                scope=scope,
                columns=[n.text for n in st.columns] if st.columns else None,
                rows=self.rows(st.rows),
            )
        elif isinstance(st, s.StepDecl):
            section("steps")[st.item.name.text] = self._block(
                st.item,
                input=self.span(st.param.name.pos, st.param.unit.pos),
                result=st.result.text if st.result else None,
                terms=[self.text(t.pos) for t in st.terms],
            )
        elif isinstance(st, s.DecisionDecl):
            section("decisions")[st.item.name.text] = self._block(
                st.item,
                inputs=[self.span(p.name.pos, p.unit.pos) for p in st.params],
                result=st.result.text if st.result else None,
                rows=[self._decision_row(r) for r in st.rows],
            )
        elif isinstance(st, s.TableDecl):
            plain = all(not c.labels and c.extras == s.Extras() for c in st.columns)
            columns: Any = (
                [c.name.text for c in st.columns]
                if plain
                else {c.name.text: self.item(c) for c in st.columns}
            )
            section("tables")[st.item.name.text] = self._block(
                st.item, columns=columns or None, rows=self.rows(st.rows)
            )
        elif isinstance(st, s.DiceDecl):
            section("dice_tables")[st.item.name.text] = self._block(
                st.item,
                dice=self.text(st.dice.pos),
                modifiers={m.item.name.text: self._dice_modifier(m) for m in st.modifiers} or None,
                rows=[self._dice_row(r) for r in st.rows] or (None if st.results else []),
                **(self._results(st.results) if st.results else {}),
                **({"naturals": self._naturals(st.naturals)} if st.naturals else {}),
            )
        elif isinstance(st, s.TriggerDecl):
            check = f"{self.text(st.check.pos)} >= {st.at_least}" if st.check else None
            section("triggers")[st.item.name.text] = self._block(
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
        elif isinstance(st, s.ExcludeDecl):
            doc.setdefault("exclusions", []).append(
                _maybe_flow(
                    {
                        "exclude": st.subject.text,
                        "with": [n.text for n in st.others],
                        **self.extras(st.extras),
                    }
                )
            )
        elif isinstance(st, s.GridDecl):
            section("grids")[st.item.name.text] = self._block(
                st.item,
                size=[self.text(q.pos) for q in st.size],
                shape=st.shape.text if st.shape else None,
                diagonals=list(st.diagonals) if st.diagonals or not st.shape else None,
            )
        elif isinstance(st, s.ParamDecl):
            section("params")[st.item.name.text] = self._block(
                st.item, unit=st.unit.text, value=self.text(st.value.pos) if st.value else None
            )
        elif isinstance(st, s.OverrideDecl):
            path = ".".join(n.text for n in st.path)
            cell = self.text(st.cell.pos)
            extras = self.extras(st.extras)
            section("overrides")[path] = _maybe_flow({"cell": cell, **extras}) if extras else cell
        elif isinstance(st, s.SightDecl):
            section("sights")[st.item.name.text] = self._block(
                st.item,
                blocks_at=self.text(st.blocks_at.pos).split()[-1] if st.blocks_at else None,
                counts=st.counts.text if st.counts else None,
                crossed=st.crossed.text if st.crossed else None,
                target_inside=True if st.inside is not None else None,
            )
        elif isinstance(st, s.MoveDecl):
            section("moves")[st.item.name.text] = self._block(
                st.item,
                factor=self.text(st.factor.pos).split()[-1] if st.factor else None,
                amount=self.text(st.amount.pos) if st.amount else None,
                not_=[n.text for n in st.barred] or None,
            )
        elif isinstance(st, s.RollDecl):
            section("rolls")[st.item.name.text] = self._block(
                st.item,
                roll=self.text(st.dice.pos) if st.dice else st.table.text if st.table else None,
                when=" ".join(w.text for w in st.when),
                combine=st.combine.text if st.combine else None,
            )
        elif isinstance(st, s.ExampleDecl):
            section("examples")[st.item.name.text] = self._block(
                st.item, ask=[self._question(q) for q in st.questions]
            )
        elif isinstance(st, s.ExampleOverride):
            path = "example." + ".".join(n.text for n in st.path)
            answer = self.span(st.answer[0].pos, st.answer[-1].pos)
            extras = self.extras(st.extras)
            section("overrides")[path] = (
                _maybe_flow({"cell": answer, **extras}) if extras else answer
            )
        elif isinstance(st, s.FacingDecl):
            section("facing")[st.mode.text] = {
                "on": st.grid.text,
                "rules": [self._facing_clause(t) for t in st.terms],
                **self.extras(st.extras),
            }
        elif isinstance(st, s.FacingRemove):
            extras = self.extras(st.extras)
            path = "facing." + st.mode.text
            doc.setdefault("removes", []).append(
                _maybe_flow({"remove": path, **extras}) if extras else path
            )
        elif isinstance(st, s.ExampleRemove):
            path = "example." + ".".join(n.text for n in st.path)
            extras = self.extras(st.extras)
            doc.setdefault("removes", []).append(
                _maybe_flow({"remove": path, **extras}) if extras else path
            )
        elif isinstance(st, s.RemoveDecl):
            path = ".".join(n.text for n in st.path)
            extras = self.extras(st.extras)
            doc.setdefault("removes", []).append(
                _maybe_flow({"remove": path, **extras}) if extras else path
            )

    def _question(self, q: s.QuestionNode) -> Any:
        """A worked example's question as written (a mapping when it carries notes)."""
        extras = self.extras(q.extras)
        text = self.text(q.pos)
        return _maybe_flow({"ask": text, **extras}) if extras else text

    def _facing_clause(self, term: s.FacingTerm) -> str:
        """One clause of a facing rule as written (issue 24)."""
        parts = (term.amount, term.per, term.speed)
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

    def _results(self, res: s.ResultsNode) -> dict[str, Any]:
        """A results table's own keys: by, columns, outcomes, naturals, results."""
        return {
            "column_by": res.by.text if res.by else None,
            "round": res.rounding.text if res.rounding else None,
            "columns": {
                c.item.name.text: _maybe_flow(
                    {
                        **self.labels(c.item.labels),
                        words.column_key(c.bound): _column_text(self.text(c.value.pos)),
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


# ---- .yaml -> .terrain -------------------------------------------------------------------------


_q = spelling.string


def _labels(node: Any) -> str:
    if isinstance(node, str):
        return _q(node)
    if not isinstance(node, dict):
        return ""
    parts = [_q(node["label"])] if "label" in node else []
    parts += [f"{k} {_q(v)}" for k, v in node.items() if _is_lang(k)]
    return " ".join(parts)


def _is_lang(key: str) -> bool:
    return re.fullmatch(r"[a-z]{2}(_[A-Za-z]{2,4})?", key) is not None


def _extras(node: Any, indent: str = "  ") -> str:
    if not isinstance(node, dict):
        return ""
    out = f" [{node['source']}]" if "source" in node else ""
    notes = node.get("note")
    for note in notes if isinstance(notes, list) else [notes] if notes else []:
        out += f"\n{indent}  note {_labels(note)}"
    remarks = node.get("remark")
    for remark in remarks if isinstance(remarks, list) else [remarks] if remarks else []:
        out += f"\n{indent}  remark {_q(remark)}"
    if str(node.get("ignores_others", "")).lower() in ("true", "yes", "on"):
        out += " ignores others"
    return out


def _head(keyword: str, name: str, node: Any, middle: str = "") -> str:
    parts = [keyword, name, _labels(node) if isinstance(node, dict | str) else "", middle]
    return " ".join(p for p in parts if p)


def _seq(node: Any) -> list[Any]:
    if node is None:
        return []
    return node if isinstance(node, list) else [node]


def _cells(node: Any) -> list[str]:
    if isinstance(node, dict):
        node = node.get("cells", "")
    return [str(c) if c is not None else "" for c in _seq(node)] or [""]


def _rows(rows: Any, indent: str = "  ") -> list[str]:
    out = []
    for key, row in (rows or {}).items():
        labels = _labels(row) if isinstance(row, dict) else ""
        cells = " | ".join(_cells(row))
        head = f"{key} {labels}".rstrip()
        out.append(f"{indent}{head} | {cells}".rstrip() + _extras(row, indent))
    return out


def to_terrain(text: str) -> str:
    """The DSL form of a YAML ruleset (which must already compile or at least parse)."""
    doc: dict[str, Any] = yaml.load(text, Loader=yaml.BaseLoader) or {}
    lines: list[str] = []
    emit = lines.append
    for section, node in doc.items():
        if section == "ruleset":
            emit(_head("ruleset", node, doc) + _extras(doc, ""))
        elif section == "version":
            emit(f"version {node}")
        elif section == "extends":
            emit(f"extends {node}")
        elif section == "languages":
            emit("languages " + " ".join(_seq(node)))
        elif section == "books":
            for name, item in node.items():
                emit(_head("book", name, item) + _extras(item, ""))
        elif section == "units":
            emit("units " + ", ".join(f"{k} {v}" for k, v in node.items()))
        elif section == "stacking":
            emit(f"stacking {node}")
        elif section == "minimum":
            move = node["move"] if isinstance(node, dict) else node
            emit(f"minimum move {move}" + _extras(node, ""))
        elif section == "modes":
            for name, item in node.items():
                keywords = item.get("keywords") if isinstance(item, dict) else None
                middle = ": " + ", ".join(_seq(keywords)) if keywords else ""
                emit(_head("mode", name, item, middle) + _extras(item, ""))
        elif section == "groups":
            for name, item in node.items():
                members = (
                    item
                    if isinstance(item, list)
                    else item.get("members", [])
                    if isinstance(item, dict)
                    else []
                )
                emit(
                    _head("group", name, item if isinstance(item, dict | str) else None)
                    + (": " + ", ".join(members) if members else "")
                    + _extras(item, "")
                )
        elif section == "precedence":
            for entry in _seq(node):
                groups = entry.get("groups", []) if isinstance(entry, dict) else entry
                emit(f"precedence {', '.join(_seq(groups))}" + _extras(entry, ""))
        elif section == "contexts":
            for name, item in node.items():
                emit(_head("context", name, item) + _extras(item, "") + " {")
                for value, vitem in (item.get("values") or {}).items():
                    emit(f"  {_head('', value, vitem).strip()}" + _extras(vitem))
                emit("}")
        elif section == "modifiers":
            for name, item in node.items():
                item = item if isinstance(item, dict) else {}
                by = f"by {', '.join(_seq(item['context']))}" if "context" in item else ""
                if "combine" in item:
                    by = f"{by} combine {item['combine']}".strip()
                if "clamp" in item:
                    low, high = _seq(item["clamp"])
                    by = f"{by} clamp {low} to {high}".strip()
                head = _head("modifier", name, item, by) + _extras(item, "")
                if "rows" not in item and "when" not in item and "best" not in item:
                    emit(head)
                    continue
                emit(head + " {")
                lines += _rows(item.get("rows"))
                for w in _seq(item.get("when")):
                    emit(f"  when {', '.join(w['members'])} | {w['cell']}" + _extras(w))
                for bname, bitem in (item.get("best") or {}).items():
                    combine = f"combine {bitem['combine']}" if "combine" in bitem else ""
                    members = ", ".join(_seq(bitem.get("members")))
                    emit(f"  {_head('best', bname, bitem, combine)} : {members}" + _extras(bitem))
                emit("}")
        elif section == "layers":
            for name, item in node.items():
                scope = item.get("scope", "")
                emit(_head("layer", name, item, scope) + _extras(item, "") + " {")
                if item.get("columns"):
                    emit("  columns " + ", ".join(item["columns"]))
                lines += _rows(item.get("rows"))
                emit("}")
        elif section == "steps":
            for name, item in node.items():
                result = f" -> {item['result']}" if "result" in item else ""
                emit(
                    _head("step", name, item)
                    + f" ({item['input']}){result} : "
                    + ", ".join(_seq(item["terms"]))
                    + _extras(item, "")
                )
        elif section == "decisions":
            for name, item in node.items():
                result = f" -> {item['result']}" if "result" in item else ""
                emit(
                    _head("decision", name, item)
                    + f" ({', '.join(item['inputs'])}){result}"
                    + _extras(item, "")
                    + " {"
                )
                for row in _seq(item.get("rows")):
                    emit(f"  {row['when']} -> {_head('', row['then'], row).strip()}" + _extras(row))
                emit("}")
        elif section == "tables":
            for name, item in node.items():
                emit(_head("table", name, item) + _extras(item, "") + " {")
                columns = item.get("columns")
                if isinstance(columns, list):
                    emit("  columns " + ", ".join(columns))
                for column, citem in (columns or {}).items() if isinstance(columns, dict) else ():
                    emit(f"  column {_head('', column, citem).strip()}" + _extras(citem))
                lines += _rows(item.get("rows"))
                emit("}")
        elif section == "sights":
            for name, item in node.items():
                terms = [f"blocks at {item['blocks_at']}"] if "blocks_at" in item else []
                terms += [f"counts {item['counts']}"] if "counts" in item else []
                terms += [f"crossed {item['crossed']}"] if "crossed" in item else []
                inside = str(item.get("target_inside", "")).lower() in ("true", "yes", "on")
                terms += ["target inside"] if inside else []
                emit(_head("sight", name, item) + " : " + ", ".join(terms) + _extras(item, ""))
        elif section == "moves":
            for name, item in node.items():
                terms = [f"allowance times {item['factor']}"] if "factor" in item else []
                terms += [f"allowance {item['amount']}"] if "amount" in item else []
                terms += [f"not {n}" for n in _seq(item.get("not"))]
                emit(_head("move", name, item) + " : " + ", ".join(terms) + _extras(item, ""))
        elif section == "rolls":
            for name, item in node.items():
                combine = f" combine {item['combine']}" if "combine" in item else ""
                emit(
                    _head("roll", name, item)
                    + f" : {item.get('roll', '')} on {item.get('when', 'entering')}{combine}"
                    + _extras(item, "")
                )
        elif section == "dice_tables":
            for name, item in node.items():
                by = f" by {item['column_by']}" if "column_by" in item else ""
                by += f" round {item['round']}" if "round" in item else ""
                emit(
                    _head("dice", name, item) + f" : {item['dice']}{by}" + _extras(item, "") + " {"
                )
                for mod, mitem in (item.get("modifiers") or {}).items():
                    amount = mitem.get("amount", "") if isinstance(mitem, dict) else mitem
                    if isinstance(mitem, dict) and "shift" in mitem:
                        amount = f"shift {mitem['shift']}"
                    labels = _labels(mitem) if isinstance(mitem, dict) else ""
                    emit(
                        "  "
                        + " ".join(p for p in ("modifier", mod, labels, amount) if p)
                        + _extras(mitem)
                    )
                for column, citem in (item.get("columns") or {}).items():
                    bound = (
                        "up to " + str(citem["upto"])
                        if "upto" in citem
                        else "at " + str(citem["point"])
                        if "point" in citem
                        else "above " + str(citem.get("above", ""))
                    )
                    emit(f"  column {_head('', column, citem).strip()} {bound}" + _extras(citem))
                for outcome, oitem in (item.get("outcomes") or {}).items():
                    carried = (
                        f" | {oitem['effects']}"
                        if isinstance(oitem, dict) and "effects" in oitem
                        else ""
                    )
                    emit(f"  outcome {_head('', outcome, oitem).strip()}{carried}" + _extras(oitem))
                for nat in _seq(item.get("naturals")):
                    then = nat["then"]
                    least = "at least " if nat.get("at_least") else ""
                    then = "| " + " | ".join(then) if isinstance(then, list) else least + then
                    emit(f"  natural {nat['natural']} {then}" + _extras(nat))
                for row in _seq(item.get("rows")):
                    effects = f" | {row['effects']}" if "effects" in row else ""
                    emit(
                        f"  {row['roll']} {_head('', row['result'], row).strip()}{effects}"
                        + _extras(row)
                    )
                for res in _seq(item.get("results")):
                    outcomes = " | ".join(_seq(res.get("outcomes")))
                    emit(f"  {res['roll']} | {outcomes}" + _extras(res))
                emit("}")
        elif section == "triggers":
            for name, item in node.items():
                check = f"{item['check']} then " if "check" in item else ""
                with_ = f" with {', '.join(_seq(item['with']))}" if "with" in item else ""
                times = f" times {item['times']}" if "times" in item else ""
                emit(
                    _head("trigger", name, item)
                    + f" : {check}roll {item['roll']}{with_}"
                    + times
                    + _extras(item, "")
                )
        elif section == "exclusions":
            for entry in _seq(node):
                emit(
                    f"exclude {entry['exclude']} with {', '.join(entry['with'])}"
                    + _extras(entry, "")
                )
        elif section == "grids":
            for name, item in node.items():
                size = " = ".join(item["size"])
                diagonals = ", ".join(item.get("diagonals") or [])
                shape = f"{item['shape']}, " if item.get("shape") else ""
                tail = f", diagonals {diagonals}" if diagonals else ""
                emit(
                    _head("grid", name, item)
                    + (f" : {size}, {item['shape']}{tail}" if shape else f" : {size}{tail}")
                    + _extras(item, "")
                )
        elif section == "params":
            for name, item in node.items():
                value = f" = {item['value']}" if "value" in item else ""
                emit(_head("param", name, item) + f" : {item['unit']}{value}" + _extras(item, ""))
        elif section == "overrides":
            for path, item in node.items():
                cell = item["cell"] if isinstance(item, dict) else item
                emit(f"override {_example_path(path)} | {cell}" + _extras(item, ""))
        elif section == "facing":
            for name, item in node.items():
                rules = ", ".join(_seq(item.get("rules")))
                emit(f"facing {name} on {item['on']} : {rules}" + _extras(item, ""))
        elif section == "removes":
            for entry in _seq(node):
                path = entry["remove"] if isinstance(entry, dict) else entry
                emit(f"remove {_example_path(path)}" + _extras(entry, ""))
        elif section == "examples":
            for name, item in node.items():
                emit(_head("example", name, item) + _extras(item, "") + " {")
                for entry in _seq(item.get("ask")):
                    ask = entry["ask"] if isinstance(entry, dict) else entry
                    emit(f"  {ask}" + _extras(entry))
                emit("}")
        if (
            section
            not in ("ruleset", "version", "extends", "languages", "units", "stacking", "minimum")
            and not _is_lang(section)
            and section not in ("label", "source", "note")
        ):
            emit("")
    return format_text("\n".join(lines) + "\n")


def _example_path(path: str) -> str:
    """``example.NAME`` in YAML is ``example NAME`` in the DSL (``example`` is a keyword)."""
    if path.startswith("facing."):  # `remove facing MODE` (issue 24)
        return "facing " + path[len("facing.") :]
    return "example " + path[len("example.") :] if path.startswith("example.") else path


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
