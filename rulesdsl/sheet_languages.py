"""Which languages sheets and cards have their own words in: the gettext catalogs
``rulesdsl/i18n/<lang>.po``, found as package data.

This is data, not the catalogs' reader (:mod:`rulesdsl.i18n`, which needs Babel): the checks
ask it whether a ruleset's language has a catalog (W610) without loading one, and the sheet
and card verbs ask it which languages ``--lang`` may name. A translator who adds
``rulesdsl/i18n/<lang>.po`` adds the language; nothing else lists it.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from rulesdsl.ir_values import LANG

__all__ = ["CATALOG_FOLDER", "catalog_languages", "catalog_words", "has_catalog"]

CATALOG_FOLDER = "rulesdsl/i18n"
"""Where the catalogs are, as a translator's path in the source tree."""

_LANG = re.compile(LANG.regex)
_MSGID = re.compile(r'^msgid "(?!")', re.M)


def _folder() -> Traversable:
    return resources.files("rulesdsl").joinpath("i18n")


@cache
def catalog_languages() -> tuple[str, ...]:
    """The languages with a catalog of sheet words, sorted (``de``, ``en``, ``fr``, ``ru``)."""
    return tuple(
        sorted(
            entry.name[:-3]
            for entry in _folder().iterdir()
            if entry.name.endswith(".po") and _LANG.fullmatch(entry.name[:-3])
        )
    )


def has_catalog(lang: str) -> bool:
    """Whether sheets in ``lang`` have their own words (else they fall back to English)."""
    return lang in catalog_languages()


@cache
def catalog_words() -> int:
    """How many entries a catalog holds: those of the English one, the reference."""
    text = _folder().joinpath("en.po").read_text(encoding="utf-8")
    return len(_MSGID.findall(text))
