import * as m from "./tanks.js"; // the package of tests/test_free_facing_whole_move.py's RULES
const legs: readonly m.FreeLeg[] = [["straight", 2, ["river"]], ["turn", 45], ["straight", 1, []]];
const move: m.FreeMove = m.freeMove("tank", legs, 8);
const marks: readonly string[] = move.marks; // the crosses rules the move carries
console.log(move.used, marks.length);
