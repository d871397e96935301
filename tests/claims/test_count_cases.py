"""Count claims, one case per form (tests/claims/cases/counts.yaml): what ``caveat extract``
reads as a count, and the near misses it must leave alone."""
from __future__ import annotations

from pathlib import Path

import pytest

from claims.api import analyze
from validator.safe_yaml import load_file

CASES = load_file(Path(__file__).parent / "cases" / "counts.yaml")["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_count_case(case):
    got = [c for c in analyze(case["text"], "b.md").claims if c.kind == "count"]
    want = case["counts"]
    assert [c.surface for c in got] == [w["surface"] for w in want]
    for c, w in zip(got, want):
        assert c.value == w["value"] and c.unit == "item"
        assert c.bound == w.get("bound")
        assert c.approx == w.get("approx", False)
        assert case["text"][c.start:c.end] == c.surface


def test_the_case_file_has_near_misses_in_both_languages():
    near = [c for c in CASES if not c["counts"]]
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in c["text"]) for c in near)
    assert any(c["text"].isascii() for c in near)
