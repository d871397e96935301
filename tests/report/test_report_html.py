"""What the HTML report shows a reviewer, asserted on the page itself (parsed, not matched
as text) against the report.json of the same run: one chart per group with contradictions,
one value axis with the unit and 1-2-5 ticks, one join per contradicting statement pair,
a time axis only when the dates differ, groups without contradictions collapsed, groups
ordered by figures in conflict, and every link resolving to the file and line it names."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from urllib.parse import unquote

import html_tree
from click.testing import CliRunner

from validator.report_cmd import report_command

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "tests" / "data" / "briefing-corpus"
SETUP = "on H100 with Llama 3.1 8B (ShareGPT)"


def _write(root, name, text):
    p = root / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def one_date_corpus(root: Path) -> Path:
    """Files of one date: SGLang stated three ways (each twice: 12 figure pairs, 3 statement
    pairs), TGI two ways once each, vLLM on two kinds of hardware (only not comparable)."""
    for i in (1, 2):
        for tag, v in (("a", "16,200"), ("b", "12,500"), ("c", "9,800")):
            _write(root, f"notes/2026-03-01-{tag}{i}.md", f"# Note\n\nSGLang reaches {v} tok/s {SETUP}.\n")
    _write(root, "notes/2026-03-01-t1.md", f"# TGI\n\nTGI reaches 2,400 tok/s {SETUP}.\n")
    _write(root, "notes/2026-03-01-t2.md", f"# TGI\n\nTGI reaches 2,000 tok/s {SETUP}.\n")
    _write(root, "notes/2026-03-01-v1.md", "# vLLM\n\nvLLM reaches 3,000 tok/s on H100 with Llama 3.1 8B (ShareGPT).\n")
    _write(root, "notes/2026-03-01-v2.md", "# vLLM\n\nvLLM reaches 1,800 tok/s on A100 with Llama 3.1 8B (ShareGPT).\n")
    return root


def run_report(corpora, out: Path) -> tuple:
    res = CliRunner().invoke(report_command, [*map(str, corpora), "--out", str(out), "--no-ledger"])
    assert res.exit_code == 0, res.output
    page = html_tree.parse((out / "report.html").read_text(encoding="utf-8"))
    model = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return page, model


def group_nodes(page) -> dict:
    return {n.attrs["id"]: n for n in page.iter() if "group" in n.classes and n.tag in ("section", "details")}


def contradicting_pairs(g) -> set:
    return {frozenset((p["a"], p["b"])) for p in g["pairs"] if p["status"] == "contradict"}


def test_each_contradicting_group_has_one_chart_with_one_value_axis(tmp_path):
    page, model = run_report([one_date_corpus(tmp_path / "c")], tmp_path / "out")
    nodes = group_nodes(page)
    assert [g["id"] for g in model["groups"]] == list(nodes)
    for g in model["groups"]:
        charts = nodes[g["id"]].find_all("svg", cls="chart")
        if not g["contradictions"]:
            continue
        (svg,) = charts
        (axis,) = svg.find_all("g", cls="value")          # ONE value axis
        unit = g["statements"][0]["unit"]
        assert axis.attrs["data-unit"] == unit and unit in axis.find_all(cls="unit")[0].text()
        ticks = [float(t.text().replace(",", "")) for t in axis.find_all("text", cls="tick")]
        steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:])}
        assert len(ticks) >= 3 and len(steps) == 1, ticks          # evenly spaced
        (step,) = steps
        mantissa = step / 10 ** math.floor(math.log10(step))
        assert round(mantissa, 6) in (1, 2, 5), ticks             # 1-2-5 steps, no odd ticks
        assert all(abs(t / step - round(t / step)) < 1e-6 for t in ticks)
        lows = [s["admits"][0] for s in g["statements"]]
        highs = [s["admits"][1] for s in g["statements"]]
        assert ticks[0] <= min(lows) and ticks[-1] >= max(highs)  # every interval on the axis
        # one bar per distinct statement, not per figure
        assert len(svg.find_all("g", cls="stmt")) == len(g["statements"])


def test_one_join_per_contradicting_statement_pair(tmp_path):
    page, model = run_report([one_date_corpus(tmp_path / "c")], tmp_path / "out")
    nodes = group_nodes(page)
    sglang = next(g for g in model["groups"] if g["key"]["subject"] == "sglang")
    assert sglang["contradictions"] == 12 and len(contradicting_pairs(sglang)) == 3   # figure vs statement pairs
    for g in model["groups"]:
        if not g["contradictions"]:
            continue
        joins = [frozenset((j.attrs["data-a"], j.attrs["data-b"])) for j in nodes[g["id"]].find_all(cls="join")]
        assert len(joins) == len(set(joins)), "a statement pair joined twice"
        assert set(joins) == contradicting_pairs(g)


def test_no_time_axis_when_every_statement_has_one_date(tmp_path):
    page, model = run_report([one_date_corpus(tmp_path / "c")], tmp_path / "out")
    assert {f["date"] for g in model["groups"] for s in g["statements"] for f in s["figures"]} == {"2026-03-01"}
    charts = page.find_all("svg", cls="chart")
    assert charts and not any(c.find_all("g", cls="time") for c in charts)
    # nothing is newer than anything else: no statement is highlighted as the newest
    assert not any(s["newest"] for g in model["groups"] for s in g["statements"])
    assert not page.find_all(cls="newest")


def test_time_axis_and_newest_when_dates_differ(tmp_path):
    page, model = run_report([EXAMPLE], tmp_path / "out")
    nodes = group_nodes(page)
    for g in model["groups"]:
        if not g["contradictions"]:
            continue
        dates = {d for s in g["statements"] for d in (s["first_date"], s["last_date"])}
        svg = nodes[g["id"]].find_all("svg", cls="chart")[0]
        assert bool(svg.find_all("g", cls="time")) == (len(dates) > 1)
        newest = [s["id"] for s in g["statements"] if s["newest"]]
        latest = max(s["last_date"] for s in g["statements"])
        assert all(s["last_date"] == latest for s in g["statements"] if s["newest"])
        assert [n.attrs["data-id"] for n in svg.find_all(cls="newest")] == newest
    assert any(s["newest"] for g in model["groups"] for s in g["statements"])


def test_groups_without_contradictions_are_collapsed_and_ordered_last(tmp_path):
    page, model = run_report([one_date_corpus(tmp_path / "c")], tmp_path / "out")
    nodes = group_nodes(page)
    assert any(not g["contradictions"] for g in model["groups"])
    for g in model["groups"]:
        node = nodes[g["id"]]
        if g["contradictions"]:
            assert node.tag == "section" and len(node.find_all("svg")) == 1
        else:
            assert node.tag == "details" and "open" not in node.attrs and not node.find_all("svg")
            (summary,) = node.find_all("summary")
            assert g["key"]["subject"] in summary.text() and "\n" not in summary.text().strip()
    # most figures in conflict first; each count is what the statements say
    for g in model["groups"]:
        assert g["conflict_figures"] == sum(s["n_figures"] for s in g["statements"] if s["contradicts"])
    counts = [g["conflict_figures"] for g in model["groups"]]
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[1] > 0 == counts[-1]
    # the Markdown follows the same model: same order, the quiet group collapsed
    md = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    heads = re.findall(r"^## (G\d+)$|^<details id=\"(g\d+)\">", md, re.M)
    assert [a or b.upper() for a, b in heads] == [g["id"] for g in model["groups"]]


def _resolve(out: Path, href: str) -> tuple:
    path, _, frag = href.partition("#")
    assert not re.match(r"^[a-z]+:|^/", path), f"not a relative link: {href}"
    return (out / unquote(path)).resolve(), int(frag[1:]) if frag.startswith("L") else None


def test_every_figure_links_to_its_file_and_line(tmp_path):
    """Links relative to the report folder: they resolve to the corpus file, and the line
    they name states the figure."""
    out = tmp_path / "reports" / "example"
    page, model = run_report([EXAMPLE], out)
    linked = {}
    for a in page.find_all("a"):
        href = a.attrs.get("href", "")
        if href.startswith("#"):
            continue
        f, line = _resolve(out, href)
        assert f.is_file() and EXAMPLE.resolve() in f.parents, href
        linked[(f, line)] = a
    figures = [(s, f) for g in model["groups"] for s in g["statements"] for f in s["figures"]]
    for s, fig in figures:
        target = (EXAMPLE / fig["path"]).resolve()
        assert (target, fig["line"]) in linked, f"{fig['path']}:{fig['line']} not linked"
        text = target.read_text(encoding="utf-8").splitlines()[fig["line"] - 1]
        assert fig["surface"] in text
    for u in model["unverified"]:
        assert ((EXAMPLE / u["path"]).resolve(), u["line"]) in linked
    # the Markdown's links resolve the same way
    md = (out / "report.md").read_text(encoding="utf-8")
    hrefs = re.findall(r"\]\(<([^>]+)>\)", md)
    assert hrefs and all(_resolve(out, h)[0].is_file() for h in hrefs)


def test_links_of_several_corpora(tmp_path):
    a, b = one_date_corpus(tmp_path / "a"), tmp_path / "b"
    _write(b, "notes/2026-04-01-x.md", f"# X\n\nTGI reaches 3,900 tok/s {SETUP}.\n")
    out = tmp_path / "out"
    page, model = run_report([a, b], out)
    files = {_resolve(out, x.attrs["href"])[0] for x in page.find_all("a") if not x.attrs["href"].startswith("#")}
    assert (b / "notes/2026-04-01-x.md").resolve() in files
    assert all(f.is_file() for f in files)


def test_committed_example_links_resolve_from_its_folder():
    sample = REPO / "reports" / "example"
    page = html_tree.parse((sample / "report.html").read_text(encoding="utf-8"))
    hrefs = [a.attrs["href"] for a in page.find_all("a") if not a.attrs["href"].startswith("#")]
    assert hrefs and all(_resolve(sample, h)[0].is_file() for h in hrefs)


def test_filter_box_and_searchable_rows(tmp_path):
    """The filter's data: every statement row and group carries the text it is found by
    (key, system, model, hardware, file)."""
    page, model = run_report([EXAMPLE], tmp_path / "out")
    (box,) = page.find_all("input", id="filter")
    rows = [r for r in page.find_all("tr") if "data-search" in r.attrs and "grow" not in r.classes]
    assert len(rows) == sum(g["n_statements"] for g in model["groups"])
    text = " ".join(r.attrs["data-search"] for r in rows)
    for g in model["groups"]:
        for s in g["statements"]:
            for facet in ("model", "hardware"):
                v = (s["conditions"] or (s["borrowed"] or {}).get("conditions") or {}).get(facet)
                if v:
                    assert v.lower() in text
            assert all(f["path"].lower() in text for f in s["figures"])
