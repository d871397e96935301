"""One name spelled two ways is found; distinct products and harmless variants are not."""
from validator import spelling


def pairs(text):
    return [(m.rare, m.common) for m in spelling.find_misspellings(text)]


def test_typo_of_a_system_name_is_found():
    text = "对比 SpecInfer 的 1.3–1.6× 加速。与 SpecInfr 不同，EAGLE-3 不需要额外数据"
    assert pairs(text) == [("SpecInfr", "SpecInfer")]


def test_distinct_products_and_variants_are_not_misspellings():
    text = ("vLLM and vLLM-Omni differ; H100 vs H200; Qwen3 vs Qwen2; GPT-4 vs GPT-4o; "
            "EAGLE-3 is also written EAGLE3; SGLang or SGlang; MiniMax-M3 and MiniMax-H3; "
            "PESQ-WB and PESQ-NB; Tokens and Token; DeepSeek and DeepSpeed; GEMMs on Gemma; "
            "see `SpecInfr` in code and https://example.com/SpecInfr")
    assert pairs(text + " SpecInfer") == []


def test_a_spelling_repeated_everywhere_is_not_a_typo():
    text = " ".join(["FlashMLA"] * 4 + ["FlashMLB"] * 4)
    assert pairs(text) == []
    assert pairs(" ".join(["FlashInfer"] * 4 + ["FlashInfr"])) == [("FlashInfr", "FlashInfer")]


def test_one_arxiv_id_with_two_titles():
    from validator import arxiv
    text = ("增量 3 · QuantSpec: 4-bit KV Cache（arXiv:2610.04412）\n"
            "| arXiv 号 | 标题 |\n|---|---|\n| 2610.04412 | Medusa: Simple Inference Acceleration |\n")
    conf = spelling.conflicting_titles(spelling.titles_for_ids(text, arxiv.find_ids(text)))
    assert [c[0] for c in conf] == ["2610.04412"]
    same = text.replace("Medusa: Simple Inference Acceleration", "QuantSpec: 4-bit KV Cache（🆕）")
    assert spelling.conflicting_titles(spelling.titles_for_ids(same, arxiv.find_ids(same))) == []
