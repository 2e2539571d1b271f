import * as m from "./ledges.js"; // the package of tests/test_facing_route_inputs.py's SAILING rules
const places = new Map<m.BoardPlace, readonly m.FeatureName[]>([[[0, 0], ["clear"]], [[1, 0], ["clear"]]]);
const b = new m.Board(places, { grid: "field" });
const outcomes = new Map<m.BoardPlace, readonly m.PlaceName[]>([[[1, 0], ["cratered"]]]);
const fuel = { fuel: 3 };
const r: m.FacingRoute = m.routeCost(b, "walker", [[[0, 0], 0], [[1, 0], 0]], { wind: 2, height: 0, outcomes, state: fuel });
const c = m.cheapestRoute(b, "walker", [[0, 0], 0], [1, 0], { wind: 2, height: 1, outcomes });
const reach: m.Reach = m.reachable(b, "walker", [[0, 0], 0], 3, { wind: 2, height: 0, outcomes, state: fuel });
console.log(r.total, c?.total, reach.size);
