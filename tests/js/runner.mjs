// Asks generated JavaScript modules many questions (issue 37), kept running for the tests
// (tests/js_queries.py ask_node): reads one request a line on stdin, {"module": path,
// "queries": [{"function", "args", "kwargs"}], "boards": [...]} as JSON (a route question's
// "board" is its spec's index in "boards"), and writes one line back: an answer
// per query, in the example vectors' plain form, or the error's code and message. Each request
// imports its module anew (a fresh instance, its caches empty, as a Node process of its own
// had it). A number written {"$float": "nan" | "inf" | "-inf"} is that float (JSON has none).
import readline from "node:readline";
import { pathToFileURL } from "node:url";
import { answerRoute, vectorRoute } from "./routes.mjs";
import { answerFacing, facingVectorRoute } from "./facing.mjs";

const FLOATS = { nan: NaN, inf: Infinity, "-inf": -Infinity };

/** ``value`` with each {"$float": ...} in it made that float, in place: the request's own
 * objects, parsed for this one answer, are not copied. */
function decoded(value) {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = decoded(value[i]);
    return value;
  }
  if (Object.hasOwn(value, "$float")) return FLOATS[value.$float];
  for (const key of Object.keys(value)) {
    const v = value[key];
    const made = decoded(v);
    if (made !== v) Object.defineProperty(value, key, { value: made, enumerable: true, writable: true, configurable: true });
  }
  return value;
}

function number(value) {
  return typeof value === "object" && value !== null ? value.value : value;
}

function plain(m, value) {
  if (value === null) return [{ none: null }];
  if (value instanceof m.Marker) return [{ marker: value.value }];
  if (Array.isArray(value)) return [{ words: value }];
  if (typeof value === "boolean") return [{ bool: value }];
  if (typeof value === "number") return [{ number: value }];
  if (typeof value === "string") return [{ word: value }];
  if (value instanceof m.Quantity) return [{ number: value.value }];
  if (value instanceof m.Outcome || value instanceof m.DiceRow) return [{ word: value.id }];
  if (value instanceof m.Route || (m.FacingRoute && value instanceof m.FacingRoute)) return [...plain(m, value.total), ...(value.legal ? [] : [{ word: "illegal" }])];
  if (m.Sight && value instanceof m.Sight) {
    return [{ number: value.hindrance }, ...(value.blocked ? [{ marker: "blocked" }] : [])];
  }
  if (m.Result && value instanceof m.Result) return [{ word: value.id }];
  if (m.FreeMove && value instanceof m.FreeMove) return [{ number: value.used }, ...(value.ends ? [{ word: "ends" }] : [])];
  if (typeof value?.numerator === "number") return [{ fraction: [value.numerator, value.denominator] }];
  switch (value?.kind) {
    case "span":
      return [{ span: [value.low, value.high] }];
    case "dice":
      return [{ dice: [value.number, value.sides, value.bonus] }];
    case "d66":
      return [{ d66: value.bonus }];
    case "rate":
      return [{ rate: [number(value.amount), number(value.per)] }];
    case "trade":
      return [{ trade: [number(value.gain), number(value.cost)] }];
  }
  throw new TypeError(`no plain form for ${String(value)}`);
}

/** The questions of costs, place states, paths and rolls due (runtime_moves.js). */
function askMoves(m, fn, args, kwargs) {
  const place = (f) => f(args[0], args.slice(1), kwargs);
  if (fn === "move_cost") return place(m.moveCost);
  if (fn === "can_enter") return place(m.canEnter);
  if (fn === "rolls_due") return place(m.rollsDue);
  if (fn === "can_end") return m.canEnd(args[0], args.slice(1));
  if (fn === "must_stop") return m.mustStop(args[0], args.slice(1));
  if (fn === "path_cost") return m.pathCost(args[0], args.length > 1 ? { ...kwargs, unit: args[1] } : kwargs);
  return undefined;
}

/** A worked example's free move (issue 40): what it used, then "ends"; "illegal" when refused. */
function freeMoveVector(m, args, kwargs) {
  try {
    return m.freeMove(args[0], args[1], kwargs.allowance ?? null);
  } catch (error) {
    if (error.code === "IllegalMove") return "illegal";
    throw error;
  }
}

/** Rolls due: in the vectors' form (each roll's name and modifier; "none"), or in full. */
function rolls(dues, full) {
  if (full) {
    const record = (d) => [d.step, d.place, d.on, d.roll, d.dice, d.table, d.modifier, [...d.features], d.move];
    return [{ rolls: dues.map(record) }];
  }
  const parts = dues.flatMap((d) => [{ word: d.roll }, { number: d.modifier }]);
  return parts.length ? parts : [{ word: "none" }];
}

/** What the differential test compares beside the plain form: a line's hindrance per place,
 * a result's column, totals, naturalness and effects. */
function detail(m, value) {
  if (m.Sight && value instanceof m.Sight) return { detail: value.byPlace.flatMap((v) => plain(m, v)) };
  if (m.Result && value instanceof m.Result) {
    const effects = Object.entries(value.effects).map(([k, v]) => [k, plain(m, v)]);
    return { detail: [value.column, value.low, value.high, value.natural, effects] };
  }
  return {};
}

function ask(m, query) {
  const fn = query.function;
  const args = decoded(query.args);
  const kwargs = decoded(query.kwargs || {});
  if (query.column_of) kwargs.column = m[query.column_of[0]](decoded(query.column_of[1])); // js_queries_feeds.py
  if (Object.hasOwn(m.DECISIONS, fn)) return m[fn](kwargs);
  if (fn === "modifier") return m.modifier(args[0], args.slice(1), kwargs);
  if (fn === "conflicts") return m.conflicts(...args);
  if (fn === "line_of_sight") return m.lineOfSight(args[0], args.slice(1), kwargs);
  if (fn === "arc") return m.arc(...args, kwargs);
  if (fn === "arc_between") return m.arcBetween(...args, kwargs);
  if (fn === "roll" && m.RESULTS_TABLES) {
    const [table, total, column, natural, shift] = args;
    return m.roll(table, total, { column, natural, shift, ...kwargs });
  }
  if (fn === "chance" && m.RESULTS_TABLES && Object.hasOwn(m.RESULTS_TABLES, args[0])) {
    const results = m.RESULTS_TABLES[args[0]];
    let column = kwargs.column;
    if (typeof column !== "string") {
      const [low, high] = results.rows[0]; // a total some row covers: the column is the answer
      column = m.roll(args[0], low ?? high, { column }).column;
    }
    const chances = "modifier" in kwargs ? results.chancesWith[kwargs.modifier] : results.chances;
    return chances[column][args[1]];
  }
  if (fn === "roll") {
    const natural = args.length > 2 ? args[2] : kwargs.natural;
    return m.roll(args[0], args[1], { natural: natural ?? null, dice: kwargs.dice ?? null });
  }
  if (fn === "chance") {
    const row = m.DICE_TABLES[args[0]].rows.find((r) => r.id === args[1]);
    return "modifier" in kwargs ? row.chanceWith[kwargs.modifier] : row.chance;
  }
  if (fn === "route_cost" && Object.hasOwn(m.FACINGS ?? {}, args[0])) return facingVectorRoute(m, args, kwargs);
  if (fn === "route_cost") return vectorRoute(m, args, kwargs);
  if (fn === "free_move") return freeMoveVector(m, args, kwargs);
  const moves = askMoves(m, fn, args, kwargs);
  if (moves !== undefined) return moves;
  if (Object.hasOwn(m.STEPS, fn) || fn === "lookup" || fn === "param" || fn === "effect") return m[fn](...args);
  throw new Error(`the module does not answer ${fn}`);
}

/** One query's answer, or the error the module raised. */
function answer(m, query) {
  try {
    if (query.freefacing) { // a free move off the grid (tests/js_queries_freefacing.py)
      const [mode, legs, allowance] = decoded(query.args);
      const move = m.freeMove(mode, legs, allowance);
      return { answer: [move.used, move.left, move.ends, move.reason, ...(move.marks ? [move.marks] : [])] };
    }
    if (query.facing) return { answer: answerFacing(m, { ...query, args: decoded(query.args), kwargs: decoded(query.kwargs) }) };
    if (query.board !== undefined) return { answer: answerRoute(m, { ...query, args: decoded(query.args), kwargs: decoded(query.kwargs) }) };
    const value = ask(m, query);
    if (query.attribute === "rolls") return { answer: rolls(value.rolls) }; // `.rolls` (issue 40)
    if (query.attribute) return { answer: [{ [query.attribute]: { ...value[query.attribute] } }] }; // `.state` (issue 40)
    return { answer: query.function === "rolls_due" ? rolls(value, query.full) : plain(m, value), ...detail(m, value) };
  } catch (error) {
    return { error: error.code ?? error.constructor.name, message: error.message };
  }
}

console.warn = () => {}; // a ConflictWarning is not an answer
const LIMIT = 512 * 2 ** 20; // bytes of heap past which the runner stops after its reply
const STACK = Error.stackTraceLimit;
let asked = 0;
for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let reply;
  try {
    const request = JSON.parse(line);
    for (const query of request.queries) {
      if (query.board !== undefined) query.board = request.boards[query.board]; // written once (js_queries.py _request)
    }
    asked += 1;
    const m = await import(`${pathToFileURL(request.module).href}?request=${asked}`);
    Error.stackTraceLimit = 0; // an answer is an error's code and message: no stack is read
    try {
      reply = { answers: request.queries.map((query) => answer(m, query)) };
    } finally {
      Error.stackTraceLimit = STACK; // a module that does not load says where
    }
  } catch (error) {
    reply = { failed: String(error?.stack ?? error) }; // the module did not load
  }
  const full = process.memoryUsage().heapUsed > LIMIT; // modules imported stay loaded
  process.stdout.write(JSON.stringify({ ...reply, stopping: full }) + "\n");
  if (full) break;
}
