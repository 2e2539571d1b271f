"""Sheet words: every language of the ruleset has a catalog of the sheets' own words (W610).

Labels come from the ruleset, but headings, column heads, units and phrases come from a
catalog: the project's ``i18n/<lang>.po`` (beside its ``rulesets/`` folder) or the package's.
A language without one still gets its sheets and cards, with those words in English; the
warning says so, names the project's catalog to write, how many entries it needs and the
command that writes them, so the fallback is never silent.
"""

from __future__ import annotations

from pathlib import Path

from rulesdsl import ir
from rulesdsl.diagnostics import Diagnostic, warning
from rulesdsl.positions import Positions, item_field
from rulesdsl.sheet_languages import PROJECT_FOLDER, catalog_languages, catalog_words


def check(rs: ir.Ruleset, where: Positions, words: Path | None = None) -> list[Diagnostic]:
    have = catalog_languages(words)
    return [
        warning(
            "W610",
            f"sheets and cards in '{lang}' will have English headings and words: there is no "
            f"catalog {PROJECT_FOLDER}/{lang}.po of the sheets' own words",
            where.of_field(rs, item_field("languages", i), rs),
            f"`rulesdsl i18n extract --sheet-words --lang {lang} -o {PROJECT_FOLDER}/{lang}.po` "
            f"writes its {catalog_words()} entries to translate, in the folder "
            f"{PROJECT_FOLDER}/ beside rulesets/ (languages with one: {', '.join(have)})",
        )
        for i, lang in enumerate(rs.languages)
        if lang not in have
    ]
