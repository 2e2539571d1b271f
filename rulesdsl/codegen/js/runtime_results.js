// ---- results tables (module_sight.py.j2's roll, _roll, _result and _column_of, in order) ----

/** A column of a results table, picked by the table's input: ``bound`` is ``up_to`` (the
 * input at most ``value``), ``above`` (more than ``value``) or ``at`` (a point: the table's
 * ``rounding`` takes a value between two points to one of them). */
export class ResultColumn {
  constructor(id, labels, bound, value, unit = null) {
    Object.assign(this, { id, labels, bound, value, unit });
    Object.freeze(this);
  }
}

/** A results table: the column by the value of ``by``, the row by the total; ``naturals``
 * maps a natural roll to the outcome it gives whatever the column; ``chances``: per column,
 * the exact chance of each outcome, and ``chancesWith`` the same per modifier. */
export class ResultsTable {
  constructor(fields) {
    Object.assign(this, fields);
    Object.freeze(this);
  }
}

/** What ``roll`` answers on a results table: the outcome, its labels, the column, the totals
 * of the row (``natural``: given by the natural roll, ``low`` = ``high`` = it), and the
 * effects the outcome carries. */
export class Result {
  constructor(id, labels, column, low, high, natural, effects) {
    Object.assign(this, { id, labels, column, low, high, natural, effects });
    Object.freeze(this); // made once per question asked: roll keeps them
  }
}

/** Python's truth of a value: 0, NaN aside, empty strings, arrays and objects are false. */
function _pyTruthy(value) {
  if (typeof value === "number") return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

const _KEPT = new Map(); // table -> column -> total -> Result: answers without natural or shift
let _kept = 0;

/** ``roll`` on a module with results tables: the outcome in ``column`` on a results table,
 * else the dice table's row (Python's roll and _roll). An answer by column and total alone is
 * kept, so that asking again is a lookup (Python's _ROLLED, at most 4,096 kept). */
function _rollWithResults(table, total, { column = null, natural = null, shift = 0, dice = null }) {
  const plain = natural === null && dice === null && shift === 0;
  if (plain) {
    const kept = _KEPT.get(table)?.get(column)?.get(total);
    if (kept !== undefined) return kept;
  }
  const answer = _rollOnTable(table, total, column, natural, shift, dice);
  const keyed = typeof column === "string" || typeof column === "number";
  if (plain && keyed && typeof total === "number" && answer instanceof Result && _kept < 4096) {
    if (!_KEPT.has(table)) _KEPT.set(table, new Map());
    const byColumn = _KEPT.get(table);
    if (!byColumn.has(column)) byColumn.set(column, new Map());
    byColumn.get(column).set(total, answer);
    _kept++;
  }
  return answer;
}

/** roll worked out: the faces made a natural roll, then a plain table's row or a results table's
 * outcome (Python's roll and _roll). */
function _rollOnTable(table, total, column, natural, shift, dice) {
  const named = typeof table === "string";
  if (dice !== null && dice !== undefined && named && Object.hasOwn(RESULTS_TABLES, table)) {
    const results = RESULTS_TABLES[table];
    natural = _rolled(results.dice, dice, natural);
    const doubles = dice.length > 1 && new Set(dice).size === 1;
    if (doubles && results.onDoubles !== null) {
      @check(roll, shift, shift);
      shift = Number(shift) + results.shifts[results.onDoubles];
    }
  } else if (dice !== null && dice !== undefined && named && Object.hasOwn(DICE_TABLES, table)) {
    natural = _rolled(DICE_TABLES[table].dice, dice, natural); // a plain table's natural
  }
  const given = (v) => v !== null && v !== undefined;
  if (!given(column)) {
    if (given(natural)) {
      if (named && Object.hasOwn(DICE_TABLES, table)) return _rollNatural(table, total, natural);
    }
    const index = named ? _ROLLS[table]?.get(_keyOf(total)) : undefined;
    if (index !== undefined) return DICE_TABLES[table].rows[index];
    if (named && Object.hasOwn(RESULTS_TABLES, table)) {
      throw new InvalidArgument("roll", "column", null, `is needed for the results table ${pyRepr(table)}`);
    }
    return _rollBeyond(table, total);
  }
  if (!named || !Object.hasOwn(RESULTS_TABLES, table)) {
    _checkName("roll", "table", table, RESULTS_TABLES, "results table");
  }
  return _resultOf(RESULTS_TABLES[table], total, column, natural, shift);
}

/** The column ``column`` picks (a name, or a value of the table's input), moved by ``shift``. */
function _pickedColumn(results, column, shift) {
  let picked;
  if (typeof column === "string") {
    picked = results.columns.find((c) => c.id === column);
    if (picked === undefined) {
      throw new UnknownName(`column of ${pyRepr(results.id)}`, column, results.columns.map((c) => c.id));
    }
  } else picked = _columnOf(results, column);
  if (!_pyTruthy(shift)) return picked;
  @check(roll, shift, shift);
  if (Number(shift) !== Math.trunc(shift)) {
    throw new InvalidArgument("roll", "shift", shift, "must be a whole number of columns");
  }
  const last = results.columns.length - 1;
  return results.columns[Math.max(0, Math.min(last, results.columns.indexOf(picked) + Number(shift)))];
}

/** The outcome of a results table for ``total`` in the column picked (Python's _roll). */
function _resultOf(results, total, column, natural, shift) {
  const picked = _pickedColumn(results, column, shift);
  const slot = results.columns.indexOf(picked);
  let floor = null;
  if (natural !== null && natural !== undefined) {
    @check(roll, natural, natural);
    const whole = Math.trunc(Number(natural));
    let outcome = Number(natural) === whole ? results.naturals.get(whole) : undefined;
    const byColumn = outcome ? results.naturalByColumn.get(whole) : undefined;
    if (byColumn !== undefined) outcome = byColumn[slot];
    if (outcome !== undefined && results.naturalAtLeast.has(whole)) floor = outcome; // at least this one
    else if (outcome !== undefined) return _result(results, outcome, picked.id, natural, natural, true);
  }
  @check(roll, total, total);
  if (Number(total) !== Math.trunc(total)) throw new InvalidArgument("roll", "total", total, "must be a whole number");
  const rows = _RESULT_ROWS[results.id];
  let index = rows.get(_keyOf(total));
  if (index === undefined) {
    index = results.rows.findIndex(([low, high]) => (low === null || total >= low) && (high === null || total <= high));
    if (index < 0) throw new UnknownName(`total of ${pyRepr(results.id)}`, total, [...rows.keys()]);
  }
  const [low, high, outcomes] = results.rows[index];
  if (floor !== null) {
    const order = Object.keys(results.outcomes);
    if (order.indexOf(floor) > order.indexOf(outcomes[slot])) {
      return _result(results, floor, picked.id, natural, natural, true);
    }
  }
  return _result(results, outcomes[slot], picked.id, low, high, false);
}

function _result(results, outcome, column, low, high, natural) {
  const effects = results.outcomeEffects[outcome] ?? _NO_EFFECTS;
  return new Result(outcome, results.outcomes[outcome], column, low, high, natural, effects);
}

const _NO_EFFECTS = Object.freeze({});

/** The column a value of the table's input picks; ``[a, b]`` is the ratio a:b. */
function _columnOf(results, column) {
  let value = column;
  if (Array.isArray(column)) {
    if (column.length !== 2) throw new InvalidArgument("roll", "column", column, "must be two strengths (a, b)");
    @check(roll, column, column[0]);
    _checkNumber("roll", "column", column[1], 0);
    if (column[1] == 0) throw new InvalidArgument("roll", "column", column, "divides by a strength of 0");
    value = column[0] / column[1];
  } else @check(roll, column, column);
  value = Number(value);
  const columns = results.columns;
  const slack = 1e-9 * Math.max(1.0, Math.abs(value));
  if (results.rounding === "down") {
    const below = columns.filter((c) => c.value <= value + slack); // the last at or below
    return below.length ? below[below.length - 1] : columns[0];
  }
  if (results.rounding === "up") return columns.find((c) => c.value >= value - slack) ?? columns[columns.length - 1];
  const found = columns.find((c) => (c.bound === "up_to" && value <= c.value) || (c.bound === "above" && value > c.value));
  if (found === undefined) {
    const error = new Error(""); // Python's next() of an empty generator
    error.code = "StopIteration";
    throw error;
  }
  return found;
}
