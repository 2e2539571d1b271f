import * as m from "./air.js"; // the package of tests/test_drift.py's rules
const places = new Map<m.BoardPlace, readonly m.FeatureName[]>([[[0, 0], ["clear"]], [[1, 0], ["clear"]], [[2, 0], ["clear"]]]);
const b = new m.Board(places, { grid: "hexes" });
const r = m.routeCost(b, "fighter", [[0, 0], [1, 0]], { wind: 3, state: { altitude: 2 } });
const at: m.BoardPlace | null = r.drift;
const c = m.cheapestRoute(b, "balloon", [0, 0], [1, 0], { wind: 3 });
const g = m.routeCost(b, "glider", [[[0, 0], 0], [[1, 0], 0]], { wind: 3 });
const there: m.BoardPlace | null = g.drift;
console.log(at, c?.drift, there);
