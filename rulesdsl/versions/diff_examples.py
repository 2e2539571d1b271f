"""`rulesdsl diff` for worked examples (issue 27).

Called by :class:`rulesdsl.versions.diff._Differ` with itself. An example whose stated answer
changed is a rules change (what players are told the rules answer changed; a house rule must
restate such an example, so the diff of a base and its house rule lists exactly what the house
rule changes for players), one line per question with its old and new answer. An example added
or removed, or reworded, is wording: the rules play as before.
"""

from __future__ import annotations

from rulesdsl import ir
from rulesdsl.examples import statements as examples_stated
from rulesdsl.versions.diff_sight import Differ, worded


def changed_examples(d: Differ) -> None:
    kept = worded(d, "worked example", d.old.examples, d.new.examples, lambda e: e.id, "example")
    for a, b in kept:
        title = d.label(b.info, b.id)
        old = {examples_stated.question_text(q): q for q in a.questions}
        for n, q in enumerate(b.questions, 1):
            asked = examples_stated.question_text(q)
            path = f"example.{b.id}" + (f".{n}" if len(b.questions) > 1 else "")
            before = old.get(asked)
            now = _answer(q)
            if before is None:
                d.add("wording", "added", path, f"{title}: question added: {asked} = {now}")
                continue
            was = _answer(before)
            if not examples_stated.same(examples_stated.stated(before), examples_stated.stated(q)):
                d.add("rules", "changed", path, f"{title}: {asked}: {was} -> {now}", was, now)
        asked_now = {examples_stated.question_text(q) for q in b.questions}
        for asked, q in old.items():
            if asked not in asked_now:
                d.add(
                    "wording",
                    "removed",
                    f"example.{b.id}",
                    f"{title}: question removed: {asked} = {_answer(q)}",
                )


def _answer(q: ir.Question) -> str:
    return examples_stated.answer_text(examples_stated.stated(q), examples_stated.unit_of(q))
