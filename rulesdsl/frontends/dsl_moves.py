"""The DSL builder's methods for kinds of move and the rolls the map makes due (issue 24): one
per grammar rule, each building that construct's syntax node (see :mod:`rulesdsl.frontends.dsl`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lark import Token
from lark.tree import Meta

from rulesdsl import ir
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl_base import BuilderBase, parse_dice_token


class MoveRules(BuilderBase):
    """Builds ``move`` and ``roll`` statements."""

    def move_decl(self, meta: Meta, ch: list[Any]) -> s.MoveDecl:
        terms = [c for c in ch if isinstance(c, tuple) and c and c[0] in ("x", "+", "not", "only")]
        factor = next((t[1] for t in terms if t[0] == "x"), None)
        amount = next((t[1] for t in terms if t[0] == "+"), None)
        barred = tuple(t[1] for t in terms if t[0] == "not")
        only = tuple(n for t in terms if t[0] == "only" for n in t[1]) or None
        return s.MoveDecl(self._item(meta, ch), factor, amount, barred, only)

    def move_factor(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Located]:
        number: ir.Number = ch[-1]
        return ("x", s.Located(number, self._p(meta)))

    def move_amount(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Located]:
        return ("+", self._located(meta, ch[-1]))

    def move_barred(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Name]:
        return ("not", self._name(ch[-1]))

    def move_only(self, meta: Meta, ch: list[Token]) -> tuple[str, list[s.Name]]:
        return ("only", [self._name(t) for t in ch])

    def roll_decl(self, meta: Meta, ch: list[Any]) -> s.RollDecl:
        item = self._item(meta, ch)
        tokens = [c for c in ch[1:] if isinstance(c, Token) and c.type in ("DICE", "NAME")]
        head = tokens[0]
        dice = (
            s.Located(parse_dice_token(str(head)), self._p(head)) if head.type == "DICE" else None
        )
        table = self._name(head) if head.type == "NAME" else None
        when = tuple(self._name(t) for t in tokens[1:] if t.type == "NAME")
        combine = next((c for c in ch if isinstance(c, s.Name)), None)
        state = next((c[1:] for c in ch if isinstance(c, tuple) and c and c[0] == "state"), None)
        return s.RollDecl(item, dice, table, when, combine, state)

    def roll_state(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Name, str, s.Located]:
        band: tuple[str, s.Name, str, s.Located] = ch[0]
        return band

    def roll_band(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Name, str, s.Located]:
        bound = s.Located(ch[-1], self._p(meta))
        return ("state", self._name(ch[0]), str(ch[1]), bound)

    def when_band_line(self, meta: Meta, ch: list[Any]) -> s.WhenNode:
        """``when altitude above 6 | +1`` in a modifier's block (issue 40)."""
        return s.WhenNode((), ch[1], ch[2], self._p(meta), band=ch[0][1:])

    def whole_move_decl(self, meta: Meta, ch: list[Any]) -> s.WholeMoveDecl:
        test = next(c for c in ch if isinstance(c, tuple) and c and c[0] == "whole")
        bonus = test[3] if len(test) > 3 else None
        return s.WholeMoveDecl(self._item(meta, ch), test[2], test[1], bonus)

    def whole_crosses(self, meta: Meta, ch: list[Token]) -> tuple[str, None, tuple[s.Name, ...]]:
        return ("whole", None, tuple(self._name(t) for t in ch))

    def whole_at_most(
        self, meta: Meta, ch: list[Token]
    ) -> tuple[str, s.Located, tuple[s.Name, ...]]:
        most = s.Located(ir.Number(int(ch[0])), self._p(ch[0]))
        return ("whole", most, tuple(self._name(t) for t in ch[1:]))

    def whole_bonus(
        self, meta: Meta, ch: list[Any]
    ) -> tuple[str, None, tuple[s.Name, ...], s.Located]:
        bonus = self._located(meta, ch[-1])
        return ("whole", None, tuple(self._name(t) for t in ch[:-1]), bonus)

    def state_decl(self, meta: Meta, ch: list[Any]) -> s.StateDecl:
        bounds = next(c for c in ch if isinstance(c, tuple) and c and c[0] == "range")
        changes = tuple(c[1:] for c in ch if isinstance(c, tuple) and c and c[0] == "change")
        own = tuple(c[1:] for c in ch if isinstance(c, tuple) and c and c[0] == "own")
        item = self._item(meta, ch)
        found, ends, caps = state_changes(changes)
        return s.StateDecl(item, bounds[1:], found, own or None, ends, caps)

    def drift_decl(self, meta: Meta, ch: list[Any]) -> s.DriftDecl:
        entries = tuple(c[1:] for c in ch if isinstance(c, tuple) and c and c[0] == "drift")
        return s.DriftDecl(self._item(meta, ch), entries)

    def drift_entry(
        self, meta: Meta, ch: list[Any]
    ) -> tuple[str, s.Name | None, s.Located, tuple[s.Name, str, s.Located] | None]:
        mode = self._name(ch[0]) if isinstance(ch[0], Token) else None
        number = next(c for c in ch if isinstance(c, ir.Number))
        band = next((c[1:] for c in ch if isinstance(c, tuple) and c[0] == "state"), None)
        return ("drift", mode, s.Located(number, self._p(meta)), band)

    def state_range(self, meta: Meta, ch: list[ir.Number]) -> tuple[str, s.Located, s.Located]:
        return ("range", s.Located(ch[0], self._p(meta)), s.Located(ch[1], self._p(meta)))

    def state_own_range(
        self, meta: Meta, ch: list[Any]
    ) -> tuple[str, s.Name, s.Located, s.Located]:
        low, high = (s.Located(n, self._p(meta)) for n in ch[1:])
        return ("own", self._name(ch[0]), low, high)

    def state_change(
        self, meta: Meta, ch: list[Any]
    ) -> tuple[str, s.Name | None, s.Name, s.Located, s.Name | None, s.Located | None]:
        """``[MODE] SOURCE +N [capped [at B]]``: the word after the change and the bound are
        kept for lowering."""
        cap = ch.pop() if isinstance(ch[-1], s.Located) else None
        amount = next(i for i, c in enumerate(ch) if not isinstance(c, Token))
        names = [self._name(t) for t in ch[:amount]]
        mode = names[0] if len(names) == 2 else None
        end = self._name(ch[-1]) if amount < len(ch) - 1 else None
        return ("change", mode, names[-1], s.Located(ch[amount], self._p(meta)), end, cap)

    def state_cap_at(self, meta: Meta, ch: list[Any]) -> s.Located:
        """``at 5`` after ``capped``: the bound, placed at ``at``."""
        return s.Located(ch[-1], self._p(meta))

    def roll_combine(self, meta: Meta, ch: list[Token]) -> s.Name:
        return self._name(ch[-1])

    def facing_turn(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        """``turn 1 MP per hexside [at speed 4 or less]`` (rows by speed: issue 40)."""
        speed = ch[2][1] if len(ch) > 2 else None
        return s.FacingTerm(s.Name("turn", self._p(meta)), ch[0], per=ch[1], speed=speed)

    def facing_wind_turn(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        """``tack +2 MP``, ``wear +1 MP`` (issue 40): ``amount`` the extra cost."""
        return s.FacingTerm(self._name(ch[0]), ch[1])

    def facing_wind_refused(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        """``may not tack`` (issue 40)."""
        return s.FacingTerm(s.Name(f"may not {ch[0]}", self._p(meta)))

    def facing_sail(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        """``sail by points (running +0 MP, in_irons impassable)`` (issue 40)."""
        word = s.Name("sail by", self._p(meta))
        return s.FacingTerm(word, arcs=self._name(ch[0]), sails=tuple(ch[1:]))

    def facing_speed_by(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        """``speed by points (running 6, in_irons 0)`` (issue 40): ``sails`` the speeds."""
        word = s.Name("speed by", self._p(meta))
        return s.FacingTerm(word, arcs=self._name(ch[0]), sails=tuple(ch[1:]))

    def facing_sail_when(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        """``sail when (calm impassable, gale +1 MP)`` (issue 40): ``sails`` the costs by the
        wind's strength, ``arcs`` None."""
        return s.FacingTerm(s.Name("sail when", self._p(meta)), sails=tuple(ch))

    def facing_speed_when(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        """``speed when (calm 0, gale 3)`` (issue 40): ``sails`` the speeds by the strength."""
        return s.FacingTerm(s.Name("speed when", self._p(meta)), sails=tuple(ch))

    def speed_entry(self, meta: Meta, ch: list[Any]) -> tuple[s.Name, s.Located | None]:
        return self._name(ch[0]), ch[1]

    def sail_cost(self, meta: Meta, ch: list[Any]) -> tuple[s.Name, s.Located | None]:
        return self._name(ch[0]), ch[1]

    def sail_impassable(self, meta: Meta, ch: list[Any]) -> tuple[s.Name, s.Located | None]:
        return self._name(ch[0]), None

    def facing_turn_limit(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        """``turn at most 1 hexside per hex`` (issue 40): ``amount`` the hexsides, ``per``
        the place."""
        return s.FacingTerm(s.Name("turn at most", self._p(meta)), ch[0], per=ch[1])

    # -- facing off the grid (issue 40) ------------------------------------------------------

    def free_facing_decl(self, meta: Meta, ch: list[Any]) -> s.FacingDecl:
        terms = tuple(c for c in ch if isinstance(c, s.FacingTerm))
        return s.FacingDecl(self._name(ch[0]), None, terms, ch[-1], self._p(meta))

    def _free(self, meta: Meta, word: str, amount: s.Located | None = None) -> s.FacingTerm:
        return s.FacingTerm(s.Name(word, self._p(meta)), amount)

    def free_turn(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        return s.FacingTerm(s.Name("turn", self._p(meta)), ch[0], per=ch[1])

    def free_pivot(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        return s.FacingTerm(self._name(ch[0]), ch[1])

    def free_straight(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        return self._free(meta, "straight before turn", ch[0])

    def free_ends(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        return self._free(meta, "turn above ends move", ch[0])

    def free_reverse(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        return self._free(meta, "reverse at half speed")


def state_changes(
    found: Iterable[tuple[s.Name | None, s.Name, s.Located, s.Name | None, s.Located | None]],
) -> tuple[
    tuple[tuple[s.Name | None, s.Name, s.Located], ...],
    tuple[s.Name | None, ...] | None,
    tuple[s.Located | None, ...] | None,
]:
    """A ``state`` line's changes and, apart, the word after each (``dive +1 capped``) and the
    bound it is capped at (``capped at 5``); the words (the bounds) are None when no change has
    one, so a line without them has the digest it had before."""
    changes = tuple(found)
    ends = tuple(c[3] for c in changes)
    caps = tuple(c[4] for c in changes)
    return (
        tuple(c[:3] for c in changes),
        ends if any(ends) else None,
        caps if any(caps) else None,
    )
