"""Where a YAML node and its text are, as syntax positions: what the YAML front end's checks
(:mod:`rulesdsl.frontends.yaml_authoring`) and its builder (:mod:`rulesdsl.frontends.yaml_builder`)
point their diagnostics at."""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, SequenceNode

from rulesdsl.frontends import syntax as s


def node_pos(path: str, node: Node) -> s.Pos:
    """Where a YAML node is, as a syntax position (a block ends on its last line)."""
    start, end = node.start_mark, node.end_mark
    if end.line > start.line and end.column == 0 and isinstance(node, MappingNode | SequenceNode):
        return s.Pos(path, start.line + 1, start.column + 1, end.line, 1_000)
    return s.Pos(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def text_origin(node: Node) -> tuple[int, int]:
    """Line and column (from 1) of the first character of a scalar's text."""
    style = getattr(node, "style", None)
    extra = 1 if style in ("'", '"') else 0
    if style in ("|", ">"):  # the text starts on the first non-blank line after `|` or `>`
        buffer, index = node.start_mark.buffer, node.start_mark.index
        if buffer is not None:
            lines = buffer[index:].split("\n")[1:]
            skip = next((i for i, ln in enumerate(lines) if ln.strip()), 0)
            indent = len(lines[skip]) - len(lines[skip].lstrip(" ")) if lines else 0
            return node.start_mark.line + 2 + skip, indent + 1
    return node.start_mark.line + 1, node.start_mark.column + 1 + extra
