// Routes of a unit type with facing (runtime_facing.js), asked of the JavaScript module: an
// example vector's route laid on the unit's grid, and the differential test's answers in full.

const HEADINGS = {
  6: [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]],
  4: [[1, 0], [0, -1], [-1, 0], [0, 1]],
  8: [[1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1], [1, 1]],
};

/** A facing route's example laid on the unit's grid, as the Python module's replay lays it:
 * the start at [0, 0] facing heading 0, each place entered along the grid step its move
 * gives, each "turn" one heading to the left. */
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
  return m.routeCost(board, args[0], route, kwargs);
}
