"""The HTML preview lays tables out as the PDF does (issue 23): in headless Chromium, no block
of a bundled sheet (a table, a scale, a grid) runs over another, in every language.

One Chromium (tests/test_watch.py's :class:`Browser`, over the DevTools protocol) opens every
sheet in turn, in a 900 by 900 viewport: a browser started for each sheet (``--dump-dom``)
cost about a second of CPU a sheet, 34 of them (issue 44); the blocks it finds are the same."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheets import render_html
from tests import pdf_layout
from tests.test_watch import CHROMIUM, Browser

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="needs a headless Chromium"),
    pytest.mark.xdist_group("print-preview"),  # one worker starts the one browser
]

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


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    chromium = Browser(tmp_path_factory.mktemp("profile"))
    try:
        chromium.open("about:blank")
        chromium.call(
            "Emulation.setDeviceMetricsOverride",
            width=900,
            height=900,
            deviceScaleFactor=1,
            mobile=False,
        )
        yield chromium
    finally:
        chromium.close()


def chromium_overlaps(browser: Browser, html: str, folder: Path) -> dict[str, object]:
    page = folder / "sheet.html"
    page.write_text(html.replace("</body>", PROBE + "</body>"), "utf-8")
    url = page.as_uri()
    browser.call("Page.navigate", url=url)
    # the probe writes its findings once the page has loaded; until then, nothing after the URL
    shown = browser.wait_for(
        "location.href + ' ' + (document.getElementById('probe')?.textContent ?? '')", url + " {"
    )
    result: dict[str, object] = json.loads(shown.split(" ", 1)[1])
    return result


@pytest.mark.parametrize(("name", "lang"), pdf_layout.cases())
def test_the_preview_draws_no_block_over_another(
    browser: Browser, tmp_path: Path, name: str, lang: str
) -> None:
    html = render_html(build_sheet(pdf_layout.ruleset(name), lang))
    result = chromium_overlaps(browser, html, tmp_path)
    assert result["blocks"], "no block found"
    assert result["overlaps"] == []


def test_the_preview_probe_sees_a_table_drawn_over_its_neighbour(
    browser: Browser, tmp_path: Path
) -> None:
    # on A5 (one column) the water state stands beside the climbing scale, as on a screen
    html = render_html(build_sheet(pdf_layout.ruleset("heavy_gear"), "en"), "a5")
    wide = "<table><tr>" + "<td>averyveryverylongunbreakableword</td>" * 12 + "</tr></table>"
    html = html.replace("<h3>Water state", wide + "<h3>Water state", 1)
    assert chromium_overlaps(browser, html, tmp_path)["overlaps"]
