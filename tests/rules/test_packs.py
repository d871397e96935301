"""Rule packs as data: the built-in packs load, overrides are validated, and a malformed
user pack is refused with one line naming file, line and what is wrong.

(tests/hostile/test_packs.py covers hostile YAML; this module covers the rule schema.)"""
from __future__ import annotations

from pathlib import Path

import pytest

from validator import packs
from validator.errors import UsageError
from validator.options import Options

GOOD = """\
code: CV199
name: precondition.user_throughput
family: precondition
extends: precondition.missing_facets
severity: info
summary: Throughput figures must name their GPU.
why: A user policy stricter than the built-in one.
params:
  required: {throughput: [hardware]}
message:
  zh: "{surface} 缺少{missing}"
  en: "{surface} lacks {missing}"
fix:
  zh: "写明{missing}"
  en: "State the {missing}"
acknowledgeable: true
"""


def write(tmp_path: Path, text: str, name: str = "CV199.yaml") -> Path:
    d = tmp_path / "user" / "mypack"
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_text(text, encoding="utf-8")
    return tmp_path / "user"


def refused(tmp_path, text, *needles, name="CV199.yaml"):
    root = write(tmp_path, text, name)
    with pytest.raises(UsageError) as exc:
        packs.load_all([root])
    msg = str(exc.value)
    assert "\n" not in msg
    assert name in msg
    for n in needles:
        assert n in msg, (n, msg)
    return msg


def test_builtin_packs_load_with_unique_codes_and_both_languages():
    rules = packs.load_all()
    codes = [r.code for r in rules]
    assert len(codes) == len(set(codes))
    fams = {r.family for r in rules}
    assert {"precondition", "unverified", "contradiction"} <= fams
    for r in rules:
        assert r.message["zh"].strip() and r.message["en"].strip() and r.fix["zh"] and r.fix["en"]
        assert Path(r.path).stem == r.code


def test_user_rule_of_existing_kind_needs_no_code(tmp_path):
    rules = packs.load_all([write(tmp_path, GOOD)])
    r = {x.code: x for x in rules}["CV199"]
    assert r.kind.NAME == "precondition.missing_facets"
    assert r.params["required"] == {"throughput": ["hardware"]}
    assert r.params["roles"]          # kind default filled in
    assert r.pack == "mypack"


@pytest.mark.parametrize("old,new,needles", [
    ("family: precondition", "family: unverified", ["CV199.yaml:3", "precondition"]),   # family vs its kind
    ("extends: precondition.missing_facets", "extends: contradiction.figure",
     ["CV199.yaml:3", "contradiction"]),                   # kind of another family than the one restated
    ("  required: {throughput: [hardware]}", "  required: [hardware]", ["CV199.yaml:9", "required"]),
    ("  required: {throughput: [hardware]}", "  required: {}\n  tolerance: 3", ["CV199.yaml:10", "tolerance"]),
    ("name: precondition.user_throughput", "name: Throughput Rule", ["CV199.yaml:2", "name"]),
    ("code: CV199", "code: cv-199", ["CV199.yaml:1", "cv-199"]),
    ('  en: "{surface} lacks {missing}"', '  en: "{surface} lacks {nowhere}"', ["CV199.yaml:12", "nowhere"]),
    ('  en: "{surface} lacks {missing}"', '  en: "{surface!r} lacks"', ["CV199.yaml:12", "surface!r"]),
    ('  en: "{surface} lacks {missing}"', '  en: "{surface:>99999}"', ["CV199.yaml:12"]),
    ("summary: Throughput figures must name their GPU.", "summary: ''", ["CV199.yaml:6", "empty"]),
    ("acknowledgeable: true", "acknowledgeable: true\nwhen: {all: []}", ["CV199.yaml:17", "all"]),
    ("acknowledgeable: true", "acknowledgeable: true\nwhen: {field: metric, gt: 3}", ["CV199.yaml:17", "metric"]),
    ("acknowledgeable: true", "acknowledgeable: true\nwhen: {field: missing_count, gt: '3'}",
     ["CV199.yaml:17", "missing_count"]),
    ("acknowledgeable: true", "acknowledgeable: true\nwhen: {field: missing_count, gt: 0, lt: 3}",
     ["CV199.yaml:17", "one operator"]),
])
def test_schema_violations_are_one_line_with_file_and_line(tmp_path, old, new, needles):
    assert old in GOOD
    refused(tmp_path, GOOD.replace(old, new), *needles)


def test_fix_families_cannot_be_acknowledgeable(tmp_path):
    text = GOOD.replace("CV199", "CV799").replace("family: precondition", "family: reference") \
        .replace("extends: precondition.missing_facets", "extends: reference.source_path") \
        .replace("  required: {throughput: [hardware]}\n", "").replace("params:\n", "") \
        .replace("{missing}", "{ref}")
    if packs.kinds_mod.get("reference.source_path") is None:
        pytest.skip("reference kinds not installed")
    refused(tmp_path, text, "CV799.yaml:14", "must be fixed", name="CV799.yaml")


def test_family_and_acknowledgeability_come_from_the_kind(tmp_path):
    """A user rule need not restate them; when it does (packs written before they moved to
    the kind), it must agree."""
    bare = GOOD.replace("family: precondition\n", "").replace("acknowledgeable: true\n", "")
    r = {x.code: x for x in packs.load_all([write(tmp_path, bare)])}["CV199"]
    assert (r.family, r.acknowledgeable) == ("precondition", True)
    if packs.kinds_mod.get("reference.arxiv") is not None:
        ref = (bare.replace("CV199", "CV799").replace("precondition.missing_facets", "reference.arxiv")
               .replace("  required: {throughput: [hardware]}\n", "").replace("params:\n", "")
               .replace("{missing}", "{id}"))
        r = {x.code: x for x in packs.load_all([write(tmp_path / "b", ref, "CV799.yaml")])}["CV799"]
        assert (r.family, r.acknowledgeable) == ("reference", False)
    refused(tmp_path / "c", GOOD.replace("acknowledgeable: true", "acknowledgeable: false"),
            "CV199.yaml:16", "can be acknowledged", "precondition.missing_facets")


def test_select_ignore_and_overrides():
    rules = packs.load_all()
    got = packs.select_rules(rules, Options(select=["CV1", "contradiction"], ignore=["CV102"],
                                            severity={"CV101": "error"},
                                            params={"CV301": {"approx_rel": 0.2}}))
    by = {r.code: r for r in got}
    assert "CV101" in by and "CV102" not in by and "CV301" in by and "CV201" not in by
    assert by["CV101"].severity == "error"
    assert by["CV301"].params["approx_rel"] == 0.2
    # the loaded rule itself is untouched (overrides are per run)
    assert {r.code: r for r in rules}["CV101"].severity == "warning"


@pytest.mark.parametrize("opts,needle", [
    (Options(select=["CV999"]), "CV999"),
    (Options(severity={"CV101": "fatal"}), "fatal"),
    (Options(severity={"CV998": "info"}), "CV998"),
    (Options(params={"CV101": {"nope": 1}}), "nope"),
    (Options(params={"CV301": {"approx_rel": "wide"}}), "approx_rel"),
])
def test_bad_overrides_are_usage_errors(opts, needle):
    with pytest.raises(UsageError, match=needle):
        packs.select_rules(packs.load_all(), opts)


def test_when_compiles_to_durable_json():
    fields = {"a": int, "b": bool, "c": str}
    got = packs.compile_when({"all": [{"field": "a", "gt": 0}, {"field": "b", "eq": False},
                                      {"any": [{"field": "c", "in": ["x", "y"]}, {"field": "a", "le": 9}]}]},
                             {**packs.COMMON_FIELDS, **fields}, lambda o, k: "f:1")
    assert got == {"$and": [{"$gt": {"a": 0}}, {"b": False},
                            {"$or": [{"$or": [{"c": "x"}, {"c": "y"}]}, {"$lte": {"a": 9}}]}]}
    assert packs.evaluate(got, {"a": 1, "b": False, "c": "y"})
    assert not packs.evaluate(got, {"a": 1, "b": True, "c": "y"})
    assert not packs.evaluate(got, {"a": 10, "b": False, "c": "z"})


def test_restricted_formatter_has_no_attribute_access():
    assert packs.format_template("{a} and {b}", {"a": 1.23456789, "b": "x"}) == "1.235 and x"
    assert packs.format_template("{missing}", {}) == "?"
    with pytest.raises(ValueError):
        packs.format_template("{a.__class__}", {"a": 1})
