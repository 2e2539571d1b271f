"""The web reference of a ruleset (issue 38): one self-contained page per language,
``web/<id>.<lang>.html``, that players open offline on a phone (:mod:`rulesdsl.web.page`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the build imports this before it knows whether there is work
    from rulesdsl import ir
    from rulesdsl.outputs import Output
    from rulesdsl.printed.sheet_model import Sheets


def web_outputs(ruleset: ir.Ruleset, sheets: Sheets | None = None) -> dict[str, Output]:
    """``web/<id>.<lang>.html`` for each of the ruleset's languages, around its JavaScript
    module; ``sheets``: the ruleset's sheets, shared with the sheet and card backends."""
    from rulesdsl.codegen import js, plan
    from rulesdsl.printed.sheet_model import Sheets
    from rulesdsl.web.page import render_page

    sheets = Sheets(ruleset) if sheets is None else sheets
    module = plan.build(ruleset)
    module_js = js.module_js(module)
    return {
        f"web/{ruleset.id}.{lang}.html": render_page(
            ruleset, sheets(lang), module_js, module
        ).encode()
        for lang in ruleset.languages
    }
