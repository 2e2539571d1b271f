// What a careful person would write by hand for the JavaScript module's questions (issue 37's
// floors; bench/hand_written.py is the Python module's). Each function has the signature of
// the module's function and answers from plain Maps made from the module's data before timing,
// and checks its arguments as far as a hand-written function does: an unknown name or key
// throws. No argument is tested for its type beyond that, no warning is given.

function must(value, what) {
  if (value === undefined) throw new Error(`unknown ${what}`);
  return value;
}

/** ``modifier(name, items, context)`` from ``name -> [context, value -> item -> number]``. */
function modifier(m) {
  const tables = new Map();
  for (const [name, values] of Object.entries(m.MODIFIERS)) {
    const keys = new Set(Object.values(values).flatMap((byContext) => Object.keys(byContext)));
    const context = Object.keys(m.CONTEXTS).find((c) => m.CONTEXTS[c].some((v) => keys.has(v))) ?? null;
    const byValue = new Map();
    for (const key of ["", ...(context ? m.CONTEXTS[context] : [])]) {
      const flat = new Map(Object.keys(m.FEATURES).map((f) => [f, 0]));
      for (const [item, byContext] of Object.entries(values)) {
        const value = key in byContext ? byContext[key] : byContext[""] ?? 0;
        flat.set(item, typeof value === "number" ? value : 0);
      }
      byValue.set(key, flat);
    }
    tables.set(name, [context, byValue]);
  }
  return function modifier(name, items = [], context = {}) {
    const [contextName, byValue] = must(tables.get(name), "modifier");
    let values = byValue.get("");
    for (const key in context) {
      if (key !== contextName) throw new TypeError(`${name} takes ${contextName}`);
      values = must(byValue.get(context[key]), "context value");
    }
    let total = 0;
    for (const item of items) total += must(values.get(item), "item");
    return total;
  };
}

/** Every total from -30 to 90 that ``ask(total)`` answers, with its answer. */
function answers(ask) {
  const found = new Map();
  for (let total = -30; total <= 90; total++) {
    try {
      found.set(total, ask(total));
    } catch {
      // a total no row covers
    }
  }
  return found;
}

/** ``roll(table, total)`` on a dice table from ``table -> total -> row``. */
function roll(m) {
  const rows = new Map(Object.keys(m.DICE_TABLES).map((t) => [t, answers((total) => m.roll(t, total))]));
  return function roll(table, total) {
    return must(must(rows.get(table), "table").get(total), "total");
  };
}

/** ``roll(table, total, {column, natural})`` on a results table from ``table -> column ->
 * total -> result``; a number for ``column`` picks the column as the table rounds. */
function resultsRoll(m) {
  const tables = new Map();
  for (const [id, results] of Object.entries(m.RESULTS_TABLES ?? {})) {
    const byColumn = new Map(
      results.columns.map((c) => [c.id, answers((total) => m.roll(id, total, { column: c.id }))]),
    );
    const naturals = new Map(
      [...results.naturals.keys()].map((n) => [
        n,
        new Map(results.columns.map((c) => [c.id, m.roll(id, n, { column: c.id, natural: n })])),
      ]),
    );
    tables.set(id, { columns: results.columns, rounding: results.rounding, byColumn, naturals });
  }
  const pick = ({ columns, rounding }, value) => {
    if (rounding === "down") return columns.findLast((c) => c.value <= value) ?? columns[0];
    if (rounding === "up") return columns.find((c) => c.value >= value) ?? columns.at(-1);
    return columns.find((c) => (c.bound === "up_to" ? value <= c.value : value > c.value));
  };
  return function resultsRoll(table, total, { column, natural = null }) {
    const t = must(tables.get(table), "table");
    const id = typeof column === "string" ? column : pick(t, column).id;
    if (natural !== null && t.naturals.has(natural)) return t.naturals.get(natural).get(id);
    return must(must(t.byColumn.get(id), "column").get(total), "total");
  };
}

/** ``lineOfSight(name, places)`` from ``name -> feature -> number or BLOCKED`` (0 for a
 * feature the rule gives no value): the counted places' values added up, blocked by a BLOCKED
 * value or at the rule's threshold. */
function lineOfSight(m) {
  const rules = new Map();
  for (const [id, rule] of Object.entries(m.SIGHTS ?? {})) {
    const value = (f) => (typeof rule.values[f] === "number" || rule.values[f] === m.BLOCKED ? rule.values[f] : 0);
    rules.set(id, { rule, values: new Map(Object.keys(m.FEATURES).map((f) => [f, value(f)])) });
  }
  return function lineOfSight(name, places) {
    const { rule, values } = must(rules.get(name), "sight rule");
    const first = rule.counts === "both" ? 0 : 1;
    const last = places.length - (rule.counts === "between" ? 1 : 0);
    const byPlace = [];
    let hindrance = 0;
    let blocked = false;
    for (let i = 0; i < places.length; i++) {
      const counted = first <= i && i < last;
      let here = 0;
      for (const feature of places[i]) {
        const value = must(values.get(feature), "feature");
        if (!counted || here === m.BLOCKED) continue;
        here = value === m.BLOCKED ? value : here + value;
      }
      byPlace.push(here);
      if (here === m.BLOCKED) blocked = true;
      else hindrance += here;
    }
    if (rule.blocksAt !== null && (rule.blocksAbove ? hindrance > rule.blocksAt : hindrance >= rule.blocksAt)) {
      blocked = true;
    }
    return { hindrance, blocked, byPlace };
  };
}

/** The floors of a module's questions, for those its data has. */
/** ``moveCost(mode, features, {distance})`` from ``mode -> feature -> cost per distance``: the
entry cost and the features' costs added up, PROHIBITED before IMPASSABLE, times ``distance``. */
function moveCost(m) {
  const costs = new Map(
    Object.keys(m.MODES).map((mode) => [
      mode,
      new Map(Object.values(m.FEATURES).map((f) => [f.id, f.costs[mode]])),
    ]),
  );
  return function moveCost(mode, features = [], { distance = 1 } = {}) {
    const byFeature = must(costs.get(mode), "mode");
    let total = m.ENTRY_COST;
    let impassable = false;
    for (const feature of features) {
      const cost = must(byFeature.get(feature), "feature");
      if (cost === m.PROHIBITED) return cost;
      if (cost === m.IMPASSABLE) impassable = true;
      else total += cost;
    }
    return impassable ? m.IMPASSABLE : total * distance;
  };
}

const HEX = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

/** A ``size`` x ``size`` hex map of the module's terrain features (axial ``[q, r]`` keys to
 * one feature each, the same map every run): the board ``cheapestRoute`` is asked on. */
function hexMap(m, size) {
  const terrain = ["clear", "clear", "clear", "forest", "hills", "marsh", "town", "lake"];
  const places = new Map();
  for (let q = 0; q < size; q++) {
    for (let r = 0; r < size; r++) {
      const feature = terrain[(q * 7 + r * 13 + q * r) % terrain.length];
      if (feature in m.FEATURES) places.set([q, r], [feature]);
    }
  }
  return places;
}

/** ``cheapestRoute(places, mode, start, goal)``'s total: a plain Dijkstra on a hex map with a
 * binary heap, board building included (each place's cost from ``mode -> feature -> cost``,
 * IMPASSABLE left out), as bench/hand_written.py's ``cheapest_total`` does for Python. */
function cheapestRoute(m) {
  return function cheapestRoute(places, mode, start, goal) {
    const cost = new Map();
    for (const [[q, r], features] of places) {
      let total = m.ENTRY_COST;
      for (const f of features) {
        const c = must(m.FEATURES[f], "feature").costs[mode];
        total = c === m.IMPASSABLE || c === m.PROHIBITED || total === null ? null : total + c;
      }
      if (total !== null) cost.set(`${q},${r}`, total);
    }
    const key = ([q, r]) => `${q},${r}`;
    const best = new Map([[key(start), 0]]);
    const done = new Set();
    const heap = [[0, start[0], start[1]]];
    const push = (item) => {
      heap.push(item);
      for (let i = heap.length - 1; i > 0; ) {
        const up = (i - 1) >> 1;
        if (heap[up][0] <= heap[i][0]) break;
        [heap[up], heap[i]] = [heap[i], heap[up]];
        i = up;
      }
    };
    const pop = () => {
      const top = heap[0];
      const last = heap.pop();
      if (heap.length > 0) {
        heap[0] = last;
        for (let i = 0; ; ) {
          const [a, b] = [2 * i + 1, 2 * i + 2];
          let least = i;
          if (a < heap.length && heap[a][0] < heap[least][0]) least = a;
          if (b < heap.length && heap[b][0] < heap[least][0]) least = b;
          if (least === i) break;
          [heap[least], heap[i]] = [heap[i], heap[least]];
          i = least;
        }
      }
      return top;
    };
    const goalKey = key(goal);
    while (heap.length > 0) {
      const [total, q, r] = pop();
      const here = `${q},${r}`;
      if (done.has(here)) continue;
      done.add(here);
      if (here === goalKey) return total;
      for (const [dq, dr] of HEX) {
        const there = `${q + dq},${r + dr}`;
        const step = cost.get(there);
        if (step === undefined || done.has(there)) continue;
        if (total + step < (best.get(there) ?? Infinity)) {
          best.set(there, total + step);
          push([total + step, q + dq, r + dr]);
        }
      }
    }
    return null;
  };
}

export function handWritten(m) {
  return {
    modifier: modifier(m),
    roll: roll(m),
    resultsRoll: resultsRoll(m),
    lineOfSight: lineOfSight(m),
    moveCost: moveCost(m),
    cheapestRoute: cheapestRoute(m),
    hexMap20: hexMap(m, 20),
  };
}
