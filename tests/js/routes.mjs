// The route questions of the differential test (tests/js_queries_routes.py says how a board is
// written), asked of the JavaScript module and answered in full, as the Python side answers.

function given(spec, build) {
  if (spec !== null && typeof spec === "object" && !Array.isArray(spec) && "raw" in spec) return spec.raw;
  return spec === null ? null : build(spec);
}

const made = new WeakMap(); // spec -> its Board's arguments: the questions of a board share its spec

/** The spec's Board, made by the JavaScript module: a Board of its own for each question, its
 * arguments built once a spec (the Board copies them, as the Python module's does). The facing
 * route questions' boards too (tests/js/facing.mjs), as js_queries_facing.py's come from
 * js_queries_routes.board. */
export function board(m, spec) {
  if ("raw" in spec) return spec.raw;
  let args = made.get(spec);
  if (args === undefined) {
    const places = given(spec.places, (pairs) => new Map(pairs));
    const edges = given(spec.edges, (pairs) => new Map(pairs));
    const neighbours = given(spec.neighbours, (pairs) => {
      const near = new Map(pairs.map(([place, adjacent]) => [JSON.stringify(place), adjacent]));
      return (place) => near.get(JSON.stringify(place)) ?? [];
    });
    args = [places, { edges, neighbours, grid: spec.grid }];
    made.set(spec, args);
  }
  return new m.Board(...args);
}

function cost(m, value) {
  return value instanceof m.Marker ? { marker: value.value } : value;
}

function route(m, r) {
  const steps = r.steps.map((s) => [s.start, s.end, s.features, s.edge, cost(m, s.cost)]);
  const rolls = r.rolls.map((d) => [d.step, d.place, d.on, d.roll, d.dice, d.table, d.modifier, d.features, d.move]);
  const marks = r.marks === undefined ? [] : [[...r.marks]]; // whole-move rules only
  const state = "state" in r ? [r.state === null ? null : { ...r.state }] : []; // state lines only
  const drift = "drift" in r ? [r.drift === null ? null : [...r.drift]] : []; // a drift line only
  return [cost(m, r.total), steps, r.legal, r.reason, r.move, rolls, ...marks, ...state, ...drift];
}

/** A route question's answer in full (the plain form of tests/js_queries_routes.py). */
export function answerRoute(m, query) {
  const made = board(m, query.board);
  const [args, kwargs] = [query.args, { ...query.kwargs }];
  if (kwargs.outcomes?.pairs !== undefined) kwargs.outcomes = new Map(kwargs.outcomes.pairs); // a Python dict
  if (query.function === "Board") return [{ board: [[...made.places], [...made.edges], made.grid] }];
  if (query.function === "neighbours") return [{ neighbours: made.neighbours(args[0]) }];
  let answer;
  if (query.function === "route_cost") answer = m.routeCost(made, args[0], args[1], kwargs);
  for (let i = query.twice ? 2 : 1; query.function !== "route_cost" && i > 0; i--) {
    // a board searched again reads what it kept
    if (query.function === "cheapest_route") answer = m.cheapestRoute(made, args[0], args[1], args[2], kwargs);
    else answer = m.reachable(made, args[0], args[1], args[2], kwargs);
  }
  if (answer === null) return [{ none: null }];
  if (answer instanceof m.Reach) return [{ reach: [[...answer], [answer.move, answer.budget, answer.speed, answer.turnMode]] }];
  return [{ route: route(m, answer) }];
}

/** A route_cost example vector (``args``: the mode, then each place's features and the edge
 * crossed into it) on a board of its places in a line, as the Python module's replay lays it. */
export function vectorRoute(m, args, kwargs) {
  const places = new Map(args.slice(1).map((p, i) => [i, p.features]));
  const edges = new Map(args.slice(2).map((p, i) => [[i, i + 1], p.edge]));
  const neighbours = (i) => [i - 1, i + 1].filter((j) => places.has(j));
  return m.routeCost(new m.Board(places, { edges, neighbours }), args[0], [...places.keys()], kwargs);
}
