"""The bundled example corpus end to end through claims.analyze(): every figure of the
briefings with its base value, none of the non-claims, and the context rules rely on."""
import math
import os
import re
from pathlib import Path

import pytest

import claims

CORPUS = Path(__file__).resolve().parents[1] / "data" / "briefing-corpus"
ZH = CORPUS / "briefings" / "2026-11-02-inference.md"
EN = CORPUS / "briefings" / "2026-11-03-serving-weekly.md"
REAL = Path(os.environ.get("CAVEAT_REAL_CORPUS", "/work/shared/corpus/real"))

# (line, surface, base value or (low, high), base unit): every figure a reader sees in the briefings
ZH_FIGURES = [
    (2, "3.1×", 3.1, "dimensionless"), (2, "35%", 0.35, "dimensionless"), (2, "1.9×", 1.9, "dimensionless"),
    (2, "1.2 万 tok/s", 12000, "token / second"),
    (12, "3.1×", 3.1, "dimensionless"), (12, "4.2 token", 4.2, "token"), (12, "1.3–1.6×", (1.3, 1.6), "dimensionless"),
    (12, "2 倍", 2.0, "dimensionless"),
    (14, "35%", 0.35, "dimensionless"),
    (16, "2,430 tok/s", 2430, "token / second"), (16, "1,800 tok/s", 1800, "token / second"),
    (16, "35%", 0.35, "dimensionless"), (16, "2-5%", (0.02, 0.05), "dimensionless"), (16, "38%", 0.38, "dimensionless"),
    (16, "0.45 s", 0.45, "second"),
    (20, "两倍", 2.0, "dimensionless"), (20, "三成", 0.3, "dimensionless"),
    (25, "2,400 tok/s", 2400, "token / second"), (25, "3,100 tok/s", 3100, "token / second"),
    (25, "45%", 0.45, "dimensionless"), (25, "62 GB", 6.2e10, "byte"), (25, "百分之十二", 0.12, "dimensionless"),
    (28, "1.9×", 1.9, "dimensionless"),
]
EN_FIGURES = [
    (13, "2.4×", 2.4, "dimensionless"), (14, "50%", 0.5, "dimensionless"), (14, "1.6×", 1.6, "dimensionless"),
    (17, "35%", 0.35, "dimensionless"), (17, "2–5%", (0.02, 0.05), "dimensionless"), (18, "450 ms", 0.45, "second"),
    (21, "140 GB", 1.4e11, "byte"), (21, "38 GB", 3.8e10, "byte"), (21, "73%", 0.73, "dimensionless"),
    (22, "62 GB", 6.2e10, "byte"), (22, "12%", 0.12, "dimensionless"),
]
# What expected.yaml lists as never a claim, as (line or None for anywhere, text)
ZH_NON_CLAIMS = [(None, "2026-11-02"), (None, "21:40"), (None, "v322"), (25, "TGI 3.2"), (None, "2610.04412"),
                 (None, "2609.11873"), (None, "2612.00123"), (19, "1802"), (None, "Llama 3.1 70B"),
                 (None, "Qwen2.5-7B"), (None, "8×H100"), (None, "A100 80GB"), (None, "§4.1"), (None, "§1.3"),
                 (None, "⭐"), (9, "4 条"), (12, "batch size 1"), (16, "8K token"), (20, "128K"), (18, "4-bit")]
EN_NON_CLAIMS = [(None, "2026-11-03"), (None, "2026-11-02"), (22, "TGI 3.2"), (22, "3.1."), (13, "8×H100"),
                 (13, "Llama 3.1 70B"), (13, "batch size 1"), (25, "2.4x"), (26, "2.4x"), (26, "--gpus 8"), (21, "4-bit")]


def analysis(path):
    return claims.read_document(path)


def _spans(text, line_starts, line, needle):
    lines = range(1, len(line_starts) + 1) if line is None else [line]
    for ln in lines:
        s = line_starts[ln - 1]
        e = line_starts[ln] if ln < len(line_starts) else len(text)
        for m in re.finditer(re.escape(needle), text[s:e]):
            yield s + m.start(), s + m.end()


@pytest.mark.parametrize("path,figures", [(ZH, ZH_FIGURES), (EN, EN_FIGURES)], ids=["zh", "en"])
def test_every_figure_extracted_with_base_value(path, figures):
    a = analysis(path)
    for line, surface, base, unit in figures:
        hits = [c for c in a.claims if c.line == line and surface in c.surface]
        assert hits, f"{path.name}:{line}: {surface} not extracted"
        c = hits[0]
        assert c.base_unit == unit, (surface, c.base_unit)
        if isinstance(base, tuple):
            assert math.isclose(c.base_low, base[0], rel_tol=1e-9) and math.isclose(c.base_high, base[1], rel_tol=1e-9)
        else:
            assert math.isclose(c.base_value, base, rel_tol=1e-9), (surface, c.base_value)
        assert a.document.text[c.start:c.end] == c.surface
        assert a.document.line_col(c.start) == (c.line, c.col)


@pytest.mark.parametrize("path,non_claims", [(ZH, ZH_NON_CLAIMS), (EN, EN_NON_CLAIMS)], ids=["zh", "en"])
def test_no_non_claim_is_extracted(path, non_claims):
    a = analysis(path)
    doc = a.document
    for line, needle in non_claims:
        spans = list(_spans(doc.text, doc.line_starts, line, needle))
        assert spans, f"test data: {needle!r} not found on line {line}"
        for s, e in spans:
            bad = [c.surface for c in a.claims if c.start < e and s < c.end]
            assert not bad, f"{path.name}: {needle!r} read as claim {bad}"


def test_nothing_from_front_matter_or_code():
    a = analysis(EN)
    assert not [c for c in a.claims if c.line <= 4 or 24 <= c.line <= 27]


def test_claim_count_is_exact():
    # every figure and nothing else: summary counts on line 38 are the only extra figures
    zh = analysis(ZH)
    body = [c for c in zh.claims if c.role != "summary"]
    assert len(body) == len(ZH_FIGURES), [(c.line, c.surface) for c in body]
    assert len(analysis(EN).claims) == len(EN_FIGURES)


def test_declared_counts_and_entries():
    doc = analysis(ZH).document
    counted = {s.line: (s.declared_count, sum(1 for e in doc.entries if e.section == i))
               for i, s in enumerate(doc.sections) if s.declared_count is not None}
    assert counted == {9: (4, 3), 22: (1, 1), 26: (1, 1)}
    en = analysis(EN).document
    assert [(s.declared_count, sum(1 for e in en.entries if e.section == i)) for i, s in enumerate(en.sections)
            if s.declared_count] == [(3, 3)]


def test_pipeline_context_on_the_examples():
    a = analysis(ZH)
    eagle = next(c for c in a.claims if c.line == 12 and c.surface == "3.1×")
    assert {f: cd.value for f, cd in eagle.conditions.items()} == {
        "hardware": "8×H100", "model": "Llama 3.1 70B", "dataset": "MT-Bench", "batch_size": "1"}
    for c in a.claims:
        if c.line == 20:
            assert {"abstract_only", "unverified"} <= set(c.markers)
    comps = {(d.operands[0].surface, d.operands[1].surface, d.stated.surface if d.stated is not None else None)
             for d in a.derivations if len(d.operands) == 2}
    assert ("2,430 tok/s", "1,800 tok/s", "约 35%") in comps
    assert ("2,400 tok/s", "3,100 tok/s", "约 45%") in comps
    en = analysis(EN)
    comps = {(d.operands[0].surface, d.operands[1].surface, d.stated.surface) for d in en.derivations
             if len(d.operands) == 2 and d.stated is not None}
    assert ("2.4×", "1.6×", "roughly 50%") in comps


def test_json_round_trip_of_claims():
    import json
    for c in analysis(ZH).claims:
        d = c.to_dict()
        json.dumps(d, ensure_ascii=False)
        assert d["surface"] == c.surface and isinstance(d["conditions"], dict)


def test_extract_api_and_path_none():
    text = ZH.read_text(encoding="utf-8")
    cs = claims.extract(text)
    assert cs and all(c.path is None for c in cs)
    assert [c.surface for c in cs] == [c.surface for c in claims.analyze(text, str(ZH)).claims]


@pytest.mark.skipif(not REAL.is_dir(), reason="real corpus not available")
def test_real_corpus_analyzes_without_error():
    files = sorted(REAL.glob("*.md"))
    assert files
    for f in files:
        a = claims.read_document(f)
        for c in a.claims:
            assert a.document.text[c.start:c.end] == c.surface
            assert c.role in ("header", "body", "warnings", "summary", "sources_table", "references")
