// ---- the page (rulesdsl/web/page.js): the module above answers, this only asks and shows ----

// ---- the house-rule workshop's derived tables. A change to a modifier's value or to the rows
// of a dice table re-runs the module with its MODIFIERS, DICE_TABLES and _ROLLS wrapped in
// these calls (declared here, so hoisted above the module's data): each rebuilds what the
// compiler derives from the changed cells, as rulesdsl/codegen/plan/data.py and
// rulesdsl/semantics/tables.py do (dice_chances, dice_index).

/** MODIFIERS with each change ``{modifier, item, key, value}`` made. */
function _workshopModifiers(changes, modifiers) {
  const out = { ...modifiers };
  for (const { modifier, item, key, value } of changes) {
    out[modifier] = _dict({ ...out[modifier], [item]: _dict({ ...out[modifier][item], [key]: value }) });
  }
  return _dict(out);
}

/** The rows ``[{id, low, high}]`` once ``total`` gives row ``id``: the total must be at the
 * edge of its row and go to the row next to it, which keeps a total; else null. */
function _workshopMove(rows, total, id) {
  const from = rows.findIndex((r) => (r.low === null || total >= r.low) && (r.high === null || total <= r.high));
  const to = rows.findIndex((r) => r.id === id);
  if (from < 0 || to < 0 || total < 0) return null;
  if (from === to) return rows;
  const next = rows.map((r) => ({ ...r }));
  const [a, b] = [next[from], next[to]];
  if (to === from - 1 && total === a.low && a.high !== total) [b.high, a.low] = [total, total + 1];
  else if (to === from + 1 && total === a.high && a.low !== total) [b.low, a.high] = [total, total - 1];
  else return null;
  return next;
}

/** The rows with each change ``{total, row}`` made in order, and the changes that applied. */
function _workshopRanges(rows, changes) {
  let now = rows;
  const applied = [];
  for (const change of changes) {
    const next = _workshopMove(now, change.total, change.row);
    if (next === null) continue;
    now = next;
    applied.push(change);
  }
  return { rows: now, applied };
}

/** Every natural roll of dice ``spec`` (its bonus in) -> the ways to roll it, and all ways
 * (the dice form's chances too). */
function _diceWays(spec) {
  let ways = new Map([[spec.bonus, 1]]);
  if (spec.kind === "d66") {
    ways = new Map();
    for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) ways.set(10 * a + b + spec.bonus, 1);
    return { ways, all: 36 };
  }
  for (let die = 0; die < spec.number; die++) {
    const next = new Map();
    for (const [sum, count] of ways) for (let face = 1; face <= spec.sides; face++) next.set(sum + face, (next.get(sum + face) ?? 0) + count);
    ways = next;
  }
  return { ways, all: spec.sides ** spec.number };
}

function _gcd(a, b) {
  return b ? _gcd(b, a % b) : a;
}

/** semantics.tables.roll: the first row covering ``total``, or the row ``natural`` gives. */
function _workshopRoll(table, rows, total, natural) {
  const row = rows.find((r) => (r.low === null || total >= r.low) && (r.high === null || total <= r.high)) ?? null;
  const id = table.naturals.get(natural);
  if (id === undefined) return row;
  const given = rows.find((r) => r.id === id) ?? null;
  if (!table.naturalAtLeast.has(natural) || row === null || given === null) return given ?? row;
  const low = (r) => r.low ?? -Infinity;
  return low(given) > low(row) ? given : row; // Python's max keeps the first of equals
}

/** Each row's exact chance with ``shift`` added to every natural roll (dice_chances). */
function _workshopChances(table, rows, shift) {
  const { ways, all } = _diceWays(table.dice);
  const counts = new Map(rows.map((r) => [r.id, 0]));
  for (const [natural, count] of ways) {
    const row = _workshopRoll(table, rows, natural + shift, natural);
    if (row !== null) counts.set(row.id, counts.get(row.id) + count);
  }
  return new Map([...counts].map(([id, n]) => [id, _fraction(n / _gcd(n, all), all / _gcd(n, all))]));
}

/** DICE_TABLES with each change ``{table, total, row}`` made: the rows' totals and chances. */
function _workshopDice(changes, tables) {
  const out = { ...tables };
  for (const id of new Set(changes.map((c) => c.table))) {
    const t = tables[id];
    const { rows } = _workshopRanges(t.rows, changes.filter((c) => c.table === id));
    const alone = _workshopChances(t, rows, 0);
    const shifted = Object.entries(t.modifiers).map(([m, value]) => [m, _workshopChances(t, rows, value)]);
    const made = rows.map((r, i) => {
      const old = t.rows[i];
      const chanceWith = _dict(Object.fromEntries(shifted.map(([m, chances]) => [m, chances.get(r.id)])));
      return new DiceRow(old.id, old.labels, r.low, r.high, old.effects, alone.get(r.id), chanceWith);
    });
    out[id] = new DiceTable(t.id, t.labels, t.dice, t.modifiers, Object.freeze(made), t.naturals, t.naturalAtLeast);
  }
  return _dict(out);
}

/** _ROLLS with the changed tables' totals: every total the dice reach alone or with one of the
 * table's modifiers, in order -> the index of the first row covering it (dice_index). */
function _workshopRolls(changes, tables, rolls) {
  const out = { ...rolls };
  for (const id of new Set(changes.map((c) => c.table))) {
    const t = tables[id];
    const plain = [..._diceWays(t.dice).ways.keys()];
    const totals = new Set();
    for (const shift of [0, ...Object.values(t.modifiers)]) for (const n of plain) totals.add(n + shift);
    const index = new Map();
    for (const total of [...totals].sort((a, b) => a - b)) {
      const at = t.rows.findIndex((r) => (r.low === null || total >= r.low) && (r.high === null || total <= r.high));
      if (at >= 0) index.set(total, at);
    }
    out[id] = index;
  }
  return _dict(out);
}

/** The workshop's changes as the page lists them, one string: what a generation is made for. */
function _workshopListed() {
  return JSON.stringify([...document.querySelectorAll("#workshop li[data-kind]")].map((li) => li.dataset.change));
}

page: {
  // Each run of this script is a generation: the page's own at load, then one per change made
  // in the house-rule workshop (the module re-imported with the changed cells, below). A new
  // generation ends the listeners of the one before. A generation made for a list of changes
  // that has changed again while its module loaded gives way to the later one (two quick
  // changes may load out of order).
  const MADE_FOR = null; // the workshop writes in its _workshopListed()
  if (MADE_FOR !== null && MADE_FOR !== _workshopListed()) break page;
  document.dispatchEvent(new Event("rulesdsl:generation"));
  const LIFE = new AbortController();
  document.addEventListener("rulesdsl:generation", () => LIFE.abort(), { once: true });
  const on = (target, type, listener) => target?.addEventListener(type, listener, { signal: LIFE.signal });

  const PAGE = JSON.parse(document.getElementById("page-data").textContent);
  const W = PAGE.words;
  const LANG = PAGE.lang;
  const NUMBER = new Intl.NumberFormat(LANG, { maximumFractionDigits: 4 });
  const PERCENT = new Intl.NumberFormat(LANG, { style: "percent", maximumFractionDigits: 1 });

  const say = (template, fields) => template.replace(/\{(\w+)\}/g, (_, key) => fields[key]);
  const labelled = (labels, fallback) => (labels && (labels[LANG] ?? Object.values(labels)[0])) || fallback;

  // a module without results tables has no Result class
  const isResult = (value) => typeof Result === "function" && value instanceof Result;

  /** The answer as plain data, the same shape for every target (the tests compare it). */
  function canonical(value) {
    if (value === null || value === undefined) return { none: true };
    if (value instanceof Marker) return { marker: value.value };
    if (value instanceof Quantity) return { number: value.value, unit: value.unit };
    if (value instanceof Outcome) return { outcome: value.id };
    if (value instanceof DiceRow) return { row: value.id };
    if (isResult(value)) return { result: value.id, column: value.column };
    if (typeof value === "boolean") return { bool: value };
    if (typeof value === "number") return { number: value };
    if (_isRecord(value)) {  // a table cell's rate, span or dice: its fields, numbers plain
      const fields = Object.entries(value).filter(([k]) => k !== "kind");
      return { record: value.kind, ...Object.fromEntries(fields.map(([k, v]) => [k, v instanceof Quantity ? v.value : v])) };
    }
    return { text: String(value) };
  }

  function _isRecord(value) {
    return value?.constructor === Object && typeof value.kind === "string";
  }

  /** A record as the Python module's ``str`` writes it. */
  function recordText(r) {
    switch (r.kind) {
      case "rate":
        return `${text(r.amount)} per ${text(r.per)}`;
      case "span":
        return `${NUMBER.format(r.low)}–${NUMBER.format(r.high)}${r.unit ? ` ${r.unit}` : ""}`;
      case "dice":
        return `${r.number}d${r.sides}${r.bonus ? (r.bonus > 0 ? `+${r.bonus}` : r.bonus) : ""}`;
      default:
        return JSON.stringify(r);
    }
  }

  function text(value) {
    if (value === null || value === undefined) return "—";
    if (value instanceof Marker) return W[value.value] ?? value.value;
    if (value instanceof Quantity) return `${NUMBER.format(value.value)} ${value.unit}`;
    if (value instanceof Outcome) {
      const worth = typeof value.value === "number" ? ` (${NUMBER.format(value.value)})` : "";
      return labelled(value.labels, value.label) + worth;
    }
    if (value instanceof DiceRow || isResult(value)) return labelled(value.labels, value.id);
    if (typeof value === "boolean") return value ? W.yes : W.no;
    if (typeof value === "number") return NUMBER.format(value);
    if (_isRecord(value)) return recordText(value);
    return String(value);
  }

  /** Shows what ``ask`` answers in ``output``, or why there is no answer. */
  function answer(output, ask) {
    try {
      const value = ask();
      output.dataset.answer = JSON.stringify(canonical(value));
      output.textContent = text(value);
      output.classList.remove("error");
      return value;
    } catch (error) {
      output.dataset.answer = JSON.stringify({ error: error.code ?? error.name });
      output.textContent = say(W.not_answered, { message: error.message });
      output.classList.add("error");
      return undefined;
    }
  }

  // ---- a unit's state (issue 40): the form's state fields, on the page of rules with states // [state fields]
 // [state fields]
  /** The state given in ``form``: each state's number; null when none is given, undefined // [state fields]
   * when only some are (the module wants every state). */ // [state fields]
  function stateOf(form) { // [state fields]
    const fields = [...form.querySelectorAll("input[data-state]")]; // [state fields]
    const given = fields.filter((field) => field.value !== ""); // [state fields]
    if (given.length === 0) return null; // [state fields]
    if (given.length < fields.length) return undefined; // [state fields]
    return Object.fromEntries(fields.map((field) => [field.dataset.state, Number(field.value)])); // [state fields]
  } // [state fields]
 // [state fields]
  /** ``output`` asks for a field not given yet (``word``) rather than answer. */ // [state fields]
  function needs(output, word) { // [state fields]
    delete output.dataset.answer; // [state fields]
    output.textContent = word; // [state fields]
    output.classList.remove("error"); // [state fields]
  } // [state fields]
 // [state fields]
  /** The state's values as the page words them: ``Speed 4, Altitude 3``. */ // [state fields]
  const stateText = (state) => PAGE.states.map((s) => `${s.label} ${NUMBER.format(state[s.id])}`).join(", "); // [state fields]
 // [state fields]
  // ---- modifiers: the ticked items, the context, the values given -> the total, item by item
  function modifierForm(form) {
    const name = form.dataset.modifier;
    const data = PAGE.modifiers.find((m) => m.id === name);
    const items = [...form.querySelectorAll("input[name=item]:checked")].map((i) => i.value);
    const context = {};
    for (const select of form.querySelectorAll("select[data-context]")) {
      if (select.value) context[select.dataset.context] = select.value;
    }
    const given = (among) => {
      const values = {};
      for (const input of form.querySelectorAll("input[data-given]")) {
        const entry = data.given.find((g) => g.name === input.dataset.given);
        if (input.value !== "" && entry.items.some((item) => among.includes(item))) {
          values[input.dataset.given] = Number(input.value);
        }
      }
      return values;
    };
    const state = data.banded ? stateOf(form) : null; // [state fields]
    if (data.banded && !state) { // [state fields]
      needs(form.querySelector("output.answer"), W.state_needed); // [state fields]
      form.querySelector("ul.parts").replaceChildren(); // [state fields]
      return; // [state fields]
    } // [state fields]
    if (state) context.state = state; // [state fields]
    answer(form.querySelector("output.answer"), () => modifier(name, items, { ...context, ...given(items) }));
    const parts = form.querySelector("ul.parts");
    parts.replaceChildren();
    for (const item of items) {
      const li = document.createElement("li");
      const label = data.items.find((i) => i.id === item).label;
      const out = document.createElement("output");
      answer(out, () => modifier(name, [item], { ...context, ...given([item]) }));
      li.append(`${label}${W.colon} `, out);
      parts.append(li);
    }
    if (data.best && items.length) {
      const li = document.createElement("li");
      li.textContent = W.best;
      parts.append(li);
    }
  }

  // ---- dice tables: the outcome of every natural roll with the modifiers, its chance, a roll

  function shiftOf(form) {
    const ticked = [...form.querySelectorAll("input[name=dice-modifier]:checked")];
    return ticked.reduce((sum, box) => sum + Number(box.value), Number(form.elements.shift.value || 0));
  }

  /** A dice table's, or a results table's with its column and column shift. */
  function tableOf(form) {
    const id = form.dataset.dice;
    if (!form.elements.column) return { table: DICE_TABLES[id], options: {} };
    const ticked = [...form.querySelectorAll("input[name=dice-modifier]:checked")];
    const shift = ticked.reduce((sum, box) => sum + Number(box.dataset.shift ?? 0), 0);
    return { table: RESULTS_TABLES[id], options: { column: strengthsOf(form) ?? form.elements.column.value, shift } };
  }

  /** The two strengths given (the module finds their column), or null. */
  function strengthsOf(form) {
    const { attacker, defender } = form.elements;
    if (!attacker || attacker.value === "" || defender.value === "") return null;
    return [Number(attacker.value), Number(defender.value)];
  }

  function diceForm(form) {
    const id = form.dataset.dice;
    const { table, options } = tableOf(form);
    const shift = shiftOf(form);
    const { ways, all } = _diceWays(table.dice);
    const byRow = new Map();
    for (const [natural, count] of ways) {
      let row;
      try {
        row = roll(id, natural + shift, { ...options, natural });
      } catch (error) {
        continue;
      }
      const seen = byRow.get(row.id) ?? { rolls: [], count: 0 };
      if (row.column) form.elements.column.value = row.column; // the column the strengths pick
      seen.rolls.push(natural);
      seen.count += count;
      byRow.set(row.id, seen);
    }
    for (const tr of form.querySelectorAll("tr[data-row]")) {
      const seen = byRow.get(tr.dataset.row) ?? { rolls: [], count: 0 };
      const low = Math.min(...seen.rolls), high = Math.max(...seen.rolls);
      tr.querySelector(".totals").textContent = seen.rolls.length === 0 ? "—" : low === high ? `${low}` : `${low}–${high}`;
      const divisor = _gcd(seen.count, all) || 1;
      const cell = tr.querySelector(".chance");
      cell.dataset.answer = JSON.stringify({ fraction: [seen.count / divisor, all / divisor] });
      cell.textContent = seen.count ? `${seen.count / divisor}/${all / divisor} (${PERCENT.format(seen.count / all)})` : "—";
    }
    const total = form.elements.total.value;
    const natural = form.elements.natural.value === "" ? null : Number(form.elements.natural.value);
    if (total !== "") answer(form.querySelector("output.answer"), () => roll(id, Number(total), { ...options, natural }));
  }

  function rollDice(form) {
    const { table, options } = tableOf(form);
    const spec = table.dice;
    const count = spec.kind === "d66" ? 2 : spec.number;
    const sides = spec.kind === "d66" ? 6 : spec.sides;
    const random = new Uint32Array(count);
    crypto.getRandomValues(random);
    const faces = [...random].map((r) => 1 + (r % sides));
    const natural = (spec.kind === "d66" ? 10 * faces[0] + faces[1] : faces.reduce((a, b) => a + b, 0)) + spec.bonus;
    const total = natural + shiftOf(form);
    form.elements.total.value = String(total);
    form.elements.natural.value = String(natural);
    answer(form.querySelector("output.answer"), () => roll(table.id, total, { ...options, dice: faces }));
    form.querySelector("output.rolled").textContent = say(W.rolled, { faces: faces.join(" + "), natural, total });
  }

  // ---- a place: a unit type (and kind of move) and the features of a place -> what it costs,
  // whether it may enter, end there or must stop, and the rolls it makes due
  function placeForm(form) {
    const arg = (name) => form.querySelector(`[data-arg="${name}"]`)?.value ?? "";
    const number = (name) => (arg(name) === "" ? null : Number(arg(name)));
    const mode = arg("mode");
    const features = [...form.querySelectorAll("input[name=feature]:checked")].map((box) => box.value);
    const move = arg("move") || null;
    const inputs = {};
    for (const field of form.querySelectorAll("input[data-input]")) inputs[field.dataset.arg] = number(field.dataset.arg);
    const options = { allowance: number("allowance"), move, ...inputs };
    const state = stateOf(form); // [state fields]
    const rolled = PAGE.place.roll_bands && state ? { state } : {}; // a roll in a band reads the unit's state // [state fields]
    const asks = {
      move_cost: () => moveCost(mode, features, { ...options, distance: number("distance") ?? 1 }),
      can_enter: () => canEnter(mode, features, { ...options, available: number("available") }),
      can_end: () => canEnd(mode, features),
      must_stop: () => mustStop(mode, features),
      rolls_due: () => rollsDue(mode, features, { move, on: arg("on") || "entering" }), // [no state fields]
      rolls_due: () => rollsDue(mode, features, { move, on: arg("on") || "entering", ...rolled }), // [state fields]
    };
    for (const output of form.querySelectorAll("output[data-ask]")) {
      if (output.dataset.ask === "rolls_due" && PAGE.place.roll_bands && state === undefined) { // [state fields]
        needs(output, W.state_needed); // [state fields]
        continue; // [state fields]
      } // [state fields]
      const dues = answer(output, asks[output.dataset.ask]);
      if (output.dataset.ask === "rolls_due" && Array.isArray(dues)) {
        output.dataset.answer = JSON.stringify({ rolls: dues.map((due) => [due.roll, due.modifier]) });
        const named = dues.map((due) => `${PAGE.place.rolls[due.roll] ?? due.roll} (${NUMBER.format(due.modifier)})`);
        output.textContent = named.join("; ") || W.none;
      }
    }
    // a unit type with facing: the places it goes straight before a turn at the allowance as
    // its speed (the module's reachable, asked on a board of one place)
    for (const output of form.querySelectorAll("output[data-facing]")) {
      const rule = FACINGS[mode];
      const speed = number("allowance");
      const board = () => new Board(new Map([[[0, 0], []]]), { grid: rule.grid });
      answer(output, () => (rule && speed !== null ? reachable(board(), mode, [[0, 0], 0], speed, { move }).turnMode : null));
    }
    // a place's sight value: its own on a line of sight that crosses it (``distance`` long)
    for (const output of form.querySelectorAll("output[data-sight]")) {
      const rule = SIGHTS[output.dataset.sight];
      const crossed = rule.crossed ? [0, number("distance") ?? 1, 0] : null;
      answer(output, () => lineOfSight(rule.id, [[], features, []], { crossed, mode }).byPlace[1]); // [no state fields]
      const banded = PAGE.place.sights.find((s) => s.id === rule.id).band; // the viewer's state // [state fields]
      if (banded && !state) needs(output, W.state_needed); // [state fields]
      else answer(output, () => lineOfSight(rule.id, [[], features, []], { crossed, mode, state: banded ? state : null }).byPlace[1]); // [state fields]
    }
  }

  // ---- a line of sight across places: each place's features (two at most), the length the
  // line crosses in each where the rule's values are steps, a viewer, whole-map conditions
  function lineForm(form) {
    const arg = (name) => form.querySelector(`[data-arg="${name}"]`).value;
    const rule = PAGE.place.sights.find((s) => s.id === arg("rule"));
    form.classList.toggle("crossing", rule.crossed);
    const places = [...form.querySelectorAll("ol.places > li")].map((li) => ({
      features: [...li.querySelectorAll("select")].map((select) => select.value).filter(Boolean),
      crossed: Number(li.querySelector("input[name=crossed]").value || 0),
    }));
    while (places.length && places.at(-1).features.length === 0) places.pop(); // the rest left empty
    const conditions = [...form.querySelectorAll("input[name=condition]:checked")].map((box) => box.value);
    const options = { mode: arg("mode") || null, crossed: rule.crossed ? places.map((p) => p.crossed) : null };
    if (conditions.length) options.conditions = conditions;
    const output = form.querySelector("output.answer");
    if (rule.band) options.state = stateOf(form); // the viewer's, for a rule in a band of it // [state fields]
    if (rule.band && !options.state) return needs(output, W.state_needed); // [state fields]
    const sight = answer(output, () => lineOfSight(rule.id, places.map((p) => p.features), options));
    if (sight === undefined) return;
    output.dataset.answer = JSON.stringify({ number: sight.hindrance, blocked: sight.blocked });
    output.textContent = NUMBER.format(sight.hindrance) + (sight.blocked ? ` — ${W.blocked}` : "");
  }

  /** The route calculator's route: each row's action, then its place (its features and the
   * edge's crossed into it); an action alone after the last place (a turn) ends it. */
  function routeOf(form) {
    const route = [];
    for (const li of form.querySelectorAll("ol.places > li")) {
      const picked = (name) => [...li.querySelectorAll(`select[name=${name}]`)].map((s) => s.value).filter(Boolean);
      const [act] = picked("act");
      const features = picked("place");
      if (!act && !features.length) break;
      if (act) route.push(act);
      if (features.length) route.push({ features, edge: picked("edge") });
    }
    return route;
  }

  /** The grid step each heading looks along, counter-clockwise from +x (hex: axial). */
  const HEADINGS = {
    6: [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]],
    4: [[1, 0], [0, -1], [-1, 0], [0, 1]],
    8: [[1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1], [1, 1]],
  };

  /** The module's routeCost of a route laid on a board as the worked examples' replay lays it
   * (codegen/python/examples.py): places in a line, each next to the one before; for a unit
   * type with facing, its grid from (0, 0) facing heading 0, each place along its move's grid
   * step, each turn one heading to the left. */
  function routeAsked(mode, route, options) {
    const facing = typeof FACINGS !== "undefined" && Object.hasOwn(FACINGS, mode) ? FACINGS[mode] : null;
    if (facing === null) {
      const places = route.filter((p) => typeof p !== "string");
      const board = new Board(new Map(places.map((p, i) => [i, p.features])), {
        edges: new Map(places.slice(1).map((p, i) => [[i, i + 1], p.edge])),
        neighbours: (i) => [i - 1, i + 1].filter((j) => j >= 0 && j < places.length),
      });
      return routeCost(board, mode, places.map((_, i) => i), options);
    }
    const count = facing.headings;
    let [place, heading, how] = [[0, 0], 0, "forward"];
    const places = new Map([[place, route[0].features]]);
    const edges = new Map();
    const walked = [[place, heading]];
    for (const item of route.slice(1)) {
      if (item === "turn") {
        heading = (heading + 1) % count;
        walked.push([place, heading]);
        continue;
      }
      if (typeof item === "string") {
        how = item;
        continue;
      }
      const side = { forward: 0, backward: Math.floor(count / 2), sideslip: 1 }[how];
      const [dq, dr] = HEADINGS[count][(heading + side) % count];
      const there = [place[0] + dq, place[1] + dr];
      places.set(there, item.features);
      edges.set([place, there], item.edge);
      [place, how] = [there, "forward"];
      walked.push([place, heading]);
    }
    return routeCost(new Board(places, { edges, grid: facing.grid }), mode, walked, options);
  }

  function routeForm(form) {
    const arg = (name) => form.querySelector(`[data-arg="${name}"]`)?.value ?? "";
    const options = {};
    if (arg("allowance") !== "") options.allowance = Number(arg("allowance"));
    if (arg("move")) options.move = arg("move");
    const route = routeOf(form);
    const output = form.querySelector("output.answer");
    if (!route.some((p) => typeof p !== "string")) {  // no place given yet
      delete output.dataset.answer;
      output.textContent = W.answer_here;
      return;
    }
    const state = stateOf(form); // the state at the start, the wind the heading it blows from // [state fields]
    if (state === undefined) return needs(output, W.state_needed); // [state fields]
    if (state) options.state = state; // [state fields]
    const rule = typeof FACINGS !== "undefined" ? FACINGS[arg("mode")] : undefined; // [state fields]
    const strong = rule?.strengths != null || rule?.strengthSpeeds != null; // the rules read the wind's strength // [state fields]
    if (arg("wind") !== "") options.wind = arg("strength") ? [Number(arg("wind")), arg("strength")] : Number(arg("wind")); // [state fields]
    if ([rule?.tack, rule?.wear, rule?.sail].some((x) => x != null) && options.wind === undefined) return needs(output, W.wind_needed); // [state fields]
    if (strong && options.wind !== undefined && !Array.isArray(options.wind)) return needs(output, W.strength_needed); // [state fields]
    const found = answer(output, () => routeAsked(arg("mode"), route, options));
    if (found === undefined) return;
    const total = found.total instanceof Marker ? { marker: found.total.value } : { number: found.total };
    output.dataset.answer = JSON.stringify({ ...total, legal: found.legal, reason: found.reason });
    output.textContent = text(found.total) + (found.legal ? "" : ` — ${found.reason}`);
    if (!found.state) return; // the state after the route, when one was given // [state fields]
    output.dataset.answer = JSON.stringify({ ...JSON.parse(output.dataset.answer), state: found.state }); // [state fields]
    output.textContent += ` — ${say(W.state_after, { state: stateText(found.state) })}`; // [state fields]
  }

  /** The line and route calculators' place lists: none, then the place calculator's features by layer
   * (filled once: a later generation keeps what was picked). */
  for (const select of document.querySelectorAll("#line select[name=place], #route select[name=place]")) {
    if (select.options.length) continue;
    select.append(new Option("—", ""));
    for (const layer of PAGE.place.layers) {
      const group = document.createElement("optgroup");
      group.label = layer.label;
      group.append(...layer.features.map((f) => new Option(f.label, f.id)));
      select.append(group);
    }
  }

  // ---- a path of straight and diagonal steps on the grid, in one of its units
  function pathForm(form) {
    const arg = (name) => form.querySelector(`[data-arg="${name}"]`).value;
    answer(form.querySelector("output.answer"), () => pathCost(arg("steps").trim(), { unit: arg("unit") }));
  }

  // ---- decisions and steps
  function inputs(form) {
    const given = {};
    for (const field of form.querySelectorAll("[data-input]")) {
      const kind = field.dataset.kind;
      if (kind === "flag") given[field.dataset.input] = field.checked;
      else if (kind === "items") given[field.dataset.input] = [...(given[field.dataset.input] ?? []), ...(field.checked ? [field.value] : [])];
      else if (kind === "key") given[field.dataset.input] = field.value;
      else given[field.dataset.input] = field.value === "" ? undefined : Number(field.value);
    }
    return given;
  }

  function decisionForm(form) {
    answer(form.querySelector("output.answer"), () => DECISIONS[form.dataset.decision](inputs(form)));
  }

  function stepForm(form) {
    const [value] = Object.values(inputs(form));
    answer(form.querySelector("output.answer"), () => STEPS[form.dataset.step](value));
  }

  const CALCULATORS = {
    place: placeForm,
    line: lineForm,
    route: routeForm,
    path: pathForm,
    modifier: modifierForm,
    dice: diceForm,
    decision: decisionForm,
    step: stepForm,
  };

  function update(form) {
    for (const [kind, run] of Object.entries(CALCULATORS)) if (form.dataset[kind] !== undefined) run(form);
  }

  for (const form of document.querySelectorAll("form.calc")) {
    on(form, "input", () => update(form));
    on(form, "change", () => update(form));
    on(form, "submit", (event) => event.preventDefault());
    on(form.querySelector("button.roll"), "click", () => rollDice(form));
    // a column picked by hand wins over the strengths given before
    on(form.elements.column, "change", () => {
      for (const field of form.querySelectorAll("input[name=attacker], input[name=defender]")) field.value = "";
    });
    update(form);
  }

  // ---- worked examples: "try it" fills the calculator with the example's question
  function fillState(form, state) { // [state fields]
    for (const field of form.querySelectorAll("input[data-state]")) field.value = String(state?.[field.dataset.state] ?? ""); // [state fields]
  } // [state fields]
 // [state fields]
  function fill(form, example) {
    const kwargs = example.kwargs;
    switch (example.kind) {
      case "modifier": {
        const items = example.args.slice(1);
        // a value given for a factor names it too (``perk=2``)
        for (const box of form.querySelectorAll("input[name=item]")) box.checked = items.includes(box.value) || box.value in kwargs;
        for (const select of form.querySelectorAll("select[data-context]")) select.value = kwargs[select.dataset.context] ?? "";
        for (const input of form.querySelectorAll("input[data-given]")) input.value = kwargs[input.dataset.given] ?? 0;
        break;
      }
      case "roll":
      case "chance": {  // a roll's total, or a row's chance with the modifier ticked
        const chance = example.kind === "chance";
        for (const box of form.querySelectorAll("input[name=dice-modifier]")) box.checked = chance && box.dataset.id === kwargs.modifier;
        if (form.elements.column) {
          const column = kwargs.column ?? (chance ? form.elements.column.value : example.args[2]);
          const [attacker, defender] = Array.isArray(column) ? column : ["", ""];
          if (form.elements.attacker) {
            form.elements.attacker.value = String(attacker);
            form.elements.defender.value = String(defender);
          }
          if (!Array.isArray(column)) form.elements.column.value = column;
        }
        form.elements.shift.value = "0";
        form.elements.total.value = chance ? "" : String(example.args[1]);
        form.elements.natural.value = kwargs.natural ?? "";
        break;
      }
      case "decision":
        for (const field of form.querySelectorAll("[data-input]")) {
          const value = kwargs[field.dataset.input];
          if (value === undefined) continue;
          if (field.dataset.kind === "flag") field.checked = Boolean(value);
          else field.value = String(value);
        }
        break;
      case "step":
        form.querySelector("[data-input]").value = String(example.args[0]);
        break;
      case "line_of_sight": {
        const [rule, ...places] = example.args;
        form.querySelector('[data-arg="rule"]').value = rule;
        form.querySelector('[data-arg="mode"]').value = kwargs.mode ?? "";
        for (const box of form.querySelectorAll("input[name=condition]")) box.checked = (kwargs.conditions ?? []).includes(box.value);
        form.querySelectorAll("ol.places > li").forEach((li, i) => {
          const selects = li.querySelectorAll("select");
          selects.forEach((select, j) => (select.value = places[i]?.[j] ?? ""));
          li.querySelector("input[name=crossed]").value = String(kwargs.crossed?.[i] ?? 0);
        });
        fillState(form, kwargs.state); // [state fields]
        break;
      }
      case "route_cost": {
        const [mode, ...route] = example.args;
        form.querySelector('[data-arg="mode"]').value = mode;
        const move = form.querySelector('[data-arg="move"]');
        if (move) move.value = kwargs.move ?? "";
        form.querySelector('[data-arg="allowance"]').value = kwargs.allowance ?? "";
        fillState(form, kwargs.state); // [state fields]
        const wind = form.querySelector('[data-arg="wind"]'); // [state fields]
        if (wind) wind.value = String((Array.isArray(kwargs.wind) ? kwargs.wind[0] : kwargs.wind) ?? ""); // [state fields]
        const strength = form.querySelector('[data-arg="strength"]'); // [state fields]
        if (strength) strength.value = Array.isArray(kwargs.wind) ? kwargs.wind[1] : ""; // [state fields]
        const rows = [];  // each row: its action and its place
        for (const item of route) {
          if (typeof item === "string") rows.push({ act: item });
          else if (rows.length && rows.at(-1).place === undefined) rows.at(-1).place = item;
          else rows.push({ place: item });
        }
        form.querySelectorAll("ol.places > li").forEach((li, i) => {
          const row = rows[i] ?? {};
          const act = li.querySelector("select[name=act]");
          if (act) act.value = row.act ?? "";
          li.querySelectorAll("select[name=place]").forEach((select, j) => (select.value = row.place?.features[j] ?? ""));
          li.querySelectorAll("select[name=edge]").forEach((select, j) => (select.value = row.place?.edge[j] ?? ""));
        });
        break;
      }
      case "path_cost": {
        const [steps, unit] = example.args;
        form.querySelector('[data-arg="steps"]').value = Array.isArray(steps) ? steps.map((x) => x[0]).join("") : steps;
        const chosen = kwargs.unit ?? unit;
        form.querySelector('[data-arg="unit"]').value = chosen ?? form.querySelector("option").value;
        break;
      }
      default: {  // a place's question: its unit type, features and options
        const [mode, ...features] = example.args;
        form.querySelector('[data-arg="mode"]').value = mode;
        for (const box of form.querySelectorAll("input[name=feature]")) box.checked = features.includes(box.value);
        for (const field of form.querySelectorAll("[data-arg]")) {
          const name = field.dataset.arg;
          if (name === "mode") continue;
          const given = kwargs[name];
          field.value = given ?? (name === "distance" ? "1" : name === "on" ? "entering" : field.dataset.input !== undefined ? "0" : "");
        }
      }
    }
  }

  function formOf(example) {
    if (example.kind === "path_cost") return document.getElementById("path");
    if (example.kind === "line_of_sight") return document.getElementById("line");
    if (example.kind === "route_cost") return document.getElementById("route");
    if (!["modifier", "roll", "chance", "decision", "step"].includes(example.kind)) return document.getElementById("place");
    const id = ["modifier", "roll", "chance"].includes(example.kind) ? example.args[0] : example.question;
    const prefix = { modifier: "modifier", roll: "dice", chance: "dice", decision: "decision", step: "step" }[example.kind];
    return document.getElementById(`${prefix}-${id}`);
  }

  /** Where a filled form shows the example's answer (a chance: its row's). */
  function answerIn(form, example) {
    if (example.kind === "chance") return form.querySelector(`tr[data-row="${example.args[1]}"] .chance`);
    return form.querySelector(`output[data-ask="${example.kind}"]`) ?? form.querySelector("output.answer");
  }

  /** A lookup's Try it: its row in the reference table, marked, and the module's answer
   * beside the example. */
  function tryLookup(button, example) {
    const [table, ...keys] = example.args;
    const block = document.getElementById(`tables-${table}`);
    const index = [...TABLES[table].rows.keys()].indexOf(_keyOf(keys[keys.length - 1]));
    const row = block?.querySelectorAll("tbody tr")[index];
    row?.classList.add("tried");
    row?.scrollIntoView({ block: "center" });
    let output = button.nextElementSibling;
    if (!output?.matches("output.looked")) {
      output = document.createElement("output");
      output.className = "looked";
      button.after(output);
    }
    answer(output, () => lookup(table, ...keys));
    return output;
  }

  for (const button of document.querySelectorAll("button[data-example]")) {
    on(button, "click", () => {
      const example = PAGE.examples[Number(button.dataset.example)];
      for (const old of document.querySelectorAll(".tried")) old.classList.remove("tried");
      if (example.kind === "lookup") {
        tryLookup(button, example).classList.add("tried");
        return;
      }
      const form = formOf(example);
      if (!form) return;
      fill(form, example);
      update(form);
      answerIn(form, example)?.classList.add("tried");
      form.scrollIntoView({ block: "start" });
      form.querySelector("input, select")?.focus({ preventScroll: true });
    });
  }

  // ---- house-rule workshop: a change re-imports the module with the changed cells rewritten in
  // its FEATURES, or its MODIFIERS and dice tables rebuilt (the _workshop functions above), so
  // every calculator answers with it; the download is the house rule
  const shop = document.getElementById("workshop");
  const SHOP = PAGE.workshop;
  const list = shop?.querySelector("ul.changes");

  /** The changes made of ``kind`` (all: null), as the list in the page holds them (it outlives
   * a generation), in the order they were made. */
  const changes = (kind = null) =>
    [...(list?.querySelectorAll(kind ? `li[data-kind="${kind}"]` : "li[data-kind]") ?? [])].map((li) => JSON.parse(li.dataset.change));

  /** A dice table's rows ``[{id, low, high}]`` as the ruleset has them. */
  const baseRows = (table) => SHOP.dice[table].map(([id, low, high]) => ({ id, low, high }));

  /** ``text`` with the statement that starts ``head`` passed to ``call`` (a prefix such as
   * ``f(x, ``), or null where it is not found. */
  function wrapped(text, head, call) {
    const at = text === null ? -1 : text.indexOf(head);
    const end = at < 0 ? -1 : text.indexOf(";\n", at);
    if (end < 0) return null;
    return `${text.slice(0, at + head.length)}${call}${text.slice(at + head.length, end)})${text.slice(end)}`;
  }

  /** The module's text with each change's cell rewritten, or null where a cell is not found. */
  function variantSource(base, made) {
    const start = base.indexOf("export const FEATURES = _dict({");
    let text = base.replace("const MADE_FOR = null;", () => `const MADE_FOR = ${JSON.stringify(_workshopListed())};`);
    for (const { feature, mode, value } of made.cost) {
      const at = text.indexOf(`\n  ${JSON.stringify(feature)}: Object.freeze({`, start);
      const costs = at < 0 ? -1 : text.indexOf("costs: _dict({", at);
      const end = costs < 0 ? -1 : text.indexOf("})", costs);
      if (end < 0) return null;
      const cell = new RegExp(`(${JSON.stringify(mode)}: )[-0-9.e+]+`);
      const body = text.slice(costs, end);
      if (!cell.test(body)) return null;
      text = text.slice(0, costs) + body.replace(cell, `$1${value}`) + text.slice(end);
    }
    if (made.modifier.length) text = wrapped(text, "export const MODIFIERS = ", `_workshopModifiers(${JSON.stringify(made.modifier)}, `);
    if (made.dice.length) {
      text = wrapped(text, "export const DICE_TABLES = ", `_workshopDice(${JSON.stringify(made.dice)}, `);
      text = wrapped(text, "\nconst _ROLLS = ", `_workshopRolls(${JSON.stringify(made.dice)}, DICE_TABLES, `);
    }
    return text;
  }

  /** The answer as the language writes it in a worked example (with ``unit`` for a number),
   * and as the example vectors hold it (to see whether it changed). */
  function written(value, unit) {
    if (value instanceof Marker) return [value.value, { marker: value.value }];
    if (typeof value === "number") return [`${value} ${unit}`.trim(), { number: value }];
    if (value instanceof DiceRow) return [value.id, { word: value.id }];
    if (value && typeof value.numerator === "number") {
      return [`${value.numerator}/${value.denominator}`, { fraction: [value.numerator, value.denominator] }];
    }
    return null;
  }

  /** The answer of the changed module to a worked example's question, where the page can
   * work it out: a move cost, a modifier, a dice table's row or chance; else null. */
  function answerOf(q) {
    const only = (...names) => Object.keys(q.kwargs).every((k) => names.includes(k));
    const [first, ...rest] = q.args;
    switch (q.question) {
      case "move_cost":
        return written(moveCost(first, rest, q.kwargs), SHOP.unit);
      case "modifier":
        return written(modifier(first, rest, q.kwargs), SHOP.modifier_unit);
      case "roll":
        if (!Object.hasOwn(DICE_TABLES, first) || !only("natural")) return null;
        return written(roll(first, rest[0], "natural" in q.kwargs ? { natural: q.kwargs.natural } : undefined));
      case "chance": {
        const row = DICE_TABLES[first]?.rows.find((r) => r.id === rest[0]);
        if (!row || !only("modifier")) return null;
        return written("modifier" in q.kwargs ? row.chanceWith[q.kwargs.modifier] : row.chance);
      }
      default:
        return null;
    }
  }

  /** The inherited worked examples the changes touch (a question naming a changed feature,
   * item or dice table): each restated where the page can answer its questions, else removed
   * (E271 wants one or the other); an answer that did not change is left alone. */
  function exampleLines(names) {
    const byName = new Map();
    PAGE.examples.forEach((e) => byName.set(e.example, [...(byName.get(e.example) ?? []), e]));
    const lines = [];
    for (const [name, questions] of byName) {
      if (!questions.some((q) => names.some((n) => JSON.stringify([q.args, q.kwargs]).includes(JSON.stringify(n))))) continue;
      const restated = questions.map((q, i) => {
        let found;
        try { found = answerOf(q); } catch { return null; }
        if (found === null) return null;
        const [answer, plain] = found;
        const same = JSON.stringify(q.expected[0]) === JSON.stringify(plain);
        return same ? "" : `override example ${name}${questions.length > 1 ? `.${i + 1}` : ""} | ${answer}`;
      });
      if (restated.includes(null)) lines.push(`remove example ${name}`);
      else lines.push(...restated.filter(Boolean));
    }
    return lines;
  }

  const signed = (value) => (value > 0 ? `+${value}` : `${value}`);

  /** A modifier item's values by context value with the changes made. */
  function itemValues(modifierId, item, made = changes("modifier")) {
    const values = { ...SHOP.modifiers[modifierId][item].values };
    for (const c of made) if (c.modifier === modifierId && c.item === item) values[c.key] = c.value;
    return values;
  }

  /** A dice row's totals as the language writes a range: ``8``, ``2-7``, ``12+``, ``2-``. */
  const range = ({ low, high }) => (low === null ? `${high}-` : high === null ? `${low}+` : low === high ? `${low}` : `${low}-${high}`);

  /** The house rule's overrides: one per changed cell (a modifier item's whole cell; each dice
   * row whose totals moved). */
  function overrides(made) {
    const lines = made.cost.map((c) => `override ${c.feature}.${c.mode} | ${c.value}`);
    for (const key of new Set(made.modifier.map((c) => `${c.modifier} ${c.item}`))) {
      const [m, item] = key.split(" ");
      const { "": any, ...by } = itemValues(m, item, made.modifier);
      const cell = [signed(any), ...Object.entries(by).map(([k, v]) => `${k} ${signed(v)}`)].join(", ");
      lines.push(`override ${SHOP.modifiers[m][item].path} | ${cell}`);
    }
    for (const table of new Set(made.dice.map((c) => c.table))) {
      const rows = _workshopRanges(baseRows(table), made.dice.filter((c) => c.table === table)).rows;
      rows.forEach((r, i) => {
        const was = baseRows(table)[i];
        if (r.low !== was.low || r.high !== was.high) lines.push(`override ${table}.${r.id} range ${range(r)}`);
      });
    }
    return lines;
  }

  /** The house-rule file of the changes. */
  function houseRule(made) {
    const id = `${SHOP.base}_workshop`;
    const names = [...made.cost.map((c) => c.feature), ...made.modifier.map((c) => c.item), ...made.dice.map((c) => c.table)];
    const lines = [
      `ruleset ${id} ${SHOP.titles.map(([lang, title], i) => `${i ? `${lang} ` : ""}${JSON.stringify(title)}`).join(" ")}`,
      "version 1.0.0",
      `extends ${SHOP.base}@^${SHOP.version}`,
      "",
      ...overrides(made),
      "",
      ...exampleLines([...new Set(names)]),
    ];
    return { name: `${id}.terrain`, text: lines.join("\n") + "\n" };
  }

  if (shop && SHOP) {
    const made = () => ({ cost: changes("cost"), modifier: changes("modifier"), dice: changes("dice") });
    const regenerate = async (form) => {
      const source = variantSource(document.getElementById("page-script").textContent, made());
      if (source === null) {
        form.querySelector(".status").textContent = W.workshop_not_found;
        return;
      }
      const blob = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      try {
        await import(blob);
      } finally {
        URL.revokeObjectURL(blob);
      }
    };
    /** Lists (or takes back, ``change`` null) the change ``key`` and answers with the changes. */
    const setChange = (form, kind, key, change, shown) => {
      list.querySelector(`li[data-key="${CSS.escape(key)}"]`)?.remove();
      if (change !== null) {
        const li = document.createElement("li");
        Object.assign(li.dataset, { key, kind, change: JSON.stringify(change), form: form.dataset.workshop });
        const button = document.createElement("button");
        button.type = "button";
        button.className = "undo";
        button.textContent = W.workshop_undo;
        li.append(`${shown} `, button);
        list.append(li);
      }
      regenerate(form);
    };
    const label = (select, id) => select.querySelector(`option[value="${CSS.escape(id)}"]`).textContent;
    const number = (field) => (field.value !== "" && Number.isFinite(Number(field.value)) ? Number(field.value) : null);

    // a terrain cost
    const costShop = shop.querySelector("form[data-workshop=cost]");
    if (costShop) {
      const { feature, mode, value } = costShop.elements;
      const status = costShop.querySelector(".status");
      const cellOf = (f, m) => ({ feature: f, mode: m, value: SHOP.costs[f]?.[m], derived: SHOP.derived[f] ?? [] });
      const showCell = () => {
        const c = cellOf(feature.value, mode.value);
        const changed = changes("cost").find((x) => x.feature === c.feature && x.mode === c.mode);
        value.value = c.value === undefined ? "" : String(changed ? changed.value : c.value);
        const names = c.derived.map((k) => PAGE.moves.find((m) => m.id === k)?.label ?? k);
        status.textContent = c.value === undefined ? W.workshop_no_number : c.derived.length ? say(W.workshop_derived, { moves: names.join(", ") }) : "";
        costShop.elements.apply.disabled = c.value === undefined || c.derived.length > 0;
      };
      on(feature, "change", showCell);
      on(mode, "change", showCell);
      on(costShop, "submit", (event) => {
        event.preventDefault();
        const c = cellOf(feature.value, mode.value);
        const to = number(value);
        if (to === null) return;
        const change = to === c.value ? null : { feature: c.feature, mode: c.mode, value: to };
        setChange(costShop, "cost", `${c.feature}.${c.mode}`, change, `${label(feature, c.feature)} · ${label(mode, c.mode)} → ${NUMBER.format(to)}`);
      });
      showCell();
    }

    // a modifier's value: a factor's, or a feature's in the modifier's column
    const modifierShop = shop.querySelector("form[data-workshop=modifier]");
    if (modifierShop) {
      const { factor: item, key, value } = modifierShop.elements;
      const picked = () => item.value.split(" ");
      const fillKeys = () => {
        const data = PAGE.modifiers.find((m) => m.id === picked()[0]);
        const options = [new Option(W.any, "")];
        for (const c of data.contexts) for (const v of c.values) options.push(new Option(`${c.label}${W.colon} ${v.label}`, v.id));
        const kept = key.value; // a new generation keeps the context value picked
        key.replaceChildren(...options);
        if (options.some((o) => o.value === kept)) key.value = kept;
      };
      const showValue = () => {
        const now = itemValues(...picked())[key.value];
        value.value = now === undefined ? "" : String(now);
      };
      on(item, "change", () => (fillKeys(), showValue()));
      on(key, "change", showValue);
      on(modifierShop, "submit", (event) => {
        event.preventDefault();
        const [m, it] = picked();
        const to = number(value);
        if (to === null) return;
        const was = SHOP.modifiers[m][it].values[key.value];
        const change = to === was ? null : { modifier: m, item: it, key: key.value, value: to };
        const where = key.value ? ` (${key.selectedOptions[0].textContent})` : "";
        setChange(modifierShop, "modifier", `${m}.${it}.${key.value}`, change, `${label(item, item.value)}${where} → ${NUMBER.format(to)}`);
      });
      fillKeys();
      showValue();
    }

    // the row a dice total gives
    const diceShop = shop.querySelector("form[data-workshop=dice]");
    if (diceShop) {
      const { total, row } = diceShop.elements;
      const status = diceShop.querySelector(".status");
      on(diceShop, "input", () => (status.textContent = ""));
      on(diceShop, "submit", (event) => {
        event.preventDefault();
        const [table, id] = row.value.split(" ");
        const at = number(total);
        if (at === null || !Number.isInteger(at)) return;
        const key = `${table}.${at}`;
        const before = changes("dice").filter((c) => c.table === table && `${c.table}.${c.total}` !== key);
        const rows = _workshopRanges(baseRows(table), before).rows;
        const next = _workshopMove(rows, at, id);
        if (next === null) {
          status.textContent = W.workshop_apart;
          return;
        }
        const change = next === rows ? null : { table, total: at, row: id };
        setChange(diceShop, "dice", key, change, `${row.selectedOptions[0].parentElement.label}${W.colon} ${at} → ${label(row, row.value)}`);
      });
    }

    on(list, "click", (event) => {
      const li = event.target.closest("button.undo")?.closest("li");
      if (!li) return;
      li.remove();
      regenerate(shop.querySelector(`form[data-workshop="${li.dataset.form}"]`));
    });
    const all = made();
    // a dice change that an undo left without its row's edge no longer applies: it goes
    for (const table of new Set(all.dice.map((c) => c.table))) {
      const { applied } = _workshopRanges(baseRows(table), all.dice.filter((c) => c.table === table));
      for (const c of all.dice) if (c.table === table && !applied.includes(c)) list.querySelector(`li[data-key="${CSS.escape(`${c.table}.${c.total}`)}"]`)?.remove();
    }
    const link = shop.querySelector("a.download");
    const kept = changes();
    link.hidden = kept.length === 0;
    if (kept.length) {
      const file = houseRule(made());
      link.download = file.name;
      link.href = `data:text/plain;charset=utf-8,${encodeURIComponent(file.text)}`;
    }
    document.documentElement.dataset.variant = JSON.stringify(kept);
  }

  // ---- filters of the reference tables: rows by text, feature and kind of move; columns by
  // unit type and keyword
  const filters = document.querySelector("form.filters");

  function columnsShown(table, wanted) {
    const cols = table.dataset.cols.split("|");
    return cols.map((modes, i) => i === 0 || !wanted || !modes || modes.split(" ").some((m) => wanted.has(m)));
  }

  function showColumns(table, shown) {
    for (const row of table.tBodies[0].rows) [...row.cells].forEach((cell, i) => (cell.hidden = !shown[i]));
    const taken = [];
    [...table.tHead.rows].forEach((row, r) => {
      let col = 0;
      for (const cell of row.cells) {
        while (taken[r]?.[col]) col++;
        const span = Number(cell.dataset.span ?? cell.colSpan);
        cell.dataset.span = String(span);
        for (let dr = 0; dr < cell.rowSpan; dr++) for (let dc = 0; dc < span; dc++) ((taken[r + dr] ??= [])[col + dc] = true);
        const visible = shown.slice(col, col + span).filter(Boolean).length;
        cell.hidden = visible === 0;
        if (visible) cell.colSpan = visible;
        col += span;
      }
    });
  }

  function applyFilters() {
    const f = filters.elements;
    const search = f.search.value.trim().toLowerCase();
    let wanted = null;
    if (f.mode?.value) wanted = new Set([f.mode.value]);
    if (f.group?.value) {
      const members = f.group.selectedOptions[0].dataset.members.split(" ");
      wanted = new Set(wanted ? members.filter((m) => wanted.has(m)) : members);
    }
    const keys = [f.feature?.value, f.move?.value].filter(Boolean);
    let shown = 0, total = 0;
    for (const table of document.querySelectorAll("#reference table[data-cols]")) {
      showColumns(table, columnsShown(table, wanted));
      const keyed = [...table.tBodies[0].rows].some((row) => row.dataset.key);
      let left = 0;
      for (const row of table.tBodies[0].rows) {
        const hide =
          (search && !row.textContent.toLowerCase().includes(search)) ||
          (keyed && keys.length > 0 && !keys.includes(row.dataset.key));
        row.hidden = Boolean(hide);
        total++;
        if (!hide) left++;
      }
      shown += left;
      table.closest(".block").hidden = left === 0 && table.tBodies[0].rows.length > 0;
    }
    filters.querySelector(".shown").textContent = say(W.shown, { shown, total });
  }

  on(filters, "input", applyFilters);
  on(filters, "change", applyFilters);
  on(filters, "submit", (event) => event.preventDefault());
  applyFilters();
  document.documentElement.dataset.ready = "yes";
}
