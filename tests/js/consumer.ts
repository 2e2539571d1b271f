// A program using the generated heavy_gear package, type-checked by `tsc --noEmit --strict`
// against heavy_gear.d.ts (tests/test_js_target.py): the declarations name every table, row,
// step, decision and outcome, so a misspelt one is a type error.
import {
  ArgumentTypeError,
  IMPASSABLE,
  InvalidArgument,
  UnknownName,
  climb,
  lock,
  modifier,
  lookup,
  lineOfSight,
  InvalidPlace,
  type Outcome,
  type Sight,
  type Value,
} from "./heavy_gear.js";
import { RESULTS_TABLES, roll, type Result } from "./hex_operational/hex_operational.js";

const lane: Value = lookup("setup", "open_lane");
const rise: number | typeof IMPASSABLE = climb(1.5);
const answer: Outcome<"no_lock" | "passive" | "active"> = lock({
  hidden: false,
  concealment: 2,
  detection: 3,
  distance: 10,
  size: 6,
});
const word: "no_lock" | "passive" | "active" = answer.id;

// @ts-expect-error: no such row
lookup("setup", "open_lanes");
// @ts-expect-error: no such table
lookup("setups", "open_lane");
// @ts-expect-error: a flag, not a number
lock({ hidden: 1, concealment: 2, detection: 3, distance: 10, size: 6 });

try {
  climb(-1);
} catch (error) {
  if (error instanceof InvalidArgument || error instanceof ArgumentTypeError) {
    const where: string = `${error.functionName}: ${error.argument}`;
    console.log(where, error.code);
  } else if (error instanceof UnknownName) {
    console.log(error.suggestions.join(", "));
  }
}
const pilot: number | typeof IMPASSABLE = modifier("cover", ["partial", "solid"]);
const seen: Sight = lineOfSight("terrain_concealment", [[], ["medium"], ["medium"]], {
  crossed: [0, 3, 2],
});
const hindrance: number = seen.hindrance;
// @ts-expect-error: no such feature
lineOfSight("terrain_concealment", [["mediums"]]);
try {
  lineOfSight("terrain_concealment", [["medium", "medium"]], { mode: "walker" });
} catch (error) {
  if (error instanceof InvalidPlace) console.log(error.code);
}
const result: Result<"ae" | "ar" | "ex" | "dr" | "de"> = roll("crt", 3, { column: [7, 3] });
const named: Result = roll("crt", 1, { column: "odds_4_1", natural: 6, shift: -1 });
const chance = RESULTS_TABLES.crt.chances[named.column]["de"];
// @ts-expect-error: no such column
roll("crt", 3, { column: "odds_9_1" });
console.log(lane, rise, word, pilot, hindrance, result.id, chance.numerator);

// Movement (runtime_moves.js): unit types and features are literal unions too.
import { canEnd, canEnter, moveCost, mustStop, pathCost, rollsDue } from "./heavy_gear.js";
const soft: number | typeof IMPASSABLE = moveCost("walker", ["soft"], { distance: 2 });
const enters: boolean = canEnter("walker", ["soft"], { available: 3 });
const ends: boolean = canEnd("walker", ["soft"]) && !mustStop("walker", ["soft"]);
const rolls: readonly { roll: string; modifier: number }[] = rollsDue("walker", ["soft"], { on: "entering" });
// @ts-expect-error: no such unit type
moveCost("walkers", ["soft"]);
// @ts-expect-error: no such time for a roll
rollsDue("walker", ["soft"], { on: "leaving" });
try {
  pathCost("dsssd");
} catch (error) {
  if (error instanceof InvalidPlace) console.log(error.code);
}
console.log(soft, enters, ends, rolls);

// Boards and routes (runtime_routes.js): a place is compared by value; grids are literal unions.
import { Board, Reach, cheapestRoute, reachable, routeCost, type BoardPlace, type FeatureName, type Route } from "./heavy_gear.js";
const board = new Board(
  new Map<BoardPlace, FeatureName[]>([
    [[0, 0], ["soft"]],
    [[1, 0], ["soft"]],
  ]),
  { grid: "hex" },
);
const route: Route = routeCost(board, "walker", [[0, 0], [1, 0]], { allowance: 4 });
const total: number | typeof IMPASSABLE = route.legal ? route.total : IMPASSABLE;
const cheapest: Route | null = cheapestRoute(board, "walker", [0, 0], [1, 0]);
const reach: Reach = reachable(board, "walker", [0, 0], 3);
const near: number | undefined = reach.get([1, 0]);
for (const [place, cost] of reach) console.log(place, cost);
// @ts-expect-error: no such grid
new Board(new Map(), { grid: "hexes" });
// @ts-expect-error: a board's places name features only
new Board(new Map([["a", ["nothing"]]]), { grid: "hex" });
console.log(total, cheapest?.steps.length, near, board.neighbours([0, 0]).length);
