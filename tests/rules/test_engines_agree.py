"""durable_rules and caveat's own evaluator of ``when:`` give identical findings.

Every case of every rule case file (tests/rules/cases/*.yaml) is checked with all rules
on (preview ones too), once per engine (``CAVEAT_ENGINE``), and the findings — code, place, message,
evidence, fingerprints, everything the renderers print — must be equal and in the same order. Where
durable_rules is not installed (CPython 3.13 and later) that half is skipped and the
evaluator's findings are still held to the case file's expectations by test_cases.py.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from validator import engine
from validator.options import Options
from validator.rule_docs import write_case
from validator.run import check_paths

from test_cases import CASES


def _write_case(tmp_path: Path, case: dict):
    root = tmp_path / "corpus"
    return root, write_case(root, case)


def _findings(root: Path, doc: Path, case: dict, which: str, monkeypatch) -> list:
    monkeypatch.setenv("CAVEAT_ENGINE", which)
    monkeypatch.setenv("CAVEAT_LEDGER", "off")
    result = check_paths([str(doc)], Options(corpus=[str(root)] if case.get("corpus") else [],
                                             lang=case.get("lang"), preview=True))
    assert result.errors == []
    return [f.to_dict() for f in result.findings]


@pytest.mark.skipif(engine._de is None, reason="durable_rules is not installed on this Python")
@pytest.mark.parametrize("code,case", CASES)
def test_both_engines_give_the_same_findings(tmp_path, monkeypatch, code, case):
    root, doc = _write_case(tmp_path, case)
    durable = _findings(root, doc, case, "durable_rules", monkeypatch)
    python = _findings(root, doc, case, "python", monkeypatch)
    assert python == durable
    if case.get("findings"):
        assert any(f["code"] == code for f in python)

