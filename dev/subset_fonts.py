"""Make the fonts shipped in rulesdsl/printed/fonts/ from the DejaVu fonts of the machine.

    python dev/subset_fonts.py [/usr/share/fonts/truetype/dejavu]

The sheets and cards set their text in DejaVu Sans Condensed, regular and bold (two faces:
each face embedded in a PDF costs render time). The package ships both, cut down to the
scripts and signs a sheet can print (Latin with its accents, Cyrillic, punctuation, arrows,
the math and dingbat signs of the markers), without hinting (a PDF does not use it), so that
a PDF gets the same glyphs and bytes on any machine, whatever fonts it has. Run it again only
to change the ranges below; the files are committed. DejaVu's licence (Bitstream Vera / Arev:
free to copy, change and ship) is in fonts/LICENSE.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

RANGES = [
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x024F),  # Latin-1, Latin Extended-A and -B
    (0x0250, 0x036F),  # IPA, spacing modifiers, combining marks (the pseudo-locale's accents)
    (0x0370, 0x03FF),  # Greek (µ, Δ)
    (0x0400, 0x052F),  # Cyrillic and its supplement
    (0x1E00, 0x1EFF),  # Latin Extended Additional
    (0x2000, 0x206F),  # General Punctuation (thin and narrow no-break spaces, dashes, †, …)
    (0x2070, 0x209F),  # superscripts and subscripts (footnote marks)
    (0x20A0, 0x20CF),  # currency
    (0x2100, 0x214F),  # letterlike symbols (№)
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators (≤ ≥ ⊗ ⊘)
    (0x25A0, 0x25FF),  # geometric shapes (□ ▲)
    (0x2700, 0x27BF),  # dingbats (✕ ✓)
]
FACES = ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf")
OUT = Path(__file__).resolve().parent.parent / "rulesdsl" / "printed" / "fonts"


def main(source: Path) -> None:
    unicodes = [c for lo, hi in RANGES for c in range(lo, hi + 1)]
    for face in FACES:
        font = TTFont(source / face, recalcTimestamp=False)
        options = subset.Options()
        options.hinting = False
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        options.recalc_timestamp = False
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=unicodes)
        subsetter.subset(font)
        OUT.mkdir(exist_ok=True)
        font.save(OUT / face, reorderTables=True)
        print(f"{OUT / face}: {(OUT / face).stat().st_size} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/usr/share/fonts/truetype/dejavu"))
