"""Claim context: subject, baseline, metric, scoped conditions, markers, sources.

Claims are built by hand at the offsets of their surfaces, so these tests exercise
context.annotate() independently of the figure finder."""
from pathlib import Path

from claims.context import annotate
from claims.model import Claim
from claims.segment import segment

CORPUS = Path(__file__).resolve().parents[1] / "data" / "briefing-corpus"
ZH = CORPUS / "briefings" / "2026-11-02-inference.md"
EN = CORPUS / "briefings" / "2026-11-03-serving-weekly.md"

# surface -> (kind, value/(low, high), base_unit)
KINDS = {"%": ("percent", "dimensionless"), "×": ("ratio", "dimensionless"), "倍": ("ratio", "dimensionless"),
         "tok/s": ("throughput", "token / second"), "GB": ("memory", "byte"), " s": ("latency", "second"),
         "ms": ("latency", "second"), "token": ("count", "token"), "成": ("percent", "dimensionless"),
         "百分之": ("percent", "dimensionless")}


def make(doc, line, surface, value=None, low=None, high=None, nth=0):
    """A Claim for the nth occurrence of surface on a line, with its block."""
    ls = doc.line_starts[line - 1]
    le = doc.line_starts[line] if line < len(doc.line_starts) else len(doc.text)
    pos = ls - 1
    for _ in range(nth + 1):
        pos = doc.text.index(surface, pos + 1, le)
    kind, base_unit = next(v for k, v in KINDS.items() if k in surface)
    c = Claim(path=doc.path, line=line, col=pos - ls + 1, start=pos, end=pos + len(surface), surface=surface,
              kind=kind, value=value, low=low, high=high, base_value=value, base_low=low, base_high=high,
              base_unit=base_unit)
    c.block = next(i for i, b in enumerate(doc.blocks) if b.start <= pos < b.end)
    return c


def zh_claims():
    doc = segment(ZH.read_text(encoding="utf-8"), str(ZH))
    cs = [
        make(doc, 2, "3.1×", 3.1), make(doc, 2, "35%", 0.35), make(doc, 2, "1.9×", 1.9),
        make(doc, 12, "3.1×", 3.1), make(doc, 12, "约 4.2 token", 4.2), make(doc, 12, "1.3–1.6×", None, 1.3, 1.6),
        make(doc, 12, "约 2 倍", 2.0),
        make(doc, 14, "35%", 0.35),
        make(doc, 16, "2,430 tok/s", 2430), make(doc, 16, "1,800 tok/s", 1800), make(doc, 16, "约 35%", 0.35),
        make(doc, 16, "2-5%", None, 0.02, 0.05), make(doc, 16, "38%", 0.38), make(doc, 16, "0.45 s", 0.45),
        make(doc, 20, "两倍", 2.0), make(doc, 20, "近三成", 0.3),
        make(doc, 25, "2,400 tok/s", 2400), make(doc, 25, "3,100 tok/s", 3100), make(doc, 25, "约 45%", 0.45),
        make(doc, 25, "62 GB", 6.2e10), make(doc, 25, "百分之十二", 0.12),
        make(doc, 28, "1.9×", 1.9),
    ]
    comps = annotate(doc, cs)
    return doc, cs, comps


def by(cs, line, surface):
    return next(c for c in cs if c.line == line and c.surface == surface)


def cond_values(c):
    return {f: (cd.value, cd.scope) for f, cd in c.conditions.items()}


def test_eagle3_figure_gets_conditions_of_its_setup():
    _, cs, _ = zh_claims()
    c = by(cs, 12, "3.1×")
    assert cond_values(c) == {"hardware": ("8×H100", "sentence"), "model": ("Llama 3.1 70B", "sentence"),
                              "dataset": ("MT-Bench", "sentence"), "batch_size": ("1", "sentence")}
    assert c.conditions["hardware"].line == 12 and c.conditions["hardware"].surface == "8×H100"
    assert (c.subject, c.metric, c.role, c.section, c.entry) == ("eagle-3", "speedup", "body",
                                                               "二、今日该主题最重要的增量（4 条）", "增量 1")
    # the next bullet of the same entry inherits the setup at entry scope
    sib = by(cs, 12, "1.3–1.6×")
    assert cond_values(sib)["hardware"] == ("8×H100", "entry")
    assert sib.subject == "specinfer"


def test_entry_setup_bullet_applies_to_figures_under_it():
    _, cs, _ = zh_claims()
    for s in ("2,430 tok/s", "1,800 tok/s", "38%", "0.45 s"):
        cv = cond_values(by(cs, 16, s))
        assert cv["hardware"] == ("A100", "entry") and cv["model"][0] == "Qwen2.5 7B"
        assert cv["workload"] == ("long-prompt", "entry") and cv["context_length"] == ("8K", "entry")
    # a sentence of its own overrides the entry's workload
    assert cond_values(by(cs, 16, "2-5%"))["workload"] == ("short-prompt", "sentence")


def test_figures_without_stated_conditions_have_none():
    _, cs, _ = zh_claims()
    assert by(cs, 25, "2,400 tok/s").conditions == {}
    assert by(cs, 2, "3.1×").conditions == {}      # the header line names no setup for EAGLE-3
    assert set(by(cs, 28, "1.9×").conditions) == {"precision"}   # FP8 only; H200 is in another line


def test_metrics():
    _, cs, _ = zh_claims()
    want = {(14, "35%"): "throughput_lead", (16, "2,430 tok/s"): "throughput", (16, "约 35%"): "gap",
            (16, "38%"): "latency_p99", (16, "0.45 s"): "ttft", (12, "约 4.2 token"): "acceptance_length",
            (20, "近三成"): "memory", (25, "62 GB"): "memory", (2, "1.9×"): "speedup"}
    got = {k: by(cs, *k).metric for k in want}
    assert got == want


def test_subject_and_baseline():
    _, cs, _ = zh_claims()
    c = by(cs, 14, "35%")
    assert (c.subject, c.baseline) == ("lmdeploy", "vllm")
    # the header's 'LMDeploy 35% 领先' is the same lead: same subject, metric and baseline
    h = by(cs, 2, "35%")
    assert (h.subject, h.metric, h.baseline) == ("lmdeploy", "throughput_lead", "vllm")
    assert by(cs, 16, "2,430 tok/s").subject == "lmdeploy" and by(cs, 16, "1,800 tok/s").subject == "vllm"
    assert by(cs, 25, "2,400 tok/s").subject == "tgi"
    assert by(cs, 28, "1.9×").subject == "tensorrt-llm"


def test_markers_entry_and_sentence():
    _, cs, _ = zh_claims()
    for s in ("两倍", "近三成"):
        m = by(cs, 20, s).markers
        assert "abstract_only" in m and "unverified" in m
    assert by(cs, 28, "1.9×").markers == ["unverified"]     # T1 待核实
    assert by(cs, 16, "38%").markers == []


def test_sources_per_entry_with_ratings_and_document_fallback():
    _, cs, _ = zh_claims()
    s = by(cs, 16, "38%").sources
    assert [(x.ref, x.rating) for x in s] == [("inbox/amy/2026-11-02-serving-digest.md", 5)]
    assert {x.ref for x in by(cs, 20, "两倍").sources} == {"2610.04412", "organized/paper_cards/1802-2610-04412.md"}
    assert [x.ref for x in by(cs, 2, "3.1×").sources] == ["inference.md"]     # header: 基线：inference.md


def en_claims():
    doc = segment(EN.read_text(encoding="utf-8"), str(EN))
    cs = [make(doc, 13, "2.4×", 2.4), make(doc, 14, "roughly 50%", 0.5), make(doc, 14, "1.6×", 1.6),
          make(doc, 17, "35%", 0.35), make(doc, 17, "2–5%", None, 0.02, 0.05), make(doc, 18, "about 450 ms", 0.45),
          make(doc, 21, "140 GB", 1.4e11), make(doc, 21, "38 GB", 3.8e10), make(doc, 21, "73%", 0.73),
          make(doc, 22, "62 GB", 6.2e10), make(doc, 22, "about 12%", 0.12)]
    return doc, cs, annotate(doc, cs)


def test_english_conditions_and_precondition_gaps():
    _, cs, _ = en_claims()
    c = by(cs, 13, "2.4×")
    assert cond_values(c)["hardware"] == ("8×H100", "sentence") and c.metric == "speedup"
    # 'That is roughly 50% better than SpecInfer's best case of 1.6×' refers back to that setup
    assert cond_values(by(cs, 14, "1.6×"))["model"] == ("Llama 3.1 70B", "sentence")
    # 'LMDeploy is 35% faster than vLLM.' states no setup; the next sentence's 'short prompts' is not its
    lead = by(cs, 17, "35%")
    assert lead.conditions == {} and (lead.subject, lead.baseline, lead.metric) == ("lmdeploy", "vllm", "throughput_lead")
    ttft = by(cs, 18, "about 450 ms")
    assert ttft.metric == "ttft" and ttft.conditions == {}
    # sources: the document's 'Sources reviewed:' line
    assert [s.ref for s in c.sources] == ["inbox/amy/2026-11-02-serving-digest.md", "knowledge/inference.md"]


def test_section_scope_setup_line():
    text = ("# Digest\n\n## EAGLE-3 on H100\nSetup: 8×H100 SXM, Llama 3.1 70B, MT-Bench, batch size 1.\n"
            "- EAGLE-3 decoding speedup: 2.4× over autoregressive decoding.\n"
            "- SpecInfer on the same setup: 1.3–1.6×.\n")
    doc = segment(text)
    cs = [make(doc, 5, "2.4×", 2.4), make(doc, 6, "1.3–1.6×", None, 1.3, 1.6)]
    annotate(doc, cs)
    for c in cs:
        # the setup line introduces the bullets (and states its section's setup)
        assert cond_values(c)["hardware"] == ("8×H100", "list")
        assert c.metric == "speedup"
    assert [c.subject for c in cs] == ["eagle-3", "specinfer"]


def test_document_scope_and_table_row_scope():
    text = ("# Bench (H100, Llama 3.1 8B)\n\n## Results\n\n| system | model | tput |\n|---|---|---|\n"
            "| vLLM | Qwen2.5-7B | 2,000 tok/s |\n")
    doc = segment(text)
    c = make(doc, 7, "2,000 tok/s", 2000)
    annotate(doc, [c])
    cv = cond_values(c)
    assert cv["model"] == ("Qwen2.5 7B", "row")           # the row names the model
    assert cv["hardware"] == ("H100", "document")         # the title names the hardware


def test_hedge_and_conditional_sentence_markers():
    text = "## Notes\n\nReportedly SGLang is 20% faster. 条件性：vLLM 吞吐提升 10%。\n"
    doc = segment(text)
    cs = [make(doc, 3, "20%", 0.2), make(doc, 3, "10%", 0.1)]
    annotate(doc, cs)
    assert cs[0].markers == ["hedged"] and cs[1].markers == ["conditional"]


def test_setup_subsection_applies_to_sibling_results():
    text = ("## 基准测试结果\n\n### 测试配置\n\n* **GPU：** 8× AMD Instinct™ MI300X\n* 模型：DeepSeek-R1\n\n"
            "### 吞吐\n\n- DP+EP 吞吐提升 52%\n")
    doc = segment(text)
    c = make(doc, 10, "52%", 0.52)
    annotate(doc, [c])
    cv = cond_values(c)
    assert cv["hardware"] == ("8×MI300X", "section") and cv["model"] == ("DeepSeek R1", "section")


def test_header_links_are_not_sources_but_block_links_are():
    text = ("# Digest\n\n- [vLLM](https://github.com/vllm-project/vllm)\n\n## News\n\n"
            "- SGLang is 20% faster ([PR](https://github.com/sgl-project/sglang/pull/1)).\n- vLLM adds 5% more.\n")
    doc = segment(text)
    cs = [make(doc, 7, "20%", 0.2), make(doc, 8, "5%", 0.05)]
    annotate(doc, cs)
    assert [s.ref for s in cs[0].sources] == ["https://github.com/sgl-project/sglang/pull/1"]
    assert cs[1].sources == []


from hypothesis import given, settings, strategies as st  # noqa: E402

_PIECES = st.sampled_from([
    "LMDeploy：2,430 tok/s", " vs ", "vLLM：1,800 tok/s（差距约 35%）", " - ", "要点：", "\n", "增量 1 · ",
    "实测条件（8×H100，Llama 3.1 70B）：", "EAGLE-3 加速 3.1×", "from 140 GB to 38 GB, a 73% reduction",
    "roughly 50% better than SpecInfer's 1.6×", "## Warnings\n", "四、值得警惕的矛盾或待核实说法（2 条）\n",
    "| a | 5% |\n|---|---|\n", "`2x`", "待核实", "Setup: H100.\n", "来源：a/b.md\n", "。", ", ", "(", "）",
])


@settings(max_examples=60, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join) | st.text(max_size=200))
def test_analyze_never_raises_and_context_is_consistent(text):
    import claims
    a = claims.analyze(text)
    for c in a.claims:
        assert text[c.start:c.end] == c.surface
        assert c.role in ("header", "body", "warnings", "summary", "sources_table", "references")
        for facet, cd in c.conditions.items():
            assert cd.facet == facet and cd.scope in ("sentence", "paragraph", "row", "table", "bullet", "list", "entry",
                                                          "section", "header", "document")
    for d in a.derivations:
        for c in (d.stated, *d.operands):
            # a claim's comparison is a derivation it takes part in
            if c is not None and any(c is x for x in a.claims):
                held = a.derivations[c.comparison]
                assert any(c is x for x in (held.stated, *held.operands))


def test_appendix_setup_is_the_documents_and_code_spans_name_models():
    text = ("# Post\n\n## Results\n\n- Throughput rose 25%.\n\n## **Appendix**\n\n### **A.1: Benchmark Setup Details**\n\n"
            "* **Model**: `Qwen/Qwen-32B`.\n* **Hardware**: 8 pods on **2 NVIDIA H100 GPUs** each.\n")
    doc = segment(text)
    assert doc.sections[1].title == "Appendix"
    c = make(doc, 5, "25%", 0.25)
    annotate(doc, [c])
    assert cond_values(c) == {"model": ("Qwen 32B", "document"), "hardware": ("2×H100", "document")}


def test_vocabulary_scans_stay_linear_on_blank_runs():
    import time
    from claims.conditions import find_conditions
    from claims.entities import find_entities
    for text in ("8" + " " * 100000 + "x", "concurrency" + " " * 100000 + "x", "来源" + " " * 100000):
        t = time.perf_counter()
        find_conditions(text)
        find_entities(text)
        assert time.perf_counter() - t < 10


def test_lead_paragraph_is_document_setup_but_header_labels_and_bullets_are_not():
    text = ("# Post\n\nWe ran Llama 3.1 70B on 8×H100 for every test below.\n\n## Results\n\n- SGLang is 20% faster.\n")
    doc = segment(text)
    c = make(doc, 7, "20%", 0.2)
    annotate(doc, [c])
    assert cond_values(c) == {"model": ("Llama 3.1 70B", "document"), "hardware": ("8×H100", "document")}
    # a section-less note: one bullet's model is not another bullet's setup
    doc = segment("# Notes\n\n- TensorRT-LLM FP8 gives a 1.9× speedup.\n- AWQ cuts memory for Llama 3.1 70B.\n")
    c = make(doc, 3, "1.9×", 1.9)
    annotate(doc, [c])
    assert "model" not in c.conditions


def _lengths(text):
    from claims.api import analyze
    a = analyze(text, "r.md")
    return [(c.surface, (c.conditions.get("context_length").value if c.conditions.get("context_length") else None))
            for c in a.claims if c.kind == "throughput"]


def test_respectively_gives_each_figure_its_own_condition_en():
    got = _lengths("# EP\n\n## Results\n\nOn 4 nodes of 8×H100 the system achieved per-node throughputs of "
                   "57,674, 54,543, and 50,302 tokens per second for prompt lengths of 1K, 2K, and 4K, "
                   "respectively.\n")
    assert [v for _, v in got] == ["1K", "2K", "4K"]


def test_respectively_gives_each_figure_its_own_condition_zh():
    got = _lengths("# EP\n\n## 结果\n\n在 8×H100 上，1K、2K、4K 输入长度下的吞吐分别为 57,674、54,543 和 "
                   "50,302 tokens/s。\n")
    assert [v for _, v in got] == ["1K", "2K", "4K"]


def test_without_respectively_a_list_of_lengths_is_no_one_to_one_match():
    got = _lengths("# EP\n\n## Results\n\nOn 8×H100 we measured 57,674, 54,543, and 50,302 tokens per "
                   "second across prompt lengths of 1K, 2K, and 4K.\n")
    assert len({v for _, v in got}) == 1


def test_a_token_count_is_one_spelling_whatever_its_form():
    from claims.conditions import k_tokens
    assert [k_tokens(v) for v in ("2000", "2048", "2 k", "2K", "4096", "1500", "512")] == \
        ["2K", "2K", "2K", "2K", "4K", "1500", "512"]


def test_a_comparative_written_as_a_label_is_no_subject():
    from claims.api import extract
    got = {c.surface: c.subject for c in extract(
        "- **Updates are Faster:** 3.7x speedup for large datasets.\n- **EvalKit:** 3.2x\n- **更快：** 2.1x\n", "t.md")}
    assert got["3.7x"] is None          # 'Faster' says what the figure claims, not of what
    assert got["3.2x"] == "evalkit"     # a name written as the label still is


def test_a_column_header_naming_one_of_several_gpus_conditions_its_own_column():
    from claims.api import extract
    text = ("# TensorRT-LLM vs llama.cpp\n\nWe ran Mistral 7B int4.\n\n"
            "| | 4090 Desktop | 3090 Desktop | 4060 Laptop |\n| --- | --- | --- | --- |\n"
            "| TensorRT-LLM | 159 tok/s | 140.27 tok/s | 19 tok/s |\n\n"
            "| 引擎 | H100 吞吐 | A100 吞吐 |\n| --- | --- | --- |\n| vLLM | 2,400 tok/s | 1,500 tok/s |\n")
    hw = {c.surface: c.conditions["hardware"].value for c in extract(text, "t.md") if "hardware" in c.conditions}
    assert (hw["159 tok/s"], hw["140.27 tok/s"], hw["19 tok/s"]) == ("RTX 4090", "RTX 3090", "RTX 4060")
    assert (hw["2,400 tok/s"], hw["1,500 tok/s"]) == ("H100", "A100")


def test_hardware_named_only_in_a_section_about_it_is_no_setup_of_the_post():
    from claims.api import extract
    text = ("# Julia 1.9 highlights\n\n## Load times\n\n| package | TTFX [s] |\n| --- | --- |\n| CSV | 11.66 |\n\n"
            "## Apple Silicon Achieves Tier 1 Status\n\nCI is now established for Apple Silicon.\n")
    (c,) = [c for c in extract(text, "t.md") if c.surface == "11.66"]
    assert "hardware" not in c.conditions
    # named across the post's sections, it is the post's machine
    text2 = text.replace("## Load times\n", "## Load times\n\nAll runs on Apple Silicon (M2 Max).\n")
    (c2,) = [c for c in extract(text2, "t.md") if c.surface == "11.66"]
    assert c2.conditions["hardware"].value
