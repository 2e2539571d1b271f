// ---- the page (rulesdsl/web/page.js): the module above answers, this only asks and shows ----
{
  // Each run of this script is a generation: the page's own at load, then one per change made
  // in the house-rule workshop (the module re-imported with the changed cells, below). A new
  // generation ends the listeners of the one before.
  document.dispatchEvent(new Event("rulesdsl:generation"));
  const LIFE = new AbortController();
  document.addEventListener("rulesdsl:generation", () => LIFE.abort(), { once: true });
  const on = (target, type, listener) => target?.addEventListener(type, listener, { signal: LIFE.signal });

  const PAGE = JSON.parse(document.getElementById("page-data").textContent);
  const W = PAGE.words;
  const LANG = PAGE.lang;
  const NUMBER = new Intl.NumberFormat(LANG, { maximumFractionDigits: 4 });
  const PERCENT = new Intl.NumberFormat(LANG, { style: "percent", maximumFractionDigits: 1 });

  const say = (template, fields) => template.replace(/\{(\w+)\}/g, (_, key) => fields[key]);
  const labelled = (labels, fallback) => (labels && (labels[LANG] ?? Object.values(labels)[0])) || fallback;

  // a module without results tables has no Result class
  const isResult = (value) => typeof Result === "function" && value instanceof Result;

  /** The answer as plain data, the same shape for every target (the tests compare it). */
  function canonical(value) {
    if (value === null || value === undefined) return { none: true };
    if (value instanceof Marker) return { marker: value.value };
    if (value instanceof Quantity) return { number: value.value, unit: value.unit };
    if (value instanceof Outcome) return { outcome: value.id };
    if (value instanceof DiceRow) return { row: value.id };
    if (isResult(value)) return { result: value.id, column: value.column };
    if (typeof value === "boolean") return { bool: value };
    if (typeof value === "number") return { number: value };
    return { text: String(value) };
  }

  function text(value) {
    if (value === null || value === undefined) return "—";
    if (value instanceof Marker) return W[value.value] ?? value.value;
    if (value instanceof Quantity) return `${NUMBER.format(value.value)} ${value.unit}`;
    if (value instanceof Outcome) {
      const worth = typeof value.value === "number" ? ` (${NUMBER.format(value.value)})` : "";
      return labelled(value.labels, value.label) + worth;
    }
    if (value instanceof DiceRow || isResult(value)) return labelled(value.labels, value.id);
    if (typeof value === "boolean") return value ? W.yes : W.no;
    if (typeof value === "number") return NUMBER.format(value);
    return String(value);
  }

  /** Shows what ``ask`` answers in ``output``, or why there is no answer. */
  function answer(output, ask) {
    try {
      const value = ask();
      output.dataset.answer = JSON.stringify(canonical(value));
      output.textContent = text(value);
      output.classList.remove("error");
      return value;
    } catch (error) {
      output.dataset.answer = JSON.stringify({ error: error.code ?? error.name });
      output.textContent = say(W.not_answered, { message: error.message });
      output.classList.add("error");
      return undefined;
    }
  }

  // ---- modifiers: the ticked items, the context, the values given -> the total, item by item
  function modifierForm(form) {
    const name = form.dataset.modifier;
    const data = PAGE.modifiers.find((m) => m.id === name);
    const items = [...form.querySelectorAll("input[name=item]:checked")].map((i) => i.value);
    const context = {};
    for (const select of form.querySelectorAll("select[data-context]")) {
      if (select.value) context[select.dataset.context] = select.value;
    }
    const given = (among) => {
      const values = {};
      for (const input of form.querySelectorAll("input[data-given]")) {
        const entry = data.given.find((g) => g.name === input.dataset.given);
        if (input.value !== "" && entry.items.some((item) => among.includes(item))) {
          values[input.dataset.given] = Number(input.value);
        }
      }
      return values;
    };
    answer(form.querySelector("output.answer"), () => modifier(name, items, { ...context, ...given(items) }));
    const parts = form.querySelector("ul.parts");
    parts.replaceChildren();
    for (const item of items) {
      const li = document.createElement("li");
      const label = data.items.find((i) => i.id === item).label;
      const out = document.createElement("output");
      answer(out, () => modifier(name, [item], { ...context, ...given([item]) }));
      li.append(`${label}${W.colon} `, out);
      parts.append(li);
    }
    if (data.best && items.length) {
      const li = document.createElement("li");
      li.textContent = W.best;
      parts.append(li);
    }
  }

  // ---- dice tables: the outcome of every natural roll with the modifiers, its chance, a roll
  function naturals(spec) {
    let ways = new Map([[spec.bonus, 1]]);
    if (spec.kind === "d66") {
      ways = new Map();
      for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) ways.set(10 * a + b + spec.bonus, 1);
      return ways;
    }
    for (let die = 0; die < spec.number; die++) {
      const next = new Map();
      for (const [sum, count] of ways) {
        for (let face = 1; face <= spec.sides; face++) next.set(sum + face, (next.get(sum + face) ?? 0) + count);
      }
      ways = next;
    }
    return ways;
  }

  const gcd = (a, b) => (b ? gcd(b, a % b) : a);

  function shiftOf(form) {
    const ticked = [...form.querySelectorAll("input[name=dice-modifier]:checked")];
    return ticked.reduce((sum, box) => sum + Number(box.value), Number(form.elements.shift.value || 0));
  }

  /** A dice table's, or a results table's with its column and column shift. */
  function tableOf(form) {
    const id = form.dataset.dice;
    if (!form.elements.column) return { table: DICE_TABLES[id], options: {} };
    const ticked = [...form.querySelectorAll("input[name=dice-modifier]:checked")];
    const shift = ticked.reduce((sum, box) => sum + Number(box.dataset.shift ?? 0), 0);
    return { table: RESULTS_TABLES[id], options: { column: strengthsOf(form) ?? form.elements.column.value, shift } };
  }

  /** The two strengths given (the module finds their column), or null. */
  function strengthsOf(form) {
    const { attacker, defender } = form.elements;
    if (!attacker || attacker.value === "" || defender.value === "") return null;
    return [Number(attacker.value), Number(defender.value)];
  }

  function diceForm(form) {
    const id = form.dataset.dice;
    const { table, options } = tableOf(form);
    const shift = shiftOf(form);
    const ways = naturals(table.dice);
    const all = [...ways.values()].reduce((a, b) => a + b, 0);
    const byRow = new Map();
    for (const [natural, count] of ways) {
      let row;
      try {
        row = roll(id, natural + shift, { ...options, natural });
      } catch (error) {
        continue;
      }
      const seen = byRow.get(row.id) ?? { rolls: [], count: 0 };
      if (row.column) form.elements.column.value = row.column; // the column the strengths pick
      seen.rolls.push(natural);
      seen.count += count;
      byRow.set(row.id, seen);
    }
    for (const tr of form.querySelectorAll("tr[data-row]")) {
      const seen = byRow.get(tr.dataset.row) ?? { rolls: [], count: 0 };
      const low = Math.min(...seen.rolls), high = Math.max(...seen.rolls);
      tr.querySelector(".totals").textContent = seen.rolls.length === 0 ? "—" : low === high ? `${low}` : `${low}–${high}`;
      const divisor = gcd(seen.count, all) || 1;
      const cell = tr.querySelector(".chance");
      cell.dataset.answer = JSON.stringify({ fraction: [seen.count / divisor, all / divisor] });
      cell.textContent = seen.count ? `${seen.count / divisor}/${all / divisor} (${PERCENT.format(seen.count / all)})` : "—";
    }
    const total = form.elements.total.value;
    const natural = form.elements.natural.value === "" ? null : Number(form.elements.natural.value);
    if (total !== "") answer(form.querySelector("output.answer"), () => roll(id, Number(total), { ...options, natural }));
  }

  function rollDice(form) {
    const { table, options } = tableOf(form);
    const spec = table.dice;
    const count = spec.kind === "d66" ? 2 : spec.number;
    const sides = spec.kind === "d66" ? 6 : spec.sides;
    const random = new Uint32Array(count);
    crypto.getRandomValues(random);
    const faces = [...random].map((r) => 1 + (r % sides));
    const natural = (spec.kind === "d66" ? 10 * faces[0] + faces[1] : faces.reduce((a, b) => a + b, 0)) + spec.bonus;
    const total = natural + shiftOf(form);
    form.elements.total.value = String(total);
    form.elements.natural.value = String(natural);
    answer(form.querySelector("output.answer"), () => roll(table.id, total, { ...options, dice: faces }));
    form.querySelector("output.rolled").textContent = say(W.rolled, { faces: faces.join(" + "), natural, total });
  }

  // ---- a place: a unit type (and kind of move) and the features of a place -> what it costs,
  // whether it may enter, end there or must stop, and the rolls it makes due
  function placeForm(form) {
    const arg = (name) => form.querySelector(`[data-arg="${name}"]`)?.value ?? "";
    const number = (name) => (arg(name) === "" ? null : Number(arg(name)));
    const mode = arg("mode");
    const features = [...form.querySelectorAll("input[name=feature]:checked")].map((box) => box.value);
    const move = arg("move") || null;
    const inputs = {};
    for (const field of form.querySelectorAll("input[data-input]")) inputs[field.dataset.arg] = number(field.dataset.arg);
    const options = { allowance: number("allowance"), move, ...inputs };
    const asks = {
      move_cost: () => moveCost(mode, features, { ...options, distance: number("distance") ?? 1 }),
      can_enter: () => canEnter(mode, features, { ...options, available: number("available") }),
      can_end: () => canEnd(mode, features),
      must_stop: () => mustStop(mode, features),
      rolls_due: () => rollsDue(mode, features, { move, on: arg("on") || "entering" }),
    };
    for (const output of form.querySelectorAll("output[data-ask]")) {
      const dues = answer(output, asks[output.dataset.ask]);
      if (output.dataset.ask === "rolls_due" && Array.isArray(dues)) {
        output.dataset.answer = JSON.stringify({ rolls: dues.map((due) => [due.roll, due.modifier]) });
        const named = dues.map((due) => `${PAGE.place.rolls[due.roll] ?? due.roll} (${NUMBER.format(due.modifier)})`);
        output.textContent = named.join("; ") || W.none;
      }
    }
    // a unit type with facing: the places it goes straight before a turn at the allowance as
    // its speed (the module's reachable, asked on a board of one place)
    for (const output of form.querySelectorAll("output[data-facing]")) {
      const rule = FACINGS[mode];
      const speed = number("allowance");
      const board = () => new Board(new Map([[[0, 0], []]]), { grid: rule.grid });
      answer(output, () => (rule && speed !== null ? reachable(board(), mode, [[0, 0], 0], speed, { move }).turnMode : null));
    }
    // a place's sight value: its own on a line of sight that crosses it (``distance`` long)
    for (const output of form.querySelectorAll("output[data-sight]")) {
      const rule = SIGHTS[output.dataset.sight];
      const crossed = rule.crossed ? [0, number("distance") ?? 1, 0] : null;
      answer(output, () => lineOfSight(rule.id, [[], features, []], { crossed, mode }).byPlace[1]);
    }
  }

  // ---- a path of straight and diagonal steps on the grid, in one of its units
  function pathForm(form) {
    const arg = (name) => form.querySelector(`[data-arg="${name}"]`).value;
    answer(form.querySelector("output.answer"), () => pathCost(arg("steps").trim(), { unit: arg("unit") }));
  }

  // ---- decisions and steps
  function inputs(form) {
    const given = {};
    for (const field of form.querySelectorAll("[data-input]")) {
      const kind = field.dataset.kind;
      if (kind === "flag") given[field.dataset.input] = field.checked;
      else if (kind === "key") given[field.dataset.input] = field.value;
      else given[field.dataset.input] = field.value === "" ? undefined : Number(field.value);
    }
    return given;
  }

  function decisionForm(form) {
    answer(form.querySelector("output.answer"), () => DECISIONS[form.dataset.decision](inputs(form)));
  }

  function stepForm(form) {
    const [value] = Object.values(inputs(form));
    answer(form.querySelector("output.answer"), () => STEPS[form.dataset.step](value));
  }

  const CALCULATORS = {
    place: placeForm,
    path: pathForm,
    modifier: modifierForm,
    dice: diceForm,
    decision: decisionForm,
    step: stepForm,
  };

  function update(form) {
    for (const [kind, run] of Object.entries(CALCULATORS)) if (form.dataset[kind] !== undefined) run(form);
  }

  for (const form of document.querySelectorAll("form.calc")) {
    on(form, "input", () => update(form));
    on(form, "change", () => update(form));
    on(form, "submit", (event) => event.preventDefault());
    on(form.querySelector("button.roll"), "click", () => rollDice(form));
    // a column picked by hand wins over the strengths given before
    on(form.elements.column, "change", () => {
      for (const field of form.querySelectorAll("input[name=attacker], input[name=defender]")) field.value = "";
    });
    update(form);
  }

  // ---- worked examples: "try it" fills the calculator with the example's question
  function fill(form, example) {
    const kwargs = example.kwargs;
    switch (example.kind) {
      case "modifier": {
        const items = example.args.slice(1);
        // a value given for a factor names it too (``perk=2``)
        for (const box of form.querySelectorAll("input[name=item]")) box.checked = items.includes(box.value) || box.value in kwargs;
        for (const select of form.querySelectorAll("select[data-context]")) select.value = kwargs[select.dataset.context] ?? "";
        for (const input of form.querySelectorAll("input[data-given]")) input.value = kwargs[input.dataset.given] ?? 0;
        break;
      }
      case "roll":
        for (const box of form.querySelectorAll("input[name=dice-modifier]")) box.checked = false;
        if (form.elements.column) {
          const column = kwargs.column ?? example.args[2];
          const [attacker, defender] = Array.isArray(column) ? column : ["", ""];
          if (form.elements.attacker) {
            form.elements.attacker.value = String(attacker);
            form.elements.defender.value = String(defender);
          }
          if (!Array.isArray(column)) form.elements.column.value = column;
        }
        form.elements.shift.value = "0";
        form.elements.total.value = String(example.args[1]);
        form.elements.natural.value = kwargs.natural ?? "";
        break;
      case "decision":
        for (const field of form.querySelectorAll("[data-input]")) {
          const value = kwargs[field.dataset.input];
          if (value === undefined) continue;
          if (field.dataset.kind === "flag") field.checked = Boolean(value);
          else field.value = String(value);
        }
        break;
      case "step":
        form.querySelector("[data-input]").value = String(example.args[0]);
        break;
      case "path_cost": {
        const [steps, unit] = example.args;
        form.querySelector('[data-arg="steps"]').value = Array.isArray(steps) ? steps.map((x) => x[0]).join("") : steps;
        const chosen = kwargs.unit ?? unit;
        form.querySelector('[data-arg="unit"]').value = chosen ?? form.querySelector("option").value;
        break;
      }
      default: {  // a place's question: its unit type, features and options
        const [mode, ...features] = example.args;
        form.querySelector('[data-arg="mode"]').value = mode;
        for (const box of form.querySelectorAll("input[name=feature]")) box.checked = features.includes(box.value);
        for (const field of form.querySelectorAll("[data-arg]")) {
          const name = field.dataset.arg;
          if (name === "mode") continue;
          const given = kwargs[name];
          field.value = given ?? (name === "distance" ? "1" : name === "on" ? "entering" : field.dataset.input !== undefined ? "0" : "");
        }
      }
    }
  }

  function formOf(example) {
    if (example.kind === "path_cost") return document.getElementById("path");
    if (!["modifier", "roll", "decision", "step"].includes(example.kind)) return document.getElementById("place");
    const id = example.kind === "modifier" || example.kind === "roll" ? example.args[0] : example.question;
    const prefix = { modifier: "modifier", roll: "dice", decision: "decision", step: "step" }[example.kind];
    return document.getElementById(`${prefix}-${id}`);
  }

  for (const button of document.querySelectorAll("button[data-example]")) {
    on(button, "click", () => {
      const example = PAGE.examples[Number(button.dataset.example)];
      const form = formOf(example);
      if (!form) return;
      fill(form, example);
      update(form);
      form.scrollIntoView({ block: "start" });
      form.querySelector("input, select")?.focus({ preventScroll: true });
    });
  }

  // ---- house-rule workshop: a changed cell re-imports the module with the cell rewritten in
  // its FEATURES (so every calculator answers with it), and the download is the house rule
  const shop = document.getElementById("workshop");
  const SHOP = PAGE.workshop;

  /** The changes made, as the list in the page holds them (it outlives a generation). */
  const changes = () =>
    [...(shop?.querySelectorAll("li[data-feature]") ?? [])].map((li) => ({
      feature: li.dataset.feature,
      mode: li.dataset.mode,
      value: Number(li.dataset.value),
    }));

  /** The module's text with each change's cell rewritten, or null where a cell is not found. */
  function variantSource(base, wanted) {
    const start = base.indexOf("export const FEATURES = _dict({");
    let text = base;
    for (const { feature, mode, value } of wanted) {
      const at = text.indexOf(`\n  ${JSON.stringify(feature)}: Object.freeze({`, start);
      const costs = at < 0 ? -1 : text.indexOf("costs: _dict({", at);
      const end = costs < 0 ? -1 : text.indexOf("})", costs);
      if (end < 0) return null;
      const cell = new RegExp(`(${JSON.stringify(mode)}: )[-0-9.e+]+`);
      const body = text.slice(costs, end);
      if (!cell.test(body)) return null;
      text = text.slice(0, costs) + body.replace(cell, `$1${value}`) + text.slice(end);
    }
    return text;
  }

  /** The answer as the language writes it in a worked example, or null. */
  function written(value) {
    if (value instanceof Marker) return value.value;
    if (typeof value === "number") return `${value} ${SHOP.unit}`.trim();
    return null;
  }

  /** The inherited worked examples the changes touch: each restated where the page can answer
   * its questions (a move cost), else removed (E271 wants one or the other). */
  function exampleLines(features) {
    const byName = new Map();
    PAGE.examples.forEach((e) => byName.set(e.example, [...(byName.get(e.example) ?? []), e]));
    const lines = [];
    for (const [name, questions] of byName) {
      if (!questions.some((q) => features.some((f) => JSON.stringify([q.args, q.kwargs]).includes(JSON.stringify(f))))) continue;
      const restated = questions.map((q, i) => {
        if (q.question !== "move_cost") return null;
        const [mode, ...at] = q.args;
        let value;
        try { value = moveCost(mode, at, q.kwargs); } catch { return null; }
        const was = JSON.stringify(q.expected[0]) === JSON.stringify(canonical(value));
        const answer = written(value);
        return answer === null ? null : was ? "" : `override example ${name}${questions.length > 1 ? `.${i + 1}` : ""} | ${answer}`;
      });
      if (restated.includes(null)) lines.push(`remove example ${name}`);
      else lines.push(...restated.filter(Boolean));
    }
    return lines;
  }

  /** The house-rule file of the changes. */
  function houseRule(made) {
    const id = `${SHOP.base}_workshop`;
    const lines = [
      `ruleset ${id} ${SHOP.titles.map(([lang, title], i) => `${i ? `${lang} ` : ""}${JSON.stringify(title)}`).join(" ")}`,
      "version 1.0.0",
      `extends ${SHOP.base}@^${SHOP.version}`,
      "",
      ...made.map((c) => `override ${c.feature}.${c.mode} | ${c.value}`),
      "",
      ...exampleLines([...new Set(made.map((c) => c.feature))]),
    ];
    return { name: `${id}.terrain`, text: lines.join("\n") + "\n" };
  }

  if (shop && SHOP) {
    const form = shop.querySelector("form");
    const { feature, mode } = form.elements;
    const status = shop.querySelector(".status");
    const cellOf = (key) => {
      const [f, m] = key.split(".");
      return { feature: f, mode: m, value: SHOP.costs[f]?.[m], derived: SHOP.derived[f] ?? [] };
    };
    const showCell = () => {
      const c = cellOf(`${feature.value}.${mode.value}`);
      const changed = changes().find((x) => x.feature === c.feature && x.mode === c.mode);
      form.elements.value.value = c.value === undefined ? "" : String(changed ? changed.value : c.value);
      const names = c.derived.map((k) => PAGE.moves.find((m) => m.id === k)?.label ?? k);
      status.textContent = c.value === undefined ? W.workshop_no_number : c.derived.length ? say(W.workshop_derived, { moves: names.join(", ") }) : "";
      form.elements.apply.disabled = c.value === undefined || c.derived.length > 0;
    };
    const regenerate = async (made) => {
      const base = document.getElementById("page-script").textContent;
      const source = variantSource(base, made);
      if (source === null) {
        status.textContent = W.workshop_not_found;
        return;
      }
      const blob = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      try {
        await import(blob);
      } finally {
        URL.revokeObjectURL(blob);
      }
    };
    const list = shop.querySelector("ul.changes");
    const setChange = (key, value) => {
      list.querySelector(`li[data-key="${CSS.escape(key)}"]`)?.remove();
      const c = cellOf(key);
      if (value !== null && value !== c.value) {
        const li = document.createElement("li");
        Object.assign(li.dataset, { key, feature: c.feature, mode: c.mode, value: String(value) });
        const button = document.createElement("button");
        button.type = "button";
        button.className = "undo";
        button.textContent = W.workshop_undo;
        const label = (select, id) => select.querySelector(`option[value="${CSS.escape(id)}"]`).textContent;
        li.append(`${label(feature, c.feature)} · ${label(mode, c.mode)} → ${NUMBER.format(value)} `, button);
        list.append(li);
      }
      regenerate(changes());
    };
    on(feature, "change", showCell);
    on(mode, "change", showCell);
    on(form, "submit", (event) => {
      event.preventDefault();
      const value = Number(form.elements.value.value);
      if (form.elements.value.value !== "" && Number.isFinite(value)) setChange(`${feature.value}.${mode.value}`, value);
    });
    on(list, "click", (event) => {
      const li = event.target.closest("button.undo")?.closest("li");
      if (li) setChange(li.dataset.key, null);
    });
    showCell();
    const made = changes();
    const link = shop.querySelector("a.download");
    link.hidden = made.length === 0;
    if (made.length) {
      const file = houseRule(made);
      link.download = file.name;
      link.href = `data:text/plain;charset=utf-8,${encodeURIComponent(file.text)}`;
    }
    document.documentElement.dataset.variant = JSON.stringify(made);
  }

  // ---- filters of the reference tables: rows by text, feature and kind of move; columns by
  // unit type and keyword
  const filters = document.querySelector("form.filters");

  function columnsShown(table, wanted) {
    const cols = table.dataset.cols.split("|");
    return cols.map((modes, i) => i === 0 || !wanted || !modes || modes.split(" ").some((m) => wanted.has(m)));
  }

  function showColumns(table, shown) {
    for (const row of table.tBodies[0].rows) [...row.cells].forEach((cell, i) => (cell.hidden = !shown[i]));
    const taken = [];
    [...table.tHead.rows].forEach((row, r) => {
      let col = 0;
      for (const cell of row.cells) {
        while (taken[r]?.[col]) col++;
        const span = Number(cell.dataset.span ?? cell.colSpan);
        cell.dataset.span = String(span);
        for (let dr = 0; dr < cell.rowSpan; dr++) for (let dc = 0; dc < span; dc++) ((taken[r + dr] ??= [])[col + dc] = true);
        const visible = shown.slice(col, col + span).filter(Boolean).length;
        cell.hidden = visible === 0;
        if (visible) cell.colSpan = visible;
        col += span;
      }
    });
  }

  function applyFilters() {
    const f = filters.elements;
    const search = f.search.value.trim().toLowerCase();
    let wanted = null;
    if (f.mode?.value) wanted = new Set([f.mode.value]);
    if (f.group?.value) {
      const members = f.group.selectedOptions[0].dataset.members.split(" ");
      wanted = new Set(wanted ? members.filter((m) => wanted.has(m)) : members);
    }
    const keys = [f.feature?.value, f.move?.value].filter(Boolean);
    let shown = 0, total = 0;
    for (const table of document.querySelectorAll("#reference table[data-cols]")) {
      showColumns(table, columnsShown(table, wanted));
      const keyed = [...table.tBodies[0].rows].some((row) => row.dataset.key);
      let left = 0;
      for (const row of table.tBodies[0].rows) {
        const hide =
          (search && !row.textContent.toLowerCase().includes(search)) ||
          (keyed && keys.length > 0 && !keys.includes(row.dataset.key));
        row.hidden = Boolean(hide);
        total++;
        if (!hide) left++;
      }
      shown += left;
      table.closest(".block").hidden = left === 0 && table.tBodies[0].rows.length > 0;
    }
    filters.querySelector(".shown").textContent = say(W.shown, { shown, total });
  }

  on(filters, "input", applyFilters);
  on(filters, "change", applyFilters);
  on(filters, "submit", (event) => event.preventDefault());
  applyFilters();
  document.documentElement.dataset.ready = "yes";
}
