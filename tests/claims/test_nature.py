"""What a figure is (claims/nature.py): only a measured or claimed result needs preconditions.
The cases are data: tests/claims/cases/nature.yaml."""
from pathlib import Path

import pytest
import yaml

from claims.api import extract

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "nature.yaml").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["text"][:40] for c in CASES])
def test_nature(case):
    got = {c.surface: c.nature for c in extract(case["text"], "t.md")}
    assert got.get(case["surface"]) == case["nature"], got
