"""Front ends: what turns a source (terrain DSL text, a YAML authoring file) into syntax
statements with positions. The CSV chart importer is a tool (rulesdsl.interchange.csv_chart).
"""
