"""Every reader of a ruleset reads it the same way (rulesdsl.sources; issue 30, item 5):

- a link, a FIFO, a device, a socket or a folder is refused (E003) before a byte is read: a
  FIFO never makes a verb wait, a link to /dev/zero never fills the memory;
- a file over the size limit is refused (E006) after reading at most the limit;
- a file that is not UTF-8 is refused (E003) at the line and column of its first bad byte,
  whether it is on the disk or at a git revision (`diff --rev`, `check --against`);
- the lexer's repeats are possessive: a long string or a long run of blank lines costs no
  regex memory per character.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl import sources
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.diagnostics import render_text
from tests.conftest import RULESETS, git

HEADER = 'ruleset tiny "Tiny"\nversion 1.0.0\nlanguages en\nmode walker "Walker"\n'


def codes(loaded: sources.Loaded) -> list[str]:
    return [d.code for d in loaded.diagnostics]


def run_cli(
    args: list[str], cwd: Path, timeout: float = 120, **env: str
) -> subprocess.CompletedProcess[str]:
    """``rulesdsl ARGS`` in a fresh process, its memory capped at 2 GB, killed after
    ``timeout`` seconds (then the test fails on TimeoutExpired instead of hanging)."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run(
        [sys.executable, "-m", "rulesdsl", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        preexec_fn=cap,
        env={**os.environ, **env},
        check=False,
    )


# ---- the reader ------------------------------------------------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.terrain"
    os.mkfifo(fifo)
    loaded = sources.read_ruleset(fifo)
    assert loaded.text is None and codes(loaded) == ["E003"]
    assert "it is a FIFO (named pipe)" in loaded.diagnostics[0].message
    code = (
        "import sys; from pathlib import Path; from rulesdsl.compiler import Compiler;"
        "print([d.code for d in Compiler().compile_file(Path(sys.argv[1])).diagnostics])"
    )
    done = subprocess.run(  # a process of its own: a reader that waits cannot hang the suite
        [sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "['E003']\n", done.stderr[-2000:]


def test_a_link_is_refused_and_the_message_says_what_to_do(tmp_path: Path) -> None:
    link = tmp_path / "zero.terrain"
    link.symlink_to("/dev/zero")
    loaded = sources.read_ruleset(link)
    assert codes(loaded) == ["E003"] and loaded.quoted is None
    [diag] = loaded.diagnostics
    assert "it is a symbolic link" in diag.message
    assert diag.hint is not None and "copy the file into the folder" in diag.hint


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused(special: str) -> None:
    loaded = sources.read_ruleset(Path(special))
    assert codes(loaded) == ["E003"]
    assert "it is a character device" in loaded.diagnostics[0].message


def test_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "dir.terrain").mkdir()
    loaded = sources.read_ruleset(tmp_path / "dir.terrain")
    assert codes(loaded) == ["E003"] and "it is a folder" in loaded.diagnostics[0].message


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    loaded = sources.read_ruleset(tmp_path / "nope.terrain")
    assert codes(loaded) == ["E003"] and "No such file" in loaded.diagnostics[0].message


def test_a_file_over_the_size_limit_is_E006_with_the_limit_in_the_message(tmp_path: Path) -> None:
    path = tmp_path / "big.terrain"
    path.write_text(HEADER + "#" * (sources.MAX_FILE_BYTES - len(HEADER)), "utf-8")
    assert sources.read_ruleset(path).text is not None  # exactly at the limit: admitted
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\n")
    compiler = Compiler()
    compiled = compiler.compile_file(path)
    [diag] = compiled.diagnostics
    assert diag.code == "E006" and "larger than the 2 MiB limit of a ruleset file" in diag.message
    text = render_text(diag, compiler.sources)
    assert text.splitlines()[:3] == [
        f"{path}:1:1: error[E006]: {diag.message}",
        '   1 | ruleset tiny "Tiny"',
        "     | ^",
    ]
    assert "= hint: split it" in text


def test_a_text_from_an_editor_over_the_limit_is_E006_too() -> None:
    compiler = Compiler(sources.Limits(file_bytes=100))
    compiled = compiler.compile_text(HEADER + "é" * 40, "buffer.terrain")
    assert [d.code for d in compiled.diagnostics] == ["E006"]
    assert "larger than the 100 bytes limit" in compiled.diagnostics[0].message
    assert compiler.compile_text(HEADER, "buffer.terrain").ok


def test_the_language_server_holds_an_open_base_to_the_limit_too() -> None:
    """An open document stands in for the file on disk (the editor's unsaved text): it gets
    the same E006, and is never parsed."""
    from rulesdsl.editor.lsp_compile import LiveCompiler

    class Editor:
        def refusal(self, path: str) -> None:  # a base inside the workspace
            return None

        def open_text(self, path: str) -> str:
            return "#" * (sources.MAX_FILE_BYTES + 1)

    compiler = LiveCompiler(Editor())
    text, diags = compiler.read(Path("/nowhere/base.terrain"))
    assert text is None and [d.code for d in diags] == ["E006"]


def test_only_the_limit_is_read_from_a_large_file(tmp_path: Path) -> None:
    path = tmp_path / "big.terrain"
    path.write_bytes(b"#" * 10_000)
    loaded = sources.read_ruleset(path, sources.Limits(file_bytes=1000))
    assert codes(loaded) == ["E006"] and loaded.quoted == "#" * 200


def test_a_file_not_utf8_is_E003_at_the_line_and_column_of_the_first_bad_byte(
    tmp_path: Path,
) -> None:
    path = tmp_path / "latin.terrain"
    path.write_bytes(HEADER.encode() + 'mode tank "Tank" fr "Ch\xe9\xe9"\n'.encode("latin-1"))
    compiler = Compiler()
    [diag] = compiler.compile_file(path).diagnostics
    assert diag.code == "E003"
    assert diag.message.endswith("byte 0xE9 is not UTF-8 (line 5, column 24)")
    assert render_text(diag, compiler.sources).splitlines()[1:3] == [
        '   5 | mode tank "Tank" fr "Ch\ufffd\ufffd"',
        "     |                        ^",
    ]


def test_a_byte_order_mark_is_not_part_of_the_text(tmp_path: Path) -> None:
    path = tmp_path / "bom.terrain"
    path.write_bytes(b"\xef\xbb\xbf" + HEADER.encode())
    assert sources.read_ruleset(path).text == HEADER


def test_a_table_over_the_row_limit_is_E008_at_its_name() -> None:
    rows = "".join(f'  r{i} "R" | 1\n' for i in range(sources.MAX_TABLE_ROWS + 1))
    compiled = Compiler().compile_text(HEADER + 'table t "T" {\n' + rows + "}\n", "t.terrain")
    assert [(d.code, d.pos and (d.pos.line, d.pos.column)) for d in compiled.diagnostics] == [
        ("E008", (5, 7))
    ]
    assert compiled.diagnostics[0].message == "10,001 rows in one table; the limit is 10,000"


# ---- the lexer -------------------------------------------------------------------------------


def test_a_comment_that_mentions_note_is_only_a_comment() -> None:
    text = (RULESETS / "heavy_gear.terrain").read_text("utf-8")
    at = text.index("\n  soft ")
    compiled = Compiler().compile_text(
        text[:at] + "\n  # see the note below" + text[at:], str(RULESETS / "hg.terrain")
    )
    assert compiled.ok, [d.message for d in compiled.diagnostics]


def test_a_long_string_and_a_long_run_of_blank_lines_cost_no_memory_per_character(
    tmp_path: Path,
) -> None:
    """A 1 MB label (E007: over the string limit) after 1 MB of blank lines: each cost about
    300 MB when the lexer's repeats kept backtracking state per character."""
    path = tmp_path / "long.terrain"
    path.write_text(HEADER + "\n" * 1_000_000 + 'mode tank "' + "x" * 1_000_000 + '"\n', "utf-8")
    code = (
        "import resource, sys; from rulesdsl.compiler import Compiler;"
        "from rulesdsl.frontends.dsl import lalr_parser; lalr_parser();"
        "used = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024;"
        "c = Compiler().compile_file(__import__('pathlib').Path(sys.argv[1]));"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024;"
        "print(','.join(d.code for d in c.diagnostics), (peak - used) // 2**20)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found, grown = done.stdout.split()
    assert found == "E007" and int(grown) < 100, done.stdout


# ---- diff and check at a git revision --------------------------------------------------------


def _latin1_at_head(repo: Path) -> Path:
    """heavy_gear_house committed in Latin-1 (not UTF-8), then restored as UTF-8."""
    house = repo / "rulesets" / "heavy_gear_house.terrain"
    good = house.read_bytes()
    house.write_bytes(good + "# Générique\n".encode("latin-1"))
    git(repo, "commit", "-q", "-am", "latin-1")
    house.write_bytes(good)
    return house


def test_diff_rev_of_a_file_not_utf8_at_that_revision_is_a_diagnostic(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _latin1_at_head(repo)
    monkeypatch.chdir(repo)
    assert main(["diff", "rulesets/heavy_gear_house.terrain", "--rev", "HEAD"]) == 1
    err = capsys.readouterr().err
    assert "HEAD:rulesets/heavy_gear_house.terrain:" in err
    assert "error[E003]: cannot read HEAD:rulesets/heavy_gear_house.terrain: byte 0xE9" in err
    assert "  = hint: save the file as UTF-8" in err


def test_check_against_a_revision_not_utf8_checks_the_file_as_it_is_now(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _latin1_at_head(repo)
    monkeypatch.chdir(repo)
    assert main(["check", "rulesets/heavy_gear_house.terrain", "--against", "HEAD"]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_a_base_not_utf8_at_the_revision_is_a_diagnostic(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = repo / "rulesets" / "heavy_gear.terrain"
    good = base.read_bytes()
    base.write_bytes(good.replace("Accidenté".encode(), "Accidenté".encode("latin-1")))
    git(repo, "commit", "-q", "-am", "latin-1 base")
    base.write_bytes(good)
    monkeypatch.chdir(repo)
    assert main(["diff", "rulesets/heavy_gear_house.terrain", "--rev", "HEAD"]) == 1
    err = capsys.readouterr().err
    assert "error[E507]: the base 'heavy_gear' has 1 error" in err


# ---- diff --rebase reads the folder as the compiler does -------------------------------------


@pytest.fixture
def moved(tmp_path: Path) -> Path:
    """A project with heavy_gear and its house rule, and a new heavy_gear beside it."""
    folder = tmp_path / "rulesets"
    folder.mkdir()
    for name in ("heavy_gear", "heavy_gear_house"):
        shutil.copy(RULESETS / f"{name}.terrain", folder)
    new = tmp_path / "new_heavy_gear.terrain"
    new.write_text(
        (RULESETS / "heavy_gear.terrain")
        .read_text("utf-8")
        .replace("\nversion 1.0.0\n", "\nversion 1.1.0\n"),
        "utf-8",
    )
    return tmp_path


def test_diff_rebase_with_a_fifo_in_the_rulesets_folder_does_not_wait(moved: Path) -> None:
    os.mkfifo(moved / "rulesets" / "pipe.terrain")
    done = run_cli(["diff", "heavy_gear_house", "--rebase", "new_heavy_gear.terrain"], moved, 60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("heavy_gear_house 1.0.0 on heavy_gear 1.0.0 -> heavy_gear 1.1.0")


def test_diff_rebase_with_a_link_to_dev_zero_in_the_rulesets_folder_reads_nothing_of_it(
    moved: Path,
) -> None:
    (moved / "rulesets" / "zero.terrain").symlink_to("/dev/zero")
    done = run_cli(["diff", "heavy_gear_house", "--rebase", "new_heavy_gear.terrain"], moved, 60)
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert done.returncode == 0, done.stderr[-2000:]


def test_import_of_a_chart_that_is_a_fifo_does_not_wait(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "chart.csv")
    done = run_cli(["import", "chart.csv", "--layer", "x"], tmp_path, 60)
    assert done.returncode == 1
    assert "chart.csv:1:1: error[E003]: cannot read chart.csv: it is a FIFO" in done.stderr


def test_one_statement_of_many_wrong_words_lists_a_hundred_errors_and_counts_the_rest(
    tmp_path: Path,
) -> None:
    # A 2 MiB `languages en a a a ...` line made a million E105 diagnostics (2.7 GB).
    from rulesdsl.diagnostics import MAX_OF_A_CODE

    path = tmp_path / "words.terrain"
    head = HEADER.replace("languages en\n", "")
    path.write_text(
        head + "languages en" + " a" * 5000 + "\n" + "exclude n1 with n2\n" * 300, "utf-8"
    )
    diags = Compiler().compile_file(path).diagnostics
    wrong_codes = [d for d in diags if d.code == "E105"]
    assert len(wrong_codes) == MAX_OF_A_CODE + 1
    assert wrong_codes[-1].message.startswith("4,900 more errors E105 from here on")
    assert (
        wrong_codes[-1].pos is not None and wrong_codes[-1].pos.column == 14 + 2 * 100
    )  # the 101st `a`
    unknown = [d for d in diags if d.code == "E101"]  # the symbol table's errors too
    assert len(unknown) == MAX_OF_A_CODE + 1 and unknown[-1].message.startswith("500 more")


def test_a_yaml_ruleset_over_the_values_limit_without_aliases_is_told_so(tmp_path: Path) -> None:
    # It was told that "the aliases expand this YAML", which had none.
    path = tmp_path / "big.yaml"
    modes = "".join(f"  m{i}: {{label: M}}\n" for i in range(30_000))
    path.write_text(f"ruleset: big\nlabel: Big\nversion: 1.0.0\nmodes:\n{modes}", "utf-8")
    [diag] = Compiler().compile_file(path).diagnostics
    assert (
        diag.code == "E120" and diag.message == "this YAML holds more than 100,000 keys and values"
    )
    assert diag.hint is not None and diag.hint.startswith("split the ruleset")
