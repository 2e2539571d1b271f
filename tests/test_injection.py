"""Injection corpus: hostile text in every string slot of both front ends (.terrain and YAML)
never escapes into the generated module, the HTML sheet, the Markdown sheet or the PDF.

One ruleset holds the same payload in every string slot it has (titles, labels in two
languages, notes, book titles, source locators, text cells). Both front ends must compile it
to the very same IR; the outputs are compared with those of the same ruleset holding a
harmless payload:

- the module imports, its syntax tree is the harmless one's with only string constants
  changed, and every slot reads back exactly the payload;
- the HTML sheet parsed with html.parser has the very elements and attributes of the harmless
  one, and its text holds the payload;
- the Markdown sheet has no raw control or bidirectional-override character and no more
  unescaped link, image or HTML openings than the harmless one;
- the PDF's text holds the payload and WeasyPrint fetched nothing.

A payload that the language refuses (a control character, half a surrogate pair) must be
refused with a diagnostic, so nothing is built from it. Names get the same treatment where a
name can go (the YAML keys and `id`, which reach the module as identifiers).
"""

from __future__ import annotations

import ast
import copy
import re
import sys
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from rulesdsl import ir
from rulesdsl.codegen.targets import render_python
from rulesdsl.compiler import Compiled, Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_yaml
from rulesdsl.printed import sheets
from rulesdsl.printed.pdf import FONTS
from rulesdsl.printed.sheets import render_sheet
from tests.conftest import import_source

MARK = "PAYLOADMARK"

TEMPLATE = """\
ruleset inj "{P}" fr "{P}"
version 1.0.0
languages en fr
book bk "{P}" fr "{P}"
units distance in, cost MP, modifier points
mode walker "{P}" fr "{P}" [bk "{P}"]
    note "{P}" fr "{P}"
mode hover "Hover" fr "Glisseur"
group grp "{P}" fr "{P}" : walker, hover
context weapon "{P}" fr "{P}" {{
  gun "{P}" fr "{P}"
  sword "{P}" fr "{P}"
}}
grid sq "{P}" fr "{P}" : 1 square = 1.5 m, diagonals 1, 2
layer terrain "{P}" fr "{P}" one per place [bk p.3] {{
  clear "{P}" fr "{P}" | 1
      note "{P}" fr "{P}"
  rough "{P}" fr "{P}" | 2, walker 3 [bk "{P}"]
}}
step st "{P}" fr "{P}" (x in) -> points : +1 per full 2 in [bk "{P}"]
table tb "{P}" fr "{P}" {{
  column c "{P}" fr "{P}"
  column d "{P}" fr "{P}"
  r1 "{P}" fr "{P}" | 1 in | "{P}"
}}
decision dc "{P}" fr "{P}" (a in, b in) {{
  a > b -> big "{P}" fr "{P}"
  otherwise -> small "{P}" fr "{P}"
}}
dice dd "{P}" fr "{P}" : 2d6 {{
  modifier mm "{P}" fr "{P}" +1
  7- calm "{P}" fr "{P}"
  8+ fire "{P}" fr "{P}" | damage 1d6
}}
trigger tr "{P}" fr "{P}" : 2d6 >= 8 then roll dd
modifier cover "{P}" fr "{P}" {{
  low "{P}" fr "{P}" | +1
}}
param allowance "{P}" fr "{P}" : in
exclude clear with rough
    note "{P}" fr "{P}"
"""

PAYLOADS = {
    "double_quote": 'say "hi" to "x"',
    "triple_quotes": "'''\"\"\" ''' \"\"\"",
    "backslashes": "C:\\path\\to\\n \\\\ \\u0041 \\x41 end\\",
    "python_code": "'); __import__('os').system('touch pwned'); ('",
    "jinja": "{{ 7*7 }} {% if true %}x{% endif %} {# c #} {{ config }}",
    "html_script": "<script>alert('x')</script><img src=x onerror=alert(1)>",
    "html_attr": '" onmouseover="alert(1)" x="',
    "html_entity": "&lt;b&gt; &amp; &#60;i&#62; </td></tr></table>",
    "md_link": "[click](http://example.invalid/x) ![img](file:///etc/passwd) <http://a.b>",
    "md_markup": "# head\n> quote\n- item\n1. one | pipe | `code` *em* _u_ ~~s~~ ---",
    "css_url": "</style><style>@import url(http://example.invalid/x.css)</style>",
    "rtl_override": "abc\u202edcba\u2066x\u2069",
    "unicode": "Ωmega « ça » Юникод 汉字 \U0001f3b2 e\u0301",
    "long": "x" * 20_000,
    "long_words": "word " * 3_000,
    "tab": "a\tb",
    "comment": "x # not a comment",
    "line_separator": "x\u2028y\u2029z",
}
"""Payloads every front end must carry through as text."""

REFUSED = {
    "nul": "a\x00b",
    "bel": "ring\x07",
    "esc": "\x1b[31mred\x1b[0m",
    "del": "x\x7fy",
    "c1": "x\x85y\x9b",
    "lone_surrogate": "x\ud800y",
}
"""Payloads the language refuses (E004 in the DSL; a diagnostic in YAML too)."""

HARMLESS = "Plain words"

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
"""libyaml's writer when PyYAML has it: these tests write hundreds of rulesets, some of
megabytes."""

MD_MARKUP = (r"(?<!\\)<[A-Za-z/!?]", r"(?<!\\)\]\(", r"(?<!\\)!\[", r"(?<!\\)\]\[")
"""Openings of inline HTML, links and images in Markdown."""

CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
"""The control characters but the line feed: exactly the code points of Unicode's category
Cc (U+0000-U+001F, U+007F-U+009F), found by one search instead of a category lookup per
character of sheets of up to a megabyte."""

_parser = Parser()


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t"}
_TO_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f-\x9f\ud800-\udfff]')


def dsl_string(text: str) -> str:
    """``text`` as a DSL string literal, with the escapes the grammar reads (docs/language.md):
    \\" \\\\ \\n \\t and \\uXXXX for every other control character."""
    return '"' + _TO_ESCAPE.sub(lambda m: _ESCAPES.get(m[0], f"\\u{ord(m[0]):04x}"), text) + '"'


def dsl_text(payload: str) -> str:
    literal = dsl_string(payload)
    return TEMPLATE.replace("{{", "{").replace("}}", "}").replace('"{P}"', literal)


@cache
def yaml_text(payload: str) -> str:
    """The YAML twin of the template (by `rulesdsl convert`'s code), with the payload put in
    the YAML tree, so PyYAML writes it in whatever quoting it needs."""
    source, errors = _parser.parse(dsl_text(MARK), "inj.terrain")
    assert source is not None, errors
    data = yaml.safe_load(to_yaml(source))

    def put(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: put(v) for k, v in node.items()}
        if isinstance(node, list):
            return [put(v) for v in node]
        if isinstance(node, str):
            # a whole string slot, or a quoted string inside DSL syntax (a source locator)
            node = node.replace(f'"{MARK}"', dsl_string(payload))
            return payload if node == MARK else node
        return node

    data = put(data)
    assert MARK not in repr(data)
    try:
        return yaml.dump(data, Dumper=DUMPER, allow_unicode=True, sort_keys=False, width=10**6)
    except UnicodeEncodeError:  # libyaml's writer refuses half a surrogate pair
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10**6)


FRONT_ENDS = {"terrain": dsl_text, "yaml": yaml_text}


def compile_as(front: str, payload: str) -> Compiled:
    text = FRONT_ENDS[front](payload)
    return Compiler().compile_text(text, f"inj.{'terrain' if front == 'terrain' else 'yaml'}")


def load_module(source: str, folder: Path, name: str) -> ModuleType:
    """``source`` imported as :func:`tests.conftest.import_source` does, then let go of."""
    try:
        return import_source(source, folder, name)
    finally:
        sys.modules.pop(name, None)


class _Strings(ast.NodeTransformer):
    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.Constant("") if isinstance(node.value, str) else node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return ast.Constant("")


def code_shape(source: str) -> str:
    """The module's syntax tree with every string constant blanked: what the code does."""
    return ast.dump(_Strings().visit(ast.parse(source)))


COLUMN_WRAPPERS = ("columns", "columns last")
"""The sheet's own two-column runs (sheet.html.j2): whether a block of a payload's length goes
into one depends on how wide its text measures, not on how it is escaped. No payload here
writes these, so leaving them out of the comparison hides nothing a payload could inject."""


class _Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple[str, ...]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "div" and dict(attrs).get("class") in COLUMN_WRAPPERS:
            return  # where the sheet runs blocks in two columns: a matter of the text's width
        self.tags.append((tag, tuple(sorted(name for name, _ in attrs))))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def sheet_html(rs: ir.Ruleset) -> str:
    """The English HTML sheet of ``rs`` with every table laid out automatically: the columns'
    widths a table may carry (:mod:`rulesdsl.printed.table_columns`, numbers the sheet
    computes, never text) depend on how wide its text is, so a payload and its harmless twin
    could differ by a ``<colgroup>`` that says nothing of the escaping."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(sheets, "table_columns", lambda *_args, **_kwargs: [])
        return render_sheet(rs, "html", "en").decode("utf-8")


def markup(html: str) -> _Markup:
    parser = _Markup()
    parser.feed(html)
    parser.close()
    return parser


def squeeze(text: str) -> str:
    return "".join(text.split())


def slots(mod: Any) -> dict[str, str]:
    """Every string slot of the template as the module gives it back, English labels."""
    table, dice, decision = mod.TABLES["tb"], mod.DICE_TABLES["dd"], mod.DECISIONS["dc"]
    out = {
        "title": mod.RULESET.title,
        "mode": mod.MODES["walker"].label["en"],
        "mode fr": mod.MODES["walker"].label["fr"],
        "layer": mod.LAYERS["terrain"].label["en"],
        "feature": mod.FEATURES["clear"].label["en"],
        "feature fr": mod.FEATURES["clear"].label["fr"],
        "table": table.label["en"],
        "text cell": mod.lookup("tb", "d", "r1"),
        "dice table": dice.label["en"],
        "dice row": dice.rows[0].label["en"],
        "outcome": decision(3, 1).label,
        "other outcome": decision(0, 1).label,
    }
    return {k: str(v) for k, v in out.items()}


def compile_both(payload: str) -> ir.Ruleset:
    """The template holding ``payload``, compiled from both front ends, which must give the
    very same IR. The backends read nothing else (they import no front end:
    test_architecture.py), so the outputs of one stand for both."""
    compiled = {front: compile_as(front, payload) for front in FRONT_ENDS}
    for front, result in compiled.items():
        assert result.ok, (front, [d.message for d in result.diagnostics if d.is_error])
    rs = compiled["terrain"].ruleset
    assert isinstance(rs, ir.Ruleset) and compiled["yaml"].ruleset == rs
    return rs


@pytest.fixture(scope="module")
def harmless() -> dict[str, Any]:
    """The outputs of the template holding harmless text."""
    rs = compile_both(HARMLESS)
    html = sheet_html(rs)
    md = render_sheet(rs, "md", "en").decode("utf-8")
    return {
        "shape": code_shape(render_python(rs)),
        "tags": markup(html).tags,
        "md": {p: len(re.findall(p, md)) for p in MD_MARKUP},
    }


def same_shape_tags(payload: str, harmless_tags: object, own_tags: object) -> object:
    """The sheet's markup for harmless text as long as ``payload``: a label thousands of
    characters long changes the layout (a table split by column groups), not the escaping.
    A payload that is such text already (``own_tags``: its own sheet's) is not rendered
    again."""
    if len(payload) < 1000:
        return harmless_tags
    harmless_text = re.sub(r"[^\s]", "x", payload)
    if harmless_text == payload:
        return own_tags
    compiled = compile_as("terrain", harmless_text)
    assert compiled.ruleset is not None
    return markup(sheet_html(compiled.ruleset)).tags


def test_the_template_fills_every_slot_of_both_front_ends() -> None:
    """The YAML twin carries the payload in as many places as the .terrain file: no slot is
    lost in conversion, so both front ends are tested on the same slots."""
    dsl = dsl_text(MARK).count(MARK)
    assert dsl == 64
    assert yaml_text("Q9Z").count("Q9Z") == dsl


@pytest.mark.parametrize("name", PAYLOADS)
def test_payload_stays_text_in_module_html_and_markdown(
    name: str, harmless: dict[str, Any], tmp_path: Path
) -> None:
    payload = PAYLOADS[name]
    rs = compile_both(payload)

    source = render_python(rs)
    assert code_shape(source) == harmless["shape"]
    mod = load_module(source, tmp_path, f"inj_{name}")
    assert slots(mod) == dict.fromkeys(slots(mod), payload)
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()

    html = sheet_html(rs)
    parsed = markup(html)
    assert parsed.tags == same_shape_tags(payload, harmless["tags"], parsed.tags)
    assert squeeze(payload) in squeeze("".join(parsed.text))

    md = render_sheet(rs, "md", "en").decode("utf-8")
    assert {p: len(re.findall(p, md)) for p in MD_MARKUP} == harmless["md"]
    assert CONTROLS.findall(md) == []
    assert not set(md) & {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


@pytest.mark.parametrize("front", FRONT_ENDS)
@pytest.mark.parametrize("name", REFUSED)
def test_control_characters_are_refused_with_a_diagnostic(front: str, name: str) -> None:
    compiled = compile_as(front, REFUSED[name])
    assert not compiled.ok and compiled.ruleset is None
    errors = [d for d in compiled.diagnostics if d.is_error]
    assert errors and all(d.pos is not None and d.pos.line >= 1 for d in errors)


PDF_PAYLOADS = ["html_script", "css_url", "md_link", "jinja", "double_quote"]
PDF_SEPARATOR = " | "
"""The PDF payloads share one sheet: every slot holds them all, in this order, so each one
still goes through every slot (one WeasyPrint layout instead of five)."""


@pytest.fixture(scope="module")
def pdf_of_every_payload() -> tuple[str, list[str]]:
    """The text of the sheet (PDF) of the template holding every PDF payload, and every URL
    WeasyPrint asked for while making it."""
    weasyprint = pytest.importorskip("weasyprint")
    pypdf = pytest.importorskip("pypdf")
    fetched: list[str] = []
    fonts = FONTS.as_uri()
    fetch = weasyprint.URLFetcher.fetch

    def record(self: Any, url: str, headers: Any = None) -> Any:
        """Every URL is recorded; only the package's own fonts are fetched (the faces cut
        down to the document come as data: URLs): a refused font would lay the sheet out in
        the machine's fonts instead, which is not the sheet a player gets."""
        fetched.append(url)
        if url.startswith(("data:", fonts)):
            return fetch(self, url, headers)
        raise ValueError("no fetch in this test")

    payload = PDF_SEPARATOR.join(PAYLOADS[name] for name in PDF_PAYLOADS)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(weasyprint.URLFetcher, "fetch", record)
        pdf = render_sheet(compile_both(payload), "pdf", "en")
    import io

    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    return text, fetched


@pytest.mark.parametrize("name", PDF_PAYLOADS)
@pytest.mark.xdist_group("injection-pdf")
def test_payload_stays_text_in_the_pdf_and_nothing_is_fetched(
    name: str, pdf_of_every_payload: tuple[str, list[str]]
) -> None:
    text, fetched = pdf_of_every_payload
    payload = PAYLOADS[name]
    assert squeeze(payload) in squeeze(text)
    # the only files fetched are the package's own fonts (issue 23: fonts in the package);
    # a URL of no payload is every payload's fault
    fonts = FONTS.as_uri()
    strange = [u for u in fetched if not u.startswith(("data:", fonts))]
    others = [PAYLOADS[other] for other in PDF_PAYLOADS if other != name]
    assert [u for u in strange if u in payload or not any(u in p for p in others)] == []


NAMES = [
    "__import__('os').system('x')",
    "*, x: float = __import__('os').system('touch pwned'), y",
    "a; import os",
    "a\nimport os",
    "../../../x",
    "x" * 300,
    "isinstance",
    "sorted",
    "InvalidPlace",
    "move_cost",
    "class",
    "None",
    "__class__",
    "é",
    "a-b",
    "1abc",
    "{{ x }}",
    "<b>",
    "\u202eabc",
    "a\x00b",
]
"""Hostile names for every slot where YAML takes a name (mapping keys, ids)."""

NAME_SLOTS: dict[str, tuple[tuple[str | int, ...], str]] = {
    "ruleset id": (("ruleset",), "{}"),
    "mode": (("modes", "walker"), "{}"),
    "group": (("groups", "grp"), "{}"),
    "group member": (("groups", "grp", "members", 0), "{}"),
    "context": (("contexts", "weapon"), "{}"),
    "context value": (("contexts", "weapon", "values", "gun"), "{}"),
    "grid": (("grids", "sq"), "{}"),
    "layer": (("layers", "terrain"), "{}"),
    "feature": (("layers", "terrain", "rows", "clear"), "{}"),
    "table": (("tables", "tb"), "{}"),
    "column": (("tables", "tb", "columns", "c"), "{}"),
    "row": (("tables", "tb", "rows", "r1"), "{}"),
    "step": (("steps", "st"), "{}"),
    "step input": (("steps", "st", "input"), "{} in"),
    "decision": (("decisions", "dc"), "{}"),
    "decision input": (("decisions", "dc", "inputs", 0), "{} in"),
    "decision outcome": (("decisions", "dc", "rows", 0, "then"), "{}"),
    "dice table": (("dice_tables", "dd"), "{}"),
    "dice row": (("dice_tables", "dd", "rows", 0, "result"), "{}"),
    "dice modifier": (("dice_tables", "dd", "modifiers", "mm"), "{}"),
    "trigger": (("triggers", "tr"), "{}"),
    "modifier": (("modifiers", "cover"), "{}"),
    "modifier row": (("modifiers", "cover", "rows", "low"), "{}"),
    "param": (("params", "allowance"), "{}"),
    "book": (("books", "bk"), "{}"),
    "language": (("languages", 1), "{}"),
}
"""Where a YAML ruleset takes a name: the key of an entry, or a value (with what follows the
name in that value)."""


def _rename(data: Any, path: tuple[str | int, ...], name: str) -> bool:
    """Put ``name`` at ``path``: as the key of the entry there, or as the value there if it is
    text; False if the path is not there."""
    node = data
    for key in path[:-1]:
        if (isinstance(node, dict) and key in node) or (
            isinstance(node, list) and isinstance(key, int) and key < len(node)
        ):
            node = node[key]  # type: ignore[index]
        else:
            return False
    last = path[-1]
    if isinstance(node, list) and isinstance(last, int) and last < len(node):
        node[last] = name
        return True
    if isinstance(node, dict) and last in node:
        if isinstance(node[last], str):
            node[last] = name
        else:
            items = list(node.items())
            node.clear()
            node.update((name if k == last else k, v) for k, v in items)
        return True
    return False


@cache
def _harmless_data() -> Any:
    """The template's YAML twin as data, read once: each slot's test renames a deep copy."""
    return yaml.safe_load(yaml_text(HARMLESS))


@pytest.mark.parametrize("slot", NAME_SLOTS)
def test_hostile_names_in_yaml_are_refused_or_stay_names(slot: str, tmp_path: Path) -> None:
    base = _harmless_data()
    for name in NAMES:
        data = copy.deepcopy(base)
        path, shape = NAME_SLOTS[slot]
        assert _rename(data, path, shape.format(name)), slot
        text = yaml.dump(data, Dumper=DUMPER, allow_unicode=True, sort_keys=False)
        compiled = Compiler().compile_text(text, "inj.yaml")
        if not compiled.ok:
            assert any(d.is_error for d in compiled.diagnostics)
            continue
        # accepted: it must be a plain identifier and change nothing but names
        rs = compiled.ruleset
        assert rs is not None
        assert name.isidentifier() and name.isascii(), (slot, name)
        source = render_python(rs)
        load_module(source, tmp_path, f"inj_name_{len(name)}")
        assert not Path("pwned").exists()


def test_markdown_escaping_replaces_control_and_bidi_characters() -> None:
    """Defence in depth: both front ends refuse control characters, but the `md` filter
    must not pass NUL, BEL, ESC or a right-to-left override to a terminal or a wiki either."""
    from rulesdsl.printed.sheets import md_escape

    assert (
        md_escape("a\x00b\x07c\x1b[31md\x7fe\x9bf") == "a\ufffdb\ufffdc\ufffd\\[31md\ufffde\ufffdf"
    )
    assert md_escape("abc\u202edcba \u2066x\u2069") == "abc\ufffddcba \ufffdx\ufffd"
    assert md_escape("tab\there") == "tab here"
