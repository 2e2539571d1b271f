// ---- runtime (the same in every generated module; follows the Python module piece by piece) ----

const _INF = Infinity;

/** An answer that is not a number: IMPASSABLE, PROHIBITED, BLOCKED or GIVEN. One of each. */
export class Marker {
  constructor(name, value) {
    this.name = name;
    this.value = value;
    Object.freeze(this);
  }
  toString() {
    return this.name;
  }
}
export const IMPASSABLE = new Marker("IMPASSABLE", "impassable");
export const PROHIBITED = new Marker("PROHIBITED", "prohibited");
export const BLOCKED = new Marker("BLOCKED", "blocked");
export const GIVEN = new Marker("GIVEN", "given");

/** A number with its unit (``2 in``); computes as the plain number. */
export class Quantity {
  constructor(value, unit) {
    this.value = value;
    this.unit = unit;
    Object.freeze(this);
  }
  valueOf() {
    return this.value;
  }
  toString() {
    return `${pyFloat(this.value, "g")} ${this.unit}`;
  }
}

/** A frozen mapping without a prototype: any name is looked up as data. */
function _dict(entries) {
  return Object.freeze(Object.assign(Object.create(null), entries));
}

/** A number the Python module holds as a float (a given value): printed as Python prints one. */
class _Float {
  constructor(value) {
    this.value = value;
  }
}

function _record(kind, fields) {
  return Object.freeze({ kind, ...fields });
}

// ---- Python's repr, for messages identical to the Python module's ----

function pyNumber(value) {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  return pyFloat(value, "r");
}

function pyFloat(value, style) {
  if (Number.isNaN(value)) return "nan";
  if (value === _INF) return "inf";
  if (value === -_INF) return "-inf";
  const [mantissa, exp] = value.toExponential().split("e");
  const exponent = Number(exp);
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = value < 0 ? "-" : "";
  if (-4 <= exponent && exponent < 16) {
    let text;
    if (exponent >= digits.length - 1) text = digits + "0".repeat(exponent - digits.length + 1);
    else if (exponent >= 0) text = digits.slice(0, exponent + 1) + "." + digits.slice(exponent + 1);
    else text = "0." + "0".repeat(-exponent - 1) + digits;
    if (style === "r" && !text.includes(".")) text += ".0";
    return sign + text;
  }
  const body = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
  const e = Math.abs(exponent) < 10 ? "0" + Math.abs(exponent) : String(Math.abs(exponent));
  return `${sign}${body}e${exponent < 0 ? "-" : "+"}${e}`;
}

function pyStr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code < 0xa1)) out += "\\x" + code.toString(16).padStart(2, "0");
    else if (ch !== " " && /[\p{C}\p{Z}]/u.test(ch)) {
      out += code > 0xffff ? "\\U" + code.toString(16).padStart(8, "0") : "\\u" + code.toString(16).padStart(4, "0");
    } else out += ch;
  }
  return out + quote;
}

function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "string") return pyStr(value);
  if (value instanceof Marker) return value.name;
  if (value instanceof _Float) return pyFloat(value.value, "r");
  if (value instanceof _Tuple) {
    const items = value.items.map(pyRepr);
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${pyStr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  }
  return String(value);
}

function pyTypeName(value) {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 1e16 ? "int" : "float";
  if (typeof value === "string") return "str";
  if (value instanceof _Tuple) return "tuple";
  if (Array.isArray(value)) return "list";
  return "dict";
}

/** The arguments of a function taking ``...rest``, as Python prints a tuple. */
class _Tuple {
  constructor(items) {
    this.items = items;
  }
}

// ---- difflib.get_close_matches, as Python's (for the same suggestions) ----

function matchingBlocks(a, b) {
  const b2j = new Map();
  [...b].forEach((ch, j) => {
    if (!b2j.has(ch)) b2j.set(ch, []);
    b2j.get(ch).push(j);
  });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [ch, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(ch);
  }
  const longest = (alo, ahi, blo, bhi) => {
    let besti = alo, bestj = blo, bestsize = 0;
    let j2len = new Map();
    for (let i = alo; i < ahi; i++) {
      const newj2len = new Map();
      for (const j of b2j.get(a[i]) || []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) || 0) + 1;
        newj2len.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = newj2len;
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    return [besti, bestj, bestsize];
  };
  const queue = [[0, a.length, 0, b.length]];
  const blocks = [];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop();
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k) {
      blocks.push([i, j, k]);
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
  }
  blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
  return blocks;
}

function ratio(matches, a, b) {
  return (2 * matches) / (a.length + b.length);
}

function closeMatches(word, possibilities, n, cutoff) {
  const result = [];
  const w = [...word];
  for (const x of possibilities) {
    const s = [...x];
    // SequenceMatcher(a=x, b=word): real_quick_ratio, quick_ratio, ratio
    if (ratio(Math.min(s.length, w.length), s, w) < cutoff) continue;
    const avail = new Map();
    let matches = 0;
    const full = new Map();
    for (const ch of w) full.set(ch, (full.get(ch) || 0) + 1);
    for (const ch of s) {
      const left = avail.has(ch) ? avail.get(ch) : full.get(ch) || 0;
      avail.set(ch, left - 1);
      if (left > 0) matches++;
    }
    if (ratio(matches, s, w) < cutoff) continue;
    const exact = matchingBlocks(s, w).reduce((sum, block) => sum + block[2], 0);
    const score = ratio(exact, s, w);
    if (score >= cutoff) result.push([score, x]);
  }
  result.sort((p, q) => (q[0] - p[0]) || (q[1] > p[1] ? 1 : q[1] < p[1] ? -1 : 0));
  return result.slice(0, n).map((p) => p[1]);
}

function pyStrOf(value) {
  return typeof value === "number" ? (Number.isInteger(value) ? String(value) : pyFloat(value, "r")) : String(value);
}

function byCodePoint(x, y) {
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---- errors: the Python module's kinds, messages and fields ----

/** A name the ruleset does not declare; the message suggests the nearest valid ones. */
export class UnknownName extends Error {
  constructor(kind, name, valid) {
    const pool = [...valid];
    const choices = pool.map(pyStrOf).sort(byCodePoint);
    let hint = closeMatches(pyStrOf(name), choices, 3, 0.5);
    if (!hint.length) hint = choices.slice(0, 8);
    if (typeof name === "number") {
      const numbers = pool.filter((v) => typeof v === "number");
      numbers.sort((x, y) => Math.abs(x - name) - Math.abs(y - name) || x - y);
      const near = numbers.slice(0, 2).map(pyStrOf);
      if (near.length) hint = near;
    }
    let message = `unknown ${kind} ${pyRepr(name)}`;
    if (hint.length) message += "; did you mean " + hint.map(pyRepr).join(" or ") + "?";
    super(message);
    this.name = "UnknownName";
    this.code = "UnknownName";
    this.kind = kind;
    this.unknown = name;
    this.suggestions = hint;
  }
}

/** A scenario parameter that this ruleset leaves to a house rule or scenario. */
export class UnfilledParameter extends Error {
  constructor(name) {
    super(
      `parameter ${pyRepr(name)} is not filled in by this ruleset; ` +
        `a house rule sets it with \`override ${name} | <value>\``,
    );
    this.name = "UnfilledParameter";
    this.code = "UnfilledParameter";
    this.parameter = name;
  }
}

/** An argument a question cannot take: ``functionName`` and ``argument`` name it. */
export class ArgumentError extends Error {
  constructor(functionName, argument, value, reason, typed) {
    const got = typed ? `${pyRepr(value)} (${pyTypeName(value)})` : pyRepr(value);
    super(`${functionName}() argument ${pyRepr(argument)} ${reason}; got ${got}`);
    this.functionName = functionName;
    this.argument = argument;
    this.value = value instanceof _Tuple ? value.items : value instanceof _Float ? value.value : value;
    this.reason = reason;
  }
}

/** A number out of range: NaN or infinite, or negative where a distance is asked. */
export class InvalidArgument extends ArgumentError {
  constructor(functionName, argument, value, reason) {
    super(functionName, argument, value, reason, false);
    this.name = "InvalidArgument";
    this.code = "InvalidArgument";
  }
}

/** An argument of the wrong type: a string where a number is asked, a number for a name. */
export class ArgumentTypeError extends ArgumentError {
  constructor(functionName, argument, value, reason) {
    super(functionName, argument, value, reason, true);
    this.name = "ArgumentTypeError";
    this.code = "ArgumentTypeError";
  }
}

// ---- checking arguments ----

function _isName(value, pool) {
  return typeof value === "string" && Object.hasOwn(pool, value);
}

function _checkName(fn, argument, value, pool, kind) {
  if (typeof value !== "string") {
    throw new ArgumentTypeError(fn, argument, value, `must be a str naming a ${kind}`);
  }
  if (!Object.hasOwn(pool, value)) throw new UnknownName(kind, value, Object.keys(pool));
}

function _checkNumber(fn, argument, value, minimum = 0) {
  if (typeof value !== "number" && typeof value !== "boolean") {
    throw new ArgumentTypeError(fn, argument, value, "must be a real number");
  }
  if (!Number.isFinite(Number(value))) {
    throw new InvalidArgument(fn, argument, value, "must be a finite number");
  }
  if (minimum !== null && value < minimum) {
    throw new InvalidArgument(fn, argument, value, `must be at least ${minimum}`);
  }
}

function _checkFlag(fn, argument, value) {
  if (value !== true && value !== false) {
    throw new ArgumentTypeError(fn, argument, value, "must be True or False");
  }
}

function _checkKey(fn, argument, value, keys, kind) {
  if (typeof value === "number") _checkNumber(fn, argument, value, null);
  else if (typeof value !== "string") {
    throw new ArgumentTypeError(fn, argument, value, "must be a str or a number");
  }
  if (!keys.has(value)) throw new UnknownName(kind, value, keys);
}

/** How many whole ``every`` fit in ``amount``, read as the decimals the rules write. */
function _whole(amount, every) {
  const count = Number((amount / every).toFixed(9));
  return count < _INF ? Math.floor(count) : count;
}

/** A key as Python's dicts find it: True and False are 1 and 0. */
function _keyOf(value) {
  return typeof value === "boolean" ? Number(value) : value;
}

// ---- records ----

/** A plain table: its columns, and per row key (a number where the key is one) its cells. */
export class Table {
  constructor(id, labels, columns, rows) {
    this.id = id;
    this.labels = labels;
    this.columns = columns;
    this.rows = rows;
    Object.freeze(this);
  }
}

/** The result of a decision table; ``value`` when the outcome is a modifier. */
export class Outcome {
  constructor(id, label, value = null) {
    this.id = id;
    this.label = label;
    this.value = value;
    Object.freeze(this);
  }
  /** The outcome's label in every language the ruleset gives. */
  get labels() {
    return _OUTCOME_LABELS.get(`${this.id}\u0000${this.label}`) || { [_FIRST_LANGUAGE]: this.label };
  }
}

/** A table cell as a bound in a decision: ``value``, or ``value`` for every ``per`` of a
 * distance when the cell is a rate; Infinity when it says `any`. */
export class Limit {
  constructor(value, per = 0) {
    this.value = value;
    this.per = per;
    Object.freeze(this);
  }
  /** The bound after ``distance`` (``full``: only whole ``per`` count). */
  over(distance, full = false) {
    if (!(typeof distance === "number" && distance >= 0 && distance < _INF)) {
      @check(Limit.over, distance, distance);
    }
    if (!this.per) return this.value;
    return this.value * (full ? _whole(distance, this.per) : distance / this.per);
  }
}

// ---- questions every module answers ----

/** A cell of plain table ``table``: ``lookup(t, row)`` with one column, else
 * ``lookup(t, column, row)``. */
export function lookup(table, ...keys) {
  if (typeof table !== "string" || !Object.hasOwn(TABLES, table)) {
    @check(lookup, table, table);
  }
  const entry = TABLES[table];
  const columns = entry.columns;
  if (keys.length !== (columns.length > 1 ? 2 : 1)) {
    const shape = columns.length > 1 ? "column, row" : "row";
    throw new ArgumentTypeError("lookup", "keys", new _Tuple(keys), `must be (${shape}) for ${pyRepr(table)}`);
  }
  const rowKey = keys[keys.length - 1];
  const cells = entry.rows.get(_keyOf(rowKey));
  if (cells === undefined) {
    _checkKey("lookup", "row", rowKey, new Set(entry.rows.keys()), `row of ${pyRepr(table)}`);
  }
  if (columns.length < 2) return cells[0];
  const index = columns.indexOf(keys[0]);
  if (index < 0) _checkKey("lookup", "column", keys[0], new Set(columns), `column of ${pyRepr(table)}`);
  return cells[index];
}

/** A scenario parameter's value; UnfilledParameter when the ruleset leaves it open. */
export function param(name) {
  @check(param, name, name);
  const value = PARAMS[name];
  if (value === null) throw new UnfilledParameter(name);
  return value;
}

// ---- helpers of steps and decisions ----

const _KEYS = new Map();

/** The keys of a table's rows or columns, as a Set (made once per table and axis). */
function _keys(table, axis) {
  const key = `${table}\u0000${axis}`;
  let keys = _KEYS.get(key);
  if (keys === undefined) {
    keys = new Set(axis === "row" ? TABLES[table].rows.keys() : TABLES[table].columns);
    _KEYS.set(key, keys);
  }
  return keys;
}

/** An arithmetic error of the Python module (division by zero, a rounding of no number). */
export class ArithmeticFault extends Error {
  constructor(code, message) {
    super(message);
    this.name = code;
    this.code = code;
  }
}

function _divide(a, b) {
  if (b == 0) {
    const ints = Number.isInteger(Number(a)) && Number.isInteger(Number(b));
    throw new ArithmeticFault("ZeroDivisionError", ints ? "division by zero" : "float division by zero");
  }
  return a / b;
}

function _rounding(round, value) {
  if (Number.isNaN(value)) throw new ArithmeticFault("ValueError", "cannot convert float NaN to integer");
  if (!Number.isFinite(value)) {
    throw new ArithmeticFault("OverflowError", "cannot convert float infinity to integer");
  }
  return round(value);
}

// ---- conditions that exclude each other, modifiers ----

/** The pairs among ``names`` that exclude each other, as "a + b" strings. */
export function conflicts(...names) {
  for (const name of names) {
    if (typeof name !== "string") @check(conflicts, names, name);
  }
  const present = new Set(names);
  const found = [];
  for (const subject of [...present].filter((n) => Object.hasOwn(EXCLUSIONS, n)).sort(byCodePoint)) {
    for (const other of EXCLUSIONS[subject].filter((n) => present.has(n)).sort(byCodePoint)) {
      if (subject < other || (subject === other && names.filter((n) => n === subject).length > 1)) {
        found.push(`${subject} + ${other}`);
      }
    }
  }
  return found;
}

function _warnConflicts(names) {
  if (names.length < 2 || !names.some((n) => Object.hasOwn(EXCLUSIONS, n))) return false;
  const pairs = conflicts(...names);
  for (const pair of pairs) console.warn(`ConflictWarning: ${pair}: the rules exclude this combination`);
  return pairs.length > 0;
}

/** Features that cannot be together in one place (two of a one-per-place layer). */
export class InvalidPlace extends Error {
  constructor(message) {
    super(message);
    this.name = "InvalidPlace";
    this.code = "InvalidPlace";
  }
}

/** InvalidPlace unless ``features`` can be one place (dice outcomes fed to costs or sight
 * have no layer). */
function _checkPlace(features) {
  if (features.length < 2) return;
  const seen = new Map();
  const listed = new Set();
  for (const feature of features) {
    if (_OUTCOMES.has(feature)) continue;
    const layer = FEATURES[feature].layer;
    if (listed.has(feature)) throw new InvalidPlace(`${pyRepr(feature)} is listed twice`);
    const one = _ONE_PER_PLACE.has(layer);
    if (one && seen.has(layer)) {
      throw new InvalidPlace(`${pyRepr(seen.get(layer))} and ${pyRepr(feature)} are both ${pyRepr(layer)}: one per place`);
    }
    seen.set(one ? layer : feature, feature);
    listed.add(feature);
  }
}

/** The names that count: a feature that ignores others silences the other features of the
 * place; whole-map conditions and modifier factors still count. */
function _counted(names) {
  if (!names.some((n) => _IGNORES_OTHERS.has(n))) return names;
  return names.filter((n) => _IGNORES_OTHERS.has(n) || _WHOLE_MAP.has(n) || !Object.hasOwn(FEATURES, n));
}

function _modifierContext(name, values, inputs, context) {
  let key = "";
  let key2 = "";
  const given = new Map();
  const lines = new Map(); // [sight factor]
  const sights = _SIGHT_FACTORS[name] ?? {}; // [sight factor]
  for (const [contextName, contextValue] of Object.entries(context)) {
    if (Object.hasOwn(sights, contextName)) { // [sight factor]
      lines.set(contextName, _sightFactor(name, contextName, contextValue)); // [sight factor]
      continue; // [sight factor]
    } // [sight factor]
    if (typeof contextValue !== "string" && typeof contextValue !== "number") { // [sight factor]
      throw new ArgumentTypeError("modifier", contextName, contextValue, "must be a name or a number"); // [sight factor]
    } // [sight factor]
    if (values[contextName]?.[""] === GIVEN || Object.hasOwn(inputs, contextName)) {
      _checkNumber("modifier", contextName, contextValue, null); // a value each model has,
      given.set(contextName, Number(contextValue)); // or a step's input (deviation=0.6)
      continue;
    }
    const expected = _MODIFIER_CONTEXT[name] ?? null;
    const second = _MODIFIER_CONTEXT2[name] ?? null;
    if (contextName !== expected && (second === null || contextName !== second)) {
      throw new UnknownName(`context of ${pyRepr(name)}`, contextName, [expected, second].filter((c) => c));
    }
    const pool = Object.fromEntries(CONTEXTS[contextName].map((v) => [v, true]));
    _checkName("modifier", contextName, contextValue, pool, `value of ${pyRepr(contextName)}`);
    if (contextName === expected) key = contextValue;
    else key2 = contextValue;
  }
  return { key, key2, given }; // [no sight factor]
  return { key, key2, given, lines }; // [sight factor]
}

function _modifierItems(name, items, values, inputs, given, key) { // [no sight factor]
function _modifierItems(name, items, values, inputs, given, key, lines) { // [sight factor]
  for (const item of items) {
    if (typeof item === "string" && Object.hasOwn(_SIGHT_FACTORS[name] ?? {}, item)) { // [sight factor]
      if (lines.has(item)) continue; // [sight factor]
      throw new InvalidArgument("modifier", item, null, `must be given: the line it is read along (${item}=)`); // [sight factor]
    } // [sight factor]
    if (typeof item !== "string" || (!Object.hasOwn(FEATURES, item) && !Object.hasOwn(values, item))) {
      const pool = [...Object.keys(FEATURES), ...Object.keys(values)];
      if (typeof item !== "string") {
        throw new ArgumentTypeError("modifier", "items", item, "must be a str naming a feature or factor");
      }
      throw new UnknownName("feature or factor", item, pool);
    }
  }
  if (!_warnConflicts(items)) _keepConflictFree(items);
  if (_SUMMED.has(name) && !given.size) _keepSummed(name, key);
  let counted = _counted(items);
  for (const [factor, amount] of given) {
    if (Object.hasOwn(inputs, factor)) {
      if (!inputs[factor].some((user) => counted.includes(user))) {
        throw new InvalidArgument(
          "modifier",
          factor,
          new _Float(amount),
          "is the input of a step that only " +
            inputs[factor].map(pyRepr).join(", ") +
            " give: name one of them, or leave it out",
        );
      }
    } else if (!counted.includes(factor)) counted = [...counted, factor];
  }
  counted = [...counted, ...[...lines.keys()].filter((f) => !counted.includes(f))]; // its line given: it counts // [sight factor]
  return COMBINE[name] === "once" ? [...new Set(counted)] : counted;
}

function _contribution(item, values, pairs, key, key2, given) {
  const byContext = values[item] ?? {};
  let contribution = pairs[item]?.get(`${key}\u0000${key2}`);
  if (contribution === undefined) {
    contribution =
      key && Object.hasOwn(byContext, key)
        ? byContext[key]
        : key2 && Object.hasOwn(byContext, key2)
          ? byContext[key2]
          : byContext[""];
  }
  if (contribution === GIVEN) {
    if (!given.has(item)) {
      throw new InvalidArgument("modifier", item, null, `is each model's own value: pass it, e.g. ${item}=1`);
    }
    return given.get(item);
  }
  if (contribution instanceof StepCost) {
    if (!given.has(contribution.input)) {
      throw new InvalidArgument(
        "modifier",
        contribution.input,
        null,
        `must be given: ${pyRepr(item)} gives the step ${pyRepr(contribution.step)}`,
      );
    }
    try {
      return STEPS[contribution.step](given.get(contribution.input));
    } catch (error) {
      if (!(error instanceof ArgumentError)) throw error;
      // the Python module holds a given value as a float, and prints it as one
      throw new error.constructor(error.functionName, error.argument, new _Float(error.value), error.reason);
    }
  }
  return contribution;
}

/** The modifier ``name`` over ``items`` (features or factors), with ``context``: the context
 * values (``{weapon: "ballistic"}``) and the values each model has or a step's input. */
export function modifier(name, items = [], context = {}) {
  const byItem = _summedValues(name, context);
  if (byItem !== undefined && Array.isArray(items)) {
    let total = 0;
    for (const item of items) {
      const value = byItem.get(item);
      if (value === undefined) return _modifier(name, items, context);
      total += value;
    }
    if (items.length < 2 || _conflictFree(items)) return total;
  }
  return _modifier(name, items, context);
}

// ---- a modifier whose values add up, asked again: Python's _SUMMED_VALUES and _CONFLICT_FREE ----

const _SUMMED_VALUES = new Map(); // modifier -> context ("" for none) -> its value -> item -> number
const _CONFLICT_FREE = new Map(); // items asked together that exclude none of each other: a
let _conflictFreeKept = 0; //        tree by item, null marking the end of a list (4,096 kept)

function _conflictFree(items) {
  let node = _CONFLICT_FREE;
  for (const item of items) if ((node = node.get(item)) === undefined) return false;
  return node.has(null);
}

function _keepConflictFree(items) {
  if (_conflictFreeKept >= 4096) return;
  let node = _CONFLICT_FREE;
  for (const item of items) {
    if (!node.has(item)) node.set(item, new Map());
    node = node.get(item);
  }
  if (!node.has(null)) _conflictFreeKept++;
  node.set(null, true);
}

/** The values by item of a modifier in _SUMMED asked with ``context`` (one context value at
 * most) before; undefined if it was not (modifier then works it out, and keeps them). */
function _summedValues(name, context) {
  let contextName = "";
  let value = "";
  for (const key in context) {
    if (contextName) return undefined;
    contextName = key;
    value = context[key];
  }
  return _SUMMED_VALUES.get(name)?.get(contextName)?.get(value);
}

/** Keep the value of each feature and factor of modifier ``name`` with context value ``key``
 * ("" for none), 0 where it has none; items whose value is a marker, GIVEN or a step, or that
 * ignore others, are left out, so that modifier works them out (Python's _keep_summed). */
function _keepSummed(name, key) {
  const byItem = new Map(Object.keys(FEATURES).map((f) => [f, 0]));
  for (const [item, byContext] of Object.entries(MODIFIERS[name])) {
    const value = key && Object.hasOwn(byContext, key) ? byContext[key] : (byContext[""] ?? 0);
    if (value instanceof Marker || value instanceof StepCost || _IGNORES_OTHERS.has(item)) byItem.delete(item);
    else byItem.set(item, value);
  }
  for (const item of _IGNORES_OTHERS) byItem.delete(item);
  const contextName = key ? _MODIFIER_CONTEXT[name] : "";
  if (!_SUMMED_VALUES.has(name)) _SUMMED_VALUES.set(name, new Map());
  const byContext = _SUMMED_VALUES.get(name);
  if (!byContext.has(contextName)) byContext.set(contextName, new Map());
  byContext.get(contextName).set(key, byItem);
}

/** modifier, worked out: its arguments checked, conflicts warned of, every rule applied. */
function _modifier(name, items, context) {
  if (typeof name !== "string" || !Object.hasOwn(MODIFIERS, name)) {
    @check(modifier, name, name);
  }
  const { state: carried, ...rest } = context ?? {}; // [state]
  const state = _carriedArg("modifier", carried); // [state]
  if (!Array.isArray(items)) throw new ArgumentTypeError("modifier", "items", items, "must be an array of names");
  const values = MODIFIERS[name];
  const inputs = _STEP_INPUTS[name] ?? {};
  const { key, key2, given } = _modifierContext(name, values, inputs, rest); // [no sight factor] // [state]
  const { key, key2, given } = _modifierContext(name, values, inputs, context ?? {}); // [no sight factor] // [no state]
  const { key, key2, given, lines } = _modifierContext(name, values, inputs, rest); // [sight factor] // [state]
  const { key, key2, given, lines } = _modifierContext(name, values, inputs, context ?? {}); // [sight factor] // [no state]
  const counted = _modifierItems(name, items, values, inputs, given, key); // [no sight factor]
  const counted = _modifierItems(name, items, values, inputs, given, key, lines); // [sight factor]
  const present = new Set(counted);
  const parts = [];
  for (const [members, value] of _COMBINATIONS[name] ?? []) {
    if (members.every((m) => present.has(m))) {
      if (value instanceof Marker) return value;
      parts.push(value);
    }
  }
  for (const value of _bandValues(name, state)) { // [state]
    if (value instanceof Marker) return value; // [state]
    parts.push(value); // [state]
  } // [state]
  const pairs = _PAIRS[name] ?? {};
  const bestOf = _BEST_OF[name] ?? {};
  const best = new Map(); // per best group present: its best value so far
  for (const item of counted) {
    const number = _contribution(item, values, pairs, key, key2, given); // [no sight factor]
    const number = lines.has(item) ? lines.get(item) : _contribution(item, values, pairs, key, key2, given); // [sight factor]
    if (number instanceof Marker) return number;
    if (number === undefined || number === null) continue;
    const group = bestOf[item];
    if (group === undefined) parts.push(number);
    else {
      const [groupId, highest] = group;
      const kept = best.get(groupId);
      if (kept === undefined || (highest ? number > kept : number < kept)) best.set(groupId, number);
    }
  }
  parts.push(...best.values());
  const policy = COMBINE[name];
  let total =
    policy === "highest"
      ? parts.length ? Math.max(...parts) : 0
      : policy === "lowest"
        ? parts.length ? Math.min(...parts) : 0
        : parts.reduce((sum, part) => sum + part, 0);
  if (Object.hasOwn(CLAMP, name)) {
    const [low, high] = CLAMP[name];
    total = Math.max(low, Math.min(high, total));
  }
  return total;
}

/** A modifier's value that is a step's answer for its input (``step climb``). */
export class StepCost {
  constructor(step, input) {
    this.step = step;
    this.input = input;
    Object.freeze(this);
  }
}

// ---- dice tables ----

/** A row of a dice table: its totals (null: open-ended), effects and exact chances. */
export class DiceRow {
  constructor(id, labels, low, high, effects, chance, chanceWith) {
    Object.assign(this, { id, labels, low, high, effects, chance, chanceWith });
    Object.freeze(this);
  }
}

/** A dice table: its dice, modifiers, rows, and the natural rolls that give a row. */
export class DiceTable {
  constructor(id, labels, dice, modifiers, rows, naturals, naturalAtLeast) {
    Object.assign(this, { id, labels, dice, modifiers, rows, naturals, naturalAtLeast });
    Object.freeze(this);
  }
}

/** A trigger: when to roll on dice table ``table`` (a ``check`` roll of at least ``atLeast``,
 * null: always), how often, with which modifiers. */
export class Trigger {
  constructor(id, labels, table, check, atLeast, checkChance, modifier, times, moreModifiers) {
    Object.assign(this, { id, labels, table, check, atLeast, checkChance, modifier, times, moreModifiers });
    Object.freeze(this);
  }
}

/** An exact chance, as Python's Fraction in lowest terms. */
function _fraction(numerator, denominator) {
  return Object.freeze({ numerator, denominator });
}

/** Python's ``==`` between the values a caller passes: True and False are 1 and 0. */
function _pyEquals(a, b) {
  const number = (v) => typeof v === "number" || typeof v === "boolean";
  return number(a) && number(b) ? Number(a) === Number(b) : a === b;
}

function _diceText(spec) {
  const bonus = spec.bonus ? (spec.bonus > 0 ? "+" : "") + spec.bonus : "";
  return spec.kind === "d66" ? `d66${bonus}` : `${spec.number}d${spec.sides}${bonus}`;
}

/** The natural roll (bonus included) that the faces ``dice`` make on ``spec``. */
function _rolled(spec, dice, natural) {
  const d66 = spec.kind === "d66";
  const [count, sides] = d66 ? [2, 6] : [spec.number, spec.sides];
  if (!Array.isArray(dice)) throw new ArgumentTypeError("roll", "dice", dice, `must be a tuple of ${count} faces`);
  if (dice.length !== count) {
    throw new InvalidArgument("roll", "dice", dice, `must hold ${count} faces for ${_diceText(spec)}, not ${dice.length}`);
  }
  for (const face of dice) {
    if (typeof face !== "number" || !Number.isInteger(face)) {
      throw new ArgumentTypeError("roll", "dice", dice, "must hold whole numbers");
    }
    if (!(1 <= face && face <= sides)) {
      throw new InvalidArgument("roll", "dice", dice, `holds ${face}, which a d${sides} cannot show (1 to ${sides})`);
    }
  }
  const made = (d66 ? 10 * dice[0] + dice[1] : dice.reduce((sum, face) => sum + face, 0)) + spec.bonus;
  if (natural !== null && natural !== undefined && !_pyEquals(natural, made)) {
    throw new InvalidArgument("roll", "natural", natural, `differs from the dice's ${made}`);
  }
  return made;
}

/** Per dice table, every total its dice reach -> its row: what ``roll`` looks up first. */
function _rowsByTotal(rolls, tables) {
  const rows = (table, totals) => new Map([...totals].map(([total, i]) => [total, tables[table].rows[i]]));
  return new Map(Object.entries(rolls).map(([table, totals]) => [table, rows(table, totals)]));
}

/** The row of dice table ``table`` that covers ``total`` (modifiers included), or the row a
 * ``natural`` roll gives when the table has one for it; ``dice``, the faces as rolled, gives
 * the natural roll. */
export function roll(table, total, options) {
  if (options === undefined) {
    const row = _ROWS_BY_TOTAL.get(table)?.get(total);
    if (row !== undefined) return row;
  }
  if (_HAS_RESULTS_TABLES) return _rollWithResults(table, total, options ?? {}); // runtime_results.js
  let { natural = null, dice = null } = options ?? {};
  if (dice !== null && dice !== undefined) {
    @check(roll, table, table);
    natural = _rolled(DICE_TABLES[table].dice, dice, natural);
  }
  if (natural !== null && natural !== undefined) return _rollNatural(table, total, natural);
  const index = typeof table === "string" ? _ROLLS[table]?.get(_keyOf(total)) : undefined;
  if (index !== undefined) return DICE_TABLES[table].rows[index];
  return _rollBeyond(table, total);
}

function _rollNatural(table, total, natural) {
  @check(roll, table, table);
  @check(roll, natural, natural);
  const diceTable = DICE_TABLES[table];
  const whole = Math.trunc(Number(natural));
  const given = Number(natural) === whole ? diceTable.naturals.get(whole) : undefined;
  if (given === undefined) return roll(table, total);
  const row = diceTable.rows.find((r) => r.id === given);
  if (!diceTable.naturalAtLeast.has(whole)) return row;
  let reached;
  try {
    reached = roll(table, total);
  } catch (error) {
    if (error instanceof UnknownName) return row; // a total no row covers: the natural row stands
    throw error;
  }
  const reachedLow = reached.low ?? -_INF;
  const rowLow = row.low ?? -_INF;
  return reachedLow >= rowLow ? reached : row;
}

function _rollBeyond(table, total) {
  @check(roll, table, table);
  @check(roll, total, total);
  if (Number(total) !== Math.trunc(total)) throw new InvalidArgument("roll", "total", total, "must be a whole number");
  for (const row of DICE_TABLES[table].rows) {
    if ((row.low === null || total >= row.low) && (row.high === null || total <= row.high)) return row;
  }
  throw new UnknownName(`total of ${pyRepr(table)}`, total, [..._ROLLS[table].keys()]);
}
