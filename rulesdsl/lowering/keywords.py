"""Keywords, precedence and modifiers keyed by two contexts, lowered (issue 11, items 3-5).

Groups are keywords: a mode names the groups it belongs to (``mode jetbike : vehicle, fly``),
``precedence fly, vehicle`` says whose value wins when both give one in a cell. A cell that
gives a unit two different values through two of its groups with no precedence between them is
ambiguous (E232). A modifier keyed by two contexts (``by attack, mode``) takes single values of
either context and combinations (``ranged & fly +2``); two single values that disagree with no
combination for them are an error (E233). The meaning lives in :mod:`rulesdsl.semantics`
(:func:`~rulesdsl.semantics.group_choice`, :func:`~rulesdsl.semantics.context_value`); this
module finds the misuse and expands groups to their members.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import assert_never, get_args

from rulesdsl import ir, semantics
from rulesdsl.frontends import syntax as s

Report = Callable[[str, str, s.Pos | None, str | None], None]
"""How a finding is reported: code, message, position, hint."""

COMBINE_POLICIES: tuple[ir.Combine, ...] = get_args(ir.Combine)


def policy(name: s.Name | None, report: Report) -> ir.Combine:
    """The ``combine`` policy a modifier names (``sum`` when it names none; E230 if unknown)."""
    if name is None:
        return "sum"
    for known in COMBINE_POLICIES:
        if name.text == known:
            return known
    report(
        "E230",
        f"unknown combine policy '{name.text}'",
        name.pos,
        "write one of: " + ", ".join(COMBINE_POLICIES),
    )
    return "sum"


def members_with_keywords(
    groups: Sequence[s.GroupDecl], modes: Sequence[s.ModeDecl]
) -> dict[str, list[s.Name]]:
    """Each group's members: those it lists, then the modes that name it as a keyword."""
    members: dict[str, list[s.Name]] = {g.item.name.text: list(g.members) for g in groups}
    for mode in modes:
        for keyword in mode.keywords:
            listed = members.get(keyword.text)
            if listed is not None and mode.item.name.text not in [m.text for m in listed]:
                listed.append(mode.item.name)
    return members


def ambiguity_message(
    where: str, mode: str, pair: tuple[str, str], notation: s.Notation
) -> tuple[str, str]:
    """E232's message and hint. ``pair`` is in declaration order, so ``precedence a, b`` keeps
    the answer of the releases before ``precedence``, where the first-declared group won: the
    hint gives that fix exactly, written as the file's front end writes it (``notation``)."""
    a, b = pair
    add = notation.add_precedence.format(a=a, b=b)
    other = notation.precedence.format(a=b, b=a)
    return (
        f"{where} is ambiguous for '{mode}': its groups '{a}' and '{b}' both give a value",
        f"{add} ('{a}' wins, as the first-declared group did before `precedence`; "
        f"`rulesdsl fmt --fix` adds it), or {other}, or give '{mode}' a value of its own",
    )


def expand_groups(
    exceptions: Mapping[str, ir.Value],
    modes: Sequence[str],
    groups: Sequence[ir.Group],
    precedence: Sequence[Sequence[str]],
    everyone: bool = False,
) -> tuple[dict[str, ir.Value], list[tuple[str, tuple[str, str]]]]:
    """Values keyed by mode: each mode's own value, else its winning group's value
    (:func:`rulesdsl.semantics.group_choice`; a mode whose winning keyword is one the cell
    does not name, with ``everyone``, is left out: it takes the value for everyone); second,
    the modes for which it is ambiguous."""
    members = {g.id: g.members for g in groups}
    values: dict[str, ir.Value] = {}
    ambiguous: list[tuple[str, tuple[str, str]]] = []
    # one group in the cell and no precedence to weigh against the value for everyone: that
    # group speaks for each of its modes, as group_choice says (issue 44: most cells)
    alone = len(exceptions.keys() & members.keys()) == 1 and not (everyone and precedence)
    for key, value in exceptions.items():
        if key not in members:
            values[key] = value
            continue
        for mode in members[key]:
            if mode in exceptions or mode in values or mode not in modes:
                continue
            if alone:
                values[mode] = value
                continue
            chosen, clash = semantics.group_choice(exceptions, mode, groups, precedence, everyone)
            if clash is not None:
                ambiguous.append((mode, clash))
            if chosen:
                values[mode] = exceptions[chosen]
    return values, ambiguous


def shadowed(
    exceptions: Mapping[str, object],
    modes: Sequence[str],
    groups: Sequence[ir.Group],
    precedence: Sequence[Sequence[str]],
    everyone: bool,
    unnamed: bool = True,
) -> list[tuple[str, tuple[str, str]]]:
    """The modes whose value in a cell comes from a keyword of lower precedence than one they
    carry that the cell does not name (W262), each with (higher, lower). None for a cell with
    a value for everyone in an edition where an unnamed keyword does not count (``unnamed``
    False): there the answer is the edition's, and `check` says a newer edition changes it."""
    if not precedence or (everyone and not unnamed):
        return []
    keyed: dict[str, object] = {**exceptions, **({"": True} if everyone else {})}
    out = []
    for mode in modes:
        pair = semantics.shadowing_keyword(keyed, mode, groups, precedence)
        if pair is not None:
            out.append((mode, pair))
    return out


def shadow_message(where: str, mode: str, pair: tuple[str, str]) -> tuple[str, str]:
    higher, lower = pair
    return (
        f"{where} gives '{mode}' the value of its keyword '{lower}', although its keyword "
        f"'{higher}' comes first by precedence: the cell names no value for '{higher}' and none "
        "for everyone",
        f"give '{higher}' a value in the cell (`{higher} <value>`), or a value for everyone",
    )


def expand_pairs(
    pairs: Iterable[ir.PairValue],
    first_groups: Mapping[str, Sequence[str]],
    second_groups: Mapping[str, Sequence[str]],
) -> tuple[ir.PairValue, ...]:
    """Combinations with groups of the built-in mode context expanded to their members; a
    combination written for the member itself wins over one through a group."""
    pairs = tuple(pairs)
    written = {(p.first, p.second) for p in pairs}
    out: dict[tuple[str, str], ir.PairValue] = {}
    for pair in pairs:
        firsts = first_groups.get(pair.first, (pair.first,))
        seconds = second_groups.get(pair.second, (pair.second,))
        for a in firsts:
            for b in seconds:
                if (a, b) in written and (a, b) != (pair.first, pair.second):
                    continue
                out.setdefault((a, b), ir.PairValue(a, b, pair.value))
    return tuple(out.values())


def disagreements(
    values: Mapping[str, ir.Value],
    pairs: Sequence[ir.PairValue],
    firsts: Iterable[str],
    seconds: Iterable[str],
) -> list[tuple[str, str]]:
    """The (first, second) context values whose single values disagree with no combination."""
    combined = {(p.first, p.second) for p in pairs}
    seconds = tuple(seconds)
    return [
        (a, b)
        for a in firsts
        if a in values
        for b in seconds
        if b in values and values[a] != values[b] and (a, b) not in combined
    ]


def stray_orders(statements: Sequence[s.Statement], report: Report) -> None:
    """E237: ``precedence a, b`` on a row of a table or a modifier: an order of keywords of its
    own is for a layer or a layer's row (issue 40)."""
    for st in statements:
        if isinstance(st, s.TableDecl | s.ModifierDecl):
            block = "a table" if isinstance(st, s.TableDecl) else "a modifier"
            for row in st.rows:
                if row.precedence:
                    report(
                        "E237",
                        f"a row of {block} has no order of keywords of its own",
                        row.precedence[0].pos,
                        "`precedence a, b` goes on a layer's row (a feature) or on the layer's "
                        "opening line; for the whole ruleset, write a `precedence` line",
                    )


def stray_pairs(statements: Sequence[s.Statement], report: Report) -> None:
    """``a & b value`` where no modifier keyed by two contexts reads it: a table cell
    or a ``when`` line (E234; cost and modifier cells are checked where they lower; a dice
    row's effects keyed by unit type are ``damage & infantry 3``, issue 40)."""
    for st in statements:
        cells: list[s.CellNode] = []
        match st:
            case s.TableDecl(rows=rows):
                cells = [c for r in rows for c in r.cells]
            case s.ModifierDecl(whens=whens):
                cells = [w.cell for w in whens]
            case (
                s.RulesetDecl()
                | s.VersionDecl()
                | s.EditionDecl()
                | s.ExtendsDecl()
                | s.LanguagesDecl()
                | s.BookDecl()
                | s.UnitsDecl()
                | s.StackingDecl()
                | s.MinimumDecl()
                | s.ModeDecl()
                | s.GroupDecl()
                | s.PrecedenceDecl()
                | s.ContextDecl()
                | s.LayerDecl()
                | s.StepDecl()
                | s.DecisionDecl()
                | s.TriggerDecl()
                | s.ExcludeDecl()
                | s.GridDecl()
                | s.ParamDecl()
                | s.OverrideDecl()
                | s.RemoveDecl()
                | s.InsertDecl()
                | s.SightDecl()
                | s.ExampleDecl()
                | s.ExampleOverride()
                | s.ExampleRemove()
                | s.FacingDecl()
                | s.FacingRemove()
                | s.MoveDecl()
                | s.ArcsDecl()
                | s.RollDecl()
                | s.WholeMoveDecl()
                | s.StateDecl()
                | s.DriftDecl()
                | s.DiceDecl()
            ):
                pass
            case unknown:
                assert_never(unknown)
        for cell in cells:
            for entry in cell.entries:
                if entry.key2 is not None and entry.key is not None:
                    report(
                        "E234",
                        f"a combination '{entry.key.text} & {entry.key2.text}' is only for "
                        "a modifier keyed by two contexts",
                        entry.key.pos,
                        "declare the modifier with `by <context>, <context>`",
                    )
