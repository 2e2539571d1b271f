// ---- line of sight (module_sight.py.j2's line_of_sight, check by check in the same order) ----

/** What ``lineOfSight`` answers: the hindrance of the counted places added up, whether the
 * line is blocked, and each place's own hindrance (0 for a place the rule does not count,
 * BLOCKED for a place that blocks by itself). */
export class Sight {
  constructor(hindrance, blocked, byPlace) {
    Object.assign(this, { hindrance, blocked, byPlace });
    Object.freeze(this);
  }
}

/** A line-of-sight rule: its values by feature, the total that blocks (null: only BLOCKED
 * places block), which places count (``between``, ``target``, ``both``), the unit of the
 * length ``crossed`` a step's value takes, and the values that differ per viewer's unit type. */
export class SightRule {
  constructor(id, labels, blocksAt, counts, crossed, values, targetInside, blocksAbove, byMode) {
    Object.assign(this, { id, labels, blocksAt, counts, crossed, values, targetInside, blocksAbove, byMode });
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
  for (const length of lengths) _checkNumber("line_of_sight", "crossed", length);
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
      if (condition !== null && typeof condition === "object") throw _unhashable(condition);
      if (typeof condition === "string" && Object.hasOwn(FEATURES, condition)) {
        throw new InvalidArgument("line_of_sight", "conditions", condition, "must name whole-map conditions");
      }
      _checkName("line_of_sight", "conditions", condition, _dictOf(_WHOLE_MAP), "whole-map condition");
    }
  }
  return [...line];
}

/** A set's names as a mapping, the pool ``_checkName`` reads. */
function _dictOf(names) {
  return Object.fromEntries([...names].map((n) => [n, true]));
}

/** One place's features, checked: a tuple of known feature names (or fed dice outcomes). */
function _sightPlace(place) {
  const features = typeof place === "string" ? null : _pyItems(place);
  if (features === null) {
    throw new ArgumentTypeError("line_of_sight", "places", place, "must be one tuple of feature names per place");
  }
  for (const feature of features) {
    if (typeof feature !== "string" || (!Object.hasOwn(FEATURES, feature) && !_OUTCOMES.has(feature))) {
      _checkName("line_of_sight", "places", feature, FEATURES, "feature");
    }
  }
  _checkPlace(features);
  return features;
}

/** The hindrance of one counted place: its features' values added up, BLOCKED if one blocks;
 * a value that is a step is its answer for the length of line inside the place. */
function _placeHindrance(rule, own, features, length) {
  let here = 0;
  for (const feature of _counted(features)) {
    if (_WHOLE_MAP.has(feature)) continue; // counts once for the line, below
    let value = Object.hasOwn(own, feature) ? own[feature] : rule.values[feature];
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
    if (value !== undefined && value !== null) here += value;
  }
  return here;
}

/** The line of sight rule ``name`` along ``places``, the firer's place first and the target's
 * last, each place the names of its features: ``lineOfSight("los", [["clear"], ["woods"],
 * ["clear"]])``. ``crossed``: the length of line inside each place, for a rule whose values
 * are steps; ``mode``: the viewer's unit type; ``conditions``: whole-map conditions in force
 * (and dice outcomes fed to the rule), each counted once for the line. */
export function lineOfSight(name, places, { crossed = null, mode = null, conditions = [] } = {}) {
  if (typeof name !== "string" || !Object.hasOwn(SIGHTS, name)) {
    _checkName("line_of_sight", "name", name, SIGHTS, "sight rule");
  }
  if (!Array.isArray(places)) throw new ArgumentTypeError("lineOfSight", "places", places, "must be an array of places");
  const rule = SIGHTS[name];
  let own = {};
  if (mode !== null && mode !== undefined) {
    _checkName("line_of_sight", "mode", mode, _SIGHT_MODES, "mode");
    own = rule.byMode[mode] ?? own;
  }
  const lengths = crossed === null || crossed === undefined ? null : _sightLengths(crossed, places);
  const line = _sightConditions(conditions); // what counts once for the line
  const first = rule.counts === "both" ? 0 : 1;
  const last = places.length - (rule.counts === "between" ? 1 : 0);
  const inside = rule.targetInside && places.length > 1 ? places.length - 1 : -1;
  const byPlace = [];
  let total = 0;
  let through = 0; // what blocksAt tests: the target's place left out when inside
  let blocked = false;
  places.forEach((place, i) => {
    const features = _sightPlace(place);
    for (const f of features) if (_WHOLE_MAP.has(f)) line.push(f);
    if (!(first <= i && i < last) && i !== inside) {
      byPlace.push(0);
      return;
    }
    const here = _placeHindrance(rule, own, features, lengths === null ? undefined : lengths[i]);
    byPlace.push(here);
    if (here instanceof Marker) blocked = true;
    else {
      total += here;
      if (i !== inside) through += here;
    }
  });
  for (const condition of new Set(line)) {
    const value = Object.hasOwn(own, condition) ? own[condition] : rule.values[condition];
    if (value instanceof Marker) blocked = true;
    else if (typeof value === "number") {
      total += value;
      through += value;
    }
  }
  if (rule.blocksAt !== null && (rule.blocksAbove ? through > rule.blocksAt : through >= rule.blocksAt)) {
    blocked = true;
  }
  return new Sight(total, blocked, Object.freeze(byPlace));
}
