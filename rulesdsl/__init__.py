"""rulesdsl: compile tabletop terrain rules into Python modules and reference sheets."""
