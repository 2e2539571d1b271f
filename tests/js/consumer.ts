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
  type Outcome,
  type Value,
} from "./heavy_gear.js";

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
console.log(lane, rise, word, pilot);

// Movement (runtime_moves.js): unit types and features are literal unions too.
import { canEnd, canEnter, moveCost, mustStop, pathCost, rollsDue, InvalidPlace } from "./heavy_gear.js";
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
