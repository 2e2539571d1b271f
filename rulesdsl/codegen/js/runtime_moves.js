// ---- movement costs (every module; follows module.py.j2's move_cost piece by piece) ----

/** A cost paid once per move through the feature, whatever the distance. */
export class Flat {
  constructor(amount) {
    this.amount = amount;
    Object.freeze(this);
  }
}

/** A share of the moving unit's allowance: ``numerator / denominator`` of it, less ``but``
 * (never below 0); ``new Share(1, 1, 0)`` is all of it. */
export class Share {
  constructor(numerator, denominator, but = 0) {
    this.numerator = numerator;
    this.denominator = denominator;
    this.but = but;
    Object.freeze(this);
  }
  /** This share of ``allowance`` (a finite number, at least 0). */
  of(allowance) {
    if (!(typeof allowance === "number" && allowance >= 0 && allowance < _INF)) {
      @check(Share.of, allowance, allowance);
    }
    const part = (allowance * this.numerator) / this.denominator;
    return this.but ? Math.max(0, part - this.but) : part;
  }
}

/** Python's ``_raised_by``: an ArgumentError of moveCost met inside ``fn`` (canEnter, a
 * route), as ``fn``'s own, so that the caller is told of the function it called. */
function _raisedBy(error, fn) {
  if (!(error instanceof ArgumentError)) return error;
  return new error.constructor(fn, error.argument, error.value, error.reason);
}

/** Python's ``_place_check``: the mode, then each feature, named. */
function _placeCheck(fn, mode, features) {
  @check(can_end, mode, mode, fn);
  if (!Array.isArray(features)) throw new ArgumentTypeError(fn, "features", features, "must be an array of names");
  for (const feature of features) @check(can_end, features, feature, fn);
}

/** A feature's cost per distance for ``mode``: a number, a Marker, or the name of the
 * parameter the ruleset leaves open. */
function _perDistance(mode, feature) {
  return FEATURES[feature].costs[mode];
}

/** Per mode, a tree of the places asked (a node per feature in the order given) holding each
 * one's answer at distance 1: filled as they are asked, so that asking again is a few lookups
 * (places that warn or raise are never kept; Python's ``_MOVE_COSTS``). */
const _MOVE_COSTS = new Map();
/** At most this many answers are kept per mode. */
const _MOVE_COSTS_KEPT = 4096;

/** Python's ``_move_cost``: moveCost at distance 1 from the features (names checked, the
 * place checked, conflicts warned); kept per mode when it can be, as Python keeps it. */
function _moveCost(mode, features) {
  @check(move_cost, mode, mode);
  for (const feature of features) {
    // a dice outcome that feeds the cost (issue 24); any other name is checked as a feature
    if (typeof feature === "string" && _OUTCOMES.has(feature)) continue;
    @check(move_cost, features, feature);
  }
  let warned = false;
  if (features.length > 1) {
    _checkPlace(features);
    warned = _warnConflicts(features);
  }
  let total = ENTRY_COST;
  let prohibited = false;
  let impassable = false;
  for (const feature of _counted(features)) {
    const unfilled = _UNFILLED_COSTS.get(`${mode}\u0000${feature}`);
    if (unfilled !== undefined) throw new UnfilledParameter(unfilled);
    if (_OUTCOMES.has(feature)) {
      total += _OUTCOME_COSTS[feature] ?? 0;
      continue;
    }
    const cost = _perDistance(mode, feature);
    if (cost instanceof Marker) {
      if (cost === PROHIBITED) {
        prohibited = true;
        break;
      }
      impassable = true;
    } else if (typeof cost !== "string") total += cost; // a string: an unfilled parameter, thrown above
  }
  const answer = prohibited ? PROHIBITED : impassable ? IMPASSABLE : total;
  if (!warned && !features.some((f) => _ONCE_FEATURES.has(f))) _keep(mode, features, answer);
  return answer;
}

/** Keeps a place's answer in its mode's tree (while the tree has room). */
function _keep(mode, features, answer) {
  let root = _MOVE_COSTS.get(mode);
  if (root === undefined) _MOVE_COSTS.set(mode, (root = { answer: undefined, next: null, size: 0 }));
  if (root.size >= _MOVE_COSTS_KEPT) return;
  let node = root;
  for (const feature of features) {
    node.next ??= new Map();
    let child = node.next.get(feature);
    if (child === undefined) node.next.set(feature, (child = { answer: undefined, next: null }));
    node = child;
  }
  if (node.answer === undefined) root.size++;
  node.answer = answer;
}

/** A place's answer kept by ``_moveCost`` (undefined: not asked before; a mode or feature
 * that is not a name is never a key of the tree). */
function _keptCost(mode, features) {
  let node = _MOVE_COSTS.get(mode);
  for (let i = 0; node !== undefined && i < features.length; i++) node = node.next?.get(features[i]);
  return node?.answer;
}

/** Python's TypeError for a keyword argument the function does not take. */
function _unexpected(fn, inputs) {
  for (const name of Object.keys(inputs)) {
    const error = new TypeError(`${fn}() got an unexpected keyword argument ${pyRepr(name)}`);
    error.code = "TypeError";
    throw error;
  }
}

const _NO_OPTIONS = Object.freeze({});

/** The options of a function but its own ``known`` ones: a moveCost's step inputs
 * (``{height: 3}``), or options a function does not take. */
function _inputsOf(options, known) {
  let inputs = _NO_OPTIONS; // made only when there is one: most calls have none
  for (const name in options) {
    if (!Object.hasOwn(options, name) || known.includes(name)) continue;
    if (inputs === _NO_OPTIONS) inputs = {};
    inputs[name] = options[name];
  }
  return inputs;
}

/** The step inputs among a moveCost's or canEnter's options; a TypeError for any when the
 * ruleset has none, as Python's ``move_cost`` then takes no ``**inputs``. */
function _costInputs(fn, options, known) {
  const inputs = _inputsOf(options, known);
  if (!COST_INPUTS.length) _unexpected(fn, inputs);
  return inputs;
}

const _COST_OPTIONS = ["distance", "allowance", "move"];
const _ENTER_OPTIONS = ["available", "allowance", "move"];

/** Whether moveCost's ``options`` hold none but its own (the common case, tested without
 * making anything). */
function _onlyCostOptions(options) {
  for (const name in options) if (name !== "distance" && name !== "allowance" && name !== "move") return false;
  return true;
}

/** Movement cost for ``mode`` through a place with ``features``: the features' costs per
 * distance summed with the entry cost, times ``distance``, plus the costs paid once per move
 * (flat costs, shares of ``allowance``, steps' answers for the inputs named in COST_INPUTS);
 * PROHIBITED when a feature prohibits the mode, else IMPASSABLE when one is impassable for it.
 * ``move``: a kind of move (MOVES). Python's ``move_cost(mode, *features, distance=,
 * allowance=, move=, **inputs)``. */
export function moveCost(mode, features = [], options = _NO_OPTIONS) {
  if (!Array.isArray(features)) throw new ArgumentTypeError("move_cost", "features", features, "must be an array of names");
  const { distance = 1, move = null } = options;
  let { allowance = null } = options;
  if (allowance === null && _OWN_ALLOWANCES) allowance = _ownAllowance(mode, null); // the unit type's own
  const inputs = _onlyCostOptions(options) ? _NO_OPTIONS : _costInputs("move_cost", options, _COST_OPTIONS);
  if (move !== null && move !== undefined) return _moveCostKind(mode, features, distance, allowance, move, inputs);
  let cost = _keptCost(mode, features);
  if (cost === undefined) {
    cost = _moveCost(mode, features);
    if (features.some((f) => _ONCE_FEATURES.has(f))) {
      return _moveCostOnce(mode, features, cost, distance, allowance, inputs);
    }
  }
  if ((allowance !== null && allowance !== undefined) || inputs !== _NO_OPTIONS) {
    return _moveCostOnce(mode, features, cost, distance, allowance, inputs);
  }
  if (distance === 1) return cost;
  if (!(typeof distance === "number" && distance >= 0 && distance < _INF)) {
    @check(move_cost, distance, distance);
  }
  return cost instanceof Marker ? cost : cost * distance;
}

/** Python's ``_move_cost_once``: moveCost with the costs paid once per move. */
function _moveCostOnce(mode, features, cost, distance, allowance, inputs) {
  @check(move_cost, distance, distance);
  if (allowance !== null && allowance !== undefined) @check(move_cost, allowance, allowance);
  for (const [name, value] of Object.entries(inputs)) {
    if (!COST_INPUTS.includes(name)) throw new UnknownName("cost input", name, COST_INPUTS);
    _checkNumber("move_cost", name, value, null);
  }
  if (cost instanceof Marker) return cost;
  let total = cost * distance;
  for (const feature of _counted(features)) {
    const once = _onceCost(mode, feature, allowance, inputs);
    if (once instanceof Marker) return once;
    total += once;
  }
  return total;
}

/** Python's ``_once_cost``: what ``feature`` adds once per move (or once per crossing, for an
 * edge): its flat cost, its share of ``allowance`` or its step's answer; 0 when its cost is
 * per distance. ``inputs``: a plain object of the steps' inputs. */
function _onceCost(mode, feature, allowance, inputs) {
  const once = PER_MOVE_COSTS[mode]?.[feature];
  if (once === undefined) return 0;
  if (once instanceof Flat) return once.amount;
  if (once instanceof Share) {
    if (allowance === null || allowance === undefined) {
      throw new InvalidArgument("move_cost", "allowance", null, `must be given: ${pyRepr(feature)} costs a share of it`);
    }
    return once.of(allowance);
  }
  if (!Object.hasOwn(inputs, once.input)) {
    throw new InvalidArgument("move_cost", once.input, null, `must be given: ${pyRepr(feature)} costs the step ${pyRepr(once.step)}`);
  }
  return STEPS[once.step](inputs[once.input]);
}

/** Whether ``mode`` may enter the place: not impassable or prohibited and, given the
 * movement ``available``, affordable (or allowed by the minimum-move rule, which needs
 * movement left). ``allowance``, ``move`` and the step inputs go to moveCost. */
export function canEnter(mode, features = [], options = _NO_OPTIONS) {
  const { available = null, allowance = null, move = null } = options;
  const inputs = _costInputs("can_enter", options, _ENTER_OPTIONS);
  let cost;
  try {
    cost = moveCost(mode, features, { allowance, move, ...inputs });
  } catch (error) {
    throw _raisedBy(error, "can_enter");
  }
  if (available !== null && available !== undefined) @check(can_enter, available, available);
  if (cost instanceof Marker) return false;
  return available === null || available === undefined || cost <= available || (MINIMUM_MOVE && available > 0);
}

/** Whether ``mode`` may end its move in a place with ``features`` (none says ``may not
 * end``: the unit may still move through it). */
export function canEnd(mode, features = []) {
  _placeCheck("can_end", mode, features);
  return !_counted(features).some((f) => _STATES[f]?.[mode] === "may_not_end");
}

/** Whether ``mode`` must stop on entering a place with ``features``. */
export function mustStop(mode, features = []) {
  _placeCheck("must_stop", mode, features);
  return _counted(features).some((f) => _STATES[f]?.[mode] === "must_stop");
}

const _STEP_NAMES = ["straight", "diagonal", "s", "d"];

/** Length of a grid path of "straight" / "diagonal" steps (or "s" / "d", also as one string
 * such as "dsssd"), in ``unit`` (default: the first the grid gives). Diagonals count
 * GRID_DIAGONALS cells in turn, the count carried across the straight steps between. */
export function pathCost(steps, options = _NO_OPTIONS) {
  _unexpected("path_cost", _inputsOf(options, ["unit"]));
  const unit = options.unit ?? null;
  const units = Object.keys(GRID_SIZES);
  if (!units.length) throw new UnknownName("grid", "grid", []);
  const chosen = unit ?? units[0];
  @check(path_cost, unit, chosen);
  // Python iterates a str by its characters and a dict by its keys
  const iterable = typeof steps === "string" || typeof steps?.[Symbol.iterator] === "function";
  const items = iterable ? steps : typeof steps === "object" && steps !== null ? Object.keys(steps) : null;
  if (items === null) throw new ArgumentTypeError("path_cost", "steps", steps, "must be an iterable of steps");
  let cells = 0;
  let diagonals = 0;
  for (const step of items) {
    if (step === "s" || step === "straight") cells += 1;
    else if (step === "d" || step === "diagonal") {
      if (!GRID_DIAGONALS.length) throw new InvalidArgument("path_cost", "steps", step, "this grid has no diagonals");
      cells += GRID_DIAGONALS[diagonals % GRID_DIAGONALS.length];
      diagonals += 1;
    } else @check(path_cost, steps, step);
  }
  return cells * GRID_SIZES[chosen];
}

/** Names as a pool for ``_checkName`` (a frozen mapping of each to true). */
function _pool(names) {
  return _dict(Object.fromEntries(names.map((n) => [n, true])));
}

// ---- kinds of move and the rolls the map makes due (module_moves.py.j2) ----

/** A kind of move beside the unit type: the unit's allowance becomes ``allowance * factor +
 * amount``; a unit making it may not enter the ``barred`` features (a Set); ``modes``: the unit
 * types that may make it (a Set; null: every one). */
export class MoveKind {
  constructor(id, label, factor, amount, barred, modes = null) {
    Object.assign(this, { id, label, factor, amount, barred, modes });
    Object.freeze(this);
  }
}

/** A roll the map makes due ``on`` entering, crossing, ending in or first entering a place:
 * ``dice`` ("2d6") or the dice ``table`` it rolls on, and how the values of one place's
 * features ``combine`` into its modifier. */
export class RollRule {
  constructor(id, label, on, dice, table, combine) {
    Object.assign(this, { id, label, on, dice, table, combine });
    Object.freeze(this);
  }
}

/** A roll due along a route: at ``step`` (1 for the first place entered) into ``place``,
 * ``on`` entering, crossing, ending or first_entering, the rule ``roll`` (its ``dice`` or
 * ``table``) with its ``modifier``, called for by ``features``; ``move``: the kind of move
 * it was judged for ("": none). */
export class RollDue {
  constructor(step, place, on, roll, dice, table, modifier, features, move = "") {
    Object.assign(this, { step, place, on, roll, dice, table, modifier, features, move });
    Object.freeze(this);
  }
}

function _kind(fn, move, mode) {
  @check(move_cost, move, move, fn);
  const kind = MOVES[move];
  if (kind.modes !== null && typeof mode === "string" && Object.hasOwn(MODES, mode) && !kind.modes.has(mode)) {
    throw new InvalidArgument(fn, "move", move, `must be a kind of move a '${mode}' may make`);
  }
  return kind;
}

/** Python's ``_kind_cost``: a feature's cost per distance for a unit making the move ``kind``
 * (its barred features prohibited, its own costs where the rules give them). */
function _kindCost(mode, feature, kind) {
  if (kind.barred.has(feature)) return PROHIBITED;
  if (_OUTCOMES.has(feature)) return _OUTCOME_COSTS[feature] ?? 0;
  const byMode = _KIND_COSTS[kind.id]?.[feature];
  return byMode !== undefined && Object.hasOwn(byMode, mode) ? byMode[mode] : _perDistance(mode, feature);
}

/** Python's ``_move_cost_kind``: moveCost for a unit making the move ``move``, its allowance
 * scaled for the shares of it. */
function _moveCostKind(mode, features, distance, allowance, move, inputs) {
  const kind = _kind("move_cost", move, mode);
  _moveCost(mode, features); // the names and the place checked, conflicts warned
  @check(move_cost, distance, distance);
  if (allowance !== null && allowance !== undefined) {
    @check(move_cost, allowance, allowance);
    allowance = allowance * kind.factor + kind.amount;
  }
  let total = ENTRY_COST;
  let impassable = false;
  const counted = _counted(features);
  for (const feature of counted) {
    const cost = _kindCost(mode, feature, kind);
    if (typeof cost === "string") throw new UnfilledParameter(cost); // nobody filled it in
    if (cost instanceof Marker) {
      if (cost === PROHIBITED) return PROHIBITED;
      impassable = true;
    } else total += cost;
  }
  if (impassable) return IMPASSABLE;
  total *= distance;
  for (const feature of counted) {
    const own = _KIND_COSTS[kind.id]?.[feature];
    if (own !== undefined && Object.hasOwn(own, mode)) continue; // the kind's cost stands instead
    const once = _onceCost(mode, feature, allowance, inputs);
    if (once instanceof Marker) return once;
    total += once;
  }
  return total;
}

/** Python's ``_with_move``: a route function's moveCost options for a kind of move
 * (``move`` passed on), and the unit's allowance as the kind makes it. */
function _withMove(fn, extra, move, allowance, mode) {
  const kind = _kind(fn, move, mode);
  if (allowance !== null && allowance !== undefined) allowance = allowance * kind.factor + kind.amount;
  return [{ ...extra, move: kind.id }, allowance];
}

/** Python's ``_kind_edge_cost``: an edge feature's cost for a unit making the move ``move``. */
function _kindEdgeCost(mode, feature, move) {
  return _kindCost(mode, feature, MOVES[move]);
}

/** Python's ``_place_roll`` (rulesdsl.semantics.moves.place_roll): null when no feature of
 * the place calls for the roll; else [its modifier, the features that give it] (whole-map
 * conditions add to the modifier of the features that call for it). */
function _placeRoll(roll, mode, move, features) {
  const values = _ROLL_VALUES[roll] ?? {};
  const own = move !== null && move !== undefined ? (_ROLL_MOVES[roll]?.[move] ?? {}) : {};
  const callers = [];
  const extra = [];
  for (const feature of _counted(features)) {
    const value = (Object.hasOwn(own, feature) ? own[feature] : values[feature])?.[mode];
    if (value === undefined) continue;
    (_WHOLE_MAP.has(feature) ? extra : callers).push([feature, value]);
  }
  if (!callers.length) return null;
  const parts = callers.map(([, v]) => v);
  const combine = ROLLS[roll].combine;
  let total =
    combine === "highest" ? Math.max(...parts) : combine === "lowest" ? Math.min(...parts) : parts.reduce((a, b) => a + b, 0);
  total += extra.reduce((sum, [, v]) => sum + v, 0);
  return [total, [...callers, ...extra].map(([name]) => name)];
}

/** The rolls due when ``mode`` (making the move ``move``, if given) enters a place with
 * ``features`` (``on: "entering"``; "first_entering", "ending", or "crossing" an edge with
 * those features), each a RollDue at step 1, place null. */ // [no roll bands]
 * those features), each a RollDue at step 1, place null. ``state``: the unit's state as it // [roll bands]
 * enters, changed by ``features`` as a route's step changes it; a roll due only in a band of // [roll bands]
 * a state is then listed only while the state is in the band (one on any step included). */ // [roll bands]
export function rollsDue(mode, features = [], options = _NO_OPTIONS) {
  _unexpected("rolls_due", _inputsOf(options, ["move", "on"])); // [no roll bands]
  const { move = null, on = "entering" } = options; // [no roll bands]
  _unexpected("rolls_due", _inputsOf(options, ["move", "on", "state"])); // [roll bands]
  const { move = null, on = "entering", state = null } = options; // [roll bands]
  _placeCheck("rolls_due", mode, features);
  if (move !== null && move !== undefined) _kind("rolls_due", move, mode);
  if (!_ROLL_ORDER.includes(on)) {
    throw new InvalidArgument("rolls_due", "on", on, `must be one of ${_ROLL_ORDER.join(", ")}`);
  }
  let carried = _carriedArg("rolls_due", state, mode); // [roll bands]
  if (carried !== null) { // read after the place's change, kept where that breaks a range // [roll bands]
    const after = _changed(carried, mode, features); // [roll bands]
    if (!_outOfRange(after, mode)) carried = after; // [roll bands]
  } // [roll bands]
  const out = [];
  for (const rule of Object.values(ROLLS)) {
    if (rule.on !== on) continue;
    const band = carried === null ? undefined : _ROLL_STATES[rule.id]; // [roll bands]
    if (band !== undefined) { // [roll bands]
      if (!(band[1] === "below" ? carried[band[0]] < band[2] : carried[band[0]] > band[2])) continue; // [roll bands]
      if (on === "any_step") { // due wherever the unit is, in its band // [step rolls] // [roll bands]
        out.push(new RollDue(1, null, on, rule.id, rule.dice, rule.table, 0, Object.freeze([]), move ?? "")); // [step rolls] // [roll bands]
        continue; // [step rolls] // [roll bands]
      } // [step rolls] // [roll bands]
    } // [roll bands]
    const found = _placeRoll(rule.id, mode, move, features);
    if (found !== null) {
      out.push(new RollDue(1, null, on, rule.id, rule.dice, rule.table, found[0], Object.freeze(found[1]), move ?? ""));
    }
  }
  return out;
}
