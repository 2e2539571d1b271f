/* Drift at the end of a move (issue 40): appended only for rules with a `drift` line; the
 * meaning is rulesdsl.semantics.drift.drift, as the Python module's _drifted says it. */
const _DRIFT_EIGHT = [[1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1], [1, 1]];

/** The board's grid directions, numbered as headings, after checking ``wind``. */
function _driftSteps(fn, board, wind) {
  if (typeof wind !== "number" || !Number.isInteger(wind)) throw new ArgumentTypeError(fn, "wind", wind, "must be an int");
  if (board._neighbours !== null || !board._shape) {
    throw new InvalidArgument(fn, "wind", wind, "needs a board on a grid");
  }
  const steps = board._diagonal ? _DRIFT_EIGHT : board._shape === "hex" ? _HEX_STEPS : _SQUARE_STEPS;
  if (!(0 <= wind && wind < steps.length)) throw new InvalidArgument(fn, "wind", wind, `must be 0 to ${steps.length - 1}`);
  return steps;
}

/** ``answer`` (a route, or null) with ``drift``: where the wind, blowing from heading ``wind``,
 * carries the unit at the end of a legal move (null: no wind, an illegal route or one without a
 * step, a unit type that does not drift or not in its state's band). Place by place downwind, at
 * no cost and with no roll; it stops before a place off the board, one it may not enter or may
 * not end in, and in one where it must stop. */
function _drifted(fn, board, mode, answer, wind) {
  wind = _windParts(fn, wind)[0]; // its strength moves nothing // [wind strength]
  const steps = wind === null || wind === undefined ? null : _driftSteps(fn, board, wind);
  if (answer === null) return null;
  const entry = steps === null ? undefined : _DRIFTS[mode];
  let place = null;
  if (entry !== undefined && answer.legal && answer.steps.length > 0 && _inDriftBand(entry, answer.state)) {
    const [dq, dr] = steps[(wind + steps.length / 2) % steps.length];
    place = answer.steps[answer.steps.length - 1].end;
    for (let i = 0; i < entry[0]; i++) {
      const there = Object.freeze([place[0] + dq, place[1] + dr]);
      const features = board.featuresOf(there);
      if (features === undefined || !canEnd(mode, features)) break;
      if (features.some((feature) => FEATURES[feature].costs[mode] instanceof Marker)) break;
      place = there;
      if (mustStop(mode, features)) break;
    }
  }
  const drifted = Object.assign(Object.create(Object.getPrototypeOf(answer)), answer, { drift: place });
  return Object.freeze(drifted);
}

/** Whether a unit drifts at the state it ends with (none given: it does). */
function _inDriftBand(entry, state) {
  const [, name, op, bound] = entry;
  if (!name || state === null || state === undefined) return true;
  return op === "below" ? state[name] < bound : state[name] > bound;
}
