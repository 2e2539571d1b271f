"""Notes for some unit types (issue 23): `note for vehicle "..."` concerns those unit types or
keywords only. A per-mode deck keeps the notes for all and the notes for its unit type (by its
id or one of its keywords); a sheet for all names the unit type before the note, in every
language; YAML, convert, diff and variants carry the scope."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.ir.serial import to_data
from rulesdsl.printed.cards import build_deck
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheets import render_markdown
from rulesdsl.versions.diff import diff
from tests import pdf_layout
from tests.conftest import compile_snippet

SCOPED = """\
ruleset demo "Demo"
version 1.0.0
languages en fr
units distance hex, cost MP
stacking sum
mode mech "Mech" fr "Méca"
mode tracked "Tracked" fr "Chenillé"
mode foot "Foot" fr "Fantassin"
group vehicle "Vehicles" fr "Véhicules": tracked
layer base "Base terrain" fr "Terrain" one per place {
  clear "Clear" fr "Clair" | 1
  mud "Mud" fr "Boue" | 2, tracked 3
      note "Mud slows everyone." fr "La boue ralentit tout le monde."
      note for tracked, foot "Tracks and feet bog down." fr "Chenilles et pieds s'enlisent."
      note for vehicle "Vehicles may go hull-down." fr "Les véhicules s'abritent."
}
"""


def _notes(deck_cards: list) -> list[str]:  # type: ignore[type-arg]
    return [text for card in deck_cards for _, text in card.notes]


def test_a_per_mode_deck_keeps_notes_for_all_and_for_its_unit_type_or_keyword_only(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = compile_snippet(compiler, SCOPED, tmp_path, "demo.terrain").ruleset
    assert rs is not None
    mech = _notes(build_deck(rs, "en", "poker", mode="mech").cards)
    assert mech == ["Mud slows everyone."]
    tracked = _notes(build_deck(rs, "en", "poker", mode="tracked").cards)
    assert tracked == [
        "Mud slows everyone.",
        "Tracks and feet bog down.",
        "Vehicles may go hull-down.",  # by its keyword (group) vehicle
    ]
    foot = _notes(build_deck(rs, "fr", "poker", mode="foot").cards)
    assert foot == ["La boue ralentit tout le monde.", "Chenilles et pieds s\u2019enlisent."]


def test_a_sheet_for_all_names_the_unit_types_a_note_is_for_in_every_language(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = compile_snippet(compiler, SCOPED, tmp_path, "demo.terrain").ruleset
    assert rs is not None
    en = render_markdown(build_sheet(rs, "en"))
    assert "Tracked, Foot: Tracks and feet bog down." in en
    assert "Vehicles: Vehicles may go hull-down." in en
    fr = render_markdown(build_sheet(rs, "fr"))
    assert "Chenillé, Fantassin\u202f: Chenilles" in fr or "Chenillé, Fantassin : Chenilles" in fr
    deck = build_deck(rs, "en", "poker")
    assert "Vehicles: Vehicles may go hull-down." in _notes(deck.cards)


def test_a_note_for_an_unknown_unit_type_is_an_error_with_a_suggestion(
    compiler: Compiler, tmp_path: Path
) -> None:
    compiled = compile_snippet(
        compiler, SCOPED.replace("note for vehicle", "note for vehicel"), tmp_path, "d.terrain"
    )
    assert not compiled.ok
    found = [d for d in compiled.diagnostics if d.code == "E101"]
    assert found and "vehicel" in found[0].message and "vehicle" in (found[0].hint or "")


def test_a_note_for_survives_the_yaml_round_trip(compiler: Compiler, tmp_path: Path) -> None:
    source = tmp_path / "demo.terrain"
    source.write_text(SCOPED, "utf-8")
    assert main(["convert", str(source), "-o", str(tmp_path / "demo.yaml")]) == 0
    assert "for: [tracked, foot]" in (tmp_path / "demo.yaml").read_text("utf-8")
    back = tmp_path / "back" / "demo.terrain"
    back.parent.mkdir()
    assert main(["convert", str(tmp_path / "demo.yaml"), "-o", str(back)]) == 0
    assert 'note for tracked, foot "Tracks' in back.read_text("utf-8")
    datas = [to_data(compiler.compile_file(p).ruleset) for p in (source, back)]  # type: ignore[arg-type]
    assert datas[0]["features"] == datas[1]["features"]


def test_yaml_may_write_a_notes_for_as_one_comma_separated_string(
    compiler: Compiler, tmp_path: Path
) -> None:
    source = tmp_path / "demo.terrain"
    source.write_text(SCOPED, "utf-8")
    assert main(["convert", str(source), "-o", str(tmp_path / "demo.yaml")]) == 0
    text = (tmp_path / "demo.yaml").read_text("utf-8").replace("[tracked, foot]", "tracked, foot")
    (tmp_path / "demo.yaml").write_text(text, "utf-8")
    compiled = compiler.compile_file(tmp_path / "demo.yaml")
    assert compiled.ok and compiled.ruleset is not None
    assert compiled.ruleset.features[1].info.note_for == ((), ("tracked", "foot"), ("vehicle",))


def test_a_changed_scope_is_a_wording_change(compiler: Compiler, tmp_path: Path) -> None:
    old = compile_snippet(compiler, SCOPED, tmp_path, "demo.terrain").ruleset
    new = compile_snippet(
        compiler, SCOPED.replace("for tracked, foot", "for foot"), tmp_path, "demo.terrain"
    ).ruleset
    assert old is not None and new is not None
    changes = diff(old, new).changes
    assert [(c.level, "unit types the notes are for" in c.message) for c in changes] == [
        ("wording", True)
    ]
    assert changes[0].new == "2: for foot / 3: for vehicle"


def test_a_variant_removing_a_unit_type_drops_the_notes_for_it_alone(
    compiler: Compiler, tmp_path: Path
) -> None:
    (tmp_path / "demo.terrain").write_text(SCOPED, "utf-8")
    variant = tmp_path / "house.terrain"
    variant.write_text(
        'ruleset house "House"\nversion 1.0.0\nextends demo@^1.0\nremove tracked\n'
        'override mud.note.2.en | "Feet bog down."\n',
        "utf-8",
    )
    compiled = compiler.compile_file(variant)
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    mud = compiled.ruleset.features[1].info
    # the note for tracked and foot is for foot now, relabelled; the one for vehicle (a group
    # left with no member) stays for the group
    assert mud.notes[1]["en"] == "Feet bog down."
    assert mud.note_for == ((), ("foot",), ("vehicle",))
    foot = _notes(build_deck(compiled.ruleset, "en", "poker", mode="foot").cards)
    assert foot == ["Mud slows everyone.", "Feet bog down."]


def test_the_battletech_mech_deck_carries_no_note_for_other_unit_types_only() -> None:
    """BattleTech's notes for vehicles, infantry or one unit type (bog-down, hull-down, woods
    discounts) stay off the Mech deck and on the decks they concern."""
    rs = pdf_layout.ruleset("battletech_tacops")
    mech = _notes(build_deck(rs, "en", "poker", mode="mech").cards)
    assert (
        "Lets vehicles go hull-down; movement cost per the expanded table (not encoded)."
        not in mech
    )
    assert not any(n.startswith(("Infantry pay nothing", "Wheeled vehicles may")) for n in mech)
    assert "A Mech entering rubble makes a piloting roll." in mech
    tracked = _notes(build_deck(rs, "en", "poker", mode="tracked").cards)
    assert any(n.startswith("Lets vehicles go hull-down") for n in tracked)
    infantry = _notes(build_deck(rs, "ru", "poker", mode="battle_armor").cards)
    assert any(n.startswith("Пехота не тратит") for n in infantry)
    full = render_markdown(build_sheet(rs, "ru"))
    assert "Пехота: Пехота не тратит" in full
