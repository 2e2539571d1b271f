"""Message catalogs for sheets and cards: every fixed word, per language.

The words live in gettext catalogs beside this file (``de.po``, ``en.po``, ``fr.po``,
``ru.po``), read with Babel; numbers, percentages and plural forms follow Babel's CLDR data
for the language ("1,5", "16,7 %" in French and Russian). See :mod:`rulesdsl.i18n.catalog`.
"""

from rulesdsl.i18n.catalog import LANGUAGES, PSEUDO, Catalog, catalog

__all__ = ["LANGUAGES", "PSEUDO", "Catalog", "catalog"]
