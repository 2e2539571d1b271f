"""The HTML preview lays tables out as the PDF does (issue 23): in headless Chromium, no block
of a bundled sheet (a table, a scale, a grid) runs over another, in every language."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheets import render_html
from tests import pdf_layout

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)

PROBE = """<script>
window.addEventListener("load", () => {
  const blocks = [...document.querySelectorAll("section.topic > .block")].map(b => {
    const r = b.getBoundingClientRect();
    let right = r.right, bottom = r.bottom;
    for (const e of b.querySelectorAll("table, svg, p, ol, h3")) {
      const q = e.getBoundingClientRect();
      right = Math.max(right, q.right); bottom = Math.max(bottom, q.bottom);
    }
    return [b.id, r.left, r.top, right, bottom];
  });
  const found = [];
  for (let i = 0; i < blocks.length; i++) for (let j = i + 1; j < blocks.length; j++) {
    const [a, al, at, ar, ab] = blocks[i], [b, bl, bt, br, bb] = blocks[j];
    const w = Math.min(ar, br) - Math.max(al, bl), h = Math.min(ab, bb) - Math.max(at, bt);
    if (w > 1 && h > 1) found.push(a + " over " + b);
  }
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify({blocks: blocks.length, overlaps: found});
  document.body.appendChild(pre);
});
</script>"""


def chromium_overlaps(html: str, folder: Path, width: int = 900) -> dict[str, object]:
    page = folder / "sheet.html"
    page.write_text(html.replace("</body>", PROBE + "</body>"), "utf-8")
    assert CHROMIUM is not None
    dom = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--window-size={width},900",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.search(r'<pre id="probe">([^<]*)</pre>', dom)
    assert found is not None, "the probe did not run"
    result: dict[str, object] = json.loads(found.group(1).replace("&quot;", '"'))
    return result


@pytest.mark.skipif(CHROMIUM is None, reason="needs a headless Chromium")
@pytest.mark.parametrize(("name", "lang"), pdf_layout.cases())
def test_the_preview_draws_no_block_over_another(tmp_path: Path, name: str, lang: str) -> None:
    html = render_html(build_sheet(pdf_layout.ruleset(name), lang))
    result = chromium_overlaps(html, tmp_path)
    assert result["blocks"], "no block found"
    assert result["overlaps"] == []


@pytest.mark.skipif(CHROMIUM is None, reason="needs a headless Chromium")
def test_the_preview_probe_sees_a_table_drawn_over_its_neighbour(tmp_path: Path) -> None:
    # on A5 (one column) the water state stands beside the climbing scale, as on a screen
    html = render_html(build_sheet(pdf_layout.ruleset("heavy_gear"), "en"), "a5")
    wide = "<table><tr>" + "<td>averyveryverylongunbreakableword</td>" * 12 + "</tr></table>"
    html = html.replace("<h3>Water state", wide + "<h3>Water state", 1)
    assert chromium_overlaps(html, tmp_path)["overlaps"]
