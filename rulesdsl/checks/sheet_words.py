"""Sheet words: every language of the ruleset has a catalog of the sheets' own words (W610).

Labels come from the ruleset, but headings, column heads, units and phrases come from
``rulesdsl/i18n/<lang>.po``. A language without that catalog still gets its sheets and cards,
with those words in English; the warning says so, names the catalog to write and how many
entries it needs, so the fallback is never silent.
"""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.checks import walk
from rulesdsl.diagnostics import Diagnostic, warning
from rulesdsl.positions import Positions, item_field
from rulesdsl.sheet_languages import CATALOG_FOLDER, catalog_languages, catalog_words


def check(rs: ir.Ruleset, where: Positions, _nodes: walk.Nodes | None = None) -> list[Diagnostic]:
    have = catalog_languages()
    return [
        warning(
            "W610",
            f"sheets and cards in '{lang}' will have English headings and words: there is no "
            f"catalog {CATALOG_FOLDER}/{lang}.po of the sheets' own words",
            where.of_field(rs, item_field("languages", i), rs),
            f"translate the {catalog_words()} entries of {CATALOG_FOLDER}/en.po into "
            f"{CATALOG_FOLDER}/{lang}.po (languages with one: {', '.join(have)})",
        )
        for i, lang in enumerate(rs.languages)
        if lang not in have
    ]
