"""entities.guarded() only speeds a scan up: for every vocabulary pattern built from the
data files it finds exactly what the plain compiled pattern finds.

guarded() prefixes a lookahead for the characters a match can begin with, read from the
parsed pattern; a future pattern in claims/data/*.yaml that the analysis gets wrong
would silently drop matches, so the check runs over all of them."""
import re

import pytest
from hypothesis import given, settings, strategies as st

import claims.conditions as conditions
import claims.context as context
import claims.entities as entities
import claims.markers as markers


@pytest.fixture(scope="module")
def patterns():
    seen = []
    real = entities.guarded

    def record(pattern, flags=0):
        seen.append((pattern, flags))
        return real(pattern, flags)

    caches = [entities._tables, conditions._facets, context._metrics, markers._pattern]
    for f in caches:
        f.cache_clear()
    mp = pytest.MonkeyPatch()
    for mod in (entities, conditions, context, markers):
        if hasattr(mod, "guarded"):
            mp.setattr(mod, "guarded", record)
    try:
        for f in caches:
            f()
    finally:
        mp.undo()
        for f in caches:
            f.cache_clear()
    assert len(seen) >= 6, seen
    return [(p, f, real(p, f), re.compile(p, f)) for p, f in seen]


# characters the vocabularies start with, digits, CJK, and case-folding oddities
ALPHABET = st.sampled_from(list("aAbBcCdeEgGhHiIklLmMnNoOpPqQrRsStTuvVwxX0123456789 -_.:/×x（）()，,"
                                "吞吐延迟显存并发模型上下文长度待核实测条件") + ["ſ", "İ", "K", "ı"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(ALPHABET, st.sampled_from(["H100", "vLLM", "SGLang", "Llama 3.1 8B", "batch size",
                                                     "8×H100", "TTFT", "吞吐", "待核实", "Qwen2.5-7B", "A100 80GB"])),
                max_size=40).map("".join))
def test_guarded_finds_what_the_plain_pattern_finds(patterns, text):
    for pattern, flags, fast, plain in patterns:
        got = [(m.span(), m.groups()) for m in fast.finditer(text)]
        want = [(m.span(), m.groups()) for m in plain.finditer(text)]
        assert got == want, pattern[:120]


def _longest_first(names):
    """The reference: names as a longest-first alternation under re.IGNORECASE."""
    return "|".join(re.escape(k).replace(r"\ ", r"[\s\-]?") for k in sorted(names, key=len, reverse=True))


@pytest.fixture(scope="module")
def name_patterns():
    """(prefix-tree pattern without IGNORECASE, reference alternation with it) for the system
    and hardware vocabularies of claims/data/entities.yaml."""
    sys_alias, sys_rx, hw_alias, _, _ = entities._tables()
    out = [(sys_rx, re.compile(entities._WORD_BEFORE + "(?:" + _longest_first(sys_alias) + ")"
                               + entities._WORD_AFTER, re.IGNORECASE))]
    _, _, _, hw_rx, _ = entities._tables()
    out.append((hw_rx, re.compile(
        r"(?<![A-Za-z0-9_])(?:(?P<n>\d{1,5})\s{0,3}(?:[×xX*]|块|张|卡|颗)?\s{0,3})?"
        r"(?:(?:NVIDIA|Nvidia|AMD|Intel|Google)\s{1,3})?(?:(?:Instinct|Tesla|GeForce|Radeon)(?:™|®)?\s{1,3})?"
        r"(?P<hw>" + _longest_first(hw_alias) + r")"
        r"(?:\s{0,3}(?:SXM\d?|PCIe|NVL\d*))?(?:\s{0,3}(?P<mem>\d{2,3})\s{0,3}G(?:i?B)?)?(?![A-Za-z0-9_])",
        re.IGNORECASE)))
    return out, sorted(sys_alias) + sorted(hw_alias)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_name_prefix_trees_match_what_the_ignorecase_alternation_matches(name_patterns, data):
    pats, names = name_patterns
    # names of the vocabulary with their case shuffled, cut short or run together, among
    # separators, counts, vendor words and the characters whose case folding is not ASCII
    piece = st.one_of(
        st.sampled_from(names).flatmap(lambda n: st.lists(st.booleans(), min_size=len(n), max_size=len(n)).map(
            lambda up: "".join(c.upper() if u else c for c, u in zip(n, up)))),
        st.sampled_from(names).map(lambda n: n[:-1]),
        st.sampled_from(["8×", "8 x ", "96 ", "NVIDIA ", "amd instinct™ ", " SXM", " pcie", " NVL72", " 80GB", " 24g",
                         "-", ".", " ", "\n", "_", "ſ", "İ", "ı", "K", "v2", "1"]))
    text = "".join(data.draw(st.lists(piece, max_size=12)))
    for fast, ref in pats:
        assert [(m.span(), m.groups()) for m in fast.finditer(text)] == \
               [(m.span(), m.groups()) for m in ref.finditer(text)], text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 20)), max_size=20), st.integers(-5, 90))
def test_covered_answers_as_a_scan_of_every_span_would(spans, x):
    # a few spans are tested in turn, many through the merged index: both must agree with the plain scan
    spans = [(s, s + n) for s, n in spans]
    assert (x in entities.Covered(spans)) == any(s <= x < e for s, e in spans)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["https://a.b/c", "HTTP://X.Y", "www.example.com/x", "[t](u/v.md)", "<br/>", "a/b/c.md",
                                 "notes.PY", "x.ipynb", "arXiv:2401.12345", "ARXIV 2401.1234", "⭐⭐", "&amp;", "#123",
                                 "[^1]", "[12]", " ", "\n", "/", ".", "ſ", "K", "İ", "ı", "3.1×", "vLLM", "中文"]),
                max_size=12).map("".join))
def test_mask_pass_without_impossible_alternatives_finds_what_the_whole_alternation_finds(text):
    from claims import markdown as segment
    assert [m.span() for m in segment.mask_pattern(text).finditer(text)] == \
           [m.span() for m in segment.MASK_RX.finditer(text)]


BOUNDARY_PATTERNS = [r"\bfoo|bar", r"(?:\bx|y)z", r"\b(?:ab|\bcd)|ef", r"(?a:\bé)|q", r"(?:\b)?ab", r"\b\d+|中文",
                     r"(?P<g>\bab)|(?P<h>b\b)", r"x*\bab", r"(?<=a)\bb|\bc",
                     r"(?<![a-z0-9_])foo|bar|(?<!x)ab", r"(?<![A-Z])(?:x|\by)|(?<!é)cd", r"(?a:(?<![\w])é)|q",
                     r"(?:(?<![a-z])ab)?cd", r"(?<!ab)cd|(?<![^a])x"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("abcdefoxyzqé _-中文1ABXſKİı") + ["foo", "bar", "ab", "cd"]), max_size=20).map("".join),
       st.sampled_from([0, re.IGNORECASE]))
def test_guard_with_word_boundaries_finds_what_the_plain_pattern_finds(text, flags):
    # alternatives behind '\b' are guarded by the boundary too: never a match lost or added
    for p in BOUNDARY_PATTERNS:
        fast, plain = entities.guarded(p, flags), re.compile(p, flags)
        assert [(m.span(), m.groups()) for m in fast.finditer(text)] == \
               [(m.span(), m.groups()) for m in plain.finditer(text)], (p, text)


def documents(prefixes, pieces, afters):
    """(text, block spans) of generated documents: each block is a prefix (a bullet mark, a
    table pipe, prose), the block's text made of ``pieces``, and what follows it."""
    def build(parts):
        text, spans = "", []
        for prefix, body, after in parts:
            text += prefix
            spans.append((len(text), len(text) + len(body)))
            text += body + after
        return text, spans
    block = st.tuples(st.sampled_from(prefixes), st.lists(st.sampled_from(pieces), max_size=6).map("".join),
                      st.sampled_from(afters))
    return st.lists(block, max_size=8).map(build)


@settings(max_examples=300, deadline=None)
@given(documents(["- ", "| ", "## ", "", "  - "],
                 ["H100", "8×", "8 x ", "A100 80GB", "Llama 3.1 70B", "Qwen2.5-7B", "vLLM", " SXM", "\n", " ", "x",
                  "-", "3.1", "NVIDIA ", "|"],
                 ["\n", " |", "x", "", "\nSXM ", "-"]))
def test_names_from_one_scan_are_the_names_of_each_block_alone(doc):
    # one scan of the whole text must give every block exactly what scanning it alone gives
    text, spans = doc
    kinds = ("hardware", "model")
    assert entities.find_entities_in_spans(text, spans, kinds) == \
        [entities.find_entities(text, s, e, kinds) for s, e in spans]


@settings(max_examples=300, deadline=None)
@given(documents(["- ", "| ", "", "x" * 70 + "\n- "],
                 ["ShareGPT", "batch size 8", "bs=16", "64 users", "FP8", "8-bit", "context 32K", "长上下文（128K）",
                  "H100", "Llama 3.1 70B", "vLLM", "\n", " ", "x", "-", "concurrency", " 32", "|"],
                 ["\n", " |", "x", "", "\n16 users ", "-"]))
def test_conditions_from_one_scan_are_the_conditions_of_each_block_alone(doc):
    # the facet patterns and system names, scanned once over runs of blocks (with prose
    # between runs), give every block what scanning it alone gives
    from claims.conditions import find_conditions, find_conditions_in_spans
    text, spans = doc
    names = entities.find_entities_in_spans(text, spans, ("hardware", "model"))
    assert find_conditions_in_spans(text, spans, names) == \
        [find_conditions(text, s, e, n) for (s, e), n in zip(spans, names)]
    assert entities.find_entities_in_spans(text, spans, ("system",)) == \
        [entities.find_entities(text, s, e, ("system",)) for s, e in spans]
