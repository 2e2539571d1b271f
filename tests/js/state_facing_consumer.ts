import * as m from "./air.js"; // the package of tests/test_state_facing.py's rules
const places = new Map<m.BoardPlace, readonly m.FeatureName[]>([[[0, 0], ["clear"]], [[1, 0], ["clear", "debris"]]]);
const b = new m.Board(places, { grid: "hexes" });
const r = m.routeCost(b, "fighter", [[[0, 0], 0], [[1, 0], 0]], { state: { speed: 5, altitude: 2 }, move: "climb" });
const s: number | undefined = r.state?.speed;
const best = m.cheapestRoute(b, "fighter", [[0, 0], 0], [1, 0], { state: { speed: 5, altitude: 2 } });
const reach = m.reachable(b, "fighter", [[0, 0], 0], 4, { state: { speed: 5, altitude: 2 } });
console.log(s, best?.state?.altitude, reach.size);
