"""The columns' widths a printed table is laid out from (rulesdsl/printed/table_columns.py):
the packer's estimate, or none where the automatic layout must share them. The layouts
themselves are checked by the no-loss tests, which count text past its table cell as lost
(tests/table_cells.py)."""

from __future__ import annotations

from rulesdsl.printed import fit
from rulesdsl.printed.sheet_view import CellView, HeadCell, TableView
from rulesdsl.printed.table_columns import table_columns

BOX = fit.Box(font=7.0, line=1.15, pad_x=3.6, pad_y=1.6, head_scale=0.88, head_hyphens=True)


def _table(heads: list[str], rows: list[list[str]]) -> TableView:
    return TableView(
        [[HeadCell(h) for h in heads]], [[CellView(c) for c in r] for r in rows], heads
    )


def test_a_table_gets_the_estimates_shares_of_its_width() -> None:
    t = _table(["Terrain", "MP"], [["Clear", "1"], ["Heavy woods", "3"]])
    shares = table_columns(t, 150.0, BOX, "en")
    widths = fit.table_fit([["Terrain", "MP"]], [["Clear", "1"], ["Heavy woods", "3"]], 150.0, BOX)
    total = sum(widths.widths)
    assert shares == [round(100 * w / total, 2) for w in widths.widths]
    assert abs(sum(shares) - 100) < 0.05


def test_a_table_whose_narrowest_does_not_fit_is_laid_out_automatically() -> None:
    t = _table(["A", "B"], [["Extraordinarily", "Unbelievably"]])
    assert table_columns(t, 40.0, BOX, "en") == []


def test_a_header_word_the_dictionary_does_not_break_keeps_the_automatic_layout() -> None:
    """The estimate breaks any header word of 7 letters or more near its middle; English has
    no break in "Wheeled" (BattleTech en's column ran 1.3 mm into the card's safe zone)."""
    rows = [["Clear", "0", "0", "0"]]
    heads = ["Base terrain", "BattleMech", "Tracked", "Wheeled"]
    room = sum(fit.table_fit([heads], rows, 1e9, BOX).mins) + 0.5
    assert fit.table_fit([heads], rows, room, BOX).fits
    assert table_columns(_table(heads, rows), room, BOX, "en") == []


def test_on_a_sheet_only_a_table_of_unwrapped_cells_gets_its_columns() -> None:
    t = _table(["Terrain", "Effect"], [["Woods", "Blocks the line of sight of every unit"]])
    assert table_columns(t, 400.0, BOX, "en", unwrapped=True)
    assert table_columns(t, 100.0, BOX, "en", unwrapped=False)
    assert table_columns(t, 100.0, BOX, "en", unwrapped=True) == []
