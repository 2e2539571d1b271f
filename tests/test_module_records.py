"""The generated module's records (issue 29, module import): a record made by name, as the
module's own data is written, is the record made by position, defaults filled in; a name that
is not a field, a missing field or too many values is refused with a TypeError naming it."""

from __future__ import annotations

import re
from types import ModuleType

import pytest

from rulesdsl.compiler import Compiler
from tests.conftest import RULESETS, import_rendered


@pytest.fixture(scope="module")
def module(compiler: Compiler, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    compiled = compiler.compile_file(RULESETS / "heavy_gear.terrain")
    assert compiled.ruleset is not None
    return import_rendered(compiled.ruleset, tmp_path_factory.mktemp("records"), "records_hg")


def test_a_record_made_by_name_is_the_record_made_by_position(module: ModuleType) -> None:
    for feature in module.FEATURES.values():
        by_name = module.Feature(**feature._asdict())
        assert by_name == feature and tuple(by_name) == tuple(feature)
        assert type(by_name) is module.Feature and by_name.costs == feature.costs


def test_fields_left_out_by_name_take_their_defaults(module: ModuleType) -> None:
    made = module.Feature(costs={"walker": 1}, layer="terrain", label={}, id="x")
    assert made == ("x", "terrain", {}, {"walker": 1}, (), "")
    assert (made.id, made.notes, made.source) == ("x", (), "")


@pytest.mark.parametrize(
    ("named", "message"),
    [
        ({"id": "x"}, "Feature() is missing 'layer'"),
        ({"id": "x", "layer": "t", "label": {}, "costs": {}, "bogus": 1}, "unexpected bogus"),
        (
            {"id": "x", "layer": "t", "label": {}, "costs": {}, "notes": (), "bogus": 1},
            "unexpected bogus",
        ),
    ],
    ids=["missing", "unknown", "unknown in place of a default"],
)
def test_a_record_by_name_is_refused_with_the_field_named(
    module: ModuleType, named: dict[str, object], message: str
) -> None:
    with pytest.raises(TypeError, match=re.escape(message)):
        module.Feature(**named)


def test_too_many_values_are_refused(module: ModuleType) -> None:
    with pytest.raises(TypeError, match="takes 6 values"):
        module.Feature("x", "t", {}, {}, (), "", "extra")


def test_a_record_of_one_field_by_name(module: ModuleType) -> None:
    one = [c for c in vars(module).values() if getattr(c, "_fields", None) and len(c._fields) == 1]
    for cls in one:
        name = cls._fields[0]
        assert tuple(cls(**{name: 5})) == (5,)
