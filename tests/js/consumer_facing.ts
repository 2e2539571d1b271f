// A program using the generated void_patrol package (a ruleset with facing), type-checked by
// `tsc --noEmit --strict` against void_patrol.d.ts (tests/test_js_moves.py): a unit type with
// facing moves by [place, heading] pairs and gets a FacingRoute.
import { Board, FACINGS, cheapestRoute, reachable, routeCost, type FacingRoute } from "./void_patrol.js";

const board = new Board(new Map([[[0, 0], ["open_space"]], [[1, 0], ["nebula"]]]), { grid: "sector" });
const move: FacingRoute = routeCost(board, "frigate", [[[0, 0], 0], [[1, 0], 0]], { allowance: 5 });
const found: FacingRoute | null = cheapestRoute(board, "cruiser", [[0, 0], 0], [1, 0], { allowance: 2 });
const headings: 4 | 6 | 8 = FACINGS.corvette.headings;
const slip: number | undefined = FACINGS.corvette.sideslip?.[0];
const ends: number | undefined = reachable(board, "frigate", [[0, 0], 0], 3).get([[1, 0], 0]);
console.log(move.heading, move.steps.map((s) => s.move), found?.turnMode, headings, slip, ends);
// @ts-expect-error: a drone has no facing rule
console.log(FACINGS.drone);
