"""Fonts in the package (issue 23): the sheets' faces ship with rulesdsl and are loaded by
``@font-face``, so a PDF has the same glyphs and bytes whatever fonts the machine has."""

from __future__ import annotations

import base64
import io
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rulesdsl.printed import font_subset
from rulesdsl.printed.pdf import FONTS
from tests import pdf_layout

ROOT = Path(__file__).resolve().parent.parent
MARKERS = "✕⊘⊗†□"

RENDER = """
import sys
from pathlib import Path
import weasyprint.pdf.fonts
from rulesdsl.compiler import Compiler
from rulesdsl.printed.pdf import render_pdf
from rulesdsl.printed.sheets import render_sheet

# first, in the fresh process: the sheet, WeasyPrint as on a machine without HarfBuzz-Subset
harfbuzz_subset = weasyprint.pdf.fonts.harfbuzz_subset
assert harfbuzz_subset is not None
weasyprint.pdf.fonts.harfbuzz_subset = None
rs = Compiler().compile_file(Path("rulesets/battletech_tacops.terrain")).ruleset
Path(sys.argv[1], "sheet.pdf").write_bytes(bytes(render_sheet(rs, "pdf", "ru")))
# then the markers, with the subsetter WeasyPrint finds
weasyprint.pdf.fonts.harfbuzz_subset = harfbuzz_subset
Path(sys.argv[1], "markers.pdf").write_bytes(bytes(render_pdf(
    '<html lang="fr"><body style="font-family: \\'rulesdsl Sans\\'">'
    + "<p>{markers} Redkiy: Редкий лес, é œ «»</p><p><b>{markers} bold</b></p></body></html>"
)))
""".replace("{markers}", MARKERS)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The PDFs of one fresh process in which fontconfig sees only an empty folder: first the
    Russian sheet, subset as on a machine whose WeasyPrint finds no HarfBuzz-Subset (and would
    subset with fontTools), then a page of the markers with the subsetter WeasyPrint finds.
    One interpreter, WeasyPrint and fontconfig's start for both."""
    folder = tmp_path_factory.mktemp("fonts")
    fonts = folder / "empty"
    fonts.mkdir()
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
        f"<fontconfig><dir>{fonts}</dir><cachedir>{folder / 'cache'}</cachedir>"
        "</fontconfig>",
        "utf-8",
    )
    env = dict(os.environ, FONTCONFIG_FILE=str(conf))
    argv = [sys.executable, "-c", RENDER, str(folder)]
    subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, check=True)
    return {what: (folder / f"{what}.pdf").read_bytes() for what in ("sheet", "markers")}


def drawn_glyphs(pdf: bytes) -> dict[str, set[str]]:
    """Each embedded font's name -> the characters its ToUnicode map gives a real glyph
    (not glyph 0, .notdef: the empty box of a missing character)."""
    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(pdf))
    found: dict[str, set[str]] = {}
    for page in reader.pages:
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            font = ref.get_object()
            cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
            chars = found.setdefault(str(font["/BaseFont"]), set())
            for cid, uni in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", cmap):
                if int(cid, 16) != 0 and len(uni) == 4:
                    chars.add(chr(int(uni, 16)))
    return found


def test_the_package_ships_its_fonts_and_their_licence() -> None:
    assert sorted(p.name for p in FONTS.glob("*.ttf")) == [
        "DejaVuSansCondensed-Bold.ttf",
        "DejaVuSansCondensed.ttf",
    ]
    assert "Bitstream" in (FONTS / "LICENSE").read_text("utf-8")
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert "rulesdsl.printed.fonts" in setuptools["packages"]
    assert setuptools["package-data"]["rulesdsl.printed.fonts"] == ["*.ttf", "LICENSE"]


@pdf_layout.sheet_group("battletech_tacops", "ru", "a4")  # the worker that has `rendered`
def test_every_marker_glyph_prints_with_no_system_font(rendered: dict[str, bytes]) -> None:
    fonts = drawn_glyphs(rendered["markers"])
    assert fonts and all("rulesdsl-Sans" in name for name in fonts), fonts
    for name, chars in fonts.items():
        assert set(MARKERS) <= chars, (name, set(MARKERS) - chars)
    assert set("Редкий лес éœ«»") <= set().union(*fonts.values())


@pdf_layout.sheet_group("battletech_tacops", "ru", "a4")
def test_a_sheet_is_byte_identical_without_system_fonts_and_whichever_subsetter_weasyprint_finds(
    rendered: dict[str, bytes],
) -> None:
    """The sheet the layout checks read (rendered once, in a test process, with the system's
    fonts and the subsetter WeasyPrint finds, HarfBuzz-Subset here:
    :func:`pdf_layout.written_sheet`) has the bytes of the same sheet rendered in a fresh
    process that sees no system font and whose WeasyPrint would subset with fontTools.

    Issue 23: a glyph taken from a system font changes the bytes. Issue 41, goal 5: the faces
    are cut down by the product (fontTools, one path) and embedded whole, so a machine whose
    WeasyPrint subsets with fontTools (no HarfBuzz-Subset) writes the bytes one with
    HarfBuzz-Subset writes, the file identifier too. Either fault alone changes the fresh
    process's bytes, so one fresh render (about 5 s of CPU) checks both."""
    reference = bytes(pdf_layout.written_sheet("battletech_tacops", "ru", "a4").pdf)
    assert reference == rendered["sheet"]
    assert b"/ID [(" in reference


@pytest.mark.parametrize("pdf", ["sheets/heavy_gear.en.pdf", "cards/heavy_gear.en.pdf"])
def test_fi_and_fl_come_back_from_a_written_pdf_as_letters(pdf: str) -> None:
    """A sheet's "difficult" and "fire" are found by a player's search and read by a screen
    reader: no ligature glyph stands for the letters (rulesdsl.printed.font_subset.LIGATURES;
    with them, pdfium gave back no "fi" at all and pypdf U+FB01)."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped, unused-ignore]

    document = pdfium.PdfDocument((ROOT / "generated" / pdf).read_bytes())
    text = "".join(page.get_textpage().get_text_range() for page in document)
    assert "fi" in text and not set("\ufb00\ufb01\ufb02\ufb03\ufb04") & set(text)


@pytest.mark.parametrize("face", [name for name, _ in font_subset.FACES])
def test_a_face_is_cut_to_fonttools_own_bytes_without_walking_it_for_names(face: str) -> None:
    """The product's cut of a shipped face (font_subset._subset: from a copy of the face read
    once, its ``name`` table taken out and put back pruned, not walked for) is the cut
    fontTools makes of the face read from its file, byte for byte; and the fast path is the
    one taken: the face's tables refer to no ``name`` record."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    path = FONTS / face
    chars = font_subset.document_chars("<p>Редкий лес, é œ «» fi fl ½ ✕⊘⊗†□ — 2d6 ≥ 7</p>")
    options = subset.Options(notdef_outline=True, hinting=False, desubroutinize=True)
    options.layout_features = [
        f for f in font_subset._all_features(path) if f not in font_subset.LIGATURES
    ]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars])
    font = TTFont(path, recalcTimestamp=False)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    assert font_subset._subset.__wrapped__(path, chars) == base64.b64encode(out.getvalue()).decode()
    assert font_subset._loaded(path)[1] is False
