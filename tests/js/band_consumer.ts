import * as m from "./air.js"; // the package of tests/test_state_conditions.py's rules
const hit: number | m.Marker = m.modifier("to_hit", ["long"], { state: { speed: 5, altitude: 7 } });
console.log(hit);
