"""Issue 42 item 4: output CI systems read. `check`, `build --check` and `diff --fail-on` print
JSON to stdout (stale files as data), GitHub workflow annotations and SARIF 2.1.0; `check` in
a folder with no rulesets is an error, not "0 rulesets checked"."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from rulesdsl.commands.cli import main

GOOD = 'ruleset demo "Demo"\nversion 1.0.0\nmode walker "Walker"\n'
BAD = 'ruleset bad "Bad"\nversion 1.0.0\nmode a "A" de "B"\n'  # E105 at 3:12

SARIF_EXCERPT: dict[str, object] = {
    # The parts of the SARIF 2.1.0 schema (sarif-schema-2.1.0.json) that GitHub code scanning
    # requires of an upload, with the definitions it uses, restated here (no network).
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"enum": ["2.1.0"]},
        "runs": {"type": "array", "minItems": 1, "items": {"$ref": "#/definitions/run"}},
    },
    "definitions": {
        "run": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "tool": {
                    "type": "object",
                    "required": ["driver"],
                    "properties": {"driver": {"$ref": "#/definitions/driver"}},
                },
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "results": {"type": "array", "items": {"$ref": "#/definitions/result"}},
            },
        },
        "driver": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "version": {"type": "string"},
                "rules": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["id"],
                        "properties": {
                            "id": {"type": "string"},
                            "shortDescription": {"$ref": "#/definitions/message"},
                        },
                    },
                },
            },
        },
        "message": {
            "type": "object",
            "required": ["text"],
            "properties": {"text": {"type": "string"}},
        },
        "result": {
            "type": "object",
            "required": ["message", "ruleId", "locations"],
            "properties": {
                "ruleId": {"type": "string"},
                "level": {"enum": ["none", "note", "warning", "error"]},
                "message": {"$ref": "#/definitions/message"},
                "locations": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "required": ["physicalLocation"],
                        "properties": {
                            "physicalLocation": {
                                "type": "object",
                                "required": ["artifactLocation"],
                                "properties": {
                                    "artifactLocation": {
                                        "type": "object",
                                        "required": ["uri"],
                                        "properties": {
                                            "uri": {"type": "string", "pattern": "^[^/]"},
                                            "uriBaseId": {"type": "string"},
                                        },
                                    },
                                    "region": {
                                        "type": "object",
                                        "required": ["startLine"],
                                        "properties": {
                                            "startLine": {"type": "integer", "minimum": 1},
                                            "startColumn": {"type": "integer", "minimum": 1},
                                            "endLine": {"type": "integer", "minimum": 1},
                                            "endColumn": {"type": "integer", "minimum": 1},
                                        },
                                    },
                                },
                            }
                        },
                    },
                },
            },
        },
    },
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder (the current one) whose one ruleset has an error, and one without."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "bad.terrain").write_text(BAD, "utf-8")
    (tmp_path / "rulesets" / "demo.terrain").write_text(GOOD, "utf-8")
    return tmp_path


def test_check_in_a_folder_without_rulesets_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no rulesets" in err and "0 rulesets checked" not in err


def test_check_json_is_printed_to_stdout(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "json", "rulesets/bad.terrain"]) == 1
    [diag] = json.loads(capsys.readouterr().out)
    assert diag["code"] == "E105" and diag["position"]["line"] == 3


def test_check_github_annotates_the_line_and_column(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--format", "github", "rulesets/bad.terrain"]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("::error file=rulesets/bad.terrain,line=3,col=12,")
    assert ",title=E105::" in line


def _stale_project(project: Path) -> None:
    """``demo`` built (modules only), then changed, so generated/ is stale."""
    (project / "rulesets" / "bad.terrain").unlink()
    assert main(["build"]) == 0
    (project / "rulesets" / "demo.terrain").write_text(GOOD + 'mode hover "Hover"\n', "utf-8")


@pytest.fixture
def modules_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rulesdsl.builder.build.sheet_outputs", lambda rs: {})
    monkeypatch.setattr("rulesdsl.builder.build.card_outputs", lambda rs: {})


@pytest.mark.usefixtures("modules_only")
def test_build_check_json_lists_stale_files_as_data(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _stale_project(project)
    capsys.readouterr()
    assert main(["build", "--check", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["diagnostics"] == []
    assert "python/demo.py" in data["stale"]


@pytest.mark.usefixtures("modules_only")
def test_build_check_github_annotates_each_stale_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _stale_project(project)
    capsys.readouterr()
    assert main(["build", "--check", "--format", "github"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "::error file=generated/python/demo.py,title=stale::" in "\n".join(lines)


@pytest.mark.usefixtures("modules_only")
def test_build_check_require_pdf_fails_without_the_extra(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "rulesets" / "bad.terrain").unlink()
    assert main(["build"]) == 0
    assert main(["build", "--check", "--require", "pdf"]) == 0
    monkeypatch.setattr("rulesdsl.extras._found", lambda name: name != "weasyprint")
    capsys.readouterr()
    assert main(["build", "--check", "--require", "pdf"]) == 2
    assert "'pdf' extra" in capsys.readouterr().err


def _sarif(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    main(argv)
    log: dict[str, object] = json.loads(capsys.readouterr().out)
    jsonschema.validate(log, SARIF_EXCERPT)
    return log


@pytest.mark.usefixtures("modules_only")
def test_sarif_of_check_build_and_diff_has_the_shape_code_scanning_reads(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _sarif(["check", "--format", "sarif", "rulesets/bad.terrain"], capsys)
    [result] = log["runs"][0]["results"]  # type: ignore[index]
    assert result["ruleId"] == "E105"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (3, 12)
    old = project / "old.terrain"
    old.write_text(GOOD + 'mode hover "Hover"\n', "utf-8")
    log = _sarif(
        ["diff", str(old), "rulesets/demo.terrain", "--fail-on", "breaking", "--format", "sarif"],
        capsys,
    )
    [result] = log["runs"][0]["results"]  # type: ignore[index]
    assert result["level"] == "error" and result["ruleId"] == "breaking"
    _stale_project(project)
    capsys.readouterr()
    log = _sarif(["build", "--check", "--format", "sarif"], capsys)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"stale"}  # type: ignore[index]


def test_the_sarif_excerpt_refuses_what_code_scanning_refuses() -> None:
    """The excerpt can fail: a result without a location, or an absolute URI, is refused."""
    run = {"tool": {"driver": {"name": "x"}}}
    bad_results = [
        {"ruleId": "E1", "message": {"text": "m"}},
        {
            "ruleId": "E1",
            "message": {"text": "m"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": "/abs"}}}],
        },
    ]
    for result in bad_results:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(
                {"version": "2.1.0", "runs": [{**run, "results": [result]}]}, SARIF_EXCERPT
            )


def test_diff_fail_on_github_annotates_each_breaking_change(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = project / "old.terrain"
    old.write_text(GOOD + 'mode hover "Hover"\n', "utf-8")
    argv = ["diff", str(old), "rulesets/demo.terrain", "--fail-on", "breaking"]
    assert main([*argv, "--format", "github"]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("::error file=rulesets/demo.terrain,title=breaking::")
    assert "hover" in line
