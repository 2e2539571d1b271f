"""What a worked example's question answers (issue 27), read from the IR through
:mod:`rulesdsl.semantics`, the one home of what the rules mean.

``example NAME "Title" { move_cost(mech, light_woods) = 2 MP }`` asks the generated module a
question; :func:`ask` answers it here, with the cells that give the answer, so the checks can
hold every stated answer to the rules at every build, the sheets can print the cells, the
diff can name what changed and ``rulesdsl export --examples`` can write language-neutral test
vectors (:func:`vector`) that the generated module replays (``tests/test_examples.py`` holds
the module and this reference to the same answers).

An answer is a tuple of plain parts (:data:`Plain`): ``{"number": 4}``, ``{"marker":
"impassable"}``, ``{"bool": true}``, ``{"word": "fire"}``, ``{"fraction": [5, 36]}``,
``{"span": [2, 3]}``, ``{"dice": [1, 6, 3]}``, ``{"d66": 0}``, ``{"rate": [1, 2]}``,
``{"trade": [90, -1.5]}``; a line of sight answers its hindrance, then ``blocked`` when it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, assert_never, cast, get_args

from rulesdsl import ir, semantics, spelling, words
from rulesdsl.examples import arc_places, free_moves, route_inputs, routes, unit_effects
from rulesdsl.examples.reading import Args as _Args
from rulesdsl.examples.reading import cost_answer as _cost_answer
from rulesdsl.examples.reading import features as _features
from rulesdsl.examples.reading import modes as _modes
from rulesdsl.examples.reading import moved as _moved
from rulesdsl.examples.reading import name_in as _name
from rulesdsl.examples.reading import names_in as _names
from rulesdsl.examples.reading import near as _near
from rulesdsl.examples.reading import number_in as _number
from rulesdsl.examples.reading import plain_answer as _plain_answer
from rulesdsl.examples.statements import Answered as Answered
from rulesdsl.examples.statements import (
    Plain,
    answer_text,
    plain,
    question_kind,
    question_text,
    stated,
    unit_of,
)
from rulesdsl.examples.statements import Unanswerable as Unanswerable
from rulesdsl.semantics import dice, known
from rulesdsl.semantics import effects as semantics_effects
from rulesdsl.semantics import moves as semantics_moves
from rulesdsl.semantics import routes as semantics_routes

QUESTIONS: tuple[ir.Ask, ...] = get_args(ir.Ask)
"""The module functions an example may ask, besides each step and decision by its name."""

Role = Literal["cost", "modifier", "distance", "none"]


# ---- asking the rules ----------------------------------------------------------------------


def _results_column(args: _Args, table: ir.ResultsTable, verb: str) -> str:
    """A results table's ``column=``: a column's name, a value of its input, or two strengths
    ``(7, 3)`` whose ratio it is (issue 25)."""
    arg = args.keyword("column")
    if arg is None:
        raise Unanswerable(f"{verb}() on the results table '{table.id}' needs column=")
    i, a = arg
    if len(a.values) == 1 and isinstance(a.values[0], ir.Symbol):
        return _name(arg, [c.id for c in table.columns], f"column of {table.id}")
    numbers = [v.value for v in a.values if isinstance(v, ir.Number)]
    if a.grouped and len(a.values) == len(numbers) == 2 and numbers[1]:
        value = numbers[0] / numbers[1]
    else:
        value = _number(arg, table.columns[0].unit if table.columns else None, "column")
    found = semantics.result_column(table, value)
    if found is None:
        raise Unanswerable(f"no column of '{table.id}' takes that value", i)
    return found.id


def ask(rs: ir.Ruleset, q: ir.Question) -> Answered:
    """The rules' answer to ``q``; raises :class:`Unanswerable`. An answer is kept with the
    ruleset's readings (:mod:`rulesdsl.semantics.known`): the checks ask every question at
    each compile, and a sheet asks each again where it prints the answer, its cells and its
    places (issue 44)."""
    answers = known.of(rs).answers
    found = answers.get(id(q))
    if found is not None and found[0] is q:
        return cast(Answered, found[1])
    answered = _ask(rs, q)
    answers[id(q)] = (q, answered)
    return answered


def _ask(rs: ir.Ruleset, q: ir.Question) -> Answered:
    args = _Args(rs, q)
    steps = {s.id: s for s in rs.steps}
    decisions = {d.id: d for d in rs.decisions}
    function = words.asked(q.ask)
    try:
        route_inputs.only_state_named(rs, q)
        if q.ask in steps:
            out = _step(args, steps[q.ask])
        elif q.ask in decisions:
            out = _decision(args, decisions[q.ask])
        elif function is not None:
            out = _function(args, function)
        else:
            pool = [*QUESTIONS, *steps, *decisions]
            raise Unanswerable(
                f"'{q.ask}' is not a question the module answers{_near(q.ask, pool)}"
            )
    except semantics.MissingArgument as exc:
        raise Unanswerable(f"{q.ask}() needs '{exc.argument}' here") from None
    except (ValueError, ZeroDivisionError, KeyError, StopIteration) as exc:
        raise Unanswerable(f"{q.ask}() cannot answer: {exc}") from None
    args.done()
    return route_inputs.attributed(rs, q, out) if q.attribute else out


def _function(args: _Args, function: ir.Ask) -> Answered:
    """The answer of a module function."""
    match function:
        case "move_cost":
            return _move_cost(args)
        case "can_enter":
            return _can_enter(args)
        case "can_end":
            return _place_state(args, semantics_routes.can_end)
        case "must_stop":
            return _place_state(args, semantics_routes.must_stop)
        case "modifier":
            return _modifier(args)
        case "roll":
            return _roll(args)
        case "chance":
            return _chance(args)
        case "lookup":
            return _lookup(args)
        case "route_cost":
            return routes.ask(args)
        case "line_of_sight":
            return _sight(args)
        case "path_cost":
            return _path(args)
        case "rolls_due":
            return _rolls(args)
        case "free_move":  # issue 40
            mode = _name(
                args.at(0, "a unit type"),
                [f.mode for f in args.rs.free_facings],
                "unit type with facing off the grid",
            )
            return free_moves.answer(args.rs, mode, args.rest(1), args.keyword("allowance"))
        case "effect":  # issue 40: an effect's value by unit type
            return unit_effects.answer(args.rs, args.rest(0), _name)
        case "arc_between":  # issue 40: the arc where one stands, from two places
            return arc_places.answer(args.rs, args.rest(0), args.keyword("grid"), _name)
        case _:
            assert_never(function)


def _with_outcomes(rs: ir.Ruleset) -> list[str]:
    """The features, and the dice outcomes that feed the cost or a sight rule (issue 24)."""
    return [*_features(rs), *semantics_effects.fed_outcomes(rs)]


def _cost_cells(rs: ir.Ruleset, mode: str, features: Sequence[str]) -> tuple[str, ...]:
    by_id = {f.id: f for f in rs.features}
    unit = rs.units.get("cost")
    cells = [f"entry: {spelling.number(rs.entry_cost)}"] if rs.entry_cost else []
    counted = semantics.counted(rs, features)
    for name in features:
        if name not in by_id:  # a dice outcome that feeds the cost (issue 24)
            fed = semantics_effects.outcome_values(rs, semantics_effects.COST).get(name, 0)
            cells.append(f"{name} (outcome): {spelling.number(fed)}")
            continue
        cost = by_id[name].costs.get(mode)
        text = spelling.value(cost) if cost is not None else "0"
        if isinstance(cost, ir.Number) and cost.unit is None and unit:
            text += f" {unit}"
        note = "" if name in counted else " (ignored)"
        cells.append(f"{name}.{mode}: {text}{note}")
    return tuple(cells)


def _move_inputs(args: _Args) -> tuple[float, float | None, dict[str, float]]:
    rs = args.rs
    distance_arg = args.keyword("distance")
    distance = _number(distance_arg, rs.units.get("distance"), "distance") if distance_arg else 1.0
    allowance_arg = args.keyword("allowance")
    allowance = _number(allowance_arg, rs.units.get("cost"), "allowance") if allowance_arg else None
    if args.kind is not None:
        allowance = semantics_moves.kind_allowance(args.kind, allowance)
    inputs: dict[str, float] = {}
    for s in rs.steps:
        found = args.keyword(s.param)
        if found is not None:
            inputs[s.param] = _number(found, s.param_unit, s.param)
    return distance, allowance, inputs


def _move_cost(args: _Args) -> Answered:
    rs = args.rs
    mode = _name(args.at(0, "a mode"), _modes(rs), "mode")
    features = [_name(a, _with_outcomes(rs), "feature") for a in args.rest(1)]
    view = _moved(args)
    distance, allowance, inputs = _move_inputs(args)
    cost = semantics.move_cost(view, mode, features, distance, allowance, inputs)
    return Answered((_cost_answer(cost),), rs.units.get("cost"), _cost_cells(view, mode, features))


def _can_enter(args: _Args) -> Answered:
    rs = args.rs
    mode = _name(args.at(0, "a mode"), _modes(rs), "mode")
    features = [_name(a, _with_outcomes(rs), "feature") for a in args.rest(1)]
    available_arg = args.keyword("available")
    available = _number(available_arg, rs.units.get("cost"), "available") if available_arg else None
    view = _moved(args)
    _, allowance, inputs = _move_inputs(args)
    part = _cost_answer(semantics.move_cost(view, mode, features, 1, allowance, inputs))
    answer = semantics_routes.can_enter(view, mode, features, available, allowance, inputs)
    cells = (*_cost_cells(view, mode, features), f"move_cost: {answer_text([part])}")
    if rs.minimum_move is not None:
        cells = (*cells, f"minimum move: {spelling.value(rs.minimum_move)}")
    return Answered(({"bool": answer},), None, cells)


def _place_state(args: _Args, ask: Callable[[ir.Ruleset, str, Sequence[str]], bool]) -> Answered:
    rs = args.rs
    mode = _name(args.at(0, "a mode"), _modes(rs), "mode")
    features = [_name(a, _features(rs), "feature") for a in args.rest(1)]
    by_id = {f.id: f for f in rs.features}
    cells = tuple(
        f"{name}.{mode}: {semantics_routes.state_words(by_id[name].states[mode])}"
        for name in features
        if mode in by_id[name].states
    )
    return Answered(({"bool": ask(rs, mode, features)},), None, cells)


def _modifier(args: _Args) -> Answered:
    rs = args.rs
    mods = {m.id: m for m in rs.modifiers}
    name = _name(args.at(0, "a modifier"), list(mods), "modifier")
    mod = mods[name]
    pool = [*_features(rs), *mod.values]
    items = [_name(a, pool, "feature or factor") for a in args.rest(1)]
    contexts = {c.id: c for c in rs.contexts}
    first = second = ""
    given: dict[str, float] = {}
    for key in list(args.keywords):
        i, a = args.keywords[key]
        if key in (mod.context, mod.context2):
            values = [v.id for v in contexts[key].values] if key in contexts else _modes(rs)
            value = _name((i, a), values, f"value of {key}")
            args.used.add(i)
            if key == mod.context:
                first = value
            else:
                second = value
        elif key in mod.values or key in semantics.step_inputs(rs, mod):
            given[key] = _number((i, a), None, key)
            args.used.add(i)
    try:
        total = semantics.modifier(rs, name, items, first, given, second)
    except semantics.MissingArgument as missing:
        raise Unanswerable(f"modifier() needs {missing.argument}= for a step here", 0) from None
    cells = []
    for item in semantics.counted(rs, items):
        shown = _contribution(semantics.context_value(mod, item, first, second), given, item)
        cells.append(f"{item}.{name}{'.' + first if first else ''}: {shown}")
    for combo in mod.combinations:
        if set(combo.members) <= set(items):
            cells.append(f"when {', '.join(combo.members)}: {spelling.value(combo.value)}")
    return Answered((_plain_answer(total),), rs.units.get("modifier"), tuple(cells))


def _contribution(value: ir.Value | None, given: dict[str, float], item: str) -> str:
    """What one item adds to a modifier, as a worked example's cell shows it."""
    match value:
        case None:
            return "0"
        case ir.Given():
            return spelling.number(given.get(item, 0), signed=True)
        case ir.StepCost():
            return f"{value.step}: {spelling.value(value)}"
        case (
            ir.Number() | ir.Marker() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost()
        ):
            return spelling.value(value)
        case _:
            assert_never(value)


def _total(arg: tuple[int, ir.ExampleArg], what: str) -> int:
    value = _number(arg, None, what)
    if not float(value).is_integer():
        raise Unanswerable(f"'{what}' should be a whole number", arg[0])
    return int(value)


def _roll(args: _Args) -> Answered:
    rs = args.rs
    tables = {t.id: t for t in rs.dice_tables}
    results = {t.id: t for t in rs.results_tables}
    name = _name(args.at(0, "a dice table"), [*tables, *results], "dice table")
    total = _total(args.at(1, "a total"), "total")
    if name in tables:
        plain_natural = args.keyword("natural")
        row = semantics.roll(
            tables[name], total, _total(plain_natural, "natural") if plain_natural else None
        )
        if row is None:
            raise Unanswerable(f"no row of '{name}' covers {total}", 1)
        span = spelling.dice_range(row.low, row.high)
        effects = ", ".join(f"{k} {spelling.value(v)}" for k, v in row.effects.items())
        cell = f"{name}.{row.id}: {span}" + (f" | {effects}" if effects else "")
        return Answered(({"word": row.id},), None, (cell,), row=tables[name].rows.index(row))
    table = results[name]
    column = _results_column(args, table, "roll")
    natural_arg = args.keyword("natural")
    natural = _total(natural_arg, "natural") if natural_arg else None
    shift_arg = args.keyword("shift")
    if shift_arg is not None:  # a column shift (issue 25)
        column = semantics.shifted_column(table, column, _total(shift_arg, "shift"))
    outcome = semantics.result(table, total, column, natural)
    if outcome is None:
        raise Unanswerable(f"no row of '{name}' covers {total}", 1)
    return Answered(({"word": outcome},), None, (f"{name}.{column} at {total}: {outcome}",))


def _chance(args: _Args) -> Answered:
    rs = args.rs
    tables = {t.id: t for t in rs.dice_tables}
    results = {t.id: t for t in rs.results_tables}
    name = _name(args.at(0, "a dice table"), [*tables, *results], "dice table")
    if name in results:
        return _outcome_chance(args, results[name])
    table = tables[name]
    rows = {r.id: r for r in table.rows}
    row = rows[_name(args.at(1, "a row"), list(rows), f"row of {name}")]
    shift = 0
    mod_arg = args.keyword("modifier")
    if mod_arg is not None:
        mods = {m.id: m.value for m in table.modifiers}
        shift = mods[_name(mod_arg, list(mods), f"modifier of {name}")]
    roll = semantics.roll_of(table.dice)
    low = row.low - shift if row.low is not None else roll.minimum
    high = row.high - shift if row.high is not None else None
    f = (
        semantics.dice_chances(table, shift)[row.id]  # natural rolls counted (issue 25)
        if table.naturals
        else dice.chance_between(roll, low, high)
    )
    cell = (
        f"{name}.{row.id}: {spelling.dice_range(row.low, row.high)} on {spelling.dice(table.dice)}"
    )
    return Answered(({"fraction": [f.numerator, f.denominator]},), None, (cell,))


def _outcome_chance(args: _Args, table: ir.ResultsTable) -> Answered:
    """``chance(crt, de, column=odds_2_1, modifier=night)``: an outcome's exact chance in a
    column of a results table (issue 25)."""
    name = table.id
    outcome = _name(args.at(1, "an outcome"), [o.id for o in table.outcomes], f"outcome of {name}")
    column = _results_column(args, table, "chance")
    mod_arg = args.keyword("modifier")
    mods = {m.id: m for m in table.modifiers}
    f = (
        semantics.modifier_chances(table, column, mods[_name(mod_arg, list(mods), "modifier")])
        if mod_arg is not None
        else semantics.result_chances(table, column)
    )[outcome]
    cell = f"{name}.{column}: {outcome} on {spelling.dice(table.dice)}"
    return Answered(({"fraction": [f.numerator, f.denominator]},), None, (cell,))


def _lookup(args: _Args) -> Answered:
    rs = args.rs
    tables = {t.id: t for t in rs.tables}
    name = _name(args.at(0, "a table"), list(tables), "table")
    table = tables[name]
    keys = args.rest(1)
    columns = [c.id for c in table.columns]
    want = 2 if len(columns) > 1 else 1
    if len(keys) != want:
        raise Unanswerable(
            f"lookup('{name}', ...) takes {'a column and a row' if want == 2 else 'a row'}"
        )
    row_arg = keys[-1]
    i, a = row_arg
    rows = {r.key: r for r in table.rows}
    if len(a.values) == 1 and isinstance(a.values[0], ir.Number):
        number = a.values[0].value
        row = next((r for r in table.rows if r.key_number == number), None)
        if row is None:
            raise Unanswerable(f"'{name}' has no row {spelling.number(number)}", i)
    else:
        row = rows[_name(row_arg, list(rows), f"row of {name}")]
    index = columns.index(_name(keys[0], columns, f"column of {name}")) if want == 2 else 0
    cell = row.cells[index] if index < len(row.cells) else None
    if cell is None:
        raise Unanswerable(f"the cell of '{name}' is empty")
    unit = cell.unit if isinstance(cell, ir.Number) else None
    where = f"{name}.{columns[index]}.{row.key}" if want == 2 else f"{name}.{row.key}"
    return Answered((plain(cell),), unit, (f"{where}: {spelling.value(cell)}",), value=cell)


def _rolls(args: _Args) -> Answered:
    """``rolls_due(mode, features..., move=, on=)``: each roll due and its modifier, or none."""
    rs = args.rs
    mode = _name(args.at(0, "a mode"), _modes(rs), "mode")
    features = [_name(a, _features(rs), "feature") for a in args.rest(1)]
    found = args.keyword("move")
    move = _name(found, [k.id for k in rs.moves], "kind of move") if found else None
    on_arg = args.keyword("on")
    on = _name(on_arg, list(semantics_moves.ROLL_ORDER), "time a roll is due") if on_arg else None
    parts: list[Plain] = []
    cells: list[str] = []
    for rule in (r for r in rs.rolls if r.when == (on or "entering")):
        if (due := semantics_moves.place_roll(rs, rule, mode, features, move)) is not None:
            parts += [{"word": rule.id}, {"number": due[0]}]
            cells.append(f"{rule.id}: " + ", ".join(f"{f}.{mode}" for f in due[1]))
    return Answered(tuple(parts) or ({"word": "none"},), None, tuple(cells))


def _sight(args: _Args) -> Answered:
    rs = args.rs
    rules = {r.id: r for r in rs.sights}
    rule = rules[_name(args.at(0, "a sight rule"), list(rules), "sight rule")]
    places = [_names(a, _with_outcomes(rs), "feature") for a in args.rest(1)]
    conditions_arg = args.keyword("conditions")
    fed = semantics_effects.fed_outcomes(rs)
    conditions = (
        _names(conditions_arg, [*semantics_effects.whole_map(rs), *fed], "condition")
        if conditions_arg is not None
        else ()
    )
    crossed_arg = args.keyword("crossed")
    crossed: list[float] | None = None
    if crossed_arg is not None:
        i, a = crossed_arg
        crossed = []
        for v in a.values:
            if not isinstance(v, ir.Number):
                raise Unanswerable("'crossed' should be lengths, one per place", i)
            if v.unit is not None and rule.crossed is not None and v.unit != rule.crossed:
                raise Unanswerable(
                    f"'crossed' is in {rule.crossed}, not {v.unit}", i, wrong_unit=True
                )
            crossed.append(v.value)
        if len(crossed) != len(places):
            raise Unanswerable("'crossed' needs one length per place", i)
    mode_arg = args.keyword("mode")
    mode = _name(mode_arg, _modes(rs), "mode") if mode_arg is not None else None
    state = route_inputs.sight_state(rs, rule, args.keyword("state"))
    line = semantics.line_of_sight(rs, rule, places, crossed, mode, conditions, state)
    cells = tuple(
        f"place {i}: {' + '.join(p) or 'nothing'} = "
        + (spelling.value(h) if isinstance(h, ir.Marker) else spelling.number(h))
        for i, (p, h) in enumerate(zip(places, line.by_place, strict=True), 1)
    )
    line_conditions = semantics_effects.line_conditions(rs, places, conditions)
    if line_conditions:  # counted once for the line (issue 24)
        cells = (*cells, "once for the line: " + " + ".join(line_conditions))
    parts: tuple[Plain, ...] = ({"number": line.hindrance},)
    if line.blocked:
        parts = (*parts, {"marker": "blocked"})
    hindrances = tuple(
        (tuple(p), _plain_answer(h)) for p, h in zip(places, line.by_place, strict=True)
    )
    return Answered(parts, None, cells, places=hindrances)


def _path(args: _Args) -> Answered:
    rs = args.rs
    if not rs.grids:
        raise Unanswerable("path_cost() needs a grid")
    grid = rs.grids[0]
    i, a = args.at(0, "the steps")
    if len(a.values) != 1 or not isinstance(a.values[0], ir.Symbol | ir.Text):
        raise Unanswerable("the steps are written as one word of s and d: dsssd", i)
    v = a.values[0]
    steps = v.name if isinstance(v, ir.Symbol) else v.text
    if not steps or set(steps) - {"s", "d"}:
        raise Unanswerable("the steps are written as one word of s and d: dsssd", i)
    units = [n.unit for n in grid.size if n.unit]
    unit_arg = args.keyword("unit")
    unit = _name(unit_arg, units, "grid unit") if unit_arg else (units[0] if units else None)
    size = next((n.value for n in grid.size if n.unit == unit), 1.0)
    try:
        length = semantics.path_length(grid, steps, unit)
    except ValueError as exc:
        raise Unanswerable(str(exc), i) from None
    cycle = ", ".join(str(d) for d in grid.diagonals)
    return Answered(
        ({"number": length},),
        unit,
        (
            f"{grid.id}: 1 cell = {spelling.number(size)} {unit or ''}".rstrip()
            + f", diagonals {cycle}",
        ),
    )


def _step(args: _Args, step: ir.Step) -> Answered:
    found = args.keyword(step.param)
    arg = found if found is not None else args.at(0, f"its input '{step.param}'")
    x = _number(arg, step.param_unit, step.param)
    value = semantics.step_value(step, x)
    return Answered(
        (_plain_answer(value),), step.result_unit, (f"{step.id}: {spelling.step_rule(step)}",)
    )


def _decision(args: _Args, decision: ir.Decision) -> Answered:
    rs = args.rs
    inputs: dict[str, float | bool | str] = {}
    for n, p in enumerate(decision.params):
        found = args.keyword(p.name)
        if found is None and n < len(args.positional):
            found = args.at(n, p.name)
        if found is None and p.default is not None:
            inputs[p.name] = _scalar(p.default)
            continue
        if found is None:
            raise Unanswerable(f"{decision.id}() needs '{p.name}'")
        i, a = found
        if p.unit == "bool":
            if len(a.values) != 1 or not isinstance(a.values[0], ir.Flag):
                raise Unanswerable(f"'{p.name}' is yes or no", i)
            inputs[p.name] = a.values[0].value
        elif p.total_of is not None:  # a modifier's items, read as their total (issue 40)
            inputs[p.name] = route_inputs.total(rs, found, p.total_of)
        elif p.key_of is not None:
            table = next(t for t in rs.tables if t.id == p.key_of)
            match p.axis:
                case "column":
                    keys = [c.id for c in table.columns]
                case "row" | None:  # a row, or a one-column table's row
                    keys = [r.key for r in table.rows]
                case _:
                    assert_never(p.axis)
            inputs[p.name] = _name(found, keys, f"key of {p.key_of}")
        else:
            inputs[p.name] = _number(found, p.unit, p.name)
    index = semantics.decided_row(decision, inputs, rules := semantics.Rules.of(rs))
    row, answer = decision.rows[index], semantics.decision_answer(decision, inputs, rules)
    return Answered(
        ({"word": answer} if isinstance(answer, str) else {"number": answer},),
        row.answer.unit if isinstance(row.answer, ir.ArithOperand) else None,
        (f"{decision.id} row {index + 1}: {spelling.decision_row(row)}",),
        row=index,
    )


def _scalar(value: ir.Number | ir.Flag | ir.Symbol) -> float | bool | str:
    """A number, a flag or a name as plain data (a key by its name): a left-out input's
    default, as the decision reads it, and an example's argument."""
    match value:
        case ir.Number(value=n):
            return n
        case ir.Flag(value=flag):
            return flag
        case ir.Symbol(name=key):
            return key
        case _:
            assert_never(value)


# ---- test vectors --------------------------------------------------------------------------


def _arg_plain(a: ir.ExampleArg) -> Any:
    def one(v: ir.Value) -> Any:
        match v:
            case ir.Number() | ir.Flag() | ir.Symbol():
                return _scalar(v)
            case ir.Text(text=text):
                return text
            case ir.Marker() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
                return spelling.value(v)
            case _:
                assert_never(v)

    values = [one(v) for v in a.values]
    if a.names:  # state=(speed=5, altitude=2): the module's dict (issue 40)
        return dict(zip(a.names, values, strict=True))
    return values if a.grouped else values[0]


def vector(rs: ir.Ruleset, example: ir.Example, q: ir.Question) -> dict[str, Any]:
    """A language-neutral test vector: the question, its positional and keyword arguments
    (numbers in the ruleset's units, places as lists of features; a route's places as
    ``{"features": [...], "edge": [...]}``, the edge crossed into each) and the expected
    answer."""
    args = [_arg_plain(a) for a in q.args if not a.keyword]
    if question_kind(rs, q) == "route_cost":
        args = [
            args[0],
            *(
                place  # a facing route's move word (issue 24): `turn`, `backward`...
                if isinstance(place, str)
                else dict(zip(("features", "edge"), routes.split_edges(rs, place), strict=True))
                for place in args[1:]
            ),
        ]
    if question_kind(rs, q) == "free_move":  # the legs as one list, as the module takes them
        args = [args[0], [[*leg[:2], leg[2:]] if len(leg) > 2 else leg for leg in args[1:]]]
    return {
        "example": example.id,
        "question": q.ask,
        "kind": question_kind(rs, q),
        "args": args,
        "kwargs": {a.keyword: _arg_plain(a) for a in q.args if a.keyword},
        **({"attribute": q.attribute} if q.attribute else {}),  # `.state`, `.rolls` (issue 40)
        "expected": list(stated(q)),
        "unit": unit_of(q),
        "title": dict(example.info.labels),
        "text": f"{question_text(q)} = {answer_text(stated(q), unit_of(q))}",
    }


def vectors(rs: ir.Ruleset) -> list[dict[str, Any]]:
    """Every question of every example of ``rs``, in order."""
    return [vector(rs, e, q) for e in rs.examples for q in e.questions]


def unit_problem(q: ir.Question, answered: Answered) -> str | None:
    """A stated number whose unit is not the answer's (``4 in`` for a cost in MP)."""
    for v in q.answer:
        if isinstance(v, ir.Number) and v.unit is not None and v.unit != answered.unit:
            want = answered.unit or "no unit"
            return f"the answer is in {want}, not {v.unit}"
    return None
