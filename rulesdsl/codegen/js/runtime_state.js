// ---- state carried between moves (module_state.py.j2; only for rules with `state` lines) ----

/** Every state's range, in STATES' order: read at each step of a search, so built once. */
const _RANGES = Object.freeze(Object.values(STATES));

/** ``state``: every state of STATES, a whole number in its range, as an array in STATES'
 * order; null when not given (the route is costed without a state) (_carried_arg). */
function _carriedArg(fn, state) { // [one range]
function _carriedArg(fn, state, mode = "") { // [own range]
  if (state === null || state === undefined) return null;
  if (typeof state !== "object" || Array.isArray(state) || state instanceof _Tuple) {
    throw new ArgumentTypeError(fn, "state", state, "must be a mapping of states to values");
  }
  const values = [];
  for (const [name, [low, high]] of Object.entries(STATES)) { // [one range]
  for (const [name, [low, high]] of _zipRanges(mode)) { // [own range]
    const value = Object.hasOwn(state, name) ? state[name] : null;
    if (typeof value !== "number" || !Number.isInteger(value) || !(low <= value && value <= high)) {
      throw new InvalidArgument(fn, "state", state, `must give '${name}' a whole number from ${low} to ${high}`);
    }
    values.push(value);
  }
  for (const name of Object.keys(state)) {
    if (!Object.hasOwn(STATES, name)) {
      throw new InvalidArgument(fn, "state", state, `names '${name}', which is not a state (${Object.keys(STATES).join(", ")})`);
    }
  }
  return values;
}

/** The ranges of the states for unit type ``mode``: its own (_STATE_RANGES), else STATES' (_ranges). */ // [own range]
function _ranges(mode) { // [own range]
  return Object.hasOwn(_STATE_RANGES, mode) ? _STATE_RANGES[mode] : _RANGES; // [own range]
} // [own range]
 // [own range]
/** The states and their ranges for unit type ``mode`` (_ranges). */ // [own range]
function _zipRanges(mode) { // [own range]
  const ranges = _ranges(mode); // [own range]
  return Object.keys(STATES).map((name, i) => [name, ranges[i]]); // [own range]
} // [own range]
 // [own range]
/** ``values`` changed by each of ``sources`` (counted once each) as ``mode`` changes them (_changed). */
function _changed(values, mode, sources) {
  const before = values; // [capped at] // [capped]
  for (const source of new Set(sources)) {
    const byMode = _STATE_CHANGES[source];
    if (byMode === undefined) continue;
    const deltas = Object.hasOwn(byMode, mode) ? byMode[mode] : byMode[""];
    values = values.map((v, i) => v + deltas[i]);
  }
  return values; // [uncapped]
  return _capped(values, mode, sources); // [capped at end] // [capped]
  return _capped(values, mode, sources, before); // [capped at] // [capped]
}
 // [capped]
/** ``values`` (the changes of ``sources`` added) with each state past an end of ``mode``'s range // [capped]
 * stopped at that end when a capped change of ``sources`` moves it that way (_capped). */ // [capped]
function _capped(values, mode, sources) { // [capped at end] // [capped]
function _capped(values, mode, sources, before) { // [capped at] // [capped]
  const ranges = _RANGES; // [capped] // [one range]
  const ranges = _ranges(mode); // [capped] // [own range]
  const stopped = [...values]; // [capped]
  for (const source of new Set(sources)) { // [capped]
    const byMode = _CAPPED_CHANGES[source]; // [capped]
    if (byMode === undefined) continue; // [capped]
    const deltas = Object.hasOwn(byMode, mode) ? byMode[mode] : byMode[""]; // [capped]
    const limits = _CAPPED_BOUNDS[source]; // [capped at] // [capped]
    const bounds = Object.hasOwn(limits, mode) ? limits[mode] : limits[""]; // [capped at] // [capped]
    deltas.forEach((delta, i) => { // [capped]
      const [low, high] = ranges[i]; // [capped]
      if (delta > 0 && stopped[i] > high) stopped[i] = high; // [capped at end] // [capped]
      else if (delta < 0 && stopped[i] < low) stopped[i] = low; // [capped at end] // [capped]
      const bound = bounds[i]; // [capped at] // [capped]
      const top = bound === null ? high : Math.min(bound, high); // [capped at] // [capped]
      const bottom = bound === null ? low : Math.max(bound, low); // [capped at] // [capped]
      if (delta > 0) stopped[i] = Math.min(stopped[i], Math.max(top, before[i])); // [capped at] // [capped]
      else if (delta < 0) stopped[i] = Math.max(stopped[i], Math.min(bottom, before[i])); // [capped at] // [capped]
    }); // [capped]
  } // [capped]
  return stopped; // [capped]
} // [capped]

/** Which state ``values`` take out of its range and to what ("" when none) (_out_of_range). */
function _outOfRange(values) { // [one range]
function _outOfRange(values, mode) { // [own range]
  const ranges = _RANGES; // [one range]
  const ranges = _ranges(mode); // [own range]
  for (let i = 0; i < values.length; i++) {
    const [low, high] = ranges[i];
    if (!(low <= values[i] && values[i] <= high)) {
      return `'${_STATE_LABELS[i]}' to ${values[i]} (its range is ${low} to ${high})`;
    }
  }
  return "";
}

/** The state after the kind of move and each step, and why the route breaks a range (empty
 * when it does not); the state stays as it was before the change that breaks it (_route_state). */
function _routeState(begin, mode, move, steps) {
  if (begin === null) return [null, "", []];
  let values = begin;
  const along = [];
  const changes = move !== null && move !== undefined ? [[`the move '${MOVES[move].label}'`, [move]]] : [];
  steps.forEach((s, i) => changes.push([`step ${i + 1}`, [...s.features, ...s.edge]]));
  let reason = "";
  for (const [where, sources] of changes) {
    const after = _changed(values, mode, sources);
    const broken = _outOfRange(after); // [one range]
    const broken = _outOfRange(after, mode); // [own range]
    if (broken && !reason) reason = `${where} takes ${broken}`;
    if (!reason) values = after;
    along.push(values);
  }
  if (move === null || move === undefined) along.unshift(begin);
  return [Object.freeze(Object.fromEntries(Object.keys(STATES).map((name, i) => [name, values[i]]))), reason, along];
}

/** The rolls due, less those due only in a band of a state (_ROLL_STATES) that the state after
 * their step (``along``; none given: every roll) is not in (_state_rolls). */
function _stateRolls(rolls, along) {
  if (!along.length || !Object.keys(_ROLL_STATES).length) return rolls; // [no first step]
  if (!along.length || !Object.keys(_ROLL_STATES).length) return _firstSteps(rolls); // [first step]
  return Object.freeze( // [no first step]
  return _firstSteps( // [first step]
    rolls.filter((due) => {
      const band = _ROLL_STATES[due.roll];
      if (band === undefined) return true;
      const value = along[due.step][band[0]];
      return band[1] === "below" ? value < band[2] : value > band[2];
    }),
  );
}
 // [first step]
/** ``rolls`` less each roll ``on first step`` after its first step (in its band, when a state // [first step]
 * is given): it is due once a move (_first_steps). */ // [first step]
function _firstSteps(rolls) { // [first step]
  const once = new Set(); // [first step]
  return Object.freeze( // [first step]
    rolls.filter((due) => { // [first step]
      if (due.on !== "first_step") return true; // [first step]
      if (once.has(due.roll)) return false; // [first step]
      once.add(due.roll); // [first step]
      return true; // [first step]
    }), // [first step]
  ); // [first step]
} // [first step]

/** The search of cheapestRoute and reachable given a state (_searched): over (place, state)
 * from ``begin`` changed by the kind of move (nothing found when that change breaks a range). */
function _searched(board, mode, start, budget, extra, goal, begin, move, priced) {
  if (begin === null) return (_LIMITED ? _limitedSearch : _search)(board, mode, start, budget, extra, goal, priced);
  const moved = _movedState(begin, mode, move);
  if (moved === null) return [new Map(), new Map()];
  return _stateSearch(board, mode, start, budget, extra, goal, moved, priced);
}

/** ``begin`` changed by the kind of move ``move``, where a search starts; null when that change
 * takes a state out of its range (the search then finds nothing) (_moved_state). */
function _movedState(begin, mode, move) {
  const moved = _changed(begin, mode, move !== null && move !== undefined ? [move] : []);
  return _outOfRange(moved) ? null : moved; // [one range]
  return _outOfRange(moved, mode) ? null : moved; // [own range]
}

/** The facing search's next actions with the state after each as their last item: a step into
 * a place changes it as routeCost does (a turn does not); one that takes a state out of its
 * range is dropped (_carried_steps). */
function _carriedSteps(board, mode, here, values, nexts) {
  const carried = [];
  for (const [step, there] of nexts) {
    let after = values;
    if (values.length && there[1] !== here) {
      after = _changed(values, mode, [...board._features.get(there[1]), ...(board._crossed.get(`${here}|${there[1]}`) ?? _NO_EDGE)]);
    }
    if (!_outOfRange(after)) carried.push([step, [...there, after]]); // [one range]
    if (!_outOfRange(after, mode)) carried.push([step, [...there, after]]); // [own range]
  }
  return carried;
}

/** _search carrying a state (_state_search): Dijkstra over (place key, state), a step that
 * takes a state out of its range never taken. The cheapest cost of each place is its first
 * (place, state) taken from the heap; ``came`` holds the route to ``goal`` only. */
function _stateSearch(board, mode, start, budget, extra, goal, begin, priced) {
  const stops = new Map();
  const costs = new Map();
  const nodes = new Map(); // node key -> [place key, values]
  const [limits, kept, bonuses] = _wholeLimits(); // [whole]
  const first = `${start}#${begin.join(",")}`; // [no whole]
  const first = `${start}#${begin.join(",")}#${limits.map(() => 0).join(",")}`; // [whole]
  nodes.set(first, [start, begin]); // [no whole]
  nodes.set(first, [start, begin, limits.map(() => 0)]); // [whole]
  const seen = new Map([[first, 0]]);
  const back = new Map();
  const best = new Map();
  const done = new Set();
  const heap = [[0, 0, first]];
  const came = new Map();
  let order = 1;
  let once = _oneStepAllowed(budget);
  while (heap.length) {
    const [cost, , node] = _heapPop(heap);
    if (done.has(node)) continue;
    done.add(node);
    const [here, values] = nodes.get(node); // [no whole]
    const [here, values, counts] = nodes.get(node); // [whole]
    if (!best.has(here)) best.set(here, cost);
    if (here === goal) {
      for (let at = node; back.has(at) && !came.has(nodes.get(at)[0]); at = back.get(at)) {
        came.set(nodes.get(at)[0], nodes.get(back.get(at))[0]);
      }
      break;
    }
    if (here !== start) {
      const entered = board._features.get(here);
      let stop = stops.get(entered);
      if (stop === undefined) stops.set(entered, (stop = mustStop(mode, entered)));
      if (stop || cost > budget) continue; // [no whole]
      if (stop || cost > budget + _left(bonuses, counts.slice(kept))) continue; // [bonus] // [whole]
      if (stop || cost > budget) continue; // [no bonus] // [whole]
    }
    for (const [there, distance] of board._next(here)) {
      const entered = board._features.get(there);
      const crossed = _crossing(board, here, there);
      const step = _cachedStep(costs, mode, priced.get(there) ?? entered, crossed, distance, extra); // dice outcomes rolled there
      if (step instanceof Marker) continue;
      const after = _changed(values, mode, [...entered, ...crossed]);
      if (_outOfRange(after)) continue; // [one range]
      if (_outOfRange(after, mode)) continue; // [own range]
      const counted = _wholeCounts(limits, kept, counts, crossed, entered); // [whole]
      if (counted === null) continue; // [whole]
      const total = cost + step;
      const next = `${there}#${after.join(",")}`; // [no whole]
      const next = `${there}#${after.join(",")}#${counted.join(",")}`; // [whole]
      const room = budget + _left(bonuses, counted.slice(kept)); // [bonus] // [whole]
      const room = budget; // [no bonus] // [whole]
      if ((total <= budget || once) && total < (seen.get(next) ?? _INF) && !done.has(next)) { // [no whole]
      if ((total <= room || once) && total < (seen.get(next) ?? _INF) && !done.has(next)) { // [whole]
        seen.set(next, total);
        nodes.set(next, [there, after]); // [no whole]
        nodes.set(next, [there, after, counted]); // [whole]
        back.set(next, node);
        _heapPush(heap, [total, order, next]);
        order++;
      }
    }
    once = false;
  }
  return [best, came];
}

/*@whole*/ // [whole]
 // [whole]
/** The values of modifier ``name``'s bands that ``state`` is in (strictly below or above the
 * bound); a modifier with bands needs the state (_band_values). */
function _bandValues(name, state) {
  const bands = _MODIFIER_BANDS[name] ?? [];
  if (!bands.length) return [];
  if (state === null) {
    const labels = [...new Set(bands.map((band) => `'${_STATE_LABELS[band[0]]}'`))];
    throw new InvalidArgument("modifier", "state", null, `must be given: ${pyRepr(name)} has values by ${labels.join(" and ")}`);
  }
  return bands
    .filter(([index, side, bound]) => (side === "below" ? state[index] < bound : state[index] > bound))
    .map((band) => band[3]);
}

/** For a sight rule with a band, the open line of ``count`` places when the viewer's ``state``
 * is outside it (null inside, or with no band); the rule needs the state (_out_of_sight_band). */
function _outOfSightBand(name, state, count) {
  const carried = _carriedArg("line_of_sight", state);
  const band = _SIGHT_STATES[name];
  if (band === undefined) return null;
  const [index, side, bound] = band;
  if (carried === null) {
    throw new InvalidArgument("line_of_sight", "state", null, `must be given: ${pyRepr(name)} counts only while '${_STATE_LABELS[index]}' is ${side} ${bound}`);
  }
  if (side === "below" ? carried[index] < bound : carried[index] > bound) return null;
  return new Sight(0, false, Array.from({ length: count }, () => 0));
}
