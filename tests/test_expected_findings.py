"""The example corpus scores perfectly: every `must` of expected.yaml is found and no
`must_not` is violated, when both briefings are checked with the corpus folder as
--corpus (the issue's acceptance check, run in-process).

The scorer is tests/tools/score_findings.py, a copy of ../shared/tools/score_findings.py
so that the test runs from a fresh clone."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import yaml

from validator.options import Options
from validator.run import check_paths

HERE = Path(__file__).parent
CORPUS = HERE / "data" / "briefing-corpus"


def _scorer():
    spec = importlib.util.spec_from_file_location("score_findings", HERE / "tools" / "score_findings.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_example_corpus_scores_every_must_and_no_must_not():
    result = check_paths([str(CORPUS / "briefings")], Options(corpus=[str(CORPUS)]))
    assert result.errors == []
    assert len(result.analyses) == 2
    findings = [f.to_dict() for f in result.findings]
    expected = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))
    problems = []
    must_found, must_total, viol, nm_total = _scorer().score_findings(expected, findings, problems.append)
    assert must_total > 0 and nm_total > 0
    assert (must_found, viol) == (must_total, 0), "\n".join(problems)


def test_findings_speak_the_briefings_language():
    result = check_paths([str(CORPUS / "briefings")], Options(corpus=[str(CORPUS)]))
    for f in result.findings:
        zh = any("\u4e00" <= ch <= "\u9fff" for ch in f.message)
        assert zh == f.path.endswith("2026-11-02-inference.md"), (f.path, f.message)
