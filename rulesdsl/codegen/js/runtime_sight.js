// ---- line of sight (module_sight.py.j2's line_of_sight, check by check in the same order) ----

/** What ``lineOfSight`` answers: the hindrance of the counted places added up, whether the
 * line is blocked, and each place's own hindrance (0 for a place the rule does not count,
 * BLOCKED for a place that blocks by itself). Read-only: its fields are getters (a frozen
 * object costs more to make than the line of sight itself), ``byPlace`` a frozen array. */
export class Sight {
  #hindrance;
  #blocked;
  #byPlace;
  constructor(hindrance, blocked, byPlace) {
    this.#hindrance = hindrance;
    this.#blocked = blocked;
    this.#byPlace = byPlace;
  }
  get hindrance() {
    return this.#hindrance;
  }
  get blocked() {
    return this.#blocked;
  }
  get byPlace() {
    return Object.isFrozen(this.#byPlace) ? this.#byPlace : Object.freeze(this.#byPlace);
  }
  toJSON() {
    return { hindrance: this.#hindrance, blocked: this.#blocked, byPlace: this.byPlace };
  }
}

/** A line-of-sight rule: ``values`` by feature, the total that blocks (``blocksAt``, null: only
 * BLOCKED places block; ``blocksAbove``: only a total above it), which places count
 * (``counts``: ``between``, ``target``, ``both``; ``targetInside``: the target's place adds to
 * the hindrance, not to what blocks), the unit of the length ``crossed`` a step's value takes,
 * and the values that differ per viewer's unit type (``byMode``). */
export class SightRule {
  constructor(fields) {
    Object.assign(this, fields);
    Object.freeze(this);
  }
}

/** The items Python's ``tuple(value)`` gives, or null where ``value`` is no iterable (a string
 * counts as none: every caller refuses one). An object iterates over its keys, as a dict. */
function _pyItems(value) {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === "object" && !(value instanceof Marker)) return Object.keys(value);
  return null;
}

/** The lengths of line inside each place, checked (``crossed=`` of line_of_sight). */
function _sightLengths(crossed, places) {
  const lengths = typeof crossed === "string" ? null : _pyItems(crossed);
  if (lengths === null) {
    throw new ArgumentTypeError("line_of_sight", "crossed", crossed, "must be one number per place");
  }
  if (lengths.length !== places.length) {
    throw new InvalidArgument("line_of_sight", "crossed", crossed, `must give one length per place (${places.length})`);
  }
  for (const length of lengths) @check(line_of_sight, crossed, length);
  return lengths;
}

/** The whole-map conditions (and fed dice outcomes) given for the line, checked. */
function _sightConditions(conditions) {
  const line = typeof conditions === "string" ? null : _pyItems(conditions);
  if (line === null) {
    throw new ArgumentTypeError("line_of_sight", "conditions", conditions, "must be a tuple of condition names");
  }
  for (const condition of line) {
    if (typeof condition !== "string" || (!_WHOLE_MAP.has(condition) && !_OUTCOMES.has(condition))) {
      if (typeof condition === "string" && Object.hasOwn(FEATURES, condition)) {
        throw new InvalidArgument("line_of_sight", "conditions", condition, "must name whole-map conditions");
      }
      @check(line_of_sight, conditions, condition);
    }
  }
  return [...line];
}

/** A set's names as a mapping, the pool ``_checkName`` reads. */
function _dictOf(names) {
  return Object.fromEntries([...names].map((n) => [n, true]));
}

/** One place's features, checked: a tuple of known feature names (or fed dice outcomes);
 * ``names`` holds them all. */
function _sightPlace(place, names) {
  const features = typeof place === "string" ? null : _pyItems(place);
  if (features === null) {
    throw new ArgumentTypeError("line_of_sight", "places", place, "must be one tuple of feature names per place");
  }
  for (const feature of features) {
    if (!names.has(feature)) @check(line_of_sight, places, feature);
  }
  _checkPlace(features);
  return features;
}

const _SIGHT_VALUES = new Map(); // per rule, per viewer's unit type ("" for none): its values

/** A rule's values for a viewer's unit type (``mode``), those of the unit type first, as one
 * Map made once (Python: ``own[feature] if feature in own else values.get(feature)``); every
 * feature and fed dice outcome is a key, null where the rule gives it no value. */
function _sightValues(rule, mode) {
  if (rule === _lastSight[0] && mode === _lastSight[1]) return _lastSight[2];
  let byMode = _SIGHT_VALUES.get(rule);
  if (byMode === undefined) _SIGHT_VALUES.set(rule, (byMode = new Map()));
  let values = byMode.get(mode);
  if (values === undefined) {
    const own = { ...rule.values, ...(rule.byMode[mode] ?? {}) };
    values = new Map([...Object.keys(FEATURES), ..._OUTCOMES].map((name) => [name, own[name] ?? null]));
    byMode.set(mode, values);
  }
  _lastSight = [rule, mode, values];
  return values;
}

let _lastSight = [null, null, null]; // the rule, unit type and values asked last

/** The hindrance of one counted place: its features' values added up, BLOCKED if one blocks;
 * a value that is a step is its answer for the length of line inside the place. */
function _placeHindrance(values, features, length) {
  let here = 0;
  for (const feature of features.length > 1 ? _counted(features) : features) {
    if (_WHOLE_MAP.has(feature)) continue; // counts once for the line, in lineOfSight
    let value = values.get(feature);
    if (value instanceof StepCost) {
      if (length === undefined) {
        throw new InvalidArgument(
          "line_of_sight",
          "crossed",
          null,
          `must be given: ${pyRepr(feature)} gives the step ${pyRepr(value.step)} for the length crossed`,
        );
      }
      value = STEPS[value.step](length);
    }
    if (value instanceof Marker) return BLOCKED; // a blocked cell, or a step's own marker
    if (value !== null) here += value;
  }
  return here;
}

/** The hindrance of a place of one feature whose value is a number, a marker or none (not a
 * whole-map condition nor a step): what ``_sightPlace`` and ``_placeHindrance`` would find;
 * undefined for any other place, which they work out. */
function _oneFeature(place, values) {
  if (!Array.isArray(place) || place.length !== 1) return undefined;
  const value = values.get(place[0]); // undefined: not a feature, refused by _sightPlace
  if (value === undefined || value instanceof StepCost || _WHOLE_MAP.has(place[0])) return undefined;
  return value instanceof Marker ? BLOCKED : (value ?? 0);
}

/** The line of sight rule ``name`` along ``places``, the firer's place first and the target's
 * last, each place the names of its features: ``lineOfSight("los", [["clear"], ["woods"],
 * ["clear"]])``. ``crossed``: the length of line inside each place, for a rule whose values
 * are steps; ``mode``: the viewer's unit type; ``conditions``: whole-map conditions in force
 * (and dice outcomes fed to the rule), each counted once for the line. */
export function lineOfSight(name, places, { crossed = null, mode = null, conditions = _NO_CONDITIONS } = {}) { // [no state]
export function lineOfSight(name, places, { crossed = null, mode = null, conditions = _NO_CONDITIONS, state = null } = {}) { // [state]
  if (typeof name !== "string" || !Object.hasOwn(SIGHTS, name)) {
    @check(line_of_sight, name, name);
  }
  if (!Array.isArray(places)) throw new ArgumentTypeError("line_of_sight", "places", places, "must be an array of places");
  const rule = SIGHTS[name];
  const viewer = mode !== null && mode !== undefined;
  if (viewer) _checkName("line_of_sight", "mode", mode, _SIGHT_MODES, "mode");
  const values = _sightValues(rule, viewer ? mode : "");
  const lengths = crossed === null || crossed === undefined ? null : _sightLengths(crossed, places);
  let line = conditions === _NO_CONDITIONS ? null : _sightConditions(conditions); // once for the line
  const first = rule.counts === "both" ? 0 : 1;
  const last = places.length - (rule.counts === "between" ? 1 : 0);
  const inside = rule.targetInside && places.length > 1 ? places.length - 1 : -1;
  const byPlace = [];
  let total = 0;
  let through = 0; // what blocksAt tests: the target's place left out when inside
  let blocked = false;
  for (let i = 0; i < places.length; i++) {
    const counted = (first <= i && i < last) || i === inside;
    const one = _oneFeature(places[i], values); // the common place, worked out at once
    if (one !== undefined) {
      const here = counted ? one : 0;
      byPlace.push(here);
      if (here === BLOCKED) blocked = true;
      else {
        total += here;
        if (i !== inside) through += here;
      }
      continue;
    }
    const features = _sightPlace(places[i], values);
    if (_WHOLE_MAP.size) for (const f of features) if (_WHOLE_MAP.has(f)) (line ??= []).push(f);
    if (!counted) {
      byPlace.push(0);
      continue;
    }
    const here = _placeHindrance(values, features, lengths === null ? undefined : lengths[i]);
    byPlace.push(here);
    if (here instanceof Marker) blocked = true;
    else {
      total += here;
      if (i !== inside) through += here;
    }
  }
  for (const condition of line === null ? [] : new Set(line)) {
    const value = values.get(condition);
    if (value instanceof Marker) blocked = true;
    else if (typeof value === "number") {
      total += value;
      through += value;
    }
  }
  if (rule.blocksAt !== null && (rule.blocksAbove ? through > rule.blocksAt : through >= rule.blocksAt)) {
    blocked = true;
  }
  const outside = _outOfSightBand(name, state, places.length); // [state]
  if (outside !== null) return outside; // [state]
  return new Sight(total, blocked, byPlace); // byPlace frozen when first read
}

const _NO_CONDITIONS = Object.freeze([]);
