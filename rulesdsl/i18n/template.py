"""A catalog of the sheets' own words for a translator to fill: ``rulesdsl i18n extract
--sheet-words --lang L`` writes it, to go in the project's ``i18n/L.po``.

Each entry is a key of the English catalog with its English text as a comment (``#.``) and
an empty translation (an empty one reads English on the sheets until it is filled); where
the package has a catalog of ``L``, its text is there to change. The output is the same on
every run (no dates in the header).
"""

from __future__ import annotations

from importlib import resources
from io import BytesIO

from babel.messages.catalog import Catalog as Po
from babel.messages.pofile import read_po, write_po

from rulesdsl.i18n.catalog import plural_count
from rulesdsl.sheet_languages import catalog_languages

__all__ = ["sheet_words_po"]


def _package_po(lang: str) -> Po:
    data = resources.files("rulesdsl.i18n").joinpath(f"{lang}.po").read_bytes()
    return read_po(BytesIO(data))


def sheet_words_po(lang: str) -> bytes:
    """The catalog of the sheets' words in ``lang``, to translate (see the module)."""
    english = _package_po("en")
    known = _package_po(lang) if lang in catalog_languages() else Po()
    po = Po()
    for message in english:
        if not message.id:
            continue
        ours = known.get(message.id)
        forms = message.string if isinstance(message.string, tuple | list) else [message.string]
        plural = isinstance(message.string, tuple | list)
        empty: str | tuple[str, ...] = ("",) * plural_count(lang) if plural else ""
        po.add(
            message.id,
            ours.string if ours is not None else empty,
            auto_comments=[f"English: {forms[0]}"],
        )
    out = BytesIO()
    write_po(out, po, width=0, omit_header=True)
    header = (
        f"# Fixed words of rulesdsl sheets and cards, language {lang!r}: translate each\n"
        "# msgstr (an empty one reads English). Fields in braces stay as they are.\n"
        'msgid ""\nmsgstr ""\n'
        f'"Language: {lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    )
    return header.encode("utf-8") + out.getvalue()
