"""Fuzz the whole check pipeline with briefing-like Markdown (zh/en mixed, tables,
figures in every style, markers, sources, hostile control characters).

The properties are in ``fuzz_props.check_corpus``. The default suite tries a modest
number of examples; ``-m slow`` runs many more, and ``benchmark/fuzz_long.py`` runs
for minutes with the same generator and properties (see benchmark/FUZZ.md).
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import fuzz_props
from .fuzz_props import FORMATS, check_corpus
from .hostile_gen import HypothesisChooser, briefing

COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module", autouse=True)
def rules_loaded_once():
    with fuzz_props.rules_loaded_once():
        yield


@st.composite
def corpora(draw):
    c = HypothesisChooser(draw)
    return [briefing(c) for _ in range(c.integer(1, 3))]


@settings(max_examples=20, **COMMON)
@given(texts=corpora(), fmt=st.sampled_from(FORMATS))
def test_fuzz_check_pipeline(texts, fmt):
    check_corpus(texts, fmt)


@settings(max_examples=40, **COMMON)
@given(text=st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",),
                                                exclude_characters="\x00"), max_size=400))
def test_fuzz_arbitrary_unicode(text):
    """Any Unicode text (not only briefing-like) checks cleanly."""
    check_corpus([text], "json")


@pytest.mark.slow
@settings(max_examples=1500, **COMMON)
@given(texts=corpora(), fmt=st.sampled_from(FORMATS))
def test_fuzz_check_pipeline_long(texts, fmt):
    check_corpus(texts, fmt)


# Inputs the fuzzers found, minimized; each must check cleanly like any other text.
# name: (text, None once fixed | reason naming the owner module while it fails)
FOUND = {
    "bound_operand_gap": ("SGLang 45 tok/s vs vLLM >342 tok/s（差距约 2×）\n", None),
    "bound_operand_than": ("5%比超9%下降三成\n", None),
    "infinite_value": ("QuantSpec≥" + "9" * 308 + "万tok/s\n", None),   # 1e308 finite, x 万 = inf
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=r)) if r else n
                                  for n, (_t, r) in sorted(FOUND.items())])
def test_found_by_fuzzing(name):
    check_corpus([FOUND[name][0]], "json")
