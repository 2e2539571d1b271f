"""The "Worked examples" topic of sheets and cards (issue 27): each example a table of its
questions, in the sheet's language, with the answer the rules give and the cells that give it.

The answers are the rules' own (:func:`rulesdsl.examples.ask`, which the checks hold every
stated answer to), so a sheet never prints an answer its tables do not give.
"""

from __future__ import annotations

from typing import assert_never, get_args

from rulesdsl import examples, ir, semantics, spelling, words
from rulesdsl.examples import statements as examples_stated
from rulesdsl.printed.sheet_more import MoreBlocks
from rulesdsl.printed.sheet_view import Block, CellView, HeadCell, TableView
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.semantics import facing as semantics_facing
from rulesdsl.units import DIMENSIONS


def example_blocks(b: MoreBlocks) -> list[Block]:
    """One block per worked example of the sheet's ruleset (a card each)."""
    return [_example(b, e) for e in b.rs.examples]


def _example(b: MoreBlocks, e: ir.Example) -> Block:
    words = [b.w("example_question"), b.w("example_answer"), b.w("example_cells")]
    rows = []
    for q in e.questions:
        answered = _asked(b, q)
        parts = answered.parts if answered is not None else examples_stated.stated(q)
        unit = answered.unit if answered is not None else examples_stated.unit_of(q)
        shown = (
            b.text(answered.value)
            if answered is not None and answered.value is not None
            else answer(b, q, parts, unit)
        )
        rows.append([CellView(question(b, q)), CellView(shown), CellView(b.listed(cells(b, q)))])
    after = b.note_texts(e.info)
    if e.inherited:
        after.append(b.w("example_inherited", base=e.inherited))
    edited = b.changed(f"example.{e.id}") or any(
        b.changed(f"example.{e.id}.{n}") for n in range(1, len(e.questions) + 1)
    )
    return Block(
        f"example_{e.id}",
        b.label(e.info, e.id),
        TableView([[HeadCell(w) for w in words]], rows, words, numeric_from=3),
        after=after,
        source=b.source(e.info),
        changed=edited,
        kind="table",
    )


def restated(b: MoreBlocks, path: ir.ExamplePath) -> str | None:
    """The answers an example of the sheet's ruleset states at ``path`` (one question, or all
    of them), in the sheet's words, ``; `` between questions; None if it has no such one."""
    found = next((e for e in b.rs.examples if e.id == path.example), None)
    if found is None:
        return None
    asked = found.questions[path.question - 1 :][:1] if path.question else found.questions
    return b.listed(
        answer(b, q, examples_stated.stated(q), examples_stated.unit_of(q)) for q in asked
    )


# ---- the question in words ------------------------------------------------------------------


def question(b: MoreBlocks, q: ir.Question) -> str:
    """``Movement cost: Walker, Soft (sand, snow, mud), distance 2 in``."""
    verb = examples_stated.question_kind(b.rs, q)
    positional = [a for a in q.args if not a.keyword]
    head, args = _head(b, q, verb, positional)
    args += [_keyword_text(b, q, a) for a in q.args if a.keyword]
    if q.attribute:  # `.state`, `.rolls`: a field of the route's answer (issue 40)
        args.append(b.w("ask:rolls_due" if q.attribute == "rolls" else "example_state_after"))
    return b.w("label_colon", label=head, text=", ".join(args)) if args else head


def _head(
    b: MoreBlocks,
    q: ir.Question,
    verb: examples_stated.QuestionKind | None,
    positional: list[ir.ExampleArg],
) -> tuple[str, list[str]]:
    """The question's head (the step or decision, the function's first argument when it names
    what is asked, else the function in words) and its positional arguments in words."""
    first, rest = positional[:1], positional[1:]
    match verb:
        case "step" | "decision":
            return b.name(q.ask), [_arg(b, a) for a in positional]
        case "modifier" | "line_of_sight" if first:
            return _arg(b, first[0]), [_arg(b, a) for a in rest]
        case "lookup" if first:
            return _arg(b, first[0]), [_table_key(b, q, a) for a in rest]
        case "roll" | "chance" if first:
            return _arg(b, first[0]), [_row(b, q, a) for a in rest]
        case "free_move" if first:  # issue 40: the unit type, then each leg in words
            return b.w("ask:free_move"), [_arg(b, first[0]), *(_leg(b, a) for a in rest)]
        case "arc_between" if (
            len(rest) == 3
        ):  # issue 40: the target's place and heading, the other's
            target = b.w("example_arc_target", place=_pair(b, rest[0]), heading=_arg(b, rest[1]))
            return _arg(b, first[0]), [target, b.w("example_arc_other", place=_pair(b, rest[2]))]
        case "effect" if len(rest) == 3:  # issue 40: the table, the outcome, the effect for whom
            effect = b.w("example_effect_for", effect=_effect(b, rest[1]), unit=_arg(b, rest[2]))
            return _arg(b, first[0]), [_row(b, q, rest[0]), effect]
        case (
            "modifier"
            | "line_of_sight"
            | "lookup"
            | "roll"
            | "chance"
            | "move_cost"
            | "can_enter"
            | "can_end"
            | "must_stop"
            | "route_cost"
            | "path_cost"
            | "rolls_due"
            | "free_move"
            | "effect"
            | "arc_between"
        ):
            return b.w(f"ask:{verb}"), [_arg(b, a) for a in positional]
        case None:
            return b.w(f"ask:{q.ask}"), [_arg(b, a) for a in positional]
        case _:
            assert_never(verb)


def _keyword_arg(b: MoreBlocks, q: ir.Question, a: ir.ExampleArg) -> str:
    """A keyword argument; a results table's ``column=(7, 3)`` as the odds ``7:3``."""
    numbers = [v.value for v in a.values if isinstance(v, ir.Number)]
    if a.keyword == "column" and a.grouped and len(numbers) == 2 == len(a.values):
        return f"{b.num(numbers[0])}:{b.num(numbers[1])}"
    if a.keyword == "column" and len(a.values) == 1 and isinstance(a.values[0], ir.Symbol):
        for t in b.rs.results_tables:
            for c in t.columns if _is(q.args[0], t.id) else ():
                if c.id == a.values[0].name:
                    return b.label(c.info, c.id)
    return _arg(b, a)


def _keyword_text(b: MoreBlocks, q: ir.Question, a: ir.ExampleArg) -> str:
    """A keyword argument with its name; ``on=first_entering`` (rolls_due) as the roll's time
    in words: "on entering for the first time"."""
    if a.names:  # a route's state at the start, each state by its label (issue 40)
        given = (
            f"{_state_label(b, n)} {_value(b, v)}" for n, v in zip(a.names, a.values, strict=True)
        )
        sight = examples_stated.question_kind(b.rs, q) == "line_of_sight"  # the viewer's state
        return f"{b.input_name('viewer_state' if sight else a.keyword)} ({', '.join(given)})"
    if a.keyword == "wind" and a.grouped and len(a.values) == 2:  # and its strength (issue 40)
        strength = b.label(None, spelling.value(a.values[1]))
        return f"{b.input_name(a.keyword)} {_value(b, a.values[0])} ({strength})"
    if a.keyword == "entered":  # the steps entered earlier in the turn (issue 40)
        return b.w("example_entered", steps=", ".join(_value(b, v) for v in a.values))
    if a.keyword == "on" and len(a.values) == 1 and isinstance(a.values[0], ir.Symbol):
        when = a.values[0].name
        if when in get_args(ir.RollWhen):
            words = b.w(f"roll_when_{when}")
            return words[:1].lower() + words[1:]
    return f"{b.input_name(a.keyword)} {_keyword_arg(b, q, a)}"


def _arg(b: MoreBlocks, a: ir.ExampleArg) -> str:
    texts = [_value(b, v) for v in a.values]
    if a.grouped:
        return "(" + (" + ".join(texts) or b.w("example_place_none")) + ")"
    return " ".join(texts)


def _value(b: MoreBlocks, v: ir.Value) -> str:
    if isinstance(v, ir.Symbol) and v.name in b.names:
        return b.name(v.name)
    if isinstance(v, ir.Symbol):  # a table's row or column (a decision input keyed by one)
        for table in b.rs.tables:
            for row in table.rows:
                if row.key == v.name:
                    return b.label(row.info, row.key)
            for column in table.columns:
                if column.id == v.name:
                    return b.label(column.info, column.id)
        if v.name in semantics_facing.WORDS:  # a facing route's move (issue 24)
            return b.w(f"facing_act_{v.name}")
        if v.name in DIMENSIONS:  # a unit (`path_cost(dsssd, unit=ft)`)
            return b.c.unit(v.name)
        if v.name and set(v.name) <= {"s", "d"}:  # a grid path: straight and diagonal steps
            return " ".join("→" if step == "s" else "↗" for step in v.name)
    return b.text(v)


def _leg(b: MoreBlocks, a: ir.ExampleArg) -> str:
    """A free move's leg, ``(turn, 45 deg)``, as "turn 45°" in the sheet's words (issue 40)."""
    kind, *amount = a.values
    word = b.w(f"free_leg_{kind.name}") if isinstance(kind, ir.Symbol) else _value(b, kind)
    return " ".join([word, *(_value(b, v) for v in amount)])


def _table_key(b: MoreBlocks, q: ir.Question, a: ir.ExampleArg) -> str:
    """A lookup's row or column by its label."""
    table = next((t for t in b.rs.tables if _is(q.args[0], t.id)), None)
    if table is not None and len(a.values) == 1:
        match a.values[0]:
            case ir.Symbol(name=name):
                row = next((r for r in table.rows if r.key == name), None)
                if row is not None:
                    return b.label(row.info, row.key)
                column = next((c for c in table.columns if c.id == name), None)
                if column is not None:
                    return b.label(column.info, column.id)
            case ir.Number(value=number):
                row = next((r for r in table.rows if r.key_number == number), None)
                if row is not None:
                    return b.label(row.info, row.key)
            case ir.Marker() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
                pass  # not a key: written as it stands
            case other:
                assert_never(other)
    return _arg(b, a)


def _row(b: MoreBlocks, q: ir.Question, a: ir.ExampleArg) -> str:
    """A dice row (or a results table's outcome) named by its id, by its label; a total as a
    number."""
    for t in b.rs.dice_tables:
        for r in t.rows if _is(q.args[0], t.id) else ():
            if _is(a, r.id):
                return b.label(r.info, r.id)
    for res in b.rs.results_tables:
        for o in res.outcomes if _is(q.args[0], res.id) else ():
            if _is(a, o.id):
                return b.label(o.info, o.id)
    return _arg(b, a)


def _pair(b: MoreBlocks, a: ir.ExampleArg) -> str:
    """A place given as a pair, ``(2, 3)``, as written (issue 40)."""
    return "(" + ", ".join(_value(b, v) for v in a.values) + ")" if a.grouped else _arg(b, a)


def _effect(b: MoreBlocks, a: ir.ExampleArg) -> str:
    """An effect's name as the sheet's tables print it (``effect:damage``, issue 40)."""
    if len(a.values) == 1 and isinstance(a.values[0], ir.Symbol):
        key = a.values[0].name
        return b.c.get(f"effect:{key}") or b.c.label(key.replace("_", " "))
    return _arg(b, a)


def _is(a: ir.ExampleArg, name: str) -> bool:
    return len(a.values) == 1 and a.values[0] == ir.Symbol(name)


# ---- the answer ---------------------------------------------------------------------------


def _signed(kind: examples_stated.QuestionKind | None) -> bool:
    """Whether a question's numbers are modifiers, printed with their sign."""
    match kind:
        case "modifier" | "rolls_due":
            return True
        case (
            "step"
            | "decision"
            | "move_cost"
            | "can_enter"
            | "can_end"
            | "must_stop"
            | "roll"
            | "chance"
            | "lookup"
            | "route_cost"
            | "line_of_sight"
            | "path_cost"
            | "free_move"
            | "effect"
            | "arc_between"
            | None
        ):
            return False
        case _:
            assert_never(kind)


def answer(
    b: MoreBlocks, q: ir.Question, parts: tuple[examples_stated.Plain, ...], unit: str | None
) -> str:
    """The rules' answer in the sheet's words: ``3 MP``, ``⊘ impassable``, ``Passive lock``."""
    out = []
    kind = "rolls_due" if q.attribute == "rolls" else examples_stated.question_kind(b.rs, q)
    rolls = q.attribute == "rolls" or words.asked(q.ask) == "rolls_due"  # a route's too (issue 40)
    for part in parts:
        form, value = next(iter(part.items()))
        if form == "number":
            shown = b.signed(value) if _signed(kind) else b.num(value)
            out.append(b.unit_text(shown, unit))
        elif form == "marker":
            out.append(b.text(ir.Marker(value)))
        elif form == "bool":
            out.append(b.w("yes" if value else "no"))
        elif form == "word" and rolls and value == "none":
            out.append(b.w("roll_none"))
        elif form == "word":
            out.append(_outcome(b, q, value))
        elif form == "fraction":
            out.append(f"{value[0]}/{value[1]}")
        elif isinstance(value, dict):  # a route's state after it, each by its label (issue 40)
            out.append(", ".join(f"{_state_label(b, k)} {b.num(n)}" for k, n in value.items()))
        else:
            out.append(examples_stated.answer_text([part]))
    return ", ".join(out)


def _state_label(b: MoreBlocks, name: str) -> str:
    state = next((s for s in b.rs.states if s.id == name), None)
    return b.label(state.info, name) if state is not None else name


def _outcome(b: MoreBlocks, q: ir.Question, word: str) -> str:
    """A decision's outcome, a dice row or a results outcome by its label."""
    for d in b.rs.decisions:
        for o in d.outcomes if d.id == q.ask else ():
            if o.id == word:
                return b.label(o.info, word)
    for t in b.rs.dice_tables:
        for r in t.rows:
            if r.id == word and q.args and _is(q.args[0], t.id):
                return b.label(r.info, word)
    for rt in b.rs.results_tables:
        for o in rt.outcomes:
            if o.id == word and q.args and _is(q.args[0], rt.id):
                return b.label(o.info, word)
    for block in b.rs.arcs:  # the arc where the other stands (issue 40)
        for arc in block.arcs if q.args and _is(q.args[0], block.id) else ():
            if arc.id == word:
                return b.label(arc.info, word)
    if word == "illegal":
        return b.w("example_illegal")
    if word == "ends" and words.asked(q.ask) == "free_move":
        return b.w("example_move_ends")
    return b.name(word) if word in b.names else b.text(ir.Symbol(word))


# ---- the cells that give it ---------------------------------------------------------------


def cells(b: MoreBlocks, q: ir.Question) -> list[str]:
    """The cells behind the answer, by their labels: each feature's cost for the mode, each
    item's modifier, the step's rule, the decision row that holds, the dice row."""
    verb = examples_stated.question_kind(b.rs, q)
    if q.attribute:  # a route's state or rolls: its steps' costs do not give them (issue 40)
        return []
    symbols = [
        v.name for a in q.args if not a.keyword for v in a.values if isinstance(v, ir.Symbol)
    ]
    match verb:
        case "move_cost" | "can_enter" | "can_end" | "must_stop" if symbols:
            return _place_cells(b, symbols)
        case "modifier" if symbols:
            return _modifier_cells(b, q, symbols)
        case "step":
            return [b.step_rule(next(s for s in b.rs.steps if s.id == q.ask))]
        case "decision":
            return _decision_row(b, q)
        case "roll" | "chance" if symbols:
            return _dice_cells(b, q, symbols, chance=verb == "chance")
        case "line_of_sight" | "route_cost":
            return _route_cells(b, q)
        case "effect" if len(symbols) == 4:
            return _effect_cells(b, symbols)
        case (
            "move_cost"
            | "can_enter"
            | "can_end"
            | "must_stop"
            | "modifier"
            | "roll"
            | "chance"
            | "lookup"
            | "path_cost"
            | "rolls_due"
            | "free_move"
            | "effect"
            | "arc_between"
            | None
        ):
            return []
        case _:
            assert_never(verb)


def _effect_cells(b: MoreBlocks, symbols: list[str]) -> list[str]:
    """The outcome's cell for the effect asked (``effect(table, outcome, name, mode)``): its
    value for everyone, then by unit type (issue 40)."""
    table, outcome, effect, _ = symbols
    for t, o, everyone, keyed in semantics_effects.keyed_outcomes(b.rs):
        if (t, o) == (table, outcome) and effect in everyone:
            cell = b.effects(
                {effect: everyone[effect]}, {effect: keyed[effect]} if effect in keyed else None
            )
            return [cell.text]
    return []


def _place_cells(b: MoreBlocks, symbols: list[str]) -> list[str]:
    """Each feature's cost for the mode (``move_cost(mode, features...)``)."""
    rs = b.rs
    by_id = {f.id: f for f in rs.features}
    mode, features = symbols[0], [s for s in symbols[1:] if s in by_id]
    out = [b.w("example_entry", cost=b.num(rs.entry_cost))] if rs.entry_cost else []
    counted = semantics.counted(rs, features)
    for name in features:
        cost = by_id[name].costs.get(mode)
        text = b.text(cost) if cost is not None else b.num(0)
        ignored = "" if name in counted else f" ({b.w('example_ignored')})"
        out.append(b.w("label_colon", label=b.name(name), text=text) + ignored)
    return out


def _modifier_cells(b: MoreBlocks, q: ir.Question, symbols: list[str]) -> list[str]:
    """Each item's value of the modifier (``modifier(name, items...)``)."""
    rs = b.rs
    mod = next((m for m in rs.modifiers if m.id == symbols[0]), None)
    if mod is None:
        return []
    keys = {a.keyword: a for a in q.args if a.keyword}
    first = _symbol(keys.get(mod.context or ""))
    second = _symbol(keys.get(mod.context2 or ""))
    out = []
    for item in semantics.counted(rs, symbols[1:]):
        value = semantics.context_value(mod, item, first, second)
        text = b.text(value) if value is not None else b.num(0)
        out.append(b.w("label_colon", label=b.name(item), text=text))
    return out


def _dice_cells(b: MoreBlocks, q: ir.Question, symbols: list[str], chance: bool) -> list[str]:
    """The dice row a roll gives, or a chance asks of (a results table's column else)."""
    table = next((t for t in b.rs.dice_tables if t.id == symbols[0]), None)
    if table is None:
        return _results_column(b, q, symbols[0])
    row_id = symbols[1] if chance and len(symbols) > 1 else None
    if row_id is None:
        answered = _asked(b, q)
        row_id = str(answered.parts[0].get("word", "")) if answered else ""
    row = next((r for r in table.rows if r.id == row_id), None)
    if row is None:
        return []
    dice = b.dice_text(semantics.roll_of(table.dice))
    text = f"{dice} {spelling.dice_range(row.low, row.high)}"
    return [b.w("label_colon", label=text, text=b.label(row.info, row.id))]


def _route_cells(b: MoreBlocks, q: ir.Question) -> list[str]:
    """Each place of a route or line, and what it adds."""
    answered = _asked(b, q)
    places = answered.places if answered is not None else ()
    return [
        b.w(
            "label_colon",
            label=" + ".join(_feature(b, f) for f in features) or b.w("example_place_none"),
            text=answer(b, q, (value,), None),
        )
        for features, value in places
    ]


def _feature(b: MoreBlocks, name: str) -> str:
    """A feature of a route's step by its label; a facing route's move (``@turn``) in the
    sheet's words (issue 24)."""
    return b.w(f"facing_act_{name[1:]}") if name.startswith("@") else b.name(name)


def _asked(b: MoreBlocks, q: ir.Question) -> examples.Answered | None:
    try:
        return examples.ask(b.rs, q)
    except examples.Unanswerable:  # pragma: no cover - a ruleset with errors prints nothing
        return None


def _results_column(b: MoreBlocks, q: ir.Question, table_id: str) -> list[str]:
    """The column a value picks on a results table (``7:3`` -> ``2:1``, issue 25)."""
    table = next((t for t in b.rs.results_tables if t.id == table_id), None)
    arg = next((a for a in q.args if a.keyword == "column"), None)
    numbers = [v.value for v in arg.values if isinstance(v, ir.Number)] if arg else []
    if table is None or not numbers or (len(numbers) == 2 and not numbers[1]):
        return []
    value = numbers[0] / numbers[1] if len(numbers) == 2 else numbers[0]
    column = semantics.result_column(table, value)
    if column is None:
        return []
    return [b.w("label_colon", label=b.input_name(table.by), text=b.label(column.info, column.id))]


def _symbol(a: ir.ExampleArg | None) -> str:
    if a is None or len(a.values) != 1 or not isinstance(a.values[0], ir.Symbol):
        return ""
    return a.values[0].name


def _decision_row(b: MoreBlocks, q: ir.Question) -> list[str]:
    """The decision row that holds, as the sheet's decision table writes it."""
    decision = next(d for d in b.rs.decisions if d.id == q.ask)
    answered = _asked(b, q)
    if answered is None or answered.row is None:
        return []
    row = decision.rows[answered.row]
    conditions = [b.condition(c) for c in row.conditions]
    label = next((b.label(o.info, o.id) for o in decision.outcomes if o.id == row.outcome), "")
    text = b.w("and").join(f" {c} " for c in conditions).strip() if conditions else ""
    return [f"{text or b.w('otherwise')} → {label}"]
