"""Only the best of a group counts inside a summed, clamped modifier (issue 25, item 6): the
module's answers (the same as the reference semantics), each misuse with its code, line and
column through both front ends, the YAML round trip, `rulesdsl diff`, a house rule's override
and removal, and the sheet in every language."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl import semantics
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.i18n.catalog import typeset
from rulesdsl.interchange.convert import to_terrain, to_yaml
from tests.conftest import compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
languages en fr
units distance in, cost MP
"""
LINES = HEADER.count("\n")

TO_HIT = """modifier to_hit "To hit" fr "Pour toucher" combine sum clamp -3 to +1 {
  light_cover "Light cover" fr "Couvert léger" | -1
  hard_cover "Hard cover" fr "Couvert lourd"   | -2
  long_range "Long range" fr "Longue portée"   | -1
  aimed "Aimed" fr "Visé"                      | +1
  best cover "Cover" fr "Couvert" combine lowest : light_cover, hard_cover
}
"""
ITEMS = ("light_cover", "hard_cover", "long_range", "aimed")


@pytest.fixture(scope="module")
def demo(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    compiled = compile_snippet(compiler, HEADER + TO_HIT)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    return import_rendered(compiled.ruleset, tmp_path_factory.mktemp("best"), "best_groups")


def test_only_the_best_cover_counts_then_the_rest_adds_up(demo: ModuleType) -> None:
    assert demo.modifier("to_hit", "light_cover", "hard_cover") == -2
    assert demo.modifier("to_hit", "light_cover", "hard_cover", "long_range") == -3
    assert demo.modifier("to_hit", "light_cover", "long_range", "aimed") == -1
    assert demo.modifier("to_hit", "long_range", "aimed") == 0


def test_the_clamp_holds_the_total_after_the_best_is_taken(demo: ModuleType) -> None:
    # hard cover -2, long range -1 twice: -4, held at -3
    assert demo.modifier("to_hit", "hard_cover", "long_range", "long_range") == -3


def test_a_highest_group_keeps_the_highest(compiler: Compiler, tmp_path: Path) -> None:
    text = HEADER + TO_HIT.replace("combine lowest :", "combine highest :")
    compiled = compile_snippet(compiler, text)
    assert compiled.ruleset is not None
    m = import_rendered(compiled.ruleset, tmp_path, "best_highest")
    assert m.modifier("to_hit", "light_cover", "hard_cover", "long_range") == -2


def test_the_module_answers_as_the_reference_for_every_pair_and_triple(
    demo: ModuleType, compiler: Compiler
) -> None:
    rs = compile_snippet(compiler, HEADER + TO_HIT).ruleset
    assert rs is not None
    for n in (1, 2, 3):
        for items in itertools.product(ITEMS, repeat=n):
            assert demo.modifier("to_hit", *items) == semantics.modifier(rs, "to_hit", items)


# ---- misuse ---------------------------------------------------------------------------------

MISUSE = [
    ("E265", TO_HIT.replace("combine lowest :", "combine sum :"), 6, 43),
    (
        "E266",
        TO_HIT.replace("hard_cover\n}", 'hard_cover\n  best range "R" : light_cover\n}'),
        7,
        20,
    ),
    ("E267", TO_HIT.replace("combine sum clamp", "combine highest clamp"), 6, 8),
    ("E101", TO_HIT.replace(": light_cover, hard_cover", ": light_cover, heavy_cover"), 6, 65),
]


@pytest.mark.parametrize(("code", "text", "line", "column"), MISUSE, ids=[m[0] for m in MISUSE])
def test_each_misuse_gets_its_code_at_its_place(
    compiler: Compiler, code: str, text: str, line: int, column: int
) -> None:
    compiled = compile_snippet(compiler, HEADER + text)
    found = [
        (d.code, d.pos.line - LINES, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]
    assert found == [(code, line, column)]


@pytest.mark.parametrize(
    ("code", "text"), [(m[0], m[1]) for m in MISUSE], ids=[m[0] for m in MISUSE]
)
def test_each_misuse_gets_the_same_code_through_the_yaml_front_end(
    tmp_path: Path, code: str, text: str
) -> None:
    source, syntax = Parser().parse(HEADER + text, "bad.terrain")
    assert source is not None and not syntax
    path = tmp_path / "bad.yaml"
    path.write_text(to_yaml(source), "utf-8")
    assert [d.code for d in Compiler().compile_file(path).diagnostics if d.is_error] == [code]


# ---- round trip, diff, variants, sheets ------------------------------------------------------


def test_best_groups_survive_dsl_to_yaml_to_dsl(compiler: Compiler, tmp_path: Path) -> None:
    text = HEADER + TO_HIT
    source, _ = Parser().parse(text, "demo.terrain")
    assert source is not None
    yaml_path = tmp_path / "demo.yaml"
    yaml_path.write_text(to_yaml(source), "utf-8")
    assert "combine: lowest" in yaml_path.read_text("utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_path.read_text("utf-8")), "utf-8")
    assert "best cover" in back.read_text("utf-8")
    rulesets = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)]
    rulesets.append(compile_snippet(compiler, text).ruleset)
    plain = [dataclasses.replace(r, digest="") for r in rulesets if r is not None]
    assert len(plain) == 3 and plain[0] == plain[1] == plain[2]
    [group] = plain[0].modifiers[0].best
    assert (group.id, group.combine, group.members) == (
        "cover",
        "lowest",
        ("light_cover", "hard_cover"),
    )


def test_diff_grades_a_changed_group_as_breaking(compiler: Compiler) -> None:
    from rulesdsl.versions.diff import diff

    old = compile_snippet(compiler, HEADER + TO_HIT).ruleset
    new = compile_snippet(
        compiler, HEADER + TO_HIT.replace("combine lowest :", "combine highest :")
    ).ruleset
    assert old is not None and new is not None
    found = {(c.level, c.path) for c in diff(old, new).changes}
    assert found == {("breaking", "to_hit.best")}


def test_a_house_rule_replaces_or_removes_a_group(compiler: Compiler, tmp_path: Path) -> None:
    (tmp_path / "demo.terrain").write_text(HEADER + TO_HIT, "utf-8")
    head = 'ruleset house "House" fr "Maison"\nversion 1.0.0\nextends demo@^1.0\n'
    replaced = head + (
        'modifier to_hit {\n  best cover "Cover" fr "Couvert" combine highest : light_cover, '
        "hard_cover\n}\n"
    )
    compiled = compile_snippet(compiler, replaced, tmp_path, "house.terrain")
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = import_rendered(compiled.ruleset, tmp_path, "best_house")
    assert m.modifier("to_hit", "light_cover", "hard_cover") == -1
    removed = head + "remove to_hit.best.cover\n"
    compiled = compile_snippet(compiler, removed, tmp_path, "house2.terrain")
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    m = import_rendered(compiled.ruleset, tmp_path, "best_house2")
    assert m.modifier("to_hit", "light_cover", "hard_cover") == -3  # they add up again
    missing = compile_snippet(
        compiler, head + "remove to_hit.best.screen\n", tmp_path, "h3.terrain"
    )
    assert [d.code for d in missing.diagnostics if d.is_error]


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        (
            "en",
            "Cover: of Light cover, Hard cover, only the lowest value counts, added to the others.",
        ),
        (
            "fr",
            "Couvert\u202f: parmi Couvert léger, Couvert lourd, seule la valeur la plus basse "
            "compte",
        ),
        ("ru", "учитывается только наименьшее значение"),
        ("de", "zählt nur der niedrigste Wert"),
    ],
)
def test_the_sheet_says_only_the_best_counts_in_every_language(
    tmp_path: Path, lang: str, sentence: str
) -> None:
    from rulesdsl.commands.cli import main

    source = tmp_path / "demo.terrain"
    source.write_text(HEADER + TO_HIT, "utf-8")
    target = tmp_path / f"demo.{lang}.md"
    assert main(["sheet", str(source), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    assert sentence in target.read_text("utf-8")


NOTED_HEADER = HEADER.replace("languages en fr", "languages en fr ru de")
GROUP_NOTE = {
    "en": "Cover never adds up.",
    "fr": "Les couverts ne s'additionnent jamais.",
    "ru": "Укрытия не складываются.",
    "de": "Deckung zählt nie doppelt.",
}
NOTED = NOTED_HEADER + TO_HIT.replace(
    ": light_cover, hard_cover\n",
    ": light_cover, hard_cover\n"
    f'      note "{GROUP_NOTE["en"]}" fr "{GROUP_NOTE["fr"]}" ru "{GROUP_NOTE["ru"]}"'
    f' de "{GROUP_NOTE["de"]}"\n',
)


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "de"])
@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_sheet_prints_a_groups_note_after_its_sentence_in_every_language(
    tmp_path: Path, lang: str, fmt: str
) -> None:
    from rulesdsl.commands.cli import main

    source = tmp_path / "demo.terrain"
    source.write_text(NOTED, "utf-8")
    target = tmp_path / f"demo.{lang}.{fmt}"
    assert main(["sheet", str(source), "--format", fmt, "--lang", lang, "-o", str(target)]) == 0
    text = target.read_text("utf-8").replace("&#x27;", "'").replace("&#39;", "'")
    said = {"en": "added to the others.", "fr": "ajoutée aux autres.", "ru": "с остальными."}  # noqa: RUF001
    # the note follows the group's sentence, on the same line
    note = typeset(GROUP_NOTE[lang], lang)  # French sets its apostrophes (issue 41)
    assert f"{said.get(lang, 'addiert.')} {note}" in text


def test_the_cards_print_a_groups_note(compiler: Compiler) -> None:
    from rulesdsl.printed.cards import build_deck

    compiled = compile_snippet(compiler, NOTED)
    assert compiled.ok and compiled.ruleset is not None, compiled.diagnostics
    for lang in ("en", "ru"):
        deck = build_deck(compiled.ruleset, lang)
        assert GROUP_NOTE[lang] in repr(deck), lang
