"""What each statement declares, in the words messages use (one function, kept apart from
:mod:`rulesdsl.frontends.syntax`, the nodes it reads)."""

from __future__ import annotations

from typing import assert_never

from rulesdsl.frontends import syntax as s
from rulesdsl.words import DeclKind


def declared_kind(st: s.Statement) -> DeclKind | None:
    """What the statement declares, in the words messages use; None for a statement that
    declares no name of its own (a header line, a change)."""
    match st:
        case s.RulesetDecl():
            return "ruleset"
        case s.BookDecl():
            return "book"
        case s.ModeDecl():
            return "mode"
        case s.GroupDecl():
            return "group"
        case s.ContextDecl():
            return "context"
        case s.ModifierDecl():
            return "modifier"
        case s.LayerDecl():
            return "layer"
        case s.StepDecl():
            return "step"
        case s.DecisionDecl():
            return "decision"
        case s.TableDecl():
            return "table"
        case s.DiceDecl():
            return "dice table"
        case s.TriggerDecl():
            return "trigger"
        case s.SightDecl():
            return "sight"
        case s.GridDecl():
            return "grid"
        case s.ParamDecl():
            return "param"
        case s.MoveDecl():
            return "kind of move"
        case s.RollDecl():
            return "roll rule"
        case s.ArcsDecl():
            return "arcs"
        case s.WholeMoveDecl():
            return "whole-move rule"
        case s.StateDecl():
            return "state"
        case s.DriftDecl():
            return "drift"
        case (
            s.Header()
            | s.Change()
            | s.PrecedenceDecl()
            | s.ExcludeDecl()
            | s.ExampleDecl()
            | s.FacingDecl()
        ):
            return None
        case _:
            assert_never(st)
