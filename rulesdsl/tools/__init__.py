"""Tools on top of the pipeline: diff and rebase check, versioning, fmt, convert, CSV charts,
the build engine (stamps, manifest, transaction), the language server and watch.
"""
