"""Output formats: plain text, JSON, SARIF 2.1.0 (schema subset), GitHub annotations."""
from __future__ import annotations

import json
import os
import re

import pytest

from cli_support import HERE, as_json, write

TEXT = ("# Brief\n\nSGLang is 29% faster than vLLM.\nSpecInfr reached 2.8× speed-up.\n"
        'SpecInfr <!-- caveat: ignore CV601 reason="vendor spelling" -->\n'
        "The 2.8× lead (disclosed).\n")


# ---------------------------------------------------------------- text

def test_plain_text_lines_and_summary(fake, ws, run):
    write(ws / "a.md", TEXT)
    r = run("check", "a.md")
    lines = r.stdout.splitlines()
    assert lines[:4] == [
        "a.md:3:11: CV101 29% is suspicious",
        "a.md:4:1: CV601 SpecInfr is suspicious",
        "a.md:4:18: CV301 2.8× is suspicious",
        "a.md:6:5: CV301 2.8× is suspicious [acknowledged]",
    ]
    assert len(lines) == 5
    assert re.match(r"4 findings \(1 error, 3 warnings, 0 info; 1 acknowledged, 1 suppressed\) in 1 file"
                    r" — gate failed: 3 at or above warning$", lines[4])
    assert "\x1b[" not in r.stdout


# ---------------------------------------------------------------- JSON

def test_json_document(fake, ws, run):
    write(ws / "a.md", TEXT)
    doc = as_json(run("check", "a.md", "--format", "json"))
    assert set(doc) == {"schema_version", "version", "findings", "suppressed", "summary", "errors"}
    f = doc["findings"][0]
    for key in ("code", "family", "severity", "path", "line", "col", "end_line", "end_col",
                "surface", "message", "evidence", "acknowledged", "fingerprint"):
        assert key in f
    assert f["evidence"][0] == {"path": "a.md", "line": 1, "surface": "first line", "col": 1, "note": "see"}
    s = doc["summary"]
    assert (s["findings"], s["errors"], s["warnings"], s["acknowledged"], s["suppressed"], s["passed"]) == \
        (4, 1, 3, 1, 1, False)
    assert doc["errors"] == []


# ---------------------------------------------------------------- SARIF

def _resolve(schema, root):
    if "$ref" in schema:
        node = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        return node
    return schema


def validate(inst, schema, root=None, where="$"):
    """The subset of JSON Schema our trimmed SARIF schema uses (no network, no dependency)."""
    root = root or schema
    schema = _resolve(schema, root)
    t = schema.get("type")
    types = {"object": dict, "array": list, "string": str, "boolean": bool}
    if t == "integer":
        assert isinstance(inst, int) and not isinstance(inst, bool), f"{where}: not an integer"
    elif t:
        assert isinstance(inst, types[t]), f"{where}: expected {t}, got {type(inst).__name__}"
    if "enum" in schema:
        assert inst in schema["enum"], f"{where}: {inst!r} not in {schema['enum']}"
    if "minimum" in schema:
        assert inst >= schema["minimum"], f"{where}: {inst} < {schema['minimum']}"
    if "minLength" in schema:
        assert len(inst) >= schema["minLength"], f"{where}: empty"
    if "pattern" in schema:
        assert re.search(schema["pattern"], inst), f"{where}: {inst!r} !~ {schema['pattern']}"
    if isinstance(inst, dict):
        for k in schema.get("required", ()):
            assert k in inst, f"{where}: missing {k}"
        assert len(inst) >= schema.get("minProperties", 0), f"{where}: too few properties"
        for k, v in inst.items():
            if k in schema.get("properties", {}):
                validate(v, schema["properties"][k], root, f"{where}.{k}")
            elif isinstance(schema.get("additionalProperties"), dict):
                validate(v, schema["additionalProperties"], root, f"{where}.{k}")
    if isinstance(inst, list):
        assert len(inst) >= schema.get("minItems", 0), f"{where}: too few items"
        for i, v in enumerate(inst):
            if "items" in schema:
                validate(v, schema["items"], root, f"{where}[{i}]")


def load_schema():
    with open(os.path.join(HERE, "sarif_subset_schema.json"), encoding="utf-8") as fh:
        return json.load(fh)


def test_sarif_validates_against_the_2_1_0_subset(fake, ws, run):
    write(ws / "docs" / "a.md", TEXT)
    r = run("check", "docs/a.md", "--format", "sarif")
    assert r.exit_code == 1
    sarif = json.loads(r.stdout)
    validate(sarif, load_schema())
    try:   # when jsonschema is around, it must agree that our schema accepts the document
        import jsonschema
        jsonschema.validate(sarif, load_schema())
    except ImportError:
        pass


def test_sarif_schema_check_can_fail():
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "caveat", "rules": []}},
            "results": [{"ruleId": "CV1", "message": {"text": "x"}, "partialFingerprints": {"a": "b"},
                         "locations": [{"physicalLocation": {"artifactLocation": {"uri": "/abs/a.md"},
                                                             "region": {"startLine": 0}}}]}]}]}
    with pytest.raises(AssertionError):
        validate(bad, load_schema())


def test_sarif_content(fake, ws, run):
    write(ws / "docs" / "a.md", TEXT)
    sarif = json.loads(run("check", "docs/a.md", "--format", "sarif").stdout)
    (run_,) = sarif["runs"]
    rule_ids = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    assert {"CV001", "CV002"} <= set(rule_ids)
    results = run_["results"]
    for res in results:
        assert rule_ids[res["ruleIndex"]] == res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "docs/a.md"
    first = results[0]
    assert first["ruleId"] == "CV101" and first["level"] == "warning"
    assert first["locations"][0]["physicalLocation"]["region"] == \
        {"startLine": 3, "startColumn": 11, "endLine": 3, "endColumn": 14}
    assert first["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 1
    by_state = {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]):
                r.get("suppressions") for r in results}
    assert by_state[("CV601", 5)][0]["kind"] == "inSource"
    assert by_state[("CV601", 5)][0]["justification"] == "vendor spelling"
    assert by_state[("CV301", 6)][0]["justification"].startswith("acknowledged")
    assert by_state[("CV601", 4)] is None


def test_sarif_fingerprints_survive_line_moves_and_path_spelling(fake, ws, run):
    write(ws / "a.md", "SpecInfr\n")
    fp1 = json.loads(run("check", "a.md", "--format", "sarif").stdout)["runs"][0]["results"][0]["partialFingerprints"]
    write(ws / "a.md", "\n\nintro\nSpecInfr\n")
    fp2 = json.loads(run("check", "./a.md", "--format", "sarif").stdout)["runs"][0]["results"][0]["partialFingerprints"]
    assert fp1 == fp2


# ---------------------------------------------------------------- GitHub

def test_github_annotation_escaping():
    from validator.render.github import annotation
    line = annotation("error", "50%\r\nmore", file="a,b:c.md", line=3, col=1, end_line=3,
                      end_col=4, title="CV101, x")
    assert line == "::error file=a%2Cb%3Ac.md,line=3,col=1,endLine=3,endColumn=4,title=CV101%2C x::50%25%0D%0Amore"


def test_github_errors_first_and_capped(fake, ws, run):
    body = "".join(f"29% line {i}\n" for i in range(15)) + "".join(f"SpecInfr {i}\n" for i in range(12)) \
        + "".join(f"约 5 倍 {i}\n" for i in range(3))
    write(ws / "a.md", body)
    r = run("check", "a.md", "--format", "github")
    assert r.exit_code == 1
    cmds = [ln for ln in r.stdout.splitlines() if ln.startswith("::")]
    kinds = [ln.split(" ", 1)[0] for ln in cmds]
    assert kinds == ["::error"] * 10 + ["::warning"] * 10 + ["::notice"] * 3
    assert "title=CV601::SpecInfr is suspicious — fix it" in cmds[0]
    assert "file=a.md,line=16,col=1,endLine=16,endColumn=9" in cmds[0]
    assert "7 more finding(s) not annotated" in r.stdout


def test_github_one_annotation_per_claim_and_total_cap():
    from validator.finding import Finding
    from validator.render.github import render
    fs = []
    for i in range(80):
        for code in ("CV301", "CV101"):   # two findings on each figure -> one annotation
            fs.append(Finding(code=code, family="x", severity=("error", "warning", "info")[i % 3],
                              path="a.md", line=i + 1, col=1, end_line=i + 1, end_col=4,
                              surface="29%", message=f"m{code}"))
    out, left = render(fs, [], "")
    cmds = [ln for ln in out.splitlines() if ln.startswith("::")]
    assert len(cmds) == 30 and left == 50
    assert "title=CV101%2C CV301" in cmds[0] or "title=CV301%2C CV101" in cmds[0]
    import validator.render.github as gh
    old = gh.PER_TYPE
    try:
        gh.PER_TYPE = 100
        out, left = render(fs, [], "")
        assert len([ln for ln in out.splitlines() if ln.startswith("::")]) == gh.TOTAL == 50
    finally:
        gh.PER_TYPE = old


def test_github_step_summary_gets_the_full_table(fake, ws, run, monkeypatch):
    body = "".join(f"SpecInfr {i}\n" for i in range(14)) + "29% | pipe (disclosed)\n"
    write(ws / "a.md", body)
    summary = ws / "summary.md"
    summary.write_text("earlier step\n")
    r = run("check", "a.md", "--format", "github", env={"GITHUB_STEP_SUMMARY": str(summary)})
    text = summary.read_text()
    assert text.startswith("earlier step\n")           # appended, not overwritten
    rows = [ln for ln in text.splitlines() if ln.startswith("| ") and "`CV" in ln]
    assert len(rows) == 15                              # all of them, beyond the 10-annotation cap
    assert any("acknowledged" in ln for ln in rows)
    assert r.stdout.count("::error") == 10


def test_github_input_errors_are_annotated_first(fake, ws, run):
    write(ws / "a.md", "SpecInfr\n")
    (ws / "b.md").write_bytes(b"\0\0")
    r = run("check", "a.md", "b.md", "--format", "github")
    assert r.exit_code == 2
    cmds = [ln for ln in r.stdout.splitlines() if ln.startswith("::")]
    assert cmds[0].startswith("::error file=b.md,title=caveat%3A input error::binary file")


def test_step_summary_stays_under_githubs_size_cap(monkeypatch):
    import validator.render.github as gh
    from validator.finding import Finding
    fs = [Finding(code="CV101", family="precondition", severity="warning", path="a.md", line=i,
                  col=1, end_line=i, end_col=3, surface="29%", message="m" * 200) for i in range(1, 200)]
    monkeypatch.setattr(gh, "SUMMARY_BYTES", 10_000)
    text = gh.step_summary(fs, [], "summary")
    assert len(text.encode()) < 11_000
    assert "more rows left out" in text
