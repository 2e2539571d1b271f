"""`rulesdsl convert`: .terrain -> .yaml -> .terrain on every bundled ruleset gives the same IR."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.interchange.fmt import format_text
from rulesdsl.ir.serial import to_data
from tests.conftest import RULESETS

BUNDLED = sorted(p.stem for p in RULESETS.glob("*.terrain"))


def without_digests(data: dict[str, Any]) -> dict[str, Any]:
    """The IR's data with the source digests left out (they hash the source text)."""
    out = {k: v for k, v in data.items() if k != "digest"}
    out["extends"] = [{k: v for k, v in a.items() if k != "digest"} for a in data["extends"]]
    return out


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every bundled ruleset converted to YAML with the CLI, in a folder of their own."""
    folder = tmp_path_factory.mktemp("yaml")
    for name in BUNDLED:
        assert (
            main(["convert", str(RULESETS / f"{name}.terrain"), "-o", str(folder / f"{name}.yaml")])
            == 0
        )
    return folder


@pytest.mark.parametrize("name", BUNDLED)
def test_terrain_to_yaml_keeps_the_ir(compiler: Compiler, converted: Path, name: str) -> None:
    dsl = compiler.compile_file(RULESETS / f"{name}.terrain")
    yml = compiler.compile_file(converted / f"{name}.yaml")  # bases: the YAML twins beside it
    assert yml.ok, [d.message for d in yml.diagnostics]
    assert dsl.ruleset is not None and yml.ruleset is not None
    assert without_digests(to_data(yml.ruleset)) == without_digests(to_data(dsl.ruleset))


@pytest.mark.parametrize("name", BUNDLED)
def test_yaml_back_to_terrain_keeps_the_ir_and_is_formatted(
    compiler: Compiler, converted: Path, tmp_path: Path, name: str
) -> None:
    for base in BUNDLED:  # bases of variants, beside the converted file
        shutil.copy(RULESETS / f"{base}.terrain", tmp_path)
    out = tmp_path / f"{name}.terrain"
    assert main(["convert", str(converted / f"{name}.yaml"), "-o", str(out)]) == 0
    text = out.read_text("utf-8")
    assert format_text(text) == text  # laid out by fmt
    back = compiler.compile_file(out)
    dsl = compiler.compile_file(RULESETS / f"{name}.terrain")
    assert back.ok, [d.message for d in back.diagnostics]
    assert back.ruleset is not None and dsl.ruleset is not None
    assert without_digests(to_data(back.ruleset)) == without_digests(to_data(dsl.ruleset))


def test_the_yaml_reads_as_the_dsl_does(converted: Path) -> None:
    text = (converted / "heavy_gear.yaml").read_text("utf-8")
    assert "      soft:\n        label: Soft (sand, snow, mud)\n" in text
    assert "        cells: 2, walker 3\n" in text  # a value for all, then the exceptions
    assert "    terms: [+1 per full 4 in, at least 1 from 2 in]\n" in text
    assert "    - {when: cover_size > size / 2, then: partial}\n" in text
    terrain = len((RULESETS / "heavy_gear.terrain").read_text("utf-8").splitlines())
    assert len(text.splitlines()) < 3 * terrain  # not the IR's ~1,750 lines


def test_convert_to_stdout_with_a_schema_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "convert",
                str(RULESETS / "heavy_gear_house.terrain"),
                "--schema",
                "authoring.schema.json",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith(
        "# yaml-language-server: $schema=authoring.schema.json\nruleset: heavy_gear_house\n"
    )
    assert "extends: heavy_gear@^1.0\n" in out


def test_convert_refuses_an_output_of_the_same_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["convert", str(RULESETS / "heavy_gear.terrain"), "-o", str(tmp_path / "x.terrain")])
        == 2
    )
    assert "writes .yaml" in capsys.readouterr().err
    assert not (tmp_path / "x.terrain").exists()


def test_convert_of_a_file_with_syntax_errors_reports_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.terrain"
    bad.write_text("ruleset bad\nversion 1.0.0\nmode fly 'Fly'\n", "utf-8")
    assert main(["convert", str(bad)]) == 1
    assert f"{bad}:3:10: error[E002]" in capsys.readouterr().err


def test_a_block_given_twice_is_refused_rather_than_half_converted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = tmp_path / "twice.terrain"
    variant.write_text(
        "ruleset twice\nversion 1.0.0\nextends heavy_gear@^1.0\n"
        "layer terrain {\n  ice | 2\n}\nlayer terrain {\n  slush | 3\n}\n",
        "utf-8",
    )
    assert main(["convert", str(variant)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{variant}:7:1: error[E102]: 'terrain' is given twice" in captured.err
