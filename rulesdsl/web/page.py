"""One web page: a ruleset's reference in one language, as one self-contained HTML file.

The page shows the sheet's tables (:mod:`rulesdsl.printed.sheet_model`: the same words, notes,
sources and changed-cell marks), filterable by unit type, keyword, kind of move and feature,
and calculators (modifiers, dice tables, decisions, steps, worked examples) whose every answer
comes from the ruleset's JavaScript module (:mod:`rulesdsl.codegen.js`), inlined in the page
with the page's script (``page.js``), its styles (``page.css``) and its data
(:mod:`rulesdsl.web.model`). Nothing is fetched: no network request, no font.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from rulesdsl.codegen.js.routes import marked
from rulesdsl.codegen.template_code import TemplateCode
from rulesdsl.printed.sheet_view import CHANGED_SIGN, MARKERS, Sheet, TableView
from rulesdsl.web.model import LINE_PLACES, ROUTE_PLACES, PageModel
from rulesdsl.web.workshop import workshop_data

if TYPE_CHECKING:
    from rulesdsl import ir
    from rulesdsl.codegen.plan import ModulePlan

HERE = Path(__file__).parent

BUDGET = 400 * 1024
"""The most bytes a bundled ruleset's page may have (the module, the script, the styles and
the data inlined), which tests/test_web_page.py holds them to: the largest measures 367 kB,
139 kB of it the JavaScript module (docs/web.md). A bigger ruleset of one's own makes a bigger
page."""

WORDS = (
    *("skip", "language", "offline", "reference", "calculators", "try", "answer_here"),
    *("filter", "search", "unit_type", "keyword", "move", "feature", "any", "shown"),
    *("applies", "result", "best", "not_answered", "contents", "place", "none"),
    *("roll_modifier", "roll_button", "rolled", "total", "natural", "outcome"),
    *("path_steps", "path_unit", "colon", "column", "strengths", "attacker", "defender"),
    *("workshop", "workshop_intro", "workshop_no_number", "workshop_value", "workshop_apply"),
    *("workshop_undo", "workshop_download", "workshop_derived", "workshop_not_found"),
    *("workshop_cost", "workshop_modifier", "workshop_dice", "workshop_item", "workshop_for"),
    *("workshop_new", "workshop_gives", "workshop_apart"),
    *("line", "line_rule", "line_viewer", "line_conditions", "line_places", "line_place"),
    *("line_place2", "line_crossed", "line_value"),
    *("route", "route_places", "route_edge", "route_edge2", "route_act", "route_value"),
    "route_rows",
)
"""The page's own words, each ``web_<word>`` in the sheets' catalogs (rulesdsl/i18n/)."""

STATE_WORDS = ("state_needed", "state_after", "unit_state")
"""The words of the state fields, only on the page of rules with ``state`` lines (issue 40;
a page without is as before, byte for byte)."""

WIND_WORDS = ("wind_needed", "wind_hint")
"""The words of the route calculator's wind, only on the page of rules whose wind counts."""
STRENGTH_WORDS = ("wind_strength", "strength_needed")
"""The words of its strength, only where the rules read the wind's strength."""

_CLOSING = re.compile(r"<(/script|!--)", re.IGNORECASE)


def inline_script(text: str) -> str:
    """``text`` safe inside a ``<script>`` element: no ``</script`` or ``<!--`` can end or
    bend it (``<\\/`` and ``<\\!`` read the same in a JavaScript string, comment or regex)."""
    return _CLOSING.sub(lambda m: "<\\" + m.group(1), text)


def json_script(data: object) -> str:
    """``data`` as JSON to inline in a ``<script type="application/json">``."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def column_modes(table: TableView, modes: list[tuple[str, str]]) -> list[str]:
    """For each column of ``table``, the ids of the unit types its heading names (space
    separated; empty for a column of all unit types, or of none)."""
    found = []
    for head in table.flat_head:
        found.append(" ".join(ident for ident, label in modes if label and label in head))
    return found


def row_keys(table: TableView, names: dict[str, str]) -> list[str]:
    """For each row of ``table``, the id of the feature or kind of move its first cell names
    (empty when it names none)."""
    return [names.get(row[0].text.strip(), "") if row else "" for row in table.rows]


def page_js(fields: bool) -> str:
    """The page's script; ``fields``: with the lines of the state and wind fields (marked
    ``// [state fields]``), else with those of a page without (``// [no state fields]``)."""
    text = (HERE / "page.js").read_text("utf-8")
    return marked(text, fields, " // [state fields]", " // [no state fields]") + "\n"


@cache
def _environment() -> jinja2.Environment:
    """One environment a process, which keeps the page's template compiled (its loader still
    reads the template again when the file changes): one made for each page compiled the
    template anew each time, about a third of a second of each page's CPU."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        bytecode_cache=TemplateCode(),  # the template's code kept between runs (issue 44)
    )
    env.globals.update(column_modes=column_modes, row_keys=row_keys)
    return env


def render_page(
    ruleset: ir.Ruleset, sheet: Sheet, module_js: str, plan: ModulePlan | None = None
) -> str:
    """The page of ``ruleset`` in the sheet's language, around the JavaScript module written
    from ``plan`` (which says what the module's cost functions take)."""
    from rulesdsl.codegen.plan import examples

    model = PageModel(ruleset, sheet.lang, words=sheet.catalog_words)
    takes = ((), ()) if plan is None else (plan.movement.cost_inputs, plan.sight.fed_outcomes)
    data = model.data(examples.build(ruleset) if ruleset.examples else None, *takes)
    data["workshop"] = None if plan is None else workshop_data(ruleset, plan)
    modes = [(m["id"], m["label"]) for m in data["modes"]]
    names = {f["label"]: f["id"] for f in (*data["features"], *data["moves"])}
    tries: dict[str, list[int]] = {}
    for index, example in enumerate(data["examples"]):
        if example["tryable"]:
            tries.setdefault(f"example_{example['example']}", []).append(index)
    words = {key: model.w(f"web_{key}") for key in WORDS}
    words.update({key: model.w(key) for key in ("yes", "no", "chance", "roll", *MARKERS)})
    words.update({key: model.w(f"input:{key}") for key in ("distance", "allowance", "available")})
    words.update(rolls=model.w("ask:rolls_due"))
    if "states" in data:
        words.update({key: model.w(f"web_{key}") for key in STATE_WORDS})
        words.update({key: model.w(f"input:{key}") for key in ("state", "viewer_state")})
    wind = bool(data["place"] and "wind" in data["place"])
    if wind:
        words.update({key: model.w(f"web_{key}") for key in WIND_WORDS}, wind=model.w("input:wind"))
    if wind and "strengths" in data["place"]:
        words.update({key: model.w(f"web_{key}") for key in STRENGTH_WORDS})
    fields = wind or "states" in data
    return (
        _environment()
        .get_template("page.html.j2")
        .render(
            sheet=sheet,
            data=data,
            w=words,
            modes=modes,
            names=names,
            tries=tries,
            changed_sign=CHANGED_SIGN,
            line_places=LINE_PLACES,
            route_places=ROUTE_PLACES,
            css=(HERE / "page.css").read_text("utf-8"),
            data_json=json_script({**data, "words": words}),
            script=inline_script(module_js + "\n" + page_js(fields)),
        )
    )
