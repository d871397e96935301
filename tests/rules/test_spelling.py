"""One name spelled two ways: what claims/names.py reads and what CV601 / CV602 judge of it.

The rule cases (tests/rules/cases/CV601.yaml, CV602.yaml) run whole briefings through the
pipeline; these tests pin the reading (which tokens are names, their offsets, checkpoint ids,
titles) and the judge's choice of spelling on small texts.
"""
from hypothesis import given, settings
from hypothesis import strategies as st

import claims
from claims import names
from validator import packs
from validator.facts import Context
from validator.kinds import entity


def read(text):
    return names.read(claims.analyze(text, "b.md"))


def spelled(text):
    """(reported spelling, supported spelling, basis) for each CV601 fact of ``text``."""
    rule = next(r for r in packs.load_all() if r.code == "CV601")
    ctx = Context(claims.analyze(text, "b.md"), lang="en")
    return [(f["surface"], f["_side"]["vars"]["other"], f["basis"]) for f in entity.Spelling.facts(rule, ctx)]


# ---------------------------------------------------------------- reading

def test_names_carry_their_place_in_the_text():
    text = "# Notes\n\nWe compare SpecInfer with EAGLE-3 here.\n对比SpecInfr的加速\n"
    got = read(text).names
    assert [n.surface for n in got] == ["Notes", "SpecInfer", "EAGLE-3", "SpecInfr"]
    for n in got:
        assert text[n.start:n.end] == n.surface
        line_start = text.rfind("\n", 0, n.start) + 1
        assert (n.line, n.col) == (text.count("\n", 0, n.start) + 1, n.start - line_start + 1)


def test_code_comments_urls_link_targets_tags_and_front_matter_give_no_names():
    text = ("---\ntitle: FrontName\n---\n# Notes\n\n"
            "Prose SpecInfer. `InlineName` <!-- CommentName --> https://example.com/UrlName\n"
            "[LinkText](https://example.com/TargetName) <span class=\"TagName\">x</span>\n\n"
            "```\nFencedName\n```\n\n    IndentedName\n")
    got = {n.surface for n in read(text).names}
    assert {"SpecInfer", "LinkText"} <= got
    assert not got & {"FrontName", "InlineName", "CommentName", "UrlName", "TargetName", "TagName",
                      "FencedName", "IndentedName"}


def test_checkpoint_ids_are_read_with_their_organisation_even_as_inline_code():
    text = "# Notes\n\nA Qwen/Qwen3-32B instance.\n\n* **Model**: `Qwen/Qwen-32B`.\n"
    ids = [(n.surface, n.org, n.code) for n in read(text).names if n.org]
    assert ids == [("Qwen/Qwen3-32B", "Qwen", False), ("Qwen/Qwen-32B", "Qwen", True)]
    # 'A/B' alternatives and paths are not checkpoint ids
    alt = "# Notes\n\nvLLM/SGLang on H100/H200, see docs/Qwen3-32B/config.\n"
    assert [n.surface for n in read(alt).names if n.org] == []


def test_forms_say_what_comparing_needs():
    f = names.form("Qwen/Qwen3-32B-FP8", "Qwen")
    assert (f.org, f.family, f.generation, f.rest, f.checkpoint) == ("qwen", "qwen", "3", "32b-fp8", True)
    assert names.form("Qwen/Qwen-32B", "Qwen").checkpoint is False
    assert names.form("HiCache").words == ("hi", "cache")
    assert names.form("Pytorch").known == "PyTorch"          # any case of a vocabulary name
    assert [names.form(t).shape for t in ("Grok-1", "SpecInfer", "TTFT", "Triton", "tokens")] == \
        ["name", "name", "name", "word", "lower"]


def test_titles_of_an_arxiv_id_from_tables_links_and_lines():
    text = ("# Papers\n\n增量 3 · QuantSpec: 4-bit KV Cache（arXiv:2610.04412）\n\n"
            "See [Medusa: Simple Inference Acceleration](https://arxiv.org/abs/2610.04412).\n\n"
            "| arXiv 号 | 标题 |\n|---|---|\n| 2610.04412 | SpecInfer: Tree-based Verification |\n")
    ts = read(text).titles["2610.04412"]
    assert [(t.via, t.surface) for t in ts] == [
        ("line", "QuantSpec: 4-bit KV Cache"), ("link", "Medusa: Simple Inference Acceleration"),
        ("table", "SpecInfer: Tree-based Verification")]
    for t in ts:
        assert text[t.start:t.start + len(t.surface)] == t.surface
    assert ts[1].norm == "medusa: simple inference acceleration"
    assert "medusa" in ts[1].words and "inference" not in ts[1].words


def test_the_english_word_list_is_what_its_generator_writes():
    sample = {"infer": 1053, "triton": 56, "copper": 9000, "Caps": 900, "a": 5000, "naïve": 300}
    assert names.english_words(sample) == ["copper", "infer"]
    assert names.is_english("Copper") and names.is_english("identity")
    assert not names.is_english("infr") and not names.is_english("trition")


@settings(max_examples=60, deadline=None)
@given(st.sets(st.text("abcdez", min_size=1, max_size=5), max_size=40), st.lists(st.text("abcdez", max_size=6), max_size=30))
def test_a_sorted_word_file_answers_like_a_set(tmp_path_factory, words, asked):
    path = tmp_path_factory.mktemp("words") / "w.txt"
    path.write_text("# header\n# more\n" + "".join(w + "\n" for w in sorted(words)), encoding="utf-8")
    found = names.SortedWords(str(path))
    for w in asked + sorted(words):
        assert (w in found) == (w in words), w


# ---------------------------------------------------------------- judging

def test_the_spelling_the_context_supports_wins_however_often_the_other_is_written():
    # the typo is the common form: the vocabulary still says Triton
    text = "# Kernels\n\nTrition kernels. Trition autotune. Trition again. One Triton call.\n"
    assert spelled(text) == [("Trition", "Triton", "vocabulary")]
    # a case variant is one name written differently
    assert spelled("# Notes\n\nPytorch and PyTorch and PYTORCH.\n") == []


def test_a_dropped_generation_in_a_checkpoint_id():
    text = "# Notes\n\nA Qwen/Qwen3-32B instance.\n\n* **Model**: `Qwen/Qwen-32B`.\n"
    assert spelled(text) == [("Qwen/Qwen-32B", "Qwen/Qwen3-32B", "checkpoint")]
    # two published checkpoints are two models
    assert spelled("# Notes\n\nQwen/Qwen-7B against Qwen/Qwen2-7B.\n") == []
    # neither published: nothing says which is right
    assert spelled("# Notes\n\nAcme/Foo-7B against Acme/Foo2-7B.\n") == []


def test_a_last_digit_written_twice():
    text = "# Models\n\nGrok-1 is large. Grok-1 has 8 experts. Grok-1 again.\n\n| 模型 | Grok-11 |\n|---|---|\n| a | 1 |\n"
    assert spelled(text) == [("Grok-11", "Grok-1", "doubled")]
    # a version suffix, a one-letter version code and a number are not a repeated digit
    assert spelled("# N\n\nLlama-3 and Llama-3.3 and Llama-3.\n") == []
    assert spelled("# N\n\nMoonProto-v1 and MoonProto-v11 and MoonProto-v1.\n") == []


def test_the_dictionary_and_the_majority_decide_when_nothing_else_does():
    assert spelled("# N\n\ncheckServerIdentity() and later checkServerIndentity().\n") == \
        [("checkServerIndentity", "checkServerIdentity", "dictionary")]
    assert spelled("# N\n\nDeepSeek-V4 runs. DeepSeek-V4 wins. DeepSeek4 garbles.\n") == \
        [("DeepSeek4", "DeepSeek-V4", "majority")]
    # without outside support, a spelling written everywhere is a name of its own
    assert spelled(" ".join(["FlashMLQ"] * 4 + ["FlashMLR"] * 4)) == []


def test_distinct_things_are_kept_apart():
    text = ("# Notes\n\nvLLM and vLLM-Omni differ; H100 vs H200; Qwen3 vs Qwen2; Qwen2 vs Qwen2.5; "
            "GPT-4 vs GPT-4o; EAGLE-3 is also written EAGLE3; SGLang or SGlang; MiniMax-M3 and "
            "MiniMax-H3; PESQ-WB and PESQ-NB; Tokens and Token; DeepSeek and DeepSpeed; GEMMs on Gemma; "
            "MMLU and MMMU; NCCL and RCCL; HiCache and the HF-cache; TextEncoder and TextDecoder; "
            "readSync and readvSync; BigInt and BigUInt; UTF16-encoded and UTF16-LE-encoded; "
            "MixtralForCausalLM and MistralForCausalLM; Hopper GPUs over Copper cables.\n")
    assert spelled(text) == []


def test_the_rule_says_in_both_languages_what_supports_the_other_spelling():
    rule = next(r for r in packs.load_all() if r.code == "CV601")
    for basis in entity.BASES:
        phrases = rule.params["support"][basis]
        assert phrases["en"] and phrases["zh"], basis
