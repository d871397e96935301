"""Rule case files: ``tests/rules/cases/<CODE>.yaml``, one per rule, run through the whole
pipeline (claims -> facts -> engine -> findings).

A case file::

    code: CV101
    cases:
      - name: lead without conditions          # unique within the file
        text: |                                # the briefing (zh or en Markdown)
          ...
        path: briefings/b.md                   # optional: where the briefing sits (default b.md)
        corpus:                                # optional: other files; when given, the folder
          inbox/amy/digest.md: |               #   holding everything is the --corpus root
            ...
        findings:                              # expected findings of THIS code, exactly:
          - {line: 2}                          #   line (1-based), optional surface (substring),
          - {line: 5, surface: "35%", acknowledged: false}   # optional acknowledged,
          - {line: 7, message: "knowledge/a.md:3"}          # severity, message (substring),
          - {line: 9, not_message: "line 4"}                 #   not_message (absent substring)
      - name: near miss — conditions stated
        text: ...
        findings: []                           # a near miss: no finding of this code at all

Every built-in rule must have a case file with at least one case that finds something
and at least one near miss that must pass.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from validator import packs
from validator.options import Options
from validator.rule_docs import write_case
from validator.run import check_paths
from validator.safe_yaml import load_file

CASES_DIR = Path(__file__).parent / "cases"
CASE_KEYS = {"name", "text", "path", "corpus", "findings", "lang", "about"}
EXPECT_KEYS = {"line", "surface", "acknowledged", "severity", "message", "not_message"}


def _load_case_files():
    out = []
    for f in sorted(CASES_DIR.glob("*.yaml")):
        data = load_file(f)
        assert isinstance(data, dict) and data.get("code") == f.stem, f"{f}: code must equal file name"
        names = set()
        for case in data.get("cases") or []:
            unknown = set(case) - CASE_KEYS
            assert not unknown, f"{f}: unknown case keys {unknown}"
            assert case["name"] not in names, f"{f}: duplicate case name {case['name']!r}"
            names.add(case["name"])
            for exp in case.get("findings") or []:
                assert set(exp) <= EXPECT_KEYS and "line" in exp, f"{f}: bad expectation {exp}"
            out.append(pytest.param(data["code"], case, id=f"{data['code']}:{case['name']}"))
    return out


CASES = _load_case_files()


def run_case(tmp_path: Path, code: str, case: dict):
    root = tmp_path / "corpus"
    doc = write_case(root, case)
    # a preview rule's cases run it with preview on (they are what earns it a default place)
    opts = Options(select=[code], corpus=[str(root)] if case.get("corpus") else [],
                   lang=case.get("lang"), preview=True)
    result = check_paths([str(doc)], opts)
    assert result.errors == [], result.errors
    return [f for f in result.findings if f.code == code and Path(f.path) == doc]


@pytest.mark.parametrize("code,case", CASES)
def test_case(tmp_path, code, case):
    got = run_case(tmp_path, code, case)
    want = case.get("findings") or []
    shown = [(f.line, f.surface, f.acknowledged, f.message) for f in got]
    unmatched = list(got)
    for exp in want:
        hit = next((f for f in unmatched if f.line == exp["line"]
                    and exp.get("surface", "") in f.surface
                    and ("acknowledged" not in exp or f.acknowledged == exp["acknowledged"])
                    and ("severity" not in exp or f.severity == exp["severity"])
                    and exp.get("message", "") in f.message
                    and ("not_message" not in exp or exp["not_message"] not in f.message)), None)
        assert hit is not None, f"expected {code} {exp}, got {shown}"
        assert hit.message and hit.surface in case["text"]
        unmatched.remove(hit)
    assert not unmatched, f"unexpected {code} findings: {[(f.line, f.surface, f.message) for f in unmatched]}"


def test_every_builtin_rule_has_cases_that_fire_and_near_misses_that_pass():
    by_code = {}
    for p in CASES:
        code, case = p.values
        by_code.setdefault(code, []).append(case)
    missing = []
    for rule in packs.load_all():
        cases = by_code.get(rule.code, [])
        if not any(c.get("findings") for c in cases) or not any(not c.get("findings") for c in cases):
            missing.append(rule.code)
    assert not missing, f"rules without a firing case and a near miss: {missing}"
