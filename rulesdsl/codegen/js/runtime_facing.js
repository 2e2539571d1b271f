// ---- facing: headings, turns, turn modes (follows module_facing.py.j2 piece by piece) ----

/** A unit type's heading on a grid: ``headings`` ways it may face (heading ``h`` looks along
 * the grid's ``h``-th neighbour, counter-clockwise from +x), what turning one costs, the turn
 * modes by speed ([up to speed, places straight], first match wins), each move it may make
 * beside going forward ([extra cost, up to speed, once per move], null: not allowed), whether
 * it must spend exactly its speed, the turn modes by kind of move ([kind, places]: they win
 * over those by speed), and whether the move may end on the step that spends the rest of its
 * speed and more. */
export class FacingRule {
  constructor(fields) {
    Object.assign(this, fields);
    Object.freeze(this);
  }
}

/** One action of a move with facing: from ``start`` into ``end`` (the same place for a turn)
 * with ``heading`` after it; ``move`` is forward, backward, sideslip, turn or pivot;
 * ``straight``: the places gone since the last turn, after it. */
export class FacingStep {
  constructor(start, end, heading, move, features, edge, cost, straight) {
    Object.assign(this, { start, end, heading, move, features, edge, cost, straight });
    Object.freeze(this);
  }
}

/** A move with facing: its ``total``, ``steps``, whether it is ``legal`` (``reason`` says why
 * not), the ``heading`` it ends with, the ``speed`` and ``turnMode`` it was judged by, the
 * kind of ``move`` ("": none) and the ``rolls`` due along it (``step`` counts the actions). */
export class FacingRoute {
  constructor(total, steps, legal, reason, heading, speed, turnMode, move = "", rolls = Object.freeze([])) { // [no state] // [facing not whole]
  constructor(total, steps, legal, reason, heading, speed, turnMode, move = "", rolls = Object.freeze([]), marks = undefined) { // [no state] // [facing whole]
    Object.assign(this, { total, steps, legal, reason, heading, speed, turnMode, move, rolls }); // [no state]
  constructor(total, steps, legal, reason, heading, speed, turnMode, move = "", rolls = Object.freeze([]), state = null) { // [state] // [facing not whole]
  constructor(total, steps, legal, reason, heading, speed, turnMode, move = "", rolls = Object.freeze([]), state = null, marks = undefined) { // [state] // [facing whole]
    Object.assign(this, { total, steps, legal, reason, heading, speed, turnMode, move, rolls, state }); // [state]
    if (marks !== undefined) this.marks = marks; // only for rules with whole-move rules // [facing whole]
    Object.freeze(this);
  }
}

const _EIGHT_STEPS = [[1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1], [1, 1]];

/** Python's ``%``: the result has the sign of the divisor. */
function _mod(a, n) {
  return ((a % n) + n) % n;
}

/** The exact value of a finite double ``|x|`` as ``[digits, scale]``: ``digits / 10 ** scale``
 * (a double is ``mantissa * 2 ** exponent``, and ``2 ** -n`` is ``5 ** n / 10 ** n``). */
function _exact(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = biased === 0 ? -1074 : biased - 1075;
  if (exponent >= 0) return [mantissa << BigInt(exponent), 0];
  return [mantissa * 5n ** BigInt(-exponent), -exponent];
}

/** ``digits / 10 ** drop`` rounded half to even, as Python rounds: JavaScript's
 * ``toFixed`` and ``toExponential`` round an exact tie up (100000.5 to 100001). */
function _halfEven(digits, drop) {
  if (drop <= 0) return digits * 10n ** BigInt(-drop);
  const unit = 10n ** BigInt(drop);
  const [kept, rest] = [digits / unit, digits % unit];
  const half = unit / 2n;
  return rest > half || (rest === half && kept % 2n === 1n) ? kept + 1n : kept;
}

/** Python's ``format(x, "g")``: 6 significant digits, trailing zeros dropped. */
function _g(x) {
  x = Number(x); // a bool as 0 or 1, as Python's format(True, "g")
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const sign = x < 0 ? "-" : "";
  const [digits, scale] = _exact(x);
  let exponent = digits.toString().length - 1 - scale;
  let kept = _halfEven(digits, digits.toString().length - 6);
  if (kept === 1000000n) [kept, exponent] = [100000n, exponent + 1];
  const text = kept.toString();
  const trim = (t) => (t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t);
  if (exponent < -4 || exponent >= 6) {
    const e = Math.abs(exponent) < 10 ? `0${Math.abs(exponent)}` : String(Math.abs(exponent));
    return `${sign}${trim(`${text[0]}.${text.slice(1)}`)}e${exponent < 0 ? "-" : "+"}${e}`;
  }
  if (exponent >= 5) return sign + text;
  const point = exponent + 1;
  const fixed = point > 0 ? `${text.slice(0, point)}.${text.slice(point)}` : `0.${"0".repeat(-point)}${text}`;
  return sign + trim(fixed);
}

function _facingSteps(rule) {
  if (rule.headings === 6) return _HEX_STEPS;
  return rule.headings === 4 ? _SQUARE_STEPS : _EIGHT_STEPS;
}

/** The board a unit with facing moves on: a grid of its shape (and diagonals for 8 headings). */
function _facingBoard(fn, board, rule) {
  @check(route_cost, board, board, fn);
  const shape = rule.headings === 6 ? "hex" : "square";
  if (board._neighbours !== null || board._shape !== shape) {
    throw new InvalidArgument(fn, "board", board.grid, `a unit with facing moves on a ${shape} grid board`);
  }
  if ((rule.headings === 8) !== Boolean(board._diagonal)) {
    throw new InvalidArgument(fn, "board", board.grid, `this unit faces the grid '${rule.grid}'`);
  }
}

/** The places a unit goes straight before it may turn: by kind of move, else by speed. */
function _turnMode(rule, speed, move = null) {
  for (const [kind, places] of rule.turnModesByMove) if (kind === move) return places;
  for (const [upTo, places] of rule.turnModes) if (speed <= upTo) return places;
  return rule.turnModes[rule.turnModes.length - 1][1];
}

/** What turning one heading costs at ``speed``: the first row by speed that covers it, else
 * the cost for every speed. */
function _turnCost(rule, speed) {
  for (const [upTo, cost] of rule.turnCosts ?? []) if (speed <= upTo) return cost;
  return rule.turnCost;
}

function _allowed(move, speed, used, bit) {
  return move !== null && speed <= move[1] && !(move[2] && used & bit);
}

/** A turn of ``turns`` headings as a reason says it: hexsides, or degrees on a square grid. */
function _turned(rule, turns) {
  if (rule.headings === 6) return `${turns} hexside${turns !== 1 ? "s" : ""}`;
  return `${Math.floor((turns * 360) / rule.headings)} deg`;
}

/** ``wind: [heading, strength]`` as its heading and strength (issue 40); a bare heading has // [wind strength]
 * no strength. */ // [wind strength]
function _windParts(fn, wind) { // [wind strength]
  if (!Array.isArray(wind)) return [wind, null]; // [wind strength]
  if (wind.length !== 2 || typeof wind[1] !== "string") throw new ArgumentTypeError(fn, "wind", wind, "must be an int or (heading, strength)"); // [wind strength]
  if (!_STRENGTHS.includes(wind[1])) throw new UnknownName("strength of the wind", wind[1], _STRENGTHS); // [wind strength]
  return [wind[0], wind[1]]; // [wind strength]
} // [wind strength]
 // [wind strength]
/** The wind, the heading it blows from: required when the unit tacks or wears by it. */
function _windArg(fn, rule, wind) {
  let strength = null; // [wind strength]
  [wind, strength] = _windParts(fn, wind); // [wind strength]
  if ((rule.strengths || rule.strengthSpeeds) && wind !== null && wind !== undefined && strength === null) { // [wind strength]
    throw new InvalidArgument(fn, "wind", wind, "must be (heading, strength): the unit's rules read it"); // [wind strength]
  } // [wind strength]
  if (wind === null || wind === undefined) {
    if ((rule.tack ?? null) !== null || (rule.wear ?? null) !== null) {
      throw new InvalidArgument(fn, "wind", null, "must be given: the unit tacks or wears");
    }
    if (rule.sail) throw new InvalidArgument(fn, "wind", null, "must be given: the unit sails by it"); // [sail]
    if (rule.strengths || rule.strengthSpeeds) throw new InvalidArgument(fn, "wind", null, "must be given: its strength counts"); // [wind strength]
    return null;
  }
  if (typeof wind !== "number" || !Number.isInteger(wind)) throw new ArgumentTypeError(fn, "wind", wind, "must be an int");
  if (!(0 <= wind && wind < rule.headings)) throw new InvalidArgument(fn, "wind", wind, `must be 0 to ${rule.headings - 1}`);
  return wind;
}

/** What a turn onto each heading costs more by the wind (Infinity: not allowed). */
function _byWind(rule, wind) { // [no wind strength]
function _byWind(rule, wind, strength = null) { // [wind strength]
  const more = new Array(rule.headings).fill(0);
  if (wind !== null) {
    more[wind] = rule.tack ?? 0;
    more[(wind + Math.floor(rule.headings / 2)) % rule.headings] = rule.wear ?? 0;
  }
  // then what a step at each heading costs more by the point of sail (Infinity: impassable) // [sail]
  for (let h = 0; h < rule.headings; h++) more.push(rule.sail && wind !== null ? rule.sail[_mod(wind - h, rule.headings)][1] : 0); // [sail]
  // and what every step costs more by the wind's strength (Infinity: impassable) // [wind strength]
  const blown = (rule.strengths ?? []).find(([n]) => n === strength)?.[1] ?? 0; // [wind strength]
  for (let h = rule.headings; h < 2 * rule.headings; h++) more[h] += blown; // [wind strength]
  return more;
}

/** ``speed by ARCS (...)`` (issue 40): given the wind and no allowance, [extra, allowance] as if // [sailing speed]
 * the caller gave the unit's speed at the point of sail of ``heading``, the heading its move // [sailing speed]
 * starts with (a kind of move scales it); else null. */ // [sailing speed]
function _sailing(fn, board, mode, rule, wind, heading, move, inputs = _NO_OPTIONS) { // [sailing speed]
  const windAt = _windArg(fn, rule, wind); // [sailing speed]
  if (!rule.speeds || windAt === null) return null; // [sailing speed] // [no wind strength]
  const speed = rule.speeds[_mod(windAt - heading, rule.headings)][1]; // [sailing speed] // [no wind strength]
  const strength = _windParts(fn, wind)[1]; // `speed when`'s speed wins // [sailing speed] // [wind strength]
  const blown = (rule.strengthSpeeds ?? []).find(([n]) => n === strength)?.[1] ?? null; // [sailing speed] // [wind strength]
  if (blown === null && (!rule.speeds || windAt === null)) return null; // [sailing speed] // [wind strength]
  const speed = blown ?? rule.speeds[_mod(windAt - heading, rule.headings)][1]; // [sailing speed] // [wind strength]
  const extra = _routeArgs(fn, board, mode, speed, inputs); // [sailing speed]
  if (move === null || move === undefined) return [extra, speed]; // [sailing speed]
  return _withMove(fn, extra, move, speed, mode); // [sailing speed]
} // [sailing speed]
 // [sailing speed]
function _headingArg(fn, rule, heading) {
  if (typeof heading !== "number" || !Number.isInteger(heading)) {
    throw new ArgumentTypeError(fn, "heading", heading, "must be an int");
  }
  if (!(0 <= heading && heading < rule.headings)) {
    throw new InvalidArgument(fn, "heading", heading, `must be 0 to ${rule.headings - 1}`);
  }
  return heading;
}

/** A [place, heading] pair of ``board``: [the place as given, its key, the heading]. */
function _stateArg(fn, argument, board, rule, state) {
  const key = _placeKey(state);
  const plain = key !== null && board._features.has(key);
  if (plain || !(Array.isArray(state) && state.length === 2)) {
    const reason = plain ? "must be a (place, heading) pair: the unit has facing" : "must be a (place, heading) pair";
    throw new ArgumentTypeError(fn, argument, _shown(state), reason);
  }
  const place = _onBoard(fn, argument, board, state[0]);
  return [state[0], place, _headingArg(fn, rule, state[1])];
}

function _facingSpeed(fn, rule, allowance) {
  if (allowance === null || allowance === undefined) {
    if (rule.exactSpeed) {
      throw new InvalidArgument(fn, "allowance", null, "give the speed: the unit must spend it exactly");
    }
    return _INF;
  }
  return allowance;
}

/** ``work``'s answer, its errors of another function (a step's input missing, met in a cost) // [facing raised]
 * as ``fn``'s: Python's ``_raised_by`` round a facing route (one of ``fn`` is left as it is, so // [facing raised]
 * that a place keeps its tuple form). */ // [facing raised]
function _facingRaisedBy(fn, work) { // [facing raised]
  try { // [facing raised]
    return work(); // [facing raised]
  } catch (error) { // [facing raised]
    throw error instanceof ArgumentError && error.functionName !== fn ? _raisedBy(error, fn) : error; // [facing raised]
  } // [facing raised]
} // [facing raised]
 // [facing raised]
/** routeCost for a unit type with facing (Python's ``_facing_route_cost``): ``route`` is
 * [place, heading] pairs, the start first; each next pair is one action: a step into a
 * neighbour (forward, backward or sideslip, the heading kept) or a turn in place. */
function _facingRouteCost(board, mode, route, allowance, move, entered, wind = null) { // [no state] // [facing unfed]
function _facingRouteCost(board, mode, route, allowance, move, entered, wind = null, state = null) { // [state] // [facing unfed]
function _facingRouteCost(board, mode, route, allowance, move, entered, wind = null, state = null, inputs = _NO_OPTIONS, outcomes = null) { // [facing fed]
  const rule = FACINGS[mode];
  _facingBoard("route_cost", board, rule);
  let extra = _routeArgs("route_cost", board, mode, allowance); // [facing unfed]
  let extra = _routeArgs("route_cost", board, mode, allowance, inputs); // [facing fed]
  if (move !== null && move !== undefined) [extra, allowance] = _withMove("route_cost", extra, move, allowance, mode);
  const before = _enteredArg("route_cost", board, entered);
  const priced = _outcomesArg("route_cost", board, outcomes); // [facing fed]
  if (typeof route === "string" || !_isIterable(route)) {
    throw new ArgumentTypeError("route_cost", "route", route, "must be a sequence of (place, heading) pairs");
  }
  const states = [...route].map((s) => _stateArg("route_cost", "route", board, rule, s));
  const unsaid = (allowance === null || allowance === undefined) && states.length > 0; // the speed by the point of sail (issue 40) // [sailing speed]
  const sailed = unsaid ? _sailing("route_cost", board, mode, rule, wind, states[0][2], move) : null; // [facing unfed] // [sailing speed]
  const sailed = unsaid ? _sailing("route_cost", board, mode, rule, wind, states[0][2], move, inputs) : null; // [facing fed] // [sailing speed]
  if (sailed !== null) [extra, allowance] = sailed; // [sailing speed]
  const speed = _facingSpeed("route_cost", rule, allowance);
  const windAt = _windArg("route_cost", rule, wind);
  const strength = _windParts("route_cost", wind)[1]; // [wind strength]
  const begin = _carriedArg("route_cost", state); // [state] // [one range]
  const begin = _carriedArg("route_cost", state, mode); // [state] // [own range]
  const walked = _facingWalk(board, mode, rule, states, speed, extra, move, windAt); // [facing unfed] // [no wind strength]
  const walked = _facingWalk(board, mode, rule, states, speed, extra, move, windAt, priced); // [facing fed] // [no wind strength]
  const walked = _facingWalk(board, mode, rule, states, speed, extra, move, windAt, undefined, strength); // [facing unfed] // [wind strength]
  const walked = _facingWalk(board, mode, rule, states, speed, extra, move, windAt, priced, strength); // [facing fed] // [wind strength]
  return _facingJudged(board, mode, rule, states, walked, allowance ?? null, speed, move, before); // [no state]
  return _facingJudged(board, mode, rule, states, walked, allowance ?? null, speed, move, before, begin); // [state]
}

/** Each action of a facing route, costed: [steps, total, marker, reason] (the loop of
 * ``_facing_route_cost``). */
function _facingWalk(board, mode, rule, states, speed, extra, move, windAt = null) { // [facing unfed] // [no wind strength]
function _facingWalk(board, mode, rule, states, speed, extra, move, windAt = null, priced = new Map()) { // [facing fed] // [no wind strength]
function _facingWalk(board, mode, rule, states, speed, extra, move, windAt = null, priced = new Map(), strength = null) { // [wind strength]
  const byWind = _byWind(rule, windAt); // [no wind strength]
  const byWind = _byWind(rule, windAt, strength); // [wind strength]
  const modePlaces = _turnMode(rule, speed, move);
  const count = rule.headings;
  const steps = [];
  let total = 0;
  let marker = null;
  let reason = "";
  let straight = 0;
  let used = 0;
  let turnedHere = 0; // headings turned by turns in this place (`turn at most`)
  const limit = rule.turnLimit ?? null;
  const last = states.length - 1;
  for (let i = 1; i <= last; i++) {
    const [[start, from, was], [end, to, heading]] = [states[i - 1], states[i]];
    if (from === to) {
      const turned = _mod(heading - was, count);
      const turns = Math.min(turned, count - turned);
      if (turns === 0) {
        throw new InvalidArgument("route_cost", "route", new _Tuple([_shown(end), heading]), `repeats the pair before it (step ${i})`);
      }
      let cost = turns * _turnCost(rule, speed);
      let how = "turn";
      const early = !(straight >= modePlaces && (turns === 1 || modePlaces === 0));
      if (early || (limit !== null && turnedHere + turns > limit)) {
        if (_allowed(rule.pivot, speed, used, _ONCE_BITS.pivot)) {
          how = "pivot";
          cost += rule.pivot[0];
          used |= rule.pivot[2] ? _ONCE_BITS.pivot : 0;
        } else if (!reason && !early) {
          reason = `step ${i} turns ${_turned(rule, turnedHere + turns)} in one place (at most ${_turned(rule, limit)})`;
        } else if (!reason) {
          reason = `step ${i} turns after ${straight} place${straight !== 1 ? "s" : ""} straight (turn mode ${modePlaces} at speed ${_g(speed)})`;
        }
      }
      const way = turned === turns ? 1 : -1;
      for (let k = 1; k <= turns; k++) {
        const side = _mod(was + way * k, count);
        if (byWind[side] < _INF) cost += byWind[side];
        else if (!reason) {
          const [what, verb] = side === windAt ? ["bow", "tack"] : ["stern", "wear"];
          reason = `step ${i} turns its ${what} across the wind: it may not ${verb}`;
        }
      }
      if (how === "turn") turnedHere += turns;
      straight = 0;
      steps.push(new FacingStep(start, end, heading, how, _NO_EDGE, _NO_EDGE, cost, straight));
      total += cost;
      continue;
    }
    const [dq, dr] = [Number(end[0]) - Number(start[0]), Number(end[1]) - Number(start[1])];
    const direction = _facingSteps(rule).findIndex(([q, r]) => q === dq && r === dr);
    if (direction < 0) {
      throw new InvalidArgument("route_cost", "route", _shown(end), `is not next to ${pyRepr(_shown(start))} (step ${i})`);
    }
    let extraCost = 0;
    let how = "forward";
    const side = _mod(direction - was, count);
    if (heading !== was) reason ||= `step ${i} turns while it moves: turn in place first`;
    else if (side === 0) {
      // forward
    } else if (side === Math.floor(count / 2) && rule.backward !== null) {
      how = "backward";
      [extraCost, used, reason] = _manoeuvre(rule.backward, "backward", speed, used, reason, `step ${i} moves backward`);
    } else if ((side === 1 || side === count - 1) && rule.sideslip !== null) {
      how = "sideslip";
      [extraCost, used, reason] = _manoeuvre(rule.sideslip, "sideslip", speed, used, reason, `step ${i} sideslips`);
    } else reason ||= `step ${i} moves where its heading does not let it`;
    const distance = direction % 2 && count === 8 ? board._diagonal : 1;
    const entered = board._features.get(to);
    const crossed = _crossing(board, from, to);
    let paid = _stepCost(mode, entered, crossed, distance, extra); // [facing unfed]
    let paid = _stepCost(mode, priced.get(to) ?? entered, crossed, distance, extra); // [facing fed]
    straight = Math.min(straight + 1, modePlaces);
    turnedHere = 0;
    if (rule.sail && !(paid instanceof Marker)) { // the point of sail (issue 40) // [sail] // [no wind strength]
    if ((rule.sail || rule.strengths) && !(paid instanceof Marker)) { // the point of sail, the strength (issue 40) // [wind strength]
      if (byWind[count + heading] < _INF) extraCost += byWind[count + heading]; // [sail]
      else { // [sail]
        reason ||= `step ${i} is impassable (${rule.sail[_mod(windAt - heading, count)][0]} by the wind)`; // [sail] // [no wind strength]
        const arc = rule.sail ? rule.sail[_mod(windAt - heading, count)] : ["", 0]; // [wind strength]
        reason ||= `step ${i} is impassable (${arc[1] === _INF ? `${arc[0]} by the wind` : `${strength} wind`})`; // [wind strength]
        paid = IMPASSABLE; // [sail]
      } // [sail]
    } // [sail]
    if (paid instanceof Marker) {
      if (marker !== PROHIBITED) marker = paid;
      reason ||= `step ${i} is ${paid.value}`;
    } else {
      paid += extraCost;
      total += paid;
      if (!reason && i < last && mustStop(mode, entered)) reason = `step ${i} enters a place where the unit must stop`;
    }
    steps.push(new FacingStep(start, end, heading, how, entered, crossed, paid, straight));
  }
  return [steps, total, marker, reason];
}

/** A backward step or a sideslip: [its extra cost, the once-per-move bits used, the reason]
 * (a refused one is costed as the manoeuvre it is where the edition says so). */
function _manoeuvre(move, kind, speed, used, reason, what) {
  if (_allowed(move, speed, used, _ONCE_BITS[kind])) {
    return [move[0], used | (move[2] ? _ONCE_BITS[kind] : 0), reason];
  }
  return [_REFUSED_COSTED ? move[0] : 0, used, reason || `${what}, not allowed at speed ${_g(speed)}`];
}

/** The end of ``_facing_route_cost``: whether the walked route is legal, as a FacingRoute. */
function _facingJudged(board, mode, rule, states, walked, allowance, speed, move, before) { // [no state]
function _facingJudged(board, mode, rule, states, walked, allowance, speed, move, before, begin) { // [state]
  const [steps, total, marker] = walked;
  let reason = walked[3];
  const [marks, beyond] = _WHOLE_MOVES.length ? _wholeMove(steps) : [undefined, ""]; // turns never count // [facing whole]
  reason ||= beyond; // [facing whole]
  const [endState, brokenRange, along] = _routeState(begin, mode, move, steps); // [state]
  reason ||= brokenRange; // [state]
  const moved = steps.filter((s) => _placeKey(s.start) !== _placeKey(s.end));
  if (!reason && moved.length && !canEnd(mode, board.featuresOf(moved[moved.length - 1].end))) {
    reason = "the unit may not end its move in the last place";
  }
  if (!reason && allowance !== null) {
    const end = steps[steps.length - 1];
    const stepped = steps.length && _placeKey(end.start) !== _placeKey(end.end); // a turn never overspends
    const lastStep = stepped && !(end.cost instanceof Marker) ? end.cost : 0;
    if (rule.exactSpeed) {
      if (!_spent(rule, total, allowance, lastStep)) {
        reason = `the route spends ${_g(total)} of a speed of ${_g(allowance)}, not all of it`;
      }
    } else if (total > allowance && !(MINIMUM_MOVE && allowance > 0 && steps.length === 1)) { // [no bonus]
    } else if (total > allowance + _wholeBonus(moved) && !(MINIMUM_MOVE && allowance > 0 && steps.length === 1)) { // [bonus]
      reason = "the route costs more than the allowance";
    }
  }
  const modePlaces = _turnMode(rule, speed, move);
  const heading = states.length ? states[states.length - 1][2] : 0;
  const rolls = _facingRolls(mode, move, states.length ? states[0] : null, steps, before);
  return new FacingRoute(marker ?? total, Object.freeze(steps), !reason, reason, heading, speed, modePlaces, move ?? "", rolls); // [no state] // [facing not whole]
  return new FacingRoute(marker ?? total, Object.freeze(steps), !reason, reason, heading, speed, modePlaces, move ?? "", rolls, marks); // [no state] // [facing whole]
  return new FacingRoute(marker ?? total, Object.freeze(steps), !reason, reason, heading, speed, modePlaces, move ?? "", _stateRolls(rolls, along), endState); // [state] // [facing not whole]
  return new FacingRoute(marker ?? total, Object.freeze(steps), !reason, reason, heading, speed, modePlaces, move ?? "", _stateRolls(rolls, along), endState, marks); // [state] // [facing whole]
}

/** The rolls due along a move with facing: those of the steps into places (turns make none),
 * each numbered by its action. */
function _facingRolls(mode, move, start, steps, entered) {
  const moved = [];
  steps.forEach((s, i) => {
    if (_placeKey(s.start) !== _placeKey(s.end)) moved.push([i + 1, s]);
  });
  if (!moved.length || !Object.keys(ROLLS).length) return Object.freeze([]);
  const keys = [start[1], ...moved.map(([, s]) => _placeKey(s.end))];
  const found = _routeRolls(mode, move, [start[0]], keys, moved.map(([, s]) => s), entered);
  return Object.freeze(found.map((d) => new RollDue(moved[d.step - 1][0], d.place, d.on, d.roll, d.dice, d.table, d.modifier, d.features, d.move)));
}

/** _entering for a unit making the move ``move``: its costs and barred features; kept on the
 * board per unit type and kind. */
function _facingEntering(board, mode, move) { // [facing no shares]
function _facingEntering(board, mode, move, allowance = null) { // [facing shares]
  if (move === null || move === undefined) return _entering(board, mode); // [facing no shares]
  if ((move === null || move === undefined) && allowance === null) return _entering(board, mode); // [facing shares]
  const key = `${mode} ${move}`; // [facing no shares]
  const key = `${mode} ${move} ${allowance}`; // [facing shares]
  const kind = move !== null && move !== undefined ? { move } : {}; // [facing shares]
  if (allowance !== null) kind.allowance = allowance; // for the shares of it, as route_cost costs them // [facing shares]
  let found = board._entering.get(key);
  if (found === undefined) {
    const byFeatures = new Map();
    for (const features of board._features.values()) {
      if (byFeatures.has(features)) continue;
      const cost = _stepCost(mode, features, _NO_EDGE, 1, { move }); // [facing no shares]
      const cost = _stepCost(mode, features, _NO_EDGE, 1, kind); // [facing shares]
      byFeatures.set(features, [cost instanceof Marker ? _INF : cost, mustStop(mode, features)]);
    }
    found = new Map([...board._features].map(([place, features]) => [place, byFeatures.get(features)]));
    board._entering.set(key, found);
  }
  return found;
}

/** _facingEntering for a search given step inputs or dice outcomes (Python's // [facing fed]
 * ``_priced_entering``): each place costed with them (``kind``: the kind of move and the // [facing fed]
 * inputs; ``priced``: a place's features and outcomes), whether the unit must stop by its own // [facing fed]
 * features; not kept on the board. */ // [facing fed]
function _pricedEntering(board, mode, kind, priced) { // [facing fed]
  const costs = new Map(); // [facing fed]
  const out = new Map(); // [facing fed]
  for (const [place, features] of board._features) { // [facing fed]
    const costed = priced.get(place) ?? features; // [facing fed]
    let cost = costs.get(costed); // [facing fed]
    if (cost === undefined) { // [facing fed]
      const paid = _stepCost(mode, costed, _NO_EDGE, 1, kind); // [facing fed]
      costs.set(costed, (cost = paid instanceof Marker ? _INF : paid)); // [facing fed]
    } // [facing fed]
    out.set(place, [cost, mustStop(mode, features)]); // [facing fed]
  } // [facing fed]
  return out; // [facing fed]
} // [facing fed]
 // [facing fed]
/** What a unit may do at ``speed``: each way it may step ([turn of its heading it steps along,
 * extra cost, the once-per-move bit it needs free, the bit it then uses]), and the pivot's
 * cost and bits (a cost of -1: no pivot). */
function _facingOptions(rule, speed) {
  const count = rule.headings;
  const options = [[0, 0, 0, 0]];
  for (const [kind, sides] of [["backward", [Math.floor(count / 2)]], ["sideslip", [1, count - 1]]]) {
    const move = rule[kind];
    if (move !== null && speed <= move[1]) {
      const bit = move[2] ? _ONCE_BITS[kind] : 0;
      for (const side of sides) options.push([side, move[0], bit, bit]);
    }
  }
  const pivot = rule.pivot;
  if (pivot !== null && speed <= pivot[1]) {
    return [options, _turnCost(rule, speed) + pivot[0], pivot[2] ? _ONCE_BITS.pivot : 0, 1];
  }
  return [options, -1, 0, 0];
}

/** Python's ``round(x, 9)`` (half to even) as a key's text. */
function _rounded(x) {
  if (!Number.isFinite(x)) return String(x);
  const [digits, scale] = _exact(x);
  const kept = _halfEven(digits, scale - 9).toString().padStart(10, "0");
  const text = `${x < 0 ? "-" : ""}${kept.slice(0, -9)}.${kept.slice(-9)}`;
  return String(Number(text)); // the decimal read as the nearest double, as Python's round does
}

/** A search state: [place as found, place key, heading, places straight, moves used (with a
 * turn limit, the headings turned in the place from bit 8)]. */
function _stateKey(state) {
  return `${state[1]}#${state[2]}#${state[3]}#${state[4]}`; // [no state] // [facing not whole]
  return `${state[1]}#${state[2]}#${state[3]}#${state[4]}#${state[5]}`; // [state] // [facing not whole]
  return `${state[1]}#${state[2]}#${state[3]}#${state[4]}#${state.slice(5).join("#")}`; // the state, the counts // [facing whole]
}

/** Dijkstra over (place, heading, places straight, moves used) within ``budget``; with exact
 * speed, over those and the points spent (Python's ``_facing_search``). Returns [the cost of
 * each key found, the key each was reached from, the state of each key, the goal key found or
 * null]. ``start``: [place, place key, heading]; ``goal``: [place key, heading or null]. */
function _facingSearch(board, mode, start, budget, speed, goal = null, move = null, byWind = null) { // [no state] // [facing unfed] // [facing no shares]
function _facingSearch(board, mode, start, budget, speed, goal = null, move = null, byWind = null, carried = []) { // [state] // [facing unfed] // [facing no shares]
function _facingSearch(board, mode, start, budget, speed, goal = null, move = null, byWind = null, carried = [], inputs = _NO_OPTIONS, priced = new Map()) { // [facing fed] // [facing no shares]
function _facingSearch(board, mode, start, budget, speed, goal = null, move = null, byWind = null, carried = [], inputs = _NO_OPTIONS, priced = new Map(), allowance = null) { // [facing shares]
  // A bool budget or speed counts as 0 or 1 in the comparisons, as True and False do in Python's.
  budget = Number(budget);
  speed = Number(speed);
  const rule = FACINGS[mode];
  const modePlaces = _turnMode(rule, speed, move);
  const entering = _facingEntering(board, mode, move); // [facing unfed] // [facing no shares]
  const entering = _facingEntering(board, mode, move, allowance); // [facing unfed] // [facing shares]
  const kind = move !== null && move !== undefined ? { move } : {}; // [facing unfed]
  const kind = { ...(move !== null && move !== undefined ? { move } : {}), ...inputs }; // [facing fed]
  if (allowance !== null) kind.allowance = allowance; // for the shares of it, as route_cost costs them // [facing shares]
  const fed = Object.keys(inputs).length > 0 || priced.size > 0; // [facing fed]
  const entering = fed ? _pricedEntering(board, mode, kind, priced) : _facingEntering(board, mode, move); // [facing fed] // [facing no shares]
  const entering = fed ? _pricedEntering(board, mode, kind, priced) : _facingEntering(board, mode, move, allowance); // [facing fed] // [facing shares]
  const count = rule.headings;
  const offsets = _facingSteps(rule);
  const [options, pivotCost, pivotBit, canPivot] = _facingOptions(rule, speed);
  const turnCost = _turnCost(rule, speed);
  const [limit, turned, kept] = (rule.turnLimit ?? null) !== null ? [rule.turnLimit, 256, 255] : [1, 0, -1];
  const exact = rule.exactSpeed;
  const firstState = [start[0], start[1], start[2], 0, 0]; // [no state]
  const firstState = [start[0], start[1], start[2], 0, 0, carried]; // [state]
  const [wholeLimits, wholeKept, bonuses] = _wholeLimits(); // [facing whole]
  firstState.push(wholeLimits.map(() => 0)); // the steps counted by each whole-move limit and bonus // [facing whole]
  const keyOf = (state, total) => (exact ? `${_stateKey(state)}@${_rounded(total)}` : _stateKey(state));
  const firstKey = keyOf(firstState, 0);
  const best = new Map([[firstKey, 0]]);
  const states = new Map([[firstKey, firstState]]);
  const came = new Map();
  const done = new Set();
  const heap = [[0, 0, firstKey]];
  let order = 1;
  let first = MINIMUM_MOVE && budget > 0 && !exact;
  let begin = true;
  let found = null;
  while (heap.length) {
    const [cost, , key] = _heapPop(heap);
    if (done.has(key)) continue;
    done.add(key);
    const [, here, heading, straight, used] = states.get(key); // [no state]
    const [, here, heading, straight, used, values] = states.get(key); // [state]
    const counts = states.get(key)[states.get(key).length - 1]; // [facing whole]
    if (
      goal !== null &&
      here === goal[0] &&
      (goal[1] === null || heading === goal[1]) &&
      (!exact || cost === budget || (rule.untilSpent && cost > budget)) &&
      (here === start[1] || canEnd(mode, board._features.get(here)))
    ) {
      found = key;
      break;
    }
    if (!begin && (cost > budget || (here !== start[1] && entering.get(here)[1]))) continue; // [no bonus]
    const room = budget + _left(bonuses, counts.slice(wholeKept)); // the bonuses every step so far keeps // [bonus]
    if (!begin && (cost > room || (here !== start[1] && entering.get(here)[1]))) continue; // [bonus]
    begin = false;
    const nexts = [];
    const ahead = straight < modePlaces ? straight + 1 : modePlaces;
    const [q, r] = board._place.get(here).map(Number);
    for (const [side, extraCost, needs, uses] of options) {
      if (needs && used & needs) continue;
      const direction = (heading + side) % count;
      const [dq, dr] = offsets[direction];
      const there = `(${q + dq},${r + dr})`;
      const entry = entering.get(there);
      if (entry === undefined) continue;
      const diagonal = count === 8 && direction % 2;
      const crossed = board._crossed.get(`${here}|${there}`);
      let step;
      if (crossed === undefined && !diagonal) step = entry[0];
      else {
        const paid = _stepCost(mode, board._features.get(there), crossed ?? _NO_EDGE, diagonal ? board._diagonal : 1, kind); // [facing unfed]
        const costed = priced.get(there) ?? board._features.get(there); // with the dice outcomes rolled there // [facing fed]
        const paid = _stepCost(mode, costed, crossed ?? _NO_EDGE, diagonal ? board._diagonal : 1, kind); // [facing fed]
        step = paid instanceof Marker ? _INF : paid;
      }
      if (step < _INF) nexts.push([step + extraCost, [null, there, heading, ahead, (used & kept) | uses]]);
    }
    const place = states.get(key)[0]; // a turn keeps the place as the state has it
    if (straight >= modePlaces && used >> 8 < limit) {
      for (const turn of [1, count - 1]) nexts.push([turnCost, [place, here, (heading + turn) % count, 0, used + turned]]);
    } else if (canPivot && !(used & pivotBit)) {
      for (const turn of [1, count - 1]) nexts.push([pivotCost, [place, here, (heading + turn) % count, 0, used | pivotBit]]);
    }
    nexts.splice(0, nexts.length, ..._carriedSteps(board, mode, here, values, nexts)); // [state]
    nexts.splice(0, nexts.length, ..._countedSteps(board, here, wholeLimits, wholeKept, counts, nexts)); // [facing whole]
    // a turn onto the wind's heading tacks, onto the opposite one wears (Infinity: never taken)
    const weighed = byWind === null ? nexts : nexts.map(([s, t]) => (t[1] === here ? [s + byWind[t[2]], t] : [s, t])); // [no sail]
    // a step costs more by the point of sail, byWind's second half (issue 40) // [sail]
    const weighed = byWind === null ? nexts : nexts.map(([s, t]) => [s + byWind[t[1] === here ? t[2] : count + t[2]], t]); // [sail]
    for (const [step, there] of weighed) {
      const total = cost + step;
      const over = first || (rule.untilSpent && cost < budget); // a last step may overspend
      if (!(total <= budget || (over && there[1] !== here))) continue; // [no bonus]
      const room = budget + _left(bonuses, there[there.length - 1].slice(wholeKept)); // [bonus]
      if (!(total <= room || (over && there[1] !== here))) continue; // [bonus]
      const nextKey = keyOf(there, total);
      if (total < (best.get(nextKey) ?? _INF) && !done.has(nextKey)) {
        if (!states.has(nextKey)) {
          if (there[0] === null) there[0] = board._found(there[1]); // a step: the grid's numbers
          states.set(nextKey, there);
        }
        best.set(nextKey, total);
        came.set(nextKey, key);
        _heapPush(heap, [total, order, nextKey]);
        order++;
      }
    }
    first = false;
  }
  return [best, came, states, found];
}

/** The facing search's next actions with the steps counted by each whole-move limit and bonus // [facing whole]
 * after each as their last item (a turn counts nothing); one beyond a limit is dropped. // [facing whole]
 * (_counted_steps) */ // [facing whole]
function _countedSteps(board, here, limits, kept, counts, nexts) { // [facing whole]
  const counted = []; // [facing whole]
  for (const [step, there] of nexts) { // [facing whole]
    let after = counts; // [facing whole]
    if (there[1] !== here) { // [facing whole]
      const crossed = board._crossed.get(`${here}|${there[1]}`) ?? _NO_EDGE; // [facing whole]
      after = _wholeCounts(limits, kept, counts, crossed, board._features.get(there[1])); // [facing whole]
    } // [facing whole]
    if (after !== null) counted.push([step, [...there, after]]); // [facing whole]
  } // [facing whole]
  return counted; // [facing whole]
} // [facing whole]
 // [facing whole]
/** Whether a move with exact speed spends its speed: exactly, or (``or until spent``) on a last
 * step of ``last`` begun with points left. */
function _spent(rule, total, speed, last) {
  speed = Number(speed); // a bool speed counts as 0 or 1, as in Python's ==
  return total === speed || (rule.untilSpent && total > speed && total - last < speed);
}

/** The [place, heading] pairs of the route a search found to ``key``. */
function _facingPath(came, states, key) {
  const keys = [key];
  while (came.has(keys[keys.length - 1])) keys.push(came.get(keys[keys.length - 1]));
  keys.reverse();
  return keys.map((k) => {
    const state = states.get(k);
    return Object.freeze([state[0], state[2]]);
  });
}

/** cheapestRoute for a unit type with facing: ``start`` a [place, heading] pair, ``goal`` a
 * place (any heading) or a pair. */
function _facingCheapest(board, mode, start, goal, allowance, move, entered, wind = null) { // [no state] // [facing unfed]
function _facingCheapest(board, mode, start, goal, allowance, move, entered, wind = null, state = null) { // [state] // [facing unfed]
function _facingCheapest(board, mode, start, goal, allowance, move, entered, wind = null, state = null, inputs = _NO_OPTIONS, outcomes = null) { // [facing fed]
  const rule = FACINGS[mode];
  _facingBoard("cheapest_route", board, rule);
  let extra = _routeArgs("cheapest_route", board, mode, allowance); // [facing unfed]
  let extra = _routeArgs("cheapest_route", board, mode, allowance, inputs); // [facing fed]
  const given = allowance;
  if (move !== null && move !== undefined) [extra, allowance] = _withMove("cheapest_route", extra, move, allowance, mode);
  const before = _enteredArg("cheapest_route", board, entered);
  const begin = _stateArg("cheapest_route", "start", board, rule, start);
  const priced = _outcomesArg("cheapest_route", board, outcomes); // [facing fed]
  const goalKey = _placeKey(goal);
  const onBoard = goalKey !== null && board._features.has(goalKey);
  const target = onBoard ? [goalKey, null] : _stateArg("cheapest_route", "goal", board, rule, goal).slice(1);
  const unsaid = allowance === null || allowance === undefined; // the speed by the point of sail (issue 40) // [sailing speed]
  const sailed = unsaid ? _sailing("cheapest_route", board, mode, rule, wind, begin[2], move) : null; // [facing unfed] // [sailing speed]
  const sailed = unsaid ? _sailing("cheapest_route", board, mode, rule, wind, begin[2], move, inputs) : null; // [facing fed] // [sailing speed]
  if (sailed !== null) [extra, allowance] = sailed; // [sailing speed]
  const speed = _facingSpeed("cheapest_route", rule, allowance);
  const budget = allowance === null || allowance === undefined ? _INF : allowance;
  const byWind = _byWind(rule, _windArg("cheapest_route", rule, wind)); // [no wind strength]
  const byWind = _byWind(rule, _windArg("cheapest_route", rule, wind), _windParts("cheapest_route", wind)[1]); // [wind strength]
  const [, came, states, found] = _facingSearch(board, mode, begin, budget, speed, target, move ?? null, byWind); // [no state] // [facing unfed] // [facing no shares]
  const [, came, states, found] = _facingSearch(board, mode, begin, budget, speed, target, move ?? null, byWind, [], undefined, undefined, extra.allowance ?? null); // [no state] // [facing unfed] // [facing shares]
  const [, came, states, found] = _facingSearch(board, mode, begin, budget, speed, target, move ?? null, byWind, [], inputs, priced); // [no state] // [facing fed] // [facing no shares]
  const [, came, states, found] = _facingSearch(board, mode, begin, budget, speed, target, move ?? null, byWind, [], inputs, priced, extra.allowance ?? null); // [no state] // [facing fed] // [facing shares]
  const carried = _carriedArg("cheapest_route", state); // [state] // [one range]
  const carried = _carriedArg("cheapest_route", state, mode); // [state] // [own range]
  const moved = carried === null ? [] : _movedState(carried, mode, move); // [state]
  if (moved === null) return null; // [state]
  const [, came, states, found] = _facingSearch(board, mode, begin, budget, speed, target, move ?? null, byWind, moved); // [state] // [facing unfed] // [facing no shares]
  const [, came, states, found] = _facingSearch(board, mode, begin, budget, speed, target, move ?? null, byWind, moved, undefined, undefined, extra.allowance ?? null); // [state] // [facing unfed] // [facing shares]
  const [, came, states, found] = _facingSearch(board, mode, begin, budget, speed, target, move ?? null, byWind, moved, inputs, priced); // [state] // [facing fed] // [facing no shares]
  const [, came, states, found] = _facingSearch(board, mode, begin, budget, speed, target, move ?? null, byWind, moved, inputs, priced, extra.allowance ?? null); // [state] // [facing fed] // [facing shares]
  if (found === null) return null;
  const path = _facingPath(came, states, found);
  const places = [...before].map((key) => board._place.get(key));
  return _facingRouteCost(board, mode, path, given, move, places, wind); // [no state] // [facing unfed]
  return _facingRouteCost(board, mode, path, given, move, places, wind, state); // [state] // [facing unfed]
  return _facingRouteCost(board, mode, path, given, move, places, wind, state, inputs, outcomes); // [facing fed]
}

/** reachable for a unit type with facing: each [place, heading] the unit may end in. */
function _facingReachable(board, mode, start, budget, allowance, move, wind = null) { // [no state] // [facing unfed]
function _facingReachable(board, mode, start, budget, allowance, move, wind = null, state = null) { // [state] // [facing unfed]
function _facingReachable(board, mode, start, budget, allowance, move, wind = null, state = null, inputs = _NO_OPTIONS, outcomes = null) { // [facing fed]
  const rule = FACINGS[mode];
  _facingBoard("reachable", board, rule);
  let extra = _routeArgs("reachable", board, mode, allowance); // [facing unfed]
  let extra = _routeArgs("reachable", board, mode, allowance, inputs); // [facing fed]
  const begin = _stateArg("reachable", "start", board, rule, start);
  const priced = _outcomesArg("reachable", board, outcomes); // [facing fed]
  @check(reachable, budget, budget);
  if (move !== null && move !== undefined) {
    [extra, allowance] = _withMove("reachable", extra, move, allowance, mode);
    const kind = MOVES[move];
    budget = budget * kind.factor + kind.amount;
  }
  const unsaid = allowance === null || allowance === undefined; // the speed by the point of sail (issue 40) // [sailing speed]
  const sailed = unsaid ? _sailing("reachable", board, mode, rule, wind, begin[2], move) : null; // [facing unfed] // [sailing speed]
  const sailed = unsaid ? _sailing("reachable", board, mode, rule, wind, begin[2], move, inputs) : null; // [facing fed] // [sailing speed]
  if (sailed !== null) [[extra, allowance], budget] = [sailed, Math.min(budget, sailed[1])]; // at most it is spent // [sailing speed]
  const speed = allowance !== null && allowance !== undefined ? allowance : budget;
  const modePlaces = _turnMode(rule, speed, move ?? null);
  const byWind = _byWind(rule, _windArg("reachable", rule, wind)); // [no wind strength]
  const byWind = _byWind(rule, _windArg("reachable", rule, wind), _windParts("reachable", wind)[1]); // [wind strength]
  const [best, , states] = _facingSearch(board, mode, begin, budget, speed, null, move ?? null, byWind); // [no state] // [facing unfed] // [facing no shares]
  const [best, , states] = _facingSearch(board, mode, begin, budget, speed, null, move ?? null, byWind, [], undefined, undefined, extra.allowance ?? null); // [no state] // [facing unfed] // [facing shares]
  const [best, , states] = _facingSearch(board, mode, begin, budget, speed, null, move ?? null, byWind, [], inputs, priced); // [no state] // [facing fed] // [facing no shares]
  const [best, , states] = _facingSearch(board, mode, begin, budget, speed, null, move ?? null, byWind, [], inputs, priced, extra.allowance ?? null); // [no state] // [facing fed] // [facing shares]
  const carried = _carriedArg("reachable", state); // [state] // [one range]
  const carried = _carriedArg("reachable", state, mode); // [state] // [own range]
  const moved = carried === null ? [] : _movedState(carried, mode, move); // [state]
  if (moved === null) return new Reach(new Map(), new Map(), move ?? "", budget, speed, modePlaces); // [state]
  const [best, , states] = _facingSearch(board, mode, begin, budget, speed, null, move ?? null, byWind, moved); // [state] // [facing unfed] // [facing no shares]
  const [best, , states] = _facingSearch(board, mode, begin, budget, speed, null, move ?? null, byWind, moved, undefined, undefined, extra.allowance ?? null); // [state] // [facing unfed] // [facing shares]
  const [best, , states] = _facingSearch(board, mode, begin, budget, speed, null, move ?? null, byWind, moved, inputs, priced); // [state] // [facing fed] // [facing no shares]
  const [best, , states] = _facingSearch(board, mode, begin, budget, speed, null, move ?? null, byWind, moved, inputs, priced, extra.allowance ?? null); // [state] // [facing fed] // [facing shares]
  const limit = Number(budget); // a bool counts as 0 or 1, as in Python's == (the Reach keeps it)
  const ends = new Map();
  const out = new Map();
  const places = new Map();
  for (const [key, cost] of best) {
    if (rule.exactSpeed && !(cost === limit || (rule.untilSpent && cost > limit))) continue;
    const [place, here, heading] = states.get(key);
    const entered = board._features.get(here);
    let end = ends.get(entered);
    if (end === undefined) ends.set(entered, (end = canEnd(mode, entered)));
    const pair = `(${here},${heading})`;
    if ((end || here === begin[1]) && cost < (out.get(pair) ?? _INF)) {
      if (!places.has(pair)) places.set(pair, Object.freeze([place, heading]));
      out.set(pair, cost);
    }
  }
  return new Reach(out, places, move ?? "", budget, speed, modePlaces);
}
