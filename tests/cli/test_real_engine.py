"""The command line over the real engine and reader, as a user runs it (subprocess)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "data", "briefing-corpus")
BRIEFINGS = os.path.join(CORPUS, "briefings")
ONE = os.path.join(BRIEFINGS, "2026-11-02-inference.md")


def caveat(*args, cwd=None, env=None):
    code = "import sys; from validator.cli import main; sys.argv[0] = 'caveat'; main()"
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e.pop("GITHUB_STEP_SUMMARY", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          encoding="utf-8", cwd=cwd or ROOT, env=e, timeout=120)


def test_cli_import_stays_light():
    """`caveat --help` and the import of the CLI must not pay for the engine or pint."""
    code = ("import sys, validator.cli; heavy = [m for m in ('pint', 'durable', 'cn2an', "
            "'markdown_it', 'rapidfuzz', 'yaml', 'claims.api', 'validator.run') if m in sys.modules]; "
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_check_example_briefings_json_is_consistent():
    r = caveat("check", "--corpus", CORPUS, BRIEFINGS, "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    assert "Traceback" not in r.stderr
    doc = json.loads(r.stdout)
    s = doc["summary"]
    assert s["findings"] == len(doc["findings"])
    assert r.returncode == (1 if s["failing"] else 0)
    for f in doc["findings"]:
        assert f["code"].startswith("CV") and f["severity"] in ("error", "warning", "info")
        assert len(f["fingerprint"]) == 16


def test_plain_text_matches_json_findings():
    j = json.loads(caveat("check", "--corpus", CORPUS, BRIEFINGS, "--format", "json").stdout)
    t = caveat("check", "--corpus", CORPUS, BRIEFINGS).stdout.splitlines()
    assert len(t) == len(j["findings"]) + 1
    for f, line in zip(j["findings"], t):
        assert line.startswith(f"{f['path']}:{f['line']}:{f['col']}: {f['code']} ")
    assert "\x1b[" not in "".join(t)


def test_real_bad_file_keeps_the_others(tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"\xff\xfe\x00\x00garbage\x00")
    r = caveat("check", ONE, str(bad), "--format", "json")
    assert r.returncode == 2
    doc = json.loads(r.stdout)
    assert doc["errors"] and doc["errors"][0]["path"] == str(bad) and doc["errors"][0]["line"] == 1
    assert doc["errors"][0]["message"].startswith("binary file")
    err = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith(f"caveat: {bad}")
    assert "Traceback" not in r.stderr


def test_write_baseline_then_pass_on_the_real_engine(tmp_path):
    base = tmp_path / "baseline.json"
    r = caveat("check", ONE, "--write-baseline", str(base))
    assert r.returncode == 0, r.stderr
    r = caveat("check", ONE, "--baseline", str(base))
    assert r.returncode == 0, r.stdout + r.stderr


def test_sarif_on_the_real_engine_has_rule_for_every_result():
    r = caveat("check", "--corpus", CORPUS, BRIEFINGS, "--format", "sarif")
    run = json.loads(r.stdout)["runs"][0]
    ids = {rule["id"] for rule in run["tool"]["driver"]["rules"]}
    assert all(res["ruleId"] in ids for res in run["results"])
    assert all(not res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("/")
               for res in run["results"])


def test_extract_jsonl_offsets_and_table():
    pytest.importorskip("claims.api")
    r = caveat("extract", ONE)
    assert r.returncode == 0, r.stderr
    text = open(ONE, encoding="utf-8-sig").read()
    rows = [json.loads(ln) for ln in r.stdout.splitlines()]
    assert rows
    for row in rows:
        assert text[row["start"]:row["end"]] == row["surface"]
        assert {"path", "line", "col", "kind", "base_value", "unit", "conditions"} <= set(row)
    t = caveat("extract", ONE, "--format", "table")
    assert t.returncode == 0
    lines = t.stdout.splitlines()
    assert lines[0].split()[:3] == ["LOCATION", "KIND", "SURFACE"]
    assert lines[-1] == f"{len(rows)} claims"


def test_extract_bad_file_exits_2_and_goes_on(tmp_path):
    pytest.importorskip("claims.api")
    good = tmp_path / "good.md"
    good.write_text("SGLang is 29% faster.\n", encoding="utf-8")
    r = caveat("extract", str(tmp_path / "missing.md"), str(good))
    assert r.returncode == 2
    assert any(json.loads(ln)["surface"] == "29%" for ln in r.stdout.splitlines())
    assert r.stderr.startswith("caveat: ") and "missing.md" in r.stderr and "Traceback" not in r.stderr


def test_lazy_commands_are_listed_when_their_modules_exist():
    from validator.cli import LAZY_COMMANDS, _module_exists
    r = caveat("--help")
    for name, (mod, _) in LAZY_COMMANDS.items():
        listed = any(ln.strip().startswith(name + " ") for ln in r.stdout.splitlines())
        assert listed == _module_exists(mod), name


def test_config_max_file_size_rejects_a_larger_file(tmp_path):
    (tmp_path / ".caveat.yaml").write_text("max-file-size: 100\n", encoding="utf-8")
    (tmp_path / "big.md").write_text("SGLang is 29% faster.\n" * 20, encoding="utf-8")
    (tmp_path / "small.md").write_text("tiny\n", encoding="utf-8")
    r = caveat("check", "big.md", "small.md", cwd=str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.startswith("caveat: big.md") and "too large" in r.stderr
