"""Lexical figure recognition: every form a briefing writes, in English and Chinese,
and the numbers that are not claims."""
import pytest

from claims.figures import find_figures


def figs(text, **kw):
    out = find_figures(text, **kw)
    for c in out:
        assert text[c.start:c.end] == c.surface
    return out


def one(text, surface=None):
    out = figs(text)
    if surface is not None:
        out = [c for c in out if c.surface == surface]
    assert len(out) == 1, [c.surface for c in figs(text)]
    return out[0]


# ---- forms: (text, surface, kind, value, base_value, base_unit) ----
FORMS = [
    ("LMDeploy leads by 29%.", "29%", "percent", 29, 0.29, "dimensionless"),
    ("领先 ２９％", "２９％", "percent", 29, 0.29, "dimensionless"),
    ("百分之十二", "百分之十二", "percent", 12, 0.12, "dimensionless"),
    ("比上一版本多 百分之12", "百分之12", "percent", 12, 0.12, "dimensionless"),
    ("显存占用减少三成", "三成", "percent", 30, 0.30, "dimensionless"),
    ("up 5 pp on MMLU", "5 pp", "percentage_point", 5, 5, "percentage_point"),
    ("提升 3 个百分点", "3 个百分点", "percentage_point", 3, 3, "percentage_point"),
    ("up 2.5 percentage points", "2.5 percentage points", "percentage_point", 2.5, 2.5, "percentage_point"),
    ("decoding speedup 2.8×", "2.8×", "ratio", 2.8, 2.8, "dimensionless"),
    ("a 2.8x speedup", "2.8x", "ratio", 2.8, 2.8, "dimensionless"),
    ("吞吐提升 3 倍", "3 倍", "ratio", 3, 3, "dimensionless"),
    ("吞吐提升两倍", "两倍", "ratio", 2, 2, "dimensionless"),
    ("吞吐翻倍", "翻倍", "ratio", 2, 2, "dimensionless"),
    ("is 2.8 times faster", "2.8 times", "ratio", 2.8, 2.8, "dimensionless"),
    ("reaches 16,200 tok/s", "16,200 tok/s", "throughput", 16200, 16200, "token / second"),
    ("serves 72 req/s", "72 req/s", "throughput", 72, 72, "request / second"),
    ("单卡 1.2 万 tok/s", "1.2 万 tok/s", "throughput", 1.2e4, 1.2e4, "token / second"),
    ("单卡 1.2万tok/s", "1.2万tok/s", "throughput", 1.2e4, 1.2e4, "token / second"),
    ("峰值 300 QPS", "300 QPS", "throughput", 300, 300, "request / second"),
    ("TTFT 450 ms", "450 ms", "latency", 450, 0.45, "second"),
    ("首 token 延迟 0.45 s", "0.45 s", "latency", 0.45, 0.45, "second"),
    ("延迟 450 毫秒", "450 毫秒", "latency", 450, 0.45, "second"),
    ("training took 3 hours", "3 hours", "duration", 3, 10800, "second"),
    ("needs 62 GB", "62 GB", "memory", 62, 6.2e10, "byte"),
    ("an 80GiB card", "80GiB", "memory", 80, 80 * 2**30, "byte"),
    ("HBM at 3.35 TB/s", "3.35 TB/s", "bandwidth", 3.35, 3.35e12, "byte / second"),
    ("reads 50M token", "50M token", "count", 5e7, 5e7, "token"),
    ("178,799 sessions", "178,799 sessions", "count", 178799, 178799, "session"),
    ("用户数达 3 亿", "3 亿", "number", 3e8, 3e8, "dimensionless"),
    ("costs $0.39", "$0.39", "currency", 0.39, 0.39, "USD"),
    ("成本 20 元", "20 元", "currency", 20, 20, "CNY"),
    ("peak 790 TFLOP/s", "790 TFLOP/s", "compute", 790, 7.9e14, "FLOP / second"),
    ("reached 1.5 million requests", "1.5 million requests", "count", 1.5e6, 1.5e6, "request"),
]


@pytest.mark.parametrize("text,surface,kind,value,base,base_unit", FORMS)
def test_each_form_extracts_kind_value_and_base(text, surface, kind, value, base, base_unit):
    c = one(text, surface)
    assert c.kind == kind
    assert c.value == pytest.approx(value)
    assert c.base_value == pytest.approx(base)
    assert c.base_unit == base_unit
    assert (c.path, c.line, c.col) == (None, 0, 0)


RANGES = [
    ("1-4%", 1, 4, 0.01, 0.04), ("1–4%", 1, 4, 0.01, 0.04), ("1~4%", 1, 4, 0.01, 0.04),
    ("1～4％", 1, 4, 0.01, 0.04), ("1.3–1.6×", 1.3, 1.6, 1.3, 1.6), ("1.7-2×", 1.7, 2, 1.7, 2),
    ("2 到 5 倍", 2, 5, 2, 5), ("between 2 and 5%", 2, 5, 0.02, 0.05), ("1%-4%", 1, 4, 0.01, 0.04),
    ("1.2-1.5 万 tok/s", 1.2e4, 1.5e4, 1.2e4, 1.5e4), ("300–450 ms", 300, 450, 0.3, 0.45),
]


@pytest.mark.parametrize("text,low,high,blow,bhigh", RANGES)
def test_ranges_set_low_high_and_leave_value_empty(text, low, high, blow, bhigh):
    c = one("gap " + text + " here", text)
    assert c.value is None
    assert (c.low, c.high) == (pytest.approx(low), pytest.approx(high))
    assert (c.base_low, c.base_high) == (pytest.approx(blow), pytest.approx(bhigh))


def test_decimals_are_kept_as_written():
    assert one("29%").decimals == 0
    assert one("2.03×").decimals == 2
    assert one("0.450 s").decimals == 3
    assert one("1.3–1.6×").decimals == 1


@pytest.mark.parametrize("text,surface", [
    ("~16,200 tok/s", "~16,200 tok/s"), ("≈ 35%", "≈ 35%"), ("约 35%", "约 35%"),
    ("近三成", "近三成"), ("30% 左右", "30% 左右"), ("about 450 ms", "about 450 ms"),
    ("roughly 50%", "roughly 50%"), ("领先约 2 倍", "约 2 倍"),
])
def test_approximations(text, surface):
    c = one(text, surface)
    assert c.approx and c.bound is None


@pytest.mark.parametrize("text,bound", [
    (">60%", "gt"), ("≥ 60%", "ge"), ("up to 2x", "le"), ("至少 3 倍", "ge"), ("超过 60%", "gt"),
    ("不到 5 ms", "lt"), ("more than 30%", "gt"), ("at least 8 GB", "ge"), ("less than 1 s", "lt"),
    ("1000 tok/s 以上", "gt"), ("20+ GB", "ge"),
])
def test_bounds(text, bound):
    c = one(text)
    assert c.bound == bound
    assert not c.approx


@pytest.mark.parametrize("text,value", [
    ("P99 延迟下降 38%", 38), ("-38%", -38), ("a 73% reduction", 73), ("memory fell 20%", 20),
    ("显存占用减少近三成", 30),
])
def test_negative(text, value):
    c = one(text)
    assert c.negative
    assert c.value == pytest.approx(value)


def test_increase_is_not_negative():
    assert not one("throughput rose 35%").negative
    assert not one("35% faster").negative


def test_lists_share_an_id_and_separate_lists_do_not():
    out = figs("EAGLE 2.03×/1.71×/1.66× vs 3%、5% and 7 ms")
    ids = [c.list_id for c in out]
    assert ids[0] is not None and ids[0] == ids[1] == ids[2]
    assert ids[3] is not None and ids[3] == ids[4] and ids[3] != ids[0]
    assert ids[5] is None


NOT_CLAIMS = [
    "2026-11-02", "2026年11月", "11月2日", "21:40", "v0.6.0", "TGI 3.2", "Dynamo1.0", "inference.md v322",
    "arXiv:2610.13735", "2610.13735", "2511.02230v7", "#1234", "paper_card 1802", "Llama 3.1 8B",
    "Llama 3.1 70B", "Qwen3.8-27B", "Qwen2.5-7B", "GLM-4.5", "8×H100", "8xH100", "8x H100",
    "A100 80GB", "H200", "Bug ×4", "§1.3", "§4.1", "⭐⭐⭐", "增量 1", "邻接 A", "T1", "### 1. Title",
    "1. first item", "than 3.1.", "4-bit", "（128K）", "输入 8K token", "8K-token inputs",
    "a 1M-token context window", "第 3 名", "https://x.org/a?q=30%25&b=2x", "version 1.2.3",
    "PR #43091 / #42963", "b10327–b10331", "SM120", "一个", "三条建议", "~13", "20B-A1B",
]


@pytest.mark.parametrize("text", NOT_CLAIMS)
def test_non_claims_are_not_returned(text):
    assert figs(text) == []


def test_non_claims_next_to_claims():
    text = "EAGLE-3 on 8×H100 with Llama 3.1 70B (arXiv:2610.04412, v0.6.0) reaches 3.1× and 2,430 tok/s"
    assert [c.surface for c in figs(text)] == ["3.1×", "2,430 tok/s"]


def test_span_and_masked_ranges_are_respected():
    text = "a 29% b `42%` c 450 ms"
    ms = text.index("`")
    me = text.index("`", ms + 1) + 1
    out = figs(text, masked=[(ms, me)])
    assert [c.surface for c in out] == ["29%", "450 ms"]
    out = figs(text, start=text.index("c"))
    assert [c.surface for c in out] == ["450 ms"]
    assert out[0].start == text.index("450")


def test_figures_in_the_example_briefing_line():
    line = ("要点： - 实测条件（A100 80GB，Qwen2.5-7B，长 prompt 批处理，输入 8K token）： "
            "- LMDeploy：2,430 tok/s - vLLM：1,800 tok/s（差距约 35%） - 短 prompt 场景差距缩小到 2-5% "
            "- P99 延迟下降 38%，首 token 延迟 0.45 s")
    got = [(c.surface, c.kind) for c in figs(line)]
    assert got == [("2,430 tok/s", "throughput"), ("1,800 tok/s", "throughput"), ("约 35%", "percent"),
                   ("2-5%", "percent"), ("38%", "percent"), ("0.45 s", "latency")]


def test_from_to_is_two_figures_not_a_range():
    out = figs("cuts weight memory from 140 GB to 38 GB")
    assert [(c.surface, c.value) for c in out] == [("140 GB", 140), ("38 GB", 38)]


def test_chinese_numerals_and_scale_words():
    assert one("近三成").value == 30
    assert one("三成半").value == 35
    assert one("百分之一百二十点五").value == pytest.approx(120.5)
    assert one("两万 tok/s").value == 20000
    assert one("1.5 万 QPS").base_value == 15000
    assert one("3 亿").value == 3e8


def test_english_number_words_need_a_unit():
    assert one("about ten miles").value == 10
    assert one("twenty percent").value == 20
    assert figs("one of the two systems") == []


@pytest.mark.parametrize("text, kept", [
    ("- 8× AMD Instinct™ MI300X serve 2,400 tok/s.", ["2,400 tok/s"]),
    ("- Tested on 8x NVIDIA H200 with DeepSeek R1: 1.8× faster.", ["1.8×"]),
    ("- RTX 4090 24G 上显存占用 20 GB", ["20 GB"]),
    ("- Llama 3.1 70B and Qwen2.5-7B on A100 80GB reach 3,100 tok/s.", ["3,100 tok/s"]),
])
def test_numbers_inside_model_and_hardware_names_are_not_figures(text, kept):
    # the GPU count, card memory and model size belong to the name (a condition), not a claim
    from claims import extract
    assert [c.surface for c in extract(text)] == kept


# Each named "not a claim" test of claims.figures with a text it refuses and a near miss it
# lets through (the near miss differs only in what the test looks at).
NOT_A_CLAIM_CASES = {
    "a bare number": ("TGI has 12 workers", "TGI has 12,000 workers"),
    "a small number after a bound": ("TP > 1 helps", "latency > 10 ms"),
    "a range written in words": ("two to five cores", "2 to 5 GB"),
    "a version": ("than TGI 3.2 today", "than TGI 3.2× today"),
    "an everyday Chinese count": ("一个请求", "1 个请求"),
    "an ordinal": ("第 3 倍", "3 倍"),
    "ratio or time notation": ("a 16:9 screen", "a 16× screen"),
    "an estimate in words": ("a few thousand tokens", "3 thousand tokens"),
    "a leading zero (date, id)": ("on 08-09 we", "on 8-9 GB we"),
    "'tens of' in Chinese": ("几百个请求", "100 个请求"),
    "a hardware count": ("8× H100 GPUs", "8× faster"),
    "part of a hardware name": ("on A100 80GB cards", "uses 80GB of memory"),
    "an input or context length": ("an 8K token input", "8K tokens per second"),
    "a shorthand name in a list of shorthands": ("4.5s、4.6op都测了", "4.5s、4.6s 都测了"),
}


@pytest.mark.parametrize("why", sorted(NOT_A_CLAIM_CASES))
def test_each_not_a_claim_test_refuses_its_case_and_passes_its_near_miss(why):
    from claims import figures
    assert why in {name for name, _ in figures._NOT_A_CLAIM}
    refused, kept = NOT_A_CLAIM_CASES[why]
    assert [c.surface for c in figures.find_figures(refused)] == [] or why == "a hardware count" \
        and all("8×" not in c.surface for c in figures.find_figures(refused)), refused
    assert figures.find_figures(kept), kept


def test_a_scale_word_joined_by_a_hyphen_scales_its_number():
    from claims import extract
    (c,) = extract("Kimi K3 is a 2.8-trillion-parameter MoE model.")
    assert (c.kind, c.value, c.low) == ("count", 2.8e12, None)
    (r,) = extract("2-5 million tokens")          # a range stays a range
    assert (r.low, r.high) == (2e6, 5e6)


def test_input_and_output_tokens_per_second_are_throughput():
    from claims import extract
    got = [(c.surface, c.kind) for c in extract("52.3k input tokens per second and 22.3k output tokens per second")]
    assert got == [("52.3k input tokens per second", "throughput"), ("22.3k output tokens per second", "throughput")]


def test_a_list_of_bare_numbers_shares_the_unit_written_once_after_it():
    from claims import extract
    cs = extract("per-node throughputs of 57,674, 54,543, and 50,302 tokens per second")
    assert [(c.surface, c.kind, c.unit) for c in cs][:2] == [("57,674", "throughput", "token / second"),
                                                            ("54,543", "throughput", "token / second")]
    zh = extract("吞吐分别为 2,400、3,100 和 3,600 tok/s")
    assert {c.kind for c in zh} == {"throughput"}
    # near miss: a year and a rate are no list of one measurement
    assert [c.kind for c in extract("在 2024 和 30 tok/s 之间")] == ["throughput"]
