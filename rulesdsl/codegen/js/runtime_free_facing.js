// ---- facing off the grid: free moves in legs (follows module_free_facing.py.j2 piece by piece) ----

/** A unit type's heading off the grid: the turn cost for each ``turnStep`` degrees begun, a
 * pivot's flat cost (null: no pivots), how far it goes straight before it may turn, the turn
 * above which the move ends (null: none ends it) and whether it may reverse at half speed. */
export class FreeFacingRule {
  constructor(fields) {
    Object.assign(this, fields);
    Object.freeze(this);
  }
}

/** What a free move used of the allowance, what is left of it, whether the move ends there
 * and why ("" when it does not). */ // [free no rules]
 * and why ("" when it does not), and the ``crosses`` rules it carries. */ // [free rules]
export class FreeMove {
  constructor(used, left, ends, reason) { // [free no rules]
    Object.assign(this, { used, left, ends, reason }); // [free no rules]
  constructor(used, left, ends, reason, marks) { // [free rules]
    Object.assign(this, { used, left, ends, reason, marks }); // [free rules]
    Object.freeze(this);
  }
}

/** A move the unit's facing rule does not allow, or legs that are not a move. */
export class IllegalMove extends Error {
  constructor(message) {
    super(message);
    this.name = "IllegalMove";
    this.code = "IllegalMove";
  }
}

const _FREE_LEGS = ["straight", "reverse", "turn", "pivot"];

function _freeLeg(index, leg) {
  const ok = Array.isArray(leg) && leg.length === 2 && _FREE_LEGS.includes(leg[0]); // [free not whole]
  const ok = Array.isArray(leg) && (leg.length === 2 || leg.length === 3) && _FREE_LEGS.includes(leg[0]); // [free whole]
  const amount = ok ? leg[1] : null;
  if (!ok || typeof amount !== "number") {
    throw new IllegalMove(
      `leg ${index} must be a (move, amount) pair: move 'straight', 'reverse', 'turn' or ` + // [free not whole]
      `leg ${index} must be a (move, amount[, features]) leg: move 'straight', 'reverse', ` + // [free whole]
        "'pivot', amount a finite number", // [free not whole]
        "'turn' or 'pivot', amount a finite number", // [free whole]
    );
  }
  if (!Number.isFinite(amount)) throw new IllegalMove(`leg ${index} must have a finite amount`);
  return [leg[0], amount]; // [free not whole]
  const named = leg.length === 3 ? leg[2] : []; // [free whole]
  if (!Array.isArray(named) || !named.every((f) => typeof f === "string" && Object.hasOwn(FEATURES, f))) { // [free whole]
    throw new IllegalMove(`leg ${index} must name what it crosses or enters as a list of features`); // [free whole]
  } // [free whole]
  if (named.length && (leg[0] === "turn" || leg[0] === "pivot")) { // [free whole]
    throw new IllegalMove(`leg ${index}: a ${leg[0]} crosses and enters nothing`); // [free whole]
  } // [free whole]
  return [leg[0], amount, named]; // [free whole]
}

function _freeCheck(index, kind, amount, mode, rule) {
  const shown = pyFloat(amount, "r");
  if ((kind === "straight" || kind === "reverse") && amount <= 0) {
    throw new IllegalMove(`leg ${index}: a ${kind} leg must be longer than 0; got ${shown}`);
  }
  if ((kind === "turn" || kind === "pivot") && !(0 < Math.abs(amount) && Math.abs(amount) <= 180)) {
    throw new IllegalMove(`leg ${index}: a ${kind} is above 0 and at most 180 degrees, either way; got ${shown}`);
  }
  if (kind === "reverse" && !rule.reverseHalf) {
    throw new IllegalMove(`leg ${index}: ${mode} may not reverse (no \`reverse at half speed\`)`);
  }
  if (kind === "pivot" && rule.pivot === null) {
    throw new IllegalMove(`leg ${index}: ${mode} may not pivot (no \`pivot\` in its facing)`);
  }
}

/** The cost of a free move off the grid, given as legs in order: ["straight", inches],
 * ["reverse", inches], ["turn", degrees] or ["pivot", degrees] (negative: the other way). */
export function freeMove(mode, legs, allowance = null) {
  const rule = typeof mode === "string" && Object.hasOwn(FREE_FACINGS, mode) ? FREE_FACINGS[mode] : null;
  if (rule === null) throw new UnknownName("unit type with facing off the grid", mode, Object.keys(FREE_FACINGS));
  allowance = _ownAllowance(mode, allowance); // none given: the unit type's own
  @check(free_move, allowance, allowance);
  if (!Array.isArray(legs)) {
    throw new ArgumentTypeError("free_move", "legs", legs, "must be a list of (move, amount) pairs");
  }
  const budget = Number(allowance); // [no bonus]
  let budget = Number(allowance); // [bonus]
  let used = 0;
  let run = 0;
  let why = "";
  const read = legs.map((leg, i) => _freeLeg(i + 1, leg)); // [free whole]
  const moved = read.filter(([kind]) => kind === "straight" || kind === "reverse"); // [bonus]
  for (const [, , features, bonus] of _WHOLE_BONUSES) { // [bonus]
    if (moved.every(([, , named]) => named.some((f) => features.has(f)))) budget += bonus; // [bonus]
  } // [bonus]
  const counts = _WHOLE_MOVES.map(() => 0); // [free rules]
  for (let index = 1; index <= legs.length; index++) {
    const [kind, amount] = _freeLeg(index, legs[index - 1]); // [free not whole]
    const [kind, amount, named] = read[index - 1]; // [free whole]
    if (why) throw new IllegalMove(`leg ${index} comes after the move ended (${why})`);
    _freeCheck(index, kind, amount, mode, rule);
    if (kind === "straight") {
      used += amount;
      run += amount;
    } else if (kind === "reverse") {
      used += 2 * amount;
    } else {
      if (kind === "turn" && run < rule.straight - 1e-9) {
        throw new IllegalMove(
          `leg ${index} turns after ${pyFloat(run, "r")} straight; ${mode} goes ` +
            `${pyFloat(rule.straight, "r")} straight before a turn`,
        );
      }
      const steps = Math.ceil(Math.abs(amount) / rule.turnStep - 1e-9);
      const cost = kind === "turn" ? rule.turnCost * steps : rule.pivot || 0;
      used += cost;
      run = 0;
      if (rule.endsAbove !== null && Math.abs(amount) > rule.endsAbove) {
        why = `leg ${index} turns more than ${pyFloat(rule.endsAbove, "r")} degrees`;
      }
    }
    _freeCounts(index, named, counts); // [free rules]
    if (used > budget + 1e-9) {
      throw new IllegalMove(
        `leg ${index} brings the move to ${pyFloat(used, "r")}, more than the allowance of ${pyFloat(budget, "r")}`,
      );
    }
  }
  const left = Math.max(0, budget - used);
  if (!why && left <= 1e-9) why = "the allowance is spent";
  return new FreeMove(used, left, Boolean(why), why); // [free no rules]
  const marks = _WHOLE_MOVES.filter(([, , , most], j) => most === null && counts[j]).map(([rule]) => rule); // [free rules]
  return new FreeMove(used, left, Boolean(why), why, Object.freeze(marks)); // [free rules]
}
 // [free rules]
/** Counts leg ``index`` for each whole-move rule it names a feature of; IllegalMove when that // [free rules]
 * takes it beyond a limit (_free_counts). */ // [free rules]
function _freeCounts(index, named, counts) { // [free rules]
  _WHOLE_MOVES.forEach(([, label, features, most], j) => { // [free rules]
    if (!named.some((f) => features.has(f))) return; // [free rules]
    counts[j]++; // [free rules]
    if (most !== null && counts[j] > most) { // [free rules]
      throw new IllegalMove(`leg ${index} goes beyond '${label}' (at most ${most} per move)`); // [free rules]
    } // [free rules]
  }); // [free rules]
} // [free rules]
