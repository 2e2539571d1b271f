"""Which languages sheets and cards have their own words in: the gettext catalogs
``rulesdsl/i18n/<lang>.po``, found as package data.

This is data, not the catalogs' reader (:mod:`rulesdsl.i18n`, which needs Babel): the checks
ask it whether a ruleset's language has a catalog (W610) without loading one, and the sheet
and card verbs ask it which languages ``--lang`` may name. A translator who adds
``rulesdsl/i18n/<lang>.po`` adds the language; nothing else lists it.

A project may hold catalogs of its own: ``i18n/<lang>.po`` beside its ``rulesets/`` folder
(:func:`project_words`). One there adds its language to the project's sheets, or overrides
the package's catalog of that language.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from rulesdsl.ir.values import LANG

__all__ = [
    "CATALOG_FOLDER",
    "PROJECT_FOLDER",
    "catalog_languages",
    "catalog_words",
    "has_catalog",
    "project_catalog",
    "project_words",
    "project_words_of",
]

CATALOG_FOLDER = "rulesdsl/i18n"
"""Where the catalogs are, as a translator's path in the source tree."""

PROJECT_FOLDER = "i18n"
"""Where a project's own catalogs are: a folder of that name beside its ``rulesets/``."""

_LANG = re.compile(LANG.regex)
_MSGID = re.compile(r'^msgid "(?!")', re.M)


def _folder() -> Traversable:
    return resources.files("rulesdsl").joinpath("i18n")


@cache
def _package_languages() -> tuple[str, ...]:
    return tuple(
        sorted(
            entry.name[:-3]
            for entry in _folder().iterdir()
            if entry.name.endswith(".po") and _LANG.fullmatch(entry.name[:-3])
        )
    )


def project_words(rulesets: Path) -> Path:
    """The folder of a project's own catalogs: ``i18n/`` beside its rulesets folder."""
    return rulesets.parent / PROJECT_FOLDER


def project_words_of(path: Path) -> Path | None:
    """The catalog folder of the project holding the ruleset file ``path``: ``i18n/`` beside
    the ``rulesets/`` folder of the nearest folder at or above it that has one (None
    outside a project)."""
    here = path.resolve().parent
    for folder in (here, *here.parents):
        if (folder / "rulesets").is_dir():
            return project_words(folder / "rulesets")
    return None


def project_catalog(words: Path | None, lang: str) -> Path | None:
    """The project's catalog of ``lang`` in the folder ``words``, if there is one."""
    if words is None or not _LANG.fullmatch(lang):
        return None
    path = words / f"{lang}.po"
    return path if path.is_file() else None


def catalog_languages(words: Path | None = None) -> tuple[str, ...]:
    """The languages with a catalog of sheet words, sorted (``de``, ``en``, ``fr``, ``ru``):
    the package's, and those of the project's folder ``words`` when given."""
    own = (
        [p.name[:-3] for p in words.glob("*.po") if project_catalog(words, p.name[:-3])]
        if words is not None and words.is_dir()
        else []
    )
    return tuple(sorted({*_package_languages(), *own}))


def has_catalog(lang: str, words: Path | None = None) -> bool:
    """Whether sheets in ``lang`` have their own words (else they fall back to English)."""
    return lang in catalog_languages(words)


@cache
def catalog_words() -> int:
    """How many entries a catalog holds: those of the English one, the reference."""
    text = _folder().joinpath("en.po").read_text(encoding="utf-8")
    return len(_MSGID.findall(text))
