/** The whole-move limits as _limitedSearch counts them ([features, most]), then one per bonus
 * ([features, 1]: 0 while every step counts); how many are limits; the bonuses (_whole_limits). */
function _wholeLimits() {
  const limits = _WHOLE_MOVES.filter((rule) => rule[3] !== null).map((rule) => [rule[2], rule[3]]);
  const kept = limits.length;
  const bonuses = _WHOLE_BONUSES.map((rule) => [rule[2], rule[3]]); // [bonus]
  const bonuses = []; // [no bonus]
  limits.push(...bonuses.map(([features]) => [features, 1]));
  return [limits, kept, bonuses];
}

/** ``counts`` after a step crossing ``crossed`` into ``entered`` (a limit counts a step with one
 * of its features, a bonus turns 1 once a step has none); null beyond a limit (_whole_counts). */
function _wholeCounts(limits, kept, counts, crossed, entered) {
  const after = [];
  for (let j = 0; j < limits.length; j++) {
    const [features, most] = limits[j];
    const met = crossed.some((f) => features.has(f)) || entered.some((f) => features.has(f));
    const count = counts[j] + ((j < kept ? met : !met && counts[j] === 0) ? 1 : 0);
    if (count > most) return null;
    after.push(count);
  }
  return after;
}
