"""Every answer the module gives is on the sheet (issue 43 item 7): for every bundled ruleset and
every test ruleset, in every language of its sheet, each cost, modifier and roll cell the module
answers is compared with what the sheet's Markdown text says in that place.

The sheet's text is read back as a player reads it: a layer's table by its row (the feature's
label) and its column heading (a cost or modifier heading, then the unit types, keywords or
context values it names, "others" for the rest); a roll by its sentence ("Never roll: ...") and
its table ("who rolls, at what", a kind of move's own entries in brackets). The module's side is
the compiled ruleset's resolved values, which the generated modules are made of
(tests/test_generated_modules.py holds them equal)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from rulesdsl import ir, semantics
from rulesdsl.printed.cards import build_deck
from rulesdsl.printed.sheet_model import _Builder, build_sheet
from rulesdsl.printed.sheet_view import PAIR, marker_sign
from rulesdsl.printed.sheets import render_markdown
from rulesdsl.semantics.moves import kind_of
from tests.conftest import shared_compiler

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    [
        *(ROOT / "rulesets").glob("*.terrain"),
        *(ROOT / "tests" / "data").glob("*.terrain"),
        *(ROOT / "tests" / "data" / "yaml").glob("*.yaml"),
    ]
)
MARKS = re.compile(r"[\u2009 ]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+(,[⁰¹²³⁴⁵⁶⁷⁸⁹]+)*")


@cache
def _compiled(path: Path) -> ir.Ruleset:
    """``path`` compiled by the process's compiler of the bundled rulesets
    (conftest.shared_compiler): those are compiled once a process, not once more here."""
    compiled = shared_compiler().compile_file(path)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


def _sheets() -> Iterator[tuple[str, Path, str]]:
    for path in SOURCES:
        for lang in _compiled(path).languages:
            yield f"{path.parent.name}/{path.stem}.{lang}", path, lang


CASES = list(_sheets())


@dataclass
class Table:
    head: list[str]
    rows: list[list[str]]


def _plain(cell: str) -> str:
    """A Markdown cell as a player reads it: escapes undone, footnote marks and a variant's
    changed sign dropped."""
    text = re.sub(r"\\(.)", r"\1", cell.strip())
    return MARKS.sub("", text.replace(" †", "")).strip()


def _tables(markdown: str) -> list[Table]:
    tables: list[Table] = []
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and (i == 0 or not lines[i - 1].startswith("|")):
            rows = []
            for row in lines[i:]:
                if not row.startswith("|"):
                    break
                rows.append([_plain(c) for c in re.split(r"(?<!\\)\|", row.strip()[1:-1])])
            tables.append(Table(rows[0], rows[2:]))
    return tables


# ---- reading a heading: the unit types, keywords or context values it names -----------------


def _names(b: _Builder, text: str, labels: dict[str, str]) -> list[str] | None:
    """The keys ``text`` names, comma-separated labels (which may hold commas themselves);
    None when it is not such a list."""
    keys: list[str] = []
    rest = text
    while rest:
        match = max((lab for lab in labels if rest.startswith(lab)), key=len, default=None)
        if match is None:
            return None
        keys.append(labels[match])
        rest = rest[len(match) :]
        if rest.startswith(", "):
            rest = rest[2:]
        elif rest:
            return None
    return keys


def _labels(b: _Builder, ids: list[str]) -> dict[str, str]:
    others = b.w("others")
    labels = {b.name(i): i for i in ids}
    labels |= {f"{b.name(x)} & {b.name(y)}": f"{x}{PAIR}{y}" for x in ids for y in ids}
    return labels | {others: "", others[:1].upper() + others[1:]: "*others", b.w("all"): "*all"}


def _columns(b: _Builder, head: list[str], title: str, ids: list[str]) -> dict[int, list[str]]:
    """The columns of ``head`` under ``title`` and the keys each names."""
    prefix = b.w("label_colon", label=title, text="") if title else ""
    labels = _labels(b, ids)
    out = {}
    for i, text in enumerate(head):
        if i == 0:
            continue
        if text == title:
            out[i] = ["*all"]
        elif prefix and text.startswith(prefix):
            keys = _names(b, text[len(prefix) :], labels)
            if keys is not None:
                out[i] = keys
        elif not title and (keys := _names(b, text, labels)) is not None:
            out[i] = keys
    return out


def _expand(b: _Builder, keys: list[str], named: set[str], everyone: list[str]) -> list[str]:
    """The unit types or context values a column stands for."""
    members = {g.id: list(g.members) for g in b.rs.groups}
    out: list[str] = []
    for key in keys:
        if key == "*all":
            out += everyone
        elif key == "*others":
            out += [k for k in everyone if k not in named]
        else:
            out += members.get(key, [key])
    return out


def _spaced(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ").replace("\u2009", " ")


def _cell_says(cell: str, value: ir.Value | None, b: _Builder, shown: str | None = None) -> bool:
    """Whether ``cell`` says ``value`` (``shown``: the value with what the sheet adds to it)."""
    cell = _spaced(cell)
    expected = _spaced(b.value(value).text if shown is None else shown)
    if cell == expected or cell.startswith(expected + " · "):
        return True
    # a narrow table prints a marker's sign alone; the legend says what it means
    return isinstance(value, ir.Marker) and cell.split(" · ")[0] == marker_sign(value.marker)


# ---- the checks ---------------------------------------------------------------------------


def _layer_table(tables: list[Table], b: _Builder, layer: ir.Layer) -> Table | None:
    title = b.label(layer.info, layer.id)
    return next((t for t in tables if t.head[0] == title), None)


def _row(table: Table, b: _Builder, feature: ir.Feature) -> list[str] | None:
    label = b.label(feature.info, feature.id)
    return next((r for r in table.rows if re.sub(r" \(.*\)$", "", r[0]) == label), None)


def _cost_faults(b: _Builder, table: Table, layer: ir.Layer) -> list[str]:
    modes = [m.id for m in b.rs.modes]
    unit, distance = b.rs.units.get("cost", ""), b.rs.units.get("distance", "")
    title = b.w("cost_per", cost=b.c.unit(unit), distance=b.c.unit(distance)) if unit else ""
    if semantics.on_edges(layer) and unit:  # maps: paid once per crossing
        title = b.c.unit(unit)
    ids = modes + [g.id for g in b.rs.groups]
    heads = {
        i: keys
        for i, keys in _columns(b, table.head, title, ids).items()
        if all(k in ids or k.startswith("*") for k in keys)
    }
    named = {k for keys in heads.values() for k in _expand(b, keys, set(), [])}
    faults = []
    features = {f.id: f for f in b.rs.features}
    for fid in layer.features:
        f = features[fid]
        row = _row(table, b, f)
        if row is None or not f.costs:
            continue
        seen: set[str] = set()
        for i, keys in heads.items():
            for mode in _expand(b, keys, named, modes):
                if mode in f.costs:
                    seen.add(mode)
                    value = b.written_cost(f, mode)
                    shown = b.map_cell(b.value(value), f, mode).text
                    if not _cell_says(row[i], value, b, shown):
                        faults.append(f"{f.id} cost for {mode}: sheet {row[i]!r}")
        faults += [f"{f.id} cost for {m}: not on the sheet" for m in f.costs if m not in seen]
    return faults


def _context_ids(b: _Builder, mod: ir.Modifier) -> tuple[list[str], list[str]]:
    contexts = {c.id: [v.id for v in c.values] for c in b.rs.contexts}
    first = contexts.get(mod.context or "", [])
    second = contexts.get(mod.context2 or "", [])
    modes = [m.id for m in b.rs.modes]
    if mod.context == "mode" and not first:
        first = modes
    if mod.context2 == "mode" and not second:
        second = modes
    return first, second


def _modifier_faults(
    b: _Builder, table: Table, items: list[tuple[str, str]], mod: ir.Modifier, title: str
) -> list[str]:
    """``mod``'s cells in ``table``: a layer's modifier columns under ``title``, or the rows of
    the modifier's own block (its factors, ``title`` empty); ``items``: (id, row label)."""
    first, second = _context_ids(b, mod)
    ids = first + second + [g.id for g in b.rs.groups]
    heads = _columns(b, table.head, title, ids)
    groups = {g.id: g.members for g in b.rs.groups}
    named = {k for keys in heads.values() for k in _expand(b, keys, set(), [])}
    combos = [(x, y) for x in first or [""] for y in second or [""]]
    pairs = [[k] for keys in heads.values() for k in keys if PAIR in k]
    paired = {c for keys in pairs for c in _combos_of(keys, combos, named, groups, set())}
    faults = []
    for fid, label in items:
        row = next((r for r in table.rows if re.sub(r" \(.*\)$", "", r[0]) == label), None)
        if row is None or (fid not in mod.values and fid not in mod.pairs):
            continue
        for i, keys in heads.items():
            for x, y in _combos_of(keys, combos, named, groups, paired):
                value = semantics.context_value(mod, fid, x, y)
                if not _cell_says(row[i], value, b):
                    faults.append(f"{fid} {mod.id} for {x or '-'}, {y or '-'}: sheet {row[i]!r}")
    return faults


def _combos_of(
    keys: list[str],
    combos: list[tuple[str, str]],
    named: set[str],
    groups: dict[str, tuple[str, ...]],
    paired: set[tuple[str, str]],
) -> list[tuple[str, str]]:
    """The context combinations a column stands for: a pair (``Ranged & Fly``), a value of
    either context with any value of the other that no column names, or (``others``, ``all``)
    the combinations no column names at all; a pair's column names its combinations, so the
    others leave them out (``paired``)."""
    out = []
    for key in keys:
        if PAIR in key:
            x, y = key.split(PAIR)
            out += [(x, v) for v in groups.get(y, (y,)) if (x, v) in combos]
        elif key in ("", "*others", "*all"):
            out += [
                (x, y)
                for x, y in combos
                if key == "*all" or (x not in named and y not in named and (x, y) not in paired)
            ]
        else:
            members = groups.get(key, (key,))
            out += [
                (x, y)
                for x, y in combos
                if (x in members and y not in named) or (y in members and x not in named)
                if (x, y) not in paired
            ]
    return out


def _roll_faults(b: _Builder, markdown: str, rule: ir.RollRule) -> list[str]:
    """The roll's block: who never rolls, each feature's row, each kind's own entries."""
    label = b.label(rule.info, rule.id)
    block = markdown.split(f"### {label}\n", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    never_word = b.w("roll_never", who="\x00").split("\x00")[0]
    never_line = next((ln for ln in block.splitlines() if never_word in ln), "")
    whole = {
        f.id
        for f in b.rs.features
        for lay in b.rs.layers
        if f.layer == lay.id and semantics.covers_map(lay)
    }
    values = [rule.values, *rule.by_move.values()]
    faults = []
    for mode in b.rs.modes:
        rolls = any(mode.id in v.get(fid, {}) for v in values for fid in v if fid not in whole)
        said_never = b.name(mode.id) in never_line.split(never_word, 1)[-1] if never_line else False
        if rolls and said_never:
            faults.append(f"{rule.id}: {mode.id} rolls but the sheet says never")
    rows = {
        _plain(r.split("|")[1]): _plain(r.split("|")[2])
        for r in block.splitlines()
        if r.startswith("| ") and not r.startswith("|--")
    }
    for f in b.rs.features:
        answers = [v.get(f.id, {}) for v in values]
        if not any(answers):
            continue
        text = next((t for name, t in rows.items() if name == b.label(f.info, f.id)), None)
        if text is None:
            faults.append(f"{rule.id}: {f.id} has a roll but no row")
            continue
        plain = re.sub(r" \([^()]*: [^()]*\)$", "", text)  # without a kind's own entries
        for value in set(rule.values.get(f.id, {}).values()):
            if b.signed(value) not in plain:
                faults.append(f"{rule.id}: {f.id} {b.signed(value)} missing from {text!r}")
        for kind_id, by_feature in rule.by_move.items():
            kind = kind_of(b.rs, kind_id)
            for value in set(by_feature.get(f.id, {}).values()):
                shown = _spaced(b.w("roll_by_move", move=b.label(kind.info, kind.id), value=""))
                if b.signed(value) not in plain and shown not in _spaced(text):
                    faults.append(f"{rule.id}: {f.id} {kind_id} {b.signed(value)} not in {text!r}")
    return faults


@pytest.mark.parametrize(("name", "path", "lang"), CASES, ids=[c[0] for c in CASES])
def test_every_cost_modifier_and_roll_the_module_answers_is_on_the_sheet(
    name: str, path: Path, lang: str
) -> None:
    rs = _compiled(path)
    markdown = render_markdown(build_sheet(rs, lang))
    b = _Builder(rs, lang)
    tables = _tables(markdown)
    mods = {m.id: m for m in rs.modifiers}
    faults: list[str] = []
    for layer in rs.layers:
        table = _layer_table(tables, b, layer)
        if table is None:
            if "cost" in layer.columns and layer.features:
                faults.append(f"{layer.id}: no table found")  # the check would read nothing
            continue
        if "cost" in layer.columns:
            faults += _cost_faults(b, table, layer)
        features = {f.id: f for f in rs.features}
        rows = [(f, b.label(features[f].info, f)) for f in layer.features if f in features]
        for column in layer.columns:
            if column in mods:
                mod = mods[column]
                faults += _modifier_faults(b, table, rows, mod, b.label(mod.info, mod.id))
    for mod in rs.modifiers:
        own = next((t for t in tables if t.head[0] == b.label(mod.info, mod.id)), None)
        if own is not None and mod.factors:
            rows = [(f.id, b.label(f.info, f.id)) for f in mod.factors]
            faults += _modifier_faults(b, own, rows, mod, "")
    for rule in rs.rolls:
        faults += _roll_faults(b, markdown, rule)
    assert not faults, "\n".join(faults)


def _card_texts(rs: ir.Ruleset, lang: str) -> list[str]:
    texts = []
    for card in build_deck(rs, lang).cards:
        for c in [card, *card.more]:
            rows = (
                [" | ".join(cell.text for cell in row) for row in c.table.rows] if c.table else []
            )
            texts.append("\n".join([*c.lines, *rows]))
    return texts


def test_a_roll_only_a_kind_of_move_makes_is_on_the_sheet_and_the_cards() -> None:
    # Issue 43 item 7: `no, low 0` printed "Never roll: Fighter, Two-seater, Bomber" and left
    # out the table, the kind's entry and the weather's modifier.
    rs = _compiled(ROOT / "tests" / "data" / "rolls_by_kind.terrain")
    sheet = render_markdown(build_sheet(rs, "en"))
    assert "Never roll: Bomber." in sheet
    assert "| Flak zone | no roll (Low: 0) |" in sheet
    assert "| Rain | where a roll is due: +1 |" in sheet
    [card] = [t for t in _card_texts(rs, "fr") if t.startswith("En entrant")]
    assert "Ne lancent jamais\u202f: Bombardier." in card
    assert "Zone de flak | pas de jet (Rase-mottes\u202f: 0)" in card
    assert "Pluie | là où un jet est dû\u202f: +1" in card


def test_a_merged_modifier_column_beside_the_others_column_names_what_it_holds() -> None:
    # Issue 43 item 6: skirmish_keywords' woods row read "Blast +1 | Others 0 | others -1", the
    # 0 column being for Fly models (and blasts at them).
    rs = _compiled(ROOT / "rulesets" / "skirmish_keywords.terrain")
    en = render_markdown(build_sheet(rs, "en"))
    assert "| Hit modifier: Blast (template) | Hit modifier: Fly, Blast (template) \\& Fly " in en
    assert "Hit modifier: Others" not in en
    fr = render_markdown(build_sheet(rs, "fr"))
    assert "Modificateur pour toucher\u202f: Vol, Explosion (gabarit) \\& Vol |" in fr
