"""The HTML report in a real headless browser: no console errors, no external resources,
and the per-group charts are actually painted (the chart area of the screenshot is not blank).

Skips cleanly when Debian's chromium is not installed (.ci/run installs it)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import html_tree
import report_chromium
import report_png

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_HTML = REPO / "reports" / "example" / "report.html"
needs_chromium = pytest.mark.skipif(report_chromium.chromium_binary() is None,
                                    reason="chromium not installed (apt-get install -y chromium)")


def _hex(c: str) -> tuple:
    return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))


def painted_charts(png: Path) -> dict:
    """Find the chart backgrounds (their colour is used nowhere else) and count the
    data-point pixels drawn inside them."""
    from validator.render.report_html import C_BG, C_CONTRA, C_OK
    w, h, ch, rows = report_png.read_png(png)
    bg = report_png.pixels_of(rows, ch, _hex(C_BG))
    if not bg:
        return {"background": 0, "points": 0}
    x0, x1 = min(x for x, _ in bg), max(x for x, _ in bg)
    y0, y1 = min(y for _, y in bg), max(y for _, y in bg)
    inside = lambda p: x0 <= p[0] <= x1 and y0 <= p[1] <= y1  # noqa: E731
    points = [p for c in (C_CONTRA, C_OK) for p in report_png.pixels_of(rows, ch, _hex(c)) if inside(p)]
    return {"background": len(bg), "points": len(points)}


def test_report_html_is_self_contained():
    html = EXAMPLE_HTML.read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b([^>]*)>", html, re.I)
    assert len(scripts) == 1 and "src" not in scripts[0].lower(), "one inline script, nothing loaded"
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html, re.I)
    assert not re.search(r"fetch\(|XMLHttpRequest|import\(", html)
    assert not re.search(r"url\(|@import|<link\b", html, re.I)
    assert '<svg class="chart"' in html, "the example corpus has contradictions, so the report must chart them"


@needs_chromium
def test_report_html_renders_with_visible_charts(tmp_path):
    shot = tmp_path / "report.png"
    run = report_chromium.render(EXAMPLE_HTML, shot)
    assert run["returncode"] == 0, run["log"][-2000:]
    assert run["console"] == []
    found = painted_charts(shot)
    assert found["background"] > 2000, found
    assert found["points"] > 10, found


@needs_chromium
def test_render_check_catches_console_errors_and_blank_charts(tmp_path):
    """The two checks above can fail: a page logging an error, a chart with no points."""
    from validator.render.report_html import C_BG
    bad = tmp_path / "bad.html"
    bad.write_text(f'<!DOCTYPE html><html><body><script>console.error("broken report")</script>'
                   f'<svg width="400" height="200"><rect x="10" y="10" width="300" height="150" fill="{C_BG}"/>'
                   f'</svg></body></html>', encoding="utf-8")
    run = report_chromium.render(bad, tmp_path / "bad.png")
    assert any("broken report" in m for m in run["console"])
    found = painted_charts(tmp_path / "bad.png")
    assert found["background"] > 2000 and found["points"] == 0


TYPE = """
var box = document.getElementById("filter");
box.value = %s;
box.dispatchEvent(new Event("input", {bubbles: true}));
"""


def _visible(dom: str) -> dict:
    """What a reader sees after the filter ran: statement rows per group, groups, index rows."""
    page = html_tree.parse(dom)

    def shown(n):
        return "hidden" not in n.attrs and not any("hidden" in a.attrs for a in n.ancestors())
    groups = [n for n in page.iter() if "group" in n.classes and n.tag in ("section", "details")]
    return {
        "groups": {g.attrs["id"] for g in groups if shown(g)},
        "rows": {(g.attrs["id"], r.find_all("td")[0].text()) for g in groups for r in g.find_all("tr")
                 if "data-search" in r.attrs and shown(r)},
        "index": {r.attrs["data-group"] for r in page.find_all("tr", cls="grow") if shown(r)},
        "open": {g.attrs["id"] for g in groups if g.tag == "details" and "open" in g.attrs},
    }


def _expected(model: dict, term: str) -> set:
    """(group, statement) whose key, conditions (model, hardware, ...) or files contain ``term``."""
    term = term.lower()
    out = set()
    for g in model["groups"]:
        key = " ".join(v for v in g["key"].values() if v).lower()
        for s in g["statements"]:
            conds = {**((s["borrowed"] or {}).get("conditions") or {}), **(s["conditions"] or {})}
            text = " ".join([key, s["surface"], *conds.values(), *s["setup"].values(),
                             *(f["path"] for f in s["figures"])]).lower()
            if term in text:
                out.add((g["id"], s["id"]))
    return out


@needs_chromium
def test_typing_in_the_filter_hides_rows(tmp_path):
    """In a real browser: the page's script runs without a console message, and typing a
    file name, a hardware or a model keeps exactly the rows (and groups, and index rows)
    that match; clearing the box shows everything again."""
    import json
    model = json.loads((EXAMPLE_HTML.parent / "report.json").read_text(encoding="utf-8"))
    html = tmp_path / "report.html"
    html.write_text(EXAMPLE_HTML.read_text(encoding="utf-8"), encoding="utf-8")
    everything = _visible(report_chromium.dump_dom(html)["dom"])
    all_rows = {(g["id"], s["id"]) for g in model["groups"] for s in g["statements"]}
    assert everything["rows"] == all_rows and everything["open"] == set()
    terms = ["serving-weekly", "H200", "qwen2.5"]
    for term in terms:
        run = report_chromium.dump_dom(html, TYPE % json.dumps(term))
        assert run["returncode"] == 0 and run["console"] == [], run["log"][-2000:]
        seen = _visible(run["dom"])
        want = _expected(model, term)
        assert want and want != all_rows, f"{term!r} does not split the example corpus"
        assert seen["rows"] == want, term
        assert seen["groups"] == seen["index"] == {g for g, _ in want}, term
        collapsed = {g["id"] for g in model["groups"] if not g["contradictions"]}
        assert seen["open"] == collapsed & seen["groups"]          # a matching collapsed group opens
    cleared = report_chromium.dump_dom(html, TYPE % json.dumps("H200") + TYPE % json.dumps(""))
    assert _visible(cleared["dom"]) == everything
