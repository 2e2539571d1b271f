"""`rulesdsl new NAME --extends BASE`: scaffold a house-rule variant of a ruleset.

The file compiles as written (it changes nothing yet) and its comments show, with the base's
own names, how to override a cell, add a mode or a row, and remove something.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from pathlib import Path
from typing import assert_never

from rulesdsl import ir, spelling, words
from rulesdsl.checks.reserved import is_reserved
from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import EXIT_OK, EXIT_RULES, UsageError, report, rulesets_folder
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.registry import DSL
from rulesdsl.versions import diff as semantic

DSL_SUFFIX = DSL.suffixes[0]
"""A variant is written in the DSL, and its base looked up as a DSL file."""


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "new",
        run,
        description="Write rulesets/NAME.terrain, a variant that extends BASE and says only "
        "what it changes. It compiles as is; its comments show how to override, "
        "add and remove. An existing file is never overwritten.",
    )
    p.add_argument("name", metavar="NAME", help="the new ruleset id (a file stem)")
    p.add_argument("--extends", required=True, metavar="BASE", help="the base ruleset id")
    p.add_argument(
        "--dir", metavar="DIR", help="the rulesets folder (default: rulesets/ of this project)"
    )


def run(args: argparse.Namespace) -> int:
    folder = rulesets_folder(args.dir)
    name, base_id = args.name, args.extends
    if (
        not re.fullmatch(ir.IDENT.regex, name)
        or len(name) > ir.IDENT.max_length
        or (is_reserved(name))
    ):
        raise UsageError(
            f"'{name}' cannot be a ruleset id: use letters, digits and _ (at most "
            f"{ir.IDENT.max_length}), not a Python or module name"
        )
    target = folder / f"{name}{DSL_SUFFIX}"
    if target.exists():
        raise UsageError(f"{target} already exists; pick another name or edit that file")
    base_path = folder / f"{base_id}{DSL_SUFFIX}"
    if not base_path.is_file():
        known = (
            ", ".join(sorted(p.stem for p in folder.glob(f"*{DSL_SUFFIX}")))
            if (folder.is_dir())
            else ""
        )
        raise UsageError(
            f"no base ruleset '{base_id}' in {folder}" + (f" (there are: {known})" if known else "")
        )
    compiler = Compiler()
    base = compiler.compile_file(base_path)
    if base.ruleset is None:
        report(base.diagnostics, compiler, "text")
        print(f"the base {base_path} has errors: fix them first", file=sys.stderr)
        return EXIT_RULES
    text = with_restatements(scaffold(name, base.ruleset), compiler, str(target), folder)
    check = compiler.compile_text(text, str(target), folder)
    if not check.ok:  # pragma: no cover - a scaffold that does not compile is a bug here
        report(check.diagnostics, compiler, "text")
        return EXIT_RULES
    try:
        with target.open("x", encoding="utf-8") as handle:
            handle.write(text)
    except FileExistsError as exc:  # created meanwhile
        raise UsageError(f"{target} already exists") from exc
    where = f" --dir {shlex.quote(args.dir)}" if args.dir else ""
    print(
        f"wrote {target}: a variant of {base_id} {base.ruleset.version}; edit it, then "
        f"`rulesdsl diff{where} {base_id} {name}` lists what it changes",
        file=sys.stderr,
    )
    return EXIT_OK


_RESTATE = re.compile(r"`((?:override|remove) example [^`]+)`")


def with_restatements(text: str, compiler: Compiler, path: str, folder: Path) -> str:
    """``text`` with, under each commented override or remove that changes what the base's
    worked examples answer or ask about, the lines it needs (``#   override example NAME |
    answer``, ``#   remove example NAME``), so that each example of the scaffold compiles
    once uncommented with the lines under it."""
    lines = text.split("\n")
    needs: dict[int, list[str]] = {}
    for i, line in enumerate(lines):
        if not line.startswith(("# override ", "# remove ")) or " example " in line:
            continue
        trial = [*lines[:i], line[2:], *lines[i + 1 :]]
        found = compiler.compile_text("\n".join(trial), path, folder).diagnostics
        restated = [  # the hint's first way out: restate (E271), or remove (E272)
            ways[0]
            for d in found
            if d.code in ("E271", "E272") and (ways := _RESTATE.findall(d.hint or ""))
        ]
        end = i + 1
        while end < len(lines) and lines[end].startswith("#     note "):
            end += 1  # after the notes of the example line
        needs.setdefault(end, []).extend(dict.fromkeys(restated))
    out: list[str] = []
    for i, line in enumerate(lines):
        out += [f"#   {r}" for r in needs.get(i, ())]
        out.append(line)
    return "\n".join(out)


def _requirement(version: str) -> str:
    major, minor, _ = (int(x) for x in version.split("."))
    return f"^{major}.{minor}"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def scaffold(name: str, base: ir.Ruleset) -> str:
    """The text of a variant of ``base`` called ``name`` that changes nothing yet."""
    labels = " ".join(
        (f"{lang} " if i else "") + _quote(f"{base.info.labels.get(lang, base.id)} ({name})")
        for i, lang in enumerate(base.languages)
    )
    first = base.languages[0]
    lines = [
        f"# {name}: house rules on top of {base.id} {base.version}.",
        "# A variant says only what it changes; everything else comes from the base.",
        f"# `rulesdsl diff {base.id} {name}` lists the changes; docs/variants.md explains",
        "# every form shown below. Uncomment and edit what you need.",
        "",
        f"ruleset {name} {labels}",
        "version 0.1.0",
        f"extends {base.id}@{_requirement(base.version)}",
        "",
    ]
    lines += _examples(base, first)
    return "\n".join(lines).rstrip("\n") + "\n"


def _examples(base: ir.Ruleset, lang: str) -> list[str]:
    """The scaffold's commented examples, drawn from the base: a change, an addition and a
    removal of each kind the base has something for."""
    mode = base.modes[0].id if base.modes else "some_mode"  # a base with no modes
    other_mode = base.modes[-1].id if len(base.modes) > 1 else mode
    feature = next(
        (
            f
            for f in base.features
            if f.cells.get("cost") is not None and f.cells["cost"].exceptions
        ),
        None,
    ) or next((f for f in base.features if "cost" in f.cells), None)
    table = base.tables[0] if base.tables else None
    example = base.examples[0] if base.examples else None
    out = _cost_lines(feature, mode, other_mode)
    modifier_feature = next((f for f in base.features if any(c != "cost" for c in f.cells)), None)
    if modifier_feature is not None:
        column = next(c for c in modifier_feature.cells if c != "cost")
        out += [
            "# A modifier column of a terrain:",
            f"# override {modifier_feature.id}.{column} | +2",
        ]
    factor = next((f for m in base.modifiers for f in m.factors), None)
    if factor is not None:
        out += ["# A modifier factor:", f"# override {factor.id} | -1"]
    out += _table_lines(table)
    out += _dice_lines(base.dice_tables[0] if base.dice_tables else None)
    out += _step_lines(base)
    param = base.params[0] if base.params else None
    if param is not None:
        out += ["# A scenario parameter:", f"# override {param.id} | 10 {param.unit}"]
    if feature is not None and len(base.languages) > 1:
        lang2 = base.languages[1]
        label = feature.info.labels.get(lang2, feature.id)
        out += [
            f"# A label in one language ({lang2}):",
            f"# override {feature.id}.label.{lang2} | {_quote(label)}",
        ]
    out += _example_lines(example)
    out.append("")
    out += _addition_lines(base, lang)
    out += [
        "",
        "# ---- take something away " + "-" * 65,
        "# A mode, terrain, table ... by its name; the exceptions it keyed go with it:",
        f"# remove {other_mode}",
    ]
    if table is not None and table.rows:
        out += ["# One row of a table:", f"# remove {table.id}.{table.rows[-1].key}"]
    if example is not None:
        out += ["# A worked example:", f"# remove example {example.id}"]
    return out


def _cost_lines(feature: ir.Feature | None, mode: str, other_mode: str) -> list[str]:
    """The section's head, and a cost of one mode and a whole cost cell changed."""
    if feature is None:
        return []
    cell = feature.cells["cost"]
    key = next(iter(cell.exceptions), mode)
    value = cell.exceptions.get(key, cell.default)
    return [
        "# ---- change a value " + "-" * 70,
        f"# One mode's cost in one terrain (the base says {semantic.shown(value)}):",
        f"# override {feature.id}.{key} | 2",
        '#     note "Why the house plays it this way."',
        "# A whole cost cell: a value for every mode, then the exceptions:",
        f"# override {feature.id} | 2, {other_mode} 1",
    ]


def _table_lines(table: ir.Table | None) -> list[str]:
    if table is None or not table.rows:
        return []
    row = table.rows[0]
    path = (
        f"{table.id}.{table.columns[0].id}.{row.key}" if table.columns else f"{table.id}.{row.key}"
    )
    shown = semantic.shown(row.cells[0]) if row.cells and row.cells[0] else "none"
    return ["# A table cell:", f"# override {path} | {shown}"]


def _dice_lines(dice: ir.DiceTable | None) -> list[str]:
    """A dice row's effects and a dice row's range changed."""
    if dice is None or not dice.rows:
        return []
    effects = ", ".join(
        k if v == ir.Flag(True) else f"{k} {semantic.shown(v)}"
        for k, v in dice.rows[-1].effects.items()
    )
    first = dice.rows[0]
    return [
        "# A dice row's effects:",
        f"# override {dice.id}.{dice.rows[-1].id} | {effects}",
        "# A dice row's range (re-range its neighbour too, to keep every total covered):",
        f"# override {dice.id}.{first.id} range {spelling.dice_range(first.low, first.high)}",
    ]


def _step_lines(base: ir.Ruleset) -> list[str]:
    step = next((st for st in base.steps if st.terms), None)
    if step is None:
        return []
    term = step.terms[0]
    field, shown = _step_example(term, step.param_unit)
    return [
        f"# A step's parameter ({spelling.step_rule(step)}):",
        f"# override {step.id}.{words.term_kind(term)}.{field} | {shown}",
    ]


def _example_lines(example: ir.Example | None) -> list[str]:
    if example is None or not example.questions:
        return []
    from rulesdsl.examples import statements as examples_stated

    q = example.questions[0]
    path = example.id if len(example.questions) == 1 else f"{example.id}.1"
    answer = examples_stated.answer_text(examples_stated.stated(q), examples_stated.unit_of(q))
    return [
        "# A worked example whose answer your change changes must be restated (or removed):",
        f"# override example {path} | {answer}",
    ]


def _addition_lines(base: ir.Ruleset, lang: str) -> list[str]:
    """A new mode, and new rows in a block of the base."""
    layer = base.layers[0] if base.layers else None
    out = [
        "# ---- add something " + "-" * 71,
        "# A new mode (give it a label in each language of the base):",
        "# mode new_mode "
        + " ".join((f"{lg} " if i else "") + '"New mode"' for i, lg in enumerate(base.languages)),
    ]
    if layer is not None:
        width = len(layer.columns)
        cells = " | ".join(["2"] + ["0"] * (width - 1))
        out += [
            f"# New rows in a block of the base: re-open it by its name ({lang} labels first):",
            f"# layer {layer.id} {{",
            f'#   new_terrain "New terrain" | {cells}',
            "# }",
        ]
    return out


def _step_example(term: ir.StepTerm, unit: str) -> tuple[str, str]:
    """The parameter of ``term`` that the scaffold shows overridden, and its value."""
    match term:
        case ir.RateTerm():
            return "amount", spelling.number(term.amount, True)
        case ir.FloorTerm():
            return "amount", spelling.number(term.amount)
        case ir.ImpassableTerm() | ir.FreeTerm():
            return "at", f"{spelling.number(term.at)} {unit}"
        case _:
            assert_never(term)
