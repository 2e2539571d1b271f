/** What the whole-move bonuses add to the allowance of a route every step of which crosses or
 * enters one of a bonus's features (_whole_bonus). */
function _wholeBonus(steps) {
  let total = 0;
  for (const [, , features, bonus] of _WHOLE_BONUSES) {
    const counts = (step) => step.edge.some((f) => features.has(f)) || step.features.some((f) => features.has(f));
    if (steps.every(counts)) total += bonus;
  }
  return total;
}

/** What the bonuses still add to the budget of a search: those whose features every step so
 * far has counted (0 in ``off``) (_left). */
function _left(bonuses, off) {
  let total = 0;
  for (let j = 0; j < bonuses.length; j++) if (!off[j]) total += bonuses[j][1];
  return total;
}
