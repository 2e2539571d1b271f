"""rulesdsl.ir.records: the IR's dataclass decorator keeps the methods' bytecode between runs
(issue 29, `check` start-up) and makes exactly the class dataclasses makes."""

from __future__ import annotations

import dataclasses
import json
import marshal
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.ir import records
from tests.conftest import ROOT


def _pair(cache: records._CodeCache) -> tuple[type, type]:
    """The same class made by dataclasses and by records (reading and filling ``cache``)."""

    class Plain:
        name: str
        count: int = 0
        tags: tuple[str, ...] = dataclasses.field(default=())

    class Kept:
        name: str
        count: int = 0
        tags: tuple[str, ...] = dataclasses.field(default=())

    saved = records._CACHE
    records._CACHE = cache
    try:
        kept = records.dataclass(frozen=True)(Kept)
    finally:
        records._CACHE = saved
    return dataclasses.dataclass(frozen=True)(Plain), kept


def test_a_record_class_behaves_as_the_dataclass_it_is(tmp_path: Path) -> None:
    plain, kept = _pair(records._CodeCache(tmp_path / "codes"))
    a, b = plain("x", 2, ("t",)), kept("x", 2, ("t",))
    assert repr(b) == repr(a).replace("Plain", "Kept")
    assert kept("x", 2, ("t",)) == b and hash(kept("x", 2, ("t",))) == hash(b)
    assert kept("x") != b and kept("x").tags == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.name = "y"  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(kept)] == ["name", "count", "tags"]
    assert dataclasses.replace(b, count=3) == kept("x", 3, ("t",))
    with pytest.raises(TypeError):
        kept()  # the same __init__: a missing argument is refused


def test_the_decorator_leaves_dataclasses_as_it_found_it(tmp_path: Path) -> None:
    _pair(records._CodeCache(tmp_path / "codes"))
    assert "exec" not in vars(dataclasses)


def test_the_methods_code_is_read_back_in_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    first = records._CodeCache(tmp_path / "codes")
    _pair(first)
    assert first.missed
    first.save()
    second = records._CodeCache(tmp_path / "codes")
    compiled: list[str] = []
    monkeypatch.setattr(records, "compile", lambda *a: compiled.append(a[0]), raising=False)
    _pair(second)
    assert not second.missed and compiled == []  # every method's text found, none compiled


@pytest.mark.parametrize(
    "content",
    [b"", b"garbage", records._MAGIC + b"\xff\x00", b"\x00\x00\x00\x00" + marshal.dumps({})],
    ids=["empty", "garbage", "damaged", "other python"],
)
def test_a_damaged_or_foreign_cache_is_compiled_again(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "codes").write_bytes(content)
    cache = records._CodeCache(tmp_path / "codes")
    _, kept = _pair(cache)
    assert cache.missed and kept("x").count == 0


def test_no_cache_is_written_when_bytecode_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    cache = records._CodeCache(tmp_path / "codes")
    _pair(cache)
    cache.save()
    assert not (tmp_path / "codes").exists()


def test_a_read_only_cache_folder_is_no_error(tmp_path: Path) -> None:
    cache = records._CodeCache(tmp_path / "file" / "codes")
    (tmp_path / "file").write_text("a file where the folder would be")
    _pair(cache)
    cache.save()  # nothing written, nothing raised
    assert (tmp_path / "file").is_file()


def test_an_entry_that_is_not_code_is_compiled_again(tmp_path: Path) -> None:
    first = records._CodeCache(tmp_path / "codes")
    _pair(first)
    assert first.codes
    damaged = {text: 42 for text in first.codes}  # a cache file of the right magic, not code
    (tmp_path / "codes").write_bytes(records._MAGIC + marshal.dumps(damaged))
    cache = records._CodeCache(tmp_path / "codes")
    _, kept = _pair(cache)
    assert cache.missed and kept("x").count == 0


def test_a_cache_grown_past_its_bound_keeps_only_the_texts_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(records, "_MAX_ENTRIES", 50)
    stale = {f"x = {i}": compile(f"x = {i}", "<string>", "exec") for i in range(60)}
    (tmp_path / "codes").write_bytes(records._MAGIC + marshal.dumps(stale))
    cache = records._CodeCache(tmp_path / "codes")
    _pair(cache)
    cache.save()
    kept = marshal.loads((tmp_path / "codes").read_bytes()[len(records._MAGIC) :])
    assert kept.keys() == cache.used and not kept.keys() & stale.keys()


def test_the_cache_is_readable_by_whoever_may_read_the_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    cache = records._CodeCache(tmp_path / "codes")
    _pair(cache)
    cache.save()
    source = Path(records.__file__).stat().st_mode
    assert (tmp_path / "codes").stat().st_mode & 0o777 == (source | 0o200) & 0o666


PLAIN_DATACLASSES = {
    "rulesdsl.diagnostics",
    "rulesdsl.editions",
    "rulesdsl.frontends.notation",
    "rulesdsl.semantics.dice",
    "rulesdsl.sources",
}
"""Modules of a compile whose dataclasses ``dataclasses`` still compiles in every process: they
are imported without the IR, which importing :mod:`rulesdsl.ir.records` would bring in."""


def test_a_compile_makes_its_dataclasses_from_the_kept_code() -> None:
    """Issue 44: the 42 classes of the compile outside the IR and the syntax tree took ~10 ms
    of `rulesdsl check` start-up compiling their methods again."""
    code = (
        "import dataclasses, json\n"
        "made = dataclasses._process_class\n"
        "plain = set()\n"
        "def watch(cls, *args):\n"
        "    if 'exec' not in vars(dataclasses): plain.add(cls.__module__)\n"
        "    return made(cls, *args)\n"
        "dataclasses._process_class = watch\n"
        "import rulesdsl.compiler, rulesdsl.commands.check\n"
        "print(json.dumps(sorted(m for m in plain if m.startswith('rulesdsl'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert set(json.loads(done.stdout)) <= PLAIN_DATACLASSES
