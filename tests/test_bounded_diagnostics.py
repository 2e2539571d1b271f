"""A run's diagnostics cost time in proportion to their number (issue 45, item 2).

Each diagnostic quoted its line by splitting the whole source again: 32,000 duplicate rows of
a chart took over a minute to report, and `import` listed every one of them. The report splits
a source once, and `import` lists at most ``MAX_OF_A_CODE`` diagnostics of one code, as
lowering does, then says how many it left out.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.commands.common import report
from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import MAX_OF_A_CODE, Pos, error


class CountingSources(Mapping[str, str]):
    """A source table that counts how often a diagnostic's quote reads a file's text."""

    def __init__(self, sources: dict[str, str]) -> None:
        self._sources = sources
        self.reads = 0

    def __getitem__(self, key: str) -> str:
        self.reads += 1
        return self._sources[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)


def test_reporting_many_diagnostics_reads_each_source_once() -> None:
    text = "".join(f"line {n}\n" for n in range(1, 501))
    compiler = Compiler()
    sources = CountingSources({"f.terrain": text})
    compiler.sources = sources  # type: ignore[assignment]
    diags = [error("E101", "unknown", Pos("f.terrain", n, 1, n, 5)) for n in range(1, 501)]
    out = io.StringIO()
    report(diags, compiler, "text", out)
    assert sources.reads == 1
    assert "   7 | line 7\n" in out.getvalue() and "500 errors, 0 warnings" in out.getvalue()


def test_import_lists_at_most_a_hundred_diagnostics_of_one_code_then_says_how_many_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "dup.csv"
    rows = 3 * MAX_OF_A_CODE + 1
    chart.write_text("feature,label,infantry\n" + "woods,Woods,2\n" * rows, encoding="utf-8")
    assert main(["import", str(chart), "--layer", "terrain"]) == 1
    err = capsys.readouterr().err
    assert err.count("error[E102]") == MAX_OF_A_CODE + 1
    left = rows - 1 - MAX_OF_A_CODE
    assert f"error[E102]: {left} more errors E102 from here on are not listed" in err
    assert f"{MAX_OF_A_CODE + 1} errors, 0 warnings" in err


# ---- many worked examples (issue 45, item 7) ----------------------------------------------


def _house_rule_with_examples(tmp_path: Path, count: int) -> Path:
    """heavy_gear with ``count`` more examples that heavy_gear_house's cost change breaks."""
    from tests.conftest import RULESETS

    base = (RULESETS / "heavy_gear.terrain").read_text("utf-8")
    more = "".join(
        f"example many_{i} {{\n  move_cost(walker, soft) = 3 MP\n}}\n" for i in range(count)
    )
    (tmp_path / "heavy_gear.terrain").write_text(base + more, "utf-8")
    house = tmp_path / "heavy_gear_house.terrain"
    house.write_text((RULESETS / "heavy_gear_house.terrain").read_text("utf-8"), "utf-8")
    return house


def test_placing_a_variants_errors_walks_its_changed_statements_once_however_many_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each E271 of an inherited example was placed by walking every statement the variant
    changed again, to find its lines: checking 10,000 examples grew as examples x changes."""
    from rulesdsl.variants import resolve

    walked: list[int] = []
    real = resolve._positions

    def counting(node: object) -> object:
        walked[-1] += 1
        return real(node)

    monkeypatch.setattr(resolve, "_positions", counting)
    for count in (10, 40):
        (tmp_path / str(count)).mkdir()
        house = _house_rule_with_examples(tmp_path / str(count), count)
        walked.append(0)
        compiled = Compiler().compile_file(house)
        assert sum(d.code == "E271" for d in compiled.diagnostics) >= count
    assert walked[0] == walked[1] > 0


def test_the_parser_reads_a_bounded_number_of_characters_again_after_syntax_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After each syntax error the file is read again up to the next one: 50 of them in a
    2 MiB file took 33 s. The readings stop once MAX_READ characters have been read."""
    from rulesdsl.frontends import dsl

    head = 'ruleset adv "Adv"\nversion 1.0.0\nlanguages en\nunits distance in, cost MP\n'
    # the 50 errors one every 4 rows (not 20, in 1,200 rows): the readings up to them are a
    # fifth as long, 0.5 s of CPU in all instead of 2.9 (issue 44)
    rows = "".join(f'  g{i} "G" | 1\n' if i % 4 else f"  {i}bad\n" for i in range(1, 240))
    text = head + 'mode walker "Walker"\nlayer ground "Ground" {\n' + rows + "}\n"
    _, all_errors = dsl.Parser().parse(text, "f.terrain")
    assert len(all_errors) == 50  # the first 50 errors, each a reading up to it
    monkeypatch.setattr(dsl, "MAX_READ", 20 * len(text) // 50, raising=False)
    _, errors = dsl.Parser().parse(text, "f.terrain")
    assert 1 <= len(errors) < 50 and errors == all_errors[: len(errors)]


def test_import_lists_at_most_a_hundred_of_the_checks_diagnostics_of_one_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The chart's rows are checked as the DSL is; each of their diagnostics was placed in
    its cell by a search of every row: 3,000 negative costs, 3,000 searches."""
    chart = tmp_path / "negative.csv"
    rows = "".join(f"f{i},F,-1\n" for i in range(2 * MAX_OF_A_CODE))
    chart.write_text("feature,label,infantry\n" + rows, encoding="utf-8")
    assert main(["import", str(chart), "--layer", "terrain"]) == 1
    err = capsys.readouterr().err
    assert err.count("error[E213]") == MAX_OF_A_CODE + 1
    assert f"{MAX_OF_A_CODE} more errors E213 from here on are not listed" in err
