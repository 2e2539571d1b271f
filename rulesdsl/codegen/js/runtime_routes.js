// ---- maps: boards, routes and reach (follows module_routes.py.j2 piece by piece) ----

const _HEX_STEPS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const _SQUARE_STEPS = [[1, 0], [0, -1], [-1, 0], [0, 1]];
const _DIAGONAL_STEPS = [[1, 1], [1, -1], [-1, -1], [-1, 1]];

/** A place as Python's dicts key it: equal keys for places Python finds equal (an array is
 * a tuple; true and 1 are the same key), null for a place Python cannot hash (an object). */
function _placeKey(place) {
  if (place === null || place === undefined) return "None";
  switch (typeof place) {
    case "number":
      return String(place === 0 ? 0 : place);
    case "boolean":
      return place ? "1" : "0";
    case "string":
      return JSON.stringify(place);
  }
  if (!Array.isArray(place)) return null;
  if (place.length === 2 && typeof place[0] === "number" && typeof place[1] === "number") {
    return `(${place[0]},${place[1]})`; // a grid's [q, r], the common case (-0 is printed 0)
  }
  const keys = [];
  for (const item of place) {
    const key = _placeKey(item);
    if (key === null) return null;
    keys.push(key);
  }
  return `(${keys.join(",")})`;
}

/** The keys of the places a board's ``neighbours`` function gave (Python's ``_next_places``):
 * an ArgumentTypeError when it gives no iterable, or a place Python cannot hash. */
function* _givenPlaces(given) {
  if (given === null || given === undefined || typeof given[Symbol.iterator] !== "function") {
    throw new ArgumentTypeError("Board", "neighbours", given, "must give an iterable of places");
  }
  for (const place of given) {
    const key = _placeKey(place);
    if (key === null) throw new ArgumentTypeError("Board", "neighbours", place, "must give hashable places");
    yield key;
  }
}

/** A place as Python prints it: an array as a tuple. */
function _shown(place) {
  return Array.isArray(place) ? new _Tuple(place.map(_shown)) : place;
}

function _isIterable(value) {
  return value !== null && value !== undefined && typeof value[Symbol.iterator] === "function";
}

/** The entries of a mapping a caller gives (iterated once): a Map, or a plain object; null for
 * another value. */
function _entriesOf(mapping) {
  if (mapping instanceof Map) return mapping.entries();
  if (mapping !== null && typeof mapping === "object" && !Array.isArray(mapping)) {
    const proto = Object.getPrototypeOf(mapping);
    if (proto === Object.prototype || proto === null) return Object.entries(mapping);
  }
  return null;
}

function _isInt(value) {
  return (typeof value === "number" && Number.isInteger(value)) || typeof value === "boolean";
}

/** A user's map: the features of each place, the features of each edge crossed from one place
 * into another (a road listed both ways, a one-way feature one way), and who neighbours whom:
 * a ``neighbours`` function, or ``grid``: a declared grid's name, or "hex" (axial [q, r]) or
 * "square" ([x, y], four neighbours). ``places`` and ``edges`` are Maps (or plain objects);
 * a place is a string, a number or an array of them ([q, r] on a grid), compared by value. */
export class Board {
  constructor(places, { edges = null, neighbours = null, grid = null } = {}) {
    const given = _entriesOf(places);
    if (given === null) throw new ArgumentTypeError("Board", "places", places, "must be a mapping of places");
    let shape = "";
    if (grid !== null && grid !== undefined) {
      if (grid === "hex" || grid === "square") shape = grid;
      else {
        if (typeof grid !== "string") throw new ArgumentTypeError("Board", "grid", grid, "must be a str naming a grid");
        const names = [...Object.keys(GRID_SHAPES), "hex", "square"]; // as Python's: a grid "square" twice
        if (!Object.hasOwn(GRID_SHAPES, grid)) throw new UnknownName("grid", grid, names);
        shape = GRID_SHAPES[grid];
      }
    }
    this._canonical = new Map(); // each distinct features, as one frozen array
    this._features = new Map(); // place key -> its features
    this._place = new Map(); // place key -> the place as first given
    _placesOneByOne(this, given, shape);
    this._crossed = new Map(); // "from key|to key" -> the edge's features
    const edgesGiven = [];
    if (edges !== null && edges !== undefined) {
      const entries = _entriesOf(edges);
      if (entries === null) throw new ArgumentTypeError("Board", "edges", edges, "must be a mapping of edges");
      _edgesOneByOne(this, entries, edgesGiven);
    }
    const noGrid = grid === null || grid === undefined;
    const noFunction = neighbours === null || neighbours === undefined;
    if (noGrid && noFunction) throw new InvalidArgument("Board", "neighbours", null, "give neighbours or a grid");
    if (!noFunction && typeof neighbours !== "function") {
      throw new ArgumentTypeError("Board", "neighbours", neighbours, "must be a function");
    }
    /** Each place and its features (the places as given: look one up with featuresOf). */
    this.places = new Map();
    for (const [key, place] of this._place) this.places.set(place, this._features.get(key));
    this.edges = new Map(edgesGiven);
    this.grid = noGrid ? null : grid;
    this._neighbours = noFunction ? null : neighbours;
    this._shape = shape;
    this._diagonal = noGrid ? 0 : _GRID_DIAGONAL[grid] ?? 0;
    this._adjacent = new Map(); // place key -> [[key, distance], ...]
    this._exits = new Map(); // mode -> place key -> [[key, cost], ...]
    this._entering = new Map(); // mode -> place key -> [cost, must stop]
    this._boxes = new Map(); // mode -> the grid's places numbered in their box (_box), or null
    Object.freeze(this);
  }

  /** The features of ``place`` (compared by value), or undefined when it is not on the board. */
  featuresOf(place) {
    const key = _placeKey(place);
    return key === null ? undefined : this._features.get(key);
  }

  /** The places next to ``place`` on this board, each with the distance of the step (1; a
   * diagonal of a square grid counts its cells): an array of [place, distance] pairs. */
  neighbours(place) {
    const key = _onBoard("neighbours", "place", this, place);
    return this._next(key).map(([there, distance]) => Object.freeze([this._found(there), distance]));
  }

  /** The place of ``key`` as a search finds it: on a grid, the [q, r] numbers; else as given. */
  _found(key) {
    const place = this._place.get(key);
    return this._neighbours === null ? Object.freeze(place.map(Number)) : place;
  }

  /** Board.neighbours by place key: [[key, distance], ...], kept once worked out. */
  _next(key) {
    let found = this._adjacent.get(key);
    if (found !== undefined) return found;
    const out = [];
    if (this._neighbours !== null) {
      for (const there of _givenPlaces(this._neighbours(this._place.get(key)))) {
        if (this._features.has(there)) out.push([there, 1]);
      }
    } else {
      const [q, r] = this._place.get(key).map(Number);
      const steps = this._shape === "hex" ? _HEX_STEPS : _SQUARE_STEPS;
      const near = (d, distance) => {
        for (const [dq, dr] of d) {
          const there = `(${q + dq},${r + dr})`;
          if (this._features.has(there)) out.push([there, distance]);
        }
      };
      near(steps, 1);
      if (this._diagonal) near(_DIAGONAL_STEPS, this._diagonal);
    }
    this._adjacent.set(key, out);
    return out;
  }

  /** ``features`` as one frozen array shared by every place or edge with the same ones. */
  _shared(features) {
    const key = JSON.stringify(features);
    let kept = this._canonical.get(key);
    if (kept === undefined) {
      kept = Object.freeze([...features]);
      this._canonical.set(key, kept);
    }
    return kept;
  }
}

/** The places checked one by one, raising at the first that is wrong (_places_one_by_one). */
function _placesOneByOne(board, given, shape) {
  // as Python's dict of them: a place given again is kept as first given, with the features last
  // given (held in board._features until checked below)
  for (const [place, features] of given) {
    const key = _placeKey(place);
    if (key === null) {
      throw new ArgumentTypeError("Board", "places", _shown(place), "must be a place of the board (a hashable key)");
    }
    if (!board._place.has(key)) board._place.set(key, place);
    board._features.set(key, features);
  }
  const checked = new Map();
  const checkedOne = new Map();
  for (const [key, features] of board._features) {
    const place = board._place.get(key);
    if (shape && !(Array.isArray(place) && place.length === 2 && _isInt(place[0]) && _isInt(place[1]))) {
      throw new ArgumentTypeError("Board", "places", _shown(place), `must be (x, y) pairs of ints on a ${shape} grid`);
    }
    if (typeof features === "string" || !_isIterable(features)) {
      throw new ArgumentTypeError("Board", "places", features, "must map each place to its feature names");
    }
    const named = Array.isArray(features) ? features : [...features];
    for (const feature of named) {
      if (typeof feature !== "string") @check(Board, places, feature);
    }
    // one name keyed by itself, more by their JSON, each in its own Map
    const [kept, namedKey] = named.length === 1 ? [checkedOne, named[0]] : [checked, JSON.stringify(named)];
    let same = kept.get(namedKey);
    if (same === undefined) {
      for (const feature of named) {
        @check(Board, places, feature);
        if (_EDGE_FEATURES.has(feature)) {
          throw new InvalidArgument("Board", "places", feature, "is an edge feature: list it in edges");
        }
      }
      if (named.length > 1) _checkPlace(named);
      same = board._shared(named);
      kept.set(namedKey, same);
    }
    board._features.set(key, same); // a key already there: the loop goes on in the same order
  }
}

/** The edges checked one by one, raising at the first that is wrong (_edges_one_by_one). */
function _edgesOneByOne(board, entries, kept) {
  for (const [edge, features] of entries) {
    const key = Array.isArray(edge) && edge.length === 2 ? _edgeKey(edge[0], edge[1]) : null;
    if (key === null) {
      throw new ArgumentTypeError("Board", "edges", _shown(edge), "must be keyed by (from, to) pairs of places");
    }
    if (typeof features === "string" || !_isIterable(features)) {
      throw new ArgumentTypeError("Board", "edges", features, "must map each edge to its feature names");
    }
    const named = [...features];
    for (const feature of named) {
      @check(Board, edges, feature);
      if (!_EDGE_FEATURES.has(feature)) {
        throw new InvalidArgument("Board", "edges", feature, "is not a feature of an edge layer");
      }
    }
    const shared = board._shared(named);
    board._crossed.set(key, shared);
    kept.push([edge, shared]);
  }
}

/** The key of the edge from one place to another; null when either cannot be hashed. */
function _edgeKey(start, end) {
  const from = _placeKey(start);
  const to = _placeKey(end);
  return from === null || to === null ? null : `${from}|${to}`;
}

const _NO_EDGE = Object.freeze([]);

/** The features of the edge crossed from key ``from`` to key ``to`` (none: an empty array). */
function _crossing(board, from, to) {
  return board._crossed.size ? board._crossed.get(`${from}|${to}`) ?? _NO_EDGE : _NO_EDGE;
}

/** The key of ``place``, raising unless it is a place of ``board`` (_on_board). */
function _onBoard(fn, argument, board, place) {
  const key = _placeKey(place);
  if (key === null) {
    throw new ArgumentTypeError(fn, argument, _shown(place), "must be a place of the board (a hashable key)");
  }
  if (!board._features.has(key)) throw new InvalidArgument(fn, argument, _shown(place), "is not a place of the board");
  return key;
}

/** rulesdsl.semantics.routes.step_cost (_step_cost): the place entered (an edge's ``along``
 * instead of it), plus each edge feature crossed, once. */
function _stepCost(mode, entered, crossed, distance, extra) {
  let place = moveCost(mode, entered, { distance, ...extra });
  let along = null;
  for (const feature of crossed) {
    const byMode = _ALONG[feature];
    if (byMode !== undefined && Object.hasOwn(byMode, mode) && (along === null || byMode[mode] < along)) {
      along = byMode[mode];
    }
  }
  if (along !== null && place !== PROHIBITED) place = along * distance;
  let edge = 0;
  let impassable = false;
  for (const feature of crossed) {
    const unfilled = _UNFILLED_COSTS.get(`${mode}\u0000${feature}`);
    if (unfilled !== undefined) throw new UnfilledParameter(unfilled);
    const cost = extra.move !== undefined ? _kindEdgeCost(mode, feature, extra.move) : _perDistance(mode, feature);
    if (cost instanceof Marker) {
      if (cost === PROHIBITED) return PROHIBITED;
      impassable = true;
    } else if (typeof cost !== "string") edge += cost;
    if (_ONCE_FEATURES.has(feature)) {
      // a wall's flat cost, paid on each crossing
      const once = _onceCost(mode, feature, extra.allowance ?? null, extra);
      if (once instanceof Marker) impassable = true;
      else edge += once;
    }
  }
  if (place instanceof Marker) return place;
  return impassable ? IMPASSABLE : place + edge;
}

/** ``allowance``, or when none is given the unit type's own (``MODES[mode].allowance``). */
function _ownAllowance(mode, allowance) {
  if ((allowance === null || allowance === undefined) && typeof mode === "string" && Object.hasOwn(MODES, mode)) {
    return MODES[mode].allowance ?? null;
  }
  return allowance;
}

/** The checks the route functions open with: the board, the mode, the allowance and the step
 * inputs (``{height: 3}``, checked as moveCost checks them); what the costs are asked with. */
function _routeArgs(fn, board, mode, allowance, inputs = _NO_OPTIONS) {
  @check(route_cost, board, board, fn);
  @check(route_cost, mode, mode, fn);
  const extra = {};
  if (allowance !== null && allowance !== undefined) {
    @check(route_cost, allowance, allowance, fn);
    extra.allowance = allowance;
  }
  for (const [name, value] of Object.entries(inputs)) {
    if (!COST_INPUTS.includes(name)) throw new UnknownName("cost input", name, COST_INPUTS);
    _checkNumber(fn, name, value, null);
    extra[name] = value;
  }
  return extra;
}

const _NOT_FOR_FACING = "is not taken for a unit type with facing"; // [facing unfed]
 // [facing unfed]
/** Step inputs and dice outcomes refused for a unit type with facing (_facing_plain). */ // [facing unfed]
function _facingPlain(fn, mode, inputs, outcomes) { // [facing unfed]
  for (const name of Object.keys(inputs)) throw new InvalidArgument(fn, name, mode, _NOT_FOR_FACING); // [facing unfed]
  if (outcomes !== null && outcomes !== undefined) throw new InvalidArgument(fn, "outcomes", mode, _NOT_FOR_FACING); // [facing unfed]
} // [facing unfed]
 // [facing unfed]
/** ``outcomes``: the dice outcomes that feed the cost rolled in places of ``board`` (a Map or a
 * plain object of place to outcome names), as a Map of place key to the place's features and
 * its outcomes: what entering it costs (_outcomes_arg). */
function _outcomesArg(fn, board, outcomes) {
  const priced = new Map();
  if (outcomes === null || outcomes === undefined) return priced;
  const given = _entriesOf(outcomes);
  if (given === null) throw new ArgumentTypeError(fn, "outcomes", outcomes, "must be a mapping of places to dice outcomes");
  for (const [place, names] of given) {
    const key = _onBoard(fn, "outcomes", board, place);
    if (typeof names === "string" || !_isIterable(names)) {
      throw new ArgumentTypeError(fn, "outcomes", names, "must give each place a sequence of dice outcomes");
    }
    const named = [...names];
    for (const name of named) {
      if (typeof name !== "string" || !_OUTCOMES.has(name)) throw new UnknownName("dice outcome", name, [..._OUTCOMES]);
    }
    priced.set(key, [...board._features.get(key), ...named]);
  }
  return priced;
}

/** ``work()``, an ArgumentError of move_cost met in it raised as ``fn``'s own (_raised_by). */
function _asRaisedBy(fn, work) {
  try {
    return work();
  } catch (error) {
    throw _raisedBy(error, fn);
  }
}

/** A step's cost, worked out once per (features, edge, distance) of a search or route. */
function _cachedStep(costs, mode, entered, crossed, distance, extra) {
  const key = `${entered.join(",")}|${crossed.join(",")}|${distance}`;
  let cost = costs.get(key);
  if (cost === undefined) {
    cost = _stepCost(mode, entered, crossed, distance, extra);
    costs.set(key, cost);
  }
  return cost;
}

/** A record of the module: frozen, its fields named. */
export class RouteStep {
  constructor(start, end, features, edge, cost) {
    Object.assign(this, { start, end, features, edge, cost });
    Object.freeze(this);
  }
}

/** A route's ``total`` (a marker when a step is one), its ``steps``, whether it is ``legal``
 * (``reason`` says why not, empty when it is), the kind of ``move`` it was costed for (empty:
 * none given) and the ``rolls`` the map makes due along it. */
export class Route {
  constructor(total, steps, legal, reason, move = "", rolls = Object.freeze([]), marks = undefined) { // [no state]
  constructor(total, steps, legal, reason, move = "", rolls = Object.freeze([]), marks = undefined, state = null) { // [state]
    Object.assign(this, { total, steps, legal, reason, move, rolls });
    if (marks !== undefined) this.marks = marks; // only for rules with whole-move rules
    this.state = state; // [state]
    Object.freeze(this);
  }
}

/** What ``reachable`` answers: a read-only Map-like of each place the unit may end in to its
 * cheapest cost (``get``, ``has``, ``size``, ``keys``, ``entries``..., places compared by value),
 * and the move's state it was searched with: ``move`` (empty: none given), ``budget`` as the
 * kind makes it, ``speed`` and ``turnMode`` (null for a unit type without facing). */
export class Reach {
  constructor(costs, places, move = "", budget = _INF, speed = null, turnMode = null) {
    this._costs = costs; // place key -> cost
    this._places = places; // place key -> place
    Object.assign(this, { move, budget, speed, turnMode });
    Object.freeze(this);
  }
  get size() {
    return this._costs.size;
  }
  get(place) {
    const key = _placeKey(place);
    return key === null ? undefined : this._costs.get(key);
  }
  has(place) {
    const key = _placeKey(place);
    return key !== null && this._costs.has(key);
  }
  *keys() {
    for (const key of this._costs.keys()) yield this._places.get(key);
  }
  *values() {
    yield* this._costs.values();
  }
  *entries() {
    for (const [key, cost] of this._costs) yield [this._places.get(key), cost];
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  forEach(callback, thisArg) {
    for (const [place, cost] of this.entries()) callback.call(thisArg, cost, place, this);
  }
}

const _ROUTE_OPTIONS = ["allowance", "move", "entered"];
_ROUTE_OPTIONS.push("state"); // [state]

/** ``options`` and the step inputs among them (Python's ``**inputs``); an argument ``fn`` does
 * not take refused with Python's TypeError. ``outcomes`` is taken where dice outcomes feed the
 * cost. */
function _routeOptions(fn, options, known) {
  known = _WIND ? [...known, "wind"] : known; // `wind` where some unit type tacks or wears
  if (!_WIND && fn !== "reachable") known = [...known, "wind"]; // [drift]
  const own = _OUTCOMES.size ? [...known, "outcomes"] : known;
  return [options ?? {}, _costInputs(fn, options ?? {}, own)];
}

/** Whether ``mode`` has a facing rule (its routes are runtime_facing.js's); any other mode,
 * a wrong one among them, is checked by the route's own arguments. */
function _facing(mode) {
  return _FACING_MODES.has(mode);
}

/** The cost of moving ``mode`` along ``route`` (places of ``board``, the start first), step
 * by step, and whether the move is legal: no step impassable or prohibited, no stop before the
 * end in a place where the unit must stop, an end where it may end, and a total within
 * ``allowance`` when one is given (with a minimum move, one step always is, unless the
 * allowance is 0). ``move``: a kind of move; ``entered``: the places entered earlier in the
 * game, for the rolls due on first entering. */
export function routeCost(board, mode, route, options = {}) {
  return _drifted("route_cost", board, mode, _routeCostOf(board, mode, route, options), options?.wind); // [drift]
} // [drift]
function _routeCostOf(board, mode, route, options = {}) { // [drift]
  const [given, inputs] = _routeOptions("route_cost", options, _ROUTE_OPTIONS);
  let { allowance = null, move = null, entered = null, outcomes = null, wind = null } = given;
  allowance = _ownAllowance(mode, allowance);
  if (_facing(mode)) {
    _facingPlain("route_cost", mode, inputs, outcomes); // [facing unfed]
    return _facingRouteCost(board, mode, route, allowance, move, entered, wind); // [no state] // [facing unfed] // [facing no shares]
    return _facingRaisedBy("route_cost", () => _facingRouteCost(board, mode, route, allowance, move, entered, wind)); // [no state] // [facing unfed] // [facing shares]
    return _facingRouteCost(board, mode, route, allowance, move, entered, wind, options?.state); // [state] // [facing unfed] // [facing no shares]
    return _facingRaisedBy("route_cost", () => _facingRouteCost(board, mode, route, allowance, move, entered, wind, options?.state)); // [state] // [facing unfed] // [facing shares]
    return _facingRaisedBy("route_cost", () => _facingRouteCost(board, mode, route, allowance, move, entered, wind, options?.state, inputs, outcomes)); // a step's input missing: route_cost's // [facing fed]
  }
  let extra = _routeArgs("route_cost", board, mode, allowance, inputs);
  if (move !== null && move !== undefined) [extra, allowance] = _withMove("route_cost", extra, move, allowance, mode);
  const before = _enteredArg("route_cost", board, entered);
  const priced = _outcomesArg("route_cost", board, outcomes);
  const begin = _carriedArg("route_cost", options?.state); // [state] // [one range]
  const begin = _carriedArg("route_cost", options?.state, mode); // [state] // [own range]
  if (typeof route === "string" || !_isIterable(route)) {
    throw new ArgumentTypeError("route_cost", "route", route, "must be a sequence of places");
  }
  const places = [...route];
  const keys = places.map((place) => _onBoard("route_cost", "route", board, place));
  return _routeCost(board, mode, places, keys, allowance ?? null, extra, move, before, priced); // [no state]
  return _routeCost(board, mode, places, keys, allowance ?? null, extra, move, before, priced, begin); // [state]
}

/** route_cost's work once its arguments are checked: ``keys`` are the places' keys; ``priced``:
 * the features a place is costed with, where dice outcomes were rolled. */
function _routeCost(board, mode, places, keys, allowance, extra, move, before, priced) { // [no state]
function _routeCost(board, mode, places, keys, allowance, extra, move, before, priced, begin) { // [state]
  const grid = board._shape && !board._diagonal && board._neighbours === null;
  const offsets = board._shape === "hex" ? _HEX_STEPS : _SQUARE_STEPS;
  const costs = new Map();
  const stops = new Map();
  const steps = [];
  let total = 0;
  let marker = null;
  let reason = "";
  const last = places.length - 1;
  for (let i = 1; i <= last; i++) {
    const [start, end] = [places[i - 1], places[i]];
    let distance;
    if (grid) {
      const [dq, dr] = [Number(end[0]) - Number(start[0]), Number(end[1]) - Number(start[1])];
      distance = offsets.some(([q, r]) => q === dq && r === dr) ? 1 : undefined;
    } else distance = board._next(keys[i - 1]).find(([there]) => there === keys[i])?.[1];
    if (distance === undefined) {
      throw new InvalidArgument("route_cost", "route", _shown(end), `is not next to ${pyRepr(_shown(start))} (step ${i})`);
    }
    const features = board._features.get(keys[i]);
    const crossed = _crossing(board, keys[i - 1], keys[i]);
    const costed = priced.get(keys[i]) ?? features;
    const cost = _asRaisedBy("route_cost", () => _routeStep(costs, mode, costed, crossed, distance, extra));
    steps.push(new RouteStep(start, end, features, crossed, cost));
    if (cost instanceof Marker) {
      if (marker !== PROHIBITED) marker = cost;
      reason ||= `step ${i} is ${cost.value}`;
      continue;
    }
    total += cost;
    if (!reason && i < last) {
      let stop = stops.get(features);
      if (stop === undefined) stops.set(features, (stop = mustStop(mode, features)));
      if (stop) reason = `step ${i} enters a place where the unit must stop`;
    }
  }
  let marks;
  if (_WHOLE_MOVES.length) {
    let broken;
    [marks, broken] = _wholeMove(steps);
    reason ||= broken;
  }
  const [endState, brokenRange, along] = _routeState(begin, mode, move, steps); // [state]
  reason ||= brokenRange; // [state]
  if (!reason && steps.length && !canEnd(mode, steps[steps.length - 1].features)) {
    reason = "the unit may not end its move in the last place";
  }
  if (!reason && allowance !== null && total > allowance && !(MINIMUM_MOVE && allowance > 0 && steps.length === 1)) { // [no bonus]
  if (!reason && allowance !== null && total > allowance + _wholeBonus(steps) && !(MINIMUM_MOVE && allowance > 0 && steps.length === 1)) { // [bonus]
    reason = "the route costs more than the allowance";
  }
  const rolls = _routeRolls(mode, move, places, keys, steps, before);
  return new Route(marker ?? total, Object.freeze(steps), !reason, reason, move ?? "", rolls, marks); // [no state]
  return new Route(marker ?? total, Object.freeze(steps), !reason, reason, move ?? "", _stateRolls(rolls, along), marks, endState); // [state]
}

/** The ``crosses`` rules a route carries, and why it breaks a limit (the first step beyond
 * one; empty when none): a step counts once per rule when the edge it crosses or the place it
 * enters has one of the rule's features (_whole_move). */
function _wholeMove(steps) {
  const marks = [];
  let reason = "";
  for (const [rule, label, features, most] of _WHOLE_MOVES) {
    let count = 0;
    for (let i = 1; i <= steps.length; i++) {
      const step = steps[i - 1];
      if (!step.edge.some((f) => features.has(f)) && !step.features.some((f) => features.has(f))) continue;
      count++;
      if (most === null) {
        marks.push(rule);
        break;
      }
      if (count > most && !reason) reason = `step ${i} goes beyond '${label}' (at most ${most} per move)`;
    }
  }
  return [Object.freeze(marks), reason];
}

/** A step's cost in route_cost: kept for the next step alike, unless its features exclude each
 * other (move_cost warns of them at every step, as the Python module does). */
function _routeStep(costs, mode, features, crossed, distance, extra) {
  if (features.length < 2 || !features.some((f) => Object.hasOwn(EXCLUSIONS, f))) {
    return _cachedStep(costs, mode, features, crossed, distance, extra);
  }
  return _stepCost(mode, features, crossed, distance, extra);
}

// ---- searches: Dijkstra over a heap of [cost, order, place key] ----

const _NO_PRICES = new Map();

function _heapPush(heap, item) {
  heap.push(item);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!_before(item, heap[parent])) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = item;
}

function _heapPop(heap) {
  const top = heap[0];
  const item = heap.pop();
  if (heap.length) {
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && _before(heap[child + 1], heap[child])) child++;
      if (!_before(heap[child], item)) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = item;
  }
  return top;
}

/** Python's order of heap items: by cost, then by the order they were pushed. */
function _before(a, b) {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/** The steps out of ``here`` that ``mode`` can take, each with its cost (markers left out);
 * kept on the board when no allowance or kind of move is given (_exits). */
function _exits(board, mode, here, extra, costs, priced) {
  const plain = Object.keys(extra).length === 0 && priced.size === 0;
  const kept = plain ? board._exits.get(mode) : undefined;
  const found = kept?.get(here);
  if (found !== undefined) return found;
  const out = [];
  for (const [there, distance] of board._next(here)) {
    const entered = priced.get(there) ?? board._features.get(there);
    const step = _cachedStep(costs, mode, entered, _crossing(board, here, there), distance, extra);
    if (!(step instanceof Marker)) out.push([there, step]);
  }
  if (plain) {
    if (!board._exits.has(mode)) board._exits.set(mode, new Map());
    board._exits.get(mode).set(here, out);
  }
  return out;
}

/** Dijkstra from ``start`` within ``budget`` (_search): the cheapest cost of each place key
 * found and the key it is entered from. A place where the unit must stop is not left; with a
 * minimum move and a budget above 0, one step from the start is always allowed. */
function _search(board, mode, start, budget, extra, goal = null, priced = _NO_PRICES) {
  const grid = board._shape && !board._diagonal && board._neighbours === null;
  if (Object.keys(extra).length === 0 && grid && priced.size === 0) {
    return _gridSearch(board, mode, start, budget, goal);
  }
  const stops = new Map();
  const costs = new Map();
  const exits = (here) => _exits(board, mode, here, extra, costs, priced);
  const stopsAt = (here) => {
    const entered = board._features.get(here);
    let stop = stops.get(entered);
    if (stop === undefined) stops.set(entered, (stop = mustStop(mode, entered)));
    return stop;
  };
  return _dijkstra(start, budget, goal, exits, stopsAt);
}

/** _search for rules with whole-move limits (_limited_search): Dijkstra over (place key, the
 * steps counted so far by each limit), a step beyond a limit never taken. The cheapest cost of
 * each place is its first state taken from the heap; ``came`` holds the route to ``goal`` only. */
function _limitedSearch(board, mode, start, budget, extra, goal = null, priced = _NO_PRICES) {
  const limits = _WHOLE_MOVES.filter((rule) => rule[3] !== null).map((rule) => [rule[2], rule[3]]);
  const bonuses = _WHOLE_BONUSES.map((rule) => [rule[2], rule[3]]); // [bonus]
  limits.push(...bonuses.map(([features]) => [features, 1])); // [bonus]
  const kept = limits.length - bonuses.length; // [bonus]
  const stops = new Map();
  const costs = new Map();
  const states = new Map(); // state key -> [place key, counts]
  const begin = `${start}#${limits.map(() => 0).join(",")}`;
  states.set(begin, [start, limits.map(() => 0)]);
  const seen = new Map([[begin, 0]]);
  const back = new Map();
  const best = new Map();
  const done = new Set();
  const heap = [[0, 0, begin]];
  const came = new Map();
  let order = 1;
  let first = _oneStepAllowed(budget);
  const has = (features, names) => names.some((f) => features.has(f));
  while (heap.length) {
    const [cost, , state] = _heapPop(heap);
    if (done.has(state)) continue;
    done.add(state);
    const [here, counts] = states.get(state);
    if (!best.has(here)) best.set(here, cost);
    if (here === goal) {
      for (let at = state; back.has(at) && !came.has(states.get(at)[0]); at = back.get(at)) {
        came.set(states.get(at)[0], states.get(back.get(at))[0]);
      }
      break;
    }
    if (here !== start) {
      const entered = board._features.get(here);
      let stop = stops.get(entered);
      if (stop === undefined) stops.set(entered, (stop = mustStop(mode, entered)));
      if (stop || cost > budget) continue; // [no bonus]
      if (stop || cost > budget + _left(bonuses, counts.slice(kept))) continue; // [bonus]
    }
    for (const [there, distance] of board._next(here)) {
      const entered = board._features.get(there);
      const crossed = _crossing(board, here, there);
      const step = _cachedStep(costs, mode, priced.get(there) ?? entered, crossed, distance, extra);
      if (step instanceof Marker) continue;
      const after = [];
      let beyond = false;
      for (let j = 0; j < limits.length; j++) {
        const [features, most] = limits[j];
        const count = counts[j] + (has(features, crossed) || has(features, entered) ? 1 : 0); // [no bonus]
        const met = has(features, crossed) || has(features, entered); // [bonus]
        const count = counts[j] + ((j < kept ? met : !met && counts[j] === 0) ? 1 : 0); // [bonus]
        after.push(count);
        if (count > most) {
          beyond = true;
          break;
        }
      }
      if (beyond) continue;
      const total = cost + step;
      const next = `${there}#${after.join(",")}`;
      if ((total <= budget || first) && total < (seen.get(next) ?? _INF) && !done.has(next)) { // [no bonus]
      const room = budget + _left(bonuses, after.slice(kept)); // [bonus]
      if ((total <= room || first) && total < (seen.get(next) ?? _INF) && !done.has(next)) { // [bonus]
        seen.set(next, total);
        states.set(next, [there, after]);
        back.set(next, state);
        _heapPush(heap, [total, order, next]);
        order++;
      }
    }
    first = false;
  }
  return [best, came];
}

/** Whether a search may take its first step whatever it costs: a minimum move, a budget above 0. */
function _oneStepAllowed(budget) {
  return MINIMUM_MOVE && budget > 0;
}

/** The loop both searches share: ``exits(here)`` gives [key, cost] pairs, ``stopsAt(here)``
 * whether the unit must stop there. */
function _dijkstra(start, budget, goal, exits, stopsAt) {
  const best = new Map([[start, 0]]);
  const came = new Map();
  const done = new Set();
  const heap = [[0, 0, start]];
  let order = 1;
  let first = _oneStepAllowed(budget);
  while (heap.length) {
    const [cost, , here] = _heapPop(heap);
    if (done.has(here)) continue;
    done.add(here);
    if (here === goal) break;
    if (here !== start && (stopsAt(here) || cost > budget)) continue;
    for (const [there, step] of exits(here, done)) {
      const total = cost + step;
      if ((total <= budget || first) && total < (best.get(there) ?? _INF) && !done.has(there)) {
        best.set(there, total);
        came.set(there, here);
        _heapPush(heap, [total, order, there]);
        order++;
      }
    }
    first = false;
  }
  return [best, came];
}

/** _search on a hex or square grid with no diagonals and no allowance (_grid_search): each
 * neighbour's cost read from _entering (an impassable or prohibited step as an infinite cost),
 * an edge's cost worked out once per distinct features entered and crossed; from the second
 * search of the board for the mode on, each place's exits are kept on the board. A board
 * without edges is searched in its box of cells instead (_boxSearch: the same answers). */
function _gridSearch(board, mode, start, budget, goal) {
  const box = board._crossed.size ? null : _box(board, mode);
  if (box !== null) return _boxSearch(board, box, start, budget, goal);
  const kept = board._exits.get(mode);
  if (kept === undefined) board._exits.set(mode, new Map()); // the next search keeps its exits
  const entering = _entering(board, mode);
  const crossing = new Map();
  const exits = (here, done) => {
    let found = kept?.get(here);
    if (found === undefined) {
      // the first search leaves the places done out; a later one keeps every exit
      found = _gridExits(board, mode, here, entering, crossing, kept === undefined ? done : null);
      if (kept !== undefined) kept.set(here, found);
    }
    return found;
  };
  return _dijkstra(start, budget, goal, exits, (here) => entering.get(here)[1]);
}

/** The steps out of ``here`` on a grid board that ``mode`` can take (places in ``done`` left
 * out), each with its cost (_grid_exits). */
function _gridExits(board, mode, here, entering, crossing, done) {
  const place = board._place.get(here);
  const [q, r] = [Number(place[0]), Number(place[1])];
  const edges = board._crossed.size > 0;
  const out = [];
  for (const [dq, dr] of board._shape === "hex" ? _HEX_STEPS : _SQUARE_STEPS) {
    const there = `(${q + dq},${r + dr})`;
    const entry = entering.get(there);
    if (entry === undefined || (done !== null && done.has(there))) continue;
    const crossed = edges ? board._crossed.get(`${here}|${there}`) : undefined;
    let step = entry[0];
    if (crossed !== undefined) {
      const features = board._features.get(there);
      const key = `${features.join(",")}|${crossed.join(",")}`;
      step = crossing.get(key);
      if (step === undefined) {
        const found = _stepCost(mode, features, crossed, 1, {});
        crossing.set(key, (step = found instanceof Marker ? _INF : found));
      }
    }
    if (step < _INF) out.push([there, step]);
  }
  return out;
}

/** A grid board's places numbered in the box of the grid around them (a place at [q, r] is
 * ``(q - q0) * height + r - r0``), with what entering each costs ``mode`` (infinite off the
 * board) and whether the unit must stop there, so that a search finds a neighbour by arithmetic;
 * null when the box is much larger than the board. Kept on the board per mode. */
function _box(board, mode) {
  let box = board._boxes.get(mode);
  if (box !== undefined) return box;
  const entering = _enteringFeatures(board, mode);
  let [q0, r0, q1, r1] = [_INF, _INF, -_INF, -_INF];
  for (const place of board._place.values()) {
    const q = Number(place[0]);
    const r = Number(place[1]);
    if (q < q0) q0 = q;
    if (q > q1) q1 = q;
    if (r < r0) r0 = r;
    if (r > r1) r1 = r;
  }
  const [width, height] = [q1 - q0 + 1, r1 - r0 + 1];
  box = null;
  if (width * height <= 4 * board._place.size + 64) {
    const cells = width * height;
    box = { q0, r0, width, height, cost: new Float64Array(cells).fill(_INF), stop: new Uint8Array(cells), keys: [] };
    for (const [key, place] of board._place) {
      const cell = (Number(place[0]) - q0) * height + Number(place[1]) - r0;
      const [cost, stop] = entering.get(board._features.get(key));
      [box.cost[cell], box.stop[cell], box.keys[cell]] = [cost, stop ? 1 : 0, key];
    }
  }
  board._boxes.set(mode, box);
  return box;
}

/** _dijkstra on a board's ``box`` of cells (a grid without edges: a step's cost is what
 * entering its place costs): the same pushes in the same order, so the same ties; its answers
 * as _dijkstra's, keyed by place key, the places in the order they were found. */
function _boxSearch(board, box, start, budget, goal) {
  const { q0, r0, width, height, cost, stop, keys } = box;
  const cellOf = (key) => {
    const place = board._place.get(key);
    return (Number(place[0]) - q0) * height + Number(place[1]) - r0;
  };
  const best = new Float64Array(cost.length).fill(_INF);
  const came = new Int32Array(cost.length);
  const done = new Uint8Array(cost.length);
  const from = cellOf(start);
  const to = goal === null ? -1 : cellOf(goal);
  const found = [from];
  best[from] = 0;
  const heap = [[0, 0, from]];
  const steps = board._shape === "hex" ? _HEX_STEPS : _SQUARE_STEPS;
  let order = 1;
  let first = _oneStepAllowed(budget);
  while (heap.length) {
    const [paid, , here] = _heapPop(heap);
    if (done[here]) continue;
    done[here] = 1;
    if (here === to) break;
    if (here !== from && (stop[here] || paid > budget)) continue;
    const [q, r] = [Math.floor(here / height), here % height];
    for (const [dq, dr] of steps) {
      const [nq, nr] = [q + dq, r + dr];
      if (nq < 0 || nq >= width || nr < 0 || nr >= height) continue;
      const there = nq * height + nr;
      const step = cost[there];
      if (!(step < _INF) || done[there]) continue;
      const total = paid + step;
      if ((total <= budget || first) && total < best[there]) {
        if (best[there] === _INF) found.push(there);
        best[there] = total;
        came[there] = here;
        _heapPush(heap, [total, order, there]);
        order++;
      }
    }
    first = false;
  }
  const bestOf = new Map(found.map((cell) => [keys[cell], best[cell]]));
  const cameOf = new Map(found.slice(1).map((cell) => [keys[cell], keys[came[cell]]]));
  return [bestOf, cameOf];
}

/** Per place key of ``board``: what entering it costs ``mode`` (a step of 1, no edge crossed;
 * infinite when impassable or prohibited) and whether the unit must stop there, worked out once
 * per distinct features in the board's order, the first time the board is searched for the
 * mode (_entering). */
function _entering(board, mode) {
  let found = board._entering.get(mode);
  if (found === undefined) {
    const byFeatures = _enteringFeatures(board, mode);
    found = new Map();
    for (const [key, features] of board._features) found.set(key, byFeatures.get(features));
    board._entering.set(mode, found);
  }
  return found;
}

/** _entering per distinct features of ``board``, in the board's order: features -> [cost, must stop]. */
function _enteringFeatures(board, mode) {
  const byFeatures = new Map();
  for (const features of board._features.values()) {
    if (byFeatures.has(features)) continue;
    const cost = _stepCost(mode, features, _NO_EDGE, 1, {});
    byFeatures.set(features, [cost instanceof Marker ? _INF : cost, mustStop(mode, features)]);
  }
  return byFeatures;
}

/** The cheapest legal route for ``mode`` from ``start`` to ``goal`` on ``board`` (within
 * ``allowance`` when one is given, as the kind of move ``move`` makes it), or null when there is
 * none; ``entered`` as for routeCost. */
export function cheapestRoute(board, mode, start, goal, options = {}) {
  return _drifted("cheapest_route", board, mode, _cheapestRouteOf(board, mode, start, goal, options), options?.wind); // [drift]
} // [drift]
function _cheapestRouteOf(board, mode, start, goal, options = {}) { // [drift]
  const [given, inputs] = _routeOptions("cheapest_route", options, _ROUTE_OPTIONS);
  let { allowance = null, move = null, entered = null, outcomes = null, wind = null } = given;
  allowance = _ownAllowance(mode, allowance);
  if (_facing(mode)) {
    _facingPlain("cheapest_route", mode, inputs, outcomes); // [facing unfed]
    return _facingCheapest(board, mode, start, goal, allowance, move, entered, wind); // [no state] // [facing unfed] // [facing no shares]
    return _facingRaisedBy("cheapest_route", () => _facingCheapest(board, mode, start, goal, allowance, move, entered, wind)); // [no state] // [facing unfed] // [facing shares]
    return _facingCheapest(board, mode, start, goal, allowance, move, entered, wind, options?.state); // [state] // [facing unfed] // [facing no shares]
    return _facingRaisedBy("cheapest_route", () => _facingCheapest(board, mode, start, goal, allowance, move, entered, wind, options?.state)); // [state] // [facing unfed] // [facing shares]
    return _facingRaisedBy("cheapest_route", () => _facingCheapest(board, mode, start, goal, allowance, move, entered, wind, options?.state, inputs, outcomes)); // a step's input missing: cheapest_route's // [facing fed]
  }
  let extra = _routeArgs("cheapest_route", board, mode, allowance, inputs);
  if (move !== null && move !== undefined) [extra, allowance] = _withMove("cheapest_route", extra, move, allowance, mode);
  const from = _onBoard("cheapest_route", "start", board, start);
  const to = _onBoard("cheapest_route", "goal", board, goal);
  const before = _enteredArg("cheapest_route", board, entered);
  const priced = _outcomesArg("cheapest_route", board, outcomes);
  const begin = _carriedArg("cheapest_route", options?.state); // [state] // [one range]
  const begin = _carriedArg("cheapest_route", options?.state, mode); // [state] // [own range]
  if (to !== from && !canEnd(mode, board._features.get(to))) return null;
  const budget = allowance === null || allowance === undefined ? _INF : allowance;
  const search = _LIMITED ? _limitedSearch : _search; // [no state]
  const [best, came] = _asRaisedBy("cheapest_route", () => search(board, mode, from, budget, extra, to, priced)); // [no state]
  const [best, came] = _asRaisedBy("cheapest_route", () => _searched(board, mode, from, budget, extra, to, begin, move, priced)); // [state]
  if (!best.has(to)) return null;
  const keys = [to];
  while (keys[keys.length - 1] !== from) keys.push(came.get(keys[keys.length - 1]));
  keys.reverse();
  const places = keys.map((key) => board._found(key));
  places[0] = start; // the route as Python's: the caller's start and goal, the places found between
  places[places.length - 1] = goal;
  return _routeCost(board, mode, places, keys, allowance ?? null, extra, move, before, priced); // [no state]
  return _routeCost(board, mode, places, keys, allowance ?? null, extra, move, before, priced, begin); // [state]
}

/** Each place of ``board`` where ``mode`` may end its move from ``start`` for at most ``budget``
 * (the start itself, at 0, included), with the cheapest cost to get there. ``allowance``, when
 * given, is passed to the costs that depend on it; ``move``: a kind of move, whose costs count
 * and which scales ``budget`` and ``allowance`` as it does a unit's allowance. No ``allowance``:
 * the unit type's own (MODES), if it has one; no ``budget``: the allowance. */
export function reachable(board, mode, start, budget = null, options = {}) {
  const [given, inputs] = _routeOptions("reachable", options, _ROUTE_OPTIONS.slice(0, 2)); // [no state]
  const [given, inputs] = _routeOptions("reachable", options, [..._ROUTE_OPTIONS.slice(0, 2), "state"]); // [state]
  let { allowance = null, move = null, outcomes = null, wind = null } = given; // [no state]
  let { allowance = null, move = null, outcomes = null, state = null, wind = null } = given; // [state]
  allowance = _ownAllowance(mode, allowance);
  if (budget === null || budget === undefined) budget = allowance;
  if (_facing(mode)) {
    _facingPlain("reachable", mode, inputs, outcomes); // [facing unfed]
    return _facingReachable(board, mode, start, budget, allowance, move, wind); // [no state] // [facing unfed] // [facing no shares]
    return _facingRaisedBy("reachable", () => _facingReachable(board, mode, start, budget, allowance, move, wind)); // [no state] // [facing unfed] // [facing shares]
    return _facingReachable(board, mode, start, budget, allowance, move, wind, state); // [state] // [facing unfed] // [facing no shares]
    return _facingRaisedBy("reachable", () => _facingReachable(board, mode, start, budget, allowance, move, wind, state)); // [state] // [facing unfed] // [facing shares]
    return _facingRaisedBy("reachable", () => _facingReachable(board, mode, start, budget, allowance, move, wind, options?.state, inputs, outcomes)); // a step's input missing: reachable's // [facing fed]
  }
  let extra = _routeArgs("reachable", board, mode, allowance, inputs);
  const from = _onBoard("reachable", "start", board, start);
  const priced = _outcomesArg("reachable", board, outcomes);
  @check(reachable, budget, budget);
  if (move !== null && move !== undefined) {
    [extra, allowance] = _withMove("reachable", extra, move, allowance, mode);
    const kind = MOVES[move];
    budget = budget * kind.factor + kind.amount;
  }
  const search = _LIMITED ? _limitedSearch : _search; // [no state]
  const [best] = _asRaisedBy("reachable", () => search(board, mode, from, budget, extra, null, priced)); // [no state]
  const [best] = _asRaisedBy("reachable", () => _searched(board, mode, from, budget, extra, null, _carriedArg("reachable", state), move, priced)); // [state] // [one range]
  const [best] = _asRaisedBy("reachable", () => _searched(board, mode, from, budget, extra, null, _carriedArg("reachable", state, mode), move, priced)); // [state] // [own range]
  const ends = new Map();
  const out = new Map();
  for (const [key, cost] of best) {
    const entered = board._features.get(key);
    let end = ends.get(entered);
    if (end === undefined) ends.set(entered, (end = canEnd(mode, entered)));
    if (end || key === from) out.set(key, cost);
  }
  const places = new Map([...out.keys()].map((key) => [key, key === from ? start : board._found(key)]));
  return new Reach(out, places, move ?? "", budget);
}

// ---- the rolls due along a route (module_moves.py.j2) ----

/** ``entered``: the places of ``board`` entered earlier in the game (for the rolls due on
 * first entering), as a Set of their keys (_entered_arg). */
function _enteredArg(fn, board, entered) {
  if (entered === null || entered === undefined) return new Set();
  if (typeof entered === "string" || !_isIterable(entered)) {
    throw new ArgumentTypeError(fn, "entered", entered, "must be an iterable of places");
  }
  return new Set([...entered].map((place) => _onBoard(fn, "entered", board, place)));
}

/** _route_rolls' rolls per unit type and kind of move (_ROLLS_AT), worked out once: by the
 * board's frozen array of a place's features, those due in it; by an edge's array, those due
 * on crossing it (with whole-map features, by the place's array under the edge's); each
 * [0: at every step, 1: on first entering only, 2: at the last step only, its RollDue fields
 * after step and place]. WeakMaps: what a board holds goes with it. */
const _ROLLS_AT = new Map();

/** One entry of _ROLLS_AT: the rolls due for the features ``names`` (of an edge with
 * ``onEdge``, with the place's whole-map features; else of a place), in order (_rolls_at). */
function _rollsAt(mode, move, names, onEdge) {
  const found = [];
  for (const on of _ROLL_ORDER) {
    if ((on === "crossing") !== onEdge) continue;
    for (const rule of Object.values(ROLLS)) {
      if (rule.on !== on) continue;
      const due = on === "any_step" || on === "first_step" ? [0, []] : _placeRoll(rule.id, mode, move, names); // [step rolls] // [first step]
      const due = on === "first_step" ? [0, []] : _placeRoll(rule.id, mode, move, names); // [no step rolls] // [first step]
      const due = on === "any_step" ? [0, []] : _placeRoll(rule.id, mode, move, names); // [step rolls] // [no first step]
      const due = _placeRoll(rule.id, mode, move, names); // [no step rolls] // [no first step]
      if (due === null) continue;
      const when = on === "first_entering" ? 1 : on === "ending" ? 2 : 0;
      found.push([when, [on, rule.id, rule.dice, rule.table, due[0], Object.freeze(due[1]), move ?? ""]]);
    }
  }
  return found;
}

/** The rolls due on crossing into a step's place (_ROLLS_AT's entry for its edge). */
function _edgeRolls(kept, mode, move, step) {
  if (!_WHOLE_MAP.size) {
    let due = kept.get(step.edge);
    if (due === undefined) kept.set(step.edge, (due = _rollsAt(mode, move, step.edge, true)));
    return due;
  }
  let byPlace = kept.get(step.edge);
  if (byPlace === undefined) kept.set(step.edge, (byPlace = new WeakMap()));
  let due = byPlace.get(step.features);
  if (due === undefined) {
    const names = [...step.edge, ...step.features.filter((f) => _WHOLE_MAP.has(f))];
    byPlace.set(step.features, (due = _rollsAt(mode, move, names, true)));
  }
  return due;
}

/** The rolls due along a route, in order (_route_rolls): at each step those on crossing the
 * edge, on entering the place, on first entering it (not entered before in the route or, by
 * ``entered``, earlier in the game; the start counts as entered), and at the last step those
 * on ending there; each step's read from _ROLLS_AT. */
function _routeRolls(mode, move, places, keys, steps, entered) {
  if (!Object.keys(ROLLS).length) return Object.freeze([]);
  const id = `${mode} ${move ?? ""}`;
  let kept = _ROLLS_AT.get(id);
  if (kept === undefined) _ROLLS_AT.set(id, (kept = [new WeakMap(), new WeakMap()]));
  const [byPlace, byEdge] = kept;
  const out = [];
  let firsts = null;
  const last = steps.length;
  for (let i = 1; i <= last; i++) {
    const step = steps[i - 1];
    let atPlace = byPlace.get(step.features);
    if (atPlace === undefined) byPlace.set(step.features, (atPlace = _rollsAt(mode, move, step.features, false)));
    const atEdge = _edgeRolls(byEdge, mode, move, step);
    if (!atPlace.length && !atEdge.length) continue;
    for (const found of [atEdge, atPlace]) {
      for (const [when, due] of found) {
        if (when === 1) {
          if (firsts === null) { // each place's first index in the route (0: the start)
            firsts = new Map();
            for (let j = last; j >= 0; j--) firsts.set(keys[j], j);
          }
          if (firsts.get(keys[i]) !== i || entered.has(keys[i])) continue;
        } else if (when === 2 && i !== last) continue;
        out.push(new RollDue(i, step.end, ...due));
      }
    }
  }
  return Object.freeze(out);
}
