// The timing loop of bench_js.py (issue 37): reads {"rows": [{module, call, floor, number}],
// "rounds"} as JSON on stdin and writes, per row, the CPU nanoseconds per call of the module's
// function and of its hand-written floor (bench/hand_written.mjs), the minimum over the rounds,
// the two interleaved in every round so that a busy machine slows both alike.
import { pathToFileURL } from "node:url";
import { handWritten } from "./hand_written.mjs";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { rows, rounds } = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const modules = new Map();
for (const path of new Set(rows.map((r) => r.module))) {
  const m = await import(pathToFileURL(path).href);
  modules.set(path, { m, h: handWritten(m) });
}

/** A loop of ``number`` calls of ``expression`` (of ``m`` and ``h``), its own function so that
 * each call site stays monomorphic; it returns the CPU microseconds it took. */
function timer(expression, number) {
  const loop = new Function(
    "m",
    "h",
    "n",
    `let sink = null;
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) sink = ${expression};
    const used = process.cpuUsage(start);
    if (sink === undefined) throw new Error("no answer");
    return used.user + used.system;`,
  );
  return (env) => loop(env.m, env.h, number);
}

/** The floor must answer the question the module answers: a row whose two answers are numbers
 * (a cost, a route's total) stops the run if they differ. */
function same(row, env) {
  const ask = (expression) => new Function("m", "h", `return ${expression};`)(env.m, env.h);
  const [answer, floor] = [ask(row.call), ask(row.floor)];
  if (typeof answer === "number" && typeof floor === "number" && answer !== floor) {
    throw new Error(`${row.call} answers ${answer}, its floor ${floor}`);
  }
}

rows.forEach((r) => same(r, modules.get(r.module)));
const timers = rows.map((r) => ({
  env: modules.get(r.module),
  call: timer(r.call, r.number),
  floor: timer(r.floor, r.number),
  number: r.number,
}));
const best = timers.map(() => ({ call: Infinity, floor: Infinity }));
for (let round = 0; round < rounds; round++) {
  timers.forEach((t, i) => {
    best[i].call = Math.min(best[i].call, t.call(t.env));
    best[i].floor = Math.min(best[i].floor, t.floor(t.env));
  });
}
process.stdout.write(
  JSON.stringify(
    best.map((b, i) => ({
      call: (b.call * 1000) / timers[i].number,
      floor: (b.floor * 1000) / timers[i].number,
    })),
  ),
);
