"""A rule's family and acknowledgeability are declared once, by its kind's module.

``validator/kinds/<family>.py`` states ``FAMILY`` and ``ACKNOWLEDGEABLE`` at its top; the
rule table, every finding and the built-in numbering follow from that. These tests fail
when the built-in codes, rule names, kind names or the README drift from it.
"""
from __future__ import annotations

import re
from pathlib import Path

from validator import kinds, packs

README = Path(__file__).resolve().parents[2] / "README.md"


def code_prefixes() -> dict:
    """The built-in numbering: CV1xx is the first family of ``KIND_MODULES``, CV2xx the next…"""
    return {family: f"CV{i}" for i, family in enumerate(kinds.families(), 1)}


def test_builtin_codes_and_names_follow_the_family_of_their_kind():
    prefix = code_prefixes()
    rules = packs.load_all()
    assert {r.family for r in rules} == set(kinds.families()), "every family has a built-in rule"
    for r in rules:
        assert r.family == r.kind.FAMILY and r.acknowledgeable == r.kind.ACKNOWLEDGEABLE, r.code
        assert re.fullmatch(prefix[r.family] + r"\d\d", r.code), (r.code, r.family)
        assert r.name.split(".")[0] == r.family, (r.code, r.name)


def test_kind_names_start_with_their_family():
    for name, kind in kinds.registry().items():
        assert name.split(".")[0] == kind.FAMILY, name


def test_readme_numbering_and_must_fix_list_match_the_kinds():
    rules_section = README.read_text(encoding="utf-8").split("\n## Rules\n", 1)[1]
    intro = rules_section.split("<!-- rules-table:start -->", 1)[0]
    intro = " ".join(intro.split())
    stated = {fam: f"CV{n}" for n, fam in re.findall(r"`CV(\d)xx` (\w+)", intro)}
    assert stated == {**code_prefixes(), "meta": "CV0"}, intro
    must_fix = re.search(r"the others \(([^)]*)\) must be fixed", intro)
    assert must_fix, intro
    assert [f.strip() for f in must_fix.group(1).split(",")] == \
        [fam for fam, ack in kinds.families().items() if not ack]
