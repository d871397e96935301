"""The sample report kept under reports/example is what `caveat report` produces today
from the bundled example corpus; a stale sample fails here."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from click.testing import CliRunner

from validator.report_cmd import report_command

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "tests" / "data" / "briefing-corpus"
SAMPLE = REPO / "reports" / "example"
REGEN = "caveat report tests/data/briefing-corpus --out reports/example"


def test_sample_report_is_current(tmp_path):
    """Regenerated from a copy of the corpus laid out as in the repository, so the links
    (relative to the report folder) come out the same."""
    import shutil
    corpus = tmp_path / EXAMPLE.relative_to(REPO)
    shutil.copytree(EXAMPLE, corpus)
    out = tmp_path / SAMPLE.relative_to(REPO)
    res = CliRunner().invoke(report_command, [str(corpus), "--out", str(out), "--no-ledger"])
    assert res.exit_code == 0, res.output
    for name in ("report.md", "report.html", "report.json"):
        fresh = (out / name).read_text(encoding="utf-8")
        kept = (SAMPLE / name).read_text(encoding="utf-8") if (SAMPLE / name).exists() else None
        assert fresh == kept, f"reports/example/{name} is stale; regenerate it with `{REGEN}`"


def test_sample_report_shows_the_known_cross_document_contradiction():
    """expected.yaml: the briefing's EAGLE-3 3.1x contradicts the 2.4x of the digest it cites."""
    model = json.loads((SAMPLE / "report.json").read_text(encoding="utf-8"))
    hits = []
    for g in model["groups"]:
        sts = {s["id"]: s for s in g["statements"]}
        for p in g["pairs"]:
            if p["status"] == "contradict":
                a, b = sts[p["a"]], sts[p["b"]]
                paths = {f["path"] for s in (a, b) for f in s["figures"]}
                surfaces = {a["surface"], b["surface"]}
                if "briefings/2026-11-02-inference.md" in paths and any("3.1" in s for s in surfaces) \
                        and any("2.4" in s for s in surfaces):
                    hits.append(p)
    assert hits, "no 3.1x vs 2.4x contradiction in the sample report"
    assert model["summary"]["files"] == 5 and model["summary"]["contradictions"] >= 1


def test_sample_report_follows_its_schema():
    """report.json is documented by validator/schemas/report.schema.json; a report that
    drifts from it (a renamed field, a count that is not an integer) fails here."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((REPO / "validator" / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    model = json.loads((SAMPLE / "report.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(model)
    bad = json.loads(json.dumps(model))
    bad["groups"][0]["statements"][0]["n_figures"] = "2"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(bad)
