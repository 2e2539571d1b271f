"""The DSL parse's engine (issue 44): the fused lexer and driver (rulesdsl.frontends.dsl_driver)
give what Lark's driver gives, and a builder reused for another parse keeps nothing of the last
one."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from lark import Lark

from rulesdsl.frontends import dsl, dsl_driver, fragments
from rulesdsl.frontends.yaml_authoring import parse_yaml

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted((ROOT / "rulesets").glob("*.terrain"))
BREAKS = ("", "{", "}", '"', "\n", "$", "|", " x ", "\\\n", "# c\n", "\x01", "9" * 400, "->")


def _corpus() -> list[tuple[str, str]]:
    """Every bundled ruleset, and copies of them broken at random places (a stray character,
    a dropped one, a control character, a huge number, a line joined)."""
    texts = [(str(p), p.read_text("utf-8")) for p in BUNDLED]
    small = [text for _, text in texts if len(text) < 8_000]  # each error is a parse again
    rng = random.Random(44)
    for i in range(30):
        text = rng.choice(small)
        at = rng.randrange(len(text))
        texts.append((f"broken{i}.terrain", text[:at] + rng.choice(BREAKS) + text[at + i % 3 :]))
    texts += [("empty.terrain", ""), ("blank.terrain", "\n \n"), ("note.terrain", "# a\n")]
    huge = texts[0][1].replace("version 1.0.1", "version 1.0." + "9" * 400, 1)  # E005, no syntax
    texts.append(("huge.terrain", huge))  # error: the fused loop's token checks, to the end
    return texts


def _parse_all(texts: list[tuple[str, str]]) -> list[Any]:
    parser = dsl.Parser()
    return [parser._parse(text, path) for path, text in texts]


def test_the_fused_driver_gives_lark_s_trees_and_diagnostics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = _corpus()
    monkeypatch.setattr(dsl, "_SPARE", [])
    fused = _parse_all(texts)
    assert all(b.fused is not None and b.fused[1] is not None for b in dsl._SPARE)
    monkeypatch.setattr(dsl, "_SPARE", [])
    monkeypatch.setattr(dsl, "fusable", lambda lark: False)
    lark = _parse_all(texts)
    assert sum(1 for _, errors in lark if errors) >= 10  # the broken copies are broken
    assert [d.code for d in lark[-1][1]] == ["E005"] and lark[-1][0] is not None
    for (path, _), ours, theirs in zip(texts, fused, lark, strict=True):
        assert ours == theirs, path
        assert repr(ours) == repr(theirs), path  # positions, tokens' types and all


def test_a_text_that_parses_takes_the_fused_loop_to_its_end() -> None:
    """The fused loop reduces to the start rule at the end of the text itself: a loop that
    gave up there (Fallback) would still give Lark's answers (the test above), parsing twice."""
    lark = dsl.lalr_parser()
    builder = dsl._Builder("")
    fused = dsl_driver.Fused(lark, builder.callbacks(lark))
    parser = dsl.Parser()
    for path, text in [(p, t) for p, t in _corpus() if not p.startswith("broken")]:
        tree, errors = parser._parse(text, path)
        if tree is None or any(d.code.startswith("E00") and d.code != "E005" for d in errors):
            continue  # a syntax error: Lark's driver reports it
        builder.reset(path)
        source = text if text.endswith("\n") else text + "\n"
        assert tuple(fused.parse(source).value) == tree.statements, path


def test_a_reused_builder_keeps_no_diagnostic_nor_depth_of_the_last_parse() -> None:
    parser = dsl.Parser()
    bad = BUNDLED[0].read_text("utf-8").replace('"', '"\x01', 1) + "\nx 1" + "9" * 400 + "\n"
    first = parser.parse(bad, "bad.terrain")[1]
    assert {d.code for d in first} >= {"E004"}
    clean = parser.parse(BUNDLED[0].read_text("utf-8"), str(BUNDLED[0]))[1]
    assert clean == []
    assert parser.parse(bad, "bad.terrain")[1] == first  # not doubled
    assert all(b.errors == [] and b._depths == {} and b.file == "" for b in dsl._SPARE)


def _fragment_calls() -> list[tuple[str, str, str, int, int]]:
    """Every fragment the YAML front end parses in the hand-written twins (cells, values,
    conditions, terms, examples: text, start rule, path, line, column), copies of them broken
    at random places, and expressions nested past E228's bound and past the walk's stack."""
    calls: list[tuple[str, str, str, int, int]] = []
    keep = fragments.FragmentParser.parse

    def recorded(self: Any, *call: Any) -> Any:
        calls.append(call)
        return keep(self, *call)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fragments.FragmentParser, "parse", recorded)
        for twin in sorted((ROOT / "tests" / "data" / "yaml").glob("*.yaml")):
            parse_yaml(twin.read_text("utf-8"), str(twin))
    rng = random.Random(44)
    for text, *where in list(calls):
        at = rng.randrange(len(text) + 1)
        calls.append((text[:at] + rng.choice(BREAKS) + text[at + rng.randrange(2) :], *where))
    # 40 terms: the builder's E228; 600 parentheses: the walk's (Python's stack)
    for text in ("(" * 99 + "1" + ")" * 99, "+".join("a" * 40), "(" * 600 + "1" + ")" * 600):
        calls += [(text, "operand", "deep.yaml", 3, 9), (f"a < {text}", "condition", "d", 1, 1)]
    return calls


def _answer(parser: fragments.FragmentParser, call: tuple[str, str, str, int, int]) -> str:
    try:
        return repr(parser.parse(*call))
    except fragments.FragmentError as exc:
        return repr(exc.diagnostic)


def test_a_fragment_s_fused_parse_gives_the_walk_of_lark_s_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _fragment_calls()
    parser = fragments.FragmentParser()
    fused = [_answer(parser, call) for call in calls]
    assert fragments._SPARE and all(engines for _, engines in fragments._SPARE)
    monkeypatch.setattr(fragments, "FUSED_LONGEST", -1)
    walked = [_answer(parser, call) for call in calls]
    assert sum("E001" in a for a in walked) > 100 and sum("E228" in a for a in walked) == 4
    assert any(line > 1 and column > 1 for _, _, _, line, column in calls)
    for call, ours, theirs in zip(calls, fused, walked, strict=True):
        assert ours == theirs, call  # the nodes and their positions, or the error and its place


@pytest.mark.parametrize(
    "opener", ["/ +x/", '" x"', r"/(\s)?y/", "/[^a]/", r"/\t?z/", "/(q|\\f)/", r"/\b /"]
)
def test_blanks_are_skipped_only_where_no_other_terminal_opens_with_one(opener: str) -> None:
    assert dsl_driver.blank_run(dsl.lalr_parser())[0] == "\t \f"
    grammar = f"start: WORD (SEP WORD)*\nSEP: {opener}\nWORD: /[a-z]+/\n%ignore /[\\t \\f]+/\n"
    assert dsl_driver.blank_run(Lark(grammar, parser="lalr"))[0] == ""
    plain = "start: WORD (SEP WORD)*\nSEP: /-[ ]?/ | /,\\s*/\nWORD: /[a-z]+/\n%ignore /[\\t ]+/\n"
    assert dsl_driver.blank_run(Lark(plain, parser="lalr"))[0] == "\t "
