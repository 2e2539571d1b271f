"""Versions of a ruleset: the semantic diff and the version check it drives."""
