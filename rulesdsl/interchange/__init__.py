"""DSL text in and out: the canonical formatter, YAML to DSL conversion, CSV charts."""
