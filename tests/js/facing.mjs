// Routes of a unit type with facing (runtime_facing.js), asked of the JavaScript module: an
// example vector's route laid on the unit's grid, and the differential test's answers in full.

import { board } from "./routes.mjs";

const HEADINGS = {
  6: [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]],
  4: [[1, 0], [0, -1], [-1, 0], [0, 1]],
  8: [[1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1], [1, 1]],
};

/** A facing route's example laid on the unit's grid, as the Python module's replay lays it:
 * the start at [0, 0] facing heading 0, each place entered along the grid step its move
 * gives, each "turn" one heading to the left; "entered" gives steps, the places they reached. */
export function facingVectorRoute(m, args, kwargs) {
  const rule = m.FACINGS[args[0]];
  const count = rule.headings;
  let [place, heading, how] = [[0, 0], 0, "forward"];
  const places = new Map([[place, args[1].features]]);
  const edges = new Map();
  const route = [[place, heading]];
  for (const item of args.slice(2)) {
    if (item === "turn") {
      heading = (heading + 1) % count;
      route.push([place, heading]);
    } else if (typeof item === "string") how = item;
    else {
      const side = { forward: 0, backward: count / 2, sideslip: 1 }[how];
      const [dq, dr] = HEADINGS[count][(heading + side) % count];
      const there = [place[0] + dq, place[1] + dr];
      places.set(there, item.features);
      edges.set([place, there], item.edge);
      [place, how] = [there, "forward"];
      route.push([place, heading]);
    }
  }
  const board = new m.Board(places, { edges, grid: rule.grid });
  const entered = kwargs.entered?.map((step) => route[step][0]); // steps, the places they reached
  return m.routeCost(board, args[0], route, entered ? { ...kwargs, entered } : kwargs);
}

function cost(m, value) {
  return value instanceof m.Marker ? { marker: value.value } : value;
}

/** A number as JSON holds it both sides: infinity as "inf". */
function finite(value) {
  return value === Infinity ? "inf" : value;
}

/** A facing route question's answer in full (the plain form of tests/js_queries_facing.py). */
export function answerFacing(m, query) {
  const made = board(m, query.board);
  const [args, kwargs] = [query.args, query.kwargs];
  if (kwargs.outcomes?.pairs !== undefined) kwargs.outcomes = new Map(kwargs.outcomes.pairs); // a Python dict
  let answer;
  if (query.function === "route_cost") answer = m.routeCost(made, args[0], args[1], kwargs);
  else if (query.function === "cheapest_route") answer = m.cheapestRoute(made, args[0], args[1], args[2], kwargs);
  else answer = m.reachable(made, args[0], args[1], args[2], kwargs);
  if (answer === null) return [{ none: null }];
  if (answer instanceof m.Reach) {
    return [{ reach: [[...answer], [answer.move, answer.budget, finite(answer.speed), answer.turnMode]] }];
  }
  const steps = answer.steps.map((s) => [s.start, s.end, s.heading, s.move, s.features, s.edge, cost(m, s.cost), s.straight]);
  const rolls = answer.rolls.map((d) => [d.step, d.place, d.on, d.roll, d.dice, d.table, d.modifier, d.features, d.move]);
  const fields = [answer.legal, answer.reason, answer.heading, finite(answer.speed), answer.turnMode];
  const state = "state" in answer ? [answer.state === null ? null : { ...answer.state }] : []; // state lines only
  const drift = "drift" in answer ? [answer.drift === null ? null : [...answer.drift]] : []; // a drift line only
  if (answer.marks !== undefined) drift.push([...answer.marks]); // whole-move rules only
  return [{ facing: [cost(m, answer.total), steps, ...fields, answer.move, rolls, ...state, ...drift] }];
}
