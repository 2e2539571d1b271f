"""`rulesdsl convert`, .yaml -> .terrain: one DSL statement per entry of the YAML authoring
format, the text laid out with :func:`rulesdsl.interchange.fmt.format_text`.

:mod:`rulesdsl.interchange.convert` holds the other direction and re-exports :func:`to_terrain`.
"""

from __future__ import annotations

import re
from typing import Any, assert_never

import yaml

from rulesdsl import spelling, words
from rulesdsl.frontends import yaml_authoring
from rulesdsl.interchange.fmt import format_text

_q = spelling.string


def _labels(node: Any) -> str:
    if isinstance(node, str):
        return _q(node)
    if not isinstance(node, dict):
        return ""
    parts = [_q(node["label"])] if "label" in node else []
    parts += [f"{k} {_q(v)}" for k, v in node.items() if _is_lang(k)]
    return " ".join(parts)


def _is_lang(key: str) -> bool:
    return re.fullmatch(r"[a-z]{2}(_[A-Za-z]{2,4})?", key) is not None


def _note_for(note: Any) -> str:
    """``for mech, vehicle `` before a note's text (its ``for:``), or nothing."""
    scope = note.get("for") if isinstance(note, dict) else None
    names = scope if isinstance(scope, list) else str(scope).split(",") if scope else []
    return f"for {', '.join(str(n).strip() for n in names)} " if names else ""


def _extras(node: Any, indent: str = "  ") -> str:
    if not isinstance(node, dict):
        return ""
    out = f" [{node['source']}]" if "source" in node else ""
    notes = node.get("note")
    for note in notes if isinstance(notes, list) else [notes] if notes else []:
        out += f"\n{indent}  note {_note_for(note)}{_labels(note)}"
    remarks = node.get("remark")
    for remark in remarks if isinstance(remarks, list) else [remarks] if remarks else []:
        out += f"\n{indent}  remark {_q(remark)}"
    if words.is_yes(node.get("ignores_others")):
        out += " ignores others"
    return out


def _head(keyword: str, name: str, node: Any, middle: str = "") -> str:
    parts = [keyword, name, _labels(node) if isinstance(node, dict | str) else "", middle]
    return " ".join(p for p in parts if p)


def _seq(node: Any) -> list[Any]:
    if node is None:
        return []
    return node if isinstance(node, list) else [node]


def _cells(node: Any) -> list[str]:
    if isinstance(node, dict):
        node = node.get("cells", "")
    return [str(c) if c is not None else "" for c in _seq(node)] or [""]


def _rows(rows: Any, indent: str = "  ") -> list[str]:
    out = []
    for key, row in (rows or {}).items():
        labels = _labels(row) if isinstance(row, dict) else ""
        cells = " | ".join(_cells(row))
        head = f"{key} {labels}".rstrip()
        order = _place_order(row)
        out.append(f"{indent}{head} | {cells}".rstrip() + order + _extras(row, indent))
    return out


def _place_order(node: Any) -> str:
    """`` precedence a, b`` for a layer or a row that names an order of keywords (issue 40)."""
    order = node.get("precedence") if isinstance(node, dict) else None
    return " precedence " + ", ".join(_seq(order)) if order else ""


def to_terrain(text: str) -> str:
    """The DSL form of a YAML ruleset (which must already compile or at least parse)."""
    doc: dict[str, Any] = yaml.load(text, Loader=yaml.BaseLoader) or {}
    lines: list[str] = []
    for key, node in doc.items():
        section = yaml_authoring.section(key)
        if section is None:  # the ruleset's labels, note, source: on its line
            ruled = _is_lang(key) or key in ("label", "source", "note")
            lines += [] if ruled else [""]
        else:
            lines += _section(section, node, doc)
            lines += [] if yaml_authoring.header(section) else [""]
    return format_text("\n".join(lines) + "\n")


def _section(section: yaml_authoring.Section, node: Any, doc: dict[str, Any]) -> list[str]:
    """A top-level section's DSL statements."""
    match section:
        case "ruleset":
            return [_head("ruleset", node, doc) + _extras(doc, "")]
        case "version":
            return [f"version {node}"]
        case "edition":
            return [f"edition {node}"]
        case "extends":
            return [f"extends {node}"]
        case "languages":
            return ["languages " + " ".join(_seq(node))]
        case "books":
            return [_book(name, item) for name, item in node.items()]
        case "units":
            return ["units " + ", ".join(f"{k} {v}" for k, v in node.items())]
        case "stacking":
            return [f"stacking {node}"]
        case "minimum":
            return [_minimum(node)]
        case "modes":
            return [_mode(name, item) for name, item in node.items()]
        case "groups":
            return [_group(name, item) for name, item in node.items()]
        case "precedence":
            return [_precedence(entry) for entry in _seq(node)]
        case "contexts":
            return _contexts(node)
        case "modifiers":
            return _modifiers(node)
        case "layers":
            return _layers(node)
        case "steps":
            return [_step(name, item) for name, item in node.items()]
        case "decisions":
            return _decisions(node)
        case "tables":
            return _tables(node)
        case "sights":
            return [_sight(name, item) for name, item in node.items()]
        case "moves":
            return [_move(name, item) for name, item in node.items()]
        case "rolls":
            return [_roll(name, item) for name, item in node.items()]
        case "arcs":
            return _arcs(node)
        case "whole_moves":
            return [_whole_move(name, item) for name, item in node.items()]
        case "states":
            return [_state(name, item) for name, item in node.items()]
        case "drifts":
            return [_drift(name, item) for name, item in node.items()]
        case "dice_tables":
            return _dice_tables(node)
        case "triggers":
            return [_trigger(name, item) for name, item in node.items()]
        case "exclusions":
            return [_exclusion(entry) for entry in _seq(node)]
        case "grids":
            return [_grid(name, item) for name, item in node.items()]
        case "params":
            return [_param(name, item) for name, item in node.items()]
        case "overrides":
            return [_override(path, item) for path, item in node.items()]
        case "facing":
            return [_facing(name, item) for name, item in node.items()]
        case "removes":
            return [_remove(entry) for entry in _seq(node)]
        case "examples":
            return _examples(node)
        case _:
            assert_never(section)


def _book(name: str, item: Any) -> str:
    return _head("book", name, item) + _extras(item, "")


def _minimum(node: Any) -> str:
    move = node["move"] if isinstance(node, dict) else node
    return f"minimum move {move}" + _extras(node, "")


def _mode(name: str, item: Any) -> str:
    keywords = item.get("keywords") if isinstance(item, dict) else None
    middle = ": " + ", ".join(_seq(keywords)) if keywords else ""
    if isinstance(item, dict) and "allowance" in item:  # issue 40: the unit's own allowance
        middle = f"allowance {item['allowance']} {middle}".rstrip()
    return _head("mode", name, item, middle) + _extras(item, "")


def _group(name: str, item: Any) -> str:
    members = (
        item
        if isinstance(item, list)
        else item.get("members", [])
        if isinstance(item, dict)
        else []
    )
    return (
        _head("group", name, item if isinstance(item, dict | str) else None)
        + (": " + ", ".join(members) if members else "")
        + _extras(item, "")
    )


def _precedence(entry: Any) -> str:
    groups = entry.get("groups", []) if isinstance(entry, dict) else entry
    return f"precedence {', '.join(_seq(groups))}" + _extras(entry, "")


def _contexts(node: Any) -> list[str]:
    lines: list[str] = []
    emit = lines.append
    for name, item in node.items():
        emit(_head("context", name, item) + _extras(item, "") + " {")
        for value, vitem in (item.get("values") or {}).items():
            emit(f"  {_head('', value, vitem).strip()}" + _extras(vitem))
        emit("}")
    return lines


def _modifiers(node: Any) -> list[str]:
    lines: list[str] = []
    emit = lines.append
    for name, item in node.items():
        item = item if isinstance(item, dict) else {}
        by = f"by {', '.join(_seq(item['context']))}" if "context" in item else ""
        if "combine" in item:
            by = f"{by} combine {item['combine']}".strip()
        if "clamp" in item:
            low, high = _seq(item["clamp"])
            by = f"{by} clamp {low} to {high}".strip()
        head = _head("modifier", name, item, by) + _extras(item, "")
        if not {"rows", "when", "best", "sight"} & set(item):
            emit(head)
            continue
        emit(head + " {")
        lines += _rows(item.get("rows"))
        for w in _seq(item.get("when")):
            said = w["band"] if "band" in w else ", ".join(w["members"])
            emit(f"  when {said} | {w['cell']}" + _extras(w))
        for bname, bitem in (item.get("best") or {}).items():
            combine = f"combine {bitem['combine']}" if "combine" in bitem else ""
            members = ", ".join(_seq(bitem.get("members")))
            emit(f"  {_head('best', bname, bitem, combine)} : {members}" + _extras(bitem))
        for sname, sitem in (item.get("sight") or {}).items():  # read along a line (issue 40)
            emit(f"  {_head('sight', sname, sitem, '')} : {sitem['rule']}" + _extras(sitem))
        emit("}")
    return lines


def _layers(node: Any) -> list[str]:
    lines: list[str] = []
    emit = lines.append
    for name, item in node.items():
        scope = item.get("scope", "")
        emit(_head("layer", name, item, scope) + _place_order(item) + _extras(item, "") + " {")
        if item.get("columns"):
            emit("  columns " + ", ".join(item["columns"]))
        lines += _rows(item.get("rows"))
        emit("}")
    return lines


def _step(name: str, item: Any) -> str:
    result = f" -> {item['result']}" if "result" in item else ""
    return (
        _head("step", name, item)
        + f" ({item['input']}){result} : "
        + ", ".join(_seq(item["terms"]))
        + _extras(item, "")
    )


def _decisions(node: Any) -> list[str]:
    lines: list[str] = []
    emit = lines.append
    for name, item in node.items():
        result = f" -> {item['result']}" if "result" in item else ""
        emit(
            _head("decision", name, item)
            + f" ({', '.join(item['inputs'])}){result}"
            + _extras(item, "")
            + " {"
        )
        for row in _seq(item.get("rows")):
            head = f"  {row['when']} -> {_head('', row['then'], row).strip()}"
            if "gives" in row:  # the source before `=`, the notes after it (issue 40)
                source = f" [{row['source']}]" if "source" in row else ""
                rest = {k: v for k, v in row.items() if k != "source"}
                head += f"{source} = {row['gives']}"
                row = rest
            emit(head + _extras(row))
        emit("}")
    return lines


def _tables(node: Any) -> list[str]:
    lines: list[str] = []
    emit = lines.append
    for name, item in node.items():
        arcs = f" : arcs {item['arcs']}" if "arcs" in item else ""  # issue 40
        emit(_head("table", name, item) + arcs + _extras(item, "") + " {")
        columns = item.get("columns")
        if isinstance(columns, list):
            emit("  columns " + ", ".join(columns))
        for column, citem in (columns or {}).items() if isinstance(columns, dict) else ():
            emit(f"  column {_head('', column, citem).strip()}" + _extras(citem))
        lines += _rows(item.get("rows"))
        emit("}")
    return lines


def _sight(name: str, item: Any) -> str:
    terms = [f"blocks at {item['blocks_at']}"] if "blocks_at" in item else []
    terms += [f"blocks above {item['blocks_above']}"] if "blocks_above" in item else []
    terms += [f"counts {item['counts']}"] if "counts" in item else []
    terms += [f"crossed {item['crossed']}"] if "crossed" in item else []
    terms += ["target inside"] if words.is_yes(item.get("target_inside")) else []
    terms += [f"when {item['band']}"] if "band" in item else []
    return _head("sight", name, item) + " : " + ", ".join(terms) + _extras(item, "")


def _move(name: str, item: Any) -> str:
    terms = [f"allowance times {item['factor']}"] if "factor" in item else []
    terms += [f"allowance {item['amount']}"] if "amount" in item else []
    terms += [f"not {n}" for n in _seq(item.get("not"))]
    terms += ["only " + " or ".join(_seq(item["only"]))] if item.get("only") else []
    return _head("move", name, item) + " : " + ", ".join(terms) + _extras(item, "")


def _roll(name: str, item: Any) -> str:
    combine = f" combine {item['combine']}" if "combine" in item else ""
    combine += f" when {item['band']}" if "band" in item else ""
    return (
        _head("roll", name, item)
        + f" : {item.get('roll', '')} on {item.get('when', 'entering')}{combine}"
        + _extras(item, "")
    )


def _arcs(node: Any) -> list[str]:
    """Named arcs (issue 40): ``arcs NAME "Label" [: hexsides] { NAME "Label" | spans }``."""
    lines: list[str] = []
    for name, item in node.items():
        count = f" : {item['count']}" if "count" in item else ""
        lines.append(_head("arcs", name, item) + count + _extras(item, "") + " {")
        for arc, aitem in (item.get("arcs") or {}).items():
            spans = aitem.get("spans", "") if isinstance(aitem, dict) else aitem
            fields = aitem if isinstance(aitem, dict) else {}
            lines.append(f"  {_head('', arc, fields).strip()} | {spans}" + _extras(fields))
        lines.append("}")
    return lines


def _whole_move(name: str, item: Any) -> str:
    most = f"at most {item['most']} " if "most" in item else "crosses "
    features = " or ".join(str(n) for n in _seq(item.get("features")))
    if "bonus" in item:
        most, features = "on ", f"{features}, allowance {item['bonus']}"
    return _head("whole move", name, item) + f" : {most}{features}" + _extras(item, "")


def _state(name: str, item: Any) -> str:
    low, high = [*_seq(item.get("range")), "", ""][:2]
    changes = "".join(f", {c}" for c in (*_seq(item.get("ranges")), *_seq(item.get("changes"))))
    return _head("state", name, item) + f" : {low} to {high}{changes}" + _extras(item, "")


def _drift(name: str, item: Any) -> str:
    entries = ", ".join(str(e) for e in _seq(item.get("entries")))
    return _head("drift", name, item) + f" : {entries}" + _extras(item, "")


def _dice_tables(node: Any) -> list[str]:
    lines: list[str] = []
    emit = lines.append
    for name, item in node.items():
        by = f" by {item['column_by']}" if "column_by" in item else ""
        by += f" round {item['round']}" if "round" in item else ""
        emit(_head("dice", name, item) + f" : {item['dice']}{by}" + _extras(item, "") + " {")
        for mod, mitem in (item.get("modifiers") or {}).items():
            amount = mitem.get("amount", "") if isinstance(mitem, dict) else mitem
            if isinstance(mitem, dict) and "shift" in mitem:
                amount = f"shift {mitem['shift']}"
                amount += " on doubles" if words.is_yes(mitem.get("on_doubles")) else ""
            labels = _labels(mitem) if isinstance(mitem, dict) else ""
            emit(
                "  " + " ".join(p for p in ("modifier", mod, labels, amount) if p) + _extras(mitem)
            )
        for column, citem in (item.get("columns") or {}).items():
            bound = (
                "up to " + str(citem["upto"])
                if "upto" in citem
                else "at " + str(citem["point"])
                if "point" in citem
                else "above " + str(citem["above"])
                if "above" in citem
                else ""  # a category (issue 40)
            )
            head = " ".join(p for p in (_head("", column, citem).strip(), bound) if p)
            emit(f"  column {head}" + _extras(citem))
        for outcome, oitem in (item.get("outcomes") or {}).items():
            carried = (
                f" | {oitem['effects']}" if isinstance(oitem, dict) and "effects" in oitem else ""
            )
            emit(f"  outcome {_head('', outcome, oitem).strip()}{carried}" + _extras(oitem))
        for nat in _seq(item.get("naturals")):
            then = nat["then"]
            least = "at least " if words.is_yes(nat.get("at_least")) else ""
            then = "| " + " | ".join(then) if isinstance(then, list) else least + then
            emit(f"  natural {nat['natural']} {then}" + _extras(nat))
        for row in _seq(item.get("rows")):
            effects = f" | {row['effects']}" if "effects" in row else ""
            emit(f"  {row['roll']} {_head('', row['result'], row).strip()}{effects}" + _extras(row))
        for res in _seq(item.get("results")):
            outcomes = " | ".join(_seq(res.get("outcomes")))
            emit(f"  {res['roll']} | {outcomes}" + _extras(res))
        emit("}")
    return lines


def _trigger(name: str, item: Any) -> str:
    check = f"{item['check']} then " if "check" in item else ""
    with_ = f" with {', '.join(_seq(item['with']))}" if "with" in item else ""
    times = f" times {item['times']}" if "times" in item else ""
    return (
        _head("trigger", name, item)
        + f" : {check}roll {item['roll']}{with_}"
        + times
        + _extras(item, "")
    )


def _exclusion(entry: Any) -> str:
    return f"exclude {entry['exclude']} with {', '.join(entry['with'])}" + _extras(entry, "")


def _grid(name: str, item: Any) -> str:
    size = " = ".join(item["size"])
    diagonals = ", ".join(item.get("diagonals") or [])
    shape = f"{item['shape']}, " if item.get("shape") else ""
    tail = f", diagonals {diagonals}" if diagonals else ""
    return (
        _head("grid", name, item)
        + (f" : {size}, {item['shape']}{tail}" if shape else f" : {size}{tail}")
        + _extras(item, "")
    )


def _param(name: str, item: Any) -> str:
    value = f" = {item['value']}" if "value" in item else ""
    return _head("param", name, item) + f" : {item['unit']}{value}" + _extras(item, "")


def _override(path: str, item: Any) -> str:
    cell = item["cell"] if isinstance(item, dict) else item
    return f"override {_example_path(path)} | {cell}" + _extras(item, "")


def _facing(name: str, item: Any) -> str:
    rules = ", ".join(_seq(item.get("rules")))
    grid = f" on {item['on']}" if "on" in item else ""  # none: off the grid (issue 40)
    return f"facing {name}{grid} : {rules}" + _extras(item, "")


def _remove(entry: Any) -> str:
    path = entry["remove"] if isinstance(entry, dict) else entry
    return f"remove {_example_path(path)}" + _extras(entry, "")


def _examples(node: Any) -> list[str]:
    lines: list[str] = []
    emit = lines.append
    for name, item in node.items():
        emit(_head("example", name, item) + _extras(item, "") + " {")
        for entry in _seq(item.get("ask")):
            ask = entry["ask"] if isinstance(entry, dict) else entry
            emit(f"  {ask}" + _extras(entry))
        emit("}")
    return lines


def _example_path(path: str) -> str:
    """``example.NAME`` in YAML is ``example NAME`` in the DSL (``example`` is a keyword)."""
    if path.startswith("facing."):  # `remove facing MODE` (issue 24)
        return "facing " + path[len("facing.") :]
    return "example " + path[len("example.") :] if path.startswith("example.") else path
