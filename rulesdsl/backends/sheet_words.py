# ruff: noqa: RUF001  (Cyrillic letters are the point of this file)
"""The fixed words of a quick-reference sheet (section titles, markers, phrases) in en, fr, ru.

Labels come from the ruleset; these are the words around them. A language not listed here
falls back to English. Phrases with ``{name}`` fields are filled with :meth:`str.format`.
"""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    # section titles
    "movement": {"en": "Movement", "fr": "Mouvement", "ru": "Движение"},
    "modifiers": {"en": "Modifiers", "fr": "Modificateurs", "ru": "Модификаторы"},
    "steps": {"en": "Scales", "fr": "Barèmes", "ru": "Шкалы"},
    "decisions": {"en": "Procedures", "fr": "Procédures", "ru": "Процедуры"},
    "tables": {"en": "Tables", "fr": "Tables", "ru": "Таблицы"},
    "dice": {"en": "Dice tables", "fr": "Tables de dés", "ru": "Таблицы бросков"},
    "triggers": {"en": "When to roll", "fr": "Quand lancer", "ru": "Когда бросать"},
    "exclusions": {"en": "Incompatible conditions", "fr": "Conditions incompatibles",
                   "ru": "Несовместимые условия"},
    "grid": {"en": "Grid", "fr": "Grille", "ru": "Сетка"},
    "params": {"en": "Scenario parameters", "fr": "Paramètres du scénario",
               "ru": "Параметры сценария"},
    "changes": {"en": "Changes from the base", "fr": "Changements par rapport à la base",
                "ru": "Изменения относительно базы"},
    "sources": {"en": "Sources", "fr": "Sources", "ru": "Источники"},
    # markers and flags
    "impassable": {"en": "impassable", "fr": "infranchissable", "ru": "непроходимо"},
    "prohibited": {"en": "prohibited", "fr": "interdit", "ru": "запрещено"},
    "blocked": {"en": "blocked", "fr": "bloqué", "ru": "заблокировано"},
    "yes": {"en": "yes", "fr": "oui", "ru": "да"},
    "no": {"en": "no", "fr": "non", "ru": "нет"},
    # table headers
    "chance": {"en": "chance", "fr": "chance", "ru": "шанс"},
    "roll": {"en": "roll", "fr": "jet", "ru": "бросок"},
    "result": {"en": "result", "fr": "résultat", "ru": "результат"},
    "effects": {"en": "effects", "fr": "effets", "ru": "эффекты"},
    "value": {"en": "value", "fr": "valeur", "ru": "значение"},
    "unit": {"en": "unit", "fr": "unité", "ru": "ед."},
    "condition": {"en": "when", "fr": "si", "ru": "если"},
    "outcome": {"en": "then", "fr": "alors", "ru": "тогда"},
    "others": {"en": "others", "fr": "autres", "ru": "прочие"},
    "all": {"en": "all", "fr": "tous", "ru": "все"},
    "with_mod": {"en": "with {label} ({value})", "fr": "avec {label} ({value})",
                 "ru": "с {label} ({value})"},
    "cost_per": {"en": "{cost} per {distance}", "fr": "{cost} par {distance}",
                 "ru": "{cost} на {distance}"},
    "to_fill": {"en": "to fill in", "fr": "à remplir", "ru": "заполнить"},
    # values
    "per": {"en": "{amount} per {per}", "fr": "{amount} par {per}", "ru": "{amount} на {per}"},
    "trade": {"en": "{gain} for {cost}", "fr": "{gain} pour {cost}", "ru": "{gain} за {cost}"},
    "as": {"en": "as {label} ({value})", "fr": "comme {label} ({value})",
           "ru": "как {label} ({value})"},
    # step terms
    "rate": {"en": "{amount} per {every}", "fr": "{amount} par {every}",
             "ru": "{amount} на {every}"},
    "rate_full": {"en": "{amount} per full {every}",
                  "fr": "{amount} par tranche complète de {every}",
                  "ru": "{amount} за каждые полные {every}"},
    "floor_from": {"en": "at least {amount} from {at}", "fr": "au moins {amount} dès {at}",
                   "ru": "не менее {amount} от {at}"},
    "floor_above": {"en": "at least {amount} above {at}", "fr": "au moins {amount} au-delà de {at}",
                    "ru": "не менее {amount} свыше {at}"},
    "impassable_from": {"en": "impassable from {at}", "fr": "infranchissable dès {at}",
                        "ru": "непроходимо от {at}"},
    "impassable_above": {"en": "impassable above {at}", "fr": "infranchissable au-delà de {at}",
                         "ru": "непроходимо свыше {at}"},
    # decisions
    "otherwise": {"en": "otherwise", "fr": "sinon", "ru": "иначе"},
    "not": {"en": "not {name}", "fr": "pas {name}", "ru": "не {name}"},
    "and": {"en": "and", "fr": "et", "ru": "и"},
    "first_wins": {"en": "The first row that holds wins.",
                   "fr": "La première ligne vraie s'applique.",
                   "ru": "Применяется первая подходящая строка."},
    "inputs": {"en": "Inputs", "fr": "Entrées", "ru": "Входные данные"},
    # movement rules
    "scope_one": {"en": "one per place", "fr": "un par case", "ru": "один на клетку"},
    "scope_map": {"en": "whole map", "fr": "toute la carte", "ru": "вся карта"},
    "scope_many": {"en": "adds to the others", "fr": "s'ajoute aux autres",
                   "ru": "добавляется к остальным"},
    "stacking": {"en": "Every layer present adds its cost.",
                 "fr": "Chaque couche présente ajoute son coût.",
                 "ru": "Каждый присутствующий слой добавляет свою стоимость."},
    "entry": {"en": "Entering a place costs {cost} before terrain.",
              "fr": "Entrer dans une case coûte {cost} avant le terrain.",
              "ru": "Вход в клетку стоит {cost} до учёта местности."},
    "minimum": {"en": "A unit not prohibited from a place can always move {distance}.",
                "fr": "Une unité non interdite peut toujours avancer de {distance}.",
                "ru": "Незапрещённый юнит всегда может пройти {distance}."},
    "ignores_others": {"en": "ignores the other terrain of the place",
                       "fr": "ignore les autres terrains de la case",
                       "ru": "игнорирует прочую местность клетки"},
    "together": {"en": "together", "fr": "ensemble", "ru": "вместе"},
    # triggers, exclusions, grid
    "check": {"en": "{dice} ≥ {at} ({chance})", "fr": "{dice} ≥ {at} ({chance})",
              "ru": "{dice} ≥ {at} ({chance})"},
    "roll_on": {"en": "roll on {table}", "fr": "lancer sur {table}", "ru": "бросок по «{table}»"},
    "times": {"en": "{n} times", "fr": "{n} fois", "ru": "{n} раза"},
    "excludes": {"en": "cannot be combined with {others}", "fr": "incompatible avec {others}",
                 "ru": "несовместимо с {others}"},
    "square": {"en": "1 square", "fr": "1 case", "ru": "1 клетка"},
    "diagonals": {"en": "Diagonals count {cycle} squares in turn ({lengths} …); the count "
                        "carries over straight moves.",
                  "fr": "Les diagonales comptent tour à tour {cycle} cases ({lengths} …) ; le "
                        "décompte continue après les déplacements droits.",
                  "ru": "Диагонали по очереди считаются за {cycle} клетки ({lengths} …); счёт "
                        "продолжается после прямых ходов."},
    "total": {"en": "total", "fr": "total", "ru": "итого"},
    # variants and footer
    "override": {"en": "changed", "fr": "modifié", "ru": "изменено"},
    "add": {"en": "added", "fr": "ajouté", "ru": "добавлено"},
    "remove": {"en": "removed", "fr": "supprimé", "ru": "удалено"},
    "changed_mark": {"en": "changed by this variant", "fr": "modifié par cette variante",
                     "ru": "изменено этим вариантом"},
    "version": {"en": "version", "fr": "version", "ru": "версия"},
    "extends": {"en": "extends", "fr": "étend", "ru": "расширяет"},
    "digest": {"en": "digest", "fr": "empreinte", "ru": "хеш"},
    "source": {"en": "source", "fr": "source", "ru": "источник"},
}

SYMBOLS: dict[str, dict[str, str]] = {
    "none": {"en": "none", "fr": "aucune", "ru": "нет"},
    "half": {"en": "half", "fr": "moitié", "ru": "половина"},
    "any": {"en": "any", "fr": "quelconque", "ru": "любой"},
    "full": {"en": "full", "fr": "pleine", "ru": "полная"},
    "free": {"en": "free", "fr": "libre", "ru": "свободно"},
    "double": {"en": "double", "fr": "double", "ru": "двойная"},
    "random": {"en": "random", "fr": "au hasard", "ru": "случайно"},
}
"""Words that appear as table values (``Symbol``) and have a usual translation."""


def word(key: str, lang: str, **fields: str) -> str:
    """The fixed word or phrase ``key`` in ``lang`` (English when missing), with fields filled."""
    forms = WORDS[key]
    text = forms.get(lang) or forms["en"]
    return text.format(**fields) if fields else text


def symbol(name: str, lang: str) -> str:
    """A table word such as ``half`` in ``lang``; unknown words are shown as written."""
    forms = SYMBOLS.get(name)
    if forms is None:
        return name.replace("_", " ")
    return forms.get(lang) or forms["en"]
