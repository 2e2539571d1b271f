import * as m from "./air.js"; // the package of tests/test_state_conditions.py's rules
const state = { speed: 5, altitude: 7 };
const hit: number | m.Marker = m.modifier("to_hit", ["long"], { state });
const seen: boolean = m.lineOfSight("clouds", [["clear"], ["clear", "cloudbank"]], { state }).blocked;
console.log(hit, seen);
