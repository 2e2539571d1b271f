"""Checks: an ordered series of passes over the IR, the same for every front end.

Each pass reads a :class:`rulesdsl.ir.Ruleset` and returns diagnostics; none changes the IR.
"""
