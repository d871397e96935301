"""Stated derived figures (claims.derive): one reading of gaps, changes, leads, sums and
table ratios into ``Analysis.derivations``, and what a derivation tells about its figures."""
from pathlib import Path

import claims
from claims import derive
from claims.model import Derivation

CORPUS = Path(__file__).resolve().parents[1] / "data" / "briefing-corpus"
ZH = CORPUS / "briefings" / "2026-11-02-inference.md"
EN = CORPUS / "briefings" / "2026-11-03-serving-weekly.md"


def derivations(text):
    a = claims.analyze(text, "b.md")
    return [(d.form, d.stated.surface if d.stated else None, tuple(o.surface for o in d.operands), d.direction)
            for d in a.derivations]


def test_labelled_pairs_with_a_stated_gap_give_the_gap_its_subject_and_baseline():
    a = claims.analyze(ZH.read_text(encoding="utf-8"), str(ZH))
    got = {(d.form, d.stated.surface if d.stated else None, tuple(o.surface for o in d.operands))
           for d in a.derivations}
    assert ("gap", "约 35%", ("2,430 tok/s", "1,800 tok/s")) in got
    assert ("gap", "约 45%", ("2,400 tok/s", "3,100 tok/s")) in got
    assert ("lead", "约 2 倍", ("3.1×", "1.3–1.6×")) in got
    gap = next(c for c in a.claims if c.line == 25 and c.surface == "约 45%")
    assert (gap.subject, gap.baseline, gap.metric) == ("tgi", "vllm", "gap")
    assert a.derivations[gap.comparison].stated is gap


def test_english_lead_and_reduction():
    a = claims.analyze(EN.read_text(encoding="utf-8"), str(EN))
    got = {(d.form, d.stated.surface, tuple(o.surface for o in d.operands), d.direction)
           for d in a.derivations if d.stated is not None}
    assert ("lead", "roughly 50%", ("2.4×", "1.6×"), 1) in got
    assert ("change", "73%", ("140 GB", "38 GB"), -1) in got
    lead = next(c for c in a.claims if c.surface == "roughly 50%")
    assert (lead.subject, lead.baseline) == ("eagle-3", "specinfer")


def test_vs_pair_shares_the_unit_written_once():
    a = claims.analyze("## R\n\nSGLang hits 16,200 vs 12,500 tok/s, a 45% gap.\n", "b.md")
    left = next(c for c in a.claims if c.surface == "16,200")
    assert (left.kind, left.base_unit, left.base_value) == ("throughput", "token / second", 16200)
    assert [(d.form, d.stated.surface) for d in a.derivations] == [("gap", "45%")]


def test_a_change_without_a_stated_figure_is_still_a_pair():
    # the contradiction checks need to know that the two sides measure different states
    assert derivations("# N\n\nTTFT fell from 2.35 s to 1.78 s after the fix.\n") == [
        ("change", None, ("2.35 s", "1.78 s"), 0)]


def test_the_stated_figure_before_its_operands_and_a_bare_number_before_the_arrow():
    got = derivations("# MOSS\n\n吞吐 +32.0%（6.78 → 8.95 req/s），延迟均值 -24.3%（2.35s → 1.78s）。\n")
    assert got == [("change", "32.0%", ("6.78", "8.95 req/s"), 1),
                   ("change", "-24.3%", ("2.35s", "1.78s"), -1)]
    a = claims.analyze("# MOSS\n\n吞吐 +32.0%（6.78 → 8.95 req/s）。\n", "b.md")
    bare = a.derivations[0].operands[0]
    assert bare not in a.claims and (bare.kind, bare.base_unit, bare.line, bare.col) == (
        "throughput", "request / second", 3, 11)


def test_two_finders_disagreed_on_which_pair_a_ratio_belongs_to():
    # the old comparison finder gave '1.5 倍' to the first pair; it states the second change
    got = derivations("# TTFA\n\n并发 1 时提升 5.3 倍（0.70s → 0.13s）。并发 4 时提升 1.5 倍（0.83s → 0.56s）。\n")
    assert [(f, z, ops) for f, z, ops, _ in got] == [
        ("change", "5.3 倍", ("0.70s", "0.13s")), ("change", "1.5 倍", ("0.83s", "0.56s"))]


def test_a_figure_qualifying_another_noun_is_not_compared():
    # 'LLaMA2-13B 达到 43.8% 的得分所需的 FLOP 数少 1.7 倍': the 1.7× is about FLOPs, not the scores
    text = ("# DBRX\n\n训练 DBRX MoE-B 达到 45.5% 的得分所需的 FLOP 数比 LLaMA2-13B 达到 43.8% 的得分所需的 "
            "FLOP 数少 1.7 倍。\n")
    assert [d for d in derivations(text) if d[1] == "1.7 倍"] == []


def test_sums_of_parts():
    assert derivations("# M\n\nTotal 80 GB = 60 GB + 30 GB on one H100.\n") == [
        ("sum", "80 GB", ("60 GB", "30 GB"), 0)]
    got = derivations("# 摘要\n\n增量条数：3 条（1 条 NET-new paper_card + 2 条工程新增）\n")
    assert got == [("sum", "3 条", ("1 条", "2 条"), 0)]


def test_table_ratio_column_reads_cells_through_the_document_model():
    text = ("# CUDA Graph\n\n| T | Eager | Graphed | 加速比 |\n|---|---|---|---|\n"
            "| 5 | 65.8 ms | 30.7 ms | 2.14x |\n| 9 | 65.6 ms | 34.0 s | 1.93x |\n"
            "| 2  | 1.286 | 2.908  | **2.26×** |\n")
    got = derivations(text)
    # the row whose two measurements are written in different units is not read
    assert got == [("ratio_column", "2.14x", ("65.8 ms", "30.7 ms"), 0),
                   ("ratio_column", "2.26×", ("1.286", "2.908"), 0)]


def test_records_are_typed_and_the_vocabulary_is_data():
    a = claims.analyze("# W\n\nWeight memory went from 140 GB to 38 GB, a 73% reduction.\n", "b.md")
    d = a.derivations[0]
    assert isinstance(d, Derivation) and d.form == "change" and d.direction == -1
    v = derive.vocabulary()
    assert derive._word_in(v.decrease, "a 73% reduction") and not derive._word_in(v.from_to, "tokens")
