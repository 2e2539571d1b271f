// ---- arcs: bearings relative to a unit's facing (follows module_arcs.py.j2 piece by piece) ----

const _ARC_EPSILON = 1e-9;

function _arc(arcs, bearing) {
  let turned = bearing % 360; // fmod, as Python's math.fmod
  if (turned < 0) turned += 360;
  for (const [name, spans] of ARCS[arcs]) {
    for (const [start, end] of spans) {
      if (start - _ARC_EPSILON <= turned && turned <= end + _ARC_EPSILON) return name;
      if (turned + 360 <= end + _ARC_EPSILON) return name;
    }
  }
  throw new InvalidArgument("arc", "bearing", bearing, "is in no arc"); // the build refuses gaps
}

/** The arc of ``arcs`` that holds ``bearing`` for a unit facing ``heading``: both in degrees
 * clockwise (compass-like), so with ``heading`` 0 the bearing is relative to the facing (0
 * dead ahead, 90 the right side, -90 or 270 the left). A bearing on the line between two arcs
 * is in the one listed first. */
export function arc(arcs, bearing, { heading = 0 } = {}) {
  @check(arc, arcs, arcs);
  @check(arc, bearing, bearing);
  @check(arc, heading, heading);
  return _arc(arcs, bearing - heading);
}

function _arcPoint(argument, value, whole) {
  const ok = (v) => typeof v === "number" && (whole ? Number.isInteger(v) : true);
  if (!Array.isArray(value) || value.length !== 2 || !value.every(ok)) {
    const what = whole ? "a (q, r) or (x, y) place of whole numbers" : "an (x, y) pair";
    throw new ArgumentTypeError("arc_between", argument, value, `must be ${what}`);
  }
  for (const v of value) _checkNumber("arc_between", argument, v, null);
  return value;
}

/** The arc of ``arcs`` of the unit at ``target`` facing ``heading`` where ``other`` stands
 * (the shooter). On a grid (``grid``: "hex", "square" or a declared grid's name) the places
 * are the grid's and ``heading`` is the facing code's: the grid's ``heading``-th neighbour,
 * counter-clockwise from +x. Without ``grid`` the places are [x, y] coordinates, y down the
 * map, and ``heading`` is in degrees clockwise from the top of the map (-y). */
export function arcBetween(arcs, target, heading, other, { grid = null } = {}) {
  @check(arc_between, arcs, arcs);
  const onGrid = grid !== null && grid !== undefined;
  if (onGrid && grid !== "hex" && grid !== "square") {
    if (typeof grid !== "string") throw new ArgumentTypeError("arc_between", "grid", grid, "must be a str naming a grid");
    const names = [...Object.keys(GRID_SHAPES), "hex", "square"];
    if (!Object.hasOwn(GRID_SHAPES, grid)) throw new UnknownName("grid", grid, names);
  }
  const at = _arcPoint("target", target, onGrid);
  const to = _arcPoint("other", other, onGrid);
  let dx = to[0] - at[0];
  let dy = to[1] - at[1];
  if (dx === 0 && dy === 0) throw new InvalidArgument("arc_between", "other", other, "stands where the target is");
  if (!onGrid) {
    _checkNumber("arc_between", "heading", heading, null);
    return _arc(arcs, Math.atan2(dx, -dy) * (180 / Math.PI) - heading);
  }
  const shape = grid === "hex" || grid === "square" ? grid : GRID_SHAPES[grid];
  const headings = shape === "hex" ? 6 : Object.hasOwn(_GRID_DIAGONAL, grid) && _GRID_DIAGONAL[grid] ? 8 : 4;
  if (typeof heading !== "number" || !Number.isInteger(heading)) {
    throw new ArgumentTypeError("arc_between", "heading", heading, "must be an int");
  }
  if (!(0 <= heading && heading < headings)) {
    throw new InvalidArgument("arc_between", "heading", heading, `must be 0 to ${headings - 1}`);
  }
  if (shape === "hex") [dx, dy] = [_SQRT3 * (dx + dy / 2), 1.5 * dy];
  return _arc(arcs, Math.atan2(dx, -dy) * (180 / Math.PI) - (90 - (360 * heading) / headings));
}

const _SQRT3 = Math.sqrt(3);
