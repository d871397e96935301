"""The sample report kept under reports/example is what `caveat report` produces today
from the bundled example corpus; a stale sample fails here."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from validator.report_cmd import report_command

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "tests" / "data" / "briefing-corpus"
SAMPLE = REPO / "reports" / "example"
REGEN = "caveat report tests/data/briefing-corpus --out reports/example"


def test_sample_report_is_current(tmp_path):
    res = CliRunner().invoke(report_command, [str(EXAMPLE), "--out", str(tmp_path), "--no-ledger"])
    assert res.exit_code == 0, res.output
    for name in ("report.md", "report.html", "report.json"):
        fresh = (tmp_path / name).read_text(encoding="utf-8")
        kept = (SAMPLE / name).read_text(encoding="utf-8") if (SAMPLE / name).exists() else None
        assert fresh == kept, f"reports/example/{name} is stale; regenerate it with `{REGEN}`"


def test_sample_report_shows_the_known_cross_document_contradiction():
    """expected.yaml: the briefing's EAGLE-3 3.1x contradicts the 2.4x of the digest it cites."""
    model = json.loads((SAMPLE / "report.json").read_text(encoding="utf-8"))
    hits = []
    for g in model["groups"]:
        figs = {f["id"]: f for f in g["figures"]}
        for p in g["pairs"]:
            if p["status"] == "contradict":
                paths = {figs[p["a"]]["path"], figs[p["b"]]["path"]}
                surfaces = {figs[p["a"]]["surface"], figs[p["b"]]["surface"]}
                if "briefings/2026-11-02-inference.md" in paths and any("3.1" in s for s in surfaces) \
                        and any("2.4" in s for s in surfaces):
                    hits.append(p)
    assert hits, "no 3.1x vs 2.4x contradiction in the sample report"
    assert model["summary"]["files"] == 5 and model["summary"]["contradictions"] >= 1
