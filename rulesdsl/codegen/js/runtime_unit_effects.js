// ---- effects keyed by unit type (issue 40) ----

/** The value that the effect ``name`` of ``outcome`` (a row of dice table ``table``, or an
 * outcome of a results table) has for unit type ``mode``: its own entry, else its keyword's,
 * else the value for everyone (Python's effect). */
export function effect(table, outcome, name, mode) {
  const outcomes = typeof table === "string" ? _UNIT_EFFECTS[table] : undefined;
  if (outcomes === undefined) {
    _checkKey("effect", "table", table, new Set(Object.keys(_UNIT_EFFECTS)), "dice table");
  }
  const effects = typeof outcome === "string" ? outcomes[outcome] : undefined;
  if (effects === undefined) {
    _checkKey("effect", "outcome", outcome, new Set(Object.keys(outcomes)), `outcome of ${pyRepr(table)}`);
  }
  const byMode = typeof name === "string" ? effects[name] : undefined;
  if (byMode === undefined) {
    _checkKey("effect", "name", name, new Set(Object.keys(effects)), `effect of ${pyRepr(outcome)}`);
  }
  @check(effect, mode, mode);
  return byMode[mode];
}
