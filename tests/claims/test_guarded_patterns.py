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

    caches = [entities._tables, conditions._facets, context._metrics, context._setup_rx, markers._pattern]
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
