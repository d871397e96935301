"""The outputs a CI or an editor consumes: JSON against its published schema, JUnit XML as
CI test reporters read it, SARIF fingerprints and paths, --output-file, --quiet,
--statistics, `caveat schema`, `caveat --version`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from cli_support import as_json, write

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "data" / "briefing-corpus"
TEXT = ("# Brief\n\nSGLang is 29% faster than vLLM.\nSpecInfr reached 2.8× speed-up.\n"
        'SpecInfr <!-- caveat: ignore CV601 reason="vendor spelling" -->\n'
        "The 2.8× lead (disclosed).\n")


def schema(name):
    from validator import schemas
    return json.loads(schemas.text(name))


def validate(doc, name):
    jsonschema.Draft202012Validator(schema(name), format_checker=jsonschema.FormatChecker()).validate(doc)


@pytest.fixture(scope="module")
def example_json():
    """The real pipeline on the example corpus, one missing file among the paths."""
    r = subprocess.run([sys.executable, "-m", "validator.cli", "check", "--corpus", str(CORPUS.relative_to(REPO)),
                        str((CORPUS / "briefings").relative_to(REPO)), "missing.md", "--format", "json"],
                       cwd=REPO, capture_output=True, text=True, env=dict(os.environ, CAVEAT_LEDGER="off"))
    assert r.returncode == 2, r.stderr
    return json.loads(r.stdout)


def test_schemas_are_valid_json_schemas():
    from validator import schemas
    assert {"json", "report"} <= set(schemas.names())
    for name in schemas.names():
        jsonschema.Draft202012Validator.check_schema(schema(name))


def test_json_output_of_the_example_corpus_follows_its_schema(example_json):
    doc = example_json
    validate(doc, "json")
    assert doc["schema_version"] == schema("json")["properties"]["schema_version"]["const"]
    assert doc["errors"] == [{"path": "missing.md", "line": None, "message": "no such file or directory",
                              "text": "missing.md: no such file or directory"}]
    assert doc["summary"]["passed"] is False and doc["summary"]["input_errors"] == 1
    # every path relative to the working directory, evidence from the corpus too
    paths = [f["path"] for f in doc["findings"]] + [e["path"] for f in doc["findings"] for e in f["evidence"]]
    assert paths and not [p for p in paths if os.path.isabs(p)]
    assert not [f for f in doc["findings"] if str(REPO) in f["message"]]
    assert sum(doc["summary"]["by_code"].values()) == doc["summary"]["findings"]


def test_the_schema_check_can_fail(example_json):
    bad = json.loads(json.dumps(example_json))
    bad["findings"][0]["severity"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        validate(bad, "json")
    bad = dict(example_json, errors=["a plain string"])
    with pytest.raises(jsonschema.ValidationError):
        validate(bad, "json")


def test_report_json_follows_its_schema():
    validate(json.loads((REPO / "reports" / "example" / "report.json").read_text(encoding="utf-8")), "report")


def test_schema_command_serves_every_schema_file(run):
    from validator import schemas
    assert run("schema").stdout.split() == schemas.names()
    for name in ("json", "report"):
        r = run("schema", name)
        assert r.exit_code == 0 and json.loads(r.stdout) == schema(name)
    r = run("schema", "jsn")
    assert r.exit_code == 2 and "did you mean 'json'?" in r.stderr


def test_junit_output_is_read_by_a_junit_parser(fake, ws, run):
    junitparser = pytest.importorskip("junitparser")
    write(ws / "a.md", TEXT)
    write(ws / "clean.md", "# Fine\n\nNothing to see.\n")
    (ws / "bin.md").write_bytes(b"\0\0")
    r = run("check", "a.md", "clean.md", "bin.md", "--format", "junit", "-o", "report.xml")
    assert r.exit_code == 2 and r.stdout == ""
    xml = junitparser.JUnitXml.fromfile(str(ws / "report.xml"))
    (suite,) = list(xml)
    cases = {c.name: c for c in suite}
    assert set(cases) == {"a.md", "clean.md", "bin.md"}
    assert suite.tests == 3 and suite.failures == 1 and suite.errors == 1
    assert cases["clean.md"].is_passed
    failed = cases["a.md"].result
    # a failure per finding that fails the gate: not the suppressed one, not the acknowledged one
    assert sorted(f.type for f in failed) == ["CV101", "CV301", "CV601"]
    assert all(f.message.startswith("a.md:") for f in failed)
    assert "[acknowledged]" in cases["a.md"].system_out
    assert cases["bin.md"].result[0].message.startswith("bin.md:1: binary file")


def test_sarif_fingerprints_are_unique_and_paths_relative_to_the_repository(tmp_path):
    # the same figure contradicted on two lines (3.1× on lines 2 and 12) is two alerts
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    import shutil
    shutil.copytree(CORPUS, root / "corpus")
    r = subprocess.run([sys.executable, "-m", "validator.cli", "check", "--corpus", "..", "briefings",
                        "--format", "sarif"], cwd=root / "corpus", capture_output=True, text=True,
                       env=dict(os.environ, CAVEAT_LEDGER="off", PYTHONPATH=str(REPO)))
    sarif = json.loads(r.stdout)
    (run_,) = sarif["runs"]
    results = run_["results"]
    fps = [res["partialFingerprints"]["caveatFingerprint/v1"] for res in results]
    assert len(fps) == len(set(fps)) == len(results) > 20
    cv301 = [res for res in results if res["ruleId"] == "CV301"]
    assert len(cv301) == 2 and cv301[0]["partialFingerprints"] != cv301[1]["partialFingerprints"]
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == root.as_uri() + "/"
    uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for res in results}
    assert uris == {"corpus/briefings/2026-11-02-inference.md", "corpus/briefings/2026-11-03-serving-weekly.md"}


def test_output_file_quiet_and_statistics(fake, ws, run):
    write(ws / "a.md", TEXT)
    r = run("check", "a.md", "--output-file", "out.txt")
    assert r.exit_code == 1 and r.stdout == ""
    assert (ws / "out.txt").read_text(encoding="utf-8").startswith("a.md:3:11: CV101 29% is suspicious\n")
    q = run("check", "a.md", "--quiet")
    lines = q.stdout.splitlines()
    assert q.exit_code == 1 and len(lines) == 3                 # no summary, no acknowledged line
    assert not [ln for ln in lines if "acknowledged" in ln or "gate" in ln]
    s = run("check", "a.md", "--statistics")
    rows = s.stdout.splitlines()
    assert rows[0].split()[:3] == ["2", "CV301", "warning"] and rows[0].endswith("(1 acknowledged)")
    assert [r_.split()[1] for r_ in rows[:-1]] == ["CV301", "CV101", "CV601"]
    assert rows[-1].startswith("4 findings")
    bad = run("check", "a.md", "--statistics", "--format", "json")
    assert bad.exit_code == 2 and "--statistics" in bad.stderr
    unwritable = run("check", "a.md", "-o", str(ws / "no" / "such" / "dir" / "x.txt"))
    assert unwritable.exit_code == 2 and "cannot write the output file" in unwritable.stderr


def test_version_names_the_rule_engine(run, monkeypatch):
    from validator import engine
    r = run("--version")
    assert r.exit_code == 0 and r.stdout.startswith("caveat, version ")
    want = "durable_rules" if engine._de is not None else "caveat's own when: evaluator"
    assert f"rule engine: {want}" in r.stdout
    r = run("--version", env={"CAVEAT_ENGINE": "python"})
    assert "rule engine: caveat's own when: evaluator (CAVEAT_ENGINE=python)" in r.stdout or engine._de is None


def test_json_document_findings_have_documented_keys(fake, ws, run):
    write(ws / "a.md", TEXT)
    doc = as_json(run("check", "a.md", "--format", "json"))
    validate(doc, "json")


def test_messages_are_one_line_when_the_document_breaks_a_name_over_lines(tmp_path):
    """A table cell holding '8×' and 'H100' on two lines: the message quoting it is one line
    (every format prints a finding on one line)."""
    from validator.options import Options
    from validator.run import check_paths
    p = tmp_path / "b.md"
    p.write_text("inference · 日间简报(2026-11-02)\n一、增量（1 条）\n增量 1 · 吞吐\n"
                 "要点：P99 延迟下降 38%，吞吐提升 29%\n| h0 |\n|---|\n| 8×\nH100 |\n", encoding="utf-8")
    res = check_paths([str(p)], Options())
    assert res.findings and all("\n" not in f.message and "\n" not in f.help for f in res.findings)
    assert any("8× H100" in f.message for f in res.findings)
