"""The build engine: stamps that skip unchanged rulesets, `build NAME...`, PDFs in a process
pool with output identical to a serial build, the manifest of owned outputs, one transaction
per run, and the output folder's safety (duplicate ids, files in the way, long names, links)."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import re
import subprocess
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from rulesdsl.builder import build as build_module
from rulesdsl.builder import manifest as mf
from rulesdsl.builder import transaction
from rulesdsl.builder.build import (
    TargetOutputs,
    UnknownRuleset,
    build,
    card_outputs,
    render_deferred,
    sheet_outputs,
)
from rulesdsl.codegen.targets import JS, PYTHON
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.outputs import Deferred, Output
from rulesdsl.web import web_outputs

python_outputs = TargetOutputs(PYTHON)

BASE = """\
ruleset base "Base" fr "Base"
version 1.0.0
languages en fr
units distance in, cost MP
mode walker "Walker" fr "Marcheur"
layer ground "Ground" fr "Sol" one per place {
  soft "Soft" fr "Mou" | 2
}
"""
VARIANT = """\
ruleset var "Variant" fr "Variante"
version 1.0.0
extends base@^1.0
override soft.cost | 3
"""
OTHER = BASE.replace('ruleset base "Base"', 'ruleset other "Other"')


def text_sheets(ruleset: object) -> dict[str, Output]:
    """The sheet backend without PDFs: HTML and Markdown in every language (fast tests)."""
    from rulesdsl.printed.sheets import render_sheet

    return {
        f"sheets/{ruleset.id}.{lang}.{fmt}": render_sheet(ruleset, fmt, lang)  # type: ignore[attr-defined]
        for lang in ruleset.languages
        for fmt in ("html", "md")
    }  # type: ignore[attr-defined]


FAST = (python_outputs, text_sheets)
PARSER = Compiler().parser  # building the LALR parser is the slowest part of a small build


def new_compiler() -> Compiler:
    """A compiler with no cached files (tests edit them between builds), sharing one parser."""
    compiler = Compiler()
    compiler._parser = PARSER
    return compiler


@pytest.fixture
def project(tmp_path: Path) -> Path:
    rulesets = tmp_path / "rulesets"
    rulesets.mkdir()
    for name, text in (("base", BASE), ("var", VARIANT), ("other", OTHER)):
        (rulesets / f"{name}.terrain").write_text(text, "utf-8")
    return tmp_path


def run(project: Path, **options: object) -> build_module.BuildResult:
    options.setdefault("backends", FAST)
    return build(project / "rulesets", project / "generated", compiler=new_compiler(), **options)  # type: ignore[arg-type]


def compiled_ids(result: build_module.BuildResult) -> list[str]:
    return sorted(Path(c.path).stem for c in result.compiled)


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) with its bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new), "utf-8")


# ---- stamps: a no-op build compiles nothing --------------------------------------------------


def test_a_no_op_build_compiles_nothing_and_writes_nothing(project: Path) -> None:
    first = run(project)
    assert compiled_ids(first) == ["base", "other", "var"]
    before = {p: p.stat().st_mtime_ns for p in (project / "generated").rglob("*")}
    second = run(project)
    assert second.ok and second.compiled == [] and second.written == []
    assert second.up_to_date == ["base", "other", "var"]
    assert {p: p.stat().st_mtime_ns for p in (project / "generated").rglob("*")} == before
    assert run(project, check=True).stale == []


def test_an_edited_base_recompiles_it_and_its_variant_only(project: Path) -> None:
    run(project)
    edit(project / "rulesets" / "base.terrain", '"Soft" fr "Mou"', '"Mud" fr "Boue"')
    result = run(project)
    assert compiled_ids(result) == ["base", "var"]
    assert result.up_to_date == ["other"]
    assert "Mud" in (project / "generated" / "python" / "var.py").read_text("utf-8")


def test_any_byte_changed_in_a_source_recompiles_it_and_only_its_outputs_change(
    project: Path,
) -> None:
    run(project)
    path = project / "rulesets" / "other.terrain"
    path.write_text(path.read_text("utf-8") + "# a comment\n", "utf-8")
    result = run(project)
    assert compiled_ids(result) == ["other"]
    assert result.up_to_date == ["base", "var"]
    assert result.written == []  # the digest is semantic: a comment changes no output
    path.write_text(path.read_text("utf-8").replace('"Other"', '"Another"'), "utf-8")
    result = run(project)
    assert compiled_ids(result) == ["other"]
    assert result.written and all("/other." in rel for rel in result.written)


def test_a_hand_edited_output_is_noticed_by_check_and_rewritten_by_build(project: Path) -> None:
    first = run(project)
    module = project / "generated" / "python" / "other.py"
    good = module.read_bytes()
    module.write_bytes(good + b"# edited by hand\n")
    assert run(project, check=True).stale == ["python/other.py"]
    result = run(project)
    assert compiled_ids(result) == ["other"] and result.written == ["python/other.py"]
    assert module.read_bytes() == good and first.ok


def test_a_new_compiler_invalidates_every_stamp(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(project)
    monkeypatch.setattr(mf, "compiler_digest", lambda: "another compiler")
    assert compiled_ids(run(project)) == ["base", "other", "var"]


def test_another_backend_choice_does_not_reuse_the_stamp(project: Path) -> None:
    run(project, backends=(python_outputs,))
    result = run(project)  # now with sheets: every ruleset must make them
    assert compiled_ids(result) == ["base", "other", "var"]
    assert "sheets/base.fr.md" in result.written
    assert "python/base.py" not in result.written


def test_force_compiles_every_ruleset(project: Path) -> None:
    run(project)
    assert compiled_ids(run(project, incremental=False)) == ["base", "other", "var"]


# ---- build NAME... ----------------------------------------------------------------------------


def test_build_names_builds_those_and_the_rulesets_that_extend_them(project: Path) -> None:
    result = run(project, names=["base"])
    assert compiled_ids(result) == ["base", "var"]
    assert sorted((project / "generated" / "python").iterdir()) == [
        project / "generated" / "python" / "base.py",
        project / "generated" / "python" / "var.py",
    ]
    assert compiled_ids(run(project, names=["rulesets/var.terrain"])) == []  # up to date
    assert compiled_ids(run(project, names=["other"])) == ["other"]


def test_build_names_leaves_the_other_rulesets_outputs_and_manifest_entries(project: Path) -> None:
    run(project)
    (project / "rulesets" / "other.terrain").unlink()
    run(project, names=["var"])  # a deleted ruleset's outputs go only in a full build
    assert (project / "generated" / "python" / "other.py").exists()
    assert run(project).removed == [
        "python/other.py",
        "sheets/other.en.html",
        "sheets/other.en.md",
        "sheets/other.fr.html",
        "sheets/other.fr.md",
    ]


def test_an_unknown_name_is_a_usage_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(UnknownRuleset, match=r"no ruleset 'nope' \(there are: base, other, var"):
        run(project, names=["nope"])
    assert (
        main(
            [
                "build",
                "nope",
                "--rulesets",
                str(project / "rulesets"),
                "--out",
                str(project / "generated"),
            ]
        )
        == 2
    )
    assert "no ruleset 'nope'" in capsys.readouterr().err


# ---- a process pool, and the same bytes as a serial uncached build ---------------------------


def _pid() -> bytes:
    return str(os.getpid()).encode()


def _label(text: str) -> bytes:
    return text.encode()


def test_deferred_outputs_render_in_other_processes_in_a_fixed_order() -> None:
    pending = {f"sheets/{n}.pdf": Deferred(_pid, lambda _: False) for n in "dcba"}
    made = render_deferred(pending, jobs=2)
    assert list(made) == ["sheets/a.pdf", "sheets/b.pdf", "sheets/c.pdf", "sheets/d.pdf"]
    assert str(os.getpid()).encode() not in made.values()
    labels = {f"x/{n}": Deferred(partial(_label, n), lambda _: False) for n in "qpr"}
    assert render_deferred(labels, jobs=2) == {"x/p": b"p", "x/q": b"q", "x/r": b"r"}
    serial = render_deferred(pending, jobs=1)
    assert set(serial.values()) == {str(os.getpid()).encode()}


def _unmade(rel: str) -> bytes:
    raise AssertionError(f"{rel} was made")


def pdfs_never_made(ruleset: object) -> dict[str, Output]:
    """A backend of deferred outputs whose file can stay only when it reads ``kept``; making
    one fails."""
    rel = f"sheets/{ruleset.id}.pdf"  # type: ignore[attr-defined]
    return {rel: Deferred(partial(_unmade, rel), lambda existing: existing == b"kept")}


def test_check_lists_a_deferred_output_that_is_not_current_without_making_it(
    project: Path,
) -> None:
    """A build would write it whatever it renders, so ``--check`` calls it stale unmade: a
    stale tree's check renders no PDF (issue 44)."""
    (project / "generated" / "sheets").mkdir(parents=True)
    (project / "generated" / "sheets" / "other.pdf").write_bytes(b"kept")
    (project / "generated" / "sheets" / "var.pdf").write_bytes(b"edited")
    result = run(project, check=True, backends=[pdfs_never_made])
    assert result.ok and result.stale == ["sheets/base.pdf", "sheets/var.pdf"]
    with pytest.raises(AssertionError, match=r"sheets/base\.pdf was made"):
        run(project, backends=[pdfs_never_made], jobs=1)


def test_a_parallel_incremental_build_is_byte_identical_to_a_serial_uncached_one(
    tmp_path: Path, project: Path
) -> None:
    pytest.importorskip("weasyprint")
    serial = tmp_path / "serial"
    sheets = (python_outputs, sheet_outputs)  # the cards render alike; they would double the time
    build(
        project / "rulesets",
        serial,
        compiler=new_compiler(),
        jobs=1,
        incremental=False,
        backends=sheets,
    )
    parallel = tmp_path / "parallel"
    build(project / "rulesets", parallel, compiler=new_compiler(), jobs=2, backends=sheets)
    variant = project / "rulesets" / "var.terrain"
    edit(variant, "| 3", "| 4")
    build(project / "rulesets", parallel, compiler=new_compiler(), jobs=2, backends=sheets)
    edit(variant, "| 4", "| 3")
    again = build(project / "rulesets", parallel, compiler=new_compiler(), jobs=2, backends=sheets)
    assert compiled_ids(again) == ["var"]
    assert again.written == [
        "python/var.py",
        "sheets/var.en.html",
        "sheets/var.en.md",
        "sheets/var.en.pdf",
        "sheets/var.fr.html",
        "sheets/var.fr.md",
        "sheets/var.fr.pdf",
    ]
    expected, got = tree(serial), tree(parallel)
    assert sorted(expected) == sorted(got)
    assert len([name for name in expected if name.endswith(".pdf")]) == 6
    for name, data in expected.items():
        assert got[name] == data, name


# ---- the manifest: the build removes only what it wrote --------------------------------------


def test_an_extra_user_file_never_makes_check_fail_and_is_never_removed(project: Path) -> None:
    run(project)
    mine = [
        project / "generated" / "python" / "helpers.py",
        project / "generated" / "sheets" / "my notes.pdf",
        project / "generated" / "README.txt",
    ]
    for path in mine:
        path.write_text("mine\n", "utf-8")
    assert run(project, check=True).stale == []
    (project / "rulesets" / "other.terrain").unlink()
    run(project)
    assert all(path.read_text("utf-8") == "mine\n" for path in mine)


def test_outputs_no_ruleset_produces_any_more_are_removed(project: Path) -> None:
    run(project)
    english_only = re.sub(r' fr "[^"]*"', "", OTHER).replace("languages en fr", "languages en")
    (project / "rulesets" / "other.terrain").write_text(english_only, "utf-8")
    check = run(project, check=True)
    assert "sheets/other.fr.md" in check.stale and "sheets/other.fr.html" in check.stale
    result = run(project)
    assert result.removed == ["sheets/other.fr.html", "sheets/other.fr.md"]
    assert not (project / "generated" / "sheets" / "other.fr.md").exists()
    owned = mf.load(project / "generated").owned()
    assert "sheets/other.fr.md" not in owned and "sheets/other.en.md" in owned


def test_an_orphaned_output_the_user_edited_is_left_alone(project: Path) -> None:
    run(project)
    kept = project / "generated" / "python" / "other.py"
    kept.write_text("# I keep this one\n", "utf-8")
    (project / "rulesets" / "other.terrain").unlink()
    result = run(project)
    assert "python/other.py" not in result.removed
    assert "sheets/other.en.md" in result.removed
    assert kept.read_text("utf-8") == "# I keep this one\n"
    assert "other" not in mf.load(project / "generated").rulesets


def test_the_manifest_is_sorted_and_the_same_for_the_same_sources(
    project: Path, tmp_path: Path
) -> None:
    run(project)
    again = tmp_path / "again"
    build(project / "rulesets", again, backends=FAST, compiler=new_compiler())
    data = (project / "generated" / mf.MANIFEST).read_bytes()
    assert data == (again / mf.MANIFEST).read_bytes()
    manifest = json.loads(data)
    assert list(manifest["rulesets"]) == ["base", "other", "var"]
    entry = manifest["rulesets"]["var"]["tests.test_build:text_sheets"]
    assert list(entry["outputs"]) == sorted(entry["outputs"])
    assert list(entry["sources"]) == ["base.terrain", "var.terrain"]


def test_a_manifest_entry_outside_the_output_folder_is_never_removed(project: Path) -> None:
    run(project)
    victim = project / "victim.txt"
    victim.write_text("precious\n", "utf-8")
    path = project / "generated" / mf.MANIFEST
    data = json.loads(path.read_text("utf-8"))
    sha = mf.file_digest(victim)
    entry = data["rulesets"]["other"]["rulesdsl.builder.build:python_outputs"] = {
        "compiler": "x",
        "sources": {"other.terrain": "x"},
        "outputs": {"../victim.txt": sha},
    }
    assert entry
    path.write_text(json.dumps(data), "utf-8")
    (project / "rulesets" / "other.terrain").unlink()
    run(project)
    assert victim.read_text("utf-8") == "precious\n"


# ---- transactions and leftovers --------------------------------------------------------------


def test_leftover_temporary_files_and_staging_are_cleaned_but_user_files_kept(
    project: Path,
) -> None:
    run(project)
    out = project / "generated"
    leftovers = [
        out / "python" / ".base.py.a1b2c3d4.tmp",
        out / "sheets" / ".rulesdsl-x.tmp",
        out / transaction.STAGING / "python" / "base.py",
    ]
    for path in leftovers:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("half", "utf-8")
    user = out / "sheets" / ".my-settings.tmp"
    user.write_text("mine", "utf-8")
    assert run(project, check=True).stale == [
        ".rulesdsl-staging",
        "python/.base.py.a1b2c3d4.tmp",
        "sheets/.rulesdsl-x.tmp",
    ]
    assert run(project).written == []
    assert not any(path.exists() for path in leftovers)
    assert not (out / transaction.STAGING).exists()
    assert user.read_text("utf-8") == "mine"


def test_a_run_killed_after_its_commit_point_is_finished_by_the_next(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(project)
    edit(project / "rulesets" / "base.terrain", "| 2", "| 5")
    calls = 0
    real_replace = os.replace

    def dies_on_the_third_move(src: object, dst: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:  # the journal, then one output: a mix of old and new on disk
            raise KeyboardInterrupt
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", dies_on_the_third_move)
    with pytest.raises(KeyboardInterrupt):
        run(project)
    monkeypatch.setattr(os, "replace", real_replace)
    out = project / "generated"
    assert (out / transaction.JOURNAL).exists()  # committed: python/base.py is new already,
    assert "| 5" not in (out / "sheets" / "base.en.md").read_text("utf-8")  # this is not yet
    transaction.recover(out)
    assert not (out / transaction.JOURNAL).exists() and not (out / transaction.STAGING).exists()
    assert "| 5" in (out / "sheets" / "base.en.md").read_text("utf-8")
    assert run(project, check=True).stale == []


def test_a_journal_or_manifest_not_written_by_the_build_is_ignored(project: Path) -> None:
    run(project)
    out = project / "generated"
    (out / transaction.JOURNAL).write_text('{"format": 1, "write": ["../../x"]}', "utf-8")
    (out / mf.MANIFEST).write_text("not json", "utf-8")
    result = run(project)
    assert compiled_ids(result) == ["base", "other", "var"]  # no stamps: compile everything
    assert result.written == [] and not (out / transaction.JOURNAL).exists()
    assert sorted(json.loads((out / mf.MANIFEST).read_text("utf-8"))["rulesets"]) == [
        "base",
        "other",
        "var",
    ]
    (out / mf.MANIFEST).unlink()
    (out / mf.MANIFEST).mkdir()
    with pytest.raises(transaction.OutputFolderError, match="manifest there"):
        run(project, incremental=False)


# ---- the output folder ------------------------------------------------------------------------


def cli_build(project: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`rulesdsl build` in ``project`` as the console script runs it (``main``, whose return is
    the exit status), in this process: a Python started for each was most of these tests' CPU
    (issue 44). An exception out of ``main``, which the console script would print as a
    traceback, fails the test as it is."""
    err = io.StringIO()
    out = io.StringIO()
    with (
        contextlib.chdir(project),
        contextlib.redirect_stderr(err),
        contextlib.redirect_stdout(out),
    ):
        code = main(["build", *extra])
    return subprocess.CompletedProcess(["rulesdsl", "build", *extra], code, "", err.getvalue())


def test_out_being_a_file_is_a_clear_error_before_anything_is_written(project: Path) -> None:
    target = project / "out.txt"
    target.write_text("not a folder\n", "utf-8")
    result = cli_build(project, "--out", str(target), "--rulesets", str(project / "rulesets"))
    assert result.returncode == 2
    assert "out.txt is a file, not a folder" in result.stderr
    assert "Traceback" not in result.stderr
    assert target.read_text("utf-8") == "not a folder\n"


def test_out_below_a_file_is_a_clear_error_before_anything_is_written(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Was a NotADirectoryError traceback from the output folder's check.
    target = project / "out.txt"
    target.write_text("not a folder\n", "utf-8")
    args = ["build", "--rulesets", str(project / "rulesets"), "--out", str(target / "sub")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "out.txt is a file where a folder is needed" in err and "Traceback" not in err
    assert target.read_text("utf-8") == "not a folder\n"


@pytest.mark.parametrize("make", ["file", "symlink"])
def test_sheets_folder_that_is_a_file_or_link_stops_the_build_before_any_write(
    project: Path, tmp_path: Path, make: str
) -> None:
    run(project, backends=(python_outputs,))
    module = project / "generated" / "python" / "base.py"
    old = module.read_bytes()
    sheets = project / "generated" / "sheets"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if make == "file":
        sheets.write_text("in the way\n", "utf-8")
    else:
        sheets.symlink_to(elsewhere)
    edit(project / "rulesets" / "base.terrain", "| 2", "| 6")
    with pytest.raises(transaction.OutputFolderError, match="sheets is a"):
        run(project)
    assert module.read_bytes() == old  # the Python modules were not rewritten
    assert list(elsewhere.iterdir()) == []
    assert not (project / "generated" / transaction.STAGING).exists()


def test_the_command_line_reports_a_sheets_file_in_one_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "generated").mkdir()
    (project / "generated" / "sheets").write_text("in the way\n", "utf-8")
    args = ["build", "--rulesets", str(project / "rulesets"), "--out", str(project / "generated")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "sheets is a file where the build needs a folder" in err
    assert "(nothing was written)" in err and "Traceback" not in err
    assert sorted(p.name for p in (project / "generated").iterdir()) == ["sheets"]


def test_duplicate_ruleset_ids_are_an_error_naming_both_files(project: Path) -> None:
    (project / "rulesets" / "base.yaml").write_text("id: base\n", "utf-8")
    result = run(project)
    [diag] = result.diagnostics
    assert diag.code == "E102" and not result.ok
    assert "base.terrain" in diag.message and "base.yaml" in diag.message
    assert not (project / "generated").exists()


def test_a_file_declaring_another_files_id_is_an_error_naming_both(project: Path) -> None:
    edit(project / "rulesets" / "other.terrain", "ruleset other", "ruleset base")
    result = run(project)
    [diag] = result.diagnostics
    assert diag.code == "E102"
    assert "other.terrain" in diag.message and "base.terrain" in diag.message
    assert diag.pos is not None and (diag.pos.line, diag.pos.column) == (1, 9)
    assert not (project / "generated").exists()


def test_an_id_that_is_not_its_files_name_is_an_error(project: Path) -> None:
    edit(project / "rulesets" / "other.terrain", "ruleset other", "ruleset another")
    [diag] = run(project).diagnostics
    assert diag.message == "ruleset id 'another' is not its file's name 'other'"
    assert diag.hint == "declare `ruleset other`, or rename the file to another.terrain"


def test_a_very_long_declared_id_is_a_diagnostic_not_an_os_error(project: Path) -> None:
    rid = "r" * 300  # on main: OSError (file name too long) after some files were written
    (project / "rulesets" / "long.terrain").write_text(
        OTHER.replace("ruleset other", f"ruleset {rid}"), "utf-8"
    )
    result = cli_build(project)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "OSError" not in result.stderr
    assert "long.terrain:1:9: error[E106]" in result.stderr
    assert not (project / "generated").exists()


def test_extends_with_a_very_long_base_name_is_a_diagnostic_not_an_os_error(
    project: Path,
) -> None:
    base = "b" * 300  # on main: OSError (file name too long) from the base lookup
    (project / "rulesets" / "long.terrain").write_text(
        f'ruleset long "Long"\nversion 1.0.0\nextends {base}@^1.0\n', "utf-8"
    )
    result = cli_build(project)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "long.terrain:3:9: error[E501]: " in result.stderr


def test_an_id_too_long_for_its_sheet_file_names_is_a_diagnostic(project: Path) -> None:
    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.interchange.convert import to_yaml

    rid = "y" * 251  # y...y.yml is a valid file name; y...y.en.html would not be
    source, _ = Parser().parse(OTHER, "other.terrain")
    assert source is not None
    text = to_yaml(source).replace("ruleset: other", f"ruleset: {rid}")
    (project / "rulesets" / f"{rid}.yml").write_text(text, "utf-8")
    result = run(project, backends=(python_outputs, text_sheets))
    found = [*result.diagnostics, *(d for c in result.compiled for d in c.diagnostics)]
    [diag] = [d for d in found if d.is_error]
    assert diag.code == "E106" and "at most 64 characters" in (diag.hint or "")
    assert diag.pos is not None and diag.pos.file.endswith(f"{rid}.yml")
    assert not (project / "generated").exists()


# ---- `sheet -o` and the PDF renderer ------------------------------------------------------------


def test_sheet_output_replaces_a_symlink_instead_of_writing_through_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", "utf-8")
    link = tmp_path / "sheet.md"
    link.symlink_to(victim)
    assert main(["sheet", "heavy_gear", "--format", "md", "-o", str(link)]) == 0
    assert victim.read_text("utf-8") == "precious\n"
    assert not link.is_symlink()
    assert link.read_text("utf-8").startswith("# Heavy Gear")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.md", "victim.txt"]


def test_cards_output_replaces_a_symlink_instead_of_writing_through_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", "utf-8")
    link = tmp_path / "deck.html"
    link.symlink_to(victim)
    assert main(["cards", "heavy_gear", "--format", "html", "-o", str(link)]) == 0
    assert victim.read_text("utf-8") == "precious\n"
    assert not link.is_symlink()
    assert link.read_text("utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.html", "victim.txt"]


def test_sheet_output_to_a_folder_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sheet", "heavy_gear", "--format", "md", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write {tmp_path}: is a folder" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_the_pdf_renderer_fetches_nothing_but_embedded_assets(tmp_path: Path) -> None:
    weasyprint = pytest.importorskip("weasyprint")
    from rulesdsl.printed.pdf import _url_fetcher, render_pdf

    image = Path(__file__).resolve().parent.parent / "docs" / "img" / "heavy_gear_sheet.png"
    local = render_pdf(f'<p>x<img src="{image.as_uri()}"></p>')
    inline = render_pdf(
        f'<p>x<img src="data:image/png;base64,{base64.b64encode(image.read_bytes()).decode()}"></p>'
    )
    assert b"/Subtype /Image" not in local
    assert b"/Subtype /Image" in inline
    fetch: Callable[[str], object] = _url_fetcher(weasyprint)
    for url in ("http://127.0.0.1:9/x.css", "file:///etc/passwd", "ftp://example.org/x"):
        with pytest.raises(ValueError, match=r"disallowed protocol|no external resource"):
            fetch(url)


def test_a_base_url_lets_the_pdf_renderer_read_only_files_inside_its_folder(
    tmp_path: Path,
) -> None:
    weasyprint = pytest.importorskip("weasyprint")
    from rulesdsl.printed.pdf import _url_fetcher

    inside = tmp_path / "sheet"
    inside.mkdir()
    (inside / "style.css").write_text("p {}", "utf-8")
    (tmp_path / "secret.css").write_text("p {}", "utf-8")
    (inside / "link.css").symlink_to(tmp_path / "secret.css")
    fetch = _url_fetcher(weasyprint, inside.as_uri() + "/")
    assert fetch((inside / "style.css").as_uri()).read() == b"p {}"
    for url in (
        (tmp_path / "secret.css").as_uri(),
        inside.as_uri() + "/../secret.css",
        (inside / "link.css").as_uri(),
        "http://127.0.0.1:9/style.css",
    ):
        with pytest.raises(ValueError, match="no external resource"):
            fetch(url)
    with pytest.raises(ValueError, match="no external resource"):
        _url_fetcher(weasyprint)((inside / "style.css").as_uri())


def test_the_default_backends_are_the_modules_the_sheets_the_cards_and_the_web_pages() -> None:
    assert build_module.default_backends() == (
        python_outputs,
        TargetOutputs(JS),
        sheet_outputs,
        card_outputs,
        web_outputs,
    )


# ---- a cloned repository's generated/ is untrusted input -------------------------------------


def snapshot(folder: Path) -> dict[str, tuple[str, bytes]]:
    """Every entry under ``folder`` (links not followed): its kind and bytes or link target."""
    found: dict[str, tuple[str, bytes]] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[rel] = ("link", os.readlink(path).encode())
        elif path.is_dir():
            found[rel] = ("dir", b"")
        else:
            found[rel] = ("file", path.read_bytes())
    return found


@pytest.mark.parametrize(
    "attack", ["journal-writes", "journal-removes", "staging-link", "generated-link"]
)
def test_a_crafted_journal_never_writes_moves_or_deletes_outside_the_output_folder(
    project: Path, tmp_path: Path, attack: str
) -> None:
    """Issue 30: a cloned repository whose generated/ holds a journal naming files in a
    linked folder made the build create, overwrite, move and delete files elsewhere."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "known_hosts").write_text("host\n", "utf-8")
    (home / "notes").mkdir()
    (home / "notes" / "plan.txt").write_text("secret plan\n", "utf-8")
    out = project / "generated"
    staging = out / transaction.STAGING
    journal: dict[str, object] = {"format": 1, "write": [], "remove": {}, "manifest": False}
    if attack == "generated-link":
        real = tmp_path / "elsewhere"
        (real / transaction.STAGING / "python").mkdir(parents=True)
        (real / transaction.STAGING / "python" / "x.py").write_text("planted\n", "utf-8")
        out.symlink_to(real)
        journal["write"] = ["python/x.py"]
        (real / transaction.JOURNAL).write_text(json.dumps(journal), "utf-8")
        home = real.parent  # everything outside the project must stay as it is
    else:
        (out / "python").mkdir(parents=True)
        if attack == "staging-link":  # staged "files" that are someone else's
            out.joinpath("python", "x.py").write_text("mine\n", "utf-8")
            staging.symlink_to(home / "notes", target_is_directory=True)
            journal["write"] = ["plan.txt"]
        else:
            (out / "sheets").symlink_to(home / ".ssh", target_is_directory=True)
            (staging / "sheets").mkdir(parents=True)
            (staging / "sheets" / "authorized_keys").write_text("ssh-ed25519 AAAA evil\n", "utf-8")
            journal["write"] = ["sheets/authorized_keys"]
            if attack == "journal-removes":
                journal["write"] = []
                sha = mf.file_digest(home / ".ssh" / "known_hosts")
                journal["remove"] = {"sheets/known_hosts": sha}
        (out / transaction.JOURNAL).write_text(json.dumps(journal), "utf-8")
    before = snapshot(home)
    with pytest.raises(transaction.OutputFolderError, match="symbolic link"):
        run(project)
    assert snapshot(home) == before
    code = main(["build", "--rulesets", str(project / "rulesets"), "--out", str(out), "-j", "1"])
    assert code == 2
    assert snapshot(home) == before


def test_every_file_of_the_package_that_can_change_an_output_is_in_the_compiler_digest() -> None:
    # A changed sheet catalog (.po) once left every stamp valid: `build` kept the old words.
    package = Path(mf.__file__).resolve().parents[1]
    kinds = {p.suffix for p in package.rglob("*.*") if "__pycache__" not in p.parts}
    assert kinds - set(mf.package_suffixes()) == {".typed"}


def test_an_entry_of_a_backend_rulesdsl_no_longer_has_is_dropped_with_what_only_it_wrote(
    project: Path,
) -> None:
    """A backend of the package renamed or moved leaves its entries behind in the manifest
    (the bundled one kept three such keys a ruleset); the next build of the ruleset drops
    them and removes the files only they owned. A caller's own backend's entry stays."""
    run(project)
    out = project / "generated"
    manifest = mf.load(out)
    (out / "python" / "old_base.py").write_text("old\n", "utf-8")
    old_outputs = {
        "python/base.py": "x",
        "python/old_base.py": mf.file_digest(out / "python/old_base.py") or "",
    }
    for key in ("rulesdsl.tools.build:python_outputs", "mine.backends:extra"):
        manifest.rulesets["base"][key] = mf.Entry("c", {}, dict(old_outputs))
    (out / mf.MANIFEST).write_bytes(manifest.dumps())
    edit(project / "rulesets" / "base.terrain", "| 2", "| 3")
    run(project)
    keys = set(mf.load(out).rulesets["base"])
    assert "rulesdsl.tools.build:python_outputs" not in keys and "mine.backends:extra" in keys
    assert (out / "python" / "old_base.py").exists()  # the caller's entry still owns it
    manifest = mf.load(out)
    del manifest.rulesets["base"]["mine.backends:extra"]
    manifest.rulesets["base"]["rulesdsl.build:python_outputs"] = mf.Entry(
        "c", {}, dict(old_outputs)
    )
    (out / mf.MANIFEST).write_bytes(manifest.dumps())
    edit(project / "rulesets" / "base.terrain", "| 3", "| 2")
    result = run(project)
    assert "python/old_base.py" in result.removed and "python/base.py" not in result.removed
    assert (out / "python" / "base.py").exists() and not (out / "python" / "old_base.py").exists()
