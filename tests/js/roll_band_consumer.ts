import * as m from "./air.js"; // the package of tests/test_rolls_due_state.py's rules
const state = { speed: 1, altitude: 3 };
const dues: m.RollDue[] = m.rollsDue("fighter", ["battery"], { state });
const stalls: m.RollDue[] = m.rollsDue("bomber", ["clear"], { on: "any_step", state, move: "climb" });
console.log(dues.length, stalls.length, m.rollsDue("fighter", [], { state: null }).length);
