"""One language's words and number formats, from a gettext catalog and Babel's CLDR data.

:func:`catalog` gives the :class:`Catalog` of a language: ``text(key, **fields)`` for a fixed
word or phrase (``{name}`` fields filled with :meth:`str.format`), ``plural(key, n)`` for a
phrase that agrees with a count, ``number``/``signed``/``percent`` for numbers written the
way the language writes them, and ``unit`` for a unit's abbreviation.

A project's catalog (``i18n/<lang>.po`` beside its ``rulesets/``, passed as ``words``)
comes first: its entries override the package's catalog of the language, or give a language
the package has none of. A language without a catalog falls back to English words, and a key
missing from every catalog of it (or left empty) falls back to its English text.
:data:`PSEUDO` (``qps``) is a pseudo-locale for tests: every word of the English catalog,
and every ruleset label passed through :meth:`Catalog.label`, has its letters swapped for
accented ones ("Ṁöṽéɱéñţ"), so a plain ASCII word left on a rendered sheet shows a word that
bypassed the catalog.
"""

from __future__ import annotations

import gettext
import re
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache
from importlib import resources
from io import BytesIO
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from rulesdsl.sheet_languages import catalog_languages, project_catalog

__all__ = ["LANGUAGES", "PSEUDO", "Catalog", "catalog", "pseudo"]

LANGUAGES = catalog_languages()
"""Languages with a catalog of their own in the package: every ``<lang>.po`` beside this
module (a project may add more: :func:`catalog`'s ``words``)."""

PSEUDO = "qps"
"""The pseudo-locale: English words with every ASCII letter accented."""

_PSEUDO_LETTERS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçďéƒĝĥîĵķľɱñöþǫŕšţüṽŵẋýžÅƁÇĎÉƑĜĤÎĴĶĽṀÑÖÞǪŔŠŢÜṼŴẊÝŽ",
)
_FIELD = re.compile(r"(\{[a-z_]*\})")


_FR_BEFORE = re.compile(r"(?:(?<=\S)|^)[ \u00a0]+([:;!?»])")
_FR_WORD_BEFORE = re.compile(r"(?<=[\w.)])([;!?»])")
_FR_AFTER = re.compile(r"«[ \u00a0\u202f]*")
_FR_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
NNBSP = "\u202f"
"""The narrow no-break space French sets before ``: ; ! ? »`` and after ``«``."""


def typeset(text: str, lang: str) -> str:
    """``text`` with the spaces its language's typography wants around punctuation: in
    French a narrow no-break space before ``:`` ``;`` ``!`` ``?`` ``»`` and after ``«``
    (so a line never starts with ``»)`` or ``:``), and the typographic apostrophe (U+2019) for
    ``'`` between letters. A colon or a sign without a space before it in French
    (``12:30``, ``http:``) is left alone but for ``; ! ?`` after a word. Other languages as
    written; typesetting twice changes nothing."""
    if lang != "fr" or not text:
        return text
    text = _FR_BEFORE.sub(NNBSP + r"\1", text)
    text = _FR_WORD_BEFORE.sub(NNBSP + r"\1", text)
    text = _FR_APOSTROPHE.sub("\u2019", text)
    return _FR_AFTER.sub("«" + NNBSP, text)


def pseudo(text: str) -> str:
    """``text`` with its ASCII letters accented, ``{fields}`` left as they are."""
    return "".join(
        part if _FIELD.fullmatch(part) else part.translate(_PSEUDO_LETTERS)
        for part in _FIELD.split(text)
    )


Forms = tuple[str, ...]


@cache
def _messages(lang: str) -> tuple[dict[str, Forms], str]:
    """The package's catalog of ``lang``: forms by key (one form, or the plural forms), and
    the gettext plural expression Babel derives from CLDR for the language."""
    return _read(lang, resources.files("rulesdsl.i18n").joinpath(f"{lang}.po").read_bytes())


def plural_count(lang: str) -> int:
    """How many plural forms gettext gives ``lang`` (2 for a code CLDR does not know)."""
    locale = _locale(lang)
    return 2 if locale is None else get_plural(locale).num_plurals


def _locale(lang: str) -> Locale | None:
    """CLDR's data of ``lang``; None for a code CLDR does not know (English numbers)."""
    try:
        return Locale.parse(lang)
    except (ValueError, UnknownLocaleError):
        return None


@lru_cache(maxsize=16)
def _read(lang: str, data: bytes) -> tuple[dict[str, Forms], str]:
    """The messages of a catalog's bytes (cached by content: a project catalog edited while
    `rulesdsl watch` runs is read again)."""
    po = read_po(BytesIO(data), locale=_locale(lang))
    messages: dict[str, Forms] = {}
    for message in po:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if any(forms):  # an entry not translated yet reads English
            messages[str(key)] = tuple(str(f) for f in forms)
    return messages, po.plural_expr


class Catalog:
    """The words and number formats of one language (see the module docstring)."""

    def __init__(self, lang: str, project: bytes | None = None) -> None:
        self.lang = lang
        self.is_pseudo = lang == PSEUDO
        own = lang if lang in LANGUAGES or project is not None else "en"
        self.locale = _locale("en" if self.is_pseudo else own) or Locale.parse("en")
        self._own, plural_expr = _messages(own) if own in LANGUAGES else ({}, "")
        if project is not None:  # the project's entries over the package's
            added, plural_expr = _read(own, project)
            self._own = {**self._own, **added}
        self._english, _ = _messages("en")
        self._plural_index = gettext.c2py(plural_expr)
        pattern = self.locale.percent_formats[None].pattern
        self._percent_pattern = pattern.replace("0", "0.0", 1)
        self._numbers: dict[float, str] = {}
        """Numbers already written: a large sheet writes the same few numbers tens of
        thousands of times, and Babel's formatting was half the time of its cards."""

    # ---- words ------------------------------------------------------------------------------

    def get(self, key: str) -> str | None:
        """The text of ``key`` in the language's typography, or None when no catalog has it."""
        forms = self._own.get(key) or self._english.get(key)
        if forms is None:
            return None
        return pseudo(forms[0]) if self.is_pseudo else typeset(forms[0], self.lang)

    def text(self, key: str, **fields: str) -> str:
        """The phrase ``key`` with its fields filled; a missing key is a programming error."""
        text = self.get(key)
        if text is None:
            raise KeyError(f"no catalog entry {key!r}")
        return typeset(text.format(**fields) if fields else text, self.lang)

    def plural(self, key: str, n: int, **fields: str) -> str:
        """The form of ``key`` that agrees with ``n`` (CLDR plural rules), ``{n}`` filled."""
        forms = self._own.get(key) or self._english[key]
        index = min(self._plural_index(n), len(forms) - 1)
        text = pseudo(forms[index]) if self.is_pseudo else forms[index]
        return typeset(text.format(n=self.number(n), **fields), self.lang)

    def label(self, text: str) -> str:
        """A ruleset label as shown: itself, or accented in the pseudo-locale, with the
        language's typography (:func:`typeset`)."""
        return pseudo(text) if self.is_pseudo else typeset(text, self.lang)

    def unit(self, unit: str) -> str:
        """A unit's abbreviation (``in`` -> ``po`` in French); unknown units as written."""
        text = self.get(f"unit:{unit}")
        return text if text is not None else self.label(unit)

    # ---- numbers ----------------------------------------------------------------------------

    def number(self, value: float) -> str:
        """``1.5`` as the language writes it (``1,5`` in fr and ru), up to 4 decimals."""
        known = self._numbers.get(value)  # equal numbers are written alike (1 and 1.0, -0.0)
        if known is not None:
            return known
        number = int(value) if isinstance(value, float) and value.is_integer() else value
        text: str = format_decimal(Decimal(str(number)), format="0.####", locale=self.locale)
        if len(self._numbers) < 65536:  # bounded: the catalog lives as long as the process
            self._numbers[value] = text
        return text

    def signed(self, value: float) -> str:
        """A number with its sign (``+1``, ``-2``, ``0``)."""
        return ("+" if value > 0 else "") + self.number(value)

    def percent(self, fraction: Fraction) -> str:
        """A chance with one decimal, rounded half up: ``58.3%`` (en), ``58,3 %`` (fr)."""
        tenths = Fraction(fraction) * 1000
        rounded = int(abs(tenths) + Fraction(1, 2))
        value = Decimal(rounded) / Decimal(1000) * (-1 if tenths < 0 and rounded else 1)
        text: str = format_percent(value, format=self._percent_pattern, locale=self.locale)
        return text


def catalog(lang: str, words: Path | None = None) -> Catalog:
    """The catalog of ``lang`` (English words for a language without one): the project's
    ``words/<lang>.po`` when ``words`` (the project's catalog folder) has one, else the
    package's."""
    path = project_catalog(words, lang)
    return _catalog(lang, None if path is None else path.read_bytes())


@lru_cache(maxsize=64)
def _catalog(lang: str, project: bytes | None) -> Catalog:
    return Catalog(lang, project)
