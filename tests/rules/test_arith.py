"""The tolerance module (validator.arith): what a written figure admits, the readings of a
gap, flips of sign or winner, sums — and the one interval the contradiction checks use too
(validator.facts.interval)."""
from pathlib import Path

from hypothesis import given, settings, strategies as st

import claims
from validator import arith, facts
from validator.options import Options
from validator.run import check_paths


def fig(text):
    """The one figure of ``text``, read by the real figure reader."""
    cs = claims.extract(text)
    assert len(cs) == 1, [c.surface for c in cs]
    return cs[0]


def judged(text):
    """[(form, stated surface, ok, flipped)] of the stated derivations of ``text``."""
    out = []
    for d in claims.analyze(text, "b.md").derivations:
        v = arith.recompute(d, 0.1)
        if v is not None:
            out.append((d.form, d.stated.surface, v.ok, v.flipped))
    return out


def close(iv, lo, hi):
    return abs(iv[0] - lo) < 1e-9 and abs(iv[1] - hi) < 1e-9


# ---------------------------------------------------------------- what a figure admits

def test_written_precision_bounds_a_percent_like_statcheck():
    assert close(arith.fraction_interval(fig("29%"), 0.1), 0.285, 0.295)
    assert close(arith.admitted(fig("2.4×")), 2.35, 2.45)


def test_scale_words_scale_the_half_step():
    assert close(arith.admitted(fig("1.2 万 tok/s"), use_base=False), 11500, 12500)
    assert close(arith.admitted(fig("16,200 tok/s"), use_base=False), 16199.5, 16200.5)


def test_approx_widens_by_the_rule_margin():
    c = fig("约 29%")
    narrow, wide = arith.fraction_interval(c, 0.0), arith.fraction_interval(c, 0.2)
    assert close(narrow, 0.285, 0.295) and wide[0] < narrow[0] and wide[1] > narrow[1]


def test_a_range_admits_its_span():
    assert close(arith.admitted(fig("1.3–1.6×")), 1.25, 1.65)


def test_bounds_open_one_side():
    assert arith.admitted(fig("超过 60%"), use_base=False)[1] == arith.INF
    assert arith.admitted(fig("up to 450 ms"), use_base=False)[0] == 0.0


# The two interval functions of old (facts.interval for the contradiction checks,
# arith.admitted for the arithmetic checks) differed in four ways; there is one function
# now, and each difference is decided here.

def test_named_case_signs_are_kept_and_dropped_only_as_magnitude():
    c = fig("-24.3%")
    assert close(arith.fraction_interval(c), -0.2435, -0.2425)
    # two statements of one figure compare magnitudes: '下降 24.3%' restates '-24.3%'
    assert close(facts.interval(c), 0.2425, 0.2435)


def test_named_case_an_upper_bound_runs_down_to_zero_not_minus_infinity():
    assert arith.admitted(fig("<1 s"))[0] == 0.0
    assert facts.interval(fig("<1 s"))[0] == 0.0


def test_named_case_counted_items_are_exact_for_both():
    c = fig("3 条")
    assert arith.admitted(c) == (3.0, 3.0) and facts.interval(c) == (3.0, 3.0)
    assert arith.admitted(fig("约 3 条"))[0] < 3.0        # an approximate count is not exact


def test_named_case_approximation_is_the_wider_of_rounding_and_its_margin_for_both():
    c = fig("约 29%")
    lo, hi = facts.interval(c, 0.1)
    # 10% of 29% (2.9 points) is wider than the half point of rounding: 26.1..31.9%
    assert close((lo, hi), 0.29 - 0.029, 0.29 + 0.029)
    assert close(arith.fraction_interval(c, 0.1), lo, hi)
    # for a small whole number the rounding is the wider: 'about 3x' is 2.5..3.5, so 3.68x
    # (184 s -> 50 s) is not 'about 3x'; the two allowances are one, not added (2.2..3.8)
    assert close(arith.admitted(fig("about 3x"), 0.1, use_base=False), 2.5, 3.5)


def test_named_case_a_derived_figure_admits_truncation_and_its_bound_is_exact():
    # '35% speedup' for 17,552 / 12,929 = 1.358: authors truncate what they compute
    assert close(arith.derived(fig("35%")), 0.345, 0.36)
    assert close(arith.admitted(fig("35%"), use_base=False), 34.5, 35.5)      # a measurement rounds only
    # 'over double' is more than 2.00, not more than the 1.5 that rounds to 2
    assert arith.derived(fig("more than 2x"))[0] == 2.0
    assert arith.admitted(fig("more than 2x"))[0] == 1.5


def test_a_table_total_is_checked_against_its_cells_as_printed():
    parts = [fig(x) for x in ("10.5GB", "73GB", "0.04GB", "1GB")]
    assert arith.check_row_total(parts, fig("~84.5GB")).ok
    assert not arith.check_row_total(parts, fig("~84.8GB")).ok       # 84.54, not 84.8
    assert arith.check_row_total([fig("84GB"), fig("73GB"), fig("0.04GB"), fig("0.125GB")], fig("~157GB")).ok


# ---------------------------------------------------------------- recomputing derivations

def test_wrong_gap_is_found_and_right_gap_passes():
    assert judged("TGI 3.2：2,400 tok/s vs vLLM：3,100 tok/s（差距约 45%）") == [("gap", "约 45%", False, False)]
    # 29% (relative to 2,400) or 23% (relative to 3,100): either reading is accepted
    for z in ("29%", "23%"):
        assert judged(f"2,400 tok/s vs 3,100 tok/s, a {z} gap") == [("gap", z, True, False)], z
    assert judged("- LMDeploy：2,430 tok/s - vLLM：1,800 tok/s（差距约 35%）")[0][2]


def test_reduction_recomputes_and_wrong_sign_is_a_flip():
    assert judged("AWQ 4-bit cuts weight memory from 140 GB to 38 GB, a 73% reduction.") == [
        ("change", "73%", True, False)]
    assert judged("It cuts memory from 140 GB to 38 GB, a 60% reduction.") == [("change", "60%", False, False)]
    assert judged("Memory went from 38 GB to 140 GB, a 73% reduction.") == [("change", "73%", False, True)]


def test_than_with_the_operand_on_the_previous_line():
    text = ("EAGLE-3 now delivers a 2.4× decoding speedup on H100,\n"
            "That is roughly 50% better than SpecInfer's best case of 1.6×.")
    assert judged(text) == [("lead", "roughly 50%", True, False)]
    assert judged(text.replace("50%", "90%")) == [("lead", "roughly 90%", False, False)]
    assert judged(text.replace("2.4×", "1.2×")) == [("lead", "roughly 50%", False, True)]


def test_chinese_lead_over_a_range_accepts_about_two_times():
    text = "EAGLE-3 解码加速 3.1×，接受长度约 4.2 token - 对比 SpecInfer 的 1.3–1.6× 加速，EAGLE-3 领先约 2 倍"
    assert judged(text) == [("lead", "约 2 倍", True, False)]
    assert judged(text.replace("约 2 倍", "约 4 倍")) == [("lead", "约 4 倍", False, False)]


def test_parts_that_do_not_sum():
    assert judged("增量条数：3 条（1 条 NET-new paper_card + 2 条工程新增）") == [("sum", "3 条", True, False)]
    assert judged("增量条数：5 条（1 条 NET-new paper_card + 2 条工程新增）") == [("sum", "5 条", False, False)]
    assert judged("total 80 GB = 60 GB + 30 GB") == [("sum", "80 GB", False, False)]


def test_unrelated_figures_are_not_tied_together():
    assert judged("吞吐 2,400 tok/s。另一项测试显示内存减少 45%") == []
    assert judged("EAGLE-3 3.1× + LMDeploy 35% 领先") == []


@settings(deadline=None, max_examples=60)
@given(a=st.integers(100, 50000), b=st.integers(100, 50000))
def test_a_correctly_rounded_gap_always_passes(a, b):
    gap = round(abs(a - b) / b * 100)
    got = judged(f"{a} tok/s vs {b} tok/s (gap {gap}%)")
    assert got and all(ok for _, _, ok, _ in got)


def test_stated_figure_before_its_operands():
    assert judged("吞吐 +32.0%（6.78 → 8.95 tok/s），延迟均值 -24.3%（2.35 ms → 1.78 ms）") == [
        ("change", "32.0%", True, False), ("change", "-24.3%", True, False)]
    assert judged("延迟均值 -34.3%（2.35 ms → 1.78 ms）") == [("change", "-34.3%", False, False)]
    assert judged("RTF -10.5% (0.364 → 0.326)") == [("change", "-10.5%", True, False)]
    assert judged("RTF -20.5% (0.364 → 0.326)") == [("change", "-20.5%", False, False)]


def test_a_pair_in_another_clause_is_not_an_operand():
    text = "我们一开始看到的 23% 提升，后来发现是和 cache 容量的增加（256 条 → 1024 条）混在了一起"
    assert judged(text) == []


def test_table_speedup_column_is_recomputed_per_row():
    text = ("| T | Eager | Graphed | 加速比 |\n|---|---|---|---|\n"
            "| 5 | 65.8 ms | 30.7 ms | 2.14x |\n| 8 | 65.6 ms | 34.0 ms | 2.93x |\n"
            "| 9 | 65.6 ms | 34.0 s | 1.93x |\n")
    # the mixed-unit row is not compared; the right row passes, the wrong one does not
    assert judged(text) == [("ratio_column", "2.14x", True, False), ("ratio_column", "2.93x", False, False)]


# ---------------------------------------------------------------- the preview rule (rules-preview/)

PREVIEW = Path(__file__).resolve().parents[2] / "rules-preview"
RANGE_TABLE = ("# Notes\n\n## Results\n\n| Config | {gain} | Speedup |\n|---|---|---|\n"
               "| A | +3% | 2.07× |\n| B | +11% | 2.46× |\n\n{sentence}\n")


def _preview_findings(tmp_path, text, rules_dirs=(PREVIEW,)):
    doc = tmp_path / "b.md"
    doc.write_text(text, encoding="utf-8")
    result = check_paths([str(doc)], Options(rules_dirs=[str(d) for d in rules_dirs]))
    assert result.errors == []
    return [(f.code, f.line, f.surface) for f in result.findings if f.code == "CV404"]


def test_a_range_that_does_not_summarize_its_column_is_a_preview_finding(tmp_path):
    en = RANGE_TABLE.format(gain="Gain", sentence="With these settings the gain is only 10% to 15%.")
    zh = RANGE_TABLE.format(gain="收益", sentence="在这些设置下收益仅为 10%–15%。")
    assert _preview_findings(tmp_path, en) == [("CV404", 10, "10% to 15%")]
    assert _preview_findings(tmp_path, zh) == [("CV404", 10, "10%–15%")]
    # not in the default set: without --rules rules-preview nothing reports it
    assert _preview_findings(tmp_path, en, rules_dirs=()) == []


def test_near_miss_ranges_that_summarize_their_column(tmp_path):
    for sentence in ("With these settings the gain is 3% to 11%, and the speedup ~2.1–2.5×.",
                     "在这些设置下收益为 3%–11%，加速约 2.0–2.5×。"):
        gain = "Gain" if sentence.isascii() else "收益"
        assert _preview_findings(tmp_path, RANGE_TABLE.format(gain=gain, sentence=sentence)) == [], sentence
