"""Recomputing stated derived figures (validator.arith): tolerance from written precision,
readings of a gap, flips of sign / winner, sums; and finding the derivations in text."""
import re

from hypothesis import given, settings, strategies as st

from claims.model import Claim
from validator import arith

_FIG = re.compile(r"(?:(?P<approx>约|~|about|roughly)\s*)?(?P<a>\d[\d,]*(?:\.(?P<d>\d+))?)"
                  r"(?:[–-](?P<b>\d[\d,]*(?:\.\d+)?))?\s*(?P<u>%|×|x\b|tok/s|GB|ms|条)")
_KIND = {"%": "percent", "×": "ratio", "x": "ratio", "tok/s": "throughput", "GB": "memory",
         "ms": "latency", "条": "count"}


def figures(text):
    """A tiny stand-in for claims.figures: enough units for these tests."""
    out = []
    for m in _FIG.finditer(text):
        a = float(m["a"].replace(",", ""))
        b = float(m["b"].replace(",", "")) if m["b"] else None
        kind = _KIND[m["u"]]
        scale = 0.01 if kind == "percent" else 1.0
        c = Claim(path=None, line=1, col=1, start=m.start("a") if not m["approx"] else m.start(),
                  end=m.end(), surface=m.group(), kind=kind,
                  value=None if b is not None else a, low=a if b is not None else None, high=b,
                  unit=m["u"], decimals=len(m["d"] or ""), approx=bool(m["approx"]),
                  base_unit="ratio" if kind == "ratio" else m["u"])
        c.base_value = None if c.value is None else c.value * scale
        c.base_low = None if c.low is None else c.low * scale
        c.base_high = None if c.high is None else c.high * scale
        out.append(c)
    return out


def derive(text):
    cs = figures(text)
    ds = arith.find_derivations(text, cs)
    for d in ds:
        d.verdict = arith.rescore(d, cs, 0.1)
    return ds


def test_written_precision_bounds_a_percent_like_statcheck():
    c = figures("29%")[0]
    lo, hi = arith.fraction_interval(c, 0.1)
    assert abs(lo - 0.285) < 1e-9 and abs(hi - 0.295) < 1e-9


def test_approx_widens_by_the_rule_margin():
    c = figures("约 29%")[0]
    narrow = arith.fraction_interval(c, 0.0)
    wide = arith.fraction_interval(c, 0.2)
    assert wide[0] < narrow[0] and wide[1] > narrow[1]


def test_wrong_gap_is_found_and_right_gap_passes():
    bad = derive("TGI 3.2：2,400 tok/s vs vLLM：3,100 tok/s（差距约 45%）")
    assert [d.form for d in bad] == ["gap"] and not bad[0].verdict.ok
    # 29% (relative to 2,400) or 23% (relative to 3,100): either reading is accepted
    for z in ("29%", "23%"):
        ok = derive(f"2,400 tok/s vs 3,100 tok/s, gap {z}")
        assert ok and ok[0].verdict.ok, z
    good = derive("- LMDeploy：2,430 tok/s - vLLM：1,800 tok/s（差距约 35%）")
    assert good and good[0].verdict.ok


def test_reduction_recomputes_and_wrong_sign_is_a_flip():
    ok = derive("AWQ 4-bit cuts weight memory from 140 GB to 38 GB, a 73% reduction.")
    assert ok and ok[0].form == "change" and ok[0].verdict.ok
    wrong = derive("cuts memory from 140 GB to 38 GB, a 60% reduction.")
    assert not wrong[0].verdict.ok and not wrong[0].verdict.flipped
    flip = derive("memory went from 38 GB to 140 GB, a 73% reduction.")
    assert flip[0].verdict.flipped


def test_than_with_the_operand_on_the_previous_line():
    text = ("EAGLE-3 now delivers a 2.4× decoding speedup on H100,\n"
            "That is roughly 50% better than SpecInfer's best case of 1.6×.")
    ds = derive(text)
    assert ds and ds[0].form == "than" and ds[0].verdict.ok
    bad = derive(text.replace("50%", "90%"))
    assert not bad[0].verdict.ok and not bad[0].verdict.flipped
    flip = derive(text.replace("2.4×", "1.2×"))
    assert flip[0].verdict.flipped


def test_chinese_lead_over_a_range_accepts_about_two_times():
    text = "EAGLE-3 解码加速 3.1×，接受长度约 4.2 token - 对比 SpecInfer 的 1.3–1.6× 加速，EAGLE-3 领先约 2 倍"
    text = text.replace("2 倍", "2×")
    ds = derive(text)
    assert ds and ds[0].form == "than" and ds[0].verdict.ok
    assert not derive(text.replace("约 2×", "约 4×"))[0].verdict.ok


def test_parts_that_do_not_sum():
    ok = derive("增量条数：3 条（1 条 NET-new paper_card + 2 条工程新增）")
    assert ok and ok[0].form == "sum" and ok[0].verdict.ok
    bad = derive("增量条数：5 条（1 条 NET-new paper_card + 2 条工程新增）")
    assert not bad[0].verdict.ok
    assert derive("total 80 GB = 60 GB + 30 GB")[0].verdict.ok is False


def test_unrelated_figures_are_not_tied_together():
    assert derive("吞吐 2,400 tok/s。另一项测试显示内存减少 45%") == []
    assert derive("EAGLE-3 3.1× + LMDeploy 35% 领先") == []


@settings(deadline=None, max_examples=60)
@given(a=st.integers(100, 50000), b=st.integers(100, 50000))
def test_a_correctly_rounded_gap_always_passes(a, b):
    gap = round(abs(a - b) / b * 100)
    ds = derive(f"{a} tok/s vs {b} tok/s (gap {gap}%)")
    assert ds and ds[0].verdict.ok


def test_stated_figure_before_its_operands():
    ok = derive("吞吐 +32.0%（6.78 → 8.95 tok/s），延迟均值 -24.3%（2.35 ms → 1.78 ms）")
    assert [d.form for d in ok] == ["change", "change"] and all(d.verdict.ok for d in ok)
    bad = derive("延迟均值 -34.3%（2.35 ms → 1.78 ms）")
    assert not bad[0].verdict.ok
    bare = derive("RTF -10.5% (0.364 → 0.326)")
    assert bare and bare[0].verdict.ok
    assert not derive("RTF -20.5% (0.364 → 0.326)")[0].verdict.ok


def test_a_pair_in_another_clause_is_not_an_operand():
    text = "我们一开始看到的 23% 提升，后来发现是和 cache 容量的增加（256 条 → 1024 条）混在了一起"
    assert derive(text) == []


def test_table_speedup_column_is_recomputed_per_row():
    text = ("| T | Eager | Graphed | 加速比 |\n|---|---|---|---|\n"
            "| 5 | 65.8 ms | 30.7 ms | 2.14x |\n| 8 | 65.6 ms | 34.0 ms | 2.93x |\n"
            "| 9 | 65.6 ms | 34.0 s | 1.93x |\n")
    rows = arith.find_table_ratios(text)
    # the mixed-unit row is not compared; the right row passes, the wrong one does not
    assert [(r.line, r.verdict.ok) for r in rows] == [(3, True), (4, False)]
