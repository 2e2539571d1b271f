"""A release keeps meaning (issue 39, item 2): every bundled ruleset and every ruleset file under
tests/ gives the answers pinned in tests/corpus/, save the changes tests/corpus/changes.json
lists with the edition that makes them (tests/pinned.py says how the corpus is made)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl import editions
from rulesdsl.compiler import Compiler
from tests import pinned

FILES = pinned.ruleset_files()


@pytest.mark.parametrize("path", FILES, ids=pinned.key)
def test_the_ruleset_gives_its_pinned_answers(path: Path) -> None:
    assert pinned.record_path(path).exists(), "a new ruleset: record it (python -m tests.pinned)"
    now = pinned.ask(path, Compiler())
    was = pinned.load(path)
    assert pinned.unexplained(pinned.key(path), was, now, pinned.listed_changes()) == []


def test_every_record_belongs_to_a_ruleset() -> None:
    records = {p.name for p in pinned.CORPUS.glob("*.json")} - {
        pinned.CHANGES.name,
        "released.json",
    }
    assert records == {pinned.record_path(p).name for p in FILES}


def test_a_meaning_changed_on_purpose_fails_until_listed_under_a_new_edition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The scratch-copy drill, simulated: keyword precedence loses its 2026.12 reading in
    every edition. The corpus goes red for the files that rely on it; listing each change
    with an edition newer than the pinned one and no newer than the ruleset's turns it green;
    a change listed with the edition the ruleset was pinned in does not."""
    path = pinned.ROOT / "tests" / "data" / "keywords_demo.terrain"
    file = pinned.key(path)
    was = pinned.load(path)
    assert was.edition == "2026.12"
    monkeypatch.setattr(editions, "unnamed_keyword_counts", lambda edition: False)
    now = pinned.ask(path, Compiler())
    failures = pinned.unexplained(file, was, now, {})
    assert "move_cost('jetbike', 'ruins', distance=2): pinned 4, now IMPASSABLE" in [
        f.removeprefix(f"{file}: ") for f in failures
    ]
    changed = {c for c in now.answers if now.answers[c] != was.answers[c]}
    newer = "2027.1"
    monkeypatch.setattr(
        editions, "NAMES", (*editions.NAMES, newer)
    )  # the new edition, and the file moved to it
    moved = pinned.Pinned(newer, now.answers)
    listed = {file: {c: {"edition": newer, "now": now.answers[c]} for c in changed}}
    assert pinned.unexplained(file, was, moved, listed) == []
    assert pinned.unexplained(file, was, now, listed) == failures  # file still in 2026.12
    same = {file: {c: {"edition": "2026.12", "now": now.answers[c]} for c in changed}}
    assert pinned.unexplained(file, was, moved, same) == failures


def test_a_function_added_to_a_module_leaves_the_questions_asked_of_the_others() -> None:
    """Each function is sampled with a generator of its own: a step or decision added to a
    ruleset must not redraw the samples of its other functions (fid's gravity_piloting step
    had redrawn battletech_tacops' lookups and sight questions)."""
    from rulesdsl.versions.answers import load, questions, written

    ruleset = Compiler().compile_file(pinned.ROOT / "rulesets" / "heavy_gear.terrain").ruleset
    assert ruleset is not None
    module = load(ruleset)
    before = [written(call) for call in questions(module, 39)]

    def aa_new_rule(speed: float) -> float:  # sorted first: asked before every other one
        return speed

    module.aa_new_rule = aa_new_rule  # type: ignore[attr-defined]
    module.__all__ = ["aa_new_rule", *module.__all__]
    after = [written(call) for call in questions(module, 39) if call[0] != "aa_new_rule"]
    assert after == before
