"""IR values spelled the way the terrain DSL writes them: ``+1``, ``1 per 2 in``, ``1d6+3``.

One place for this text, used by diagnostics, the semantic diff and the generated modules'
docstrings. (Sheets have their own, translated wording in rulesdsl.backends.sheet_model.)
"""

from __future__ import annotations

from rulesdsl import ir


def number(value: float, signed: bool = False) -> str:
    """``3`` for 3.0, ``1.5`` for 1.5; a leading ``+`` when ``signed`` and not negative."""
    text = str(int(value)) if float(value).is_integer() else str(value)
    return f"+{text}" if signed and value >= 0 else text


def dice(value: ir.DiceValue) -> str:
    return f"{value.count}d{value.sides}" + (f"{value.bonus:+d}" if value.bonus else "")


def dice_range(low: int | None, high: int | None) -> str:
    """A dice row's totals: ``8``, ``2-7``, ``12+`` or ``2-``."""
    if low is None:
        return f"{high}-"
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


def step_term(term: ir.StepTerm, unit: str) -> str:
    if term.term == "rate":
        full = "full " if term.full else ""
        return f"{number(term.amount, True)} per {full}{number(term.every)} {unit}"
    bound = "above" if term.strict else "from"
    if term.term == "floor":
        return f"at least {number(term.amount)} {bound} {number(term.at)} {unit}"
    return f"impassable {bound} {number(term.at)} {unit}"


def step_rule(step: ir.Step) -> str:
    """A step's terms as written: ``+1 per full 4 in, at least 1 from 2 in``."""
    return ", ".join(step_term(t, step.param_unit) for t in step.terms)
