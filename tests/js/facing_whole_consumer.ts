import * as m from "./wagons.js"; // the package of tests/test_facing_whole_move.py's SAILING rules
const places = new Map<m.BoardPlace, readonly m.FeatureName[]>([[[0, 0], ["clear"]], [[1, 0], ["marsh"]]]);
const b = new m.Board(places, { grid: "hexes" });
const r: m.FacingRoute = m.routeCost(b, "wagon", [[[0, 0], 0], [[1, 0], 0]], { wind: 2, state: { fuel: 3 } });
const marks: readonly string[] = r.marks ?? []; // the crosses rules the move carries
console.log(r.total, marks.length);
